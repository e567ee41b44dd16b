// SPDX-License-Identifier: MIT
// hansu-nnue, the NNUE trainer's program (tuner/nnue/), end to end on a tiny shard that
// hansu-selfplay plays for it (the same bytes twice, a net the engine loads, its JSON and CSV, a
// resumed finished run), and one run per output (its lock files). The trainer in this process:
// test_nnue_train.c.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine.h"
#include "nnue.h"
#include "run_lock.h"

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *text = calloc(1, 1 << 20);
    size_t n = fread(text, 1, (1 << 20) - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

// The text of OUT.log.
static char *slurp_log(const char *out) {
    char path[512];
    snprintf(path, sizeof path, "%s.log", out);
    return slurp(path);
}

// Every field docs/json-outputs.md lists for hansu-nnue (the backticked names of the first
// column of its table) is in the JSON, and every top-level key of the JSON is listed.
static void check_json_documented(const char *json_path) {
    char *doc = slurp(HANSU_SOURCE_DIR "/docs/json-outputs.md"), *json = slurp(json_path);
    char *sec = strstr(doc, "## `hansu-nnue --json FILE`");
    assert_non_null(sec);
    char *end = strstr(sec + 3, "\n## ");
    if (end)
        *end = '\0';
    int listed = 0;
    for (char *line = strstr(sec, "\n| `"); line; line = strstr(line + 1, "\n| `")) {
        char *cell_end = strstr(line + 3, " |");
        for (char *q = strchr(line + 3, '`'); q && q < cell_end; q = strchr(q + 1, '`')) {
            char *close = strchr(q + 1, '`'), key[64];
            snprintf(key, sizeof key, "\"%.*s\":", (int)(close - q - 1), q + 1);
            if (!strstr(json, key))
                fail_msg("docs/json-outputs.md lists %s, the JSON lacks it", key);
            listed++, q = close;
        }
    }
    // Top-level keys: lines "  \"key\":" of the pretty-printed object.
    for (char *k = strstr(json, "\n  \""); k; k = strstr(k + 1, "\n  \"")) {
        char key[64], quoted[70];
        snprintf(key, sizeof key, "%.*s", (int)(strchr(k + 4, '"') - (k + 4)), k + 4);
        snprintf(quoted, sizeof quoted, "`%s`", key);
        if (!strstr(sec, quoted))
            fail_msg("the JSON has %s, docs/json-outputs.md does not list it", key);
    }
    assert_true(listed > 15);
    free(doc);
    free(json);
}

// hansu-selfplay plays a tiny shard; hansu-nnue trains on it twice (the same bytes), writes a
// net the engine loads, its JSON and CSV; a resumed finished run writes the same net again.
static void test_end_to_end(void **state) {
    (void)state;
    char dir[256], cmd[4096];
    snprintf(dir, sizeof dir, "%s/test_nnue_train.%d.d", HANSU_BINARY_DIR, (int)getpid());
    snprintf(cmd, sizeof cmd,
             "rm -rf '%s' && mkdir -p '%s' && '%s/selfplay/hansu-selfplay' --games 6 --nodes 60 "
             "--threads 1 --no-bench --progress 0 --out '%s/run' > '%s/selfplay.log' 2>&1",
             dir, dir, HANSU_BINARY_DIR, dir, dir);
    assert_int_equal(system(cmd), 0);
    const char *flags = "--epochs 2 --batch 128 --threads 2 --skip-plies 0 --valid 0.3";
    for (int run = 0; run < 2; run++) {
        snprintf(cmd, sizeof cmd,
                 "'%s/tuner/nnue/hansu-nnue' %s --out '%s/net%d.nnue' --json '%s/net%d.json' "
                 "'%s/run' > '%s/train%d.log' 2>&1",
                 HANSU_BINARY_DIR, flags, dir, run, dir, run, dir, dir, run);
        if (system(cmd) != 0) {
            snprintf(cmd, sizeof cmd, "cat '%s/train%d.log'", dir, run);
            assert_int_equal(system(cmd), 0);
            fail_msg("hansu-nnue failed");
        }
    }
    char path[512];
    NnueNet *a = nnue_net_alloc(), *b = nnue_net_alloc();
    ErrorInfo err;
    snprintf(path, sizeof path, "%s/net0.nnue", dir);
    if (nnue_load(path, NULL, a, &err) != STATUS_OK)
        fail_msg("%s", err.msg);
    assert_non_null(strstr(a->provenance, "\"sha256\""));
    snprintf(path, sizeof path, "%s/net1.nnue", dir);
    if (nnue_load(path, NULL, b, &err) != STATUS_OK)
        fail_msg("%s", err.msg);
    assert_memory_equal(a->ft_weight, b->ft_weight, sizeof(int16_t) * NNUE_INPUTS * NNUE_L1);
    assert_memory_equal(a->out_weight, b->out_weight, sizeof a->out_weight);
    snprintf(cmd, sizeof cmd,
             "grep -q '\"quant_max_abs_cp\"' '%s/net0.json' && grep -q '^2,' '%s/net0.nnue.csv' "
             "&& grep -q 'positions/s' '%s/train0.log'",
             dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/net0.json", dir);
    check_json_documented(path);
    // --no-mirror: half the training positions (the mirrors are the other half), the same
    // validation positions.
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' %s --no-mirror --out '%s/plain.nnue' --json "
             "'%s/plain.json' '%s/run' > /dev/null && "
             "a=$(grep -o '\"train_positions\": [0-9]*' '%s/net0.json' | grep -o '[0-9]*$') && "
             "b=$(grep -o '\"train_positions\": [0-9]*' '%s/plain.json' | grep -o '[0-9]*$') && "
             "v=$(grep -o '\"valid_positions\": [0-9]*' '%s/net0.json' | grep -o '[0-9]*$') && "
             "w=$(grep -o '\"valid_positions\": [0-9]*' '%s/plain.json' | grep -o '[0-9]*$') && "
             "test \"$a\" -gt 0 && test \"$a\" -eq $((2 * b)) && test \"$v\" -eq \"$w\" && "
             "grep -q '\"mirror\": false' '%s/plain.json'",
             HANSU_BINARY_DIR, flags, dir, dir, dir, dir, dir, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    // --init: starts from net0's weights (another net than from random weights, the JSON says
    // so); a net of another variant is refused before any data is read (the input is missing).
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' %s --init '%s/net0.nnue' --out '%s/init.nnue' --json "
             "'%s/init.json' '%s/run' > /dev/null && grep -q '\"init\": \"' '%s/init.json' && "
             "grep -q '\"init\": null' '%s/net0.json' && ! cmp -s '%s/init.nnue' '%s/net0.nnue' "
             "&& grep -q '\"quant_equals_init\": false' '%s/init.json'",
             HANSU_BINARY_DIR, flags, dir, dir, dir, dir, dir, dir, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    // --out-buckets 8 from --init's net of one layer: a net of 8 output layers the engine
    // loads, its JSON and provenance say so; a checkpoint of one layer does not resume it; 9 is
    // a bad command line.
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' %s --out-buckets 8 --init '%s/net0.nnue' --out "
             "'%s/outs.nnue' --json '%s/outs.json' '%s/run' > /dev/null && "
             "grep -q '\"out_buckets\": 8' '%s/outs.json' && "
             "grep -q '\"out_buckets\": 1' '%s/net0.json' && "
             "'%s/tuner/nnue/hansu-nnue' %s --out-buckets 8 --resume --out '%s/net0.nnue' "
             "'%s/no/such/run' 2>&1 | grep -q 'this run has out_buckets=8'",
             HANSU_BINARY_DIR, flags, dir, dir, dir, dir, dir, dir, HANSU_BINARY_DIR, flags, dir,
             dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/outs.nnue", dir);
    if (nnue_load(path, NULL, b, &err) != STATUS_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(b->out_buckets, 8);
    assert_non_null(strstr(b->provenance, "\"out_buckets\": 8"));
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' --out-buckets 9 --out x '%s/run' 2>&1 | "
             "grep -q -- '--out-buckets: 9 is out of range 1..8'",
             HANSU_BINARY_DIR, dir);
    assert_int_equal(system(cmd), 0);
    // --arch palace from --init's plain net: with --lr 0 the palace net is the plain net in every
    // bucket (rounding gives --init's weights back, the JSON says so); a net of another L1 is
    // refused before any data is read (the input is missing).
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' %s --arch palace --init '%s/net0.nnue' --lr 0 --lr-min 0 "
             "--out '%s/pal.nnue' --json '%s/pal.json' '%s/run' > /dev/null && "
             "grep -q '\"quant_equals_init\": true' '%s/pal.json' && "
             "'%s/tuner/nnue/hansu-nnue' --l1 512 --init '%s/net0.nnue' --out '%s/x.nnue' "
             "'%s/missing' 2>&1 | grep -q 'a net of L1 256, this run trains L1 512'",
             HANSU_BINARY_DIR, flags, dir, dir, dir, dir, dir, HANSU_BINARY_DIR, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/pal.nnue", dir);
    if (nnue_load(path, NULL, b, &err) != STATUS_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(b->input_set, NNUE_INPUT_PALACE);
    for (int k = 0; k < NNUE_PALACE_BUCKETS; k++)
        assert_memory_equal(nnue_weight_row(b, k * NNUE_INPUTS), a->ft_weight,
                            sizeof(int16_t) * NNUE_INPUTS * NNUE_L1);
    // Issue 39: a fine-tune whose updates rounding erases writes its --init net again, silently.
    // With --lr 0 nothing is learnt: the run says so, and the JSON's quant_equals_init.
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' %s --init '%s/net0.nnue' --lr 0 --lr-min 0 --out "
             "'%s/same.nnue' --json '%s/same.json' '%s/run' > '%s/same.log' && "
             "grep -q '\"quant_equals_init\": true' '%s/same.json' && "
             "grep -q '^quantised: 0 of [0-9]* weights differ from --init' '%s/same.log' && "
             "grep -q 'note: rounding erased what this run learnt' '%s/same.log' && "
             "grep -q '\"quant_equals_init\": false' '%s/net0.json'",
             HANSU_BINARY_DIR, flags, dir, dir, dir, dir, dir, dir, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    // Issue 39: a net that fails --quant-bound is a rejected candidate, not an error: exit 3,
    // no net, and the JSON written with written false and the reason (scripts/train reads them);
    // a written net's JSON says written true.
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' %s --quant-bound 0 --out '%s/qb.nnue' --json "
             "'%s/qb.json' '%s/run' > /dev/null 2> '%s/qb.err'",
             HANSU_BINARY_DIR, flags, dir, dir, dir, dir);
    assert_int_equal(WEXITSTATUS(system(cmd)), 3);
    snprintf(cmd, sizeof cmd,
             "test ! -e '%s/qb.nnue' && grep -q 'bound 0.0, --quant-bound): .*qb.nnue not written' "
             "'%s/qb.err' && grep -q '\"written\": false' '%s/qb.json' && "
             "grep -q '\"reason\": \"the quantised net differs from the float net by .*--quant-"
             "bound' '%s/qb.json' && grep -q '\"out_sha256\": null' '%s/qb.json' && "
             "grep -q '\"written\": true' '%s/net0.json' && grep -q '\"reason\": null' "
             "'%s/net0.json'",
             dir, dir, dir, dir, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' --variant xiangqi --init '%s/net0.nnue' --out '%s/x.nnue' "
             "'%s/missing' 2>&1 | grep -q 'a net for janggi, not for xiangqi'",
             HANSU_BINARY_DIR, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    // Resuming a finished run trains nothing more and writes the same net.
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' %s --resume --out '%s/net0.nnue' '%s/run' > /dev/null && "
             "cmp -s '%s/net0.nnue' '%s/net1.nnue'",
             HANSU_BINARY_DIR, flags, dir, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    // Issue 39: the checkpoint records the data filters and the inputs. Resumed with
    // --no-mirror it is refused before any data is read; on other shards (another self-play
    // run), after they are read, naming the file; on the same shards copied elsewhere (a moved
    // folder) it resumes (the net's provenance then names the new paths).
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' %s --no-mirror --resume --out '%s/net0.nnue' "
             "'%s/no/such/run' 2>&1 | grep -q 'written with mirror=1, this run has mirror=0'",
             HANSU_BINARY_DIR, flags, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "'%s/selfplay/hansu-selfplay' --games 6 --nodes 60 --seed 2 --threads 1 --no-bench "
             "--progress 0 --out '%s/run2' > /dev/null 2>&1 && '%s/tuner/nnue/hansu-nnue' %s "
             "--resume --out '%s/net0.nnue' '%s/run2' 2>&1 | grep -q 'input 1 was .*/run/shard-"
             "[0-9]*.h5 (sha256 [0-9a-f]*), this run has .*/run2/shard-[0-9]*.h5 (sha256'",
             HANSU_BINARY_DIR, dir, HANSU_BINARY_DIR, flags, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "cp -r '%s/run' '%s/moved' && '%s/tuner/nnue/hansu-nnue' %s --resume --out "
             "'%s/net0.nnue' '%s/moved' | grep -q 'resumed from .*net0.nnue.ckpt after epoch 2'",
             dir, dir, HANSU_BINARY_DIR, flags, dir, dir);
    assert_int_equal(system(cmd), 0);
    // Hostile trial: --resume's checkpoint was checked only after every shard was read. Each
    // check now comes first: with an input that does not exist, the error is the checkpoint's.
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' %s --epochs 3 --resume --out '%s/net0.nnue' "
             "'%s/no/such/run' 2>&1 | grep -q 'written with epochs=2, this run has epochs=3'",
             HANSU_BINARY_DIR, flags, dir, dir);
    assert_int_equal(system(cmd), 0);
    // The checkpoint names its variant: a janggi run is not resumed as xiangqi's.
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' %s --variant XiangQi --resume --out '%s/net0.nnue' "
             "'%s/no/such/run' 2>&1 | grep -q 'written with variant=janggi, this run has "
             "variant=xiangqi'",
             HANSU_BINARY_DIR, flags, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' %s --resume --out '%s/none.nnue' '%s/no/such/run' 2>&1 "
             "| grep -q 'none.nnue.ckpt: cannot open the checkpoint'",
             HANSU_BINARY_DIR, flags, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "head -c 100 '%s/net0.nnue.ckpt' > '%s/cut.ckpt' && '%s/tuner/nnue/hansu-nnue' %s "
             "--resume --checkpoint '%s/cut.ckpt' --out '%s/net0.nnue' '%s/no/such/run' 2>&1 | "
             "grep -q 'cut.ckpt: .*bytes, a checkpoint of this net has'",
             dir, dir, HANSU_BINARY_DIR, flags, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    // Bad flags: exit 2 with a message, before any data is read.
    snprintf(cmd, sizeof cmd, "'%s/tuner/nnue/hansu-nnue' --epochs 0 --out x '%s/run' 2>/dev/null",
             HANSU_BINARY_DIR, dir);
    assert_int_equal(WEXITSTATUS(system(cmd)), 2);
    // hansu-nnue reads its flags with the parser of every tool (it had its own): --name=value,
    // and the range in the message.
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' --epochs=0 --out x '%s/run' 2>&1 | "
             "grep -q -- '--epochs: 0 is out of range 1..100000'",
             HANSU_BINARY_DIR, dir);
    assert_int_equal(system(cmd), 0);
    // An output folder that does not exist: refused before any data is read.
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' --out '%s/no/such/net.nnue' '%s/run' 2>&1 | "
             "grep -q 'cannot write into'",
             HANSU_BINARY_DIR, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(a);
    free(b);
}

// Issue 39: two hansu-nnue on one --out both wrote OUT.ckpt.tmp and one died minutes later.
// The run takes OUT.lock first: while another process holds it (here this test), the run is
// refused at start naming the holder's pid, before its (missing) input is read; released, the
// same command goes on to the input.
static void test_one_run_per_out(void **state) {
    (void)state;
    char out[256], lockfile[300], cmd[1024], want[64];
    snprintf(out, sizeof out, "%s/test_nnue_train.%d.lock.nnue", HANSU_BINARY_DIR, (int)getpid());
    snprintf(lockfile, sizeof lockfile, "%s.lock", out);
    snprintf(cmd, sizeof cmd,
             "'%s/tuner/nnue/hansu-nnue' --out '%s' '%s/no/such/run' > '%s.log' 2>&1",
             HANSU_BINARY_DIR, out, HANSU_BINARY_DIR, out);
    RunLock *lock;
    ErrorInfo err;
    assert_int_equal(run_lock_take(lockfile, &lock, &err), STATUS_OK);
    assert_int_equal(WEXITSTATUS(system(cmd)), 1);
    char *log = slurp_log(out);
    snprintf(want, sizeof want, "locked by another writer, pid %d", (int)getpid());
    if (!strstr(log, want) || strstr(log, "no/such/run"))
        fail_msg("a second run on --out: %s", log);
    free(log);
    run_lock_release(lock);
    assert_int_equal(WEXITSTATUS(system(cmd)), 1);
    log = slurp_log(out);
    if (strstr(log, "locked") || !strstr(log, "no/such/run"))
        fail_msg("the lock released: %s", log);
    free(log);
    assert_int_equal(access(lockfile, F_OK), -1); // the run removes its lock file
    snprintf(cmd, sizeof cmd, "%s.log", out);
    remove(cmd);
}

// A run refused at start while this test holds the lock file lockfile, naming this pid: cmd is
// hansu-nnue's command line (its output to log), its input missing and never reached; the
// message names the lock file by named.
static void expect_locked_out(const char *cmd, const char *lockfile, const char *named,
                              const char *log) {
    RunLock *lock;
    ErrorInfo err;
    char want[64], full[2048];
    assert_int_equal(run_lock_take(lockfile, &lock, &err), STATUS_OK);
    snprintf(full, sizeof full, "%s > '%s' 2>&1", cmd, log);
    int rc = WEXITSTATUS(system(full));
    run_lock_release(lock);
    snprintf(want, sizeof want, "locked by another writer, pid %d", (int)getpid());
    char *text = slurp(log);
    if (rc != 1 || !strstr(text, want) || !strstr(text, named))
        fail_msg("%s: rc %d, %s", cmd, rc, text);
    free(text);
    remove(log);
}

// Issue 39's re-trial: the lock covered --out only, so two runs on one --checkpoint (or --csv,
// --json) both ran and one died at an epoch with "CKPT: No such file or directory"; and it was
// taken beside the name as typed, so a run through a link to another run's --out was not
// refused. Every output is locked, beside its target: "FILE.lock" of the file a link points to.
static void test_one_run_per_output(void **state) {
    (void)state;
    char d[256], cmd[1024], lockfile[320], log[320];
    snprintf(d, sizeof d, "%s/test_nnue_train.%d.outputs", HANSU_BINARY_DIR, (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/real' '%s/links'", d, d, d);
    assert_int_equal(system(cmd), 0);
    snprintf(log, sizeof log, "%s/run.log", d);
    const char *flags[] = {"--checkpoint", "--csv", "--json"};
    for (int i = 0; i < 3; i++) {
        snprintf(lockfile, sizeof lockfile, "%s/shared.lock", d);
        snprintf(cmd, sizeof cmd,
                 "'%s/tuner/nnue/hansu-nnue' --out '%s/own%d.nnue' %s '%s/shared' "
                 "'%s/no/such/run'",
                 HANSU_BINARY_DIR, d, i, flags[i], d, d);
        expect_locked_out(cmd, lockfile, "/shared.lock", log);
    }
    // links/n.nnue -> ../real/n.nnue: its lock is real/n.nnue.lock, whichever name is given.
    snprintf(cmd, sizeof cmd, "ln -s ../real/n.nnue '%s/links/n.nnue'", d);
    assert_int_equal(system(cmd), 0);
    snprintf(lockfile, sizeof lockfile, "%s/real/n.nnue.lock", d);
    snprintf(cmd, sizeof cmd, "'%s/tuner/nnue/hansu-nnue' --out '%s/links/n.nnue' '%s/no/such/run'",
             HANSU_BINARY_DIR, d, d);
    expect_locked_out(cmd, lockfile, "real/n.nnue.lock", log);
    // --out a FIFO (or device): written into, but its checkpoint and CSV, which default to
    // beside it, are refused at start (--out /dev/null put null.ckpt into /dev), nothing made.
    snprintf(cmd, sizeof cmd,
             "cd '%s' && mkfifo fifo && '%s/tuner/nnue/hansu-nnue' --out fifo no/such/run 2>&1 | "
             "grep -q 'fifo is a device or FIFO, not a file: no fifo.csv beside it (give --csv "
             "FILE)' && '%s/tuner/nnue/hansu-nnue' --out fifo --csv c.csv no/such/run 2>&1 | "
             "grep -q 'no fifo.ckpt beside it (give --checkpoint FILE)' && "
             "[ \"$(ls)\" = \"$(printf 'fifo\\nlinks\\nreal')\" ]",
             d, HANSU_BINARY_DIR, HANSU_BINARY_DIR);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
    assert_int_equal(system(cmd), 0);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_end_to_end),
        cmocka_unit_test(test_one_run_per_out),
        cmocka_unit_test(test_one_run_per_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
