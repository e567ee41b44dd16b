// SPDX-License-Identifier: MIT
// One refereed game between two UCI engines.
#include "match_game.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "fen.h"
#include "notation.h"
#include "timeman.h"
#include "variant.h"

/// A side's clock during the game (LIMIT_CLOCK only). Milliseconds.
typedef struct Clock {
    int64_t main, inc, period;
    int periods;
} Clock;

// Time the engine may use for this move before it loses: main time, byo-yomi, the margin.
static int64_t clock_allowance(const Clock *c, int64_t margin) {
    return c->main + (int64_t)c->periods * c->period + margin;
}

// Charges elapsed ms to the clock. False when the flag fell. In byo-yomi, each whole period
// overrun uses up one period (Japanese byo-yomi); a move within the current period is free.
static bool clock_charge(Clock *c, int64_t elapsed, int64_t margin) {
    if (elapsed <= c->main) {
        c->main += c->inc - elapsed;
        return true;
    }
    int64_t over = elapsed - c->main;
    c->main = c->period > 0 ? 0 : c->inc;
    if (c->period == 0 || c->periods == 0)
        return over <= margin;
    int lost = over > margin ? (int)((over - margin - 1) / c->period) : 0;
    if (lost >= c->periods)
        return false;
    c->periods -= lost;
    return true;
}

// The `go` command for the side to move.
static void go_command(const GameSetup *g, const Clock clk[SIDE_NB], Side stm, char *out,
                       size_t len) {
    const Limits *l = g->limits[stm];
    switch (l->kind) {
    case LIMIT_NODES:
        snprintf(out, len, "go nodes %ld", l->nodes);
        break;
    case LIMIT_DEPTH:
        snprintf(out, len, "go depth %d", l->depth);
        break;
    case LIMIT_MOVETIME:
        snprintf(out, len, "go movetime %" PRId64, l->movetime);
        break;
    case LIMIT_CLOCK: {
        // The opponent's clock is shown as its own when the opponent plays without one.
        const Clock *w = g->limits[CHO]->kind == LIMIT_CLOCK ? &clk[CHO] : &clk[stm];
        const Clock *b = g->limits[HAN]->kind == LIMIT_CLOCK ? &clk[HAN] : &clk[stm];
        // Byo-yomi in plain UCI, which every engine reads (Hansu has no `byoyomi` token):
        // the main time as a sudden-death clock, then one period per move as `movetime`.
        if (l->byoyomi > 0 && clk[stm].main <= 0) {
            snprintf(out, len, "go movetime %" PRId64, l->byoyomi);
            break;
        }
        int n = snprintf(out, len, "go wtime %" PRId64 " btime %" PRId64, w->main, b->main);
        if (l->byoyomi == 0)
            snprintf(out + n, len - (size_t)n, " winc %" PRId64 " binc %" PRId64, w->inc, b->inc);
        break;
    }
    }
}

// The variant's name of a side ("Cho", "Han"; "Red", "Black").
static const char *side_name(const GameSetup *g, Side s) {
    return variant_or_default(g->variant)->side_names[s];
}

// Ends the game with stm's opponent as winner.
static void forfeit(const GameSetup *g, GameOutcome *out, Side loser, EndReason reason,
                    const char *why) {
    out->winner = (Side)!loser;
    out->reason = reason;
    out->faulty[loser] = true;
    snprintf(out->detail, sizeof out->detail, "%s %.200s", side_name(g, loser), why);
}

// Writes "position fen F [moves ...]" for the game so far.
static void position_command(const GameSetup *g, const GameOutcome *out, char *buf, size_t len) {
    size_t n = (size_t)snprintf(buf, len, "position fen %s", g->fen);
    for (int i = 0; i < out->nmoves && n + MOVE_STR_LEN + 8 < len; i++) {
        char mv[MOVE_STR_LEN];
        move_to_uci(out->moves[i], mv);
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i == 0 ? " moves " : " ", mv);
    }
}

// The number after key in line (e.g. " depth "), or *out left as it was.
static void info_field(const char *line, const char *key, uint64_t *out) {
    const char *p = strstr(line, key);
    unsigned long long v;
    if (p && sscanf(p + strlen(key), "%llu", &v) == 1)
        *out = v;
}

// What an `info` line with a score says (MoveInfo: the score in centipawns from the engine's
// side, a mate in N as +-(SCORE_MATE - N); depth, seldepth, nodes), or *info left as it was.
// Bounds and the lines of MultiPV ranks past the first are not a result.
static void info_read(const char *line, MoveInfo *info) {
    const char *p = strstr(line, " score ");
    int v;
    if (strncmp(line, "info", 4) != 0 || !p || strstr(line, " lowerbound") ||
        strstr(line, " upperbound") || (strstr(line, " multipv ") && !strstr(line, " multipv 1 ")))
        return;
    if (sscanf(p, " score cp %d", &v) == 1)
        info->score = v;
    else if (sscanf(p, " score mate %d", &v) == 1)
        info->score = v > 0 ? SCORE_MATE - v : -SCORE_MATE - v;
    else
        return;
    uint64_t depth = 0, seldepth = 0, nodes = 0, hashfull = UINT64_MAX;
    info_field(line, " hashfull ", &hashfull);
    info->hashfull = hashfull <= 1000 ? (int)hashfull : -1;
    info_field(line, " depth ", &depth);
    info_field(line, " seldepth ", &seldepth);
    info_field(line, " nodes ", &nodes);
    info->depth = depth < 1000 ? (int)depth : 999;
    info->seldepth = seldepth < 1000 ? (int)seldepth : 999;
    info->nodes = nodes;
}

// What a side's ponder search became when the opponent moved.
typedef enum { PONDER_NONE, PONDER_HIT, PONDER_MISS } PonderEnd;

// Reads lines until a `bestmove` before deadline_ms and drops it (the answer of a search told to
// stop). False after scoring a crash or a hang in out.
static bool drain_bestmove(const GameSetup *g, Side stm, GameOutcome *out, int64_t deadline_ms) {
    char line[ENGINE_LINE_MAX];
    for (;;) {
        ChildRead r = child_read_line(g->engine[stm], line, sizeof line, deadline_ms);
        if (r == CHILD_EOF) {
            forfeit(g, out, stm, REASON_CRASH, "engine crashed (its output closed)");
            return false;
        }
        if (r == CHILD_TIMEOUT) {
            forfeit(g, out, stm, REASON_TIME, "no bestmove after stop (watchdog: hang)");
            return false;
        }
        if (strncmp(line, "bestmove", 8) == 0 && (line[8] == ' ' || line[8] == '\0'))
            return true;
    }
}

// Asks the side to move for a move. Returns true with the move text in best, the predicted reply
// in ponder ("" when none) and the last score its search reported in *score (SCORE_NONE: none),
// or false after scoring the fault in out. pend says what became of the side's ponder search:
// on a hit the search goes on (`ponderhit`) and the clock runs from now; on a miss it is
// stopped and its answer dropped before the real search.
static bool ask_move(const GameSetup *g, Clock clk[SIDE_NB], Side stm, GameOutcome *out,
                     PonderEnd pend, char best[32], char ponder[32], MoveInfo *info) {
    char cmd[ENGINE_LINE_MAX], line[ENGINE_LINE_MAX];
    UciChild *e = g->engine[stm];
    bool ok = true;
    if (pend == PONDER_MISS)
        ok = child_send(e, "stop") && drain_bestmove(g, stm, out, timeman_now_ms() + g->watchdog);
    if (!ok && out->faulty[stm])
        return false;
    if (pend == PONDER_HIT) {
        ok = child_send(e, "ponderhit");
        out->ponder_hits[stm]++;
    } else {
        position_command(g, out, cmd, sizeof cmd);
        ok = ok && child_send(e, cmd);
        go_command(g, clk, stm, cmd, sizeof cmd);
        ok = ok && child_send(e, cmd);
    }
    ponder[0] = '\0';
    int64_t start = timeman_now_ms();
    const Limits *l = g->limits[stm];
    int64_t allowed = l->kind == LIMIT_CLOCK      ? clock_allowance(&clk[stm], g->margin)
                      : l->kind == LIMIT_MOVETIME ? l->movetime + g->margin
                                                  : g->watchdog;
    *info = (MoveInfo){.score = SCORE_NONE, .clock_ms = -1, .hashfull = -1};
    while (ok) {
        ChildRead r = child_read_line(e, line, sizeof line, start + allowed);
        if (r == CHILD_EOF) {
            forfeit(g, out, stm, REASON_CRASH, "engine crashed (its output closed)");
            return false;
        }
        if (r == CHILD_TIMEOUT) {
            snprintf(cmd, sizeof cmd, "no bestmove within %" PRId64 " ms (%s)", allowed,
                     l->kind == LIMIT_CLOCK || l->kind == LIMIT_MOVETIME ? "flag fell"
                                                                         : "watchdog: hang");
            forfeit(g, out, stm, REASON_TIME, cmd);
            return false;
        }
        info_read(line, info);
        if (strncmp(line, "bestmove", 8) == 0 && (line[8] == ' ' || line[8] == '\0')) {
            int64_t elapsed = timeman_now_ms() - start;
            if (l->kind == LIMIT_CLOCK && !clock_charge(&clk[stm], elapsed, g->margin)) {
                snprintf(cmd, sizeof cmd, "lost on time (%" PRId64 " ms used)", elapsed);
                forfeit(g, out, stm, REASON_TIME, cmd);
                return false;
            }
            info->ms = elapsed;
            if (l->kind == LIMIT_CLOCK)
                info->clock_ms = clk[stm].main;
            if (sscanf(line + 8, "%31s", best) != 1)
                best[0] = '\0';
            const char *p = strstr(line + 8, " ponder ");
            if (!p || sscanf(p, " ponder %31s", ponder) != 1)
                ponder[0] = '\0';
            return true;
        }
    }
    forfeit(g, out, stm, REASON_CRASH, "engine crashed (its input closed)");
    return false;
}

static void clocks_init(const GameSetup *g, Clock clk[SIDE_NB]) {
    for (int s = 0; s < SIDE_NB; s++) {
        const Limits *l = g->limits[s];
        clk[s] = (Clock){.main = l->base,
                         .inc = l->inc,
                         .period = l->byoyomi,
                         .periods = l->byoyomi > 0 ? l->periods : 0};
    }
}

// The end of a game: drawn, a mate, or another rule (with the points where the variant has
// them: janggi).
static void describe_end(const GameSetup *g, const GameResult *res, GameOutcome *out) {
    const Variant *v = variant_or_default(g->variant);
    const char *win = side_name(g, res->winner);
    if (res->draw)
        snprintf(out->detail, sizeof out->detail, "%s: drawn", rules_reason_name(res->reason));
    else if (res->reason == REASON_CHECKMATE)
        snprintf(out->detail, sizeof out->detail, "%s mates", win);
    else if (v->points_half[CHARIOT] == 0)
        snprintf(out->detail, sizeof out->detail, "%s: %s wins%s", rules_reason_name(res->reason),
                 win,
                 res->reason == REASON_PERPETUAL_CHECK   ? ", the other side checked on every move"
                 : res->reason == REASON_PERPETUAL_CHASE ? ", the other side chased on every move"
                 : res->reason == REASON_STALEMATE       ? ", the other side has no move"
                                                         : "");
    else
        snprintf(out->detail, sizeof out->detail, "%s: %s wins%s (points %s %.1f : %s %.1f)",
                 rules_reason_name(res->reason), win,
                 res->reason == REASON_PERPETUAL_CHECK ? ", the other side checked on every move"
                                                       : "",
                 side_name(g, CHO), res->points_half[CHO] / 2.0, side_name(g, HAN),
                 res->points_half[HAN] / 2.0);
}

// True when each of the last n plies has a score (Cho's view) that keep() accepts.
static bool scores_hold(const int *cho_score, int nmoves, int n, int lo, int hi) {
    if (n <= 0 || nmoves < n)
        return false;
    for (int i = nmoves - n; i < nmoves; i++)
        if (cho_score[i] == SCORE_NONE || cho_score[i] < lo || cho_score[i] > hi)
            return false;
    return true;
}

// Ends the game by adjudication when the engines' scores agree (Adjudication); true then.
static bool adjudicate(const GameSetup *g, const int *cho_score, GameOutcome *out) {
    const Adjudication *a = g->adjudicate;
    int n = out->nmoves, plies = 2 * a->resign_moves;
    for (int s = 0; s < SIDE_NB && a->resign_moves > 0; s++) {
        int lo = s == CHO ? a->resign_score : INT32_MIN + 1;
        int hi = s == CHO ? INT32_MAX : -a->resign_score;
        if (scores_hold(cho_score, n, plies, lo, hi)) {
            out->winner = (Side)s;
            out->reason = REASON_RESIGN;
            snprintf(out->detail, sizeof out->detail,
                     "adjudication: %s resigns, both engines scored %s at least %d cp for %d "
                     "moves",
                     side_name(g, (Side)!s), side_name(g, (Side)s), a->resign_score,
                     a->resign_moves);
            return true;
        }
    }
    if (a->draw_moves > 0 && n >= a->draw_after &&
        scores_hold(cho_score, n, 2 * a->draw_moves, -a->draw_score, a->draw_score)) {
        out->draw = true;
        out->winner = CHO;
        out->reason = REASON_ADJUDICATION;
        snprintf(out->detail, sizeof out->detail,
                 "adjudication: drawn, both engines scored within %d cp for %d moves",
                 a->draw_score, a->draw_moves);
        return true;
    }
    return false;
}

// After stm played: with ponder on, the position with the reply it predicted (legal, the game
// going on) and `go ponder` with the clocks; true when a ponder search was started.
static bool start_ponder(const GameSetup *g, const Clock clk[SIDE_NB], Side stm, Board *b,
                         GameOutcome *out, const char *text, Move *predicted) {
    GameResult res;
    if (!g->ponder[stm] || !text[0] || rules_game_over(b, &res) ||
        move_parse_uci(b, text, predicted, NULL) != STATUS_OK)
        return false;
    char cmd[ENGINE_LINE_MAX], go[256];
    position_command(g, out, cmd, sizeof cmd);
    size_t n = strlen(cmd);
    snprintf(cmd + n, sizeof cmd - n, "%s%s", out->nmoves ? " " : " moves ", text);
    go_command(g, clk, stm, go, sizeof go);
    char ponder_go[sizeof go + 8];
    snprintf(ponder_go, sizeof ponder_go, "go ponder%s", go + 2);
    if (!child_send(g->engine[stm], cmd) || !child_send(g->engine[stm], ponder_go))
        return false;
    out->ponders[stm]++;
    return true;
}

// The game is over: a side still pondering is stopped and its answer dropped, so that it meets
// the next game idle (a failure shows there, at its `isready`).
static void stop_ponders(const GameSetup *g, const bool pondering[SIDE_NB]) {
    char line[ENGINE_LINE_MAX];
    for (int s = 0; s < SIDE_NB; s++) {
        if (!pondering[s] || !child_send(g->engine[s], "stop"))
            continue;
        int64_t deadline = timeman_now_ms() + g->watchdog;
        while (child_read_line(g->engine[s], line, sizeof line, deadline) == CHILD_LINE &&
               !(strncmp(line, "bestmove", 8) == 0 && (line[8] == ' ' || line[8] == '\0')))
            ;
    }
}

static void play_game(const GameSetup *g, Board *b, GameOutcome *out, bool pondering[SIDE_NB]);

void match_play_game(const GameSetup *g, Board *board, GameOutcome *out) {
    bool pondering[SIDE_NB] = {false, false};
    play_game(g, board, out, pondering);
    stop_ponders(g, pondering);
}

static void play_game(const GameSetup *g, Board *b, GameOutcome *out, bool pondering[SIDE_NB]) {
    memset(out, 0, sizeof *out);
    fen_parse_variant(b, variant_or_default(g->variant), g->fen, NULL);
    Clock clk[SIDE_NB];
    clocks_init(g, clk);
    GameResult res;
    int cho_score[GAME_MAX_MOVES]; // each ply's reported score, from Cho's view
    Move predicted[SIDE_NB] = {MOVE_NONE, MOVE_NONE};
    while (!rules_game_over(b, &res)) {
        if (out->nmoves >= GAME_PLY_CAP) { // adjudicated: see GAME_PLY_CAP
            out->draw = true;
            out->winner = CHO;
            out->reason = REASON_ADJUDICATION;
            snprintf(out->detail, sizeof out->detail, "adjudication: drawn at the %d-ply cap",
                     GAME_PLY_CAP);
            return;
        }
        if ((g->stop[0] && atomic_load(g->stop[0])) || (g->stop[1] && atomic_load(g->stop[1]))) {
            out->aborted = true;
            return;
        }
        Side stm = b->side;
        char best[32], ponder[32], why[160];
        MoveInfo info;
        PonderEnd pend = !pondering[stm] ? PONDER_NONE
                         : out->nmoves && out->moves[out->nmoves - 1] == predicted[stm]
                             ? PONDER_HIT
                             : PONDER_MISS;
        pondering[stm] = false;
        if (!ask_move(g, clk, stm, out, pend, best, ponder, &info))
            return;
        int score = info.score;
        Move m;
        ErrorInfo err;
        if (move_parse_uci(b, best, &m, &err) != STATUS_OK) {
            snprintf(why, sizeof why, "illegal move \"%s\": %.80s", best, err.msg);
            forfeit(g, out, stm, REASON_ILLEGAL_MOVE, why);
            return;
        }
        board_make(b, m);
        cho_score[out->nmoves] = score == SCORE_NONE || stm == CHO ? score : -score;
        out->info[out->nmoves] = info;
        out->moves[out->nmoves++] = m;
        pondering[stm] = start_ponder(g, clk, stm, b, out, ponder, &predicted[stm]);
        // Adjudicated only while the rules leave the game going: a mate on the board stands.
        if (g->adjudicate && !rules_game_over(b, &res) && adjudicate(g, cho_score, out))
            return;
    }
    out->draw = res.draw;
    out->winner = res.winner;
    out->reason = res.reason;
    out->points_half[CHO] = res.points_half[CHO];
    out->points_half[HAN] = res.points_half[HAN];
    describe_end(g, &res, out);
}
