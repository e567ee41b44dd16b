// SPDX-License-Identifier: MIT
// A match's resume state: the state file (the match's identity, then one line per finished
// pair with the PGN's length and SHA-256 there), read back and checked against the PGN on
// --resume; the PGN and the state file opened, fresh or for appending.
#define _GNU_SOURCE
#include "match_state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "rules.h"
#include "variant.h"

// Format 4: each pair's line ends with the PGN's length and SHA-256 at that pair, then a
// checksum: the SHA-256 of the state file's bytes before the line and of the line up to it, so
// a hand-edited result (or a line deleted, moved or copied) is refused rather than counted.
// Older formats are refused by name (match_state_load): 2 had no digest of the PGN, 3 no
// checksum of its own lines, so neither can vouch for the results it holds.
static const char STATE_MAGIC[] = "hansu-match-state 4";
static const char *const STATE_OLDER[] = {"hansu-match-state 2", "hansu-match-state 3"};
static const char *const STATE_OLDER_WHY[] = {"no digest of the PGN to check it by",
                                              "no checksum of its lines to vouch for the results"};

// The line that names the match in the state file; a resume must find the same line.
static void state_identity(const MatchFiles *m, char *out, size_t len) {
    const MatchConfig *c = m->cfg;
    const Limits *l = c->limits;
    snprintf(out, len,
             "match games=%d openings=%d random_plies=%d seed=%llu engines=%s,%s "
             "limits=%d/%ld/%d/%lld/%lld/%lld/%lld/%d,%d/%ld/%d/%lld/%lld/%lld/%lld/%d",
             c->games, m->openings->count, c->random_plies, (unsigned long long)c->seed,
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
    // So is how the book is read, where it is not from its first line in order.
    if (c->book_plies > 0 || c->openings_random || c->openings_start > 0) {
        size_t n = strlen(out);
        snprintf(out + n, len - n, " book=%d,%s,%d", c->book_plies,
                 c->openings_random ? "random" : "sequential", c->openings_start);
    }
    // So is the PGN's form, where moves carry their search's comment.
    if (c->move_info) {
        size_t n = strlen(out);
        snprintf(out + n, len - n, " move_info=1");
    }
    // So is pondering, where an engine ponders.
    if (c->engine[0].ponder || c->engine[1].ponder) {
        size_t n = strlen(out);
        snprintf(out + n, len - n, " ponder=%d,%d", c->engine[0].ponder, c->engine[1].ponder);
    }
    // So are adjudication settings, where games are adjudicated (a match without is unchanged).
    char adj[160];
    match_adjudication_text(c, adj, sizeof adj);
    for (char *p = adj; *p; p++) // one word in the identity line
        *p = *p == ' ' ? ',' : *p;
    if (adj[0]) {
        size_t n = strlen(out);
        snprintf(out + n, len - n, " adjudication=%s", adj);
    }
}

// "resume: <path> is the state file of an older hansu-match ..." when line is an older
// format's first line; STATUS_OK otherwise.
static Status refuse_older(const char *path, const char *line, ErrorInfo *err) {
    for (size_t i = 0; i < sizeof STATE_OLDER / sizeof *STATE_OLDER; i++)
        if (strncmp(line, STATE_OLDER[i], strlen(STATE_OLDER[i])) == 0)
            return error_set(err, STATUS_FORMAT,
                             "resume: %s is the state file of an older hansu-match (%s: %s); "
                             "finish that match with the hansu-match that began it, or start "
                             "afresh with another --pgn",
                             path, STATE_OLDER[i], STATE_OLDER_WHY[i]);
    return STATUS_OK;
}

// Hex SHA-256 of the state file's bytes so far (*h, left as it was) and then len bytes of text.
static void line_checksum(const Sha256 *h, const char *text, size_t len, char hex[65]) {
    Sha256 copy = *h;
    sha256_update(&copy, text, len);
    sha256_final(&copy, hex);
}

// Pair line text (its checksum checked, its newline cut) into k, g, *pgn_end and digest; false
// when a field is missing, extra or out of range.
static bool parse_pair(const MatchFiles *m, const MatchTally *t, const bool *done, const char *text,
                       int *k, GameRecord g[2], long long *pgn_end, char digest[72]) {
    char r0[32], r1[32];
    int used = -1;
    if (sscanf(text, "pair %d %d %31s %d %d %31s %d %lld %71s%n", k, &g[0].winner, r0, &g[0].plies,
               &g[1].winner, r1, &g[1].plies, pgn_end, digest, &used) != 9 ||
        text[used] != '\0')
        return false;
    return strlen(digest) == 64 && strspn(digest, "0123456789abcdef") == 64 &&
           *pgn_end >= m->pgn_end && *k >= 0 && *k < t->pairs_total && !done[*k] &&
           g[0].winner <= 1 && g[1].winner <= 1 && g[0].winner >= GAME_DRAWN &&
           g[1].winner >= GAME_DRAWN && (g[0].reason = rules_reason_parse(r0)) &&
           (g[1].reason = rules_reason_parse(r1)) && g[0].plies >= 0 && g[1].plies >= 0;
}

// Reads the finished pairs of an earlier run of the same match. Each pair line's checksum is
// checked before its results are taken: a result edited by hand would otherwise be counted.
Status match_state_load(MatchFiles *m, MatchTally *t, bool *done, ErrorInfo *err) {
    const char *path = m->cfg->state_path;
    FILE *f = fopen(path, "r");
    if (!f)
        return error_set(err, STATUS_IO, "resume: state file %s: %s", path, strerror(errno));
    char line[640], ident[512];
    Status st = STATUS_OK;
    state_identity(m, ident, sizeof ident);
    sha256_init(&m->state_hash);
    // The first two lines: the format, then the match's identity.
    bool head = fgets(line, sizeof line, f) != NULL;
    if (head && (st = refuse_older(path, line, err)) != STATUS_OK)
        goto cleanup;
    bool same = head && strncmp(line, STATE_MAGIC, strlen(STATE_MAGIC)) == 0 &&
                strcmp(line + strlen(STATE_MAGIC), "\n") == 0;
    if (same) {
        sha256_update(&m->state_hash, line, strlen(line));
        same = fgets(line, sizeof line, f) != NULL;
    }
    if (same) {
        sha256_update(&m->state_hash, line, strlen(line));
        line[strcspn(line, "\n")] = '\0';
        same = strcmp(line, ident) == 0;
    }
    if (!same) {
        st = error_set(err, STATUS_FORMAT, "resume: %s is not the state of this match (%s)", path,
                       ident);
        goto cleanup;
    }
    m->state_end = (long long)m->state_hash.length;
    for (int lineno = 3; fgets(line, sizeof line, f); lineno++) {
        size_t len = strlen(line);
        if (line[len - 1] != '\n' && feof(f))
            break; // a last line cut short by the interruption: that pair is replayed
        if (line[len - 1] != '\n') {
            st = error_set(err, STATUS_FORMAT, "resume: %s:%d: line too long \"%.60s\"", path,
                           lineno, line);
            goto cleanup;
        }
        line[len - 1] = '\0';
        char *sum = strrchr(line, ' '), hex[65];
        if (sum)
            line_checksum(&m->state_hash, line, (size_t)(sum - line), hex);
        if (!sum || strcmp(sum + 1, hex) != 0) {
            st = error_set(err, STATUS_FORMAT,
                           "resume: %s:%d: the line's checksum does not match (edited by hand?), "
                           "so its results cannot be counted: \"%.60s\"; restore the state file "
                           "or start afresh with another --pgn",
                           path, lineno, line);
            goto cleanup;
        }
        *sum = '\0';
        int k;
        GameRecord g[2];
        long long pgn_end;
        char digest[72];
        if (!parse_pair(m, t, done, line, &k, g, &pgn_end, digest)) {
            st = error_set(err, STATUS_FORMAT, "resume: %s:%d: bad line \"%.60s\"", path, lineno,
                           line);
            goto cleanup;
        }
        if (!m->resumed && !(m->resumed = calloc((size_t)t->pairs_total, sizeof *m->resumed))) {
            st = error_set(err, STATUS_NOMEM, "resume: out of memory");
            goto cleanup;
        }
        m->resumed[m->nresumed++] = (StatePair){.k = k,
                                                .lineno = lineno,
                                                .winner = {g[0].winner, g[1].winner},
                                                .start = m->pgn_end,
                                                .end = pgn_end};
        match_tally_pair(t, done, m->cfg, k, match_openings_first_side(m->openings, k), g);
        t->pairs_resumed++;
        m->pgn_end = pgn_end; // the lines are written in the PGN's order: the last one counts
        memcpy(m->pgn_digest, digest, sizeof m->pgn_digest);
        *sum = ' ', line[len - 1] = '\n';
        sha256_update(&m->state_hash, line, len);
        m->state_end += (long long)len;
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

// The value of the n-th (0-based) tag line `[name "value"]` of text (len bytes) into out;
// false when there are not that many.
static bool tag_value(const char *text, size_t len, const char *name, int n, char *out,
                      size_t cap) {
    char head[32];
    int hl = snprintf(head, sizeof head, "[%s \"", name);
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t line = nl ? (size_t)(nl - (text + at)) : len - at;
        if (line > (size_t)hl && memcmp(text + at, head, (size_t)hl) == 0 && n-- == 0) {
            size_t vl = strcspn(text + at + hl, "\"\n");
            snprintf(out, cap, "%.*s", (int)(vl < cap ? vl : cap - 1), text + at + hl);
            return true;
        }
        at += line + 1;
    }
    return false;
}

// Pair p's games in the PGN (text: its bytes) against its state line: two games, round k + 1,
// results that give the winners the line records (game i: engine i is White, Cho).
static bool pair_agrees(const StatePair *p, const char *text, size_t len) {
    char round[16], result[16], want[16];
    snprintf(want, sizeof want, "%d", p->k + 1);
    for (int i = 0; i < 2; i++) {
        if (!tag_value(text, len, "Round", i, round, sizeof round) || strcmp(round, want) ||
            !tag_value(text, len, "Result", i, result, sizeof result))
            return false;
        int winner = !strcmp(result, "1/2-1/2") ? GAME_DRAWN
                     : !strcmp(result, "1-0")   ? i
                     : !strcmp(result, "0-1")   ? 1 - i
                                                : -2;
        if (winner != p->winner[i])
            return false;
    }
    return !tag_value(text, len, "Result", 2, result, sizeof result); // no third game
}

// Every resumed pair's games in the PGN (whose bytes the digest has vouched for) carry the
// results its state line records: a line edited with its checksum made anew still disagrees
// with the games.
static Status check_results(MatchFiles *m, ErrorInfo *err) {
    const MatchConfig *c = m->cfg;
    FILE *f = m->nresumed ? fopen(c->pgn_path, "rb") : NULL;
    if (m->nresumed && !f)
        return error_set(err, STATUS_IO, "PGN %s: %s", c->pgn_path, strerror(errno));
    Status st = STATUS_OK;
    char *text = NULL;
    for (int i = 0; i < m->nresumed && st == STATUS_OK; i++) {
        const StatePair *p = &m->resumed[i];
        size_t len = (size_t)(p->end - p->start);
        if (len == 0)
            continue; // played without a PGN (--state alone), resumed with one
        char *grown = realloc(text, len + 1);
        if (!grown) {
            st = error_set(err, STATUS_NOMEM, "resume: out of memory");
            break;
        }
        text = grown;
        if (fseeko(f, (off_t)p->start, SEEK_SET) != 0 || fread(text, 1, len, f) != len)
            st = error_set(err, STATUS_IO, "PGN %s: read failed", c->pgn_path);
        else if (!pair_agrees(p, text, len))
            st = error_set(err, STATUS_FORMAT,
                           "resume: %s:%d: pair %d's results (%d, %d) are not those of its games "
                           "in PGN %s (their [Round] and [Result] tags); restore the state file "
                           "or start afresh with another --pgn",
                           c->state_path, p->lineno, p->k, p->winner[0], p->winner[1], c->pgn_path);
    }
    free(text);
    if (f)
        fclose(f);
    return st;
}

// On resume the PGN must begin with exactly the bytes the state file records for its finished
// pairs: as many (shorter, it was cut or replaced: appending would leave a hole and lose games
// the totals still count), and the same (SHA-256: an edit, even of the same size, would make
// the PGN disagree with the totals, and one that shifts the bytes would cut a game in two). A
// longer PGN is what a hard kill leaves (a pair written, its state line not): that tail is cut
// away by open_outputs.
Status match_state_check_pgn(MatchFiles *m, ErrorInfo *err) {
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
    return check_results(m, err);
}

// Opens path as fopen's mode "w" or "a" would, into *f; a FIFO with no reader is waited for
// while the match is not stopped (files_open_write), a stop given as errno EINTR.
static FILE *open_output(const char *path, bool append) {
    int fd = files_open_write(path, O_CREAT | (append ? O_APPEND : O_TRUNC), 0666);
    FILE *f = fd >= 0 ? fdopen(fd, append ? "a" : "w") : NULL;
    if (fd >= 0 && !f) {
        int code = errno;
        close(fd);
        errno = code;
    }
    return f;
}

// "stopped while waiting for a reader of the FIFO" for EINTR (files_open_write), else errno's.
static const char *open_error(void) {
    return errno == EINTR ? "stopped while waiting for a reader of the FIFO" : strerror(errno);
}

// Opens the PGN and the state file: fresh, or for appending on resume.
Status match_state_open(MatchFiles *m, ErrorInfo *err) {
    const MatchConfig *c = m->cfg;
    // Games written after the last recorded pair (a pair cut off by a hard kill) are cut
    // away, so the PGN holds each finished pair exactly once.
    if (c->pgn_path && c->resume && truncate(c->pgn_path, (off_t)m->pgn_end) != 0 &&
        errno != ENOENT)
        return error_set(err, STATUS_IO, "PGN %s: truncate: %s", c->pgn_path, strerror(errno));
    if (c->pgn_path && !(m->pgn = open_output(c->pgn_path, c->resume)))
        return error_set(err, STATUS_IO, "PGN %s: %s", c->pgn_path, open_error());
    if (!c->state_path)
        return STATUS_OK;
    // A last line cut short by a hard kill is cut away, so the next line starts on its own.
    if (c->resume && truncate(c->state_path, (off_t)m->state_end) != 0)
        return error_set(err, STATUS_IO, "state %s: truncate: %s", c->state_path, strerror(errno));
    if (!(m->state = open_output(c->state_path, c->resume)))
        return error_set(err, STATUS_IO, "state %s: %s", c->state_path, open_error());
    if (!c->resume) {
        char ident[512], head[600];
        state_identity(m, ident, sizeof ident);
        snprintf(head, sizeof head, "%s\n%s\n", STATE_MAGIC, ident);
        sha256_init(&m->state_hash);
        sha256_update(&m->state_hash, head, strlen(head));
        if (fputs(head, m->state) == EOF || fflush(m->state) != 0)
            return error_set(err, STATUS_IO, "state %s: write failed (%s)", c->state_path,
                             strerror(errno));
    }
    return STATUS_OK;
}

// Writes pair k's line to the state file, after its games are in the PGN: a pair counts as
// finished only when its games are there. The line ends with its checksum (STATE_MAGIC).
Status match_state_write_pair(MatchFiles *m, int k, const GameRecord g[2], ErrorInfo *err) {
    const MatchConfig *c = m->cfg;
    if (!m->state)
        return STATUS_OK;
    char line[640], hex[65];
    int n = snprintf(line, sizeof line, "pair %d %d %s %d %d %s %d %lld %s", k, g[0].winner,
                     rules_reason_name(g[0].reason), g[0].plies, g[1].winner,
                     rules_reason_name(g[1].reason), g[1].plies, m->pgn_end, m->pgn_digest);
    line_checksum(&m->state_hash, line, (size_t)n, hex);
    n += snprintf(line + n, sizeof line - (size_t)n, " %s\n", hex);
    sha256_update(&m->state_hash, line, (size_t)n);
    if (fputs(line, m->state) == EOF || fflush(m->state) != 0)
        return error_set(err, STATUS_IO, "state %s: write failed (%s)", c->state_path,
                         strerror(errno));
    return STATUS_OK;
}
