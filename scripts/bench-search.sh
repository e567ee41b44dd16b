#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Search speed: Hansu's nodes/s on the bench positions (data/bench.fen) beside
# Fairy-Stockfish 11.1's on the same FENs (UCI_Variant janggi, `go nodes`), in one run.
# Builds Release in its own folder. Usage: scripts/bench-search.sh [DEPTH] [FSF_NODES]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${HANSU_BUILD:-$root/build-bench-search}"
depth=${1:-8}
fsf_nodes=${2:-200000}
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}

# A folder that is already configured (HANSU_BUILD=build, say) keeps its options: only a new
# one is configured here, Release without the tests.
[ -f "$build"/CMakeCache.txt ] || cmake -S "${HANSU_SRC:-$root}" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHANSU_TESTS=OFF >/dev/null
ninja -C "$build" -j2 hansu >/dev/null

echo "== Hansu: bench depth $depth"
hansu_out=$("$build/engine/hansu" bench "$depth")
echo "$hansu_out" | tail -4
hansu_nps=$(echo "$hansu_out" | awk -F': ' '/^Nodes\/second/ {print $2}')

echo "== Fairy-Stockfish: go nodes $fsf_nodes on the same positions"
fsf_nps=$(python3 - "$fsf" "$root/data/bench.fen" "$fsf_nodes" <<'PY'
import subprocess, sys
exe, path, nodes = sys.argv[1], sys.argv[2], int(sys.argv[3])
p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def wait(token):
    last = None
    for line in p.stdout:
        if line.startswith("info") and " nodes " in line and " time " in line: last = line.split()
        if line.startswith(token): return last
send("uci"); wait("uciok")
send("setoption name UCI_Variant value janggi"); send("setoption name Threads value 1")
send("setoption name Hash value 16")
total_nodes = total_ms = count = 0
for fen in open(path):
    fen = fen.strip()
    if not fen or fen.startswith("#"): continue
    send("ucinewgame"); send("isready"); wait("readyok")
    send("position fen " + fen); send("go nodes %d" % nodes)
    info = wait("bestmove")
    if info:
        total_nodes += int(info[info.index("nodes") + 1]); total_ms += int(info[info.index("time") + 1])
        count += 1
send("quit")
print("positions %d, nodes %d, time %d ms" % (count, total_nodes, total_ms), file=sys.stderr)
print(total_nodes * 1000 // max(total_ms, 1))
PY
)
echo "Fairy-Stockfish nodes/second: $fsf_nps"
python3 -c "print('Hansu / Fairy-Stockfish nodes/s ratio: %.2f' % ($hansu_nps / $fsf_nps))"
