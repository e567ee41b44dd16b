// SPDX-License-Identifier: MIT
// The UCI commands (uci_commands.h): position, go (a search or a perft in a thread of its own,
// its info lines and bestmove), ponderhit, bench, d and eval.
#include "uci_commands.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "fen.h"
#include "notation.h"
#include "prng.h"
#include "rules.h"
#include "search_params.h"
#include "strength.h"
#include "variant.h"
#include "wdl.h"

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
                uci_reply_error(ctx, "position: FEN longer than 256 characters");
                return false;
            }
            memcpy(fen + len, tok[i], tl);
            len += tl;
            fen[len++] = ' ';
            fen[len] = '\0';
        }
        if (fen_parse_variant(scratch, ctx->variant, fen, &err) != STATUS_OK) {
            uci_reply_error(ctx, err.msg);
            return false;
        }
    } else {
        uci_reply_error(ctx, "position: expected 'startpos' or 'fen'");
        return false;
    }
    if (i < n && strcmp(tok[i], "moves") != 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "position: unexpected token '%.40s'", tok[i]);
        uci_reply_error(ctx, msg);
        return false;
    }
    for (i++; i < n; i++) {
        Move m;
        if (scratch->nstates >= MAX_GAME_PLY) {
            uci_reply_error(ctx, "position: more moves than a game can hold");
            return false;
        }
        if (rules_game_over(scratch, &gr)) {
            char msg[128];
            snprintf(msg, sizeof msg, "move '%.40s': the game is already over (%s at ply %d)",
                     tok[i], rules_reason_name(gr.reason), board_game_ply(scratch));
            uci_reply_error(ctx, msg);
            return false;
        }
        if (move_parse_uci(scratch, tok[i], &m, &err) != STATUS_OK) {
            uci_reply_error(ctx, err.msg);
            return false;
        }
        board_make(scratch, m);
    }
    return true;
}

// Builds into a scratch board and commits only when every part is valid, so an error leaves
// the position as it was (`d` still shows it); but `go` refuses to search it until a good
// `position` arrives, as the GUI's idea of the position is no longer the engine's.
void uci_position(UciContext *ctx, char **tok, int n) {
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
        uci_reply_error(ctx, msg);
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
            uci_reply_error(ctx, msg);
            return false;
        }
        if (lim->nsearchmoves < MAX_MOVES)
            lim->searchmoves[lim->nsearchmoves++] = m;
    }
done:
    if (*i + 1 == first && ctx->position_ok) {
        uci_reply_error(ctx, "go searchmoves: no move given");
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
            uci_reply_error(ctx, msg);
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
    if (info->kind == SEARCH_INFO_REPLY) {
        char root[MOVE_STR_LEN], mv[MOVE_STR_LEN];
        move_to_uci(info->root_move, root);
        move_to_uci(info->currmove, mv);
        fprintf(ctx->out, "info string reply depth %d root %s move %s number %d nodedepth %d ",
                info->depth, root, mv, info->currmovenumber, info->node_depth);
        if (info->pruned)
            fprintf(ctx->out, "pruned\n");
        else {
            fprintf(ctx->out, "reduction %d searched %d score ", info->reduction,
                    info->searched_depth);
            write_score(ctx->out, info->score);
            fprintf(ctx->out, "\n");
        }
        fflush(ctx->out);
        pthread_mutex_unlock(&ctx->out_lock);
        return;
    }
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
bool uci_waits_for_stop(UciContext *ctx) {
    return ctx->job == JOB_SEARCH &&
           (ctx->limits.infinite || (ctx->limits.ponder && !atomic_load(&ctx->ponderhit)));
}

// A `go mate N` search with no depth, node or time limit: it ends only when a mate is proven.
bool uci_unbounded_mate(const UciContext *ctx) {
    const SearchLimits *l = &ctx->limits;
    return ctx->job == JOB_SEARCH && l->mate && !l->depth && !l->nodes && !l->movetime &&
           !l->time[CHO] && !l->time[HAN];
}

static void run_search(UciContext *ctx) {
    SearchResult r =
        search_run(ctx->searcher, &ctx->search_board, &ctx->limits, on_info, ctx, &ctx->stop);
    while (uci_waits_for_stop(ctx) && !atomic_load(&ctx->stop)) {
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
        uci_reply_error(ctx, "go: cannot start the search thread");
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
        uci_reply_error(ctx,
                        "go perft: depth must be a number from 0 to 20 (and nothing after it)");
        return;
    }
    if (!ctx->position_ok) {
        uci_reply_error(ctx, "go perft: no position: the last 'position' command was refused");
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
        uci_reply_error(ctx, "go: no position to search: the last 'position' command was refused; "
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
        uci_nnue_say_missing(ctx);
    lim.move_overhead = ctx->move_overhead;
    lim.trace_replies = ctx->trace_replies;
    lim.multipv = ctx->multipv;
    strength_apply(&lim, ctx->variant, ctx->limit_strength, ctx->elo, ctx->skill);
    lim.skill_seed = prng_next(&ctx->skill_seed);
    if (lim.ponder)
        search_ponder_reset(ctx->searcher);
    ctx->limits = lim;
    return start_job(ctx, JOB_SEARCH);
}

// ponderhit: the move pondered was played; the pondering search goes on on the clock.
void uci_ponderhit(UciContext *ctx) {
    if (!ctx->searching || ctx->job != JOB_SEARCH || !ctx->limits.ponder ||
        atomic_load(&ctx->ponderhit)) {
        uci_reply_error(ctx, "ponderhit: no search is pondering (send 'go ponder' first)");
        return;
    }
    search_ponderhit(ctx->searcher);
    atomic_store(&ctx->ponderhit, true);
}

void uci_go(UciContext *ctx, char **tok, int n) {
    if (n >= 2 && strcmp(tok[1], "perft") == 0)
        go_perft(ctx, tok, n);
    else if (!go_search(ctx, tok, n))
        fprintf(ctx->out, "bestmove (none)\n");
}

void uci_bench(UciContext *ctx, char **tok, int n) {
    long depth = BENCH_DEPTH;
    if (n > 2) {
        char msg[96];
        snprintf(msg, sizeof msg, "bench: unexpected argument '%.40s' (usage: bench [DEPTH])",
                 tok[2]);
        uci_reply_error(ctx, msg);
        return;
    }
    if (n == 2) {
        char *end;
        depth = strtol(tok[1], &end, 10);
        if (*end || depth < 1 || depth > DEPTH_MAX) {
            char msg[128];
            snprintf(msg, sizeof msg, "bench: depth '%.40s' is not 1..%d", tok[1], DEPTH_MAX);
            uci_reply_error(ctx, msg);
            return;
        }
    }
    BenchResult res;
    ErrorInfo err;
    // The bench of the variant UCI_Variant names, with the evaluation the options select and
    // the search's constants they set (search_params.def: a bundle's switches, bench for bench).
    if (bench_run_smp(ctx->variant, bench_text(ctx->variant), (int)depth, BENCH_HASH_MB,
                      search_get_net(ctx->searcher), nnue_path_best(), 1,
                      search_get_params(ctx->searcher), ctx->out, &res, &err) != STATUS_OK)
        uci_reply_error(ctx, err.msg);
}

void uci_display(UciContext *ctx) {
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

// eval: the static evaluation the search uses at the position, and which one it is (a net's
// material anchor named with its cp a point, eval_material, and its blend with the classical one
// with its share, eval_blend).
void uci_eval(UciContext *ctx) {
    Score v = search_evaluate(ctx->searcher, &ctx->board);
    bool nnue = search_get_net(ctx->searcher) != NULL;
    int blend =
        nnue ? search_params_eval_blend(search_get_params(ctx->searcher), ctx->board.variant) : 0;
    int anchor = nnue && rules_counts_points(ctx->board.variant)
                     ? search_get_params(ctx->searcher)->eval_material
                     : 0;
    char share[96] = "";
    int n = 0;
    if (anchor)
        n = snprintf(share, sizeof share, "; material %d cp a point", anchor);
    if (blend)
        snprintf(share + n, sizeof share - (size_t)n, "; blend %d %% classical", blend);
    fprintf(ctx->out, "Evaluation: %d cp (side to move; %s%s%s)\n", v, nnue ? "nnue " : "classical",
            nnue ? ctx->eval_file : "", share);
}
