// SPDX-License-Identifier: MIT
// The match: game pairs over the 16 formation pairings (or an opening list) with colours
// swapped, N games at once, every move refereed by Hansu's rules core, clocks, faults scored
// as losses, PGN and a resumable state file, Elo and an optional SPRT stop.
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "fen.h"
#include "match_game.h"
#include "match_slots.h"
#include "rules.h"
#include "stats.h"
#include "status.h"
#include "uci_child.h"

/// True when text starts with a limit's key (nodes=, depth=, movetime=, tc=, byoyomi=).
bool match_limit_key(const char *text);

/// Parses a limit: "nodes=N", "depth=D", "movetime=MS", "tc=BASE+INC" (seconds, e.g.
/// "10+0.1"), or "byoyomi=BASE+PERIODSxSECS" (seconds, e.g. "300+3x30", Ttakji's clock).
/// STATUS_SYNTAX or STATUS_RANGE (depth past DEPTH_MAX) with a message naming the text.
Status match_parse_limit(const char *text, Limits *out, ErrorInfo *err);

/// Told of a warning before the games (an engine that offers no UCI_Variant option).
typedef void (*MatchWarnFn)(const char *msg, void *arg);

/// MatchConfig.openings_path's word for the variant's start positions (janggi: the 16 formation
/// pairings) instead of its suite; a file of that name is given as ./starts.
#define MATCH_OPENINGS_STARTS "starts"

typedef struct MatchConfig {
    const Variant *variant; // the game played (NULL: janggi). Each engine whose `uci` reply
                            // offers UCI_Variant is told it (an option.UCI_Variant given must
                            // agree; a combo without it is refused); another than janggi is
                            // written into the state file's identity
    EngineSpec engine[2];   // engine 0 is the candidate: scores are from its side
    Limits limits[2];
    int games;                 // total games, even (pairs = games / 2)
    int concurrency;           // games at once (one engine pair per worker)
    int64_t margin;            // ms a clock may overrun before the game is lost on time
    int64_t watchdog;          // ms without bestmove at nodes/depth limits = a hang
    int64_t start_timeout;     // ms for uciok / readyok
    int random_plies;          // random opening plies (no passes) added to each opening
    int book_plies;            // a PGN book (book.h): plies of each game kept (0: all)
    bool openings_random;      // the openings shuffled by seed (else in the file's order)
    int openings_start;        // pair k plays opening (openings_start + k) mod n: a match split
                               // or continued elsewhere (0-based)
    uint64_t seed;             // for the random plies
    const char *openings_path; // file of FENs, one a line; NULL = the variant's compiled-in suite
                               // (its start positions where it has none);
                               // MATCH_OPENINGS_STARTS = its start positions
                               // (janggi: the 16 formation pairings; xiangqi: its one start)
    const char *pgn_path;      // NULL = no PGN
    const char *state_path;    // NULL = no state file (no resume)
    const char *json_path;     // NULL = no JSON result (match_json.h); else written at each
                               // state save and at the end
    bool resume;               // continue the match recorded in state_path
    bool sprt_enabled;
    Sprt sprt;
    int stop_after_pairs;    // test hook: stop as if interrupted after this many new pairs
    Adjudication adjudicate; // resign / draw from the engines' scores (match_game.h); all 0:
                             // off. Written into each game's PGN tags and the state's identity
    bool affinity;           // pin each game's engines to cores of their own (match_affinity.h)
    bool move_info;          // a comment after each move: score/depth, time, seldepth, nodes, clock
    int affinity_threads;    // cores a game needs (0: the most Threads of its two engines); a
                             // tournament gives the most of all its engines
    bool progress_resumed;   // call progress once before the games when pairs were read back
                             // (a tournament's totals); a match alone does not
    MatchSlots *slots;       // NULL: a match alone; else a tournament's slots, one taken per pair
                             // (tournament.h): games at once over all its matches
    const char *event, *site;
    atomic_bool *stop; // set from outside (a signal) to stop; may be NULL
    MatchWarnFn warn;  // may be NULL; under MPI called on rank 0 only
    void *warn_arg;
} MatchConfig;

/// The running totals, always from engine 0's side unless indexed by engine.
/// Where config c's openings come from, for people, into out (len bytes): its file, the
/// variant's suite compiled into the tool ("data/openings-janggi.fen (compiled in)": no file is
/// read), "the formation pairings" or "the start position".
void match_openings_source(const MatchConfig *c, char *out, size_t len);

typedef struct MatchTally {
    int pairs_total;   // pairs in the whole match
    int pairs_done;    // finished pairs, those of a resumed run included
    int pairs_resumed; // of which read back from the state file
    long games;
    long wins[2];               // games won by engine i
    long wins_by[2][REASON_NB]; // games won by engine i, by end reason
    long draws;                 // drawn games (xiangqi; adjudication at GAME_PLY_CAP)
    long draws_by[REASON_NB];   // drawn games by end reason
    long cho_wins;              // games won by Cho (Red in xiangqi), whoever moved first
    long first_mover_wins;      // games won by the side to move in the game's start position
    long penta[PENTA_NB];       // engine 0's game pairs
    long restarts[2];           // engine restarts after faults
    long plies;                 // plies of all games (their mean: what adjudication saves)
    double llr;
    SprtResult sprt_result;
    bool interrupted; // stopped before all pairs were played (signal or test hook)
} MatchTally;

/// Games adjudicated in tally t: won by an adjudicated resignation, drawn by adjudication.
void match_adjudicated(const MatchTally *t, long *resigned, long *drawn);

/// Called after each finished pair, with the totals so far (under the match's lock).
typedef void (*MatchProgressFn)(const MatchTally *t, const MatchConfig *c, void *arg);

/// True when c adjudicates games (a resign or a draw rule is on).
bool match_adjudicates(const MatchConfig *c);

/// c's adjudication settings as cutechess-cli writes them ("resign movecount=3 score=600; draw
/// movenumber=40 movecount=8 score=10"), for the PGN tag and the state file; "" when off.
void match_adjudication_text(const MatchConfig *c, char *out, size_t len);

/// Plays the match. *tally gets the final totals. Before any game each engine is started once
/// to read its options (UCI_Variant, see MatchConfig.variant) and every output file is checked
/// to be writable. Errors: an engine that cannot be started or does not offer the variant, an
/// option.UCI_Variant naming another variant, openings or state files that cannot be read, a
/// state file of another match, a PGN that differs from what its state file records, the PGN,
/// state or JSON file not writable — each with a message. A faulty engine during a game is not an
/// error: that game is scored against it and the engine is restarted.
/// Under MPI (every rank calls it alike, cluster_init done) rank r of R plays the pairs
/// k % R == r and sends each to rank 0, which alone touches the files and books every pair
/// (tally, SPRT, progress); rank 0's *tally is the match's, another rank's holds only its
/// restarts (docs/cluster.md).
Status match_run(const MatchConfig *c, MatchTally *tally, MatchProgressFn progress, void *arg,
                 ErrorInfo *err);
