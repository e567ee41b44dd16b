// SPDX-License-Identifier: MIT
// The games of a labelling run, read and checked before any search (label_games.h).
#include "label_games.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "board.h"
#include "fen.h"
#include "h5store.h"
#include "pgn_read.h"
#include "sha256.h"
#include "shard_data.h"
#include "variant.h"

// What the reader's callback needs: the inputs being filled and the file being read.
typedef struct ReadState {
    LabelInputs *in;
    const char *to_move;
    size_t input;
    Board *b;
} ReadState;

static void left_out(LabelInputs *in, const char *path, const PgnReadGame *g, const char *why) {
    fprintf(stderr, "hansu-selfplay label: %s:%d: game %d not stored: %s\n", path, g->first_line,
            g->number, why);
    in->left_out++;
}

// The outcome the store keeps: the rules' where they end the game (a Result saying otherwise is
// warned about), else the PGN's Result with the tool's reason (adjudication, else resign: a loss
// on time, a crash or a resignation). NULL, or why the game cannot be stored.
static const char *outcome(const char *path, const PgnReadGame *g, const Variant *v, int *winner,
                           EndReason *reason) {
    const char *r = g->result;
    int stated = !strcmp(r, "1-0") ? CHO : !strcmp(r, "0-1") ? HAN : !strcmp(r, "1/2-1/2") ? 2 : -1;
    if (g->over) {
        *winner = g->end.draw ? WINNER_DRAW : (int)g->end.winner;
        *reason = g->end.reason;
        if (stated >= 0 && stated != *winner)
            fprintf(stderr,
                    "hansu-selfplay label: warning: %s:%d: game %d states %s, but the rules give "
                    "%s (%s); the rules' result is stored\n",
                    path, g->first_line, g->number, r,
                    *winner == WINNER_DRAW ? "a draw" : v->side_names[*winner],
                    rules_reason_name(*reason));
        return NULL;
    }
    if (stated < 0)
        return "no result (Result \"*\" or none)";
    if (stated == WINNER_DRAW && v->wdl_margin == 0) // a variant without draws (janggi)
        return "a draw, in a variant without draws";
    *winner = stated;
    *reason = stated == WINNER_DRAW || !strcmp(g->termination, "adjudication") ? REASON_ADJUDICATION
                                                                               : REASON_RESIGN;
    return NULL;
}

// The index of fen in in->fens, added when new; -1 when memory is short.
static int fen_index(LabelInputs *in, const char *fen) {
    for (int i = 0; i < in->nfens; i++)
        if (!strcmp(in->fens[i], fen))
            return i;
    char **grown = realloc(in->fens, (size_t)(in->nfens + 1) * sizeof *grown);
    if (!grown)
        return -1;
    in->fens = grown;
    if (!(in->fens[in->nfens] = strdup(fen)))
        return -1;
    return in->nfens++;
}

// Appends g (checked) to in.
static Status add_game(LabelInputs *in, size_t input, const PgnReadGame *g, uint8_t sides,
                       int winner, EndReason reason, ErrorInfo *err) {
    if (in->count == in->cap) {
        size_t c = in->cap ? in->cap * 2 : 256;
        LabelGame *grown = realloc(in->games, c * sizeof *grown);
        if (!grown)
            return error_set(err, STATUS_NOMEM, "out of memory");
        in->games = grown, in->cap = c;
    }
    LabelGame *lg = &in->games[in->count];
    *lg = (LabelGame){.input = (int)input,
                      .number = g->number,
                      .line = g->first_line,
                      .sides = sides,
                      .winner = winner,
                      .reason = reason,
                      .nmoves = g->nmoves};
    lg->start = fen_index(in, g->start_fen);
    lg->moves = malloc((size_t)g->nmoves * sizeof *lg->moves);
    if (lg->start < 0 || !lg->moves) {
        free(lg->moves);
        return error_set(err, STATUS_NOMEM, "out of memory");
    }
    memcpy(lg->moves, g->moves, (size_t)g->nmoves * sizeof *lg->moves);
    in->count++;
    in->taken[input]++;
    return STATUS_OK;
}

// One game read: checked, then stored or left out.
static Status on_game(const PgnReadGame *g, void *arg, ErrorInfo *err) {
    ReadState *rs = arg;
    LabelInputs *in = rs->in;
    const char *path = in->paths[rs->input];
    in->read++;
    if (!in->variant)
        in->variant = g->variant;
    if (g->variant != in->variant)
        return error_set(err, STATUS_FORMAT,
                         "%s:%d: game %d is a game of %s; the run's games are %s (--variant, or "
                         "the first game's)",
                         path, g->first_line, g->number, g->variant->name, in->variant->name);
    if (g->over && g->dropped > 0)
        fprintf(stderr,
                "hansu-selfplay label: warning: %s:%d: game %d: the rules end it at ply %d (%s); "
                "the %d moves after it are dropped\n",
                path, g->first_line, g->number, g->nmoves, rules_reason_name(g->end.reason),
                g->dropped);
    uint8_t sides = 3;
    if (rs->to_move)
        sides = (uint8_t)((!strcmp(g->white, rs->to_move) ? 1 << CHO : 0) |
                          (!strcmp(g->black, rs->to_move) ? 1 << HAN : 0));
    if (sides == 0) {
        in->not_player++;
        return STATUS_OK;
    }
    int winner = CHO;
    EndReason reason = REASON_NONE;
    const char *why = outcome(path, g, in->variant, &winner, &reason);
    fen_parse_variant(rs->b, g->variant, g->start_fen, NULL); // checked by pgn_read
    if (!why && g->nmoves == 0)
        why = "no moves";
    if (!why && (g->dropped > 0 && !g->over))
        why = "more plies than the store holds";
    if (!why && board_game_ply(rs->b) + g->nmoves > STORE_PLY_MAX)
        why = "more plies than the store holds (600, the start's move number counted)";
    if (why) {
        left_out(in, path, g, why);
        return STATUS_OK;
    }
    return add_game(in, rs->input, g, sides, winner, reason, err);
}

// Checks input i (a readable file, not a folder) and reads its games.
static Status read_input(LabelInputs *in, size_t i, const Variant *v, const char *to_move, Board *b,
                         ErrorInfo *err) {
    const char *path = in->paths[i];
    struct stat sb;
    if (stat(path, &sb) != 0)
        return error_set(err, STATUS_IO, "%s: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return error_set(err, STATUS_IO, "%s: not a file (a PGN file, plain or .gz, is needed)",
                         path);
    Status st = sha256_file(path, in->sha[i], err);
    if (st != STATUS_OK)
        return st;
    PgnReadOptions opt = {.variant = v ? v : in->variant, .max_plies = -1};
    ReadState rs = {.in = in, .to_move = to_move, .input = i, .b = b};
    int games;
    st = pgn_read_file(path, &opt, on_game, &rs, &games, err);
    if (st == STATUS_FORMAT && games > 0 && !strstr(err->msg, ": game ")) { // the reader's
        ErrorInfo why = *err;
        error_set(err, st, "%s (game %d of the file)", why.msg, games);
    }
    if (st == STATUS_OK && games == 0)
        st = error_set(err, STATUS_FORMAT, "%s: no PGN game in the file", path);
    return st;
}

// Whether game g starts where the store can set it up without an opening: a formation pairing
// (janggi; its formations then set), or the variant's start.
static bool standard_start(const LabelInputs *in, LabelGame *g, Board *b) {
    const Variant *v = in->variant;
    char fen[FEN_BUFFER];
    for (int p = 0; p < variant_pairing_count(v); p++) {
        variant_setup_pairing(v, b, p);
        fen_write(b, fen, sizeof fen);
        if (!strcmp(fen, in->fens[g->start])) {
            g->cho = variant_pairing_cho(v, p), g->han = variant_pairing_han(v, p);
            return true;
        }
    }
    fen_parse_variant(b, v, v->start_fen, NULL);
    fen_write(b, fen, sizeof fen);
    return v->formation_count == 0 && !strcmp(fen, in->fens[g->start]);
}

// Game ids: the input order, or, with openings, k * (openings) + the game's opening for its k-th
// game from that opening (the store finds a game's start as line game_id % (lines)).
static Status assign_ids(LabelInputs *in, Board *b, ErrorInfo *err) {
    in->openings = false;
    for (size_t i = 0; i < in->count; i++)
        in->openings |= !standard_start(in, &in->games[i], b);
    uint32_t *used = calloc((size_t)in->nfens, sizeof *used);
    if (!used)
        return error_set(err, STATUS_NOMEM, "out of memory");
    for (size_t i = 0; i < in->count; i++) {
        LabelGame *g = &in->games[i];
        if (in->openings)
            g->cho = g->han = 0;
        g->id = in->openings ? used[g->start]++ * (uint32_t)in->nfens + (uint32_t)g->start
                             : (uint32_t)i;
    }
    free(used);
    char *text = malloc(H5STORE_OPENINGS_MAX);
    Status st = text ? STATUS_OK : error_set(err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK && !label_inputs_openings(in, text, H5STORE_OPENINGS_MAX))
        st = error_set(err, STATUS_RANGE,
                       "%d start positions: a store file records at most %d bytes of them "
                       "(label fewer files at a time)",
                       in->nfens, H5STORE_OPENINGS_MAX - 1);
    free(text);
    return st;
}

Status label_inputs_read(char *const *paths, size_t n, const Variant *v, const char *to_move,
                         LabelInputs *in, ErrorInfo *err) {
    memset(in, 0, sizeof *in);
    in->variant = v;
    in->paths = calloc(n, sizeof *in->paths);
    in->sha = calloc(n, sizeof *in->sha);
    in->taken = calloc(n, sizeof *in->taken);
    Board *b = malloc(sizeof *b);
    Status st = in->paths && in->sha && in->taken && b
                    ? STATUS_OK
                    : error_set(err, STATUS_NOMEM, "out of memory");
    for (size_t i = 0; st == STATUS_OK && i < n; i++, in->npaths++)
        if (!(in->paths[i] = strdup(paths[i])))
            st = error_set(err, STATUS_NOMEM, "out of memory");
    for (size_t i = 0; st == STATUS_OK && i < n; i++)
        st = read_input(in, i, v, to_move, b, err);
    if (st == STATUS_OK && in->count == 0)
        st = error_set(err, STATUS_FORMAT,
                       "no game to store: %zu read, %zu left out, %zu without the player '%s'",
                       in->read, in->left_out, in->not_player, to_move ? to_move : "");
    if (st == STATUS_OK)
        st = assign_ids(in, b, err);
    free(b);
    if (st != STATUS_OK)
        label_inputs_free(in);
    return st;
}

void label_game_start(const LabelInputs *in, const LabelGame *g, Board *b) {
    fen_parse_variant(b, in->variant, in->fens[g->start], NULL); // written by fen_write
}

bool label_inputs_openings(const LabelInputs *in, char *out, size_t len) {
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; in->openings && i < in->nfens; i++) {
        int w = snprintf(out + n, len - n, "%s%s", i ? "\n" : "", in->fens[i]);
        if (w < 0 || (size_t)w >= len - n)
            return false;
        n += (size_t)w;
    }
    return true;
}

bool label_inputs_sources(const LabelInputs *in, char *out, size_t len, char digest[17]) {
    Sha256 h;
    char hex[65];
    size_t n = 0;
    out[0] = '\0';
    sha256_init(&h);
    for (size_t i = 0; i < in->npaths; i++) {
        char line[96];
        snprintf(line, sizeof line, "%s %zu\n", in->sha[i], in->taken[i]);
        sha256_update(&h, line, strlen(line));
        int w = snprintf(out + n, len - n, "%s%s %zu %s", i ? "\n" : "", in->sha[i], in->taken[i],
                         in->paths[i]);
        if (w < 0 || (size_t)w >= len - n)
            return false;
        n += (size_t)w;
    }
    sha256_final(&h, hex);
    snprintf(digest, 17, "%.16s", hex);
    return true;
}

void label_inputs_free(LabelInputs *in) {
    if (!in)
        return;
    for (size_t i = 0; i < in->count; i++)
        free(in->games[i].moves);
    for (int i = 0; i < in->nfens; i++)
        free(in->fens[i]);
    for (size_t i = 0; i < in->npaths; i++)
        free(in->paths[i]);
    free(in->games);
    free(in->fens);
    free(in->paths);
    free(in->sha);
    free(in->taken);
    memset(in, 0, sizeof *in);
}
