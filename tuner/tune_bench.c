// SPDX-License-Identifier: MIT
// hansu-tune-bench: the tuner's speed figures, each ratio measured in one run.
//   hansu-tune-bench make FILE.h5 GAMES [SEED]   write random-move games (synth.h) as HDF5
//   hansu-tune-bench run FILE.h5 [REPEATS]       loading rate, memory per position, epoch time
//                                                with 1 and 2 threads and their ratio
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "dataset.h"
#include "h5store.h"
#include "janggi/eval_layout.h"
#include "optimizer.h"
#include "shard_data.h"
#include "synth.h"

static Status make(const char *path, size_t games, uint64_t seed, ErrorInfo *err) {
    ShardData d;
    shard_data_init(&d);
    Status st = synth_games(&d, games, 0, seed, err);
    StoreMeta meta = {.schema_version = H5STORE_SCHEMA_VERSION, .seed = seed, .shard = -1};
    snprintf(meta.engine_version, sizeof meta.engine_version, "hansu-tune-bench");
    snprintf(meta.bench, sizeof meta.bench, "unknown");
    snprintf(meta.limits, sizeof meta.limits, "random legal moves");
    if (st == STATUS_OK)
        st = h5store_write(path, &meta, &d, err);
    if (st == STATUS_OK)
        printf("wrote %s: %zu games, %zu positions\n", path, d.games.count, d.positions.count);
    shard_data_free(&d);
    return st;
}

// Processor time of the whole process, s: on a busy machine the 1-thread figures are
// better read from it than from the wall clock.
static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// Loads the file with `threads` threads into one store (no validation split), timed.
static Status load(char *path, int threads, TraceStore *s, DatasetStats *ds, ErrorInfo *err) {
    DatasetFilter f = dataset_filter_default();
    f.skip_plies = 0, f.skip_check = f.skip_capture = false, f.valid_fraction = 0;
    TraceStore none;
    trace_store_init(s, EVAL_PARAM_NB, EVAL_PHASE_MAX);
    trace_store_init(&none, EVAL_PARAM_NB, EVAL_PHASE_MAX);
    Status st = dataset_load(&path, 1, &f, threads, s, &none, ds, err);
    trace_store_free(&none);
    return st;
}

// Best of `repeats` full passes (gradient and loss together) with `threads` threads.
static double epoch_seconds(const TraceStore *s, const double *w, int threads, int repeats,
                            double *scratch, double *g) {
    double best = INFINITY;
    for (int r = 0; r < repeats; r++) {
        double t0 = omp_get_wtime();
        tune_gradient(s, 0, s->npos, w, 1.0, threads, g, scratch);
        best = fmin(best, omp_get_wtime() - t0);
    }
    return best;
}

static Status run(char *path, int repeats, ErrorInfo *err) {
    TraceStore s;
    DatasetStats ds1, ds2;
    double c0 = cpu_seconds();
    Status st = load(path, 1, &s, &ds1, err);
    double load_cpu = cpu_seconds() - c0;
    trace_store_free(&s);
    if (st == STATUS_OK)
        st = load(path, 2, &s, &ds2, err);
    if (st != STATUS_OK)
        return st;
    double r1 = ds1.positions / (ds1.read_seconds + ds1.build_seconds);
    double r2 = ds2.positions / (ds2.read_seconds + ds2.build_seconds);
    printf("positions %zu (%zu games), parity refused %zu\n", s.npos, ds2.games, ds2.refused);
    printf("loading incl. trace building: 1 thread %.0f positions/s, 2 threads %.0f positions/s "
           "(read %.3f s, build %.3f s)\n",
           r1, r2, ds2.read_seconds, ds2.build_seconds);
    printf("loading, 1 thread, by processor time: %.0f positions/s\n", ds1.positions / load_cpu);
    printf("memory: %.2f bytes/position, %.2f non-zero terms/position (goal <= %.2f)\n",
           trace_store_bytes_per_position(&s), trace_store_entries_per_position(&s),
           24 + 4 * trace_store_entries_per_position(&s));
    double *w = malloc(2 * EVAL_PARAM_NB * sizeof *w), *g = malloc(2 * EVAL_PARAM_NB * sizeof *g);
    double *scratch = calloc(2 * tune_scratch_stride(&s), sizeof *scratch);
    if (st == STATUS_OK && (!w || !g || !scratch))
        st = error_set(err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK) {
        for (int i = 0; i < EVAL_PARAM_NB; i++)
            w[2 * i] = EVAL_WEIGHTS_FLAT[i].mg, w[2 * i + 1] = EVAL_WEIGHTS_FLAT[i].eg;
        double c1 = cpu_seconds();
        double e1 = epoch_seconds(&s, w, 1, repeats, scratch, g);
        c1 = (cpu_seconds() - c1) / repeats;
        double c2 = cpu_seconds();
        double e2 = epoch_seconds(&s, w, 2, repeats, scratch, g);
        c2 = (cpu_seconds() - c2) / repeats;
        double per_m = 1e6 / (double)s.npos;
        printf("epoch (gradient + loss, best of %d): 1 thread %.4f s, 2 threads %.4f s, ratio "
               "%.2f; per 1M positions: %.4f s and %.4f s\n",
               repeats, e1, e2, e1 / e2, e1 * per_m, e2 * per_m);
        printf("epoch, 1 thread, by processor time: %.4f s per 1M positions\n", c1 * per_m);
        // Work is split evenly (static schedule): on an idle machine 2 threads would take
        // half their summed processor time, so 2 * c1 / c2 is the ratio contention hides.
        printf("epoch, 2 threads, by processor time: %.4f s summed per 1M positions; "
               "ratio estimate 2 * t1 / (t1 + t2) = %.2f\n",
               c2 * per_m, 2 * c1 / c2);
    }
    free(w), free(g), free(scratch);
    trace_store_free(&s);
    return st;
}

int main(int argc, char **argv) {
    cli_init();
    ErrorInfo err = {{0}};
    Status st;
    if (argc >= 4 && !strcmp(argv[1], "make"))
        st = make(argv[2], strtoull(argv[3], NULL, 10), argc > 4 ? strtoull(argv[4], NULL, 10) : 1,
                  &err);
    else if (argc >= 3 && !strcmp(argv[1], "run"))
        st = run(argv[2], argc > 3 ? atoi(argv[3]) : 3, &err);
    else {
        fputs("usage: hansu-tune-bench make FILE.h5 GAMES [SEED] | run FILE.h5 [REPEATS]\n",
              stderr);
        return 2;
    }
    if (st != STATUS_OK) {
        fprintf(stderr, "hansu-tune-bench: %s error: %s\n", status_name(st), err.msg);
        return 1;
    }
    return 0;
}
