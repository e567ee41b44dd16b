// SPDX-License-Identifier: MIT
// What the scheduler's files share, below match.h (match_run): the Match that the workers, the
// booking of a pair and the MPI coordination work on. match.c schedules, match_setup.c prepares the
// engines and the writer lock, match_book.c books a finished pair, match_stop.c keeps the stop and
// the first error, match_cluster.c spreads the pairs over MPI ranks (docs/cluster.md). The rooms
// below it take their own parts: the openings (match_openings.h), the tally (match_tally.h), the
// files (match_output.h, match_state.h).
#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "match_affinity.h"
#include "match_config.h"
#include "match_openings.h"
#include "match_output.h"
#include "match_tally.h"
#include "run_lock.h"

// Everything the workers share; fields below `lock` are guarded by it.
typedef struct Match {
    const MatchConfig *cfg;
    const Variant *variant; // cfg->variant, or janggi
    EngineSpec engine[2];   // cfg's engines, UCI_Variant added where the engine offers it
    MatchOpenings openings;
    pthread_mutex_t lock;
    bool *done;        // per pair: finished (this run or read back)
    int next_pair;     // the lowest pair not yet handed out
    int new_pairs;     // pairs finished in this run
    bool stopping;     // no new pairs are handed out
    atomic_bool abort; // games in progress stop (SPRT decided, test hook, fatal error)
    Status status;     // the first fatal error
    ErrorInfo err;
    MatchTally tally;
    MatchFiles files; // the PGN and the state file (rank 0 only)
    MatchProgressFn progress;
    void *progress_arg;
    int rank, ranks;          // this process's MPI rank (0-based) and the number of ranks; 0 of 1
    int cpus[MATCH_CPUS_MAX]; // the CPUs this process may run on (match_affinity_cpus)
    int ncpus;
    int pin_cores; // --affinity: slot s's engines run on cpus[s * pin_cores ...]; 0: not pinned
    int running;   // local workers still running
    char **outbox; // rank > 0: finished pairs not yet sent to rank 0 (match_cluster.c)
    size_t *outbox_len;
    int noutbox, outbox_cap;
} Match;

// ---- match_stop.c: the stop and the first fatal error

/// True once no new pair is to be handed out (a stop from outside, or the match's own). Under
/// the match's lock.
bool match_should_stop(Match *m);

/// Records a fatal error (the first one wins) and stops the match. Takes the match's lock.
void match_fail(Match *m, Status st, const ErrorInfo *err);

/// Stops the match: no new pair, games in progress abandoned. Takes the match's lock.
void match_stop_here(Match *m);

/// Local workers still running. Takes the match's lock.
int match_workers_running(Match *m);

// ---- match_book.c: a finished pair booked

/// Adds finished pair k to the tally (match_tally_pair, its first mover read from its opening).
/// Under the match's lock once workers run.
void match_record_pair(Match *m, int k, const GameRecord g[2]);

/// With the games of pair k in the PGN (st: how that went), books it under the match's lock,
/// which the caller holds and this releases: state line, tally, JSON, stop rules, progress.
void match_book_pair(Match *m, int k, const GameRecord g[2], Status st, ErrorInfo *err);

// ---- match_setup.c: the engines as started, the writer lock

/// m->engine from the config; an option.UCI_Variant naming another variant than the match's
/// is STATUS_SYNTAX.
Status match_setup_variant_options(Match *m, ErrorInfo *err);

/// Starts engine i once to read its options: UCI_Variant added to m->engine[i] where offered,
/// STATUS_RANGE where its combo lacks the variant, a warning where it has no such option;
/// child_start's errors.
Status match_setup_probe_engine(Match *m, int i, ErrorInfo *err);

/// The writer locks of the PGN, the state file and the JSON: "FILE.lock" beside the file each
/// names or its link points to (run_lock_take_outputs), so two matches sharing any one output,
/// under whichever name, are refused; none for a device or FIFO, none when the match writes no
/// file. A missing folder is told naming the flag and the path; run_lock_take's errors.
Status match_setup_lock(const MatchConfig *c, RunLock **lock, ErrorInfo *err);

// ---- match_cluster.c: the pairs over MPI ranks

/// This process's rank and the number of ranks (0 of 1 without MPI).
void match_cluster_init(Match *m);

/// Every rank's setup went well, or each returns an error; rank 0's finished pairs, stop and
/// date are then every rank's. st: this rank's setup.
Status match_cluster_agree(Match *m, Status st, ErrorInfo *err);

/// A rank other than 0: pair k's result and PGN text, queued for the main thread to send.
void match_cluster_ship(Match *m, int k, const char *fen, const GameOutcome o[2],
                        const GameRecord g[2]);

/// The main thread while the workers play, with more than one rank: rank 0 books the other
/// ranks' pairs and tells them to stop, another rank sends its pairs. True when rank 0's stop
/// reached this rank before its workers ended.
bool match_cluster_coordinate(Match *m);

/// Another rank's end, after its workers are joined: its end message to rank 0, then rank 0's
/// stop (unless told already). Nothing on rank 0 or without MPI.
void match_cluster_end(Match *m, bool told);
