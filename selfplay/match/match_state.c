// SPDX-License-Identifier: MIT
// A match's resume state: the state file (the match's identity, then one line per finished
// pair with the PGN's length and SHA-256 there), read back and checked against the PGN on
// --resume; the PGN and the state file opened, fresh or for appending.
#define _GNU_SOURCE
#include "match_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rules.h"
#include "variant.h"

// Format 3: each pair's line ends with the PGN's length and SHA-256 at that pair (format 2
// had the length alone; its files are refused: match_state_load).
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

// Reads the finished pairs of an earlier run of the same match.
Status match_state_load(Match *m, ErrorInfo *err) {
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
        match_tally_pair(m, k, g);
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
Status match_state_check_fresh(const MatchConfig *c, ErrorInfo *err) {
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
Status match_state_check_pgn(Match *m, ErrorInfo *err) {
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

// Opens the PGN and the state file: fresh, or for appending on resume.
Status match_state_open(Match *m, ErrorInfo *err) {
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

// Writes pair k's line to the state file, after its games are in the PGN: a pair counts as
// finished only when its games are there.
Status match_state_write_pair(Match *m, int k, const GameRecord g[2], ErrorInfo *err) {
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
