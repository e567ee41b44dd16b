// SPDX-License-Identifier: MIT
// The NNUE in the engine (issue 26 §1): UCI `EvalFile` + `Use NNUE` make `eval` and the search
// use the net (its evaluation equals nnue_evaluate on a refreshed accumulator, go answers a legal
// move, the search's node count changes); the accumulators the search keeps incrementally equal
// a refresh at every evaluated node, janggi and xiangqi, plain and palace-bucketed nets (a palace
// net of 9 equal buckets searches the plain net's tree); a missing, truncated or wrong-variant
// EvalFile is refused by name with the reason, the evaluation stays and go still answers; a
// new UCI_Variant drops the old variant's net and says so; the classical path is unchanged.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench.h"
#include "board.h"
#include "engine.h"
#include "eval.h"
#include "fen.h"
#include "nnue.h"
#include "nnue_testnet.h"
#include "notation.h"
#include "search.h"
#include "uci.h"
#include "uci_session.h"
#include "variant.h"

static uint64_t rng_state = 0x5eed; // the random nets' draws

// The files of the tests: a janggi net, a xiangqi net, a truncated janggi net, in a temp folder.
static char dir[64], janggi_path[128], xiangqi_path[128], cut_path[128], missing_path[128];
static NnueNet *janggi_net, *xiangqi_net;

static int setup(void **state) {
    (void)state;
    engine_init();
    snprintf(dir, sizeof dir, "/tmp/hansu-nnue-search-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(janggi_path, sizeof janggi_path, "%s/janggi.nnue", dir);
    snprintf(xiangqi_path, sizeof xiangqi_path, "%s/xiangqi.nnue", dir);
    snprintf(cut_path, sizeof cut_path, "%s/cut.nnue", dir);
    snprintf(missing_path, sizeof missing_path, "%s/missing.nnue", dir);
    janggi_net = nnue_test_random_net("janggi", &rng_state);
    xiangqi_net = nnue_test_random_net("xiangqi", &rng_state);
    ErrorInfo err;
    if (nnue_save(janggi_net, janggi_path, &err) != STATUS_OK ||
        nnue_save(xiangqi_net, xiangqi_path, &err) != STATUS_OK)
        return -1;
    size_t len;
    uint8_t *bytes = nnue_serialise(janggi_net, &len);
    FILE *f = fopen(cut_path, "wb");
    if (!bytes || !f || fwrite(bytes, 1, len / 2, f) != len / 2)
        return -1;
    fclose(f);
    free(bytes);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    unlink(janggi_path);
    unlink(xiangqi_path);
    unlink(cut_path);
    rmdir(dir);
    free(janggi_net);
    free(xiangqi_net);
    return 0;
}

static const char *setoption(UciSession *s, const char *name, const char *value) {
    char line[512];
    snprintf(line, sizeof line, "setoption name %s value %s", name, value);
    return uci_session_say(s, line);
}

// The centipawns of `eval`'s answer; *nnue tells which evaluation answered.
static int eval_cp(UciSession *s, bool *nnue) {
    const char *a = uci_session_say(s, "eval");
    const char *e = strstr(a, "Evaluation: ");
    assert_non_null(e);
    *nnue = strstr(e, "; nnue ") != NULL;
    if (!*nnue)
        assert_non_null(strstr(e, "; classical)"));
    return atoi(e + strlen("Evaluation: "));
}

// nnue_evaluate on a fresh accumulator of the FEN's position.
static int reference_eval(const NnueNet *net, const Variant *v, const char *fen) {
    static Board b;
    static _Alignas(64) NnueAccumulator acc;
    assert_int_equal(fen_parse_variant(&b, v, fen, NULL), STATUS_OK);
    nnue_refresh(net, &b, &acc, nnue_path_best());
    return nnue_evaluate(net, &acc, b.side, nnue_path_best());
}

// go's bestmove is a legal move of the FEN's position.
static void assert_legal_bestmove(const char *answer, const Variant *v, const char *fen) {
    static Board b;
    const char *bm = strstr(answer, "bestmove ");
    assert_non_null(bm);
    char mv[16] = "";
    sscanf(bm + 9, "%15s", mv);
    assert_int_equal(fen_parse_variant(&b, v, fen, NULL), STATUS_OK);
    Move m;
    assert_int_equal(move_parse_uci(&b, mv, &m, NULL), STATUS_OK);
}

// Whether this build compiled in a net for v (engine/<variant>/net.nnue): Use NNUE's default.
static bool has_compiled_in_net(const Variant *v) {
    const uint8_t *data;
    size_t len;
    return nnue_embedded(v, &data, &len);
}

static const char *const FENS[] = {
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcA5/4K4/RNB2AB2 w - - 0 1",
    "4ka3/4a4/9/9/4c4/9/9/9/4A4/3K1A3 w - - 0 1",
};

// (a) EvalFile + Use NNUE: eval is the net's on a refreshed accumulator, go answers a legal
// move; Use NNUE false goes back to the classical evaluation, exactly eval_evaluate.
static void test_uci_evalfile(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    bool shipped = has_compiled_in_net(&VARIANT_JANGGI); // Use NNUE's default
    assert_non_null(strstr(uci_session_say(&s, "uci"),
                           shipped ? "option name Use NNUE type check default true\n"
                                   : "option name Use NNUE type check default false\n"));
    assert_non_null(strstr(uci_session_say(&s, "uci"), "option name EvalFile type string default"));
    setoption(&s, "Use NNUE", "false"); // set: a net loaded next is not used (never set, it is)
    const char *a = setoption(&s, "EvalFile", janggi_path);
    assert_non_null(strstr(a, "info string EvalFile: loaded"));
    assert_non_null(strstr(a, "Use NNUE is false")); // loaded, not yet used: said
    bool nnue;
    int classical = eval_cp(&s, &nnue);
    assert_false(nnue);
    assert_string_equal(setoption(&s, "Use NNUE", "true"), "");
    for (size_t i = 0; i < sizeof FENS / sizeof FENS[0]; i++) {
        char line[256];
        snprintf(line, sizeof line, "position fen %s", FENS[i]);
        assert_string_equal(uci_session_say(&s, line), "");
        int v = eval_cp(&s, &nnue);
        assert_true(nnue);
        int ref = reference_eval(janggi_net, &VARIANT_JANGGI, FENS[i]);
        assert_true(ref > -18000 && ref < 18000); // inside the search's clamp
        assert_int_equal(v, ref);
        assert_legal_bestmove(uci_session_say(&s, "go depth 4"), &VARIANT_JANGGI, FENS[i]);
    }
    assert_string_equal(uci_session_say(&s, "position startpos"), "");
    assert_int_not_equal(eval_cp(&s, &nnue), classical); // a random net is not the classical
    setoption(&s, "Use NNUE", "false");
    assert_int_equal(eval_cp(&s, &nnue), classical);
    assert_false(nnue);
    static Board b;
    fen_parse(&b, FENS[0], NULL);
    assert_int_equal(classical, eval_evaluate(&b));
    uci_session_close(&s);
}

// The search through the net: search_evaluate is the net's, and the net changes the search
// (another node count at the same depth); a NULL net gives back the classical search exactly.
static void test_search_uses_net(void **state) {
    (void)state;
    Searcher *sr = search_create(4);
    assert_non_null(sr);
    static Board b;
    fen_parse(&b, FENS[1], NULL);
    SearchLimits lim = {.depth = 6};
    SearchResult classical = search_run(sr, &b, &lim, NULL, NULL, NULL);
    assert_true(search_set_net(sr, janggi_net));
    assert_ptr_equal(search_get_net(sr), janggi_net);
    assert_int_equal(search_evaluate(sr, &b), reference_eval(janggi_net, &VARIANT_JANGGI, FENS[1]));
    SearchResult with_net = search_run(sr, &b, &lim, NULL, NULL, NULL);
    assert_int_not_equal(with_net.nodes, classical.nodes);
    assert_true(search_set_net(sr, NULL));
    SearchResult again = search_run(sr, &b, &lim, NULL, NULL, NULL);
    assert_int_equal(again.nodes, classical.nodes);
    assert_int_equal(again.best, classical.best);
    search_destroy(sr);
}

// Near the move limit the search adds the evaluation's points term (eval_ply_term, in the net's
// units: net_scale_pct) to the net, which sees no ply; earlier the net alone. FENS[1] at ply 190
// (move 96, Cho to move).
static void test_net_gets_ply_term(void **state) {
    (void)state;
    const char *late_fen =
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcA5/4K4/RNB2AB2 w - - 0 96";
    Searcher *sr = search_create(4);
    assert_non_null(sr);
    assert_true(search_set_net(sr, janggi_net));
    static Board early, late;
    assert_int_equal(fen_parse(&early, FENS[1], NULL), STATUS_OK);
    assert_int_equal(fen_parse(&late, late_fen, NULL), STATUS_OK);
    assert_int_equal(board_game_ply(&late), 190);
    assert_int_equal(eval_ply_term(&early), 0);
    int term = eval_ply_term(&late);
    assert_int_not_equal(term, 0);
    int net = reference_eval(janggi_net, &VARIANT_JANGGI, late_fen);
    assert_int_equal(net, reference_eval(janggi_net, &VARIANT_JANGGI, FENS[1]));
    assert_int_equal(search_evaluate(sr, &early), net);
    // The term is classical cp, taken in the net's units: scaled by net_scale_pct / 100.
    SearchParams p = SEARCH_PARAMS_DEFAULT;
    const int scales[] = {SEARCH_PARAMS_DEFAULT.net_scale_pct, 100, 300};
    for (int k = 0; k < 3; k++) {
        p.net_scale_pct = scales[k];
        search_set_params(sr, &p);
        assert_int_equal(search_evaluate(sr, &early), net);
        assert_int_equal(search_evaluate(sr, &late), net + term * scales[k] / 100);
    }
    search_destroy(sr);
}

// (b) Along searches of the bench positions, every accumulator the search evaluates, kept by
// updates after each make (captures, passes, the null move, quiescence), equals a refresh.
static void check_incremental(const Variant *v, const NnueNet *net, int positions) {
    Searcher *sr = search_create(4);
    assert_non_null(sr);
    assert_true(search_set_net(sr, net));
    search_set_nnue_check(sr, true);
    static Board b;
    const char *text = bench_text(v);
    int done = 0;
    SearchLimits lim = {.depth = 5};
    for (const char *p = text; *p && done < positions;) {
        char line[FEN_MAX_INPUT + 1];
        size_t len = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        p += len + (p[len] == '\n');
        if (!*line || *line == '#')
            continue;
        assert_int_equal(fen_parse_variant(&b, v, line, NULL), STATUS_OK);
        search_clear(sr);
        search_run(sr, &b, &lim, NULL, NULL, NULL);
        done++;
    }
    uint64_t mismatches = 99;
    uint64_t checked = search_nnue_checked(sr, &mismatches);
    print_message("%s: %llu evaluations compared with a refresh\n", v->name,
                  (unsigned long long)checked);
    assert_true(checked > 1000);
    assert_int_equal(mismatches, 0);
    search_destroy(sr);
}

static void test_incremental_janggi(void **state) {
    (void)state;
    check_incremental(&VARIANT_JANGGI, janggi_net, 12);
}

static void test_incremental_xiangqi(void **state) {
    (void)state;
    check_incremental(&VARIANT_XIANGQI, xiangqi_net, 12);
}

// The same along the searches with palace-bucketed nets of L1 512: a general's move refreshes its
// perspective, every other move updates it in the general's bucket.
static void test_incremental_palace(void **state) {
    (void)state;
    NnueNet *j = nnue_test_random_net_arch("janggi", NNUE_INPUT_PALACE, NNUE_L1_MAX, &rng_state);
    NnueNet *x = nnue_test_random_net_arch("xiangqi", NNUE_INPUT_PALACE, NNUE_L1_MAX, &rng_state);
    check_incremental(&VARIANT_JANGGI, j, 8);
    check_incremental(&VARIANT_XIANGQI, x, 8);
    free(x);
    free(j);
}

// A palace net whose 9 buckets are copies of a plain net evaluates every position as the plain
// net does, so its bench searches the same tree on every kernel: the refreshes after a general's
// move and the bucketed updates change the cost, never the scores.
static void test_palace_copy_bench(void **state) {
    (void)state;
    NnueNet *palace = nnue_net_alloc();
    assert_non_null(palace);
    *palace = *janggi_net;
    palace->input_set = NNUE_INPUT_PALACE;
    palace->buckets = NNUE_PALACE_BUCKETS;
    for (int k = 1; k < NNUE_PALACE_BUCKETS; k++)
        memcpy(nnue_weight_row(palace, k * NNUE_INPUTS), palace->ft_weight,
               sizeof(int16_t) * NNUE_INPUTS * (size_t)palace->l1);
    const char *text = bench_text(&VARIANT_JANGGI);
    BenchResult plain, bucketed;
    ErrorInfo err;
    assert_int_equal(bench_run_net(&VARIANT_JANGGI, text, 4, 1, janggi_net, nnue_path_best(), NULL,
                                   &plain, &err),
                     STATUS_OK);
    for (NnuePath path = NNUE_PORTABLE; path < NNUE_PATH_NB; path++) {
        if (!nnue_path_available(path))
            continue;
        assert_int_equal(
            bench_run_net(&VARIANT_JANGGI, text, 4, 1, palace, path, NULL, &bucketed, &err),
            STATUS_OK);
        assert_int_equal(bucketed.nodes, plain.nodes);
    }
    free(palace);
}

// (c) Refused files, each named with its reason; the evaluation stays as it was (the classical,
// then a loaded net), and go answers a legal move.
static void test_bad_evalfile(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    struct {
        const char *path, *reason;
    } bad[] = {
        {missing_path, "No such file"},
        {cut_path, "truncated"},
        {xiangqi_path, "a net for xiangqi, not for janggi"},
    };
    const char *start = FENS[0];
    bool nnue;
    setoption(&s, "Use NNUE", "false"); // the classical evaluation, compiled-in net or not
    for (int round = 0; round < 2; round++) {
        // Round 0 from the classical evaluation, round 1 with the janggi net in use.
        if (round == 1) {
            setoption(&s, "EvalFile", janggi_path);
            setoption(&s, "Use NNUE", "true");
        }
        int before = eval_cp(&s, &nnue);
        assert_int_equal(nnue, round == 1);
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            const char *a = setoption(&s, "EvalFile", bad[i].path);
            assert_non_null(strstr(a, "info string error: EvalFile refused: "));
            assert_non_null(strstr(a, bad[i].path));
            assert_non_null(strstr(a, bad[i].reason));
            assert_non_null(strstr(a, "the evaluation is unchanged"));
            assert_int_equal(eval_cp(&s, &nnue), before);
            assert_int_equal(nnue, round == 1);
            uci_session_say(&s, "position startpos");
            assert_legal_bestmove(uci_session_say(&s, "go depth 3"), &VARIANT_JANGGI, start);
        }
    }
    uci_session_close(&s);
}

// Each variant starts with its compiled-in net where it has one (Use NNUE then defaults to
// true); a new UCI_Variant drops the old variant's net and, while Use NNUE was never set, takes
// the new variant's default; <embedded> goes back to the compiled-in net. Use NNUE without a
// net says so (at setoption, at a new variant and at go) and evaluates classically: in this
// build that path runs for a variant that ships no net.
static void test_use_nnue_without_net(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    bool shipped = has_compiled_in_net(&VARIANT_JANGGI);
    bool xshipped = has_compiled_in_net(&VARIANT_XIANGQI);
    bool nnue;
    eval_cp(&s, &nnue);
    assert_true(nnue == shipped);
    const char *a = setoption(&s, "UCI_Variant", "xiangqi");
    assert_null(strstr(a, "error")); // Use NNUE was not set: nothing to say
    eval_cp(&s, &nnue);
    assert_true(nnue == xshipped); // the new variant's default, whatever janggi's was
    a = setoption(&s, "Use NNUE", "true");
    assert_true((strstr(a, "info string error: Use NNUE: no net is loaded for xiangqi") == NULL) ==
                xshipped);
    eval_cp(&s, &nnue);
    assert_true(nnue == xshipped);
    a = uci_session_say(&s, "go depth 2");
    assert_true((strstr(a, "no net is loaded for xiangqi") == NULL) == xshipped);
    assert_non_null(strstr(a, "bestmove "));
    assert_non_null(strstr(setoption(&s, "Use NNUE", "maybe"), "is not true or false"));
    assert_non_null(strstr(setoption(&s, "EvalFile", xiangqi_path), "loaded"));
    assert_int_equal(eval_cp(&s, &nnue),
                     reference_eval(xiangqi_net, &VARIANT_XIANGQI, VARIANT_XIANGQI.start_fen));
    assert_true(nnue); // Use NNUE was set first: the net is used once it loads
    a = setoption(&s, "UCI_Variant", "janggi"); // the xiangqi net is dropped
    assert_true((strstr(a, "no net is loaded for janggi") == NULL) == shipped);
    eval_cp(&s, &nnue);
    assert_true(nnue == shipped);
    setoption(&s, "EvalFile", janggi_path);
    eval_cp(&s, &nnue);
    assert_true(nnue);
    a = setoption(&s, "UCI_Variant", "xiangqi");
    assert_true((strstr(a, "no net is loaded for xiangqi") == NULL) == xshipped);
    eval_cp(&s, &nnue);
    assert_true(nnue == xshipped);
    a = setoption(&s, "EvalFile", "<embedded>");
    assert_true((strstr(a, "no net is loaded for xiangqi") == NULL) == xshipped);
    eval_cp(&s, &nnue);
    assert_true(nnue == xshipped);
    // Use NNUE set false stays false across variants, compiled-in nets or not.
    setoption(&s, "Use NNUE", "false");
    setoption(&s, "UCI_Variant", "janggi");
    eval_cp(&s, &nnue);
    assert_false(nnue);
    uci_session_close(&s);
}

// Use NNUE never set follows the net: a net loaded by EvalFile is used in a variant with no
// compiled-in net as well, and going back to <embedded> gives that variant's default.
static void test_eval_file_default_use_nnue(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    bool xshipped = has_compiled_in_net(&VARIANT_XIANGQI);
    bool nnue;
    setoption(&s, "UCI_Variant", "xiangqi");
    const char *a = setoption(&s, "EvalFile", xiangqi_path);
    assert_non_null(strstr(a, "loaded"));
    assert_null(strstr(a, "Use NNUE is false"));
    assert_int_equal(eval_cp(&s, &nnue),
                     reference_eval(xiangqi_net, &VARIANT_XIANGQI, VARIANT_XIANGQI.start_fen));
    assert_true(nnue);
    a = setoption(&s, "EvalFile", "<embedded>");
    assert_null(strstr(a, "error"));
    eval_cp(&s, &nnue);
    assert_true(nnue == xshipped);
    uci_session_close(&s);
}

// bench with a net: the same count on every run, another than the classical signature; with
// NULL the classical count.
static void test_bench_net(void **state) {
    (void)state;
    BenchResult classical, net1, net2;
    ErrorInfo err;
    const char *text = bench_text(&VARIANT_JANGGI);
    assert_int_equal(
        bench_run_net(&VARIANT_JANGGI, text, 4, 1, NULL, nnue_path_best(), NULL, &classical, &err),
        STATUS_OK);
    BenchResult plain;
    assert_int_equal(bench_run(&VARIANT_JANGGI, text, 4, 1, NULL, &plain, &err), STATUS_OK);
    assert_int_equal(plain.nodes, classical.nodes);
    assert_int_equal(
        bench_run_net(&VARIANT_JANGGI, text, 4, 1, janggi_net, nnue_path_best(), NULL, &net1, &err),
        STATUS_OK);
    assert_int_equal(
        bench_run_net(&VARIANT_JANGGI, text, 4, 1, janggi_net, nnue_path_best(), NULL, &net2, &err),
        STATUS_OK);
    assert_int_equal(net1.nodes, net2.nodes);
    assert_int_not_equal(net1.nodes, classical.nodes);
    // Every kernel this build has searches the same tree (the same scores); one it lacks is
    // refused by name.
    for (NnuePath path = NNUE_PORTABLE; path < NNUE_PATH_NB; path++) {
        BenchResult r;
        Status st = bench_run_net(&VARIANT_JANGGI, text, 4, 1, janggi_net, path, NULL, &r, &err);
        if (!nnue_path_available(path)) {
            assert_int_equal(st, STATUS_RANGE);
            assert_non_null(strstr(err.msg, nnue_path_name(path)));
            continue;
        }
        assert_int_equal(st, STATUS_OK);
        print_message("%s: %llu nodes\n", nnue_path_name(path), (unsigned long long)r.nodes);
        assert_int_equal(r.nodes, net1.nodes);
    }
}

// net_scale_pct (issue 56, row 3) scales the search's margins when a net evaluates and only then:
// at 145 the net's bench searches another tree than at 100, the classical evaluation's the same.
static void test_net_scale_margins(void **state) {
    (void)state;
    const char *text = bench_text(&VARIANT_JANGGI);
    SearchParams scaled = SEARCH_PARAMS_DEFAULT;
    scaled.net_scale_pct = scaled.net_scale_pct == 145 ? 100 : 145;
    ErrorInfo err;
    BenchResult r[2][2]; // [net][scaled]
    for (int net = 0; net < 2; net++)
        for (int k = 0; k < 2; k++)
            assert_int_equal(bench_run_smp(&VARIANT_JANGGI, text, 5, 1, net ? janggi_net : NULL,
                                           nnue_path_best(), 1, k ? &scaled : NULL, NULL,
                                           &r[net][k], &err),
                             STATUS_OK);
    assert_int_equal(r[0][0].nodes, r[0][1].nodes);
    assert_int_not_equal(r[1][0].nodes, r[1][1].nodes);
}

// eval_blend (issue 55, item 5): a net's evaluation with a share of the classical one, in the
// net's units (blend_scale_pct), the points term near the move limit added once; a change of the
// blend is not answered from the evaluations cached under the last one; without a net, the
// classical evaluation whatever the blend.
static void test_eval_blend(void **state) {
    (void)state;
    const char *late_fen =
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcA5/4K4/RNB2AB2 w - - 0 96";
    static Board early, late;
    assert_int_equal(fen_parse(&early, FENS[1], NULL), STATUS_OK);
    assert_int_equal(fen_parse(&late, late_fen, NULL), STATUS_OK);
    Searcher *sr = search_create(4);
    assert_non_null(sr);
    assert_true(search_set_net(sr, janggi_net));
    int net = reference_eval(janggi_net, &VARIANT_JANGGI, FENS[1]);
    int classical = eval_evaluate(&early);
    assert_int_not_equal(net, classical);
    assert_int_equal(search_evaluate(sr, &early), net); // cached under no blend
    SearchParams p = SEARCH_PARAMS_DEFAULT;
    p.eval_blend = 100;
    p.blend_scale_pct = 100;
    search_set_params(sr, &p);
    assert_int_equal(search_evaluate(sr, &early), classical);
    // Near the move limit: all classical at scale 100 is the classical evaluation, its points
    // term included; a blend weighs the net's (with the term added) with it.
    int term = eval_ply_term(&late);
    assert_int_not_equal(term, 0);
    assert_int_equal(search_evaluate(sr, &late), eval_evaluate(&late));
    int net_late = reference_eval(janggi_net, &VARIANT_JANGGI, late_fen) +
                   term * p.net_scale_pct / 100; // the term in the net's units
    p.eval_blend = 40;
    search_set_params(sr, &p);
    assert_int_equal(search_evaluate(sr, &late),
                     (net_late * 60 * 100 + eval_evaluate(&late) * 100 * 40) / 10000);
    // A blend is a weighted mean: it lies between its two parts, each in the net's units, also
    // where the classical evaluation is at its clamp and the points term is large (two chariots
    // against a bare general, 2 plies before the limit).
    static Board clamp;
    const char *clamp_fen = "3k5/9/9/9/9/9/9/9/4K4/R7R w - - 0 100";
    assert_int_equal(fen_parse(&clamp, clamp_fen, NULL), STATUS_OK);
    int net_part = reference_eval(janggi_net, &VARIANT_JANGGI, clamp_fen) +
                   eval_ply_term(&clamp) * p.net_scale_pct / 100;
    enum { CLAMP = 18000 }; // the static evaluation's bound in the search (search_shared.h)
    const int blends[] = {25, 50, 85, 100}, scales[] = {50, 100, 145, 300};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++) {
            p.eval_blend = blends[i];
            p.blend_scale_pct = scales[k];
            search_set_params(sr, &p);
            int cls_part = eval_evaluate(&clamp) * scales[k] / 100;
            int v = search_evaluate(sr, &clamp);
            int lo = net_part < cls_part ? net_part : cls_part;
            int hi = net_part < cls_part ? cls_part : net_part;
            lo = lo > CLAMP ? CLAMP : lo;
            hi = hi > CLAMP ? CLAMP : hi;
            if (v < lo || v > hi)
                fail_msg("blend %d scale %d: %d outside [%d, %d]", blends[i], scales[k], v, lo, hi);
        }
    p.eval_blend = 30;
    p.blend_scale_pct = 145;
    search_set_params(sr, &p);
    assert_int_equal(search_evaluate(sr, &early), (net * 70 * 100 + classical * 145 * 30) / 10000);
    assert_true(search_set_net(sr, NULL));
    assert_int_equal(search_evaluate(sr, &early), classical);
    search_destroy(sr);
    // The bench: the blend changes the net's search, not the classical one's.
    const char *text = bench_text(&VARIANT_JANGGI);
    ErrorInfo err;
    BenchResult r[2][2]; // [net][blend]
    for (int with_net = 0; with_net < 2; with_net++)
        for (int k = 0; k < 2; k++)
            assert_int_equal(bench_run_smp(&VARIANT_JANGGI, text, 5, 1,
                                           with_net ? janggi_net : NULL, nnue_path_best(), 1,
                                           k ? &p : NULL, NULL, &r[with_net][k], &err),
                             STATUS_OK);
    assert_int_equal(r[0][0].nodes, r[0][1].nodes);
    assert_int_not_equal(r[1][0].nodes, r[1][1].nodes);
}

// eval_blend -1, its default, takes the variant's share (Variant.eval_blend); any other value,
// 0 included, overrides it; `eval` and the search read the same share.
static void test_eval_blend_variant(void **state) {
    (void)state;
    static Variant v40;
    v40 = VARIANT_JANGGI;
    v40.eval_blend = 40;
    static Board b40, b;
    assert_int_equal(fen_parse_variant(&b40, &v40, FENS[1], NULL), STATUS_OK);
    assert_int_equal(fen_parse(&b, FENS[1], NULL), STATUS_OK);
    SearchParams p = SEARCH_PARAMS_DEFAULT;
    assert_int_equal(p.eval_blend, -1);
    assert_int_equal(search_params_eval_blend(&p, &v40), 40);
    assert_int_equal(search_params_eval_blend(&p, &VARIANT_JANGGI), VARIANT_JANGGI.eval_blend);
    assert_int_equal(search_params_eval_blend(&p, &VARIANT_XIANGQI), VARIANT_XIANGQI.eval_blend);
    Searcher *sr = search_create(4);
    assert_non_null(sr);
    assert_true(search_set_net(sr, janggi_net));
    int net = reference_eval(janggi_net, &VARIANT_JANGGI, FENS[1]);
    int classical = eval_evaluate(&b);
    int want40 = (net * 60 * 100 + classical * 145 * 40) / 10000;
    assert_int_not_equal(want40, net);
    search_set_params(sr, &p);
    assert_int_equal(search_evaluate(sr, &b40), want40); // the variant's 40 %
    p.eval_blend = 0;
    search_set_params(sr, &p);
    assert_int_equal(search_evaluate(sr, &b40), net); // 0 overrides it
    assert_int_equal(search_params_eval_blend(&p, &v40), 0);
    p.eval_blend = 40;
    search_set_params(sr, &p);
    assert_int_equal(search_evaluate(sr, &b), want40); // and 40 holds in any variant
    search_destroy(sr);
}

// eval_material (issue 55): a net's evaluation gets eval_material cp for each rules point by
// which the side to move leads (Han's 1.5 not counted), before a blend; a change is not answered
// from the evaluations cached under the last one; nothing without a net or in xiangqi, which has
// no point count.
static void test_eval_material(void **state) {
    (void)state;
    // Han without its h10 horse (5 points), each side to move; the start, level.
    const char *cho = "rnba1ab1r/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    const char *han = "rnba1ab1r/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1";
    static Board bc, bh, level;
    assert_int_equal(fen_parse(&bc, cho, NULL), STATUS_OK);
    assert_int_equal(fen_parse(&bh, han, NULL), STATUS_OK);
    assert_int_equal(fen_parse(&level, FENS[0], NULL), STATUS_OK);
    Searcher *sr = search_create(4);
    assert_non_null(sr);
    assert_true(search_set_net(sr, janggi_net));
    int nc = reference_eval(janggi_net, &VARIANT_JANGGI, cho);
    int nh = reference_eval(janggi_net, &VARIANT_JANGGI, han);
    int nl = reference_eval(janggi_net, &VARIANT_JANGGI, FENS[0]);
    assert_int_equal(search_evaluate(sr, &bc), nc); // cached with no anchor
    SearchParams p = SEARCH_PARAMS_DEFAULT;
    assert_int_equal(p.eval_material, 0);
    p.eval_material = 100;
    search_set_params(sr, &p);
    assert_int_equal(search_evaluate(sr, &bc), nc + 500);
    assert_int_equal(search_evaluate(sr, &bh), nh - 500);
    assert_int_equal(search_evaluate(sr, &level), nl);
    p.eval_material = 37; // 5 points at 37 cp: 185
    search_set_params(sr, &p);
    assert_int_equal(search_evaluate(sr, &bh), nh - 185);
    // Before the blend: the net's part carries the anchor.
    p.eval_material = 100;
    p.eval_blend = 40;
    search_set_params(sr, &p);
    assert_int_equal(search_evaluate(sr, &bc),
                     ((nc + 500) * 60 * 100 + eval_evaluate(&bc) * 145 * 40) / 10000);
    // Without a net, the classical evaluation alone.
    p.eval_blend = 0;
    search_set_params(sr, &p);
    assert_true(search_set_net(sr, NULL));
    assert_int_equal(search_evaluate(sr, &bc), eval_evaluate(&bc));
    search_destroy(sr);
    // Xiangqi has no point count: its net's evaluation is unchanged (one chariot missing).
    const char *xq = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    static Board bx;
    assert_int_equal(fen_parse_variant(&bx, &VARIANT_XIANGQI, xq, NULL), STATUS_OK);
    sr = search_create(4);
    assert_non_null(sr);
    assert_true(search_set_net(sr, xiangqi_net));
    search_set_params(sr, &p);
    assert_int_equal(search_evaluate(sr, &bx), reference_eval(xiangqi_net, &VARIANT_XIANGQI, xq));
    search_destroy(sr);
    // `eval` names the anchor where it counts: with the net, in janggi; not in xiangqi, where it
    // adds nothing, nor with the classical evaluation.
    UciSession s;
    uci_session_open(&s);
    // The test's own nets, so that a build without compiled-in nets tests the same.
    assert_non_null(strstr(setoption(&s, "EvalFile", janggi_path), "EvalFile: loaded"));
    assert_string_equal(setoption(&s, "eval_material", "100"), "");
    char line[160];
    snprintf(line, sizeof line, "position fen %s", cho);
    uci_session_say(&s, line);
    assert_non_null(strstr(uci_session_say(&s, "eval"), "; material 100 cp a point)"));
    assert_string_equal(setoption(&s, "Use NNUE", "false"), "");
    assert_null(strstr(uci_session_say(&s, "eval"), "material"));
    assert_string_equal(setoption(&s, "Use NNUE", "true"), "");
    setoption(&s, "UCI_Variant", "xiangqi");
    assert_non_null(strstr(setoption(&s, "EvalFile", xiangqi_path), "EvalFile: loaded"));
    uci_session_say(&s, "position startpos");
    const char *a = uci_session_say(&s, "eval");
    assert_non_null(strstr(a, "; nnue "));
    assert_null(strstr(a, "material"));
    uci_session_close(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uci_evalfile),
        cmocka_unit_test(test_search_uses_net),
        cmocka_unit_test(test_net_gets_ply_term),
        cmocka_unit_test(test_incremental_janggi),
        cmocka_unit_test(test_incremental_xiangqi),
        cmocka_unit_test(test_incremental_palace),
        cmocka_unit_test(test_palace_copy_bench),
        cmocka_unit_test(test_bad_evalfile),
        cmocka_unit_test(test_use_nnue_without_net),
        cmocka_unit_test(test_eval_file_default_use_nnue),
        cmocka_unit_test(test_bench_net),
        cmocka_unit_test(test_net_scale_margins),
        cmocka_unit_test(test_eval_blend),
        cmocka_unit_test(test_eval_blend_variant),
        cmocka_unit_test(test_eval_material),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
