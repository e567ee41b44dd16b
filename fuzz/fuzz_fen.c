// SPDX-License-Identifier: MIT
// libFuzzer target for fen_parse(): any input is refused with a message and leaves the board
// alone, or loads a consistent, legal position whose FEN round-trips and whose moves make
// and unmake cleanly. A broken invariant aborts, which libFuzzer reports as a crash.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "geometry.h"
#include "movegen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what, const char *input) {
    if (!ok) {
        fprintf(stderr, "fuzz_fen: %s\ninput: '%s'\n", what, input);
        abort();
    }
}

// A loaded position: consistent, generals in their palaces, the side not to move not in
// check, FEN written and read back the same, every legal move makes and unmakes.
static void check_loaded(Board *b, const char *input) {
    char why[128] = "", fen[FEN_BUFFER], again[FEN_BUFFER];
    check(board_is_consistent(b, why, sizeof why), why, input);
    for (int s = 0; s < SIDE_NB; s++)
        check(geometry_in_palace(b->geo, (Side)s, b->general[s]), "general outside its palace",
              input);
    check(!board_attacked(b, b->general[!b->side], b->side), "side not to move in check", input);
    fen_write(b, fen, sizeof fen);
    static Board reloaded;
    ErrorInfo err;
    check(fen_parse(&reloaded, fen, &err) == STATUS_OK, "written FEN refused", fen);
    fen_write(&reloaded, again, sizeof again);
    check(strcmp(fen, again) == 0, "FEN does not round-trip", input);
    check(board_key(&reloaded) == board_key(b), "key differs after the round trip", input);
    check(memcmp(reloaded.squares, b->squares, sizeof b->squares) == 0,
          "squares differ after the round trip", input);
    MoveList list;
    movegen_legal(b, &list);
    uint64_t key = board_key(b);
    for (int i = 0; i < list.count; i++) {
        board_make(b, list.moves[i]);
        check(board_is_consistent(b, why, sizeof why), why, input);
        board_unmake(b);
        check(board_key(b) == key, "make/unmake changed the key", input);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    engine_init();
    char *input = malloc(size + 1); // the parser must bound its own reads: exact size
    if (!input)
        return 0;
    memcpy(input, data, size);
    input[size] = '\0';
    static Board b;
    ErrorInfo err;
    check(fen_parse(&b, FEN_START, &err) == STATUS_OK, "start FEN refused", FEN_START);
    memset(&err, 0, sizeof err);
    Status st = fen_parse(&b, input, &err);
    if (st == STATUS_OK) {
        check_loaded(&b, input);
    } else {
        char fen[FEN_BUFFER];
        check(err.msg[0] != '\0', "refused without a message", input);
        check(st == STATUS_SYNTAX || st == STATUS_ILLEGAL || st == STATUS_RANGE,
              "unexpected status", input);
        fen_write(&b, fen, sizeof fen);
        check(strcmp(fen, FEN_START) == 0 && b.nstates == 1, "refused FEN changed the board",
              input);
    }
    free(input);
    return 0;
}
