// SPDX-License-Identifier: MIT
// Assertions on the end-of-game verdict (see rules_expect.h).
#include "rules_expect.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "oracle_util.h"
#include "rules.h"

void expect_going(Board *b) {
    GameResult r;
    if (rules_game_over(b, &r)) {
        char fen[FEN_BUFFER];
        fen_write(b, fen, sizeof fen);
        fail_msg("game over (%s) in %s, expected it to go on", rules_reason_name(r.reason), fen);
    }
    assert_int_equal(r.reason, REASON_NONE);
}

void expect_over(Board *b, int reason, Side winner, int cho_half, int han_half) {
    GameResult r;
    bool over = rules_game_over(b, &r);
    if (!over || r.reason != (EndReason)reason) {
        char fen[FEN_BUFFER];
        fen_write(b, fen, sizeof fen);
        fail_msg("in %s: over=%d reason %s, expected %s", fen, over, rules_reason_name(r.reason),
                 rules_reason_name((EndReason)reason));
    }
    assert_true(r.over);
    assert_false(r.draw);
    assert_int_equal(r.winner, winner);
    if (cho_half >= 0)
        assert_int_equal(r.points_half[CHO], cho_half);
    if (han_half >= 0)
        assert_int_equal(r.points_half[HAN], han_half);
    assert_int_equal(r.points_half[CHO], rules_points_half(b, CHO));
    assert_int_equal(r.points_half[HAN], rules_points_half(b, HAN));
}

void expect_drawn(Board *b, int reason) {
    GameResult r;
    bool over = rules_game_over(b, &r);
    if (!over || r.reason != (EndReason)reason || !r.draw) {
        char fen[FEN_BUFFER];
        fen_write(b, fen, sizeof fen);
        fail_msg("in %s: over=%d draw=%d reason %s, expected a draw by %s", fen, over, r.draw,
                 rules_reason_name(r.reason), rules_reason_name((EndReason)reason));
    }
}

void expect_move_refused(Board *b, const char *str, int want) {
    char before[FEN_BUFFER], after[FEN_BUFFER];
    fen_write(b, before, sizeof before);
    uint64_t key = board_key(b);
    Move m = MOVE_NONE;
    ErrorInfo err;
    memset(&err, 0, sizeof err);
    Status st = move_parse_uci(b, str, &m, &err);
    if (st != (Status)want)
        fail_msg("move '%s' in %s: status %s, expected %s (%s)", str, before, status_name(st),
                 status_name((Status)want), err.msg);
    assert_true(err.msg[0] != '\0');
    fen_write(b, after, sizeof after);
    assert_string_equal(before, after);
    assert_int_equal(key, board_key(b));
}

void expect_legal_moves(Board *b, const char *want) {
    char text[2048], *theirs[MAX_MOVES], buf[MAX_MOVES][MOVE_STR_LEN], *ours[MAX_MOVES];
    snprintf(text, sizeof text, "%s", want);
    int n = 0;
    for (char *tok = strtok(text, " "); tok && n < MAX_MOVES; tok = strtok(NULL, " "))
        theirs[n++] = tok;
    MoveList list;
    movegen_legal(b, &list);
    for (int i = 0; i < list.count; i++) {
        move_to_uci(list.moves[i], buf[i]);
        ours[i] = buf[i];
    }
    test_sort_strings(theirs, n);
    test_sort_strings(ours, list.count);
    char got[2048] = "";
    for (int i = 0; i < list.count; i++) {
        strncat(got, ours[i], sizeof got - strlen(got) - 1);
        strncat(got, " ", sizeof got - strlen(got) - 1);
    }
    if (n != list.count)
        fail_msg("legal moves: got %s, expected %s", got, want);
    for (int i = 0; i < n; i++)
        if (strcmp(theirs[i], ours[i]) != 0)
            fail_msg("legal moves: got %s, expected %s", got, want);
}
