// SPDX-License-Identifier: MIT
// The match scheduler: openings, workers playing game pairs, the tally, PGN and state file;
// under MPI the pairs split over the ranks, rank 0 booking them all (docs/cluster.md).
#define _GNU_SOURCE
#include "match.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "cluster.h"
#include "engine.h"
#include "match_game.h"
#include "match_json.h"
#include "movegen.h"
#include "openings.h"
#include "pgn.h"
#include "prng.h"
#include "rules.h"
#include "run_lock.h"
#include "sha256.h"
#include "timeman.h"
#include "variant.h"

typedef struct Opening {
    char fen[FEN_BUFFER];
    char name[48];
} Opening;

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
    MatchProgressFn progress;
    void *progress_arg;
    char date[16];
    int rank, ranks; // this process's MPI rank (0-based) and the number of ranks; 0 of 1
    int running;     // local workers still running
    char **outbox;   // rank > 0: finished pairs not yet sent to rank 0 (messages below)
    size_t *outbox_len;
    int noutbox, outbox_cap;
} Match;

// Messages between ranks. To rank 0, one tag, so they arrive in the order sent: a finished
// pair (PairMsg, then the PGN text of its two games) and, last, a rank's end (DoneMsg). From
// rank 0 to each other rank exactly one stop (one byte): when the match stops, or at its end.
enum { TAG_TO_ROOT = 1501, TAG_STOP = 1502, MSG_PAIR = 1, MSG_DONE = 2 };

typedef struct PairMsg {
    int32_t type, pair;
    int32_t winner[2], reason[2], plies[2];
} PairMsg;

typedef struct DoneMsg {
    int32_t type, status;
    int32_t interrupted; // the rank was stopped by its own signal
    long restarts[2];
    ErrorInfo err;
} DoneMsg;

Status match_parse_limit(const char *text, Limits *out, ErrorInfo *err) {
    Limits l = {0};
    double base, inc, secs;
    int periods;
    char tail;
    if (sscanf(text, "nodes=%ld%c", &l.nodes, &tail) == 1 && l.nodes > 0) {
        l.kind = LIMIT_NODES;
    } else if (sscanf(text, "depth=%d%c", &l.depth, &tail) == 1 && l.depth > 0) {
        l.kind = LIMIT_DEPTH;
    } else if (sscanf(text, "movetime=%lf%c", &secs, &tail) == 1 && secs > 0) {
        l.kind = LIMIT_MOVETIME;
        l.movetime = (int64_t)secs;
    } else if (sscanf(text, "tc=%lf+%lf%c", &base, &inc, &tail) == 2 && base > 0 && inc >= 0) {
        l.kind = LIMIT_CLOCK;
        l.base = (int64_t)(base * 1000.0);
        l.inc = (int64_t)(inc * 1000.0);
    } else if (sscanf(text, "byoyomi=%lf+%dx%lf%c", &base, &periods, &secs, &tail) == 3 &&
               base >= 0 && periods > 0 && secs > 0) {
        l.kind = LIMIT_CLOCK;
        l.base = (int64_t)(base * 1000.0);
        l.byoyomi = (int64_t)(secs * 1000.0);
        l.periods = periods;
    } else {
        return error_set(err, STATUS_SYNTAX,
                         "limit \"%s\": expected nodes=N, depth=D, movetime=MS, tc=BASE+INC or "
                         "byoyomi=BASE+PERIODSxSECS",
                         text);
    }
    *out = l;
    return STATUS_OK;
}

// The variant's start positions (janggi: the 16 formation pairings; a variant without
// formations: its start position), or the FENs of the openings file (openings.h: each checked
// by the rules core as a position of the match's variant).
static Status load_openings(Match *m, ErrorInfo *err) {
    Board *b = malloc(sizeof *b);
    if (!b)
        return error_set(err, STATUS_NOMEM, "openings: out of memory");
    Status st = STATUS_OK;
    const char *path = m->cfg->openings_path;
    const Variant *v = m->variant;
    const int pairings = v->formation_count ? variant_pairing_count(v) : 1;
    m->openings = calloc(path ? OPENINGS_MAX : (size_t)pairings, sizeof *m->openings);
    if (!m->openings) {
        st = error_set(err, STATUS_NOMEM, "openings: out of memory");
        goto cleanup;
    }
    if (!path && v->formation_count == 0) {
        fen_parse_variant(b, v, v->start_fen, NULL);
        fen_write(b, m->openings[0].fen, FEN_BUFFER);
        snprintf(m->openings[0].name, sizeof m->openings[0].name, "start");
        m->nopenings = 1;
        goto cleanup;
    }
    if (!path) {
        for (int p = 0; p < pairings; p++) {
            variant_setup_pairing(v, b, p);
            fen_write(b, m->openings[p].fen, FEN_BUFFER);
            snprintf(m->openings[p].name, sizeof m->openings[p].name, "%s vs %s",
                     v->formation_names[variant_pairing_cho(v, p)],
                     v->formation_names[variant_pairing_han(v, p)]);
        }
        m->nopenings = pairings;
        goto cleanup;
    }
    Openings file;
    if ((st = openings_load(path, v, &file, err)) != STATUS_OK)
        goto cleanup;
    for (int i = 0; i < file.count; i++) {
        Opening *o = &m->openings[m->nopenings++];
        snprintf(o->fen, sizeof o->fen, "%s", file.fen[i]);
        snprintf(o->name, sizeof o->name, "%s:%d", "line", file.line[i]);
    }
    openings_free(&file);
cleanup:
    free(b);
    return st;
}

// The start FEN of pair k: its opening plus the seeded random plies (no passes), the same
// for both games of the pair. Stops early rather than reach a finished game.
static void pair_start_fen(const Match *m, int k, Board *b, char fen[FEN_BUFFER]) {
    const Opening *o = &m->openings[k % m->nopenings];
    fen_parse_variant(b, m->variant, o->fen, NULL);
    uint64_t rng = m->cfg->seed ^ ((uint64_t)k * 0xD1B54A32D192ED03ull);
    for (int i = 0; i < m->cfg->random_plies; i++) {
        MoveList list, moves = {.count = 0};
        movegen_legal(b, &list);
        for (int j = 0; j < list.count; j++)
            if (!move_is_pass(list.moves[j]))
                moves.moves[moves.count++] = list.moves[j];
        if (moves.count == 0)
            break;
        board_make(b, moves.moves[prng_next(&rng) % (uint64_t)moves.count]);
        GameResult res;
        if (rules_game_over(b, &res)) {
            board_unmake(b);
            break;
        }
    }
    fen_write(b, fen, FEN_BUFFER);
}

// One game's result as the tally and the state file keep it.
typedef struct GameRecord {
    int winner; // engine index 0/1, GAME_DRAWN for a draw
    EndReason reason;
    int plies;
} GameRecord;

enum { GAME_DRAWN = -1 };

// Format 3: each pair's line ends with the PGN's length and SHA-256 at that pair (format 2
// had the length alone; its files are refused: state_load).
static const char STATE_MAGIC[] = "hansu-match-state 3";
static const char STATE_MAGIC_2[] = "hansu-match-state 2";

// The line that names the match in the state file; a resume must find the same line.
static void state_identity(const Match *m, char *out, size_t len) {
    const MatchConfig *c = m->cfg;
    const Limits *l = c->limits;
    snprintf(out, len,
             "match games=%d openings=%d random_plies=%d seed=%llu engines=%s,%s "
             "limits=%d/%ld/%d/%lld/%lld/%lld/%lld/%d,%d/%ld/%d/%lld/%lld/%lld/%lld/%d",
             c->games, m->nopenings, c->random_plies, (unsigned long long)c->seed,
             c->engine[0].name, c->engine[1].name, l[0].kind, l[0].nodes, l[0].depth,
             (long long)l[0].movetime, (long long)l[0].base, (long long)l[0].inc,
             (long long)l[0].byoyomi, l[0].periods, l[1].kind, l[1].nodes, l[1].depth,
             (long long)l[1].movetime, (long long)l[1].base, (long long)l[1].inc,
             (long long)l[1].byoyomi, l[1].periods);
    // A variant other than janggi is part of the match (janggi's identity line is unchanged).
    if (m->variant != variant_default()) {
        size_t n = strlen(out);
        snprintf(out + n, len - n, " variant=%s", m->variant->name);
    }
}

// Adds a finished pair to the tally (game 0: engine 0 is Cho; game 1: engine 1 is Cho).
static void tally_pair(Match *m, int k, const GameRecord g[2]) {
    MatchTally *t = &m->tally;
    m->done[k] = true;
    t->pairs_done++;
    int half = 0; // engine 0's half points of the pair: a win 2, a draw 1
    for (int i = 0; i < 2; i++) {
        t->games++;
        if (g[i].winner == GAME_DRAWN) {
            t->draws++;
            t->draws_by[g[i].reason]++;
            half += 1;
            continue;
        }
        t->wins[g[i].winner]++;
        t->wins_by[g[i].winner][g[i].reason]++;
        t->cho_wins += g[i].winner == i; // the Cho engine of game i is engine i
        half += g[i].winner == 0 ? 2 : 0;
    }
    t->penta[half]++;
    if (m->cfg->sprt_enabled) {
        t->llr = stats_sprt_llr_penta(&m->cfg->sprt, t->penta);
        t->sprt_result = stats_sprt_decide(&m->cfg->sprt, t->llr);
    }
}

// Reads the finished pairs of an earlier run of the same match.
static Status state_load(Match *m, ErrorInfo *err) {
    const char *path = m->cfg->state_path;
    FILE *f = fopen(path, "r");
    if (!f)
        return error_set(err, STATUS_IO, "resume: state file %s: %s", path, strerror(errno));
    char line[640], ident[512];
    Status st = STATUS_OK;
    state_identity(m, ident, sizeof ident);
    bool head = fgets(line, sizeof line, f) != NULL;
    if (head && strncmp(line, STATE_MAGIC_2, strlen(STATE_MAGIC_2)) == 0) {
        st = error_set(err, STATUS_FORMAT,
                       "resume: %s is the state file of an older hansu-match (%s: no digest of "
                       "the PGN to check it by); finish that match with the hansu-match that "
                       "began it, or start afresh with another --pgn",
                       path, STATE_MAGIC_2);
        goto cleanup;
    }
    if (!head || strncmp(line, STATE_MAGIC, strlen(STATE_MAGIC)) != 0 ||
        !fgets(line, sizeof line, f) || (line[strcspn(line, "\n")] = '\0', strcmp(line, ident))) {
        st = error_set(err, STATUS_FORMAT, "resume: %s is not the state of this match (%s)", path,
                       ident);
        goto cleanup;
    }
    for (int lineno = 3; fgets(line, sizeof line, f); lineno++) {
        int k;
        char r0[32], r1[32];
        GameRecord g[2];
        long long pgn_end;
        char digest[72];
        if (sscanf(line, "pair %d %d %31s %d %d %31s %d %lld %71s", &k, &g[0].winner, r0,
                   &g[0].plies, &g[1].winner, r1, &g[1].plies, &pgn_end, digest) != 9 ||
            strlen(digest) != 64 || strspn(digest, "0123456789abcdef") != 64 ||
            pgn_end < m->pgn_end || k < 0 || k >= m->tally.pairs_total || m->done[k] ||
            g[0].winner > 1 || g[1].winner > 1 || g[0].winner < GAME_DRAWN ||
            g[1].winner < GAME_DRAWN || !(g[0].reason = rules_reason_parse(r0)) ||
            !(g[1].reason = rules_reason_parse(r1))) {
            if (!strchr(line, '\n'))
                break; // a last line cut short by the interruption: that pair is replayed
            st = error_set(err, STATUS_FORMAT, "resume: %s:%d: bad line \"%.60s\"", path, lineno,
                           line);
            goto cleanup;
        }
        tally_pair(m, k, g);
        m->tally.pairs_resumed++;
        m->pgn_end = pgn_end; // the lines are written in the PGN's order: the last one counts
        memcpy(m->pgn_digest, digest, sizeof m->pgn_digest);
    }
cleanup:
    fclose(f);
    return st;
}

// Bytes in the file at path; 0 when it does not exist. False (err set) on another error.
static bool file_size(const char *path, long long *size, ErrorInfo *err) {
    struct stat sb;
    *size = 0;
    if (stat(path, &sb) == 0) {
        *size = (long long)sb.st_size;
        return true;
    }
    if (errno == ENOENT)
        return true;
    error_set(err, STATUS_IO, "%s: %s", path, strerror(errno));
    return false;
}

// Without --resume the PGN and the state file must be new or empty: writing "w" over a
// finished match would replace its games without a word.
static Status check_fresh(const MatchConfig *c, ErrorInfo *err) {
    const char *paths[2] = {c->pgn_path, c->state_path};
    const char *what[2] = {"PGN", "state file"}, *flag[2] = {"--pgn", "--state"};
    for (int i = 0; i < 2; i++) {
        long long size;
        if (paths[i] && !file_size(paths[i], &size, err))
            return STATUS_IO;
        if (paths[i] && size > 0)
            return error_set(err, STATUS_IO,
                             "%s %s already holds a match (%lld bytes): give "
                             "--resume to continue it, or another %s",
                             what[i], paths[i], size, flag[i]);
    }
    return STATUS_OK;
}

// SHA-256 of the first len bytes of the file at path into *h (the hash stays open: the match
// goes on adding what it appends).
static Status hash_prefix(const char *path, long long len, Sha256 *h, ErrorInfo *err) {
    if (len == 0)
        return STATUS_OK; // nothing to read (the file may not exist yet)
    FILE *f = fopen(path, "rb");
    if (!f)
        return error_set(err, STATUS_IO, "PGN %s: %s", path, strerror(errno));
    char buf[1 << 16];
    for (long long left = len; left > 0;) {
        size_t want = left < (long long)sizeof buf ? (size_t)left : sizeof buf;
        size_t got = fread(buf, 1, want, f);
        sha256_update(h, buf, got);
        left -= (long long)got;
        if (got < want) {
            fclose(f);
            return error_set(err, STATUS_IO, "PGN %s: read failed", path);
        }
    }
    fclose(f);
    return STATUS_OK;
}

// On resume the PGN must begin with exactly the bytes the state file records for its finished
// pairs: as many (shorter, it was cut or replaced: appending would leave a hole and lose games
// the totals still count), and the same (SHA-256: an edit, even of the same size, would make
// the PGN disagree with the totals, and one that shifts the bytes would cut a game in two). A
// longer PGN is what a hard kill leaves (a pair written, its state line not): that tail is cut
// away by open_outputs.
static Status check_pgn_prefix(Match *m, ErrorInfo *err) {
    const MatchConfig *c = m->cfg;
    long long size;
    if (!c->pgn_path || !file_size(c->pgn_path, &size, err))
        return c->pgn_path ? STATUS_IO : STATUS_OK;
    if (size < m->pgn_end)
        return error_set(err, STATUS_FORMAT,
                         "resume: PGN %s has %lld bytes, but state file %s "
                         "records %lld bytes of finished pairs (%lld bytes missing); restore the "
                         "PGN or start afresh with another --pgn",
                         c->pgn_path, size, c->state_path, m->pgn_end, m->pgn_end - size);
    Sha256 h;
    sha256_init(&h);
    Status st = hash_prefix(c->pgn_path, m->pgn_end, &h, err);
    if (st != STATUS_OK)
        return st;
    Sha256 copy = h;
    char hex[65];
    sha256_final(&copy, hex);
    if (strcmp(hex, m->pgn_digest) != 0)
        return error_set(err, STATUS_FORMAT,
                         "resume: PGN %s is not what state file %s records: its first %lld bytes "
                         "(the finished pairs) differ (SHA-256 %.12s..., recorded %.12s...), so "
                         "it was edited; restore the PGN or start afresh with another --pgn",
                         c->pgn_path, c->state_path, m->pgn_end, hex, m->pgn_digest);
    m->pgn_hash = h;
    return STATUS_OK;
}

// A file can be written at path (flag names it in the message): not a folder, and opened for
// appending when it exists, or created (and removed again) in its folder when it does not.
static Status check_writable(const char *flag, const char *path, ErrorInfo *err) {
    struct stat sb;
    bool exists = stat(path, &sb) == 0;
    if (!exists && errno != ENOENT)
        return error_set(err, STATUS_IO, "%s %s: %s", flag, path, strerror(errno));
    if (exists && S_ISDIR(sb.st_mode))
        return error_set(err, STATUS_IO, "%s %s: a folder, not a file", flag, path);
    int fd = exists ? open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
                    : open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return error_set(err, STATUS_IO, "%s %s: cannot be written (%s)", flag, path,
                         strerror(errno));
    close(fd);
    if (!exists)
        unlink(path);
    return STATUS_OK;
}

// Every file the match writes can be written, checked before the engines start: a JSON that
// cannot be written used to be found after the first pair.
static Status check_outputs(const MatchConfig *c, ErrorInfo *err) {
    const char *paths[3] = {c->pgn_path, c->state_path, c->json_path};
    const char *flags[3] = {"--pgn", "--state", "--json"};
    for (int i = 0; i < 3; i++) {
        Status st = paths[i] ? check_writable(flags[i], paths[i], err) : STATUS_OK;
        if (st != STATUS_OK)
            return st;
    }
    return STATUS_OK;
}

// Opens the PGN and the state file: fresh, or for appending on resume.
static Status open_outputs(Match *m, ErrorInfo *err) {
    const MatchConfig *c = m->cfg;
    const char *mode = c->resume ? "a" : "w";
    // Games written after the last recorded pair (a pair cut off by a hard kill) are cut
    // away, so the PGN holds each finished pair exactly once.
    if (c->pgn_path && c->resume && truncate(c->pgn_path, (off_t)m->pgn_end) != 0 &&
        errno != ENOENT)
        return error_set(err, STATUS_IO, "PGN %s: truncate: %s", c->pgn_path, strerror(errno));
    if (c->pgn_path && !(m->pgn = fopen(c->pgn_path, mode)))
        return error_set(err, STATUS_IO, "PGN %s: %s", c->pgn_path, strerror(errno));
    if (!c->state_path)
        return STATUS_OK;
    if (!(m->state = fopen(c->state_path, mode)))
        return error_set(err, STATUS_IO, "state %s: %s", c->state_path, strerror(errno));
    if (!c->resume) {
        char ident[512];
        state_identity(m, ident, sizeof ident);
        fprintf(m->state, "%s\n%s\n", STATE_MAGIC, ident);
        fflush(m->state);
    }
    return STATUS_OK;
}

static void time_control_text(const Limits *l, char *out, size_t len) {
    if (l->kind == LIMIT_CLOCK && l->byoyomi > 0)
        snprintf(out, len, "%g+%dx%g", l->base / 1000.0, l->periods, l->byoyomi / 1000.0);
    else if (l->kind == LIMIT_CLOCK)
        snprintf(out, len, "%g+%g", l->base / 1000.0, l->inc / 1000.0);
    else if (l->kind == LIMIT_MOVETIME)
        snprintf(out, len, "1/%g", l->movetime / 1000.0);
    else
        snprintf(out, len, "-");
}

// Writes both games of pair k as PGN to f (the PGN file, or a rank's message to rank 0).
static Status write_pgn_pair(const Match *m, FILE *f, int k, const char *fen,
                             const GameOutcome o[2], ErrorInfo *err) {
    const MatchConfig *c = m->cfg;
    char tc[48];
    time_control_text(&c->limits[0], tc, sizeof tc);
    for (int i = 0; f && i < 2; i++) {
        PgnGame p = {.event = c->event,
                     .site = c->site,
                     .date = m->date,
                     .round = k + 1,
                     .white = c->engine[i].name,
                     .black = c->engine[1 - i].name,
                     .fen = fen,
                     .opening = m->openings[k % m->nopenings].name,
                     .time_control = tc,
                     .moves = o[i].moves,
                     .nmoves = o[i].nmoves,
                     .variant = m->variant->name,
                     .winner = o[i].winner,
                     .draw = o[i].draw,
                     .reason = o[i].reason,
                     .detail = o[i].detail};
        Status st = pgn_write(f, &p, err);
        if (st != STATUS_OK)
            return st;
    }
    return STATUS_OK;
}

// The PGN text of pair k's two games in *text (malloc'd, *len bytes; none without a PGN).
static Status pair_pgn_text(const Match *m, int k, const char *fen, const GameOutcome o[2],
                            char **text, size_t *len, ErrorInfo *err) {
    *text = NULL;
    *len = 0;
    FILE *f = open_memstream(text, len);
    if (!f)
        return error_set(err, STATUS_NOMEM, "match: out of memory");
    Status st = write_pgn_pair(m, m->cfg->pgn_path ? f : NULL, k, fen, o, err);
    if (fclose(f) != 0 && st == STATUS_OK)
        st = error_set(err, STATUS_NOMEM, "match: out of memory");
    return st;
}

// The hex digest of the PGN's bytes so far, as the next state line records it.
static void update_pgn_digest(Match *m) {
    Sha256 copy = m->pgn_hash;
    sha256_final(&copy, m->pgn_digest);
}

// Appends a pair's PGN text to the PGN (under the match's lock), its length and SHA-256
// carried on for the state file.
static Status append_pgn(Match *m, const char *text, size_t len, ErrorInfo *err) {
    if (!m->pgn)
        return STATUS_OK;
    if (fwrite(text, 1, len, m->pgn) != len || fflush(m->pgn) != 0)
        return error_set(err, STATUS_IO, "PGN %s: write failed (%s)", m->cfg->pgn_path,
                         strerror(errno));
    sha256_update(&m->pgn_hash, text, len);
    m->pgn_end += (long long)len;
    update_pgn_digest(m);
    return STATUS_OK;
}

// Writes pair k's line to the state file, after its games are in the PGN: a pair counts as
// finished only when its games are there.
static Status write_state_line(Match *m, int k, const GameRecord g[2], ErrorInfo *err) {
    const MatchConfig *c = m->cfg;
    if (m->state) {
        fprintf(m->state, "pair %d %d %s %d %d %s %d %lld %s\n", k, g[0].winner,
                rules_reason_name(g[0].reason), g[0].plies, g[1].winner,
                rules_reason_name(g[1].reason), g[1].plies, m->pgn_end, m->pgn_digest);
        if (fflush(m->state) != 0)
            return error_set(err, STATUS_IO, "state %s: write failed", c->state_path);
    }
    return STATUS_OK;
}

// Per-worker state: its two engines (indexed by engine, not side) and the abort flag games see.
typedef struct Worker {
    Match *m;
    UciChild *engine[2];
    long restarts[2];
    pthread_t thread;
    Board board;         // the referee's position
    GameOutcome game[2]; // the two games of the current pair
} Worker;

static atomic_bool *external_stop(const Match *m) { return m->cfg->stop; }

static bool should_stop(Match *m) {
    atomic_bool *ext = external_stop(m);
    return (ext && atomic_load(ext)) || m->stopping;
}

// Records a fatal error (the first one wins) and stops the match.
static void fail(Match *m, Status st, const ErrorInfo *err) {
    pthread_mutex_lock(&m->lock);
    if (m->status == STATUS_OK) {
        m->status = st;
        m->err = *err;
    }
    m->stopping = true;
    atomic_store(&m->abort, true);
    pthread_mutex_unlock(&m->lock);
}

// (Re)starts engine i of a worker. False (and the match failed) when it will not start.
static bool restart(Worker *w, int i, bool count) {
    ErrorInfo err;
    child_stop(w->engine[i]);
    w->engine[i] = NULL;
    Status st = child_start(&w->engine[i], &w->m->engine[i], w->m->cfg->start_timeout, &err);
    if (st != STATUS_OK) {
        fail(w->m, st, &err);
        return false;
    }
    w->restarts[i] += count;
    return true;
}

// Plays game i of a pair (engine i is Cho). False when the match must stop.
static bool play_one(Worker *w, const char *fen, int i, GameOutcome *o, GameRecord *g) {
    const MatchConfig *c = w->m->cfg;
    // `ucinewgame` then `isready`, so no clock runs while an engine clears its tables. An
    // engine that cannot even get ready is restarted (the game has not begun: no result).
    for (int e = 0; e < 2; e++)
        if (!(child_send(w->engine[e], "ucinewgame") &&
              child_sync(w->engine[e], timeman_now_ms() + c->start_timeout)) &&
            !restart(w, e, 1))
            return false;
    GameSetup s = {
        .variant = w->m->variant, .fen = fen, .margin = c->margin, .watchdog = c->watchdog};
    s.stop[0] = c->stop;
    s.stop[1] = &w->m->abort;
    for (int side = 0; side < SIDE_NB; side++) {
        int e = side == CHO ? i : 1 - i;
        s.engine[side] = w->engine[e];
        s.limits[side] = &c->limits[e];
    }
    match_play_game(&s, &w->board, o);
    // A game cut short by a stop request is no result, whatever the engines did meanwhile.
    if (o->aborted || (c->stop && atomic_load(c->stop)) || atomic_load(&w->m->abort))
        return false;
    for (int side = 0; side < SIDE_NB; side++)
        if (o->faulty[side] && !restart(w, side == CHO ? i : 1 - i, 1))
            return false;
    *g = (GameRecord){.winner = o->draw            ? GAME_DRAWN
                                : o->winner == CHO ? i
                                                   : 1 - i,
                      .reason = o->reason,
                      .plies = o->nmoves};
    return true;
}

// Hands out the next unfinished pair, or -1.
static int take_pair(Match *m) {
    int k = -1;
    pthread_mutex_lock(&m->lock);
    while (!should_stop(m) && m->next_pair < m->tally.pairs_total && k < 0) {
        if (!m->done[m->next_pair])
            k = m->next_pair;
        m->next_pair += m->ranks; // rank r of R plays the pairs r, r + R, ...
    }
    pthread_mutex_unlock(&m->lock);
    return k;
}

// With the games of pair k in the PGN (st: how that went), books it under the match's lock,
// which it releases: state line, tally, JSON, the stop rules (SPRT, test hook), progress.
static void book_pair(Match *m, int k, const GameRecord g[2], Status st, ErrorInfo *err) {
    if (st == STATUS_OK)
        st = write_state_line(m, k, g, err);
    if (st != STATUS_OK) {
        pthread_mutex_unlock(&m->lock);
        fail(m, st, err);
        return;
    }
    tally_pair(m, k, g);
    m->new_pairs++;
    if (m->cfg->json_path &&
        (st = match_json_write(m->cfg->json_path, m->cfg, &m->tally, err)) != STATUS_OK) {
        pthread_mutex_unlock(&m->lock);
        fail(m, st, err);
        return;
    }
    if (m->tally.sprt_result != SPRT_CONTINUE ||
        (m->cfg->stop_after_pairs > 0 && m->new_pairs >= m->cfg->stop_after_pairs)) {
        m->stopping = true;
        atomic_store(&m->abort, true);
    }
    if (m->progress)
        m->progress(&m->tally, m->cfg, m->progress_arg);
    pthread_mutex_unlock(&m->lock);
}

// A rank other than 0: pair k's result and PGN text, queued for the main thread to send.
static void ship_pair(Match *m, int k, const char *fen, const GameOutcome o[2],
                      const GameRecord g[2]) {
    ErrorInfo err;
    char *text;
    size_t len;
    Status st = pair_pgn_text(m, k, fen, o, &text, &len, &err);
    PairMsg h = {.type = MSG_PAIR, .pair = k};
    for (int i = 0; i < 2; i++)
        h.winner[i] = g[i].winner, h.reason[i] = (int32_t)g[i].reason, h.plies[i] = g[i].plies;
    char *msg = st == STATUS_OK ? malloc(sizeof h + len) : NULL;
    pthread_mutex_lock(&m->lock);
    if (msg && m->noutbox == m->outbox_cap) {
        int cap = m->outbox_cap ? 2 * m->outbox_cap : 16;
        char **b = realloc(m->outbox, sizeof *b * (size_t)cap);
        size_t *l = b ? realloc(m->outbox_len, sizeof *l * (size_t)cap) : NULL;
        m->outbox = b ? b : m->outbox;
        m->outbox_len = l ? l : m->outbox_len;
        m->outbox_cap = b && l ? cap : m->outbox_cap;
    }
    bool queued = msg && m->noutbox < m->outbox_cap;
    if (queued) {
        memcpy(msg, &h, sizeof h);
        memcpy(msg + sizeof h, text, len);
        m->outbox[m->noutbox] = msg;
        m->outbox_len[m->noutbox++] = sizeof h + len;
    }
    pthread_mutex_unlock(&m->lock);
    free(text);
    if (!queued) {
        free(msg);
        if (st == STATUS_OK)
            st = error_set(&err, STATUS_NOMEM, "match: out of memory");
        fail(m, st, &err);
    }
}

// Books a finished pair: PGN, state, tally, progress, and the stop rules (SPRT, test hook);
// on a rank other than 0 it goes to rank 0, which books it.
static void finish_pair(Match *m, int k, const char *fen, const GameOutcome o[2],
                        const GameRecord g[2]) {
    if (m->rank > 0) {
        ship_pair(m, k, fen, o, g);
        return;
    }
    ErrorInfo err;
    char *text;
    size_t len;
    Status st = pair_pgn_text(m, k, fen, o, &text, &len, &err);
    pthread_mutex_lock(&m->lock);
    if (st == STATUS_OK)
        st = append_pgn(m, text, len, &err);
    book_pair(m, k, g, st, &err);
    free(text);
}

static void *worker_main(void *arg) {
    Worker *w = arg;
    Match *m = w->m;
    GameOutcome *o = w->game;
    if (!restart(w, 0, 0) || !restart(w, 1, 0))
        goto cleanup;
    for (int k; (k = take_pair(m)) >= 0;) {
        char fen[FEN_BUFFER];
        GameRecord g[2];
        pair_start_fen(m, k, &w->board, fen);
        if (!play_one(w, fen, 0, &o[0], &g[0]) || !play_one(w, fen, 1, &o[1], &g[1]))
            break;
        finish_pair(m, k, fen, o, g);
    }
cleanup:
    child_stop(w->engine[0]);
    child_stop(w->engine[1]);
    pthread_mutex_lock(&m->lock);
    m->running--;
    pthread_mutex_unlock(&m->lock);
    return NULL;
}

static Status check_config(const MatchConfig *c, ErrorInfo *err) {
    if (c->games < 2 || c->games % 2)
        return error_set(err, STATUS_RANGE, "games %d: must be even and at least 2", c->games);
    if (c->concurrency < 1 || c->concurrency > 64)
        return error_set(err, STATUS_RANGE, "concurrency %d: must be 1..64", c->concurrency);
    // The same bound as self-play: random plies past the ply limit would end every game.
    if (c->random_plies < 0 || c->random_plies > GAME_PLY_LIMIT)
        return error_set(err, STATUS_RANGE, "random-plies %d: must be 0..%d", c->random_plies,
                         GAME_PLY_LIMIT);
    if (c->resume && !c->state_path)
        return error_set(err, STATUS_SYNTAX, "resume needs a state file");
    for (int i = 0; i < 2; i++) {
        const Limits *l = &c->limits[i];
        if (!c->engine[i].cmd[0])
            return error_set(err, STATUS_SYNTAX, "engine %d: no cmd=", i + 1);
        bool ok = l->kind == LIMIT_NODES      ? l->nodes > 0
                  : l->kind == LIMIT_DEPTH    ? l->depth > 0
                  : l->kind == LIMIT_MOVETIME ? l->movetime > 0
                                              : l->base > 0 || (l->byoyomi > 0 && l->periods > 0);
        if (!ok)
            return error_set(err, STATUS_RANGE, "engine %s: no usable limit", c->engine[i].name);
    }
    return STATUS_OK;
}

// The index of engine e's option.UCI_Variant, or -1.
static int given_variant(const EngineSpec *e) {
    int given = -1;
    for (int k = 0; k < e->noptions; k++)
        if (strcasecmp(e->opt_name[k], "UCI_Variant") == 0)
            given = k;
    return given;
}

// The engines as started: an option.UCI_Variant given must name the match's variant (the
// default one too: a janggi match refuses option.UCI_Variant=xiangqi).
static Status engines_for_variant(Match *m, ErrorInfo *err) {
    for (int i = 0; i < 2; i++) {
        EngineSpec *e = &m->engine[i];
        *e = m->cfg->engine[i];
        int given = given_variant(e);
        if (given >= 0 && strcasecmp(e->opt_value[given], m->variant->name) != 0)
            return error_set(err, STATUS_SYNTAX,
                             "engine %s: option.UCI_Variant=%s, but the match plays %s", e->name,
                             e->opt_value[given], m->variant->name);
    }
    return STATUS_OK;
}

// Starts engine i once, without its options, to read its `uci` reply: an engine whose
// UCI_Variant combo lists the variant is told it (first, as a GUI does: Fairy-Stockfish resets
// its position to the variant's start); one whose combo lacks it is refused; one without the
// option is taken to play the variant natively, and named in a warning.
static Status probe_engine(Match *m, int i, ErrorInfo *err) {
    EngineSpec *e = &m->engine[i], bare = *e;
    bare.noptions = 0;
    UciChild *child = NULL;
    Status st = child_start(&child, &bare, m->cfg->start_timeout, err);
    if (st != STATUS_OK)
        return st;
    const char *name = m->variant->name;
    VariantOffer offer = child_variant_offer(child, name);
    if (offer == VARIANT_OPTION_LACKS)
        st = error_set(err, STATUS_RANGE,
                       "engine %s: its UCI_Variant option does not offer %s (it offers: %.120s)",
                       e->name, name, child_variant_values(child));
    child_stop(child);
    if (st != STATUS_OK || given_variant(e) >= 0)
        return st;
    if (offer == VARIANT_OPTION_NONE) {
        char msg[256];
        snprintf(msg, sizeof msg,
                 "engine %s offers no UCI_Variant option: taken to play %s natively", e->name,
                 name);
        if (m->cfg->warn && m->rank == 0)
            m->cfg->warn(msg, m->cfg->warn_arg);
        return STATUS_OK;
    }
    if (e->noptions == ENGINE_MAX_OPTIONS)
        return error_set(err, STATUS_RANGE, "engine %s: no room for option UCI_Variant", e->name);
    memmove(e->opt_name[1], e->opt_name[0], sizeof e->opt_name[0] * (size_t)e->noptions);
    memmove(e->opt_value[1], e->opt_value[0], sizeof e->opt_value[0] * (size_t)e->noptions);
    snprintf(e->opt_name[0], sizeof e->opt_name[0], "UCI_Variant");
    snprintf(e->opt_value[0], sizeof e->opt_value[0], "%s", name);
    e->noptions++;
    return STATUS_OK;
}

// The writer lock beside the PGN ("<pgn>.lock"), or beside the state file when there is no
// PGN; none when the match writes no file.
static Status take_lock(const MatchConfig *c, RunLock **lock, ErrorInfo *err) {
    const char *target = c->pgn_path ? c->pgn_path : c->state_path;
    *lock = NULL;
    if (!target)
        return STATUS_OK;
    char path[4200];
    if (snprintf(path, sizeof path, "%s.lock", target) >= (int)sizeof path)
        return error_set(err, STATUS_RANGE, "%.200s...: path too long", target);
    return run_lock_take(path, lock, err);
}

static int workers_running(Match *m) {
    pthread_mutex_lock(&m->lock);
    int n = m->running;
    pthread_mutex_unlock(&m->lock);
    return n;
}

static void stop_here(Match *m) {
    pthread_mutex_lock(&m->lock);
    m->stopping = true;
    atomic_store(&m->abort, true);
    pthread_mutex_unlock(&m->lock);
}

static void nap_ms(long ms) {
    struct timespec ts = {.tv_sec = 0, .tv_nsec = ms * 1000000L};
    nanosleep(&ts, NULL);
}

// Rank 0 books a pair another rank finished, as its own workers do; one that comes after the
// match began to stop is dropped, as the single process abandons the games still running then
// (a resume plays it again).
static void book_remote(Match *m, int source, const char *msg, size_t len) {
    PairMsg h;
    ErrorInfo err;
    memcpy(&h, msg, sizeof h);
    pthread_mutex_lock(&m->lock);
    if (should_stop(m)) {
        pthread_mutex_unlock(&m->lock);
        return;
    }
    GameRecord g[2];
    bool ok = h.pair >= 0 && h.pair < m->tally.pairs_total && !m->done[h.pair];
    for (int i = 0; i < 2; i++) {
        g[i] = (GameRecord){.winner = h.winner[i], .reason = h.reason[i], .plies = h.plies[i]};
        ok = ok && g[i].winner >= GAME_DRAWN && g[i].winner <= 1 && g[i].reason > 0 &&
             g[i].reason < REASON_NB;
    }
    Status st = ok ? STATUS_OK
                   : error_set(&err, STATUS_FORMAT, "match: rank %d sent a bad result for pair %d",
                               source, h.pair);
    if (st == STATUS_OK)
        st = append_pgn(m, msg + sizeof h, len - sizeof h, &err);
    book_pair(m, h.pair, g, st, &err);
}

// Rank 0 takes another rank's end: its restarts, its error, or its own stop by a signal.
static void take_done(Match *m, int source, const char *msg) {
    DoneMsg d;
    memcpy(&d, msg, sizeof d);
    pthread_mutex_lock(&m->lock);
    m->tally.restarts[0] += d.restarts[0];
    m->tally.restarts[1] += d.restarts[1];
    pthread_mutex_unlock(&m->lock);
    if (d.status != STATUS_OK) {
        ErrorInfo err;
        error_set(&err, (Status)d.status, "rank %d: %s", source, d.err.msg);
        fail(m, (Status)d.status, &err);
    } else if (d.interrupted) {
        stop_here(m);
    }
}

// Rank 0's main thread while its workers play: it books the other ranks' pairs, and once the
// match stops (SPRT, test hook, signal, error) tells every rank; it returns when its workers
// are done and every rank has ended, all of them told.
static void coordinate_root(Match *m) {
    bool *told = calloc((size_t)m->ranks, sizeof *told);
    int ended = 0;
    for (bool open = true; open;) {
        int source;
        size_t len;
        while (cluster_poll(TAG_TO_ROOT, &source, &len)) {
            char *msg = malloc(len);
            int32_t type = 0;
            if (msg && len >= sizeof(PairMsg))
                cluster_recv(source, TAG_TO_ROOT, msg, len);
            if (msg && len >= sizeof(PairMsg))
                memcpy(&type, msg, sizeof type);
            if (type == MSG_PAIR)
                book_remote(m, source, msg, len);
            else if (type == MSG_DONE && len == sizeof(DoneMsg))
                take_done(m, source, msg), ended++;
            free(msg);
            if (type != MSG_PAIR && !(type == MSG_DONE && len == sizeof(DoneMsg))) {
                ErrorInfo err;
                error_set(&err, STATUS_NOMEM, "match: message of rank %d lost", source);
                fail(m, STATUS_NOMEM, &err);
                open = false; // the ranks are told below; the lost message ends the match
                break;
            }
        }
        pthread_mutex_lock(&m->lock);
        bool stop = should_stop(m);
        pthread_mutex_unlock(&m->lock);
        for (int r = 1; stop && told && r < m->ranks; r++)
            if (!told[r])
                cluster_send(r, TAG_STOP, "s", 1), told[r] = true;
        if (ended == m->ranks - 1 && workers_running(m) == 0)
            open = false;
        else if (open)
            nap_ms(2);
    }
    for (int r = 1; r < m->ranks; r++)
        if (!told || !told[r])
            cluster_send(r, TAG_STOP, "e", 1);
    free(told);
}

// Sends what the workers queued for rank 0.
static void flush_outbox(Match *m) {
    pthread_mutex_lock(&m->lock);
    char **box = m->outbox;
    size_t *len = m->outbox_len;
    int n = m->noutbox;
    m->outbox = NULL, m->outbox_len = NULL, m->noutbox = m->outbox_cap = 0;
    pthread_mutex_unlock(&m->lock);
    for (int i = 0; i < n; i++) {
        cluster_send(0, TAG_TO_ROOT, box[i], len[i]);
        free(box[i]);
    }
    free(box);
    free(len);
}

// Another rank's main thread while its workers play: their pairs go to rank 0, and rank 0's
// stop stops them (games in progress abandoned). True when that stop came.
static bool coordinate_rank(Match *m) {
    bool told = false;
    for (;;) {
        flush_outbox(m);
        int source;
        size_t len;
        if (!told && cluster_poll(TAG_STOP, &source, &len)) {
            char b[8];
            cluster_recv(source, TAG_STOP, b, len < sizeof b ? len : sizeof b);
            told = true;
            stop_here(m);
        }
        if (workers_running(m) == 0)
            break;
        nap_ms(2);
    }
    flush_outbox(m);
    return told;
}

// Another rank's end, after its workers are joined: its DoneMsg to rank 0, then rank 0's stop.
static void end_rank(Match *m, bool told) {
    DoneMsg d = {.type = MSG_DONE,
                 .status = m->status,
                 .restarts = {m->tally.restarts[0], m->tally.restarts[1]},
                 .err = m->err};
    d.interrupted = !told && m->cfg->stop && atomic_load(m->cfg->stop);
    cluster_send(0, TAG_TO_ROOT, &d, sizeof d);
    if (!told) {
        char b[8];
        cluster_recv(0, TAG_STOP, b, 1);
    }
}

// Every rank's setup went well, or each returns an error (its own, or that another rank
// failed). Rank 0's finished pairs and date are then every rank's.
static Status agree_setup(Match *m, Status st, ErrorInfo *err) {
    if (m->ranks == 1)
        return st;
    uint64_t bad = st != STATUS_OK;
    cluster_sum_u64(&bad, 1);
    if (bad && st == STATUS_OK)
        return error_set(err, STATUS_IO, "match: another rank could not start (its message)");
    if (bad)
        return st;
    uint8_t stopping = m->stopping;
    cluster_bcast(m->done, sizeof *m->done * (size_t)m->tally.pairs_total, 0);
    cluster_bcast(&stopping, 1, 0);
    cluster_bcast(m->date, sizeof m->date, 0);
    m->stopping = stopping;
    return STATUS_OK;
}

Status match_run(const MatchConfig *c, MatchTally *tally, MatchProgressFn progress, void *arg,
                 ErrorInfo *err) {
    Match *m = calloc(1, sizeof *m);
    Worker *w = NULL;
    RunLock *lock = NULL;
    Status st = check_config(c, err);
    if (!m || st != STATUS_OK)
        goto cleanup;
    engine_init(); // the rules core's tables, if the caller has not built them yet
    m->cfg = c;
    m->variant = variant_or_default(c->variant);
    m->progress = progress;
    m->progress_arg = arg;
    pthread_mutex_init(&m->lock, NULL);
    m->tally.pairs_total = c->games / 2;
    ClusterPart self = cluster_self();
    m->rank = (int)self.index - 1;
    m->ranks = (int)self.count;
    m->next_pair = m->rank;
    time_t now = time(NULL);
    struct tm tm;
    strftime(m->date, sizeof m->date, "%Y.%m.%d", gmtime_r(&now, &tm));
    sha256_init(&m->pgn_hash); // the PGN's digest so far: a resume's state file tells it
    update_pgn_digest(m);
    m->done = calloc((size_t)m->tally.pairs_total, sizeof *m->done);
    w = calloc((size_t)c->concurrency, sizeof *w);
    if (!m->done || !w) {
        st = error_set(err, STATUS_NOMEM, "match: out of memory");
        goto cleanup;
    }
    // One writer per PGN: the lock is taken before either file is read or written. Under MPI
    // only rank 0 touches the files.
    bool files = m->rank == 0;
    if ((st = engines_for_variant(m, err)) == STATUS_OK &&
        (!files || (st = take_lock(c, &lock, err)) == STATUS_OK) &&
        (st = load_openings(m, err)) == STATUS_OK &&
        (!files || (st = check_outputs(c, err)) == STATUS_OK) &&
        (!files || c->resume || (st = check_fresh(c, err)) == STATUS_OK) &&
        (!files || !c->resume || (st = state_load(m, err)) == STATUS_OK) &&
        (!files || !c->resume || (st = check_pgn_prefix(m, err)) == STATUS_OK) &&
        (st = probe_engine(m, 0, err)) == STATUS_OK &&
        (st = probe_engine(m, 1, err)) == STATUS_OK && files &&
        (st = open_outputs(m, err)) == STATUS_OK && m->tally.sprt_result != SPRT_CONTINUE)
        m->stopping = true; // the resumed match had already been decided
    if ((st = agree_setup(m, st, err)) != STATUS_OK)
        goto cleanup;
    int started = 0;
    for (; started < c->concurrency; started++) {
        w[started].m = m;
        pthread_mutex_lock(&m->lock);
        m->running++;
        pthread_mutex_unlock(&m->lock);
        if (pthread_create(&w[started].thread, NULL, worker_main, &w[started]) != 0) {
            pthread_mutex_lock(&m->lock);
            m->running--;
            pthread_mutex_unlock(&m->lock);
            break;
        }
    }
    bool told = false;
    if (m->ranks > 1 && m->rank == 0)
        coordinate_root(m);
    else if (m->ranks > 1)
        told = coordinate_rank(m);
    for (int i = 0; i < started; i++) {
        pthread_join(w[i].thread, NULL);
        m->tally.restarts[0] += w[i].restarts[0];
        m->tally.restarts[1] += w[i].restarts[1];
    }
    if (started == 0 && m->status == STATUS_OK)
        m->status = error_set(&m->err, STATUS_NOMEM, "match: no worker thread could start");
    if (m->ranks > 1 && m->rank > 0)
        end_rank(m, told);
    if ((st = m->status) != STATUS_OK)
        *err = m->err;
    m->tally.interrupted =
        m->tally.pairs_done < m->tally.pairs_total && m->tally.sprt_result == SPRT_CONTINUE;
    *tally = m->tally;
    // The last word: the restarts are known, and a resumed match already decided is written too.
    if (st == STATUS_OK && c->json_path && m->rank == 0)
        st = match_json_write(c->json_path, c, &m->tally, err);
cleanup:
    if (!m && st == STATUS_OK)
        st = error_set(err, STATUS_NOMEM, "match: out of memory");
    if (m) {
        if (m->pgn)
            fclose(m->pgn);
        if (m->state)
            fclose(m->state);
        free(m->openings);
        free(m->done);
        for (int i = 0; i < m->noutbox; i++)
            free(m->outbox[i]);
        free(m->outbox);
        free(m->outbox_len);
        if (m->cfg)
            pthread_mutex_destroy(&m->lock);
        free(m);
    }
    free(w);
    run_lock_release(lock); // after the files are closed
    return st;
}
