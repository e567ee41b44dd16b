// SPDX-License-Identifier: MIT
// A match's openings and each pair's start position (match_openings.h).
#include "match_openings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "book.h"
#include "movegen.h"
#include "openings.h"
#include "prng.h"
#include "rules.h"
#include "variant.h"

// The FENs of the openings file (openings.h: each checked by the rules core as a position of
// the match's variant); without one the variant's compiled-in suite (openings_load_builtin);
// with MATCH_OPENINGS_STARTS, or for a variant without a suite, its start positions (janggi:
// the 16 formation pairings; a variant without formations: its start position).
bool match_openings_plays_starts(const OpeningsPlan *p) {
    return p->path ? strcmp(p->path, MATCH_OPENINGS_STARTS) == 0
                   : openings_builtin_name(variant_or_default(p->variant)) == NULL;
}

void match_openings_source(const OpeningsPlan *c, char *out, size_t len) {
    const Variant *v = variant_or_default(c->variant);
    if (match_openings_plays_starts(c))
        snprintf(out, len, "%s",
                 v->formation_count ? "the formation pairings" : "the start position");
    else if (c->path)
        snprintf(out, len, "%s", c->path);
    else // the suite's source file named, but the binary's copy played
        snprintf(out, len, "%s (compiled in)", openings_builtin_name(v));
    // How the book is read, where it differs from its lines in order from the first.
    size_t n = strlen(out);
    if (c->book_plies > 0 && n < len)
        n +=
            (size_t)snprintf(out + n, len - n, " (the first %d plies of each game)", c->book_plies);
    if (c->random && n < len)
        n += (size_t)snprintf(out + n, len - n, " in random order");
    if (c->start > 0 && n < len)
        snprintf(out + n, len - n, " from opening %d", c->start + 1);
}

// Shuffles the openings by the match's seed (order=random), then turns them so that pair 0
// plays opening openings_start.
static Status order_openings(MatchOpenings *m, ErrorInfo *err) {
    const OpeningsPlan *c = &m->plan;
    int n = m->count;
    if (c->random) {
        uint64_t rng = c->seed ^ 0x6F70656E696E6773ull; // apart from the random plies' streams
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(prng_next(&rng) % (uint64_t)(i + 1));
            Opening t = m->list[i];
            m->list[i] = m->list[j];
            m->list[j] = t;
        }
    }
    int start = c->start % n;
    if (start == 0)
        return STATUS_OK;
    Opening *turned = malloc((size_t)n * sizeof *turned);
    if (!turned)
        return error_set(err, STATUS_NOMEM, "openings: out of memory");
    for (int i = 0; i < n; i++)
        turned[i] = m->list[(start + i) % n];
    memcpy(m->list, turned, (size_t)n * sizeof *turned);
    free(turned);
    return STATUS_OK;
}

Status match_openings_load(MatchOpenings *m, const OpeningsPlan *plan, ErrorInfo *err) {
    *m = (MatchOpenings){.plan = *plan, .variant = variant_or_default(plan->variant)};
    Board *b = malloc(sizeof *b);
    if (!b)
        return error_set(err, STATUS_NOMEM, "openings: out of memory");
    Status st = STATUS_OK;
    const Variant *v = m->variant;
    const bool starts = match_openings_plays_starts(plan);
    const char *path = starts ? NULL : plan->path;
    const int pairings = v->formation_count ? variant_pairing_count(v) : 1;
    m->list = calloc(starts ? (size_t)pairings : OPENINGS_MAX, sizeof *m->list);
    if (!m->list) {
        st = error_set(err, STATUS_NOMEM, "openings: out of memory");
        goto cleanup;
    }
    if (starts && v->formation_count == 0) {
        fen_parse_variant(b, v, v->start_fen, NULL);
        fen_write(b, m->list[0].fen, FEN_BUFFER);
        snprintf(m->list[0].name, sizeof m->list[0].name, "start");
        m->count = 1;
        goto cleanup;
    }
    if (starts) {
        for (int p = 0; p < pairings; p++) {
            variant_setup_pairing(v, b, p);
            fen_write(b, m->list[p].fen, FEN_BUFFER);
            snprintf(m->list[p].name, sizeof m->list[p].name, "%s vs %s",
                     v->formation_names[variant_pairing_cho(v, p)],
                     v->formation_names[variant_pairing_han(v, p)]);
        }
        m->count = pairings;
        goto cleanup;
    }
    Openings file;
    BookFormat format = path ? book_format_of(path) : BOOK_FEN;
    if (format != BOOK_FEN)
        st = book_load(path, format, plan->book_plies > 0 ? plan->book_plies : -1, v, &file, err);
    else
        st = path ? openings_load(path, v, &file, err) : openings_load_builtin(v, &file, err);
    if (st != STATUS_OK)
        goto cleanup;
    for (int i = 0; i < file.count; i++) {
        Opening *o = &m->list[m->count++];
        snprintf(o->fen, sizeof o->fen, "%s", file.fen[i]);
        snprintf(o->name, sizeof o->name, "%s:%d", "line", file.line[i]);
    }
    openings_free(&file);
cleanup:
    free(b);
    if (st == STATUS_OK)
        st = order_openings(m, err);
    return st;
}

// The start FEN of pair k: its opening plus the seeded random plies (no passes), the same
// for both games of the pair. Stops early rather than reach a finished game.
void match_openings_pair_fen(const MatchOpenings *m, int k, Board *b, char fen[FEN_BUFFER]) {
    const Opening *o = &m->list[k % m->count];
    fen_parse_variant(b, m->variant, o->fen, NULL);
    uint64_t rng = m->plan.seed ^ ((uint64_t)k * 0xD1B54A32D192ED03ull);
    for (int i = 0; i < m->plan.random_plies; i++) {
        MoveList list, moves = {.count = 0};
        movegen_legal(b, &list);
        for (int j = 0; j < list.count; j++)
            if (!move_is_pass(list.moves[j]))
                moves.moves[moves.count++] = list.moves[j];
        if (moves.count == 0)
            break;
        board_make(b, moves.moves[prng_next(&rng) % (uint64_t)moves.count]);
        GameResult res;
        if (rules_game_over(b, &res)) {
            board_unmake(b);
            break;
        }
    }
    fen_write(b, fen, FEN_BUFFER);
}

// Han moves first in many suite lines: the first mover is read from the position itself.
Side match_openings_first_side(const MatchOpenings *o, int k) {
    Board b; // 28 KB on the stack: the tally runs on a worker's or the main thread
    char fen[FEN_BUFFER];
    match_openings_pair_fen(o, k, &b, fen);
    return b.side;
}

void match_openings_free(MatchOpenings *o) {
    free(o->list);
    o->list = NULL;
    o->count = 0;
}
