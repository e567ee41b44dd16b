// SPDX-License-Identifier: MIT
// Conversion between moves and UCI move strings, with a legality check on input.
#include "notation.h"

#include <stdio.h>
#include <string.h>

#include "board.h"
#include "movegen.h"

void square_to_str(Square sq, char out[4]) {
    int rank = square_rank(sq) + 1, n = 0;
    out[n++] = (char)('a' + square_file(sq));
    if (rank >= 10)
        out[n++] = '1', rank -= 10;
    out[n++] = (char)('0' + rank);
    out[n] = '\0';
}

void move_to_uci(Move m, char out[MOVE_STR_LEN]) {
    if (m == MOVE_NONE) {
        snprintf(out, MOVE_STR_LEN, "(none)");
        return;
    }
    char from[4], to[4];
    square_to_str(move_from(m), from);
    square_to_str(move_to(m), to);
    snprintf(out, MOVE_STR_LEN, "%s%s", from, to);
}

Square square_parse(const char *s, int *len) {
    if (s[0] < 'a' || s[0] > 'i' || s[1] < '1' || s[1] > '9')
        return SQ_NONE;
    int rank = s[1] - '0';
    *len = 2;
    if (s[1] == '1' && s[2] == '0')
        rank = 10, *len = 3;
    return square_make(s[0] - 'a', rank - 1);
}

Status move_parse_uci(Board *b, const char *str, Move *out, ErrorInfo *err) {
    size_t n = strnlen(str, 16);
    if (n > 6)
        return error_set(err, STATUS_SYNTAX, "move '%.16s' is not a move string", str);
    Move m;
    if (strcmp(str, "0000") == 0 || strcmp(str, "@@@@") == 0) {
        m = move_make(b->general[b->side], b->general[b->side]);
    } else {
        int l1 = 0, l2 = 0;
        Square from = square_parse(str, &l1);
        Square to = from == SQ_NONE ? SQ_NONE : square_parse(str + l1, &l2);
        if (to == SQ_NONE || str[l1 + l2] != '\0')
            return error_set(err, STATUS_SYNTAX, "move '%s' is not a move string", str);
        m = move_make(from, to);
        if (from == to && from != b->general[b->side])
            return error_set(err, STATUS_ILLEGAL,
                             "move '%s': a pass is written as the mover's general square twice",
                             str);
    }
    if (move_is_pass(m) && board_in_check(b))
        return error_set(err, STATUS_ILLEGAL, "move '%s': a side in check may not pass", str);
    if (!movegen_is_pseudo_legal(b, m) || !movegen_is_legal(b, m))
        return error_set(err, STATUS_ILLEGAL, "move '%s': not legal in this position", str);
    *out = m;
    return STATUS_OK;
}

void move_to_cecp(Move m, char out[MOVE_STR_LEN]) {
    if (m == MOVE_NONE || move_is_pass(m)) {
        snprintf(out, MOVE_STR_LEN, "%s", m == MOVE_NONE ? "(none)" : "@@@@");
        return;
    }
    Square from = move_from(m), to = move_to(m);
    // Ranks 0-9: one digit each.
    out[0] = (char)('a' + square_file(from)), out[1] = (char)('0' + square_rank(from));
    out[2] = (char)('a' + square_file(to)), out[3] = (char)('0' + square_rank(to));
    out[4] = '\0';
}

Status move_parse_cecp(Board *b, const char *str, Move *out, ErrorInfo *err) {
    static const char *const passes[] = {"@@@@", "0000", "pass", "--"};
    char uci[MOVE_STR_LEN];
    for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++)
        if (strcmp(str, passes[i]) == 0) {
            Move m;
            Status st = move_parse_uci(b, "0000", &m, err);
            if (st != STATUS_OK)
                return error_set(err, st, "move '%.16s': %s", str,
                                 board_in_check(b) ? "a side in check may not pass"
                                                   : "no pass in this variant");
            *out = m;
            return STATUS_OK;
        }
    // Two squares of a file letter and a rank digit 0-9 each, nothing after.
    bool ok = strnlen(str, 5) == 4;
    for (int i = 0; ok && i < 4; i += 2)
        ok = str[i] >= 'a' && str[i] <= 'i' && str[i + 1] >= '0' && str[i + 1] <= '9';
    if (!ok)
        return error_set(err, STATUS_SYNTAX, "move '%.16s': not a move string, CECP writes h0g2",
                         str);
    square_to_str(square_make(str[0] - 'a', str[1] - '0'), uci);
    square_to_str(square_make(str[2] - 'a', str[3] - '0'), uci + strlen(uci));
    if (move_parse_uci(b, uci, out, err) == STATUS_OK)
        return STATUS_OK;
    return error_set(err, STATUS_ILLEGAL, "move '%s': not legal in this position", str);
}
