// SPDX-License-Identifier: MIT
// Replay check of stored games (the test the issue asks of every file; also `verify`).
#include "verify.h"

#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fen.h"
#include "movegen.h"
#include "packed_board.h"
#include "rules.h"
#include "variant.h"

// The stored position row p against the replayed board b.
static Status check_position(const ShardData *d, size_t p, Board *b, Board *scratch,
                             ErrorInfo *err) {
    const PositionColumns *pc = &d->positions;
    uint32_t id = pc->game_id[p];
    int ply = board_game_ply(b);
    PackedBoard want;
    packed_board_encode(b, &want);
    if (memcmp(want.sq, pc->board + p * PACKED_BOARD_BYTES, PACKED_BOARD_BYTES) != 0)
        return error_set(err, STATUS_FORMAT, "game %u ply %d: stored board differs from replay", id,
                         ply);
    if (pc->stm[p] != b->side || pc->ply[p] != ply)
        return error_set(err, STATUS_FORMAT, "game %u ply %d: side to move or ply differs", id,
                         ply);
    ErrorInfo e;
    char fen[FEN_BUFFER];
    if (packed_board_decode_variant((const PackedBoard *)(pc->board + p * PACKED_BOARD_BYTES),
                                    b->variant, (Side)pc->stm[p], ply, scratch, &e) != STATUS_OK)
        return error_set(err, STATUS_FORMAT, "game %u ply %d: %s", id, ply, e.msg);
    fen_write(scratch, fen, sizeof fen);
    if (fen_parse_variant(scratch, b->variant, fen, &e) != STATUS_OK)
        return error_set(err, STATUS_FORMAT, "game %u ply %d: illegal position %s: %s", id, ply,
                         fen, e.msg);
    Move m = pc->move[p];
    if (!movegen_is_pseudo_legal(b, m) || !movegen_is_legal(b, m))
        return error_set(err, STATUS_FORMAT, "game %u ply %d: illegal move %u", id, ply, m);
    bool capture = !move_is_pass(m) && board_at(b, move_to(m)) != EMPTY;
    uint8_t flags =
        (uint8_t)((board_in_check(b) ? POS_IN_CHECK : 0) | (capture ? POS_BEST_CAPTURE : 0));
    if ((pc->flags[p] & (POS_IN_CHECK | POS_BEST_CAPTURE)) != flags)
        return error_set(err, STATUS_FORMAT, "game %u ply %d: flags %u, replay says %u", id, ply,
                         pc->flags[p], flags);
    return STATUS_OK;
}

// The end of game g: points, and the rules' verdict on the final position.
static Status check_end(const ShardData *d, size_t g, Board *b, ErrorInfo *err) {
    const GameColumns *gc = &d->games;
    GameResult res;
    bool over = rules_game_over(b, &res);
    bool by_tool = gc->reason[g] == REASON_RESIGN || gc->reason[g] == REASON_ADJUDICATION;
    if (res.points_half[CHO] != gc->points_cho[g] || res.points_half[HAN] != gc->points_han[g])
        return error_set(err, STATUS_FORMAT, "game %u: final points differ from replay",
                         gc->game_id[g]);
    int winner = res.draw ? WINNER_DRAW : (int)res.winner;
    // Adjudicated at the ply cap (a drawn xiangqi game cut at STORE_PLY_MAX) is by the tool too.
    if (by_tool ? over : !over || res.reason != gc->reason[g] || winner != gc->winner[g])
        return error_set(err, STATUS_FORMAT, "game %u: stored result %s/%s, replay gives %s/%s",
                         gc->game_id[g],
                         gc->winner[g] == WINNER_DRAW ? "drawn"
                         : gc->winner[g]              ? "han"
                                                      : "cho",
                         rules_reason_name((EndReason)gc->reason[g]),
                         res.draw     ? "drawn"
                         : res.winner ? "han"
                                      : "cho",
                         over ? rules_reason_name(res.reason) : "not over");
    return STATUS_OK;
}

// Standalone position g (a PV end): what its row can say without a game around it. Its board was
// judged legal by shard_data_game_start; here its points are the board's, and it was searched.
static Status check_standalone(const ShardData *d, size_t g, Board *b, ErrorInfo *err) {
    const GameColumns *gc = &d->games;
    uint64_t p = gc->pos_start[g];
    if (rules_points_half(b, CHO) != gc->points_cho[g] ||
        rules_points_half(b, HAN) != gc->points_han[g])
        return error_set(err, STATUS_FORMAT, "position %u: points differ from its board",
                         gc->game_id[g]);
    if (d->positions.flags[p] & POS_RANDOM)
        return error_set(err, STATUS_FORMAT, "position %u: a standalone position not searched",
                         gc->game_id[g]);
    return STATUS_OK;
}

Status verify_games(const ShardData *d, ErrorInfo *err) {
    // The value ranges first (the same checks as every reader's): the replay then meets only
    // formations, squares and lengths that exist.
    Status st = shard_data_check(d, err);
    if (st != STATUS_OK)
        return st;
    Board *b = malloc(sizeof *b), *scratch = malloc(sizeof *scratch);
    if (!b || !scratch)
        st = error_set(err, STATUS_NOMEM, "out of memory");
    const GameColumns *gc = &d->games;
    for (size_t g = 0; st == STATUS_OK && g < gc->count; g++) {
        // The game's start: its stored board (standalone), its opening, else its formations
        // (janggi), else the variant's.
        if ((st = shard_data_game_start(d, g, b, err)) != STATUS_OK)
            break;
        if (d->standalone && (st = check_standalone(d, g, b, err)) != STATUS_OK)
            break;
        for (uint64_t p = gc->pos_start[g]; st == STATUS_OK && p < gc->pos_end[g]; p++) {
            GameResult res;
            if (rules_game_over(b, &res))
                st = error_set(err, STATUS_FORMAT, "game %u: over at ply %d but goes on",
                               gc->game_id[g], board_game_ply(b));
            else
                st = check_position(d, p, b, scratch, err);
            if (st == STATUS_OK)
                board_make(b, d->positions.move[p]);
        }
        // A standalone position's result is its source game's, not its own board's.
        if (st == STATUS_OK && !d->standalone)
            st = check_end(d, g, b, err);
    }
    free(b);
    free(scratch);
    return st;
}
