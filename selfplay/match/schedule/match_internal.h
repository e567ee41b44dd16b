// SPDX-License-Identifier: MIT
// What the match's files share, behind match.h: the Match that the workers, the file writers
// and the MPI coordination work on, and each room's functions. match.c schedules and tallies,
// match_setup.c prepares (openings, engines, lock), match_state.c keeps the resume state,
// match_output.c writes the PGN and checks every output file, match_cluster.c spreads the pairs
// over MPI ranks (docs/cluster.md).
#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "match.h"
#include "match_affinity.h"
#include "run_lock.h"
#include "sha256.h"

typedef struct Opening {
    char fen[FEN_BUFFER];
    char name[48];
} Opening;

// A pair line read back from the state file on resume: where its games lie in the PGN, and
// the winners it records (checked against the PGN's tags: match_state_check_pgn).
typedef struct StatePair {
    int k, lineno, winner[2];
    long long start, end; // PGN bytes of its two games
} StatePair;

// Everything the workers share; fields below `lock` are guarded by it.
typedef struct Match {
    const MatchConfig *cfg;
    const Variant *variant; // cfg->variant, or janggi
    EngineSpec engine[2];   // cfg's engines, UCI_Variant added where the engine offers it
    Opening *openings;
    int nopenings;
    pthread_mutex_t lock;
    bool *done;        // per pair: finished (this run or read back)
    int next_pair;     // the lowest pair not yet handed out
    int new_pairs;     // pairs finished in this run
    bool stopping;     // no new pairs are handed out
    atomic_bool abort; // games in progress stop (SPRT decided, test hook, fatal error)
    Status status;     // the first fatal error
    ErrorInfo err;
    MatchTally tally;
    FILE *pgn, *state;
    long long pgn_end;   // PGN bytes that belong to recorded pairs (read back on resume)
    Sha256 pgn_hash;     // SHA-256 of those bytes so far (with a PGN)
    char pgn_digest[65]; // its hex digest, recorded with each pair in the state file
    Sha256 state_hash;   // SHA-256 of the state file's bytes so far: each pair line's checksum
    long long state_end; // state file bytes read back whole on resume (a cut last line is not)
    StatePair *resumed;  // the pair lines read back, in the state file's order
    int nresumed;
    MatchProgressFn progress;
    void *progress_arg;
    char date[16];
    int rank, ranks;          // this process's MPI rank (0-based) and the number of ranks; 0 of 1
    int cpus[MATCH_CPUS_MAX]; // the CPUs this process may run on (match_affinity_cpus)
    int ncpus;
    int pin_cores; // --affinity: slot s's engines run on cpus[s * pin_cores ...]; 0: not pinned
    int running;   // local workers still running
    char **outbox; // rank > 0: finished pairs not yet sent to rank 0 (match_cluster.c)
    size_t *outbox_len;
    int noutbox, outbox_cap;
} Match;

// One game's result as the tally and the state file keep it.
typedef struct GameRecord {
    int winner; // engine index 0/1, GAME_DRAWN for a draw
    EndReason reason;
    int plies;
} GameRecord;

enum { GAME_DRAWN = -1 };

// ---- match.c: the scheduler and the tally

/// Adds finished pair k to the tally (game 0: engine 0 is Cho; game 1: engine 1 is Cho), and
/// the SPRT's verdict. Under the match's lock once workers run.
void match_tally_pair(Match *m, int k, const GameRecord g[2]);

/// True once no new pair is to be handed out (a stop from outside, or the match's own). Under
/// the match's lock.
bool match_should_stop(Match *m);

/// Records a fatal error (the first one wins) and stops the match. Takes the match's lock.
void match_fail(Match *m, Status st, const ErrorInfo *err);

/// Stops the match: no new pair, games in progress abandoned. Takes the match's lock.
void match_stop_here(Match *m);

/// Local workers still running. Takes the match's lock.
int match_workers_running(Match *m);

/// With the games of pair k in the PGN (st: how that went), books it under the match's lock,
/// which the caller holds and this releases: state line, tally, JSON, stop rules, progress.
void match_book_pair(Match *m, int k, const GameRecord g[2], Status st, ErrorInfo *err);

// ---- match_setup.c: openings, engines, the writer lock

/// The variant's start positions, or the openings file's FENs (checked as positions of the
/// match's variant). STATUS_NOMEM, or the openings file's error.
Status match_setup_openings(Match *m, ErrorInfo *err);

/// The start FEN of pair k: its opening plus the seeded random plies, the same for both games.
void match_setup_pair_fen(const Match *m, int k, Board *b, char fen[FEN_BUFFER]);

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

// ---- match_state.c: the resume state

/// Without --resume the PGN and the state file must be new or empty: STATUS_IO otherwise.
Status match_state_check_fresh(const MatchConfig *c, ErrorInfo *err);

/// Reads the finished pairs of an earlier run of the same match into the tally, with the PGN's
/// recorded length and digest, each pair line's checksum checked first. STATUS_IO,
/// STATUS_FORMAT (another match, an older format, an edited or bad line) naming the file and
/// line.
Status match_state_load(Match *m, ErrorInfo *err);

/// On resume, the PGN begins with exactly the bytes the state file records (length and
/// SHA-256), and each pair's two games there carry its round and the results its line records
/// ([Round], [Result]); m->pgn_hash then holds those bytes. STATUS_FORMAT naming both files.
Status match_state_check_pgn(Match *m, ErrorInfo *err);

/// Opens the PGN and the state file: fresh, or for appending on resume (the PGN cut back to
/// its recorded length, the state file to its last whole line). STATUS_IO naming the file.
Status match_state_open(Match *m, ErrorInfo *err);

/// Appends pair k's line to the state file (after its games are in the PGN).
Status match_state_write_pair(Match *m, int k, const GameRecord g[2], ErrorInfo *err);

// ---- match_output.c: the PGN text, the output files checked

/// The PGN text of pair k's two games in *text (malloc'd, *len bytes; none without a PGN).
Status match_output_pair_text(const Match *m, int k, const char *fen, const GameOutcome o[2],
                              char **text, size_t *len, ErrorInfo *err);

/// m->pgn_digest from m->pgn_hash: the digest the next state line records.
void match_output_digest(Match *m);

/// Appends a pair's PGN text to the PGN under the match's lock, its length and SHA-256
/// carried on. STATUS_IO naming the PGN.
Status match_output_append(Match *m, const char *text, size_t len, ErrorInfo *err);

/// The folder of the file at path (given by flag) exists: STATUS_IO naming the flag, the path
/// and the folder otherwise.
Status match_output_check_folder(const char *flag, const char *path, ErrorInfo *err);

/// Every file the match writes (--pgn, --state, --json) can be written: STATUS_IO naming it.
Status match_output_check(const MatchConfig *c, ErrorInfo *err);

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
