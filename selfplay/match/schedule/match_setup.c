// SPDX-License-Identifier: MIT
// A match's preparation: its engines (the UCI_Variant each is told, read from its options), and
// the writer lock.
#define _GNU_SOURCE
#include "match_internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "variant.h"

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
    bool one_start = match_openings_plays_starts(&m->openings.plan) &&
                     m->variant->formation_count == 0 && m->cfg->random_plies == 0 &&
                     !m->cfg->openings_start;
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
