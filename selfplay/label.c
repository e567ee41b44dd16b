// SPDX-License-Identifier: MIT
// Labelling one game and the attributes of a labelled file (label.h).
#include "label.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "eval.h"
#include "game_driver.h"
#include "label_pv.h"
#include "packed_board.h"
#include "rules.h"
#include "selfplay_build_info.h"
#include "variant.h"

SearchParams label_search_params(const LabelSettings *set) {
    SearchParams p = SEARCH_PARAMS_DEFAULT;
    if (set->blend >= 0)
        p.eval_blend = set->blend;
    return p;
}

bool label_selected(const LabelSettings *set, const LabelGame *g, int played, Side side,
                    int *eligible) {
    if (played < set->skip_plies || !(g->sides & (1 << side)))
        return false;
    return (*eligible)++ % set->every == 0;
}

// Fills g's row from its outcome and the final board b.
static void finish_row(ShardData *out, size_t row, const LabelGame *g, const Board *b,
                       int leading) {
    GameColumns *gc = &out->games;
    gc->pos_end[row] = out->positions.count;
    gc->plies[row] = (uint16_t)g->nmoves;
    gc->random_plies[row] = (uint16_t)leading;
    gc->winner[row] = (uint8_t)g->winner;
    gc->reason[row] = (uint8_t)g->reason;
    gc->points_cho[row] = (int16_t)rules_points_half(b, CHO);
    gc->points_han[row] = (int16_t)rules_points_half(b, HAN);
    for (uint64_t p = gc->pos_start[row]; p < gc->pos_end[row]; p++)
        out->positions.result_stm[p] = shard_result_stm(g->winner, out->positions.stm[p]);
}

Status label_game(const LabelInputs *in, const LabelGame *g, const LabelSettings *set, Searcher *s,
                  Searcher *pv_s, ShardData *out, ShardData *pv_out, LabelCounts *counts,
                  atomic_bool *stop, ErrorInfo *err) {
    Status st = shard_data_reserve(out, 1, (size_t)g->nmoves, err);
    Board *b = malloc(sizeof *b);
    if (st == STATUS_OK && !b)
        st = error_set(err, STATUS_NOMEM, "out of memory for a board");
    if (st != STATUS_OK) {
        free(b);
        return st;
    }
    *counts = (LabelCounts){0};
    search_clear(s); // the game's labels depend on it alone
    if (pv_s)
        search_clear(pv_s);
    label_game_start(in, g, b);
    size_t row = shard_data_add_game(out);
    GameColumns *gc = &out->games;
    gc->game_id[row] = g->id;
    gc->seed[row] = 0;
    gc->cho_formation[row] = (uint8_t)g->cho;
    gc->han_formation[row] = (uint8_t)g->han;
    gc->pos_start[row] = out->positions.count;
    SearchLimits lim = {.nodes = set->nodes};
    int eligible = 0, leading = -1;
    LabelPv pv;
    for (int k = 0; k < g->nmoves && st == STATUS_OK; k++) {
        bool search = label_selected(set, g, k, b->side, &eligible);
        Score score = 0;
        if (search) {
            pv.len = 0;
            score = search_run(s, b, &lim, pv_out ? label_pv_capture : NULL, &pv, stop).score;
            counts->searched++;
            leading = leading < 0 ? k : leading;
            int plies = 0;
            if (pv_out)
                st = label_pv_end(b, &pv, g, (size_t)(g - in->games), k, set->pv_nodes, pv_s,
                                  pv_out, &plies, stop, err);
            counts->pv_plies += (uint64_t)plies;
        }
        shard_data_add_played(out, b, g->id, g->moves[k],
                              search ? game_driver_stored_score(score) : 0, search);
        board_make(b, g->moves[k]);
    }
    if (st == STATUS_OK)
        finish_row(out, row, g, b, leading < 0 ? g->nmoves : leading);
    free(b);
    return st;
}

// run_config: every setting that decides the labels, "key=value" words. False when they do not
// fit the store's field (a resume compares it whole, so a cut one could match another run's).
static bool make_run_config(const LabelInputs *in, const LabelSettings *set, const char *inputs,
                            StoreMeta *m) {
    char to_move[LABEL_TO_MOVE_MAX + 1] = "";
    if (set->to_move) // spaces kept out of the value: the settings are words
        for (size_t i = 0; set->to_move[i] && i + 1 < sizeof to_move; i++)
            to_move[i] = set->to_move[i] == ' ' ? '_' : set->to_move[i];
    char pv[64] = ""; // only with --pv-ends: a run without keeps the run_config it always had
    if (set->pv_ends)
        snprintf(pv, sizeof pv, "pv_ends=1 pv_nodes=%llu ", (unsigned long long)set->pv_nodes);
    char blend[32] = ""; // only with --blend, likewise
    if (set->blend >= 0)
        snprintf(blend, sizeof blend, "blend=%d ", set->blend);
    int n = snprintf(
        m->run_config, sizeof m->run_config,
        "label engine=%s bench=%s weights=%s net=%.16s variant=%s nodes=%llu hash_mb=%zu "
        "skip_plies=%d every=%d to_move=%s shard_games=%zu openings=%d %s%sinputs=%s",
        m->engine_version, set->bench, m->weights_sha256, set->net ? set->net_sha256 : "classical",
        in->variant->name, (unsigned long long)set->nodes, set->hash_mb, set->skip_plies,
        set->every, set->to_move ? to_move : "-", set->shard_games, in->openings ? in->nfens : 0,
        blend, pv, inputs);
    return n >= 0 && (size_t)n < sizeof m->run_config;
}

// The evaluation the searches use, for the schedule: "classical", "nnue", or with --blend P
// "nnue blended with P % classical" (no comma: a merge reads the schedule's tail from its first).
static void eval_name(const LabelSettings *set, char *out, size_t len) {
    if (!set->net)
        snprintf(out, len, "classical");
    else if (set->blend >= 0)
        snprintf(out, len, "nnue blended with %d %% classical", set->blend);
    else
        snprintf(out, len, "nnue");
}

bool label_make_meta(const LabelInputs *in, const LabelSettings *set, int64_t shard, StoreMeta *m) {
    memset(m, 0, sizeof *m);
    m->schema_version = H5STORE_SCHEMA_VERSION;
    snprintf(m->variant, sizeof m->variant, "%s", in->variant->name);
    snprintf(m->engine_version, sizeof m->engine_version, "hansu %s", HANSU_VERSION_STRING);
    snprintf(m->bench, sizeof m->bench, "%s", set->bench);
    snprintf(m->weights_sha256, sizeof m->weights_sha256, "%s", in->variant->eval->weights_sha256);
    snprintf(m->limits, sizeof m->limits, "nodes=%llu (labels: one search a position)",
             (unsigned long long)set->nodes);
    char evaluation[48];
    eval_name(set, evaluation, sizeof evaluation);
    snprintf(m->schedule, sizeof m->schedule,
             "labelled: the games of the sources, in input order%s; positions searched by Hansu "
             "(%s)",
             in->openings ? ", each from its FEN (openings)" : "", evaluation);
    char inputs[48], digest[17];
    if (!label_inputs_sources(in, m->sources, sizeof m->sources, digest))
        return false;
    snprintf(inputs, sizeof inputs, "%zu/%s", in->npaths, digest);
    label_inputs_openings(in, m->openings, sizeof m->openings); // checked on reading
    if (!make_run_config(in, set, inputs, m))
        return false;
    if (gethostname(m->host, sizeof m->host - 1) < 0)
        snprintf(m->host, sizeof m->host, "unknown");
    m->nodes = (int64_t)set->nodes;
    m->random_plies = set->skip_plies;
    m->shard = shard;
    return true;
}

void label_make_pv_meta(const StoreMeta *m, const LabelSettings *set, int64_t shard,
                        StoreMeta *pvm) {
    memcpy(pvm, m, sizeof *pvm);
    char evaluation[48];
    eval_name(set, evaluation, sizeof evaluation);
    snprintf(pvm->schedule, sizeof pvm->schedule,
             H5STORE_PV_SCHEDULE "%lld, each searched at %llu nodes (%s)", (long long)shard,
             (unsigned long long)set->pv_nodes, evaluation);
    snprintf(pvm->limits, sizeof pvm->limits, "pv_nodes=%llu (labels: one search a PV end)",
             (unsigned long long)set->pv_nodes);
    pvm->openings[0] = '\0';
    pvm->nodes = (int64_t)set->pv_nodes;
    pvm->random_plies = 0;
    pvm->shard = shard;
}
