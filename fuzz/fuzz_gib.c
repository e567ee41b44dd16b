// SPDX-License-Identifier: MIT
// libFuzzer target for gib_parse() (.gib janggi records, docs/gib.md): any input is refused
// with a UTF-8 message that names the file and keeps nothing, or gives records whose every
// move is legal in turn from the record's formations and whose game goes on until its last move
// (the rules end it there or not at all). A broken invariant aborts, which libFuzzer reports as
// a crash.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "engine.h"
#include "gib.h"
#include "movegen.h"
#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "fuzz_gib: %s\n", what);
        abort();
    }
}

static bool utf8_ok(const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 : 3;
        p++;
        for (int k = 0; k < n; k++, p++)
            if ((*p & 0xC0) != 0x80)
                return false;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    engine_init();
    char *input = malloc(size ? size : 1); // the parser must bound its own reads: exact size
    if (!input)
        return 0;
    memcpy(input, data, size);
    GibGame *games = NULL;
    size_t n = 0;
    ErrorInfo err = {0};
    Status st = gib_parse("f.gib", input, size, &games, &n, &err);
    if (st != STATUS_OK) {
        check(games == NULL && n == 0, "a refusal kept records");
        check(strncmp(err.msg, "f.gib", 5) == 0, "a refusal does not name the file");
        check(utf8_ok(err.msg), "a refusal's message is not UTF-8");
    } else {
        check(n >= 1, "no record and no refusal");
        static Board b;
        for (size_t i = 0; i < n; i++) {
            const GibGame *g = &games[i];
            check(g->nmoves >= 0 && g->dropped >= 0 && g->nmoves + g->dropped <= GIB_MOVES_MAX,
                  "move count out of range");
            check(g->dropped == 0 || g->end.over, "moves dropped from a game the rules go on with");
            check(utf8_ok(g->event) && utf8_ok(g->result_text), "a header value is not UTF-8");
            formation_setup(&b, g->cho, g->han);
            GameResult res;
            for (int k = 0; k < g->nmoves; k++) {
                check(!rules_game_over(&b, &res), "a game's move after the rules ended it");
                check(movegen_is_pseudo_legal(&b, g->moves[k]) && movegen_is_legal(&b, g->moves[k]),
                      "a record's move is not legal");
                board_make(&b, g->moves[k]);
            }
            check(rules_game_over(&b, &res) == g->end.over, "the game's end is not the rules'");
        }
        gib_free(games);
    }
    free(input);
    return 0;
}
