// SPDX-License-Identifier: MIT
// FEN reading with full validation against the rules page, and FEN writing.
#include "fen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "geometry.h"
#include "variant.h"

const char FEN_START[] =
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

// Letters other programs write for a kind, read as the letter this engine writes: WinBoard/XBoard
// and Fairy-Stockfish's janggi write the horse H and the elephant E (both variants here write
// N and B, as Fairy-Stockfish's xiangqi does).
static const char LETTER_SYNONYMS[][2] = {{'H', 'N'}, {'E', 'B'}};

static Kind kind_of_letter(const Variant *v, char c) {
    char up = (char)toupper((unsigned char)c);
    for (size_t i = 0; i < sizeof LETTER_SYNONYMS / sizeof LETTER_SYNONYMS[0]; i++)
        if (up == LETTER_SYNONYMS[i][0])
            up = LETTER_SYNONYMS[i][1];
    const char *p = strchr(v->letters + 1, up);
    return p && c != '\0' ? (Kind)(p - v->letters) : KIND_NONE;
}

// Reads the placement field (up to the first space) into b. pos is the offset in the FEN.
static Status parse_placement(Board *b, const char *fen, size_t len, ErrorInfo *err) {
    const Variant *v = b->variant;
    int rank = RANK_NB - 1, file = 0;
    for (size_t i = 0; i < len; i++) {
        char c = fen[i];
        int rank_no = rank + 1;
        if (c == '/') {
            if (file != FILE_NB)
                return error_set(err, STATUS_ILLEGAL,
                                 "FEN: rank %d has %d points, expected 9 (character %zu)", rank_no,
                                 file, i + 1);
            if (--rank < 0)
                return error_set(err, STATUS_ILLEGAL, "FEN: more than 10 ranks (character %zu)",
                                 i + 1);
            file = 0;
        } else if (c >= '1' && c <= '9') {
            // One digit per run of empty points: "18" is no rank of 9 points.
            if (i + 1 < len && fen[i + 1] >= '0' && fen[i + 1] <= '9')
                return error_set(err, STATUS_SYNTAX,
                                 "FEN: rank %d has two digits in a row ('%c%c', character %zu)",
                                 rank_no, c, fen[i + 1], i + 1);
            file += c - '0';
            if (file > FILE_NB)
                return error_set(err, STATUS_ILLEGAL,
                                 "FEN: rank %d has more than 9 points (character %zu)", rank_no,
                                 i + 1);
        } else {
            Kind kind = kind_of_letter(v, c);
            if (kind == KIND_NONE)
                return error_set(err, STATUS_SYNTAX,
                                 "FEN: unknown piece letter '%c' (character %zu)", c, i + 1);
            if (file >= FILE_NB)
                return error_set(err, STATUS_ILLEGAL,
                                 "FEN: rank %d has more than 9 points (character %zu)", rank_no,
                                 i + 1);
            Side side = isupper((unsigned char)c) ? CHO : HAN;
            Piece pc = piece_make(side, kind);
            if (b->count[pc] >= v->set_count[kind])
                return error_set(err, STATUS_ILLEGAL,
                                 "FEN: %s has more than %d %s%s (character %zu)",
                                 v->side_names[side], v->set_count[kind], v->kind_names[kind],
                                 v->set_count[kind] > 1 ? "s" : "", i + 1);
            board_put(b, pc, square_make(file, rank));
            file++;
        }
    }
    if (rank != 0)
        return error_set(err, STATUS_ILLEGAL,
                         "FEN: the placement has %d ranks, expected 10 ranks of 9 points",
                         RANK_NB - rank);
    if (file != FILE_NB) // the last rank has no '/' after it to be checked at
        return error_set(err, STATUS_ILLEGAL,
                         "FEN: rank 1 has %d points, expected 9 (end of the placement)", file);
    return STATUS_OK;
}

static Status check_pieces(const Board *b, ErrorInfo *err) {
    const Variant *v = b->variant;
    for (int s = 0; s < SIDE_NB; s++) {
        const char *name = v->side_names[s];
        Piece g = piece_make((Side)s, GENERAL), a = piece_make((Side)s, GUARD);
        if (b->count[g] == 0)
            return error_set(err, STATUS_ILLEGAL, "FEN: %s has no general", name);
        if (!geometry_in_palace(b->geo, (Side)s, b->list[g][0]))
            return error_set(err, STATUS_ILLEGAL, "FEN: %s general outside its palace", name);
        for (int i = 0; i < b->count[a]; i++)
            if (!geometry_in_palace(b->geo, (Side)s, b->list[a][i]))
                return error_set(err, STATUS_ILLEGAL, "FEN: %s %s outside its palace", name,
                                 v->kind_names[GUARD]);
    }
    return v->check_placement ? v->check_placement(b, err) : STATUS_OK;
}

// Parses a non-negative decimal field of at most 6 digits.
static bool parse_count(const char *s, size_t len, long *out) {
    if (len == 0 || len > 6)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    *out = strtol(s, NULL, 10);
    return true;
}

typedef struct Field {
    const char *text;
    size_t len;
} Field;

// Splits on single spaces; leading/trailing spaces are tolerated, empty fields are not.
static int split_fields(const char *fen, Field *fields, int max) {
    int n = 0;
    const char *p = fen;
    while (*p == ' ')
        p++;
    while (*p) {
        if (n == max)
            return max + 1;
        const char *start = p;
        while (*p && *p != ' ')
            p++;
        fields[n].text = start, fields[n].len = (size_t)(p - start);
        n++;
        while (*p == ' ')
            p++;
    }
    return n;
}

// Reads the fields after the placement: the side, then castling and en passant ('-' each, both
// or neither: WinBoard and some tools leave them out), then the halfmove clock and the fullmove
// number (both or neither). So "w", "w - -", "w 0 1" and "w - - 0 1" are read alike.
static Status parse_fields(const Variant *v, const Field *f, int n, Side *side, long *halfmove,
                           long *fullmove, ErrorInfo *err) {
    // Fields 3 and 4 are castling and en passant unless they are the two numbers.
    bool no_dashes = n == 4 && f[2].len && isdigit((unsigned char)f[2].text[0]);
    int counts_at = no_dashes ? 2 : 4;
    if (n != 2 && n != 4 && n != 6)
        return error_set(err, STATUS_SYNTAX,
                         "FEN: %s%d field%s, expected 6 fields (or the first 2 or 4): placement, "
                         "side, castling, en passant, halfmove clock, fullmove number (castling "
                         "and en passant may be left out together)",
                         n > 6 ? "more than " : "", n > 6 ? 6 : n, n == 1 ? "" : "s");
    if (f[1].len != 1 || (f[1].text[0] != 'w' && f[1].text[0] != 'b'))
        return error_set(err, STATUS_SYNTAX, "FEN: side to move '%.*s', expected 'w' or 'b'",
                         (int)(f[1].len > 8 ? 8 : f[1].len), f[1].text);
    *side = f[1].text[0] == 'w' ? CHO : HAN;
    for (int i = 2; i < n && i < counts_at; i++)
        if (f[i].len != 1 || f[i].text[0] != '-')
            return error_set(err, STATUS_SYNTAX, "FEN: field %d is '%.*s', %s has only '-'", i + 1,
                             (int)(f[i].len > 8 ? 8 : f[i].len), f[i].text, v->name);
    *halfmove = 0, *fullmove = 1;
    if (n == counts_at + 2) {
        const Field *h = &f[counts_at], *m = &f[counts_at + 1];
        if (!parse_count(h->text, h->len, halfmove) || *halfmove > 60000)
            return error_set(err, STATUS_SYNTAX,
                             "FEN: halfmove clock '%.*s' is not a number from 0 to 60000",
                             (int)(h->len > 8 ? 8 : h->len), h->text);
        if (!parse_count(m->text, m->len, fullmove) || *fullmove < 1)
            return error_set(err, STATUS_SYNTAX,
                             "FEN: fullmove number '%.*s' is not a number from 1 to 999999",
                             (int)(m->len > 8 ? 8 : m->len), m->text);
    }
    return STATUS_OK;
}

Status fen_parse(Board *b, const char *fen, ErrorInfo *err) {
    return fen_parse_variant(b, variant_default(), fen, err);
}

Status fen_parse_variant(Board *b, const Variant *v, const char *fen, ErrorInfo *err) {
    if (!fen)
        return error_set(err, STATUS_SYNTAX, "FEN: missing");
    if (strnlen(fen, FEN_MAX_INPUT + 1) > FEN_MAX_INPUT)
        return error_set(err, STATUS_RANGE, "FEN: longer than %d characters", FEN_MAX_INPUT);
    Field fields[6];
    int n = split_fields(fen, fields, 6);
    if (n == 0)
        return error_set(err, STATUS_SYNTAX, "FEN: empty");
    Side side = CHO;
    long halfmove = 0, fullmove = 1;
    Status st = parse_fields(v, fields, n > 6 ? 7 : n, &side, &halfmove, &fullmove, err);
    if (st != STATUS_OK)
        return st;
    static _Thread_local Board tmp; // a Board is large; keep it off the stack
    board_clear_variant(&tmp, v);
    if ((st = parse_placement(&tmp, fields[0].text, fields[0].len, err)) != STATUS_OK ||
        (st = check_pieces(&tmp, err)) != STATUS_OK)
        return st;
    board_finish_setup(&tmp, side, (int)(2 * (fullmove - 1) + (side == HAN)), (int)halfmove);
    if (board_general_attacked(&tmp, !side))
        return error_set(err, STATUS_ILLEGAL,
                         "FEN: the side not to move (%s) is in check, which cannot arise in play",
                         v->side_names[!side]);
    *b = tmp;
    return STATUS_OK;
}

void fen_write(const Board *b, char *out, size_t out_len) {
    char buf[FEN_BUFFER];
    size_t n = 0;
    for (int rank = RANK_NB - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < FILE_NB; file++) {
            Piece pc = b->squares[square_make(file, rank)];
            if (pc == EMPTY) {
                empty++;
                continue;
            }
            if (empty)
                buf[n++] = (char)('0' + empty), empty = 0;
            char c = b->variant->letters[piece_kind(pc)];
            buf[n++] = piece_side(pc) == CHO ? c : (char)tolower((unsigned char)c);
        }
        if (empty)
            buf[n++] = (char)('0' + empty);
        if (rank)
            buf[n++] = '/';
    }
    int ply = board_game_ply(b);
    const StateInfo *st = board_state(b);
    snprintf(buf + n, sizeof buf - n, " %c - - %d %d", b->side == CHO ? 'w' : 'b',
             b->variant->halfmove_captures_only ? st->since_capture : st->halfmove, ply / 2 + 1);
    snprintf(out, out_len, "%s", buf);
}
