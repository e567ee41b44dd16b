// SPDX-License-Identifier: MIT
// UCI command handling in Fairy-Stockfish's janggi dialect: uci, isready, ucinewgame,
// setoption, position, go (search or perft, in a thread of its own), stop, d, eval, bench, quit.
#include "uci.h"

#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bench.h"
#include "board.h"
#include "fen.h"
#include "nnue.h"
#include "notation.h"
#include "perft.h"
#include "prng.h"
#include "rules.h"
#include "search.h"
#include "search_params.h"
#include "status.h"
#include "strength.h"
#include "tt.h"
#include "variant.h"
#include "wdl.h"

enum {
    UCI_MAX_LINE = 65536,
    UCI_MAX_TOKENS = 4096,
    HASH_DEFAULT_MB = 16,
    MOVE_OVERHEAD_DEFAULT_MS = 10, // Stockfish's default
    MOVE_OVERHEAD_MAX_MS = 5000,
    ECHO_MAX = 40,          // bytes of the user's text quoted in an error message
    OPTION_VALUE_MAX = 1024 // bytes of a setoption value (EvalFile's path)
};

// The EvalFile value that stands for the variant's compiled-in net (none: no net).
static const char EVAL_FILE_EMBEDDED[] = "<embedded>";

// What the thread started by `go` does.
typedef enum { JOB_SEARCH, JOB_PERFT } Job;

struct UciContext {
    FILE *out;
    const Variant *variant; // the UCI_Variant option: the game `position` sets up
    Board board;
    size_t hash_mb;
    int64_t move_overhead; // ms, the Move Overhead option
    int multipv;           // the MultiPV option: lines searched and reported
    int skill;             // the Skill Level option (SEARCH_SKILL_MAX: full strength)
    uint64_t skill_seed;   // advanced at each weakened go, so that games differ
    bool limit_strength;   // UCI_LimitStrength: play at elo (it then overrides Skill Level)
    int elo;               // UCI_Elo (strength.h)
    bool show_wdl;         // UCI_ShowWDL: `wdl W D L` in each info line (wdl.h)
    bool position_ok;      // false after a refused `position`, until a good one arrives
    Searcher *searcher;
    // The evaluation: the net of `variant` (EvalFile's, or the compiled-in one; NULL: none),
    // used when use_nnue (`Use NNUE`); the classical evaluation otherwise. use_nnue starts true
    // where the variant has a compiled-in net, and a variant without a net then evaluates
    // classically; nnue_asked: `Use NNUE true` was set, so a missing net is said (at setoption,
    // at a new variant, at go), never a silent fallback; nnue_set: Use NNUE was set at all, so
    // it is kept (else use_nnue follows the net: true while one is loaded).
    NnueNet *net;
    char eval_file[OPTION_VALUE_MAX];
    bool use_nnue, nnue_asked, nnue_set;
    // The running search or perft: its thread, its own copy of the position and limits (or
    // depth), the stop flag.
    pthread_t thread;
    bool searching;
    atomic_bool stop;
    atomic_bool ponderhit; // a `go ponder` search got its ponderhit
    Job job;
    Board search_board;
    SearchLimits limits;
    int perft_depth;
    PerftDivide perft;
    pthread_mutex_t out_lock; // the search thread and the command handler share out
    Board scratch;            // `position` builds here and commits only when all is valid
    char *tokens[UCI_MAX_TOKENS];
};

static void nnue_take_embedded(UciContext *ctx);
static void nnue_apply(UciContext *ctx);

UciContext *uci_create(FILE *out) {
    UciContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->out = out;
    ctx->hash_mb = HASH_DEFAULT_MB;
    ctx->move_overhead = MOVE_OVERHEAD_DEFAULT_MS;
    ctx->multipv = 1;
    ctx->skill = SEARCH_SKILL_MAX;
    ctx->elo = STRENGTH_ELO_DEFAULT;
    ctx->skill_seed = (uint64_t)timeman_now_ms() * 0x9e3779b97f4a7c15ull;
    ctx->position_ok = true;
    ctx->searcher = search_create(ctx->hash_mb);
    if (!ctx->searcher) {
        free(ctx);
        return NULL;
    }
    atomic_init(&ctx->stop, false);
    atomic_init(&ctx->ponderhit, false);
    pthread_mutex_init(&ctx->out_lock, NULL);
    ctx->variant = variant_default();
    fen_parse(&ctx->board, FEN_START, NULL);
    nnue_take_embedded(ctx);
    nnue_apply(ctx);
    return ctx;
}

void uci_wait(UciContext *ctx) {
    if (!ctx->searching)
        return;
    pthread_join(ctx->thread, NULL);
    ctx->searching = false;
}

// Ends a running search or perft now (its bestmove or its count so far is still printed).
static void stop_search(UciContext *ctx) {
    atomic_store(&ctx->stop, true);
    uci_wait(ctx);
}

void uci_destroy(UciContext *ctx) {
    if (!ctx)
        return;
    stop_search(ctx);
    search_destroy(ctx->searcher);
    free(ctx->net);
    pthread_mutex_destroy(&ctx->out_lock);
    free(ctx);
}

// Writes len bytes of s into out (cap bytes) with every byte outside printable ASCII as
// \xNN, so that an answer never carries raw binary to the GUI; stops before overflowing.
static void escape_text(const char *s, size_t len, char *out, size_t cap) {
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 <= cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f)
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, cap - o, "\\x%02X", c);
    }
    out[o] = '\0';
}

// Quotes the user's text s of len bytes for a message: at most ECHO_MAX bytes, escaped,
// with "..." when cut.
static void quote_text(const char *s, size_t len, char *out, size_t cap) {
    escape_text(s, len < ECHO_MAX ? len : ECHO_MAX, out, cap);
    if (len > ECHO_MAX && strlen(out) + 4 <= cap)
        strcat(out, "...");
}

static void reply_error(UciContext *ctx, const char *msg) {
    char safe[4 * 256 + 1]; // every byte escaped: 4 characters each
    escape_text(msg, strlen(msg), safe, sizeof safe);
    fprintf(ctx->out, "info string error: %s\n", safe);
    fflush(ctx->out);
}

// ---------------------------------------------------------------------------------------
// The evaluation: Use NNUE and EvalFile

// Makes the searcher evaluate as the options say: the net when Use NNUE is on and a net is
// loaded, the classical evaluation otherwise. Use NNUE never set follows the net: on when
// one is loaded (compiled in or by EvalFile), off when none is.
static void nnue_apply(UciContext *ctx) {
    if (!ctx->nnue_set)
        ctx->use_nnue = ctx->net != NULL;
    const NnueNet *want = ctx->use_nnue ? ctx->net : NULL;
    if (search_get_net(ctx->searcher) == want)
        return;
    if (!search_set_net(ctx->searcher, want))
        reply_error(ctx, "Use NNUE: out of memory for the accumulators; the evaluation is "
                         "unchanged");
}

// Says that Use NNUE is on without a net for the variant, so the classical evaluation stands
// in: never a silent fallback.
static void nnue_say_missing(UciContext *ctx) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "Use NNUE: no net is loaded for %s (set EvalFile to a .nnue file); the classical "
             "evaluation is used until one is",
             ctx->variant->name);
    reply_error(ctx, msg);
}

// Replaces the net by the variant's compiled-in one (none: no net). A compiled-in net that does
// not load (a build from a damaged file) is said, and leaves no net.
static void nnue_take_embedded(UciContext *ctx) {
    const uint8_t *data;
    size_t len;
    free(ctx->net);
    ctx->net = NULL;
    snprintf(ctx->eval_file, sizeof ctx->eval_file, "%s", EVAL_FILE_EMBEDDED);
    if (!nnue_embedded(ctx->variant, &data, &len))
        return;
    ErrorInfo err;
    NnueNet *net = nnue_net_alloc();
    if (!net)
        reply_error(ctx, "EvalFile: out of memory for the compiled-in net");
    else if (nnue_load_memory(data, len, "the compiled-in net", ctx->variant, net, &err) !=
             STATUS_OK) {
        reply_error(ctx, err.msg);
        free(net);
    } else
        ctx->net = net;
}

// setoption name EvalFile value PATH: loads the net at once; a file refused (missing,
// truncated, damaged, another variant's) is named with the reason and the evaluation stays as
// it was. <embedded> (or an empty value) goes back to the compiled-in net.
static void set_eval_file(UciContext *ctx, const char *path) {
    if (!*path || strcmp(path, EVAL_FILE_EMBEDDED) == 0 || strcmp(path, "<empty>") == 0) {
        nnue_take_embedded(ctx);
        nnue_apply(ctx);
        if (ctx->use_nnue && !ctx->net)
            nnue_say_missing(ctx);
        return;
    }
    ErrorInfo err;
    NnueNet *net = nnue_net_alloc();
    char msg[sizeof err.msg + 96];
    if (!net) {
        reply_error(ctx, "EvalFile: out of memory for the net; the evaluation is unchanged");
        return;
    }
    if (nnue_load(path, ctx->variant, net, &err) != STATUS_OK) {
        free(net);
        snprintf(msg, sizeof msg, "EvalFile refused: %s; the evaluation is unchanged (%s)", err.msg,
                 search_get_net(ctx->searcher) ? "the previous net" : "classical");
        reply_error(ctx, msg);
        return;
    }
    // The searcher may hold the old net: switch it first, then free the old one.
    NnueNet *old = ctx->net;
    ctx->net = net;
    nnue_apply(ctx);
    if (search_get_net(ctx->searcher) == old && old) { // out of memory: keep the old net
        ctx->net = old;
        free(net);
        return;
    }
    free(old);
    snprintf(ctx->eval_file, sizeof ctx->eval_file, "%s", path);
    fprintf(ctx->out, "info string EvalFile: loaded %s (a %s net)%s\n", path, net->variant,
            ctx->use_nnue ? "" : "; Use NNUE is false, so the classical evaluation is used");
}

// setoption name Use NNUE value true|false.
static void set_use_nnue(UciContext *ctx, const char *value) {
    char msg[128];
    if (strcasecmp(value, "true") != 0 && strcasecmp(value, "false") != 0) {
        snprintf(msg, sizeof msg, "setoption: Use NNUE value '%.40s' is not true or false", value);
        reply_error(ctx, msg);
        return;
    }
    ctx->use_nnue = ctx->nnue_asked = strcasecmp(value, "true") == 0;
    ctx->nnue_set = true;
    nnue_apply(ctx);
    if (ctx->use_nnue && !ctx->net)
        nnue_say_missing(ctx);
}

// A new variant drops the net of the old one: the new variant's compiled-in net, if any. Use
// NNUE, unless set, follows it (nnue_apply).
static void nnue_new_variant(UciContext *ctx) {
    search_set_net(ctx->searcher, NULL); // before the net it may hold is freed
    nnue_take_embedded(ctx);
    nnue_apply(ctx);
    if (ctx->nnue_asked && !ctx->net)
        nnue_say_missing(ctx);
}

// Splits line into whitespace-separated tokens (modifies line). Returns the count, or -1
// when there are more than max.
static int tokenize(char *line, char **tokens, int max) {
    int n = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        if (n == max)
            return -1;
        tokens[n++] = tok;
    }
    return n;
}

static void cmd_uci(UciContext *ctx) {
    fprintf(ctx->out, "id name Hansu 0.1.0\nid author the Hansu developers\n");
    // The table of known variants; the default is the first.
    fprintf(ctx->out, "option name UCI_Variant type combo default %s", variant_at(0)->name);
    for (int i = 0; i < variant_count(); i++)
        fprintf(ctx->out, " var %s", variant_at(i)->name);
    fprintf(ctx->out, "\n");
    fprintf(ctx->out, "option name Hash type spin default %d min 1 max %d\n", HASH_DEFAULT_MB,
            TT_MB_MAX);
    fprintf(ctx->out, "option name Threads type spin default 1 min 1 max %d\n", SEARCH_THREADS_MAX);
    fprintf(ctx->out, "option name Clear Hash type button\n");
    fprintf(ctx->out, "option name Ponder type check default false\n");
    fprintf(ctx->out, "option name MultiPV type spin default 1 min 1 max %d\n", SEARCH_MULTIPV_MAX);
    fprintf(ctx->out, "option name Skill Level type spin default %d min 0 max %d\n",
            SEARCH_SKILL_MAX, SEARCH_SKILL_MAX);
    fprintf(ctx->out, "option name UCI_LimitStrength type check default false\n");
    fprintf(ctx->out, "option name UCI_Elo type spin default %d min %d max %d\n",
            STRENGTH_ELO_DEFAULT, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX);
    fprintf(ctx->out, "option name UCI_ShowWDL type check default false\n");
    fprintf(ctx->out, "option name Move Overhead type spin default %d min 0 max %d\n",
            MOVE_OVERHEAD_DEFAULT_MS, MOVE_OVERHEAD_MAX_MS);
    // Use NNUE defaults to true where the variant has a compiled-in net.
    const uint8_t *data;
    size_t len;
    fprintf(ctx->out, "option name Use NNUE type check default %s\n",
            nnue_embedded(ctx->variant, &data, &len) ? "true" : "false");
    fprintf(ctx->out, "option name EvalFile type string default %s\n", EVAL_FILE_EMBEDDED);
    // The search's tunable constants (search_params.def), for SPSA (scripts/spsa).
    for (int i = 0; i < search_params_count(); i++) {
        const SearchParamInfo *p = search_param_info(i);
        fprintf(ctx->out, "option name %s type spin default %d min %d max %d\n", p->name, p->def,
                p->min, p->max);
    }
    fprintf(ctx->out, "uciok\n");
}

// position startpos|fen <fields...> [moves m1 m2 ...] into ctx->scratch. False after an
// error naming the problem. A move after the end of the game is an error; a FEN of an ended
// game alone is accepted, and `go` then answers bestmove (none).
static bool load_position(UciContext *ctx, char **tok, int n) {
    Board *scratch = &ctx->scratch;
    ErrorInfo err;
    GameResult gr;
    int i = 1;
    if (i < n && strcmp(tok[i], "startpos") == 0) {
        fen_parse_variant(scratch, ctx->variant, ctx->variant->start_fen, NULL);
        i++;
    } else if (i < n && strcmp(tok[i], "fen") == 0) {
        char fen[FEN_MAX_INPUT + 2] = "";
        size_t len = 0;
        for (i++; i < n && strcmp(tok[i], "moves") != 0; i++) {
            size_t tl = strlen(tok[i]);
            if (len + tl + 1 > FEN_MAX_INPUT) {
                reply_error(ctx, "position: FEN longer than 256 characters");
                return false;
            }
            memcpy(fen + len, tok[i], tl);
            len += tl;
            fen[len++] = ' ';
            fen[len] = '\0';
        }
        if (fen_parse_variant(scratch, ctx->variant, fen, &err) != STATUS_OK) {
            reply_error(ctx, err.msg);
            return false;
        }
    } else {
        reply_error(ctx, "position: expected 'startpos' or 'fen'");
        return false;
    }
    if (i < n && strcmp(tok[i], "moves") != 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "position: unexpected token '%.40s'", tok[i]);
        reply_error(ctx, msg);
        return false;
    }
    for (i++; i < n; i++) {
        Move m;
        if (scratch->nstates >= MAX_GAME_PLY) {
            reply_error(ctx, "position: more moves than a game can hold");
            return false;
        }
        if (rules_game_over(scratch, &gr)) {
            char msg[128];
            snprintf(msg, sizeof msg, "move '%.40s': the game is already over (%s at ply %d)",
                     tok[i], rules_reason_name(gr.reason), board_game_ply(scratch));
            reply_error(ctx, msg);
            return false;
        }
        if (move_parse_uci(scratch, tok[i], &m, &err) != STATUS_OK) {
            reply_error(ctx, err.msg);
            return false;
        }
        board_make(scratch, m);
    }
    return true;
}

// Builds into a scratch board and commits only when every part is valid, so an error leaves
// the position as it was (`d` still shows it); but `go` refuses to search it until a good
// `position` arrives, as the GUI's idea of the position is no longer the engine's.
static void cmd_position(UciContext *ctx, char **tok, int n) {
    ctx->position_ok = load_position(ctx, tok, n);
    if (ctx->position_ok)
        ctx->board = ctx->scratch;
}

// Prints a perft answer in Fairy-Stockfish's form: `move: count` per root move, a blank line,
// `Nodes searched: N`, a blank line. When stopped, only the root moves counted in full are
// listed, an info line says so and the total (what was counted) is marked `(interrupted)`.
static void print_perft(UciContext *ctx, const PerftDivide *pd) {
    for (int i = 0; i < pd->done; i++) {
        char s[MOVE_STR_LEN];
        move_to_uci(pd->moves[i], s);
        fprintf(ctx->out, "%s: %" PRIu64 "\n", s, pd->counts[i]);
    }
    if (pd->stopped)
        fprintf(ctx->out, "info string perft interrupted: %d of %d root moves counted in full\n",
                pd->done, pd->count);
    fprintf(ctx->out, "\nNodes searched: %" PRIu64 "%s\n\n", pd->total,
            pd->stopped ? " (interrupted)" : "");
}

// Clock fields are capped at about 35 years so that time management's arithmetic cannot
// overflow.
static const int64_t GO_MAX_MS = INT64_C(1) << 40;

// Reads the number after token tok[i - 1] of go, at least min (1, 0, or INT64_MIN for any);
// false (after an error naming the token) when it is missing, not a number or too small.
static bool go_number(UciContext *ctx, char **tok, int n, int i, int64_t min, int64_t *out) {
    char *end = NULL;
    long long v = i < n ? strtoll(tok[i], &end, 10) : -1;
    if (i >= n || end == tok[i] || *end || v < min) {
        char msg[160];
        snprintf(msg, sizeof msg, "go: '%.40s' needs a %snumber%s%.40s%s", tok[i - 1],
                 min > 0    ? "positive "
                 : min == 0 ? "non-negative "
                            : "",
                 i < n ? ", not '" : "", i < n ? tok[i] : "", i < n ? "'" : "");
        reply_error(ctx, msg);
        return false;
    }
    *out = v;
    return true;
}

// Stockfish's reading of the clocks: once any of wtime, btime, winc, binc, movestogo (or
// byoyomi, Fairy-Stockfish's) is given, time management is on and a missing clock counts as 0;
// movetime, when given, wins. A clock may be negative (a GUI's clock that ran past zero): read
// as 0, so that only the mover's own clock decides, and a negative one means move now.
// A clock of 0 without byo-yomi (or movetime 0) means move now: a depth-1 search, which is
// always finished (a 1 ms budget could cut it short and answer a move searched only in part);
// with byo-yomi a spent clock leaves the move its period (timeman_budget).
static void apply_move_now(SearchLimits *lim, Side us, bool clocks, bool movetime) {
    if (lim->infinite ||
        !(movetime ? lim->movetime == 0 : clocks && lim->time[us] == 0 && lim->byoyomi == 0))
        return;
    lim->depth = 1;
    lim->movetime = 0, lim->movestogo = 0, lim->byoyomi = 0;
    for (int s = 0; s < SIDE_NB; s++)
        lim->time[s] = lim->inc[s] = 0;
}

// The limits of go that take a number, in parse_limits' order (its switch), and the other
// keywords, which take none.
static const char *const GO_LIMITS[] = {"depth", "nodes", "movetime",  "wtime", "btime",
                                        "winc",  "binc",  "movestogo", "mate",  "byoyomi"};
enum { GO_NLIMITS = sizeof GO_LIMITS / sizeof *GO_LIMITS };
static const char *const GO_FLAGS[] = {"infinite", "ponder", "searchmoves"};

// The index of t in GO_LIMITS, or GO_NLIMITS when it is none of them.
static int go_limit_index(const char *t) {
    int k = 0;
    while (k < GO_NLIMITS && strcmp(t, GO_LIMITS[k]) != 0)
        k++;
    return k;
}

// Whether t is a keyword of go (which ends a searchmoves list).
static bool go_keyword(const char *t) {
    for (size_t w = 0; w < sizeof GO_FLAGS / sizeof *GO_FLAGS; w++)
        if (strcmp(t, GO_FLAGS[w]) == 0)
            return true;
    return go_limit_index(t) < GO_NLIMITS;
}

// Reads the moves after `searchmoves` (tok[*i]) up to the next keyword of go, each a legal
// move of the position; *i is left on the last move read. False after an error naming the move.
static bool parse_searchmoves(UciContext *ctx, char **tok, int n, int *i, SearchLimits *lim) {
    int first = *i + 1;
    for (int k = first; k < n; k++) {
        if (go_keyword(tok[k]))
            goto done;
        ErrorInfo err;
        Move m;
        *i = k;
        if (!ctx->position_ok) // the go is refused for its position after the limits
            continue;
        if (move_parse_uci(&ctx->board, tok[k], &m, &err) != STATUS_OK) {
            char msg[64 + sizeof err.msg];
            snprintf(msg, sizeof msg, "go searchmoves: %s", err.msg);
            reply_error(ctx, msg);
            return false;
        }
        if (lim->nsearchmoves < MAX_MOVES)
            lim->searchmoves[lim->nsearchmoves++] = m;
    }
done:
    if (*i + 1 == first && ctx->position_ok) {
        reply_error(ctx, "go searchmoves: no move given");
        return false;
    }
    return true;
}

// Parses the limits of go for side us to move. False after an error naming the token.
static bool parse_limits(UciContext *ctx, char **tok, int n, Side us, SearchLimits *lim) {
    bool clocks = false, movetime = false;
    memset(lim, 0, sizeof *lim);
    for (int i = 1; i < n; i++) {
        int64_t v = 0;
        const char *t = tok[i];
        char msg[128];
        if (strcmp(t, "infinite") == 0) {
            lim->infinite = true;
            continue;
        }
        if (strcmp(t, "ponder") == 0) {
            lim->ponder = true;
            continue;
        }
        if (strcmp(t, "searchmoves") == 0) {
            if (!parse_searchmoves(ctx, tok, n, &i, lim))
                return false;
            continue;
        }
        int k = go_limit_index(t);
        if (k == GO_NLIMITS) {
            snprintf(msg, sizeof msg, "go: unknown token '%.40s'", t);
            reply_error(ctx, msg);
            return false;
        }
        // SearchLimits reads depth 0, nodes 0 and mate 0 as "no limit": refused, not searched
        // forever.
        int64_t min = k <= 1 || k == 8 ? 1 : k == 3 || k == 4 ? INT64_MIN : 0;
        if (!go_number(ctx, tok, n, ++i, min, &v))
            return false;
        if (k == 8) {
            lim->mate = v < MAX_PLY ? (int)v : MAX_PLY;
            continue;
        }
        if (k >= 2 && v > GO_MAX_MS)
            v = GO_MAX_MS;
        if (v < 0) // a clock past zero
            v = 0;
        clocks |= k >= 3;
        movetime |= k == 2;
        switch (k) {
        case 0:
            lim->depth = v < DEPTH_MAX ? (int)v : DEPTH_MAX;
            break;
        case 1:
            lim->nodes = (uint64_t)v;
            break;
        case 2:
            lim->movetime = v;
            break;
        case 3:
            lim->time[CHO] = v;
            break;
        case 4:
            lim->time[HAN] = v;
            break;
        case 5:
            lim->inc[CHO] = v;
            break;
        case 6:
            lim->inc[HAN] = v;
            break;
        case 7:
            lim->movestogo = v < 1000 ? (int)v : 1000;
            break;
        default: // byo-yomi, each move's period after the clock (Fairy-Stockfish's token)
            lim->byoyomi = v;
            break;
        }
    }
    apply_move_now(lim, us, clocks, movetime);
    return true;
}

// Writes a score as UCI does: `cp X`, or, for a decided game of any kind (mate, perpetual
// check, points: search.h), `mate N`, N the moves of the side to move to the end, negative when
// it loses; as Fairy-Stockfish does for a variant's game ends, except that a loss by our own
// next move (a move limit or repetition reached) is `mate -1`, not `mate 0`.
static void write_score(FILE *out, Score v) {
    if (score_is_decided(v)) {
        int moves = (score_end_plies(v) + 1) / 2;
        fprintf(out, "mate %d", v > 0 ? moves : -moves);
    } else
        fprintf(out, "cp %d", v);
}

static void on_info(const SearchInfo *info, void *arg) {
    UciContext *ctx = arg;
    pthread_mutex_lock(&ctx->out_lock);
    int64_t ms = info->time_ms;
    uint64_t nps = info->nodes * 1000 / (uint64_t)(ms > 0 ? ms : 1);
    if (info->kind == SEARCH_INFO_CURRMOVE) {
        char mv[MOVE_STR_LEN];
        move_to_uci(info->currmove, mv);
        fprintf(ctx->out, "info depth %d currmove %s currmovenumber %d\n", info->depth, mv,
                info->currmovenumber);
        fflush(ctx->out);
        pthread_mutex_unlock(&ctx->out_lock);
        return;
    }
    fprintf(ctx->out, "info depth %d seldepth %d multipv %d score ", info->depth, info->seldepth,
            info->multipv);
    write_score(ctx->out, info->score);
    if (ctx->show_wdl) {
        int wdl[3];
        wdl_of_score(ctx->search_board.variant, info->score, wdl);
        fprintf(ctx->out, " wdl %d %d %d", wdl[0], wdl[1], wdl[2]);
    }
    fprintf(ctx->out, " nodes %" PRIu64 " nps %" PRIu64 " hashfull %d time %" PRId64 " pv",
            info->nodes, nps, search_hashfull(ctx->searcher), ms);
    for (int i = 0; i < info->pv_len; i++) {
        char mv[MOVE_STR_LEN];
        move_to_uci(info->pv[i], mv);
        fprintf(ctx->out, " %s", mv);
    }
    fprintf(ctx->out, "\n");
    fflush(ctx->out);
    pthread_mutex_unlock(&ctx->out_lock);
}

// Whether the job under way is a search that answers only when told: `go infinite` (with or
// without a depth or mate limit) after `stop`, `go ponder` before its ponderhit after `stop` or
// `ponderhit`, as the protocol asks. Such a search never ends by itself, so whatever must wait
// for it (a command, the end of input) stops it instead (end_job). The one test of it: the
// search thread waits on it, the command loop stops on it.
static bool waits_for_stop(UciContext *ctx) {
    return ctx->job == JOB_SEARCH &&
           (ctx->limits.infinite || (ctx->limits.ponder && !atomic_load(&ctx->ponderhit)));
}

// A `go mate N` search with no depth, node or time limit: it ends only when a mate is proven.
static bool unbounded_mate(const UciContext *ctx) {
    const SearchLimits *l = &ctx->limits;
    return ctx->job == JOB_SEARCH && l->mate && !l->depth && !l->nodes && !l->movetime &&
           !l->time[CHO] && !l->time[HAN];
}

static void run_search(UciContext *ctx) {
    SearchResult r =
        search_run(ctx->searcher, &ctx->search_board, &ctx->limits, on_info, ctx, &ctx->stop);
    while (waits_for_stop(ctx) && !atomic_load(&ctx->stop)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    char best[MOVE_STR_LEN], ponder[MOVE_STR_LEN];
    move_to_uci(r.best, best);
    move_to_uci(r.ponder, ponder);
    pthread_mutex_lock(&ctx->out_lock);
    if (r.ponder != MOVE_NONE)
        fprintf(ctx->out, "bestmove %s ponder %s\n", best, ponder);
    else
        fprintf(ctx->out, "bestmove %s\n", best);
    fflush(ctx->out);
    pthread_mutex_unlock(&ctx->out_lock);
}

// The thread of `go`: a search, or a perft, which `stop` and `quit` end alike.
static void *go_thread(void *arg) {
    UciContext *ctx = arg;
    if (ctx->job == JOB_SEARCH) {
        run_search(ctx);
        return NULL;
    }
    perft_run(&ctx->search_board, ctx->perft_depth, &ctx->perft, &ctx->stop);
    pthread_mutex_lock(&ctx->out_lock);
    print_perft(ctx, &ctx->perft);
    fflush(ctx->out);
    pthread_mutex_unlock(&ctx->out_lock);
    return NULL;
}

// Starts the thread of `go` on a copy of the position. False after an error.
static bool start_job(UciContext *ctx, Job job) {
    ctx->job = job;
    ctx->search_board = ctx->board;
    atomic_store(&ctx->stop, false);
    atomic_store(&ctx->ponderhit, false);
    if (pthread_create(&ctx->thread, NULL, go_thread, ctx) != 0) {
        reply_error(ctx, "go: cannot start the search thread");
        return false;
    }
    ctx->searching = true;
    return true;
}

// go perft N. A perft is not a search: as in Stockfish it answers `Nodes searched`, never a
// bestmove, also when refused.
static void go_perft(UciContext *ctx, char **tok, int n) {
    char *end = NULL;
    long depth = n >= 3 ? strtol(tok[2], &end, 10) : -1;
    if (n != 3 || end == tok[2] || *end || depth < 0 || depth > 20) {
        reply_error(ctx, "go perft: depth must be a number from 0 to 20 (and nothing after it)");
        return;
    }
    if (!ctx->position_ok) {
        reply_error(ctx, "go perft: no position: the last 'position' command was refused");
        return;
    }
    memset(&ctx->limits, 0, sizeof ctx->limits);
    ctx->perft_depth = (int)depth;
    start_job(ctx, JOB_PERFT);
}

// go with search limits. False when no search starts (after an `info string` saying why);
// the caller then answers `bestmove (none)`, so that every go gets its one bestmove.
static bool go_search(UciContext *ctx, char **tok, int n) {
    SearchLimits lim;
    if (!parse_limits(ctx, tok, n, ctx->board.side, &lim))
        return false;
    if (!ctx->position_ok) {
        reply_error(ctx, "go: no position to search: the last 'position' command was refused; "
                         "send a valid one");
        return false;
    }
    GameResult gr;
    if (rules_game_over(&ctx->board, &gr)) {
        // The winner by the variant's side names ("cho", "han"; "red", "black"); the points
        // only where the variant counts them (janggi).
        const Variant *v = ctx->board.variant;
        char who[16];
        snprintf(who, sizeof who, "%s", v->side_names[gr.winner]);
        who[0] = (char)tolower((unsigned char)who[0]);
        fprintf(ctx->out, "info string game over: %s, %s%s%s", rules_reason_name(gr.reason),
                gr.draw ? "drawn" : who, gr.draw ? "" : " wins",
                v->points_half[CHARIOT] ? "" : "\n");
        if (v->points_half[CHARIOT])
            fprintf(ctx->out, ", points cho %d.%d han %d.%d\n", gr.points_half[CHO] / 2,
                    gr.points_half[CHO] % 2 * 5, gr.points_half[HAN] / 2,
                    gr.points_half[HAN] % 2 * 5);
        return false;
    }
    if (ctx->nnue_asked && !ctx->net)
        nnue_say_missing(ctx);
    lim.move_overhead = ctx->move_overhead;
    lim.multipv = ctx->multipv;
    strength_apply(&lim, ctx->variant, ctx->limit_strength, ctx->elo, ctx->skill);
    lim.skill_seed = prng_next(&ctx->skill_seed);
    if (lim.ponder)
        search_ponder_reset(ctx->searcher);
    ctx->limits = lim;
    return start_job(ctx, JOB_SEARCH);
}

// ponderhit: the move pondered was played; the pondering search goes on on the clock.
static void cmd_ponderhit(UciContext *ctx) {
    if (!ctx->searching || ctx->job != JOB_SEARCH || !ctx->limits.ponder ||
        atomic_load(&ctx->ponderhit)) {
        reply_error(ctx, "ponderhit: no search is pondering (send 'go ponder' first)");
        return;
    }
    search_ponderhit(ctx->searcher);
    atomic_store(&ctx->ponderhit, true);
}

static void cmd_go(UciContext *ctx, char **tok, int n) {
    if (n >= 2 && strcmp(tok[1], "perft") == 0)
        go_perft(ctx, tok, n);
    else if (!go_search(ctx, tok, n))
        fprintf(ctx->out, "bestmove (none)\n");
}

// The value of spin option name: an integer lo..hi, else false after an error naming it.
static bool spin_value(UciContext *ctx, const char *name, const char *value, long lo, long hi,
                       long *out) {
    char *end;
    long v = strtol(value, &end, 10);
    if (!*value || *end || v < lo || v > hi) {
        char msg[160];
        snprintf(msg, sizeof msg, "setoption: %s value '%.40s' is not %ld..%ld", name, value, lo,
                 hi);
        reply_error(ctx, msg);
        return false;
    }
    *out = v;
    return true;
}

// The value of check option name: true or false (any case) into *out, else false after an
// error naming it (*out unchanged).
static bool check_value(UciContext *ctx, const char *name, const char *value, bool *out) {
    if (strcasecmp(value, "true") != 0 && strcasecmp(value, "false") != 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "setoption: %s value '%.40s' is not true or false", name, value);
        reply_error(ctx, msg);
        return false;
    }
    *out = strcasecmp(value, "true") == 0;
    return true;
}

// setoption name <name...> [value <value...>]
static void cmd_setoption(UciContext *ctx, char **tok, int n) {
    char name[64] = "", value[OPTION_VALUE_MAX] = "";
    int i = 1;
    if (i >= n || strcmp(tok[i], "name") != 0) {
        reply_error(ctx, "setoption: expected 'name'");
        return;
    }
    for (i++; i < n && strcmp(tok[i], "value") != 0; i++)
        snprintf(name + strlen(name), sizeof name - strlen(name), "%s%.40s", *name ? " " : "",
                 tok[i]);
    for (i++; i < n; i++) {
        size_t used = strlen(value), tl = strlen(tok[i]);
        if (used + 1 + tl >= sizeof value) {
            reply_error(ctx, "setoption: value longer than 1023 characters");
            return;
        }
        if (used)
            value[used++] = ' ';
        memcpy(value + used, tok[i], tl + 1);
    }
    char msg[160 + sizeof(ErrorInfo)];
    int param;
    long spin;
    if (strcasecmp(name, "Hash") == 0) {
        if (!spin_value(ctx, "Hash", value, 1, TT_MB_MAX, &spin))
            ;
        else if (!search_resize(ctx->searcher, (size_t)spin))
            reply_error(ctx, "setoption: not enough memory for that Hash; kept the old table");
        else
            ctx->hash_mb = (size_t)spin;
    } else if (strcasecmp(name, "Move Overhead") == 0) {
        if (spin_value(ctx, "Move Overhead", value, 0, MOVE_OVERHEAD_MAX_MS, &spin))
            ctx->move_overhead = spin;
    } else if (strcasecmp(name, "Threads") == 0) {
        if (spin_value(ctx, "Threads", value, 1, SEARCH_THREADS_MAX, &spin) &&
            !search_set_threads(ctx->searcher, (int)spin))
            reply_error(ctx, "setoption: not enough memory for that many Threads; kept the old "
                             "number");
    } else if (strcasecmp(name, "MultiPV") == 0) {
        if (spin_value(ctx, "MultiPV", value, 1, SEARCH_MULTIPV_MAX, &spin))
            ctx->multipv = (int)spin;
    } else if (strcasecmp(name, "Skill Level") == 0) {
        if (spin_value(ctx, "Skill Level", value, 0, SEARCH_SKILL_MAX, &spin))
            ctx->skill = (int)spin;
    } else if (strcasecmp(name, "UCI_LimitStrength") == 0) {
        check_value(ctx, "UCI_LimitStrength", value, &ctx->limit_strength);
    } else if (strcasecmp(name, "UCI_Elo") == 0) {
        if (spin_value(ctx, "UCI_Elo", value, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX, &spin))
            ctx->elo = (int)spin;
    } else if (strcasecmp(name, "UCI_ShowWDL") == 0) {
        check_value(ctx, "UCI_ShowWDL", value, &ctx->show_wdl);
    } else if (strcasecmp(name, "Clear Hash") == 0) {
        search_clear(ctx->searcher);
    } else if (strcasecmp(name, "Ponder") == 0) {
        // The GUI tells whether it will send `go ponder`: nothing to change here.
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0) {
            snprintf(msg, sizeof msg, "setoption: Ponder value '%.40s' is not true or false",
                     value);
            reply_error(ctx, msg);
        }
    } else if (strcasecmp(name, "UCI_Variant") == 0) {
        const Variant *v = variant_find(value);
        if (!v) {
            snprintf(msg, sizeof msg, "setoption: UCI_Variant '%.40s' is not supported", value);
            reply_error(ctx, msg);
        } else if (v != ctx->variant) {
            // As in Fairy-Stockfish: a new variant starts from its start position.
            ctx->variant = v;
            fen_parse_variant(&ctx->board, v, v->start_fen, NULL);
            ctx->position_ok = true;
            nnue_new_variant(ctx);
        }
    } else if (strcasecmp(name, "Use NNUE") == 0) {
        set_use_nnue(ctx, value);
    } else if (strcasecmp(name, "EvalFile") == 0) {
        set_eval_file(ctx, value);
    } else if ((param = search_param_find(name)) >= 0) {
        SearchParams p = *search_get_params(ctx->searcher);
        ErrorInfo err;
        if (search_params_set(&p, param, value, &err) != STATUS_OK) {
            snprintf(msg, sizeof msg, "setoption: %s", err.msg);
            reply_error(ctx, msg);
        } else
            search_set_params(ctx->searcher, &p);
    } else {
        snprintf(msg, sizeof msg, "setoption: unknown option '%.40s'", name);
        reply_error(ctx, msg);
    }
}

static void cmd_bench(UciContext *ctx, char **tok, int n) {
    long depth = BENCH_DEPTH;
    if (n > 2) {
        char msg[96];
        snprintf(msg, sizeof msg, "bench: unexpected argument '%.40s' (usage: bench [DEPTH])",
                 tok[2]);
        reply_error(ctx, msg);
        return;
    }
    if (n == 2) {
        char *end;
        depth = strtol(tok[1], &end, 10);
        if (*end || depth < 1 || depth > DEPTH_MAX) {
            char msg[128];
            snprintf(msg, sizeof msg, "bench: depth '%.40s' is not 1..%d", tok[1], DEPTH_MAX);
            reply_error(ctx, msg);
            return;
        }
    }
    BenchResult res;
    ErrorInfo err;
    // The bench of the variant UCI_Variant names, with the evaluation the options select.
    if (bench_run_net(ctx->variant, bench_text(ctx->variant), (int)depth, BENCH_HASH_MB,
                      search_get_net(ctx->searcher), nnue_path_best(), ctx->out, &res,
                      &err) != STATUS_OK)
        reply_error(ctx, err.msg);
}

static void cmd_display(UciContext *ctx) {
    const Board *b = &ctx->board;
    const char *letters = b->variant->letters;
    fprintf(ctx->out, "\n");
    for (int rank = RANK_NB - 1; rank >= 0; rank--) {
        fprintf(ctx->out, "%2d ", rank + 1);
        for (int file = 0; file < FILE_NB; file++) {
            Piece pc = board_at(b, square_make(file, rank));
            char c = pc == EMPTY ? '.' : letters[piece_kind(pc)];
            if (pc != EMPTY && piece_side(pc) == HAN)
                c = (char)(c - 'A' + 'a');
            fprintf(ctx->out, " %c", c);
        }
        fprintf(ctx->out, "\n");
    }
    char fen[FEN_BUFFER];
    fen_write(b, fen, sizeof fen);
    fprintf(ctx->out, "    a b c d e f g h i\n\nFen: %s\nKey: %016llx\n", fen,
            (unsigned long long)board_key(b));
}

// eval: the static evaluation the search uses at the position, and which one it is.
static void cmd_eval(UciContext *ctx) {
    Score v = search_evaluate(ctx->searcher, &ctx->board);
    bool nnue = search_get_net(ctx->searcher) != NULL;
    fprintf(ctx->out, "Evaluation: %d cp (side to move; %s%s)\n", v, nnue ? "nnue " : "classical",
            nnue ? ctx->eval_file : "");
}

// Commands that may run beside a search: the rest wait for it (or stop `go infinite`).
static bool runs_beside_search(const char *cmd) {
    return strcmp(cmd, "isready") == 0 || strcmp(cmd, "uci") == 0 || strcmp(cmd, "ponderhit") == 0;
}

// Ends the running search or perft, if any: stopped when told to (`stop`, `quit`) or when it
// would wait for a stop forever (waits_for_stop), else waited for (a finite search or perft
// finishes and answers).
static void end_job(UciContext *ctx, bool told_to_stop) {
    if (ctx->searching && (told_to_stop || waits_for_stop(ctx)))
        stop_search(ctx);
    else
        uci_wait(ctx);
}

// Waits for (or stops) a running search before command cmd, unless cmd runs beside it.
static void settle_search(UciContext *ctx, const char *cmd) {
    if (ctx->searching && !runs_beside_search(cmd))
        end_job(ctx, strcmp(cmd, "stop") == 0 || strcmp(cmd, "quit") == 0);
}

// A line too long (over UCI_MAX_LINE bytes) or too many tokens to read: refused whole, with
// what its command implies. A refused `position` leaves no position to search (as any refused
// position does), and a refused `go` still gets its one `bestmove (none)`.
static void refuse_line(UciContext *ctx, const char *cmd, const char *why) {
    settle_search(ctx, cmd);
    pthread_mutex_lock(&ctx->out_lock);
    reply_error(ctx, why);
    if (strcmp(cmd, "position") == 0)
        ctx->position_ok = false;
    else if (strcmp(cmd, "go") == 0)
        fprintf(ctx->out, "bestmove (none)\n");
    fflush(ctx->out);
    pthread_mutex_unlock(&ctx->out_lock);
}

// The first word of line (at most cap - 1 bytes of it) into cmd.
static void first_word(const char *line, char *cmd, size_t cap) {
    size_t i = 0;
    line += strspn(line, " \t\r\n");
    while (line[i] && !strchr(" \t\r\n", line[i]) && i + 1 < cap) {
        cmd[i] = line[i];
        i++;
    }
    cmd[i] = '\0';
}

bool uci_handle_line(UciContext *ctx, const char *line) {
    char cmd[16];
    first_word(line, cmd, sizeof cmd);
    if (strnlen(line, UCI_MAX_LINE + 1) > UCI_MAX_LINE) {
        refuse_line(ctx, cmd, "command longer than 65536 characters");
        return true;
    }
    char *copy = strdup(line);
    char **tokens = ctx->tokens;
    if (!copy) {
        refuse_line(ctx, cmd, "out of memory");
        return true;
    }
    bool running = true;
    int n = tokenize(copy, tokens, UCI_MAX_TOKENS);
    if (n < 0) {
        refuse_line(ctx, cmd, "command has too many tokens");
        free(copy);
        return true;
    }
    if (n > 0)
        settle_search(ctx, tokens[0]);
    pthread_mutex_lock(&ctx->out_lock);
    if (n == 0)
        ;
    else if (strcmp(tokens[0], "uci") == 0)
        cmd_uci(ctx);
    else if (strcmp(tokens[0], "isready") == 0)
        fprintf(ctx->out, "readyok\n");
    else if (strcmp(tokens[0], "ucinewgame") == 0)
        search_clear(ctx->searcher);
    else if (strcmp(tokens[0], "setoption") == 0)
        cmd_setoption(ctx, tokens, n);
    else if (strcmp(tokens[0], "position") == 0)
        cmd_position(ctx, tokens, n);
    else if (strcmp(tokens[0], "go") == 0)
        cmd_go(ctx, tokens, n);
    else if (strcmp(tokens[0], "stop") == 0)
        ;
    else if (strcmp(tokens[0], "ponderhit") == 0)
        cmd_ponderhit(ctx);
    else if (strcmp(tokens[0], "d") == 0)
        cmd_display(ctx);
    else if (strcmp(tokens[0], "eval") == 0)
        cmd_eval(ctx);
    else if (strcmp(tokens[0], "bench") == 0)
        cmd_bench(ctx, tokens, n);
    else if (strcmp(tokens[0], "quit") == 0)
        running = false;
    else {
        char quoted[4 * ECHO_MAX + 4], msg[sizeof quoted + 32];
        quote_text(tokens[0], strlen(tokens[0]), quoted, sizeof quoted);
        snprintf(msg, sizeof msg, "unknown command '%s'", quoted);
        reply_error(ctx, msg);
    }
    fflush(ctx->out);
    pthread_mutex_unlock(&ctx->out_lock);
    free(copy);
    return running;
}

// A line that holds a NUL byte would reach the handler cut short at it: refused whole,
// naming the byte.
static bool refuse_nul(UciContext *ctx, const char *line, size_t len) {
    const char *nul = memchr(line, '\0', len);
    if (!nul)
        return false;
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    char quoted[4 * ECHO_MAX + 4], msg[sizeof quoted + 96];
    quote_text(line, len, quoted, sizeof quoted);
    snprintf(msg, sizeof msg, "command refused: a NUL byte at byte %zu of '%s'",
             (size_t)(nul - line) + 1, quoted);
    pthread_mutex_lock(&ctx->out_lock);
    reply_error(ctx, msg);
    pthread_mutex_unlock(&ctx->out_lock);
    return true;
}

int uci_loop(UciContext *ctx, FILE *in) {
    size_t cap = 0;
    char *line = NULL;
    ssize_t len;
    while ((len = getline(&line, &cap, in)) >= 0)
        if (!refuse_nul(ctx, line, (size_t)len) && !uci_handle_line(ctx, line))
            break;
    // End of input: a finite search or perft finishes and answers; one that waits for `stop`
    // or `ponderhit` (go infinite, go ponder) is stopped and answers, as before any command, and
    // so is a `go mate` with no other limit, which searches on without end where no mate is.
    end_job(ctx, unbounded_mate(ctx));
    free(line);
    return 0;
}
