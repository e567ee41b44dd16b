// SPDX-License-Identifier: MIT
// libFuzzer target for move_parse_uci(). Input: a FEN line, then move strings separated by
// spaces (no newline: the moves are read against the start position; a FEN that does not
// load falls back to the start too). A parsed move must be in movegen_legal and its own
// string must read back to it; a refused one must not be the string of a legal move, must
// carry a message and leave the board alone.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_TOKENS = 16 };

static void check(bool ok, const char *what, const char *token) {
    if (!ok) {
        fprintf(stderr, "fuzz_move: %s (token '%s')\n", what, token);
        abort();
    }
}

static bool is_legal_string(Board *b, const char *token, Move *out) {
    MoveList list;
    movegen_legal(b, &list);
    for (int i = 0; i < list.count; i++) {
        char s[MOVE_STR_LEN];
        move_to_uci(list.moves[i], s);
        if (strcmp(s, token) == 0) {
            *out = list.moves[i];
            return true;
        }
    }
    return false;
}

static void check_token(Board *b, const char *token) {
    Move m = MOVE_NONE, want = MOVE_NONE;
    ErrorInfo err;
    memset(&err, 0, sizeof err);
    uint64_t key = board_key(b);
    int nstates = b->nstates;
    Status st = move_parse_uci(b, token, &m, &err);
    bool legal_string = is_legal_string(b, token, &want);
    check(board_key(b) == key && b->nstates == nstates, "parsing changed the board", token);
    if (st != STATUS_OK) {
        check(!legal_string, "a legal move's string was refused", token);
        check(err.msg[0] != '\0', "refused without a message", token);
        check(st == STATUS_SYNTAX || st == STATUS_ILLEGAL, "unexpected status", token);
        return;
    }
    bool is_pass_form = strcmp(token, "0000") == 0 || strcmp(token, "@@@@") == 0;
    check(legal_string || is_pass_form, "accepted a string no legal move writes", token);
    MoveList list;
    movegen_legal(b, &list);
    bool found = false;
    for (int i = 0; i < list.count; i++)
        found |= list.moves[i] == m;
    check(found, "parsed move is not in movegen_legal", token);
    check(!legal_string || m == want, "parsed to another move than the one it names", token);
    char s[MOVE_STR_LEN], why[128] = "";
    move_to_uci(m, s);
    Move back;
    check(move_parse_uci(b, s, &back, &err) == STATUS_OK && back == m,
          "move string does not round-trip", token);
    if (b->nstates < MAX_GAME_PLY) {
        board_make(b, m);
        check(board_is_consistent(b, why, sizeof why), why, token);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    engine_init();
    char *input = malloc(size + 1);
    if (!input)
        return 0;
    memcpy(input, data, size);
    input[size] = '\0';
    static Board b;
    ErrorInfo err;
    char *moves = strchr(input, '\n');
    if (moves) {
        *moves++ = '\0';
        if (fen_parse(&b, input, &err) != STATUS_OK)
            fen_parse(&b, FEN_START, &err);
    } else {
        fen_parse(&b, FEN_START, &err);
        moves = input;
    }
    // Tokens on spaces only, so that tabs, newlines and other bytes reach the parser.
    int n = 0;
    for (char *tok = strtok(moves, " "); tok && n < MAX_TOKENS; tok = strtok(NULL, " "), n++)
        check_token(&b, tok);
    free(input);
    return 0;
}
