// SPDX-License-Identifier: MIT
// The `hansu` executable: the UCI loop by default, or a one-shot command (perft, bench,
// print-weights).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "board.h"
#include "cli.h"
#include "engine.h"
#include "eval.h"
#include "eval_header.h"
#include "fen.h"
#include "notation.h"
#include "perft.h"
#include "uci.h"
#include "variant.h"

static void usage(FILE *f) {
    char names[256];
    fprintf(f,
            "usage: hansu                      UCI engine on standard input/output\n"
            "       hansu perft [--variant V] [--fen FEN] --depth N [--divide]\n"
            "                                  (V: one of %s; the first is the default)\n"
            "                                  count legal move sequences of N plies\n"
            "       hansu bench [--variant V] [DEPTH]\n"
            "                                  search the bench positions; prints Nodes searched\n"
            "       hansu print-weights [--variant V] [--note TEXT]\n"
            "                                  write the compiled-in weights as eval_weights.h\n"
            "       hansu --help\n",
            variant_names(names, sizeof names));
}

static int run_perft(int argc, char **argv) {
    const char *fen = NULL;
    const Variant *variant = variant_default();
    int depth = -1;
    int divide = 0;
    ErrorInfo err;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--fen") == 0 && i + 1 < argc)
            fen = argv[++i];
        else if (strcmp(argv[i], "--variant") == 0 && i + 1 < argc) {
            if (!(variant = variant_find(argv[++i]))) {
                char names[256];
                fprintf(stderr, "hansu perft: --variant '%s' is not known (%s)\n", argv[i],
                        variant_names(names, sizeof names));
                return 2;
            }
        } else if (strcmp(argv[i], "--depth") == 0 && i + 1 < argc) {
            if (cli_parse_int("--depth", argv[++i], 0, 20, &depth, &err) != STATUS_OK) {
                fprintf(stderr, "hansu perft: %s\n", err.msg);
                return 2;
            }
        } else if (strcmp(argv[i], "--divide") == 0)
            divide = 1;
        else {
            fprintf(stderr, "hansu perft: unknown or incomplete option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (depth < 0) {
        fprintf(stderr, "hansu perft: --depth N is required\n");
        return 2;
    }
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

// The variant named by argv[i + 1] (--variant V); NULL after printing the error.
static const Variant *variant_arg(const char *cmd, int argc, char **argv, int i) {
    const Variant *v = i + 1 < argc ? variant_find(argv[i + 1]) : NULL;
    char names[256];
    if (!v)
        fprintf(stderr, "hansu %s: --variant '%s' is not known (%s)\n", cmd,
                i + 1 < argc ? argv[i + 1] : "", variant_names(names, sizeof names));
    return v;
}

static int run_bench(int argc, char **argv) {
    int depth = BENCH_DEPTH;
    const Variant *variant = variant_default();
    bool have_depth = false;
    ErrorInfo err;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--variant") == 0) {
            if (!(variant = variant_arg("bench", argc, argv, i++)))
                return 2;
        } else if (!have_depth) {
            if (cli_parse_int("depth", argv[i], 1, 64, &depth, &err) != STATUS_OK) {
                fprintf(stderr, "hansu bench: %s\n", err.msg);
                return 2;
            }
            have_depth = true;
        } else {
            fprintf(stderr,
                    "hansu bench: unexpected argument '%s' (usage: hansu bench [--variant V] "
                    "[DEPTH])\n",
                    argv[i]);
            return 2;
        }
    }
    BenchResult res;
    if (bench_run(variant, bench_text(variant), (int)depth, BENCH_HASH_MB, stdout, &res, &err) !=
        STATUS_OK) {
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
    EvalBanner banner = {.generator = "hansu print-weights",
                         .note = "the compiled-in weights, reprinted"};
    const Variant *variant = variant_default();
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--note") == 0 && i + 1 < argc)
            banner.note = argv[++i];
        else if (strcmp(argv[i], "--variant") == 0) {
            if (!(variant = variant_arg("print-weights", argc, argv, i++)))
                return 2;
        } else {
            fprintf(stderr, "hansu print-weights: unknown or incomplete option '%s'\n", argv[i]);
            return 2;
        }
    }
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

int main(int argc, char **argv) {
    engine_init();
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
    UciContext *ctx = uci_create(stdout);
    if (!ctx) {
        fprintf(stderr, "hansu: out of memory\n");
        return 1;
    }
    int rc = uci_loop(ctx, stdin);
    uci_destroy(ctx);
    return rc;
}
