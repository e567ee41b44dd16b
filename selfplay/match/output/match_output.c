// SPDX-License-Identifier: MIT
// A match's output files: each finished pair's two games as PGN text (pgn.c writes them),
// appended to the PGN with the length and SHA-256 that the state file records; and every
// output file checked to be writable before the first game.
#define _GNU_SOURCE
#include "match_output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "pgn.h"
#include "variant.h"

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

enum { MOVE_INFO_LEN = 96 };

// A move's comment with --move-info: {score/depth time sd= n= hf= clk=}, the score in pawns from
// the mover's view (+M3 / -M3 a mate in 3 for / against it, n/a none), the time in seconds.
static void move_info_text(const MoveInfo *mi, char *out, size_t len) {
    char score[24], clk[32] = "", hf[16] = "";
    if (mi->score == SCORE_NONE)
        snprintf(score, sizeof score, "n/a");
    else if (mi->score >= SCORE_MATE - 1000 || mi->score <= -SCORE_MATE + 1000)
        snprintf(score, sizeof score, "%sM%d", mi->score > 0 ? "+" : "-",
                 mi->score > 0 ? SCORE_MATE - mi->score : SCORE_MATE + mi->score);
    else
        snprintf(score, sizeof score, "%+.2f", mi->score / 100.0);
    if (mi->clock_ms >= 0)
        snprintf(clk, sizeof clk, " clk=%.3fs", mi->clock_ms / 1000.0);
    if (mi->hashfull >= 0)
        snprintf(hf, sizeof hf, " hf=%d", mi->hashfull);
    snprintf(out, len, "%s/%d %.3fs sd=%d n=%llu%s%s", score, mi->depth, mi->ms / 1000.0,
             mi->seldepth, (unsigned long long)mi->nodes, hf, clk);
}

// Writes both games of pair k as PGN to f (the PGN file, or a rank's message to rank 0).
static Status write_pgn_pair(const MatchFiles *m, FILE *f, int k, const char *fen,
                             const GameOutcome o[2], ErrorInfo *err) {
    const MatchConfig *c = m->cfg;
    char tc[48], adj[160];
    time_control_text(&c->limits[0], tc, sizeof tc);
    match_adjudication_text(c, adj, sizeof adj);
    bool ponder = c->engine[0].ponder || c->engine[1].ponder;
    char(*text)[MOVE_INFO_LEN] = c->move_info ? malloc(sizeof *text * GAME_MAX_MOVES) : NULL;
    const char **comments = c->move_info ? malloc(sizeof *comments * GAME_MAX_MOVES) : NULL;
    if (c->move_info && (!text || !comments)) {
        free(text);
        free(comments);
        return error_set(err, STATUS_NOMEM, "PGN: out of memory for the move comments");
    }
    for (int i = 0; f && i < 2; i++) {
        for (int j = 0; text && j < o[i].nmoves; j++) {
            move_info_text(&o[i].info[j], text[j], sizeof text[j]);
            comments[j] = text[j];
        }
        // The settings, where games are adjudicated; the ponder searches and their hits, where
        // an engine ponders.
        PgnTag tags[2];
        int ntags = 0;
        char hits[96];
        if (adj[0])
            tags[ntags++] = (PgnTag){"Adjudication", adj};
        if (ponder) {
            snprintf(hits, sizeof hits, "%s %d of %d, %s %d of %d", m->variant->side_names[CHO],
                     o[i].ponder_hits[CHO], o[i].ponders[CHO], m->variant->side_names[HAN],
                     o[i].ponder_hits[HAN], o[i].ponders[HAN]);
            tags[ntags++] = (PgnTag){"PonderHits", hits};
        }
        PgnGame p = {.event = c->event,
                     .site = c->site,
                     .date = m->date,
                     .round = k + 1,
                     .white = c->engine[i].name,
                     .black = c->engine[1 - i].name,
                     .fen = fen,
                     .opening = m->openings->list[k % m->openings->count].name,
                     .time_control = tc,
                     .moves = o[i].moves,
                     .nmoves = o[i].nmoves,
                     .variant = m->variant->name,
                     .winner = o[i].winner,
                     .draw = o[i].draw,
                     .reason = o[i].reason,
                     .detail = o[i].detail,
                     .comments = comments,
                     .tags = ntags ? tags : NULL,
                     .ntags = ntags};
        Status st = pgn_write(f, &p, err);
        if (st != STATUS_OK) {
            free(text);
            free(comments);
            return st;
        }
    }
    free(text);
    free(comments);
    return STATUS_OK;
}

// The PGN text of pair k's two games in *text (malloc'd, *len bytes; none without a PGN).
Status match_output_pair_text(const MatchFiles *m, int k, const char *fen, const GameOutcome o[2],
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
void match_output_digest(MatchFiles *m) {
    Sha256 copy = m->pgn_hash;
    sha256_final(&copy, m->pgn_digest);
}

// Appends a pair's PGN text to the PGN (the scheduler holds the match's lock), its length and
// SHA-256 carried on for the state file.
Status match_output_append(MatchFiles *m, const char *text, size_t len, ErrorInfo *err) {
    if (!m->pgn)
        return STATUS_OK;
    if (fwrite(text, 1, len, m->pgn) != len || fflush(m->pgn) != 0)
        return error_set(err, STATUS_IO, "PGN %s: write failed (%s)", m->cfg->pgn_path,
                         strerror(errno));
    sha256_update(&m->pgn_hash, text, len);
    m->pgn_end += (long long)len;
    match_output_digest(m);
    return STATUS_OK;
}

Status match_output_check_folder(const char *flag, const char *path, ErrorInfo *err) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return STATUS_OK; // the working folder
    if (slash == dir)
        slash[1] = '\0'; // "/file": the root
    else
        *slash = '\0';
    struct stat sb;
    if (stat(dir, &sb) != 0)
        return error_set(err, STATUS_IO, "%s %s: its folder %s %s", flag, path, dir,
                         errno == ENOENT ? "does not exist" : strerror(errno));
    if (!S_ISDIR(sb.st_mode))
        return error_set(err, STATUS_IO, "%s %s: %s is not a folder", flag, path, dir);
    return STATUS_OK;
}

// A file can be written at path (flag names it in the message): not a folder or socket, opened
// for appending when it exists, or created (and removed again) in its folder when it does not; a
// link is followed (files_output_target), a device or FIFO need only be writable (opening a
// FIFO would wait for its reader).
static Status check_writable(const char *flag, const char *path, ErrorInfo *err) {
    Status st = match_output_check_folder(flag, path, err);
    if (st != STATUS_OK)
        return st;
    char target[FILES_PATH_MAX];
    bool in_place;
    ErrorInfo te;
    if (files_output_target(path, target, &in_place, &te) != STATUS_OK)
        return error_set(err, STATUS_IO, "%s %s", flag, te.msg);
    if (in_place)
        return access(target, W_OK) == 0
                   ? STATUS_OK
                   : error_set(err, STATUS_IO, "%s %s: %s", flag, path, strerror(errno));
    struct stat sb;
    bool exists = stat(target, &sb) == 0;
    if (!exists && errno != ENOENT)
        return error_set(err, STATUS_IO, "%s %s: %s", flag, path, strerror(errno));
    int fd = exists ? open(target, O_WRONLY | O_APPEND | O_CLOEXEC)
                    : open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return error_set(err, STATUS_IO, "%s %s: cannot be written (%s)", flag, path,
                         strerror(errno));
    close(fd);
    if (!exists)
        unlink(target);
    return STATUS_OK;
}

// Every file the match writes can be written, checked before the engines start: a JSON that
// cannot be written used to be found after the first pair.
Status match_output_check(const MatchConfig *c, ErrorInfo *err) {
    const char *paths[3] = {c->pgn_path, c->state_path, c->json_path};
    const char *flags[3] = {"--pgn", "--state", "--json"};
    for (int i = 0; i < 3; i++) {
        Status st = paths[i] ? check_writable(flags[i], paths[i], err) : STATUS_OK;
        if (st != STATUS_OK)
            return st;
    }
    return STATUS_OK;
}

void match_output_close(MatchFiles *f) {
    if (f->pgn)
        fclose(f->pgn);
    if (f->state)
        fclose(f->state);
    f->pgn = f->state = NULL;
    free(f->resumed);
    f->resumed = NULL;
}
