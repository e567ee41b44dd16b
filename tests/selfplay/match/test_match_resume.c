// SPDX-License-Identifier: MIT
// The match tool end to end, its files: stop and resume, an interrupted game, the PGN and the
// state file guarded against overwrite, edits and a second writer, escaped PGN tags, unwritable
// outputs. The games themselves: test_match.c.
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine.h"
#include "match.h"
#include "pgn.h"
#include "rules.h"
#include "sha256.h"
#include "timeman.h"
#include "uci_child.h"
#include "variant.h"

#include "match_test_util.h"

static void run_resumable(const char *pgn, const char *st, int stop_after, bool resume,
                          MatchTally *t) {
    MatchConfig c = base_config(16);
    c.pgn_path = pgn;
    c.state_path = st;
    c.stop_after_pairs = stop_after;
    c.resume = resume;
    c.random_plies = 2;
    c.seed = 7;
    fake_spec(&c.engine[0], "A", "good", NULL);
    fake_spec(&c.engine[1], "B", "good", NULL);
    ErrorInfo err;
    assert_int_equal(match_run(&c, t, NULL, NULL, &err), STATUS_OK);
}

// Stop after 3 pairs, resume: 8 pairs in all, none played twice, totals as an unbroken run.
static void test_resume(void **state) {
    (void)state;
    char pgn[512], st[512], pgn2[512], st2[512];
    temp_path(pgn, sizeof pgn, "res.pgn");
    temp_path(st, sizeof st, "res.state");
    temp_path(pgn2, sizeof pgn2, "full.pgn");
    temp_path(st2, sizeof st2, "full.state");
    MatchTally part, rest, full;
    run_resumable(pgn, st, 3, false, &part);
    assert_true(part.interrupted);
    assert_consistent(&part, 3);
    FILE *f = fopen(pgn, "a"); // as if a hard kill left half a pair in the PGN
    assert_non_null(f);
    fputs("[Event \"cut off\"]\n[Variant \"janggi\"]\n", f);
    fclose(f);
    run_resumable(pgn, st, 0, true, &rest);
    assert_int_equal(count_in_file(pgn, "cut off"), 0);
    assert_false(rest.interrupted);
    assert_int_equal(rest.pairs_resumed, 3);
    assert_consistent(&rest, 8);
    assert_int_equal(count_in_file(st, "pair "), 8);
    assert_int_equal(count_in_file(pgn, "[Variant \"janggi\"]"), 16);
    for (int k = 0; k < 8; k++) { // each pair exactly once
        char needle[32];
        snprintf(needle, sizeof needle, "pair %d ", k);
        assert_int_equal(count_in_file(st, needle), 1);
    }
    run_resumable(pgn2, st2, 0, false, &full); // the fake engines are deterministic
    assert_memory_equal(full.penta, rest.penta, sizeof full.penta);
    assert_memory_equal(full.wins_by, rest.wins_by, sizeof full.wins_by);
    unlink(pgn), unlink(st), unlink(pgn2), unlink(st2);
}

static atomic_bool sigterm_flag; // stands in for the front end's signal flag

static void *stop_later(void *arg) {
    (void)arg;
    usleep(1200 * 1000);
    atomic_store(&sigterm_flag, true);
    return NULL;
}

// A stop in the middle of a game (as SIGTERM sets it): the unfinished pair is dropped, the
// finished ones are kept, and a resume plays exactly the missing pairs.
static void test_interrupt_mid_game(void **state) {
    (void)state;
    char pgn[512], st[512];
    temp_path(pgn, sizeof pgn, "int.pgn");
    temp_path(st, sizeof st, "int.state");
    MatchConfig c = base_config(16);
    c.pgn_path = pgn;
    c.state_path = st;
    c.stop = &sigterm_flag;
    fake_spec(&c.engine[0], "A", "slow", "1");
    fake_spec(&c.engine[1], "B", "slow", "1");
    atomic_store(&sigterm_flag, false);
    pthread_t timer;
    pthread_create(&timer, NULL, stop_later, NULL);
    MatchTally t;
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    pthread_join(timer, NULL);
    assert_true(t.interrupted);
    assert_true(t.pairs_done < 8);
    assert_consistent(&t, t.pairs_done);
    assert_int_equal(count_in_file(st, "pair "), t.pairs_done);
    assert_int_equal(count_in_file(pgn, "[Variant "), 2 * t.pairs_done);
    int first = t.pairs_done;
    atomic_store(&sigterm_flag, false);
    c.resume = true;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_false(t.interrupted);
    assert_int_equal(t.pairs_resumed, first);
    assert_consistent(&t, 8);
    assert_int_equal(count_in_file(st, "pair "), 8);
    assert_int_equal(count_in_file(pgn, "[Variant "), 16);
    unlink(pgn), unlink(st);
}

// The size of a file in bytes (-1 when missing).
static long file_bytes(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

// Without --resume an existing match is refused (its games were replaced, exit 0), by the
// PGN's name and by the state file's; the files are left as they were.
static void test_no_overwrite(void **state) {
    (void)state;
    char pgn[512], st[512];
    temp_path(pgn, sizeof pgn, "keep.pgn");
    temp_path(st, sizeof st, "keep.state");
    MatchTally t;
    run_resumable(pgn, st, 0, false, &t);
    long pgn_bytes = file_bytes(pgn), st_bytes = file_bytes(st);
    MatchConfig c = base_config(2);
    c.pgn_path = pgn;
    c.state_path = st;
    fake_spec(&c.engine[0], "A", "good", NULL);
    fake_spec(&c.engine[1], "B", "good", NULL);
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, pgn));
    assert_non_null(strstr(err.msg, "already holds a match"));
    assert_non_null(strstr(err.msg, "--resume"));
    assert_int_equal(file_bytes(pgn), pgn_bytes);
    assert_int_equal(file_bytes(st), st_bytes);
    assert_int_equal(count_in_file(pgn, "[Variant \"janggi\"]"), 16);
    c.pgn_path = NULL; // the state file alone is guarded too
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, st));
    assert_int_equal(file_bytes(st), st_bytes);
    unlink(pgn), unlink(st);
}

// A resume whose PGN is shorter than its state file records is refused naming both files and
// the difference (it used to write NUL bytes and lose games the totals still counted).
static void test_resume_short_pgn(void **state) {
    (void)state;
    char pgn[512], st[512];
    temp_path(pgn, sizeof pgn, "short.pgn");
    temp_path(st, sizeof st, "short.state");
    MatchTally t;
    run_resumable(pgn, st, 3, false, &t);
    long full = file_bytes(pgn);
    assert_true(full > 100);
    assert_int_equal(truncate(pgn, full - 100), 0);
    MatchConfig c = base_config(16);
    c.pgn_path = pgn;
    c.state_path = st;
    c.resume = true;
    c.random_plies = 2;
    c.seed = 7;
    fake_spec(&c.engine[0], "A", "good", NULL);
    fake_spec(&c.engine[1], "B", "good", NULL);
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_FORMAT);
    char want[64];
    snprintf(want, sizeof want, "(100 bytes missing)");
    if (!strstr(err.msg, pgn) || !strstr(err.msg, st) || !strstr(err.msg, want))
        fail_msg("not named: %s", err.msg);
    assert_int_equal(file_bytes(pgn), full - 100); // nothing written
    unlink(pgn), unlink(st);
}

// The whole file at path (malloc'd, NUL-terminated), its size in *len.
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    char *buf = malloc(*len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, *len, f), *len);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

static void spill(const char *path, const char *data, size_t len) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

// Resumes the 16-game match of run_resumable, expecting a refusal naming the state file, want,
// and the PGN when names_pgn (pgn NULL: a match with a state file alone).
static void assert_resume_refused(const char *pgn, const char *st, const char *want,
                                  bool names_pgn) {
    MatchConfig c = base_config(16);
    c.pgn_path = pgn;
    c.state_path = st;
    c.resume = true;
    c.random_plies = 2;
    c.seed = 7;
    fake_spec(&c.engine[0], "A", "good", NULL);
    fake_spec(&c.engine[1], "B", "good", NULL);
    MatchTally t;
    ErrorInfo err;
    size_t before = 0, after = 0, st_before, st_after;
    if (pgn)
        free(slurp(pgn, &before));
    free(slurp(st, &st_before));
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_FORMAT);
    if ((names_pgn && !strstr(err.msg, pgn)) || !strstr(err.msg, st) || !strstr(err.msg, want))
        fail_msg("not named: %s", err.msg);
    if (pgn)
        free(slurp(pgn, &after));
    free(slurp(st, &st_after));
    assert_int_equal(after, before); // nothing cut, nothing written
    assert_int_equal(st_after, st_before);
}

// Issue 23: a resume refuses a PGN whose finished pairs were edited: a longer edit (a tag line
// added: the PGN used to be cut at the recorded offset, mid-game), an edit of the same size (a
// result swapped: it went unseen), a shorter file; an old state file without the PGN's digest
// is refused clearly. The PGN as written resumes.
static void test_resume_edited_pgn(void **state) {
    (void)state;
    char pgn[512], st[512];
    temp_path(pgn, sizeof pgn, "edit.pgn");
    temp_path(st, sizeof st, "edit.state");
    MatchTally t;
    run_resumable(pgn, st, 3, false, &t);
    size_t len;
    char *orig = slurp(pgn, &len), *edit = malloc(len + 64);
    assert_non_null(edit);
    // A line after the first, as `sed -i '1a [Annotator "me"]'` adds it.
    size_t first = (size_t)(strchr(orig, '\n') - orig) + 1;
    memcpy(edit, orig, first);
    int n = sprintf(edit + first, "[Annotator \"me\"]\n");
    memcpy(edit + first + n, orig + first, len - first);
    spill(pgn, edit, len + (size_t)n);
    assert_resume_refused(pgn, st, "differ", true);
    // The same size: the first game's result turned round.
    memcpy(edit, orig, len);
    char *res = strstr(edit, "[Result \"");
    assert_non_null(res);
    res += 9;
    memcpy(res, res[0] == '1' ? "0-1" : "1-0", 3);
    spill(pgn, edit, len);
    assert_resume_refused(pgn, st, "differ", true);
    // Shorter by one byte.
    spill(pgn, orig, len - 1);
    assert_resume_refused(pgn, st, "(1 bytes missing)", true);
    // As written: resumed to the end.
    spill(pgn, orig, len);
    run_resumable(pgn, st, 0, true, &t);
    assert_int_equal(t.pairs_resumed, 3);
    assert_consistent(&t, 8);
    // State files of the formats before the digest (hansu-match-state 2) and before each
    // line's checksum (3): refused by name, not misread.
    size_t slen;
    char *state_text = slurp(st, &slen);
    state_text[strlen("hansu-match-state ")] = '2';
    spill(st, state_text, slen);
    assert_resume_refused(pgn, st, "older hansu-match (hansu-match-state 2", false);
    state_text[strlen("hansu-match-state ")] = '3';
    spill(st, state_text, slen);
    assert_resume_refused(pgn, st, "older hansu-match (hansu-match-state 3", false);
    free(state_text), free(orig), free(edit);
    unlink(pgn), unlink(st);
}

// Edits pair line `nth` (1-based) of state file st: its first game's winner turned round (a
// draw made a win for engine 0), the rest of the line as it was.
static void edit_state_result(const char *st, int nth) {
    size_t len;
    char *text = slurp(st, &len), *line = text;
    for (int i = 0; i < nth; i++)
        line = strstr(line + 1, "\npair ");
    assert_non_null(line);
    char *w = strchr(line + strlen("\npair "), ' ') + 1; // the first game's winner
    char old[8] = "";
    sscanf(w, "%7s", old);
    const char *now = strcmp(old, "1") == 0 ? "0" : strcmp(old, "0") == 0 ? "1" : "0";
    size_t skip = strlen(old);
    char *edit = malloc(len + 8);
    assert_non_null(edit);
    size_t at = (size_t)(w - text);
    memcpy(edit, text, at);
    memcpy(edit + at, now, strlen(now));
    memcpy(edit + at + strlen(now), w + skip, len - at - skip);
    spill(st, edit, len - skip + strlen(now));
    free(edit), free(text);
}

// Makes every pair line's checksum of state file st anew, as a forger who read
// match_state.c would: the SHA-256 of the file up to the line and of the line up to it.
static void rechain(const char *st) {
    size_t len;
    char *text = slurp(st, &len), *out = malloc(len + 1);
    assert_non_null(out);
    Sha256 h;
    sha256_init(&h);
    size_t o = 0;
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        size_t ll = (size_t)(nl - line) + 1;
        if (strncmp(line, "pair ", 5) == 0) {
            char *sum = nl;
            while (*sum != ' ')
                sum--;
            Sha256 c = h;
            sha256_update(&c, line, (size_t)(sum - line));
            char hex[65];
            sha256_final(&c, hex);
            memcpy(sum + 1, hex, 64);
        }
        memcpy(out + o, line, ll);
        sha256_update(&h, line, ll);
        o += ll, line += ll;
    }
    spill(st, out, o);
    free(out), free(text);
}

// Hostile trial: a result edited by hand on a state line was counted on --resume (a wrong
// score, rc 0). Each line now carries a checksum over the state file up to it: an edited line
// is refused naming the file and line, with a PGN and without one; a line deleted or moved is
// refused too. A last line cut short is cut away, so the file stays readable after the resume.
static void test_resume_edited_state(void **state) {
    (void)state;
    char pgn[512], st[512], st_line[560];
    temp_path(pgn, sizeof pgn, "estate.pgn");
    temp_path(st, sizeof st, "estate.state");
    MatchTally t;
    run_resumable(pgn, st, 3, false, &t);
    size_t len;
    char *orig = slurp(st, &len);
    edit_state_result(st, 2); // the second pair line: line 4 of the file
    snprintf(st_line, sizeof st_line, "%s:4: the line's checksum does not match", st);
    assert_resume_refused(pgn, st, st_line, false);
    // The same edit with every checksum made anew: the PGN's games (their bytes vouched for by
    // its digest) still hold the results as played.
    rechain(st);
    assert_resume_refused(pgn, st, ":4: pair ", true);
    assert_resume_refused(pgn, st, "are not those of its games", true);
    // The first pair line deleted: the next line's checksum no longer matches.
    char *second = strstr(orig, "\npair ") + 1, *third = strchr(second, '\n') + 1;
    char *cut = malloc(len);
    assert_non_null(cut);
    memcpy(cut, orig, (size_t)(second - orig));
    memcpy(cut + (second - orig), third, len - (size_t)(third - orig));
    spill(st, cut, len - (size_t)(third - second));
    snprintf(st_line, sizeof st_line, "%s:3: the line's checksum does not match", st);
    assert_resume_refused(pgn, st, st_line, false);
    // The last line cut short (a hard kill): that pair is played again, and the cut text is
    // gone from the state file, which a second resume reads whole.
    spill(st, orig, len - 10);
    run_resumable(pgn, st, 0, true, &t);
    assert_int_equal(t.pairs_resumed, 2);
    assert_consistent(&t, 8);
    run_resumable(pgn, st, 0, true, &t);
    assert_int_equal(t.pairs_resumed, 8);
    unlink(pgn), unlink(st);
    // A match with a state file and no PGN: the same checksum guards it.
    run_resumable(NULL, st, 3, false, &t);
    edit_state_result(st, 1);
    snprintf(st_line, sizeof st_line, "%s:3: the line's checksum does not match", st);
    assert_resume_refused(NULL, st, st_line, false);
    free(cut), free(orig);
    unlink(st);
}

// Issue 23: PGN tag values are escaped (a name A"B\C wrote [White "A"B\C"], which no reader
// takes), in the match's PGN and in pgn_write itself (hansu-selfplay export's writer); a '}'
// in a comment no longer ends it early.
static void test_pgn_escaping(void **state) {
    (void)state;
    char pgn[512];
    temp_path(pgn, sizeof pgn, "esc.pgn");
    MatchConfig c = base_config(2);
    c.pgn_path = pgn;
    c.event = "ev\"il";
    fake_spec(&c.engine[0], "A\"B\\C", "good", NULL);
    fake_spec(&c.engine[1], "B", "good", NULL);
    MatchTally t;
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_int_equal(count_in_file(pgn, "[White \"A\\\"B\\\\C\"]\n"), 1);
    assert_int_equal(count_in_file(pgn, "[Black \"A\\\"B\\\\C\"]\n"), 1);
    assert_int_equal(count_in_file(pgn, "[Event \"ev\\\"il\"]\n"), 2);
    unlink(pgn);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    Move moves[1] = {MOVE_NONE};
    const char *comments[1] = {"a}b"};
    PgnTag tag = {"Seed", "1\\2"};
    PgnGame g = {.event = "e",
                 .site = "line\nbreak",
                 .date = "2026.01.01",
                 .white = "w",
                 .black = "b",
                 .fen = "x",
                 .moves = moves,
                 .nmoves = 1,
                 .winner = CHO,
                 .reason = REASON_CHECKMATE,
                 .detail = "why } not",
                 .comments = comments,
                 .tags = &tag,
                 .ntags = 1};
    assert_int_equal(pgn_write(f, &g, &err), STATUS_OK);
    fclose(f);
    assert_non_null(strstr(text, "[Site \"line break\"]\n"));
    assert_non_null(strstr(text, "[Seed \"1\\\\2\"]\n"));
    assert_non_null(strstr(text, "{why ) not} 1-0\n"));
    assert_non_null(strstr(text, "{a)b}"));
    free(text);
}

// Issue 23: every output path is checked before the first game (a --json that could not be
// written was found after the first pair): a file under a missing folder, a folder given as
// the file; no engine is even started (FAKE_ENGINE_PIDFILE stays empty).
static void test_unwritable_outputs(void **state) {
    (void)state;
    char missing[512], folder[512], pids[512], pgn[600];
    temp_path(missing, sizeof missing, "nodir");
    strcat(missing, "/out");
    snprintf(folder, sizeof folder, "%s/tests", HANSU_BINARY_DIR);
    temp_path(pids, sizeof pids, "out_pids");
    temp_path(pgn, sizeof pgn, "out.pgn");
    const char *flag[] = {"--json", "--json", "--pgn", "--state", "--state"};
    const char *path[] = {missing, folder, folder, missing, folder};
    for (int i = 0; i < 5; i++) {
        MatchConfig c = base_config(2);
        fake_spec(&c.engine[0], "A", "good", NULL);
        fake_spec(&c.engine[1], "B", "good", NULL);
        c.json_path = i < 2 ? path[i] : NULL;
        c.pgn_path = i == 2 ? path[i] : i > 2 ? pgn : NULL;
        c.state_path = i > 2 ? path[i] : NULL;
        unlink(pids);
        setenv("FAKE_ENGINE_PIDFILE", pids, 1);
        MatchTally t;
        ErrorInfo err;
        Status st = match_run(&c, &t, NULL, NULL, &err);
        unsetenv("FAKE_ENGINE_PIDFILE");
        assert_int_equal(st, STATUS_IO);
        char want[600];
        snprintf(want, sizeof want, "%s %s: ", flag[i], path[i]);
        if (!strstr(err.msg, want))
            fail_msg("case %d: %s", i, err.msg);
        assert_int_equal(access(pids, F_OK), -1); // no engine started
        assert_int_equal(access(pgn, F_OK), -1);  // nothing written
    }
    unlink(pids);
}

typedef struct Writer {
    MatchConfig c;
    MatchTally t;
    Status st;
    ErrorInfo err;
} Writer;

static void *run_writer(void *arg) {
    Writer *w = arg;
    w->st = match_run(&w->c, &w->t, NULL, NULL, &w->err);
    return NULL;
}

// Two writers on one PGN: the second (a --resume of the same match) is refused at once
// naming the holder's pid, and the first finishes intact.
static void test_two_writers(void **state) {
    (void)state;
    char pgn[512], st[512];
    temp_path(pgn, sizeof pgn, "two.pgn");
    temp_path(st, sizeof st, "two.state");
    Writer first = {.c = base_config(16)};
    first.c.pgn_path = pgn;
    first.c.state_path = st;
    fake_spec(&first.c.engine[0], "A", "slow", "2");
    fake_spec(&first.c.engine[1], "B", "slow", "2");
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, run_writer, &first), 0);
    for (int i = 0; i < 500 && count_in_file(st, "pair ") == 0; i++)
        usleep(10000);
    Writer second = first;
    second.c.resume = true;
    run_writer(&second);
    pthread_join(th, NULL);
    char want[64];
    snprintf(want, sizeof want, "locked by another writer, pid %d", (int)getpid());
    assert_int_equal(second.st, STATUS_IO);
    if (!strstr(second.err.msg, want) || !strstr(second.err.msg, ".lock"))
        fail_msg("second writer: %s", second.err.msg);
    assert_int_equal(first.st, STATUS_OK);
    assert_consistent(&first.t, 8);
    assert_int_equal(count_in_file(st, "pair "), 8);
    assert_int_equal(count_in_file(pgn, "[Variant \"janggi\"]"), 16);
    assert_int_equal(count_in_file(pgn, "[Result "), 16);
    char lock[600];
    snprintf(lock, sizeof lock, "%s.lock", pgn);
    assert_int_equal(access(lock, F_OK), -1); // released and removed
    unlink(pgn), unlink(st);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resume),
        cmocka_unit_test(test_interrupt_mid_game),
        cmocka_unit_test(test_no_overwrite),
        cmocka_unit_test(test_resume_short_pgn),
        cmocka_unit_test(test_resume_edited_pgn),
        cmocka_unit_test(test_resume_edited_state),
        cmocka_unit_test(test_pgn_escaping),
        cmocka_unit_test(test_unwritable_outputs),
        cmocka_unit_test(test_two_writers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
