#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Decoder of the packed board of Hansu's self-play files (docs/data-format.md).

A packed board is 32 bytes, one per piece slot. Slots 0-15 are Cho's, 16-31 Han's; within a
side: 0 general, 1-2 guards, 3-4 chariots, 5-6 cannons, 7-8 horses, 9-10 elephants,
11-15 soldiers. Each byte is the piece's square, rank * 9 + file (file 0 = a, rank 0 = rank 1),
or 255 when the piece has been captured.

    import board_decode, hansu_shard
    f = hansu_shard.open_shard("runs/x/shard-000000.h5")   # digest checked first
    row = 10
    print(board_decode.to_fen(f["positions/board"][row], f["positions/stm"][row],
                              f["positions/ply"][row]))
    squares = board_decode.decode_many(f["positions/board"][:])   # (N, 90) piece codes

Command line: board_decode.py FILE [ROW ...] prints the FEN and the move of those rows; a
damaged or foreign file, or a bad row, is a one-line error and exit status 1.
"""
import sys

import numpy as np

NONE = 255
# Piece kinds as engine/types.h numbers them; a piece code is kind | side << 3 (0 = empty).
GENERAL, GUARD, CHARIOT, CANNON, HORSE, ELEPHANT, SOLDIER = range(1, 8)
SLOT_KINDS = np.array([GENERAL, GUARD, GUARD, CHARIOT, CHARIOT, CANNON, CANNON, HORSE, HORSE,
                       ELEPHANT, ELEPHANT] + [SOLDIER] * 5, dtype=np.int8)
FEN_LETTERS = {GENERAL: "k", GUARD: "a", CHARIOT: "r", CANNON: "c", HORSE: "n",
               ELEPHANT: "b", SOLDIER: "p"}
# Piece code of each of the 32 slots.
SLOT_CODES = np.concatenate([SLOT_KINDS, SLOT_KINDS | 8]).astype(np.int8)


def decode(board):
    """One packed board (32 bytes) -> array of 90 piece codes indexed by square."""
    board = np.asarray(board, dtype=np.uint8)
    squares = np.zeros(90, dtype=np.int8)
    on = board != NONE
    if (board[on] >= 90).any():
        raise ValueError("packed board holds a byte that is not a square")
    if len(np.unique(board[on])) != on.sum():
        raise ValueError("packed board puts two pieces on one square")
    squares[board[on]] = SLOT_CODES[on]
    return squares


def decode_many(boards):
    """(N, 32) packed boards -> (N, 90) piece codes, vectorised."""
    boards = np.asarray(boards, dtype=np.uint8)
    n = boards.shape[0]
    out = np.zeros((n, 91), dtype=np.int8)       # column 90 swallows the captured pieces
    idx = np.where(boards == NONE, 90, boards).astype(np.intp)
    rows = np.repeat(np.arange(n), 32)
    out[rows, idx.ravel()] = np.tile(SLOT_CODES, n)
    return out[:, :90]


def to_fen(board, stm, ply):
    """FEN (Fairy-Stockfish janggi convention) of a packed board, side to move, plies played."""
    squares = decode(board)
    ranks = []
    for rank in range(9, -1, -1):
        text, empty = "", 0
        for file in range(9):
            code = int(squares[rank * 9 + file])
            if code == 0:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            letter = FEN_LETTERS[code & 7]
            text += letter.upper() if code < 8 else letter
        ranks.append(text + (str(empty) if empty else ""))
    side = "w" if int(stm) == 0 else "b"
    return "%s %s - - 0 %d" % ("/".join(ranks), side, int(ply) // 2 + 1)


def square_name(sq):
    return "abcdefghi"[sq % 9] + str(sq // 9 + 1)


def move_to_uci(move):
    """Stored move (from | to << 7) -> UCI text; a pass is the general's square twice."""
    move = int(move)
    return square_name(move & 127) + square_name((move >> 7) & 127)


def main(argv):
    import hansu_shard
    if len(argv) < 2:
        print(__doc__)
        return 2
    try:
        with hansu_shard.open_shard(argv[1]) as f:
            pos = f["positions"]
            n = pos["ply"].shape[0]
            rows = [int(r) for r in argv[2:]] or range(min(5, n))
            for r in rows:
                if not 0 <= r < n:
                    raise ValueError("row %d is not in 0..%d" % (r, n - 1))
                print("%d  %s  %s  score %d" % (r, to_fen(pos["board"][r], pos["stm"][r],
                                                          pos["ply"][r]),
                                              move_to_uci(pos["move"][r]), pos["score"][r]))
    except hansu_shard.ShardError as e:
        print("board_decode: %s" % e, file=sys.stderr)
        return 1
    except (OSError, KeyError, IndexError, ValueError) as e:
        print("board_decode: %s: %s" % (argv[1], e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
