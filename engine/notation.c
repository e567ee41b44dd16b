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
        return error_set(err, STATUS_ILLEGAL, "move '%s' is not legal in this position", str);
    *out = m;
    return STATUS_OK;
}
