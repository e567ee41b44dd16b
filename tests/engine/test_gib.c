// SPDX-License-Identifier: MIT
// .gib records (engine/gib.h, docs/gib.md): the samples of tests/data/gib read with their
// formations, moves and results, every move legal in turn; the square mapping; a CP949 file
// read as its UTF-8 text; every malformed record refused with the file and line; a game that
// ends where the rules end it (the 200-ply limit, two passes) with the moves after dropped and
// the rules' result; record by record, a malformed record refusing itself only.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "engine.h"
#include "gib.h"
#include "movegen.h"
#include "notation.h"
#include "rules.h"

#define GIB_DIR HANSU_SOURCE_DIR "/tests/data/gib/"

static Status parse(const char *text, GibGame **games, size_t *n, ErrorInfo *err) {
    return gib_parse("t.gib", text, strlen(text), games, n, err);
}

static void assert_move(const GibGame *g, int i, const char *uci) {
    char s[MOVE_STR_LEN];
    move_to_uci(g->moves[i], s);
    assert_string_equal(s, uci);
}

// Every move of g is legal in turn from its formations' start position.
static void assert_replays(const GibGame *g) {
    static Board b;
    formation_setup(&b, g->cho, g->han);
    for (int i = 0; i < g->nmoves; i++) {
        assert_true(movegen_is_pseudo_legal(&b, g->moves[i]));
        assert_true(movegen_is_legal(&b, g->moves[i]));
        board_make(&b, g->moves[i]);
    }
}

static void test_sample_utf8(void **state) {
    (void)state;
    GibGame *g;
    size_t n;
    ErrorInfo err;
    assert_int_equal(gib_read_file(GIB_DIR "short-game.gib", &g, &n, &err), STATUS_OK);
    assert_int_equal(n, 1);
    assert_int_equal(g->line, 1);
    assert_int_equal(g->cho, SANG_MA_SANG_MA);
    // The file writes Han's "마상마상" from file a: from Han's own left (file i) it is sang-ma.
    assert_int_equal(g->han, SANG_MA_SANG_MA);
    assert_int_equal(g->result, GIB_RESULT_HAN);
    assert_string_equal(g->result_text, "한 기권승");
    assert_string_equal(g->date, "2026.12.03");
    assert_string_equal(g->cho_player, "Cho player");
    assert_int_equal(g->nmoves, 18);
    assert_move(g, 0, "i4h4");               // 79졸78: row 7 is rank 4, file 9 is i
    assert_move(g, 9, "b8b4");               // 32포72졸: Han's cannon takes the soldier
    assert_move(g, 10, "a1a10");             // 01차11차: row 0 is rank 1, row 1 rank 10
    assert_true(move_is_pass(g->moves[11])); // 한수쉼
    assert_replays(g);
    gib_free(g);
}

// The CP949 sample equals its UTF-8 text: two records, Hanja pieces with side marks, a comment
// over two lines, a capture mark, a pass.
static const char TWO_RECORDS_UTF8[] =
    "[대회명 \"Hansu test records, Hanja moves\"]\n[초대국자 \"甲\"]\n[한대국자 \"乙\"]\n"
    "[초차림 \"마상상마\"]\n[한차림 \"마상상마\"]\n[총수 \"4\"]\n[대국결과 \"漢 勝\"]\n"
    "{ a comment between the header and the moves,\n  over two lines }\n"
    "1. 79楚卒78 2. 41漢兵42 3. 02楚馬83 4. 12漢馬33\n\n"
    "[대회명 \"Hansu test records, second game\"]\n[초차림 \"상마마상\"]\n[한차림 \"마상마상\"]\n"
    "[대국결과 \"미상\"]\n\n1. 75졸65 2. 45병55 3. 65졸55병 {a capture} 4. 한수쉼\n";

static void test_sample_cp949(void **state) {
    (void)state;
    GibGame *g, *u;
    size_t n, nu;
    ErrorInfo err;
    assert_int_equal(gib_read_file(GIB_DIR "two-records-cp949.gib", &g, &n, &err), STATUS_OK);
    assert_int_equal(parse(TWO_RECORDS_UTF8, &u, &nu, &err), STATUS_OK);
    assert_int_equal(n, 2);
    assert_int_equal(nu, 2);
    assert_int_equal(g[1].line, 12);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(g[i].nmoves, u[i].nmoves);
        assert_memory_equal(g[i].moves, u[i].moves, sizeof(Move) * (size_t)g[i].nmoves);
        assert_string_equal(g[i].event, u[i].event);
        assert_string_equal(g[i].cho_player, u[i].cho_player);
        assert_replays(&g[i]);
    }
    assert_int_equal(g[0].result, GIB_RESULT_HAN);
    assert_int_equal(g[1].result, GIB_RESULT_UNKNOWN);
    assert_int_equal(g[1].cho, SANG_MA_MA_SANG);
    assert_move(&g[0], 2, "b1c3");
    assert_move(&g[1], 2, "e5e6");
    assert_true(move_is_pass(g[1].moves[3]));
    gib_free(g);
    gib_free(u);
}

#define HEAD "[초차림 \"마상상마\"]\n[한차림 \"마상상마\"]\n"

// Each malformed record: its status and the words of the message, file and line first.
static void test_refusals(void **state) {
    (void)state;
    static const struct {
        const char *text;
        Status st;
        const char *msg;
    } CASES[] = {
        {"[초차림 \"마마상상\"]\n", STATUS_SYNTAX, "t.gib:1: unknown formation '마마상상'"},
        {"[초차림 마상상마]\n", STATUS_SYNTAX, "t.gib:1: malformed tag"},
        {"[초차림 \"마상상마\"\n", STATUS_SYNTAX, "t.gib:1: malformed tag"},
        {"1. 79졸78\n", STATUS_FORMAT, "t.gib:1: moves before the [초차림] and [한차림] tags"},
        {"[초차림 \"마상상마\"]\n\n1. 79졸78\n", STATUS_FORMAT, "t.gib:3: moves before"},
        {"[초차림 \"마상상마\"]\n", STATUS_FORMAT, "t.gib:1: the record has no [한차림"},
        {HEAD "[판 \"...\"]\n", STATUS_FORMAT, "t.gib:3: a set-up board"},
        {HEAD "\n1. 70졸78\n", STATUS_ILLEGAL, "t.gib:4: move 1 '70졸78': a square off the board"},
        {HEAD "1. 79졸89\n", STATUS_ILLEGAL, "t.gib:3: move 1 '79졸89': move 'i4i3': not legal"},
        {HEAD "1. 79마78\n", STATUS_ILLEGAL, "t.gib:3: move 1 '79마78': the side to move has not"},
        {HEAD "1. 79졸78 2. 79졸78\n", STATUS_ILLEGAL, "t.gib:3: move 2 '79졸78'"},
        {HEAD "1. 79졸78차\n", STATUS_ILLEGAL, "t.gib:3: move 1 '79졸78차': the captured piece"},
        {HEAD "1. 79漢兵78\n", STATUS_ILLEGAL, "t.gib:3: move 1 '79漢兵78': the side named"},
        {HEAD "1. 79졸78 3. 41병42\n", STATUS_SYNTAX, "t.gib:3: move number 3 where 2"},
        {HEAD "1. 79졸78 41병42\n", STATUS_SYNTAX, "t.gib:3: '41병42' where a move number"},
        {HEAD "1. 79졸78\n2. 41병\n", STATUS_SYNTAX, "t.gib:4: move 2 '41병' is not a move"},
        {HEAD "1. 79졸78 2.\n", STATUS_SYNTAX, "t.gib:3: move number 2 without its move"},
        {HEAD "1. 79졸78xyz\n", STATUS_SYNTAX, "t.gib:3: move 1 '79졸78xyz': unexpected 'xyz'"},
        {HEAD "[총수 \"3\"]\n1. 79졸78 2. 41병42\n", STATUS_FORMAT,
         "t.gib:3: [총수 \"3\"] but the record has 2 moves (truncated?)"},
        {HEAD "[총수 \"three\"]\n", STATUS_SYNTAX, "t.gib:3: [총수 \"three\"] is not a move count"},
        {HEAD "1. 79졸78\n\x01\x02\x00garbage", STATUS_FORMAT, "t.gib:4: binary data (byte 0x01)"},
        {HEAD "1. 79졸78\n\x80\x80\x80\n", STATUS_FORMAT,
         "t.gib:4: neither UTF-8 nor CP949 (EUC-KR) text (byte 0x80)"},
        {"", STATUS_FORMAT, "t.gib: no game record"},
        {"\n\n  \n", STATUS_FORMAT, "t.gib: no game record"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        GibGame *g = (GibGame *)&g;
        size_t n = 99;
        ErrorInfo err = {0};
        // The binary case holds a NUL: its length runs to the end of the literal's text.
        size_t len = strlen(CASES[i].text);
        if (strstr(CASES[i].text, "\x01\x02"))
            len += 8;
        Status st = gib_parse("t.gib", CASES[i].text, len, &g, &n, &err);
        if (st != CASES[i].st || !strstr(err.msg, CASES[i].msg))
            fail_msg("case %zu: status %d, message '%s'; expected %d with '%s'", i, st, err.msg,
                     CASES[i].st, CASES[i].msg);
        assert_null(g);
        assert_int_equal(n, 0);
    }
}

// True when s is well-formed UTF-8 (a message printed to a terminal or parsed by a script).
static bool utf8_ok(const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 : 3;
        p++;
        for (int k = 0; k < n; k++, p++)
            if ((*p & 0xC0) != 0x80)
                return false;
    }
    return true;
}

// A long Hangul token is clipped in the message at a character's edge, wherever its bytes fall.
static void test_messages_utf8(void **state) {
    (void)state;
    for (int shift = 0; shift < 3; shift++) {
        char text[512];
        int n = snprintf(text, sizeof text, HEAD "1. %.*s", shift, "ab");
        for (int i = 0; i < 30; i++)
            n += snprintf(text + n, sizeof text - (size_t)n, "졸");
        snprintf(text + n, sizeof text - (size_t)n, "\n");
        GibGame *g;
        size_t cnt;
        ErrorInfo err;
        assert_int_equal(parse(text, &g, &cnt, &err), STATUS_SYNTAX);
        if (!utf8_ok(err.msg))
            fail_msg("shift %d: message is not UTF-8: %s", shift, err.msg);
    }
}

// Another file's refusal names that file: the path as given.
static void test_file_errors(void **state) {
    (void)state;
    GibGame *g;
    size_t n;
    ErrorInfo err;
    assert_int_equal(gib_read_file(GIB_DIR "no-such.gib", &g, &n, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "no-such.gib"));
    assert_int_equal(gib_read_file(GIB_DIR, &g, &n, &err), STATUS_IO);
}

// Check and answered-check marks, a capture then a check, and the board-order squares of
// both sides: rows 1..9, 0 from Han's back row, files 1..9 from file a.
static void test_marks_and_squares(void **state) {
    (void)state;
    GibGame *g;
    size_t n;
    ErrorInfo err;
    Status st = parse(HEAD "1. 01차91 2. 14사24 3. 95장05멍군 4. 11차21\n", &g, &n, &err);
    if (st != STATUS_OK)
        fail_msg("%s", err.msg);
    assert_move(g, 0, "a1a2");
    assert_move(g, 1, "d10d9");
    assert_move(g, 2, "e2e1");
    assert_move(g, 3, "a10a9");
    gib_free(g);
}

// A record goes on after the rules end the game: the game is its moves up to that end, the
// moves after are counted, and the result is the rules' (docs/rules-janggi.md), as UCI would
// judge the same moves.
static void test_game_end(void **state) {
    (void)state;
    GibGame *g;
    size_t n;
    ErrorInfo err;
    // 206 moves; the 200-ply limit ends the game on points, Cho 32 to Han 21.5.
    assert_int_equal(gib_read_file(GIB_DIR "long-game.gib", &g, &n, &err), STATUS_OK);
    assert_int_equal(n, 1);
    assert_int_equal(g->nmoves, 200);
    assert_int_equal(g->dropped, 6);
    assert_true(g->end.over);
    assert_int_equal(g->end.reason, REASON_MOVE_LIMIT);
    assert_int_equal(g->end.points_half[CHO], 64);
    assert_int_equal(g->end.points_half[HAN], 43);
    GibOutcome o = gib_outcome(g);
    assert_true(o.known && !o.draw && !o.disagrees);
    assert_int_equal(o.winner, CHO);
    assert_int_equal(o.reason, REASON_MOVE_LIMIT);
    // No position before the last one ends the game (UCI takes every move).
    static Board b;
    GameResult res;
    formation_setup(&b, g->cho, g->han);
    for (int i = 0; i < g->nmoves; i++) {
        assert_false(rules_game_over(&b, &res));
        board_make(&b, g->moves[i]);
    }
    assert_replays(g);
    gib_free(g);
    // Two passes in a row at ply 3 end it, on points with Han's bonus; the record says Cho won.
    assert_int_equal(parse(HEAD "[대국결과 \"초 완승\"]\n[총수 \"5\"]\n"
                                "1. 79졸78 2. 한수쉼 3. 한수쉼 4. 41병42 5. 78졸68\n",
                           &g, &n, &err),
                     STATUS_OK);
    assert_int_equal(g->nmoves, 3);
    assert_int_equal(g->dropped, 2);
    assert_int_equal(g->end.reason, REASON_DOUBLE_PASS);
    o = gib_outcome(g);
    assert_true(o.known && o.disagrees);
    assert_int_equal(o.winner, HAN);
    gib_free(g);
    // A record that stops before any end keeps its moves and its stated result and reason.
    assert_int_equal(parse(HEAD "[대국결과 \"한 기권승\"]\n1. 79졸78 2. 한수쉼\n", &g, &n, &err),
                     STATUS_OK);
    o = gib_outcome(g);
    assert_true(g->nmoves == 2 && g->dropped == 0 && !g->end.over);
    assert_true(o.known && !o.disagrees && o.winner == HAN && o.reason == REASON_RESIGN);
    gib_free(g);
}

// Record by record: each refusal names its record and the reader goes on with the next.
static void test_reader_records(void **state) {
    (void)state;
    // Record 1 is good; 2 plays an illegal move 2; 3 is truncated ([총수] more than its moves,
    // found on the first line of 4, whose formation is unknown); 5 is good.
    static const char TEXT[] = HEAD "1. 79졸78\n" HEAD "1. 79졸78 2. 41병31\n" HEAD
                                    "[총수 \"3\"]\n1. 79졸78\n[초차림 \"마마상상\"]\n" HEAD
                                    "1. 79졸78\n" HEAD "1. 79졸78 2. 41병42\n";
    GibReader *r;
    ErrorInfo err;
    static GibGame g;
    bool end;
    assert_int_equal(gib_reader_open_text("t.gib", TEXT, strlen(TEXT), &r, &err), STATUS_OK);
    static const struct {
        Status st;
        int number, line;
        const char *msg;
    } WANT[] = {
        {STATUS_OK, 1, 1, ""},
        {STATUS_ILLEGAL, 2, 4, "t.gib:6: move 2 '41병31'"},
        {STATUS_FORMAT, 3, 7, "t.gib:9: [총수 \"3\"] but the record has 1 moves"},
        {STATUS_SYNTAX, 4, 11, "t.gib:11: unknown formation"},
        {STATUS_OK, 5, 15, ""},
    };
    for (size_t i = 0; i < sizeof WANT / sizeof WANT[0]; i++) {
        err.msg[0] = '\0';
        Status st = gib_reader_next(r, &g, &end, &err);
        if (st != WANT[i].st || end || g.number != WANT[i].number || g.line != WANT[i].line ||
            !strstr(err.msg, WANT[i].msg))
            fail_msg("call %zu: status %d, end %d, record %d at line %d, '%s'", i, st, end,
                     g.number, g.line, err.msg);
    }
    assert_int_equal(g.nmoves, 2);
    assert_int_equal(gib_reader_next(r, &g, &end, &err), STATUS_OK);
    assert_true(end);
    gib_reader_close(r);
    // A file without a record is refused once, as a file (record number 0).
    assert_int_equal(gib_reader_open_text("t.gib", "\n{ }\n", 5, &r, &err), STATUS_OK);
    assert_int_equal(gib_reader_next(r, &g, &end, &err), STATUS_FORMAT);
    assert_int_equal(g.number, 0);
    assert_int_equal(gib_reader_next(r, &g, &end, &err), STATUS_OK);
    assert_true(end);
    gib_reader_close(r);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample_utf8),       cmocka_unit_test(test_sample_cp949),
        cmocka_unit_test(test_refusals),          cmocka_unit_test(test_file_errors),
        cmocka_unit_test(test_marks_and_squares), cmocka_unit_test(test_messages_utf8),
        cmocka_unit_test(test_game_end),          cmocka_unit_test(test_reader_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
