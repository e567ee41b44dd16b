// SPDX-License-Identifier: MIT
// The game driver: one self-play game from its opening or formation pairing to the end under
// the rules page, with seeded random opening plies and optional resignation and adjudication.
#include "game_driver.h"

#include <stdlib.h>

#include "board.h"
#include "fen.h"
#include "movegen.h"
#include "packed_board.h"
#include "prng.h"
#include "rules.h"
#include "selfplay_config.h"
#include "variant.h"

uint64_t game_driver_seed(uint64_t seed, uint64_t index) {
    uint64_t s = seed;
    uint64_t a = prng_next(&s);
    uint64_t t = a ^ index;
    return prng_next(&t);
}

int game_driver_pairing(uint64_t index) {
    return (int)(index % (uint64_t)variant_pairing_count(variant_default()));
}

// The game's start: opening index % count of the run's openings, else janggi's pairing of game
// `index`, else the variant's start position. Formations are 0 where there are none.
static void setup_start(const SelfplayConfig *cfg, const Variant *v, Board *b, uint64_t index,
                        GameColumns *gc, size_t g) {
    if (cfg->openings) {
        const Openings *o = cfg->openings;
        fen_parse_variant(b, v, o->fen[index % (uint64_t)o->count], NULL); // checked on loading
        gc->cho_formation[g] = gc->han_formation[g] = 0;
        return;
    }
    if (v->formation_count == 0) {
        fen_parse_variant(b, v, v->start_fen, NULL);
        gc->cho_formation[g] = gc->han_formation[g] = 0;
        return;
    }
    int pairing = game_driver_pairing(index);
    variant_setup_pairing(v, b, pairing);
    gc->cho_formation[g] = (uint8_t)variant_pairing_cho(v, pairing);
    gc->han_formation[g] = (uint8_t)variant_pairing_han(v, pairing);
}

// A uniformly drawn legal move; the pass only when nothing else is legal.
static Move random_move(Board *b, uint64_t *rng) {
    MoveList list;
    movegen_legal(b, &list);
    int moves = 0;
    for (int i = 0; i < list.count; i++)
        if (!move_is_pass(list.moves[i]))
            list.moves[moves++] = list.moves[i];
    if (moves == 0)
        return list.count ? list.moves[list.count - 1] : MOVE_NONE;
    return list.moves[prng_next(rng) % (uint64_t)moves];
}

static SearchLimits move_limits(const SelfplayConfig *cfg, uint64_t *rng) {
    SearchLimits lim = {0};
    lim.depth = cfg->depth;
    lim.movetime = cfg->movetime_ms;
    if (cfg->nodes && !cfg->depth && !cfg->movetime_ms) {
        double u = (double)(prng_next(rng) >> 11) / 9007199254740992.0; // [0, 1)
        double n = (double)cfg->nodes * (1.0 + cfg->nodes_spread * (2.0 * u - 1.0));
        lim.nodes = n < 1.0 ? 1 : (uint64_t)n;
    }
    return lim;
}

// Counts of consecutive scores past the resign and adjudication thresholds.
typedef struct Streaks {
    int resign[SIDE_NB];
    int adjudicate;
    Side adjudicate_leader;
} Streaks;

// Updates the streaks with the score the mover found; returns the reason that ends the game
// now (resign: the mover gives up; adjudication: the leader wins) or REASON_NONE.
static EndReason judge_score(const SelfplayConfig *cfg, Streaks *k, Side mover, Score score,
                             Side *winner) {
    if (cfg->resign_cp > 0) {
        k->resign[mover] = score <= -cfg->resign_cp ? k->resign[mover] + 1 : 0;
        if (k->resign[mover] >= cfg->resign_plies) {
            *winner = (Side)!mover;
            return REASON_RESIGN;
        }
    }
    if (cfg->adjudicate_cp > 0) {
        Side leader = score > 0 ? mover : (Side)!mover;
        bool past = abs(score) >= cfg->adjudicate_cp;
        k->adjudicate = past && (k->adjudicate == 0 || leader == k->adjudicate_leader)
                            ? k->adjudicate + 1
                            : past;
        k->adjudicate_leader = leader;
        if (k->adjudicate >= cfg->adjudicate_plies) {
            *winner = leader;
            return REASON_ADJUDICATION;
        }
    }
    return REASON_NONE;
}

// Chooses and checks the move of one position; fills its score and flags.
// Plies played since the game's start position (its opening's ply not counted).
static int plies_played(const Board *b) { return b->nstates - 1; }

static Status choose_move(const SelfplayConfig *cfg, Searcher *s, Board *b, uint64_t *rng,
                          atomic_bool *abort_flag, Move *move, Score *score, ErrorInfo *err) {
    *score = 0;
    if (plies_played(b) < cfg->random_plies) {
        *move = random_move(b, rng);
    } else {
        SearchLimits lim = move_limits(cfg, rng);
        SearchResult r = search_run(s, b, &lim, NULL, NULL, abort_flag);
        *move = r.best;
        *score = r.score;
        if (atomic_load(abort_flag))
            return STATUS_OK;
    }
    if (*move == MOVE_NONE || !movegen_is_pseudo_legal(b, *move) || !movegen_is_legal(b, *move))
        return error_set(err, STATUS_ILLEGAL, "search returned an illegal move %u at ply %d", *move,
                         board_game_ply(b));
    return STATUS_OK;
}

// A decided game, of any kind, as a win or loss in n plies (docs/data-format.md); the kind of
// the end is not kept.
int16_t game_driver_stored_score(Score v) {
    if (!score_is_decided(v))
        return stored_score(v, SCORE_WIN, SCORE_DECISIVE);
    int n = score_end_plies(v);
    return stored_score(v > 0 ? SCORE_WIN - n : -(SCORE_WIN - n), SCORE_WIN, SCORE_DECISIVE);
}

// Fills the game row and every position's outcome from the side to move's view.
static void finish_game(ShardData *out, size_t g, const Board *b, int winner, EndReason reason) {
    GameColumns *gc = &out->games;
    gc->winner[g] = (uint8_t)winner; // WINNER_DRAW for a draw
    gc->reason[g] = (uint8_t)reason;
    gc->points_cho[g] = (int16_t)rules_points_half(b, CHO);
    gc->points_han[g] = (int16_t)rules_points_half(b, HAN);
    gc->pos_end[g] = out->positions.count;
    gc->plies[g] = (uint16_t)(gc->pos_end[g] - gc->pos_start[g]);
    for (uint64_t p = gc->pos_start[g]; p < gc->pos_end[g]; p++)
        out->positions.result_stm[p] = shard_result_stm(winner, out->positions.stm[p]);
}

Status game_driver_play(const SelfplayConfig *cfg, Searcher *s, uint64_t index, ShardData *out,
                        atomic_bool *abort_flag, bool *played, ErrorInfo *err) {
    *played = false;
    size_t games0 = out->games.count, positions0 = out->positions.count;
    Status st = shard_data_reserve(out, 1, STORE_PLY_MAX + 1, err);
    Board *b = malloc(sizeof *b);
    if (st == STATUS_OK && !b)
        st = error_set(err, STATUS_NOMEM, "out of memory for a board");
    if (st != STATUS_OK)
        goto cleanup;
    uint64_t rng = game_driver_seed(cfg->seed, index);
    const Variant *v = variant_or_default(cfg->variant);
    search_clear(s);
    size_t g = shard_data_add_game(out);
    GameColumns *gc = &out->games;
    setup_start(cfg, v, b, index, gc, g);
    gc->game_id[g] = (uint32_t)index;
    gc->seed[g] = rng;
    gc->pos_start[g] = out->positions.count;
    Streaks streaks = {0};
    GameResult res = {0};
    Side winner = CHO;
    EndReason reason = REASON_NONE;
    while (!rules_game_over(b, &res)) {
        // A game still going at the store's ply cap (xiangqi only: janggi ends at 200) is
        // adjudicated drawn.
        if (board_game_ply(b) >= STORE_PLY_MAX) {
            reason = REASON_ADJUDICATION;
            res.draw = true;
            break;
        }
        Move move;
        Score score;
        bool random = plies_played(b) < cfg->random_plies;
        st = choose_move(cfg, s, b, &rng, abort_flag, &move, &score, err);
        if (st != STATUS_OK || atomic_load(abort_flag))
            goto cleanup;
        if (!random && (reason = judge_score(cfg, &streaks, b->side, score, &winner)))
            break;
        shard_data_add_played(out, b, (uint32_t)index, move, game_driver_stored_score(score),
                              !random);
        board_make(b, move);
    }
    gc->random_plies[g] =
        (uint16_t)(cfg->random_plies < plies_played(b) ? cfg->random_plies : plies_played(b));
    int final = res.draw ? WINNER_DRAW : (int)(reason ? winner : res.winner);
    finish_game(out, g, b, final, reason ? reason : res.reason);
    *played = true;
cleanup:
    if (!*played) {
        out->games.count = games0;
        out->positions.count = positions0;
    }
    free(b);
    return st;
}
