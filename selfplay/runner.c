// SPDX-License-Identifier: MIT
// The runner: resume scan, the schedule of game indices, OpenMP workers, and the single
// writer thread that checkpoints finished games into shard files.
#include "runner.h"

#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "durable.h"
#include "engine.h"
#include "eval.h"
#include "game_driver.h"
#include "h5store.h"
#include "rules.h"
#include "run_lock.h"
#include "selfplay_build_info.h"
#include "sha256.h"
#include "timeman.h"
#include "tt.h"
#include "variant.h"

enum { WRITE_SHARE_INVERSE = 24 }; // the writer waits 24x its last write: <= ~4% of the time

void runner_config_default(SelfplayConfig *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->out_dir = "runs/selfplay";
    cfg->games = 1000;
    cfg->seed = 1;
    cfg->random_plies = 8;
    cfg->nodes = 2000;
    cfg->resign_plies = 4;
    cfg->adjudicate_plies = 8;
    cfg->hash_mb = 16;
    cfg->bench = true;
    cfg->checkpoint_s = 5.0;
    cfg->checkpoint_games = 200;
    cfg->shard_positions = (size_t)1 << 18;
    cfg->progress_s = 1.0;
    cfg->part_index = 1;
    cfg->part_count = 1;
}

uint64_t runner_part_games(const SelfplayConfig *cfg) {
    uint64_t first = cfg->part_index - 1;
    return cfg->games > first ? (cfg->games - first + cfg->part_count - 1) / cfg->part_count : 0;
}

void runner_config_set_limit(SelfplayConfig *cfg, RunnerLimit which, uint64_t value) {
    cfg->limits_given |= which;
    if (which == RUNNER_LIMIT_NODES)
        cfg->nodes = value;
    else if (which == RUNNER_LIMIT_DEPTH)
        cfg->depth = value > INT32_MAX ? INT32_MAX : (int)value;
    else
        cfg->movetime_ms = value > INT64_MAX ? INT64_MAX : (int64_t)value;
}

// --hash: 1..TT_MB_MAX per worker, and the workers' tables together within the machine's
// memory: a table that cannot be allocated was told only after the bench, each worker failing.
static Status check_memory(const SelfplayConfig *cfg, int cpus, ErrorInfo *err) {
    if (cfg->hash_mb < 1 || cfg->hash_mb > TT_MB_MAX)
        return error_set(err, STATUS_RANGE, "--hash %zu: must be in 1..%d (MB per worker)",
                         cfg->hash_mb, TT_MB_MAX);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    unsigned long long workers = (unsigned long long)(cfg->threads ? cfg->threads : cpus);
    unsigned long long want = workers * cfg->hash_mb;
    unsigned long long have = pages > 0 && page > 0 ? (unsigned long long)pages * page >> 20 : 0;
    if (have && want > have)
        return error_set(err, STATUS_RANGE,
                         "--hash %zu: %llu workers x %zu MB = %llu MB, more than the %llu MB of "
                         "memory here",
                         cfg->hash_mb, workers, cfg->hash_mb, want, have);
    return STATUS_OK;
}

Status runner_config_check(const SelfplayConfig *cfg, ErrorInfo *err) {
    // One limit, given as a positive number: a zero would silently fall back to the default
    // nodes, and a second limit silently override the first.
    unsigned given = cfg->limits_given | (cfg->depth ? RUNNER_LIMIT_DEPTH : 0) |
                     (cfg->movetime_ms ? RUNNER_LIMIT_MOVETIME : 0);
    if (given & (given - 1))
        return error_set(err, STATUS_RANGE, "give only one of --nodes, --depth and --movetime");
    if ((given & RUNNER_LIMIT_DEPTH) && cfg->depth <= 0)
        return error_set(err, STATUS_RANGE, "--depth must be at least 1");
    if ((given & RUNNER_LIMIT_MOVETIME) && cfg->movetime_ms <= 0)
        return error_set(err, STATUS_RANGE, "--movetime must be at least 1");
    if (!(given & (RUNNER_LIMIT_DEPTH | RUNNER_LIMIT_MOVETIME)) && cfg->nodes == 0)
        return error_set(err, STATUS_RANGE, "--nodes must be at least 1");
    if (cfg->games == 0 && !(cfg->hours > 0))
        return error_set(err, STATUS_RANGE, "give --games N (N >= 1) or --hours H (H > 0)");
    if (cfg->games > UINT32_MAX)
        return error_set(err, STATUS_RANGE, "--games: at most %u", UINT32_MAX);
    if (cfg->nodes_spread < 0 || cfg->nodes_spread >= 1)
        return error_set(err, STATUS_RANGE, "--nodes-spread must be in [0, 1)");
    if (cfg->random_plies < 0 || cfg->random_plies > GAME_PLY_LIMIT)
        return error_set(err, STATUS_RANGE, "--random-plies must be in 0..%d", GAME_PLY_LIMIT);
    char text[H5STORE_OPENINGS_MAX];
    if (cfg->openings &&
        (cfg->openings->count == 0 || !runner_openings_text(cfg, text, sizeof text)))
        return error_set(err, STATUS_RANGE,
                         "--openings %s: %d FENs; a self-play file records at most %d bytes of "
                         "them (janggi's suite of 480 takes about 35,000)",
                         cfg->openings_path ? cfg->openings_path : "(given)", cfg->openings->count,
                         H5STORE_OPENINGS_MAX - 1);
    // Each worker holds a searcher and a hash table: more workers than a few per CPU only
    // cost memory (1000 took 1.3 GB) and play no faster.
    int cpus = omp_get_num_procs();
    if (cfg->threads < 0 || cfg->threads > RUNNER_THREADS_PER_CPU * cpus)
        return error_set(err, STATUS_RANGE,
                         "--threads %d: must be in 0..%d (at most %d per CPU, %d CPUs here; "
                         "0 = one per CPU)",
                         cfg->threads, RUNNER_THREADS_PER_CPU * cpus, RUNNER_THREADS_PER_CPU, cpus);
    if (cfg->resign_cp > 0 && cfg->resign_plies < 1)
        return error_set(err, STATUS_RANGE,
                         "--resign-plies %d: must be at least 1 with --resign-cp",
                         cfg->resign_plies);
    if (cfg->adjudicate_cp > 0 && cfg->adjudicate_plies < 1)
        return error_set(err, STATUS_RANGE,
                         "--adjudicate-plies %d: must be at least 1 with --adjudicate-cp",
                         cfg->adjudicate_plies);
    if (cfg->depth > DEPTH_MAX)
        return error_set(err, STATUS_RANGE, "--depth %d: must be in 1..%d", cfg->depth, DEPTH_MAX);
    Status st = check_memory(cfg, cpus, err);
    if (st != STATUS_OK)
        return st;
    // A shard must hold the longest game: a game is never split between two shards.
    if (cfg->shard_positions < GAME_PLY_LIMIT || cfg->shard_positions > INT32_MAX)
        return error_set(err, STATUS_RANGE, "--shard-positions %zu: must be in %d..%d",
                         cfg->shard_positions, GAME_PLY_LIMIT, INT32_MAX);
    if (!(cfg->checkpoint_s > 0))
        return error_set(err, STATUS_RANGE, "--checkpoint-s %g: must be more than 0 (seconds)",
                         cfg->checkpoint_s);
    if (!cfg->out_dir || !cfg->out_dir[0])
        return error_set(err, STATUS_RANGE, "--out needs a folder");
    if (cfg->part_count < 1 || cfg->part_count > RUNNER_PARTS_MAX || cfg->part_index < 1 ||
        cfg->part_index > cfg->part_count)
        return error_set(err, STATUS_RANGE, "--part %u/%u: give I/K with 1 <= I <= K <= %d",
                         cfg->part_index, cfg->part_count, RUNNER_PARTS_MAX);
    if (cfg->games && cfg->part_count > cfg->games)
        return error_set(err, STATUS_RANGE,
                         "--part %u/%u: more parts than games (--games %llu): parts %llu..%u "
                         "would play none",
                         cfg->part_index, cfg->part_count, (unsigned long long)cfg->games,
                         (unsigned long long)cfg->games + 1, cfg->part_count);
    return STATUS_OK;
}

bool runner_openings_text(const SelfplayConfig *cfg, char *out, size_t len) {
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; cfg->openings && i < cfg->openings->count; i++) {
        int w = snprintf(out + n, len - n, "%s%s", i ? "\n" : "", cfg->openings->fen[i]);
        if (w < 0 || (size_t)w >= len - n)
            return false;
        n += (size_t)w;
    }
    return true;
}

// Seconds on the monotonic clock (the engine's, timeman_now_ms).
static double now_s(void) { return timeman_now_ms() / 1000.0; }

static void utc_now(char *out, size_t len) {
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

// The file attributes of this run; run_config holds everything that decides the games.
static void make_meta(const SelfplayConfig *cfg, const char *bench, StoreMeta *m) {
    memset(m, 0, sizeof *m);
    m->schema_version = H5STORE_SCHEMA_VERSION;
    snprintf(m->engine_version, sizeof m->engine_version, "hansu %s", HANSU_VERSION_STRING);
    snprintf(m->bench, sizeof m->bench, "%s", bench);
    const Variant *v = variant_or_default(cfg->variant);
    snprintf(m->variant, sizeof m->variant, "%s", v->name);
    snprintf(m->weights_sha256, sizeof m->weights_sha256, "%s", v->eval->weights_sha256);
    if (cfg->depth)
        snprintf(m->limits, sizeof m->limits, "depth=%d", cfg->depth);
    else if (cfg->movetime_ms)
        snprintf(m->limits, sizeof m->limits, "movetime_ms=%lld", (long long)cfg->movetime_ms);
    else
        snprintf(m->limits, sizeof m->limits, "nodes=%llu nodes_spread=%g",
                 (unsigned long long)cfg->nodes, cfg->nodes_spread);
    runner_openings_text(cfg, m->openings, sizeof m->openings); // runner_config_check: it fits
    if (cfg->openings)
        snprintf(m->schedule, sizeof m->schedule,
                 "openings: game_id %% %d = the line of the openings attribute (then the random "
                 "plies)",
                 cfg->openings->count);
    else if (v->formation_count)
        snprintf(m->schedule, sizeof m->schedule,
                 "round-robin: pairing = game_id %% 16, cho = pairing / 4, han = pairing %% 4");
    else
        snprintf(m->schedule, sizeof m->schedule, "the start position (random plies)");
    snprintf(m->run_config, sizeof m->run_config,
             "engine=%s bench=%s weights=%s seed=%llu %s hash_mb=%zu random_plies=%d resign=%d/%d "
             "adjudicate=%d/%d schedule=%s",
             m->engine_version, m->bench, m->weights_sha256, (unsigned long long)cfg->seed,
             m->limits, cfg->hash_mb, cfg->random_plies, cfg->resign_cp, cfg->resign_plies,
             cfg->adjudicate_cp, cfg->adjudicate_plies,
             v->formation_count ? "round-robin-16" : "start");
    // Janggi's run_config is unchanged; another variant is named in it (it decides the games),
    // and so are the openings (by the SHA-256 of the attribute: a resume needs the same).
    if (v != variant_default()) {
        size_t n = strlen(m->run_config);
        snprintf(m->run_config + n, sizeof m->run_config - n, " variant=%s", v->name);
    }
    if (cfg->net) {
        size_t n = strlen(m->run_config);
        snprintf(m->run_config + n, sizeof m->run_config - n, " net=%.16s", cfg->net_sha256);
    }
    if (cfg->openings) {
        Sha256 h;
        char hex[65];
        sha256_init(&h);
        sha256_update(&h, m->openings, strlen(m->openings));
        sha256_final(&h, hex);
        size_t n = strlen(m->run_config);
        snprintf(m->run_config + n, sizeof m->run_config - n, " openings=%d/%.16s",
                 cfg->openings->count, hex);
    }
    if (gethostname(m->host, sizeof m->host - 1) < 0)
        snprintf(m->host, sizeof m->host, "unknown");
    m->seed = cfg->seed;
    m->nodes = cfg->depth || cfg->movetime_ms ? 0 : (int64_t)cfg->nodes;
    m->depth = cfg->depth;
    m->movetime_ms = cfg->movetime_ms;
    m->random_plies = cfg->random_plies;
}

// --- shared state of one run ----------------------------------------------------------------

typedef struct Run {
    const SelfplayConfig *cfg;
    atomic_int *signal_stop;  // set by the front end's signal handler
    atomic_bool abort_games;  // stop searches now; games in progress are dropped
    atomic_bool no_new_games; // hand out no more indices (time budget reached)
    // Schedule: indices below `target` of this part not yet in `done` (from --resume); the
    // cursor counts this part's games: index = part_index - 1 + cursor * part_count.
    atomic_uint_fast64_t cursor;
    uint64_t target;
    uint8_t *done;
    size_t done_bytes;
    // Queue of finished games from the workers to the writer, bounded in positions.
    pthread_mutex_t mu;
    pthread_cond_t wake_writer, wake_workers;
    ShardData pending;
    size_t pending_max_positions;
    bool closed;
    // The first error; guarded by mu.
    Status status;
    ErrorInfo err;
    // Writer state.
    StoreMeta meta;
    int64_t next_shard;
    uint64_t resumed_games, resumed_positions, resumed_bytes;
    uint64_t resumed_own; // resumed games of this part
    RunnerProgressFn progress;
    void *progress_arg;
    RunnerProgress prog;
    double start;     // monotonic seconds when the games began (after bench and scan)
    double start_cpu; // process CPU seconds at that moment
} Run;

static bool is_done(const Run *r, uint64_t i) {
    return i / 8 < r->done_bytes && (r->done[i / 8] >> (i % 8) & 1);
}

// Next game index to play, or false when there is none left.
static bool next_index(Run *r, uint64_t *index) {
    for (;;) {
        if (atomic_load(&r->no_new_games) || atomic_load(&r->abort_games) ||
            atomic_load(r->signal_stop))
            return false;
        uint64_t j = atomic_fetch_add(&r->cursor, 1);
        uint64_t i = r->cfg->part_index - 1 + j * r->cfg->part_count;
        if (j >= r->target || i >= r->target)
            return false;
        if (!is_done(r, i)) {
            *index = i;
            return true;
        }
    }
}

// Records the first error and stops everything.
static void run_fail(Run *r, Status st, const ErrorInfo *e) {
    pthread_mutex_lock(&r->mu);
    if (r->status == STATUS_OK) {
        r->status = st;
        r->err = *e;
    }
    atomic_store(&r->abort_games, true);
    pthread_cond_broadcast(&r->wake_workers);
    pthread_cond_broadcast(&r->wake_writer);
    pthread_mutex_unlock(&r->mu);
}

// A worker hands a finished game to the writer, waiting while the queue is full.
static void queue_push(Run *r, const ShardData *game) {
    ErrorInfo e;
    pthread_mutex_lock(&r->mu);
    while (r->pending.positions.count >= r->pending_max_positions && !atomic_load(&r->abort_games))
        pthread_cond_wait(&r->wake_workers, &r->mu);
    Status st = shard_data_append(&r->pending, game, &e);
    pthread_cond_signal(&r->wake_writer);
    pthread_mutex_unlock(&r->mu);
    if (st != STATUS_OK)
        run_fail(r, st, &e);
}

static void worker(Run *r) {
    ErrorInfo e;
    Searcher *s = search_create(r->cfg->hash_mb);
    ShardData game;
    shard_data_init(&game);
    if (!s) {
        error_set(&e, STATUS_NOMEM, "cannot allocate a %zu MB hash table", r->cfg->hash_mb);
        run_fail(r, STATUS_NOMEM, &e);
    } else if (r->cfg->net && !search_set_net(s, r->cfg->net)) {
        error_set(&e, STATUS_NOMEM, "cannot allocate the net's accumulators");
        run_fail(r, STATUS_NOMEM, &e);
        search_destroy(s);
        s = NULL;
    }
    uint64_t index;
    while (s && next_index(r, &index)) {
        bool played = false;
        shard_data_clear(&game);
        Status st = game_driver_play(r->cfg, s, index, &game, &r->abort_games, &played, &e);
        if (st != STATUS_OK) {
            run_fail(r, st, &e);
            break;
        }
        if (!played)
            break;
        queue_push(r, &game);
    }
    shard_data_free(&game);
    search_destroy(s);
    // Taking the lock once more orders this worker's reads of the run before the main
    // thread's clean-up for ThreadSanitizer, which cannot see libgomp's closing barrier.
    pthread_mutex_lock(&r->mu);
    pthread_mutex_unlock(&r->mu);
}

// --- the writer thread ------------------------------------------------------------------------

typedef struct WriterState {
    ShardData shard, batch;
    uint64_t unsaved_games;
    double last_write_end, last_write_s, last_progress;
    uint64_t closed_shards_bytes, shard_bytes;
    uint64_t closed_shards_games, closed_shards_positions;
    char shard_start[32];
} WriterState;

static void count_batch(Run *r, const ShardData *batch) {
    RunnerProgress *p = &r->prog;
    for (size_t g = 0; g < batch->games.count; g++) {
        p->by_reason[batch->games.reason[g] % 32]++;
        if (batch->games.winner[g] == WINNER_DRAW)
            p->draws++;
        else
            p->wins[batch->games.winner[g] & 1]++;
    }
    p->done_here += batch->games.count;
    p->positions_here += batch->positions.count;
    p->done = r->resumed_own + p->done_here;
    p->positions = r->resumed_positions + p->positions_here;
}

// Writes the current shard as a complete file; moves on to a new shard when it is full.
static Status checkpoint(Run *r, WriterState *w, ErrorInfo *err) {
    char path[4200];
    double t0 = now_s();
    StoreMeta meta = r->meta;
    meta.shard = r->next_shard;
    snprintf(meta.start_time, sizeof meta.start_time, "%s", w->shard_start);
    utc_now(meta.end_time, sizeof meta.end_time);
    h5store_shard_path(r->cfg->out_dir, r->next_shard, path, sizeof path);
    Status st = h5store_write(path, &meta, &w->shard, err);
    if (st != STATUS_OK)
        return st;
    struct stat sb;
    w->shard_bytes = stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    w->unsaved_games = 0;
    w->last_write_end = now_s();
    w->last_write_s = w->last_write_end - t0;
    r->prog.writer_s += w->last_write_s;
    r->prog.shards_written++;
    r->prog.bytes_on_disk = r->resumed_bytes + w->closed_shards_bytes + w->shard_bytes;
    r->prog.saved = r->resumed_games + w->closed_shards_games + w->shard.games.count;
    r->prog.saved_positions =
        r->resumed_positions + w->closed_shards_positions + w->shard.positions.count;
    if (w->shard.positions.count >= r->cfg->shard_positions) {
        w->closed_shards_bytes += w->shard_bytes;
        w->closed_shards_games += w->shard.games.count;
        w->closed_shards_positions += w->shard.positions.count;
        w->shard_bytes = 0;
        r->next_shard += r->cfg->part_count;
        shard_data_clear(&w->shard);
        utc_now(w->shard_start, sizeof w->shard_start);
    }
    return STATUS_OK;
}

static bool checkpoint_due(const Run *r, const WriterState *w, double now) {
    if (w->unsaved_games == 0)
        return false;
    if (w->shard.positions.count >= r->cfg->shard_positions)
        return true;
    bool asked = now - w->last_write_end >= r->cfg->checkpoint_s ||
                 w->unsaved_games >= r->cfg->checkpoint_games;
    // Stretch the interval so that writing stays a small share of the run.
    return asked && now - w->last_write_end >= WRITE_SHARE_INVERSE * w->last_write_s;
}

// CPU seconds (user + system) of the whole process so far.
static double process_cpu_s(void) {
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

static void report(Run *r, double now, bool finished) {
    RunnerProgress *p = &r->prog;
    p->elapsed_s = now - r->start;
    // The same span as elapsed_s: the bench and the resume scan before r->start are not
    // counted, else "cores busy" overstates the games' use of the CPU.
    p->cpu_s = process_cpu_s() - r->start_cpu;
    p->games_per_s = p->elapsed_s > 0 ? p->done_here / p->elapsed_s : 0;
    p->eta_s = -1;
    if (p->target && p->games_per_s > 0)
        p->eta_s =
            (double)(p->target - (p->done < p->target ? p->done : p->target)) / p->games_per_s;
    else if (!r->cfg->games)
        p->eta_s = r->cfg->hours * 3600 - p->elapsed_s;
    p->finished = finished;
    if (r->progress)
        r->progress(p, r->progress_arg);
}

// Takes the finished games off the queue; waits up to 0.2 s for some. Returns `closed`.
static bool take_batch(Run *r, ShardData *batch) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 200 * 1000 * 1000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&r->mu);
    if (r->pending.games.count == 0 && !r->closed)
        pthread_cond_timedwait(&r->wake_writer, &r->mu, &until);
    ShardData t = r->pending;
    r->pending = *batch;
    *batch = t;
    bool closed = r->closed;
    pthread_cond_broadcast(&r->wake_workers);
    pthread_mutex_unlock(&r->mu);
    return closed;
}

static void *writer_thread(void *arg) {
    Run *r = arg;
    WriterState w = {.last_write_end = r->start, .last_progress = r->start};
    shard_data_init(&w.shard);
    shard_data_init(&w.batch);
    utc_now(w.shard_start, sizeof w.shard_start);
    bool write_failed = false;
    for (;;) {
        bool closed = take_batch(r, &w.batch);
        double now = now_s();
        if (atomic_load(r->signal_stop))
            atomic_store(&r->abort_games, true);
        if (r->cfg->hours > 0 && now - r->start >= r->cfg->hours * 3600)
            atomic_store(&r->no_new_games, true);
        ErrorInfo e;
        Status st = STATUS_OK;
        if (w.batch.games.count) {
            count_batch(r, &w.batch);
            // A shard closed at the game that fills it: which games a shard holds follows their
            // order alone, not how many finished between two looks at the queue. Each step
            // appends the games up to that one (at least one) in one call.
            const GameColumns *bg = &w.batch.games;
            for (size_t g = 0, end; g < bg->count && st == STATUS_OK; g = end) {
                size_t have = w.shard.positions.count;
                end = g;
                do
                    have += bg->pos_end[end] - bg->pos_start[end];
                while (++end < bg->count && have < r->cfg->shard_positions);
                st = shard_data_append_games(&w.shard, &w.batch, g, end, &e);
                w.unsaved_games += end - g;
                if (st == STATUS_OK && !write_failed &&
                    w.shard.positions.count >= r->cfg->shard_positions)
                    st = checkpoint(r, &w, &e);
            }
            shard_data_clear(&w.batch);
        }
        if (st == STATUS_OK && !write_failed &&
            (closed ? w.unsaved_games > 0 : checkpoint_due(r, &w, now)))
            st = checkpoint(r, &w, &e);
        if (st != STATUS_OK) {
            write_failed = true;
            run_fail(r, st, &e);
        }
        r->prog.buffer_peak_bytes = shard_data_bytes(&w.shard) > r->prog.buffer_peak_bytes
                                        ? shard_data_bytes(&w.shard)
                                        : r->prog.buffer_peak_bytes;
        if (closed)
            break;
        if (now - w.last_progress >= r->cfg->progress_s) {
            report(r, now, false);
            w.last_progress = now;
        }
    }
    report(r, now_s(), true);
    shard_data_free(&w.shard);
    shard_data_free(&w.batch);
    return NULL;
}

// --- start: the run folder and --resume -------------------------------------------------------

static Status mark_done(Run *r, uint32_t id, const char *path, ErrorInfo *err) {
    if (id / 8 >= r->done_bytes) {
        size_t nb = (id / 8 + 1) * 2;
        uint8_t *p = realloc(r->done, nb);
        if (!p)
            return error_set(err, STATUS_NOMEM, "out of memory reading %s", path);
        memset(p + r->done_bytes, 0, nb - r->done_bytes);
        r->done = p;
        r->done_bytes = nb;
    }
    if (is_done(r, id))
        return error_set(err, STATUS_FORMAT, "%s: game %u is also in another shard", path, id);
    r->done[id / 8] |= (uint8_t)(1u << (id % 8));
    return STATUS_OK;
}

// Removes the temporary files of an interrupted write (never complete, never read) of this
// part's shards (another part's may be in the middle of a write).
static void remove_stale_tmp(const SelfplayConfig *cfg) {
    const char *dir = cfg->out_dir;
    for (int64_t k = cfg->part_index - 1;; k += cfg->part_count) {
        char path[4200];
        h5store_shard_path(dir, k, path, sizeof path);
        strcat(path, ".tmp");
        if (unlink(path) < 0 && errno == ENOENT) {
            h5store_shard_path(dir, k, path, sizeof path);
            if (access(path, F_OK) < 0)
                break;
        }
    }
}

// How many of the listed shards this part writes (numbers k with k % K == I - 1).
static size_t count_own_shards(const SelfplayConfig *cfg, char **paths, size_t n) {
    size_t own = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t k = h5store_shard_number(paths[i]);
        own += k >= 0 && (uint64_t)k % cfg->part_count == cfg->part_index - 1;
    }
    return own;
}

static Status check_resume_settings(const SelfplayConfig *cfg, ErrorInfo *err);

// runner_prepare_out, keeping the folder's lock in *lock (taken before anything in the folder
// is read or written; NULL on error).
static Status prepare_out_locked(const SelfplayConfig *cfg, RunLock **lock, ErrorInfo *err) {
    const char *dir = cfg->out_dir;
    *lock = NULL;
    Status ready = durable_folder_ready(dir, cfg->resume, err);
    if (ready != STATUS_OK)
        return ready;
    // One writer per folder (or per part): a second one would store games twice (and remove
    // the first one's temporary file below).
    Status st = cfg->part_count > 1
                    ? run_lock_take_part(dir, cfg->part_index, cfg->part_count, lock, err)
                    : run_lock_take_dir(dir, lock, err);
    if (st != STATUS_OK)
        return st;
    remove_stale_tmp(cfg);
    char **paths = NULL;
    size_t n = 0;
    st = h5store_list_run(dir, &paths, &n, err);
    size_t own = count_own_shards(cfg, paths, n);
    h5store_free_list(paths, n);
    if (st == STATUS_OK && own > 0 && !cfg->resume && cfg->part_count > 1)
        st = error_set(err, STATUS_FORMAT,
                       "%s already holds shards of part %u/%u (%zu): give --resume to continue "
                       "it, or another --out",
                       dir, cfg->part_index, cfg->part_count, own);
    else if (st == STATUS_OK && n > 0 && !cfg->resume && cfg->part_count == 1)
        st = error_set(err, STATUS_FORMAT,
                       "%s already holds a run (%zu shards): give --resume "
                       "to continue it, or another --out",
                       dir, n);
    if (st == STATUS_OK && n == 0 && cfg->resume)
        st = error_set(err, STATUS_IO, "nothing to resume in %s (no shard files)", dir);
    if (st == STATUS_OK && cfg->resume)
        st = check_resume_settings(cfg, err);
    if (st != STATUS_OK) {
        run_lock_release(*lock);
        *lock = NULL;
    }
    return st;
}

Status runner_prepare_out(const SelfplayConfig *cfg, ErrorInfo *err) {
    RunLock *lock;
    Status st = prepare_out_locked(cfg, &lock, err);
    run_lock_release(lock);
    return st;
}

// The next setting of a run_config text ("key=value", the value running to the next word
// with a '='), from *p on; false at the end. *p moves past it.
static bool next_setting(const char **p, const char **start, size_t *len) {
    const char *s = *p;
    while (*s == ' ')
        s++;
    if (!*s)
        return false;
    const char *e = s;
    for (;;) {
        e += strcspn(e, " ");
        const char *w = e;
        while (*w == ' ')
            w++;
        if (!*w || memchr(w, '=', strcspn(w, " ")))
            break;
        e = w; // a word without '=' belongs to this value ("engine=hansu 0.1")
    }
    *start = s;
    *len = (size_t)(e - s);
    *p = e;
    return true;
}

// The first setting in which two run_config texts differ, each written whole ("seed=1" and
// "seed=2"; "(none)" where one text has fewer settings), so a message shows what differs.
static void first_difference(const char *a, const char *b, char *out_a, char *out_b, size_t len) {
    const char *sa = NULL, *sb = NULL;
    size_t la = 0, lb = 0;
    for (;;) {
        bool ha = next_setting(&a, &sa, &la), hb = next_setting(&b, &sb, &lb);
        if (!ha && !hb) {
            snprintf(out_a, len, "(same settings)");
            snprintf(out_b, len, "(same settings)");
            return;
        }
        if (ha != hb || la != lb || memcmp(sa, sb, la) != 0) {
            snprintf(out_a, len, "%.*s", ha ? (int)la : 6, ha ? sa : "(none)");
            snprintf(out_b, len, "%.*s", hb ? (int)lb : 6, hb ? sb : "(none)");
            return;
        }
    }
}

// Before the bench: the folder's first shard was made with this run's settings, the bench
// aside (it is measured next; scan_run compares every shard whole after it). A resume with
// another --nodes was refused only after the bench's seconds.
static Status check_resume_settings(const SelfplayConfig *cfg, ErrorInfo *err) {
    char **paths = NULL;
    size_t n = 0, games, positions;
    StoreMeta theirs, ours;
    Status st = h5store_list_files(cfg->out_dir, &paths, &n, err);
    if (st == STATUS_OK && n > 0)
        st = h5store_read_meta(paths[0], &theirs, &games, &positions, err);
    if (st == STATUS_OK && n > 0) {
        // Their bench stands for the one about to be measured, unless one of them skips it.
        bool skipped = strcmp(theirs.bench, "skipped") == 0;
        make_meta(cfg,
                  !cfg->bench ? "skipped"
                  : skipped   ? "(to be measured)"
                              : theirs.bench,
                  &ours);
        if (strcmp(theirs.run_config, ours.run_config) != 0) {
            char a[160], b[160];
            first_difference(theirs.run_config, ours.run_config, a, b, sizeof a);
            st = error_set(err, STATUS_FORMAT,
                           "%s: made with other settings: it has %s, this run %s", paths[0], a, b);
        }
    }
    h5store_free_list(paths, n);
    return st;
}

// Reads every shard of the folder (runner_prepare_out has checked it): checks each belongs to
// this run and marks its games done.
static Status scan_run(Run *r, ErrorInfo *err) {
    const SelfplayConfig *cfg = r->cfg;
    char **paths = NULL;
    size_t n = 0;
    Status st = h5store_list_run(cfg->out_dir, &paths, &n, err);
    ShardData d;
    shard_data_init(&d);
    for (size_t i = 0; st == STATUS_OK && i < n; i++) {
        StoreMeta m;
        st = h5store_read(paths[i], &m, &d, err);
        if (st == STATUS_OK && strcmp(m.run_config, r->meta.run_config) != 0) {
            char theirs[160], ours[160];
            first_difference(m.run_config, r->meta.run_config, theirs, ours, sizeof theirs);
            st = error_set(err, STATUS_FORMAT,
                           "%s: made with other settings: it has %s, this "
                           "run %s",
                           paths[i], theirs, ours);
        }
        for (size_t g = 0; st == STATUS_OK && g < d.games.count; g++) {
            st = mark_done(r, d.games.game_id[g], paths[i], err);
            r->resumed_own += d.games.game_id[g] % cfg->part_count == cfg->part_index - 1;
        }
        struct stat sb;
        r->resumed_games += d.games.count;
        r->resumed_positions += d.positions.count;
        r->resumed_bytes += stat(paths[i], &sb) == 0 ? (uint64_t)sb.st_size : 0;
        if (st == STATUS_OK && m.shard >= r->next_shard)
            r->next_shard = m.shard + 1;
    }
    // This part's shard numbers: the first k >= next_shard with k % K == I - 1.
    int64_t k = (int64_t)cfg->part_count, first = (int64_t)cfg->part_index - 1;
    r->next_shard += ((first - r->next_shard) % k + k) % k;
    shard_data_free(&d);
    h5store_free_list(paths, n);
    return st;
}

Status runner_run(const SelfplayConfig *cfg, atomic_int *stop, RunnerProgressFn progress, void *arg,
                  RunnerProgress *final, ErrorInfo *err) {
    atomic_int never = 0;
    RunLock *lock = NULL;
    Status st = runner_config_check(cfg, err);
    if (st == STATUS_OK) // before the bench: a bad folder is reported at once
        st = prepare_out_locked(cfg, &lock, err);
    if (st != STATUS_OK)
        return st;
    engine_init();
    Run *r = calloc(1, sizeof *r);
    if (!r) {
        run_lock_release(lock);
        return error_set(err, STATUS_NOMEM, "out of memory");
    }
    r->cfg = cfg;
    r->signal_stop = stop ? stop : &never;
    r->target = cfg->games ? cfg->games : (uint64_t)UINT32_MAX + 1;
    r->progress = progress;
    r->progress_arg = arg;
    r->pending_max_positions = (size_t)1 << 18;
    shard_data_init(&r->pending);
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->wake_writer, NULL);
    pthread_cond_init(&r->wake_workers, NULL);
    // The bench signature identifies the search and evaluation that play the games.
    char bench[32] = "skipped";
    BenchResult br = {0};
    if (cfg->bench) {
        const Variant *v = variant_or_default(cfg->variant);
        bool ok =
            bench_run(v, bench_text(v), BENCH_DEPTH, BENCH_HASH_MB, NULL, &br, NULL) == STATUS_OK;
        snprintf(bench, sizeof bench, ok ? "%llu" : "unknown", (unsigned long long)br.nodes);
    }
    make_meta(cfg, bench, &r->meta);
    st = scan_run(r, err);
    if (st == STATUS_OK) {
        r->prog.target = runner_part_games(cfg);
        r->prog.done = r->resumed_own;
        r->prog.positions = r->resumed_positions;
        r->prog.saved = r->resumed_games;
        r->prog.saved_positions = r->resumed_positions;
        r->prog.bytes_on_disk = r->resumed_bytes;
        r->start = now_s();
        r->start_cpu = process_cpu_s();
        int threads = cfg->threads ? cfg->threads : omp_get_num_procs();
        r->prog.threads = threads;
        pthread_t writer;
        if (pthread_create(&writer, NULL, writer_thread, r) != 0) {
            st = error_set(err, STATUS_NOMEM, "cannot start the writer thread");
        } else {
#pragma omp parallel num_threads(threads)
            worker(r);
            // Let the worker threads go: nothing idles after a run, and the next run's threads
            // are created afresh (which ThreadSanitizer can follow; libgomp's reuse it cannot).
            omp_pause_resource_all(omp_pause_hard);
            pthread_mutex_lock(&r->mu);
            r->closed = true;
            pthread_cond_signal(&r->wake_writer);
            pthread_mutex_unlock(&r->mu);
            pthread_join(writer, NULL);
            st = r->status;
            if (st != STATUS_OK && err)
                *err = r->err;
        }
        if (final)
            *final = r->prog;
    }
    shard_data_free(&r->pending);
    pthread_cond_destroy(&r->wake_workers);
    pthread_cond_destroy(&r->wake_writer);
    pthread_mutex_destroy(&r->mu);
    free(r->done);
    free(r);
    run_lock_release(lock); // after the last write
    return st;
}
