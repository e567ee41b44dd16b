// SPDX-License-Identifier: MIT
// Shared helpers of the rules-core tests (see oracle_util.h).
#include "oracle_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "prng.h"

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger, cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

bool tsv_load(Tsv *t, const char *path) {
    memset(t, 0, sizeof *t);
    t->text = read_all(path);
    if (!t->text)
        return false;
    int lines = 1;
    for (const char *p = t->text; *p; p++)
        lines += *p == '\n';
    t->rows = calloc((size_t)lines, sizeof *t->rows);
    if (!t->rows) {
        tsv_free(t);
        return false;
    }
    char *p = t->text;
    for (int line = 1; *p; line++) {
        char *end = strchr(p, '\n');
        if (end)
            *end = '\0';
        size_t len = strlen(p);
        if (len && p[len - 1] == '\r')
            p[len - 1] = '\0';
        if (line > 1 && *p) { // skip the header and blank lines
            TsvRow *row = &t->rows[t->count++];
            row->line = line;
            for (char *f = p; f && row->nfields < TSV_MAX_FIELDS;) {
                row->field[row->nfields++] = f;
                f = strchr(f, '\t');
                if (f)
                    *f++ = '\0';
            }
        }
        if (!end)
            break;
        p = end + 1;
    }
    return true;
}

void tsv_free(Tsv *t) {
    free(t->text);
    free(t->rows);
    memset(t, 0, sizeof *t);
}

void oracle_path(const char *name, char *out, size_t out_len) {
    snprintf(out, out_len, "%s/%s", HANSU_ORACLE_DIR, name);
}

void oracle_load(Tsv *t, const char *name) {
    char path[512];
    oracle_path(name, path, sizeof path);
    if (!tsv_load(t, path))
        fail_msg("cannot read %s", path);
    if (t->count == 0)
        fail_msg("%s holds no rows", path);
}

void test_load_fen(Board *b, const char *fen) {
    ErrorInfo err = {{0}};
    Status st = fen_parse(b, fen, &err);
    if (st != STATUS_OK)
        fail_msg("FEN '%s' refused: %s", fen, err.msg);
}

void test_play(Board *b, const char *moves) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        Move m;
        ErrorInfo err = {{0}};
        if (move_parse_uci(b, tok, &m, &err) != STATUS_OK)
            fail_msg("move '%s' refused: %s", tok, err.msg);
        board_make(b, m);
    }
}

static bool list_has(const uint8_t *list, int n, int sq) {
    for (int i = 0; i < n; i++)
        if (list[i] == sq)
            return true;
    return false;
}

bool test_boards_equal(const Board *a, const Board *b, char *why, size_t why_len) {
    char dummy[8];
    if (!why)
        why = dummy, why_len = sizeof dummy;
    for (Square sq = 0; sq < SQUARE_NB; sq++)
        if (a->squares[sq] != b->squares[sq]) {
            snprintf(why, why_len, "square %d holds %d, expected %d", sq, b->squares[sq],
                     a->squares[sq]);
            return false;
        }
    for (int pc = 0; pc < PIECE_NB; pc++) {
        if (a->count[pc] != b->count[pc]) {
            snprintf(why, why_len, "count of piece %d differs", pc);
            return false;
        }
        for (int i = 0; i < a->count[pc]; i++)
            if (!list_has(b->list[pc], b->count[pc], a->list[pc][i])) {
                snprintf(why, why_len, "piece list %d differs", pc);
                return false;
            }
    }
    if (a->general[CHO] != b->general[CHO] || a->general[HAN] != b->general[HAN] ||
        a->side != b->side || board_key(a) != board_key(b) ||
        board_game_ply(a) != board_game_ply(b) || board_in_check(a) != board_in_check(b)) {
        snprintf(why, why_len, "general squares, side, key, ply or check flag differ");
        return false;
    }
    char fa[FEN_BUFFER], fb[FEN_BUFFER];
    fen_write(a, fa, sizeof fa);
    fen_write(b, fb, sizeof fb);
    if (strcmp(fa, fb) != 0) {
        snprintf(why, why_len, "FEN '%s', expected '%s'", fb, fa);
        return false;
    }
    return true;
}

uint64_t test_rng_next(uint64_t *state) { return prng_next(state); }

Move test_random_legal(Board *b, uint64_t *rng) {
    MoveList list;
    movegen_legal(b, &list);
    if (list.count == 0)
        return MOVE_NONE;
    return list.moves[test_rng_next(rng) % (uint64_t)list.count];
}

static int cmp_str(const void *x, const void *y) {
    return strcmp(*(char *const *)x, *(char *const *)y);
}

void test_sort_strings(char **s, int n) { qsort(s, (size_t)n, sizeof *s, cmp_str); }
