// SPDX-License-Identifier: MIT
// hansu-selfplay show: FEN, move and score of stored positions.
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>

#include "board.h"
#include "cli.h"
#include "fen.h"
#include "h5store.h"
#include "notation.h"
#include "packed_board.h"

// Prints rows of a file as the Python decoder does (scripts/board_decode.py FILE ROW...), so
// the two decoders can be compared: row, FEN, move, score.
int cmd_show(int argc, char **argv) {
    char **words = NULL;
    int nwords = 0;
    int done = cmd_read_words("usage: hansu-selfplay show FILE [ROW...]\n", argc, argv, 1, &words,
                              &nwords);
    if (done >= 0)
        return free(words), done;
    ShardData d;
    shard_data_init(&d);
    ErrorInfo err;
    Board *b = malloc(sizeof *b);
    int rc = 0;
    if (!b || h5store_read(words[0], NULL, &d, &err) != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay show: %s\n", b ? err.msg : "out of memory");
        rc = 1;
    }
    if (rc == 0 && nwords > 1 && d.positions.count == 0) {
        fprintf(stderr, "hansu-selfplay show: %s: no positions, so no row %s\n", words[0],
                words[1]);
        rc = 2;
    }
    size_t n = rc ? 0 : nwords > 1 ? (size_t)(nwords - 1) : d.positions.count;
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint64_t row = i;
        if (nwords > 1 &&
            cli_parse_u64("row", words[1 + i], d.positions.count - 1, &row, &err) != STATUS_OK) {
            fprintf(stderr, "hansu-selfplay show: %s\n", err.msg);
            rc = 2;
            break;
        }
        const PackedBoard *pb = (const PackedBoard *)(d.positions.board + row * PACKED_BOARD_BYTES);
        if (packed_board_decode_variant(pb, d.variant, (Side)d.positions.stm[row],
                                        d.positions.ply[row], b, &err) != STATUS_OK) {
            fprintf(stderr, "hansu-selfplay show: row %llu: %s\n", (unsigned long long)row,
                    err.msg);
            rc = 1;
            break;
        }
        char fen[FEN_BUFFER], move[MOVE_STR_LEN];
        fen_write(b, fen, sizeof fen);
        move_to_uci(d.positions.move[row], move);
        printf("%llu  %s  %s  score %d\n", (unsigned long long)row, fen, move,
               d.positions.score[row]);
    }
    free(b);
    free(words);
    shard_data_free(&d);
    return rc;
}
