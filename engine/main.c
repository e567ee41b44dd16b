// SPDX-License-Identifier: MIT
// The `hansu` executable: the UCI loop by default (CECP, the XBoard protocol, when the first
// command is `xboard`), or a one-shot command (perft, bench, print-weights).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "board.h"
#include "cecp.h"
#include "cli.h"
#include "eval.h"
#include "eval_header.h"
#include "fen.h"
#include "flags.h"
#include "nnue.h"
#include "notation.h"
#include "perft.h"
#include "search.h"
#include "search_params.h"
#include "uci.h"
#include "variant.h"

// --variant V of every command: the Variant * at the flag's offset.
static Status set_variant(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    const Variant *v = variant_find(value);
    char names[256];
    if (!v)
        return error_set(err, STATUS_SYNTAX, "%s '%s' is not known (%s)", flag->name, value,
                         variant_names(names, sizeof names));
    memcpy((char *)dest + flag->offset, &v, sizeof v);
    return STATUS_OK;
}

typedef struct PerftArgs {
    const Variant *variant;
    const char *fen;
    int depth;
    bool divide, depth_given;
} PerftArgs;

static const Flag PERFT_FLAGS[] = {
    {"--variant", FLAG_CALL, FLAG_DEST(PerftArgs, variant), .set = set_variant, .value = true,
     .meta = "V", .help = "a variant name (the first of variants.def, janggi, is the default)"},
    {"--fen", FLAG_STRING, FLAG_DEST(PerftArgs, fen), .meta = "FEN",
     .help = "the position (default: the variant's start)"},
    {"--depth", FLAG_INT, FLAG_DEST(PerftArgs, depth), .lo = 0, .hi = 20, .meta = "N",
     FLAG_GIVEN(PerftArgs, depth_given), .help = "plies (required)"},
    {"--divide", FLAG_BOOL, FLAG_DEST(PerftArgs, divide), .help = "the count under each move"},
};

typedef struct BenchArgs {
    const Variant *variant;
    const char *evalfile;
    bool classical;
    const char *simd;
    int threads;
    SearchParams params; // the defaults, with --set's values
} BenchArgs;

// --set NAME=VALUE: one of the search's parameters (search_params.def, the UCI options of the
// same names), checked against its range.
static Status set_param(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    const char *eq = strchr(value, '=');
    char name[64];
    if (!eq || eq == value)
        return error_set(err, STATUS_SYNTAX, "%s '%.60s' is not NAME=VALUE", flag->name, value);
    snprintf(name, sizeof name, "%.*s", (int)(eq - value), value);
    int i = (size_t)(eq - value) < sizeof name ? search_param_find(name) : -1;
    if (i < 0)
        return error_set(err, STATUS_SYNTAX,
                         "%s '%s' is not a search parameter (the UCI spin options of hansu, "
                         "engine/search_params.def)",
                         flag->name, name);
    SearchParams *p = (SearchParams *)((char *)dest + flag->offset);
    ErrorInfo why;
    if (search_params_set(p, i, eq + 1, &why) != STATUS_OK)
        return error_set(err, STATUS_RANGE, "%s %s", flag->name, why.msg);
    return STATUS_OK;
}

static const Flag BENCH_FLAGS[] = {
    {"--variant", FLAG_CALL, FLAG_DEST(BenchArgs, variant), .set = set_variant, .value = true,
     .meta = "V", .help = "a variant name (the first of variants.def, janggi, is the default)"},
    {"--evalfile", FLAG_STRING, FLAG_DEST(BenchArgs, evalfile), .meta = "FILE",
     .help = "evaluate with this .nnue net (default: the variant's compiled-in net, if any)"},
    {"--classical", FLAG_BOOL, FLAG_DEST(BenchArgs, classical),
     .help = "the classical evaluation, even where a net is compiled in"},
    {"--simd", FLAG_STRING, FLAG_DEST(BenchArgs, simd), .meta = "K",
     .help = "the net's kernels: portable, avx2 or avx512 (default: the fastest built)"},
    {"--threads", FLAG_INT, FLAG_DEST(BenchArgs, threads), .lo = 1, .hi = SEARCH_THREADS_MAX,
     .meta = "N", .help = "search threads (Lazy SMP; the node count is exact only with 1) [1]"},
    {"--set", FLAG_CALL, FLAG_DEST(BenchArgs, params), .set = set_param, .value = true,
     .meta = "NAME=VALUE",
     .help = "a search parameter (a UCI spin option of search_params.def), repeatable"},
};

typedef struct PrintArgs {
    const Variant *variant;
    const char *note;
} PrintArgs;

static const Flag PRINT_FLAGS[] = {
    {"--variant", FLAG_CALL, FLAG_DEST(PrintArgs, variant), .set = set_variant, .value = true,
     .meta = "V", .help = "a variant name (the first of variants.def, janggi, is the default)"},
    {"--note", FLAG_STRING, FLAG_DEST(PrintArgs, note), .meta = "TEXT",
     .help = "the banner's note"},
};

static void usage(FILE *f) {
    fputs("usage: hansu                      UCI engine on standard input/output (CECP, the\n"
          "                                  XBoard protocol, when the first command is xboard)\n"
          "       hansu perft [options]      count legal move sequences of N plies:\n",
          f);
    flags_help_lines(f, PERFT_FLAGS, FLAGS_COUNT(PERFT_FLAGS), 34);
    fputs("       hansu bench [options] [DEPTH]\n"
          "                                  search the bench positions; prints Nodes "
          "searched:\n",
          f);
    flags_help_lines(f, BENCH_FLAGS, FLAGS_COUNT(BENCH_FLAGS), 34);
    fputs("       hansu print-weights [options]\n"
          "                                  write the compiled-in weights as eval_weights.h:\n",
          f);
    flags_help_lines(f, PRINT_FLAGS, FLAGS_COUNT(PRINT_FLAGS), 34);
    fputs("       hansu --help               this text\n", f);
}

// Reads the flags of command argv[1] into dest; false after printing why (or the help: *rc 0).
static bool parse_command(const Flag *table, size_t n, int argc, char **argv, void *dest,
                          FlagResult *res, int *rc) {
    ErrorInfo err;
    if (flags_parse(table, n, argc, argv, 2, dest, res, &err) != STATUS_OK) {
        fprintf(stderr, "hansu %s: %s (see hansu --help)\n", argv[1], err.msg);
        *rc = 2;
        return false;
    }
    if (res->help) {
        usage(stdout);
        *rc = 0;
        return false;
    }
    return true;
}

static int run_perft(int argc, char **argv) {
    PerftArgs a = {.variant = variant_default()};
    FlagResult res = {0};
    int rc = 0;
    if (!parse_command(PERFT_FLAGS, FLAGS_COUNT(PERFT_FLAGS), argc, argv, &a, &res, &rc))
        return rc;
    if (!a.depth_given) {
        fprintf(stderr, "hansu perft: --depth N is required\n");
        return 2;
    }
    const Variant *variant = a.variant;
    const char *fen = a.fen;
    int depth = a.depth;
    bool divide = a.divide;
    ErrorInfo err;
    static Board board;
    if (fen_parse_variant(&board, variant, fen ? fen : variant->start_fen, &err) != STATUS_OK) {
        fprintf(stderr, "hansu perft: %s\n", err.msg);
        return 2;
    }
    uint64_t total = 0;
    if (divide && depth > 0) {
        Move moves[MAX_MOVES];
        uint64_t counts[MAX_MOVES];
        int n = perft_divide(&board, (int)depth, moves, counts);
        for (int i = 0; i < n; i++) {
            char s[MOVE_STR_LEN];
            move_to_uci(moves[i], s);
            printf("%s: %llu\n", s, (unsigned long long)counts[i]);
            total += counts[i];
        }
        printf("\n");
    } else
        total = perft(&board, (int)depth);
    printf("Nodes searched: %llu\n", (unsigned long long)total);
    return 0;
}

static int run_bench(int argc, char **argv) {
    BenchArgs a = {.variant = variant_default(), .threads = 1, .params = SEARCH_PARAMS_DEFAULT};
    char **words = calloc((size_t)argc, sizeof *words);
    FlagResult fr = {.pos = words};
    int rc = 0, depth = BENCH_DEPTH;
    ErrorInfo err;
    bool ok =
        words && parse_command(BENCH_FLAGS, FLAGS_COUNT(BENCH_FLAGS), argc, argv, &a, &fr, &rc);
    if (ok && fr.npos > 1)
        fprintf(stderr,
                "hansu bench: unexpected argument '%s' (usage: hansu bench [--variant V] "
                "[--evalfile FILE | --classical] [--set NAME=VALUE] [DEPTH])\n",
                fr.pos[1]),
            ok = false, rc = 2;
    if (ok && fr.npos == 1 &&
        cli_parse_int("depth", fr.pos[0], 1, DEPTH_MAX, &depth, &err) != STATUS_OK)
        fprintf(stderr, "hansu bench: %s\n", err.msg), ok = false, rc = 2;
    free(words);
    if (!ok)
        return words ? rc : 1;
    const Variant *variant = a.variant;
    NnuePath path = nnue_path_best();
    if (a.simd && (!nnue_path_find(a.simd, &path) || !nnue_path_available(path))) {
        fprintf(stderr,
                "hansu bench: --simd '%.40s': not a kernel of this build (it has portable%s%s)\n",
                a.simd, nnue_path_available(NNUE_AVX2) ? ", avx2" : "",
                nnue_path_available(NNUE_AVX512) ? ", avx512" : "");
        return 2;
    }
    // The evaluation: --evalfile's net, else the compiled-in one, else (or --classical) none.
    NnueNet *net;
    Status net_st = nnue_load_selected(variant, a.evalfile, a.classical, &net, &err);
    if (net_st != STATUS_OK) {
        fprintf(stderr, "hansu bench: %s\n", err.msg);
        return net_st == STATUS_RANGE ? 2 : 1;
    }
    BenchResult res;
    Status st = bench_run_smp(variant, bench_text(variant), (int)depth, BENCH_HASH_MB, net, path,
                              a.threads, &a.params, stdout, &res, &err);
    free(net);
    if (st != STATUS_OK) {
        fprintf(stderr, "hansu bench: %s\n", err.msg);
        return 1;
    }
    return 0;
}

// Reprints the compiled-in weights with the banner note given (--note TEXT). The hand-set
// header (data/weights/hand-set.h, the training's start) was written as `hansu print-weights
// --note "hand-set initial values (not tuned)"` (then grew the general-safety entries as zeros,
// with a `converted:` banner line); tuned headers, the shipped engine/janggi/eval_weights.h
// among them, carry the tuner's own banner.
static int run_print_weights(int argc, char **argv) {
    PrintArgs a = {.variant = variant_default(), .note = "the compiled-in weights, reprinted"};
    FlagResult res = {0};
    int rc = 0;
    if (!parse_command(PRINT_FLAGS, FLAGS_COUNT(PRINT_FLAGS), argc, argv, &a, &res, &rc))
        return rc;
    EvalBanner banner = {.generator = "hansu print-weights", .note = a.note};
    const Variant *variant = a.variant;
    ErrorInfo err;
    if (eval_banner_check(&banner, &err) != STATUS_OK) { // before a byte is written
        fprintf(stderr, "hansu print-weights: %s\n", err.msg);
        return 2;
    }
    if (eval_header_write(stdout, variant->eval, &banner, variant->eval->weights, &err) !=
        STATUS_OK) {
        fprintf(stderr, "hansu print-weights: %s\n", err.msg);
        return 1;
    }
    return 0;
}

// Whether line is the command `xboard` (spaces and the line end around it allowed).
static bool is_xboard(const char *line, size_t len) {
    size_t a = strspn(line, " \t"), n = strcspn(line + a, " \t\r\n");
    return len == strlen(line) && n == 6 && strncmp(line + a, "xboard", 6) == 0 &&
           line[a + n + strspn(line + a + n, " \t\r\n")] == '\0';
}

// The protocol loop on in: CECP when the first line is `xboard`, UCI otherwise (the first line
// is then UCI's first command). Returns the exit code.
static int run_protocol(FILE *in) {
    size_t cap = 0;
    char *first = NULL;
    ssize_t len = getline(&first, &cap, in);
    int rc = 0;
    if (len >= 0 && is_xboard(first, (size_t)len)) {
        CecpContext *cecp = cecp_create(stdout);
        if (!cecp) {
            fprintf(stderr, "hansu: out of memory\n");
            free(first);
            return 1;
        }
        rc = cecp_loop(cecp, in);
        cecp_destroy(cecp);
        free(first);
        return rc;
    }
    UciContext *ctx = uci_create(stdout);
    if (!ctx) {
        fprintf(stderr, "hansu: out of memory\n");
        free(first);
        return 1;
    }
    // The first line is UCI's first command; one with a NUL byte goes through uci_loop, which
    // refuses it (and starts nothing), as it refuses any such line.
    bool running = len >= 0;
    if (running && memchr(first, '\0', (size_t)len)) {
        FILE *head = fmemopen(first, (size_t)len, "r");
        if (head)
            uci_loop(ctx, head), fclose(head);
    } else if (running)
        running = uci_handle_line(ctx, first);
    if (running)
        rc = uci_loop(ctx, in);
    else
        uci_wait(ctx);
    uci_destroy(ctx);
    free(first);
    return rc;
}

int main(int argc, char **argv) {
    cli_init();
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        if (argc > 2) {
            fprintf(stderr, "hansu: unexpected argument '%s' after %s\n", argv[2], argv[1]);
            return 2;
        }
        usage(stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "perft") == 0)
        return run_perft(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "bench") == 0)
        return run_bench(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "print-weights") == 0)
        return run_print_weights(argc, argv);
    if (argc >= 2) {
        fprintf(stderr, "hansu: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    return run_protocol(stdin);
}
