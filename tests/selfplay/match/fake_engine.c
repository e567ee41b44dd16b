// SPDX-License-Identifier: MIT
// A small UCI engine for the match tool's tests: plays a legal move chosen from the position's
// Zobrist key (so games are reproducible), or misbehaves on purpose.
// Usage: fake_engine MODE [N [PIDFILE]] — MODE good|crash|hang|hangchild|illegal|garbage|none|
// slow; the fault starts at the (N+1)-th `go` (default 0: the first). slow sleeps N ms before
// each move. hangchild forks a child that sleeps, writes its pid to PIDFILE, and hangs (an
// engine run by a script whose helper outlives it unless the whole group is killed).
// Unknown options are refused ("No such option: X"). FAKE_ENGINE_PIDFILE in the environment:
// the engine appends its pid to that file at start. FAKE_ENGINE_VARIANTS: the values of its
// UCI_Variant combo, space-separated, the first the default (unset: "janggi"; empty: no
// UCI_Variant option at all). FAKE_ENGINE_AFFINITY: at each `go` the engine appends its pid and
// the CPUs it may run on ("1234 0,1") to that file (hansu-match --affinity). Until told a variant
// other than janggi is not its game, it plays a chess move (as Fairy-Stockfish plays chess when not
// told janggi).
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <unistd.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"

// Loads "position fen F [moves ...]" or "position startpos [moves ...]" into b.
static void set_position(Board *b, char *line) {
    line[strcspn(line, "\r\n")] = '\0';
    char *moves = strstr(line, " moves ");
    if (moves)
        *moves = '\0';
    if (strncmp(line, "position fen ", 13) == 0)
        fen_parse(b, line + 13, NULL);
    else
        fen_parse(b, FEN_START, NULL);
    if (!moves)
        return;
    for (char *tok = strtok(moves + 7, " \n"); tok; tok = strtok(NULL, " \n")) {
        Move m;
        if (move_parse_uci(b, tok, &m, NULL) != STATUS_OK)
            return;
        board_make(b, m);
    }
}

// A legal move other than the pass when there is one, picked by the position's key.
static Move pick_move(Board *b) {
    MoveList list, moves = {.count = 0};
    movegen_legal(b, &list);
    for (int i = 0; i < list.count; i++)
        if (!move_is_pass(list.moves[i]))
            moves.moves[moves.count++] = list.moves[i];
    if (moves.count == 0)
        return list.count ? list.moves[0] : MOVE_NONE;
    uint64_t k = board_key(b) * 0x9E3779B97F4A7C15ull;
    return moves.moves[(k >> 33) % (uint64_t)moves.count];
}

// The UCI_Variant combo's values ("" : no such option) and the variant now set.
typedef struct Variants {
    const char *offered;
    char current[64];
} Variants;

// True when value is one of the words of list.
static bool in_list(const char *list, const char *value) {
    size_t n = strlen(value);
    for (const char *p = list; *p; p += strcspn(p, " "), p += *p == ' ')
        if (n > 0 && strncasecmp(p, value, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

// "setoption name NAME value V": the options it offers are taken silently, any other is
// refused as Stockfish and Fairy-Stockfish refuse it ("No such option: NAME").
static void set_option(char *line, Variants *v) {
    // Use NNUE and EvalFile: Hansu's, which scripts/train names for every Hansu engine.
    static const char *const known[] = {"Hash", "Threads", "Use NNUE", "EvalFile"};
    line[strcspn(line, "\r\n")] = '\0';
    char *name = strstr(line, " name ");
    if (!name)
        return;
    name += 6;
    char *value = strstr(name, " value ");
    if (value)
        *value = '\0';
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcasecmp(name, known[i]) == 0)
            return;
    if (strcasecmp(name, "UCI_Variant") == 0 && v->offered[0]) {
        if (value && in_list(v->offered, value + 7))
            snprintf(v->current, sizeof v->current, "%s", value + 7);
        else
            printf("info string error: UCI_Variant %s is not offered\n", value ? value + 7 : "");
        return;
    }
    printf("No such option: %s\n", name);
}

// The reply to `uci`: the UCI_Variant combo when it has one.
static void say_uci(const char *mode, const Variants *v) {
    printf("id name fake-%s\noption name Hash type spin default 16 min 1 max 1024\n"
           "option name Threads type spin default 1 min 1 max 1\n",
           mode);
    if (v->offered[0]) {
        printf("option name UCI_Variant type combo default %s", v->current);
        for (const char *p = v->offered; *p; p += strcspn(p, " "), p += *p == ' ')
            printf(" var %.*s", (int)strcspn(p, " "), p);
        printf("\n");
    }
    printf("uciok\n");
}

// The hangchild fault: a sleeping child whose pid goes to pidfile, then a hang.
static void hang_with_child(const char *pidfile) {
    pid_t pid = fork();
    if (pid == 0)
        for (;;)
            pause();
    FILE *f = pidfile ? fopen(pidfile, "w") : NULL;
    if (f) {
        fprintf(f, "%d\n", (int)pid);
        fclose(f);
    }
    for (;;)
        pause();
}

static void go(Board *b, const char *mode, int n, int *gos, const char *pidfile,
               const Variants *v) {
    bool fault = (*gos)++ >= n;
    char mv[MOVE_STR_LEN];
    if (v->offered[0] && strcasecmp(v->current, "janggi") != 0)
        printf("bestmove e2e4\n"); // another game than janggi: its move is no janggi move
    else if (strcmp(mode, "slow") == 0)
        usleep((useconds_t)n * 1000);
    else if (fault && strcmp(mode, "crash") == 0)
        abort();
    else if (fault && strcmp(mode, "hang") == 0)
        for (;;)
            pause();
    else if (fault && strcmp(mode, "hangchild") == 0)
        hang_with_child(pidfile);
    if (fault && strcmp(mode, "illegal") == 0)
        printf("bestmove a1i10\n");
    else if (fault && strcmp(mode, "garbage") == 0)
        printf("\x01\x02 nonsense\ninfo depth zz\nbestmove \xff\xfe!!\n");
    else if (fault && strcmp(mode, "none") == 0)
        printf("bestmove (none)\n");
    else {
        move_to_uci(pick_move(b), mv);
        printf("info depth 1 score cp 0 nodes 1\nbestmove %s\n", mv);
    }
}

// FAKE_ENGINE_AFFINITY: "PID CPU,CPU,...", the CPUs this engine may run on now.
static void log_affinity(void) {
    const char *path = getenv("FAKE_ENGINE_AFFINITY");
    cpu_set_t set;
    FILE *f = path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "%d ", (int)getpid());
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0, first = 1; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set)) {
                fprintf(f, first ? "%d" : ",%d", c);
                first = 0;
            }
    fprintf(f, "\n");
    fclose(f);
}

int main(int argc, char **argv) {
    static Board b;
    const char *mode = argc > 1 ? argv[1] : "good";
    int n = argc > 2 ? atoi(argv[2]) : 0, gos = 0;
    static char line[1 << 16];
    engine_init();
    // FAKE_ENGINE_PIDFILE: each engine appends its pid, so a test can check it is gone.
    const char *pids = getenv("FAKE_ENGINE_PIDFILE");
    FILE *pf = pids ? fopen(pids, "a") : NULL;
    if (pf) {
        fprintf(pf, "%d\n", (int)getpid());
        fclose(pf);
    }
    const char *offered = getenv("FAKE_ENGINE_VARIANTS");
    Variants v = {.offered = offered ? offered : "janggi"};
    snprintf(v.current, sizeof v.current, "%.*s", (int)strcspn(v.offered, " "), v.offered);
    fen_parse(&b, FEN_START, NULL);
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "uci", 3) == 0 && (line[3] == '\n' || line[3] == '\r'))
            say_uci(mode, &v);
        else if (strncmp(line, "setoption ", 10) == 0)
            set_option(line, &v);
        else if (strncmp(line, "isready", 7) == 0)
            printf("readyok\n");
        else if (strncmp(line, "position", 8) == 0)
            set_position(&b, line);
        else if (strncmp(line, "go", 2) == 0) {
            log_affinity();
            go(&b, mode, n, &gos, argc > 3 ? argv[3] : NULL, &v);
        } else if (strncmp(line, "quit", 4) == 0)
            break;
        fflush(stdout);
    }
    return 0;
}
