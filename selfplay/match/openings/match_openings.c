// SPDX-License-Identifier: MIT
// A match's preparation: its openings and start positions, its engines (the UCI_Variant each is
// told, read from its options), and the writer lock.
#define _GNU_SOURCE
#include "match_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
// Whether config c plays the variant's start positions rather than a suite or file.
static bool plays_starts(const MatchConfig *c, const Variant *v) {
    return c->openings_path ? strcmp(c->openings_path, MATCH_OPENINGS_STARTS) == 0
                            : openings_builtin_name(v) == NULL;
}

void match_openings_source(const MatchConfig *c, char *out, size_t len) {
    const Variant *v = variant_or_default(c->variant);
    if (plays_starts(c, v))
        snprintf(out, len, "%s",
                 v->formation_count ? "the formation pairings" : "the start position");
    else if (c->openings_path)
        snprintf(out, len, "%s", c->openings_path);
    else // the suite's source file named, but the binary's copy played
        snprintf(out, len, "%s (compiled in)", openings_builtin_name(v));
    // How the book is read, where it differs from its lines in order from the first.
    size_t n = strlen(out);
    if (c->book_plies > 0 && n < len)
        n +=
            (size_t)snprintf(out + n, len - n, " (the first %d plies of each game)", c->book_plies);
    if (c->openings_random && n < len)
        n += (size_t)snprintf(out + n, len - n, " in random order");
    if (c->openings_start > 0 && n < len)
        snprintf(out + n, len - n, " from opening %d", c->openings_start + 1);
}

// Shuffles the openings by the match's seed (order=random), then turns them so that pair 0
// plays opening openings_start.
static Status order_openings(Match *m, ErrorInfo *err) {
    const MatchConfig *c = m->cfg;
    int n = m->nopenings;
    if (c->openings_random) {
        uint64_t rng = c->seed ^ 0x6F70656E696E6773ull; // apart from the random plies' streams
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(prng_next(&rng) % (uint64_t)(i + 1));
            Opening t = m->openings[i];
            m->openings[i] = m->openings[j];
            m->openings[j] = t;
        }
    }
    int start = c->openings_start % n;
    if (start == 0)
        return STATUS_OK;
    Opening *turned = malloc((size_t)n * sizeof *turned);
    if (!turned)
        return error_set(err, STATUS_NOMEM, "openings: out of memory");
    for (int i = 0; i < n; i++)
        turned[i] = m->openings[(start + i) % n];
    memcpy(m->openings, turned, (size_t)n * sizeof *turned);
    free(turned);
    return STATUS_OK;
}

Status match_setup_openings(Match *m, ErrorInfo *err) {
    Board *b = malloc(sizeof *b);
    if (!b)
        return error_set(err, STATUS_NOMEM, "openings: out of memory");
    Status st = STATUS_OK;
    const Variant *v = m->variant;
    const bool starts = plays_starts(m->cfg, v);
    const char *path = starts ? NULL : m->cfg->openings_path;
    const int pairings = v->formation_count ? variant_pairing_count(v) : 1;
    m->openings = calloc(starts ? (size_t)pairings : OPENINGS_MAX, sizeof *m->openings);
    if (!m->openings) {
        st = error_set(err, STATUS_NOMEM, "openings: out of memory");
        goto cleanup;
    }
    if (starts && v->formation_count == 0) {
        fen_parse_variant(b, v, v->start_fen, NULL);
        fen_write(b, m->openings[0].fen, FEN_BUFFER);
        snprintf(m->openings[0].name, sizeof m->openings[0].name, "start");
        m->nopenings = 1;
        goto cleanup;
    }
    if (starts) {
        for (int p = 0; p < pairings; p++) {
            variant_setup_pairing(v, b, p);
            fen_write(b, m->openings[p].fen, FEN_BUFFER);
            snprintf(m->openings[p].name, sizeof m->openings[p].name, "%s vs %s",
                     v->formation_names[variant_pairing_cho(v, p)],
                     v->formation_names[variant_pairing_han(v, p)]);
        }
        m->nopenings = pairings;
        goto cleanup;
    }
    Openings file;
    BookFormat format = path ? book_format_of(path) : BOOK_FEN;
    if (format != BOOK_FEN)
        st = book_load(path, format, m->cfg->book_plies > 0 ? m->cfg->book_plies : -1, v, &file,
                       err);
    else
        st = path ? openings_load(path, v, &file, err) : openings_load_builtin(v, &file, err);
    if (st != STATUS_OK)
        goto cleanup;
    for (int i = 0; i < file.count; i++) {
        Opening *o = &m->openings[m->nopenings++];
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
void match_setup_pair_fen(const Match *m, int k, Board *b, char fen[FEN_BUFFER]) {
    const Opening *o = &m->openings[k % m->nopenings];
    fen_parse_variant(b, m->variant, o->fen, NULL);
    uint64_t rng = m->cfg->seed ^ ((uint64_t)k * 0xD1B54A32D192ED03ull);
    for (int i = 0; i < m->cfg->random_plies; i++) {
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

// The index of engine e's option.UCI_Variant, or -1.
static int given_variant(const EngineSpec *e) {
    int given = -1;
    for (int k = 0; k < e->noptions; k++)
        if (strcasecmp(e->opt_name[k], "UCI_Variant") == 0)
            given = k;
    return given;
}

// The engines as started: an option.UCI_Variant given must name the match's variant (the
// default one too: a janggi match refuses option.UCI_Variant=xiangqi).
Status match_setup_variant_options(Match *m, ErrorInfo *err) {
    for (int i = 0; i < 2; i++) {
        EngineSpec *e = &m->engine[i];
        *e = m->cfg->engine[i];
        int given = given_variant(e);
        if (given >= 0 && strcasecmp(e->opt_value[given], m->variant->name) != 0)
            return error_set(err, STATUS_SYNTAX,
                             "engine %s: option.UCI_Variant=%s, but the match plays %s", e->name,
                             e->opt_value[given], m->variant->name);
    }
    return STATUS_OK;
}

// Starts engine i once, without its options, to read its `uci` reply: an engine whose
// UCI_Variant combo lists the variant is told it (first, as a GUI does: Fairy-Stockfish resets
// its position to the variant's start); one whose combo lacks it is refused; one without the
// option is taken to play the variant natively, and named in a warning.
Status match_setup_probe_engine(Match *m, int i, ErrorInfo *err) {
    EngineSpec *e = &m->engine[i], bare = *e;
    bare.noptions = 0;
    UciChild *child = NULL;
    Status st = child_start(&child, &bare, m->cfg->start_timeout, err);
    if (st != STATUS_OK)
        return st;
    const char *name = m->variant->name;
    VariantOffer offer = child_variant_offer(child, name);
    if (offer == VARIANT_OPTION_LACKS)
        st = error_set(err, STATUS_RANGE,
                       "engine %s: its UCI_Variant option does not offer %s (it offers: %.120s)",
                       e->name, name, child_variant_values(child));
    // A CECP engine without setboard learns a position only as moves from the start.
    bool one_start = plays_starts(m->cfg, m->variant) && m->variant->formation_count == 0 &&
                     m->cfg->random_plies == 0 && !m->cfg->openings_start;
    if (st == STATUS_OK && !child_can_set_position(child) && !one_start)
        st = error_set(err, STATUS_SYNTAX,
                       "engine %s offers no setboard (CECP): it can play only from the start "
                       "position (--openings starts, --random-plies 0, a variant with one start)",
                       e->name);
    child_stop(child);
    if (st != STATUS_OK || given_variant(e) >= 0)
        return st;
    if (offer == VARIANT_OPTION_NONE) {
        char msg[256];
        snprintf(msg, sizeof msg,
                 "engine %s offers no UCI_Variant option: taken to play %s natively", e->name,
                 name);
        if (m->cfg->warn && m->rank == 0)
            m->cfg->warn(msg, m->cfg->warn_arg);
        return STATUS_OK;
    }
    if (e->noptions == ENGINE_MAX_OPTIONS)
        return error_set(err, STATUS_RANGE, "engine %s: no room for option UCI_Variant", e->name);
    memmove(e->opt_name[1], e->opt_name[0], sizeof e->opt_name[0] * (size_t)e->noptions);
    memmove(e->opt_value[1], e->opt_value[0], sizeof e->opt_value[0] * (size_t)e->noptions);
    snprintf(e->opt_name[0], sizeof e->opt_name[0], "UCI_Variant");
    snprintf(e->opt_value[0], sizeof e->opt_value[0], "%s", name);
    e->noptions++;
    return STATUS_OK;
}

// The writer locks of the PGN, the state file and the JSON ("FILE.lock" beside each one's
// target, run_lock_take_outputs); none when the match writes no file.
Status match_setup_lock(const MatchConfig *c, RunLock **lock, ErrorInfo *err) {
    const char *paths[3] = {c->pgn_path, c->state_path, c->json_path};
    const char *flags[3] = {"--pgn", "--state", "--json"};
    *lock = NULL;
    // The locks are the first files touched: a missing folder is told as the user named it.
    for (int i = 0; i < 3; i++) {
        Status st = paths[i] ? match_output_check_folder(flags[i], paths[i], err) : STATUS_OK;
        if (st != STATUS_OK)
            return st;
    }
    return run_lock_take_outputs(paths, flags, 3, lock, err);
}
