#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes data/openings-xiangqi.fen: well-known xiangqi openings after 2-4 plies, each played
from the start position through Hansu's own rules core (`hansu`, UCI `position startpos moves
...` then `d`), never typed as FENs. A move Hansu refuses stops the script with its name.

    scripts/make-openings.py [--hansu build/engine/hansu] [-o data/openings-xiangqi.fen]

Moves are UCI squares (files a-i from Red's left, ranks 1-10 from Red's side); the comment of
each line gives the name and the moves in Chinese notation.
"""
import argparse
import subprocess
import sys

# (name, Chinese notation, UCI moves)
OPENINGS = [
    ("Central Cannon v Screen Horse", "C2=5 H8+7", "h3e3 h10g8"),
    ("Central Cannon v Screen Horses", "C2=5 H8+7 H2+3 H2+3", "h3e3 h10g8 h1g3 b10c8"),
    ("Central Cannon v Screen Horse, right chariot", "C2=5 H8+7 H2+3 R9+1", "h3e3 h10g8 h1g3 i10i9"),
    ("Central Cannon v Screen Horse, 7th soldier", "C2=5 H8+7 H2+3 P7+1", "h3e3 h10g8 h1g3 g7g6"),
    ("Central Cannon v Screen Horse, 3rd soldier", "C2=5 H8+7 H2+3 P3+1", "h3e3 h10g8 h1g3 c7c6"),
    ("Central Cannon, horse, v Screen Horse, chariot", "C2=5 H8+7 H2+3 R9=8", "h3e3 h10g8 h1g3 i10h10"),
    ("Same Direction Cannons", "C2=5 C8=5", "h3e3 h8e8"),
    ("Same Direction Cannons, horses", "C2=5 C8=5 H2+3 H8+7", "h3e3 h8e8 h1g3 h10g8"),
    ("Opposite Direction Cannons", "C2=5 C2=5", "h3e3 b8e8"),
    ("Opposite Direction Cannons, horses", "C2=5 C2=5 H2+3 H2+3", "h3e3 b8e8 h1g3 b10c8"),
    ("Central Cannon v Left Horse", "C2=5 H2+3", "h3e3 b10c8"),
    ("Central Cannon v Left Horse, chariot", "C2=5 H2+3 H2+3 R1=2", "h3e3 b10c8 h1g3 a10b10"),
    ("Central Cannon v Three-step Tiger", "C2=5 H8+7 H2+3 C8=9", "h3e3 h10g8 h1g3 h8i8"),
    ("Central Cannon v Elephant", "C2=5 E3+5", "h3e3 c10e8"),
    ("Central Cannon v Soldier", "C2=5 P3+1", "h3e3 c7c6"),
    ("Central Cannon v Palace Corner Cannon", "C2=5 C8=6", "h3e3 h8f8"),
    ("Left Central Cannon v Screen Horse", "C8=5 H2+3", "b3e3 b10c8"),
    ("Left Central Cannon v Screen Horses", "C8=5 H2+3 H8+7 H8+7", "b3e3 b10c8 b1c3 h10g8"),
    ("Left Elephant v Central Cannon", "E7+5 C2=5", "c1e3 b8e8"),
    ("Elephant v Soldier", "E7+5 P3+1", "c1e3 c7c6"),
    ("Elephant v Horse", "E7+5 H8+7", "c1e3 h10g8"),
    ("Elephant v Horse, horses", "E7+5 H8+7 H2+3 H2+3", "c1e3 h10g8 h1g3 b10c8"),
    ("Elephant v Central Cannon", "E3+5 C8=5", "g1e3 h8e8"),
    ("Pawn Opening v Pawn", "P7+1 P7+1", "c4c5 g7g6"),
    ("Pawn Opening v Cannon under Pawn", "P7+1 C2=3", "c4c5 b8c8"),
    ("Pawn Opening v Elephant", "P7+1 E3+5", "c4c5 c10e8"),
    ("Pawn Opening v Central Cannon", "P7+1 C8=5", "c4c5 h8e8"),
    ("Right Pawn Opening v Pawn", "P3+1 P3+1", "g4g5 c7c6"),
    ("Horse Opening v Pawn", "H2+3 P7+1", "h1g3 g7g6"),
    ("Horse Opening v Horse", "H2+3 H8+7", "h1g3 h10g8"),
    ("Left Horse Opening v Central Cannon", "H8+7 C2=5", "b1c3 b8e8"),
    ("Cross Palace Cannon v Horse", "C2=6 H8+7", "h3d3 h10g8"),
    ("Palace Corner Cannon v Horse", "C2=4 H2+3", "h3f3 b10c8"),
    ("Advisor Opening v Central Cannon", "A4+5 C8=5", "f1e2 h8e8"),
]


def fen_after(hansu, moves):
    cmds = f"setoption name UCI_Variant value xiangqi\nposition startpos moves {moves}\nd\nquit\n"
    out = subprocess.run([hansu], input=cmds, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("info string"):
            sys.exit(f"make-openings: hansu refuses '{moves}': {line}")
    fens = [line[len("Fen: "):] for line in out.splitlines() if line.startswith("Fen: ")]
    if len(fens) != 1:
        sys.exit(f"make-openings: no FEN from hansu for '{moves}'")
    return fens[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hansu", default="build/engine/hansu")
    ap.add_argument("-o", "--out", default="data/openings-xiangqi.fen")
    a = ap.parse_args()
    lines = ["# variant: xiangqi",
             "# Well-known xiangqi openings after 2-4 plies, written by scripts/make-openings.py",
             "# (each played from the start position by Hansu's rules core; do not edit by hand).",
             "# One FEN a line, as hansu-selfplay and hansu-match --openings read it."]
    for name, chinese, moves in OPENINGS:
        lines.append(f"# {name}: {chinese} ({moves})")
        lines.append(fen_after(a.hansu, moves))
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{a.out}: {len(OPENINGS)} openings")


if __name__ == "__main__":
    main()
