// SPDX-License-Identifier: MIT
// Self-play statistic of issue 10: games that end by two passes and are lost by the side that
// passed first. A pass that the opponent answers by passing back ends the game on points, and
// the search must see it: such games, where the pass was the passer's choice, are at most 2 %
// of the games (issue 10's settings: 300 games at 300 nodes, seed 11; 70 of 300 before the
// fix, 2 after it; 4 since the points term near the move limit counts a lead on points as good
// in every phase, each a loss in 2 plies that the pass's 1 or 8 alternatives did not put off),
// and in each one left the passer had seen the loss (its search scored the pass as a
// decided loss: nothing better was in sight). A pass that was the only legal move (no piece can
// move: janggi has no stalemate) is no choice of the passer's but the winner's way to win on
// points; such games are counted and printed, not bounded (most of those left since decided
// scores rank by distance, engine/search.h).
// Arguments (optional): games nodes max-percent (default 300 300 2).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "board.h"
#include "engine.h"
#include "game_driver.h"
#include "movegen.h"
#include "packed_board.h"
#include "rules.h"
#include "runner.h"
#include "search.h"

static uint64_t games_n = 300, nodes_n = 300, max_percent = 2;

static bool stored_pass(uint16_t move) { return (move & 127) == (move >> 7); }

static void test_double_pass_losses(void **state) {
    (void)state;
    SelfplayConfig cfg;
    runner_config_default(&cfg);
    cfg.games = games_n;
    cfg.nodes = nodes_n;
    cfg.seed = 11;
    cfg.bench = false;
    Searcher *s = search_create(cfg.hash_mb);
    assert_non_null(s);
    ShardData d;
    shard_data_init(&d);
    atomic_bool abort_flag = false;
    ErrorInfo err;
    for (uint64_t i = 0; i < cfg.games; i++) {
        bool played;
        if (game_driver_play(&cfg, s, i, &d, &abort_flag, &played, &err) != STATUS_OK)
            fail_msg("game %llu: %s", (unsigned long long)i, err.msg);
        assert_true(played);
    }
    uint64_t by_reason[REASON_NB] = {0}, lost = 0, forced = 0, unseen = 0;
    static Board b;
    const GameColumns *g = &d.games;
    const PositionColumns *p = &d.positions;
    for (size_t k = 0; k < g->count; k++) {
        by_reason[g->reason[k] < REASON_NB ? g->reason[k] : 0]++;
        if (g->reason[k] != REASON_DOUBLE_PASS)
            continue;
        uint64_t first = g->pos_end[k] - 2; // the position of the first of the two passes
        assert_true(stored_pass(p->move[first]) && stored_pass(p->move[first + 1]));
        if (g->winner[k] == p->stm[first])
            continue;
        lost++;
        assert_int_equal(
            packed_board_decode((const PackedBoard *)(p->board + first * PACKED_BOARD_BYTES),
                                (Side)p->stm[first], p->ply[first], &b, &err),
            STATUS_OK);
        MoveList legal;
        movegen_legal(&b, &legal);
        if (legal.count == 1)
            forced++; // the pass alone
        else
            print_message("game %u: a pass of %d legal moves at ply %u (scored %d) lost\n",
                          g->game_id[k], legal.count, p->ply[first], p->score[first]);
        // A decided score is stored as a win or loss in n plies (game_driver.c).
        if (!(p->flags[first] & POS_RANDOM) && p->score[first] > -STORED_MATE_MIN) {
            unseen++;
            print_error("game %u: the pass at ply %u scored %d and lost by two passes\n",
                        g->game_id[k], p->ply[first], p->score[first]);
        }
    }
    print_message("%llu games at %llu nodes, seed 11:", (unsigned long long)g->count,
                  (unsigned long long)cfg.nodes);
    for (int r = 1; r < REASON_NB; r++)
        if (by_reason[r])
            printf(" %s %llu", rules_reason_name((EndReason)r), (unsigned long long)by_reason[r]);
    printf("\n");
    print_message("double-pass games lost by the first passer: %llu (%.2f %%), %llu of them "
                  "with the pass the only legal move, %llu with the loss unseen\n",
                  (unsigned long long)lost, 100.0 * (double)lost / (double)g->count,
                  (unsigned long long)forced, (unsigned long long)unseen);
    assert_true((lost - forced) * 100 <= g->count * max_percent);
    assert_int_equal(unseen, 0);
    shard_data_free(&d);
    search_destroy(s);
}

int main(int argc, char **argv) {
    if (argc == 4) {
        games_n = strtoull(argv[1], NULL, 10);
        nodes_n = strtoull(argv[2], NULL, 10);
        max_percent = strtoull(argv[3], NULL, 10);
    }
    if ((argc != 1 && argc != 4) || games_n == 0 || nodes_n == 0 || max_percent > 100) {
        fprintf(stderr, "usage: %s [games nodes max-percent]\n", argv[0]);
        return 2;
    }
    engine_init();
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_double_pass_losses)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
