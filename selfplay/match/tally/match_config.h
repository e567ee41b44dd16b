// SPDX-License-Identifier: MIT
// A match's settings (MatchConfig) beside their parser and checks: the limits as the front end
// gives them (match_parse_limit), the config checked before any engine starts, the adjudication
// written for people and files, the openings plan it names.
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "match_game.h"
#include "match_openings.h"
#include "match_slots.h"
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

/// A match: its engines, limits, games, openings, files, stop rules and adjudication.
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

/// True when c adjudicates games (a resign or a draw rule is on).
bool match_adjudicates(const MatchConfig *c);

/// c's adjudication settings as cutechess-cli writes them ("resign movecount=3 score=600; draw
/// movenumber=40 movecount=8 score=10"), for the PGN tag and the state file; "" when off.
void match_adjudication_text(const MatchConfig *c, char *out, size_t len);

/// The checks of c before any engine starts: even games, concurrency, random plies, resume,
/// openings, adjudication, each engine's command and limit (ponder and CECP where they can be
/// told). STATUS_RANGE or STATUS_SYNTAX naming the setting.
Status match_config_check(const MatchConfig *c, ErrorInfo *err);

/// c's openings plan (its fields of the same names).
OpeningsPlan match_config_openings(const MatchConfig *c);
