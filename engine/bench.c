// SPDX-License-Identifier: MIT
// bench (see bench.h).
#include "bench.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench_data.h"
#include "board.h"
#include "fen.h"
#include "notation.h"
#include "search.h"
#include "timeman.h"
#include "variant.h"

const char *bench_default_text(void) { return bench_text(variant_default()); }

const char *bench_text(const Variant *v) {
    for (size_t i = 0; i < sizeof BENCH_DATA / sizeof BENCH_DATA[0]; i++)
        if (strcmp(BENCH_DATA[i].variant, v->name) == 0)
            return BENCH_DATA[i].text;
    return NULL; // not reached: engine/CMakeLists.txt compiles in one list for every variant
}

Status bench_run(const Variant *v, const char *text, int depth, size_t hash_mb, FILE *out,
                 BenchResult *res, ErrorInfo *err) {
    return bench_run_net(v, text, depth, hash_mb, NULL, nnue_path_best(), out, res, err);
}

Status bench_run_net(const Variant *v, const char *text, int depth, size_t hash_mb,
                     const NnueNet *net, NnuePath path, FILE *out, BenchResult *res,
                     ErrorInfo *err) {
    return bench_run_smp(v, text, depth, hash_mb, net, path, 1, NULL, out, res, err);
}

Status bench_run_smp(const Variant *v, const char *text, int depth, size_t hash_mb,
                     const NnueNet *net, NnuePath path, int threads, const SearchParams *params,
                     FILE *out, BenchResult *res, ErrorInfo *err) {
    Status st = STATUS_OK;
    if (!nnue_path_available(path))
        return error_set(err, STATUS_RANGE, "bench: this build has no %s kernels",
                         nnue_path_name(path));
    Searcher *s = search_create(hash_mb);
    Board *b = malloc(sizeof *b);
    memset(res, 0, sizeof *res);
    if (!s || !b || !search_set_threads(s, threads) || (net && !search_set_net(s, net)) ||
        !search_set_nnue_path(s, path)) {
        st = error_set(err, STATUS_NOMEM, "bench: out of memory");
        goto cleanup;
    }
    if (params)
        search_set_params(s, params);
    SearchLimits limits = {.depth = depth};
    int64_t start = timeman_now_ms();
    int line_no = 0;
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[FEN_MAX_INPUT + 1];
        line_no++;
        if (len > FEN_MAX_INPUT) {
            st = error_set(err, STATUS_SYNTAX, "bench: line %d is too long", line_no);
            goto cleanup;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        p = eol ? eol + 1 : p + len;
        while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        ErrorInfo fe;
        if (fen_parse_variant(b, v, line, &fe) != STATUS_OK) {
            st = error_set(err, STATUS_SYNTAX, "bench: line %d: %s", line_no, fe.msg);
            goto cleanup;
        }
        search_clear(s);
        SearchResult r = search_run(s, b, &limits, NULL, NULL, NULL);
        res->positions++;
        res->nodes += r.nodes;
        if (out) {
            char mv[MOVE_STR_LEN];
            move_to_uci(r.best, mv);
            fprintf(out, "position %2d: bestmove %-6s score %6d nodes %10" PRIu64 "\n",
                    res->positions, mv, r.score, r.nodes);
        }
    }
    res->time_ms = timeman_now_ms() - start;
    if (out) {
        int64_t ms = res->time_ms > 0 ? res->time_ms : 1;
        fprintf(out, "\nPositions: %d\nDepth: %d\nTotal time (ms): %" PRId64 "\n", res->positions,
                depth, res->time_ms);
        fprintf(out, "Nodes searched: %" PRIu64 "\n", res->nodes);
        fprintf(out, "Nodes/second: %" PRIu64 "\n", res->nodes * 1000 / (uint64_t)ms);
    }
cleanup:
    free(b);
    search_destroy(s);
    return st;
}
