// SPDX-License-Identifier: MIT
// Round trip through a real build (label slow): hansu-tune emits a header, a second build of
// the engine library compiles it in (-DHANSU_EVAL_WEIGHTS=path), and that build's hansu-eval
// scores fixture positions exactly as the tuner predicts from the emitted weights.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "h5store.h"
#include "janggi/eval_layout.h"
#include "packed_board.h"
#include "shard_data.h"
#include "synth.h"
#include "trace_store.h"
#include "variant.h"
#include "weights_io.h"

enum { GAMES = 20, EVERY = 7 };

static void run(const char *cmd) {
    int rc = system(cmd);
    if (rc != 0)
        fail_msg("command failed (%d): %s", rc, cmd);
}

static void test_engine_built_with_emitted_header(void **state) {
    (void)state;
    engine_init();
    char dir[64] = "/tmp/hansu-roundtrip-XXXXXX", h5[128], hdr[128], fens[128], evals[128];
    char cmd[2048];
    assert_non_null(mkdtemp(dir));
    snprintf(h5, sizeof h5, "%s/games.h5", dir);
    snprintf(hdr, sizeof hdr, "%s/weights.h", dir);
    snprintf(fens, sizeof fens, "%s/fens.txt", dir);
    snprintf(evals, sizeof evals, "%s/evals.txt", dir);
    ShardData d;
    shard_data_init(&d);
    ErrorInfo err;
    StoreMeta meta = {.schema_version = H5STORE_SCHEMA_VERSION, .shard = -1};
    assert_int_equal(synth_games(&d, GAMES, 0, 77, &err), STATUS_OK);
    assert_int_equal(h5store_write(h5, &meta, &d, &err), STATUS_OK);
    // A header that differs from the compiled-in weights.
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/hansu-tune' '%s' --threads 2 --epochs 6 --batch 500 --lr 4 --valid 0 "
             "--out '%s' > /dev/null",
             HANSU_BINARY_DIR, h5, hdr);
    run(cmd);
    static EvalWeight emitted[EVAL_PARAM_NB];
    assert_int_equal(weights_read_header(hdr, EVAL_PARAM_NB, emitted, &err), STATUS_OK);

    // The tuner's predictions: traces of this build, weights of the header.
    TraceStore s;
    trace_store_init(&s, EVAL_PARAM_NB, EVAL_PHASE_MAX);
    trace_store_set_danger(&s, variant_default()->eval->danger_begin,
                           variant_default()->eval->danger_end);
    FILE *f = fopen(fens, "w");
    assert_non_null(f);
    static Board b;
    static EvalTrace tr;
    for (size_t r = 0; r < d.positions.count; r += EVERY) {
        PackedBoard pb;
        memcpy(pb.sq, d.positions.board + r * PACKED_BOARD_BYTES, PACKED_BOARD_BYTES);
        assert_int_equal(
            packed_board_decode(&pb, d.positions.stm[r] ? HAN : CHO, d.positions.ply[r], &b, &err),
            STATUS_OK);
        char fen[FEN_BUFFER];
        fen_write(&b, fen, sizeof fen);
        fprintf(f, "%s\n", fen);
        bool kept;
        Score e = eval_trace(&b, &tr);
        assert_int_equal(
            trace_store_add_eval(&s, &tr, b.side, EVAL_WEIGHTS_FLAT, e, 0, 0, &kept, &err),
            STATUS_OK);
        assert_true(kept);
    }
    assert_int_equal(fclose(f), 0);

    // A second build of the engine with the emitted header.
    snprintf(cmd, sizeof cmd,
             "'%s' -S '%s' -B '%s/build' -G '%s' -DCMAKE_BUILD_TYPE=Debug -DHANSU_TESTS=OFF "
             "-DHANSU_EVAL_WEIGHTS='%s' > '%s/configure.log' 2>&1 && "
             "'%s' --build '%s/build' --target hansu-eval -j 2 > '%s/build.log' 2>&1 && "
             "'%s/build/tuner/hansu-eval' < '%s' > '%s'",
             HANSU_CMAKE, HANSU_SOURCE_DIR, dir, HANSU_GENERATOR, hdr, dir, HANSU_CMAKE, dir, dir,
             dir, fens, evals);
    run(cmd);
    f = fopen(evals, "r");
    assert_non_null(f);
    size_t differ = 0;
    for (size_t i = 0; i < s.npos; i++) {
        int got;
        assert_int_equal(fscanf(f, "%d", &got), 1);
        int want = (int)eval_clamp(trace_store_rebuild(&s, i, emitted)); // the engine clamps
        if (got != want)
            fail_msg("position %zu: engine built with the header says %d, tuner predicts %d", i,
                     got, want);
        differ += want != s.pos[i].eval;
    }
    fclose(f);
    printf("    %zu positions equal; %zu of them differ from the compiled-in weights' eval\n",
           s.npos, differ);
    assert_true(differ > s.npos / 2); // the header really changed the evaluation
    trace_store_free(&s);
    shard_data_free(&d);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    run(cmd);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_built_with_emitted_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
