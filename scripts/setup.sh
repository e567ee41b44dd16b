#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what Hansu needs on Debian 12 (as root, or through sudo) and builds it in build/, and
# its MPI self-play and tuner (-DHANSU_MPI=ON) in build-mpi/, whose tests scripts/test.sh then runs.
# Usage: scripts/setup.sh [--deps-only]
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  clang libclang-rt-dev            # libFuzzer targets and sanitizer runtimes
  clang-format                     # the format check (scripts/format.sh --check)
  libcmocka-dev                    # unit tests
  zlib1g-dev libhdf5-dev hdf5-tools
  openmpi-bin libopenmpi-dev       # the MPI build, build-mpi/ (docs/cluster.md); HDF5 stays serial
  fairy-stockfish                  # baseline opponent and cross-check
  fairymax                         # MaxQi, an XBoard-only xiangqi engine for hansu-match's CECP test
  python3 python3-numpy python3-h5py python3-pandas python3-matplotlib
  chromium python3-websocket       # the browser test of report.html (ctest -L browser)
  fonts-wqy-zenhei                 # hanja on the board in its screenshot
  xboard xvfb x11-apps imagemagick # the XBoard game over CECP and its screenshots (ctest -L gui)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install packages" >&2; exit 1; }
    SUDO="sudo"
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi

[ "${1:-}" = "--deps-only" ] && exit 0

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
ninja -C build
echo "setup: built into build/"
cmake -S . -B build-mpi -G Ninja -DCMAKE_BUILD_TYPE=Release -DHANSU_MPI=ON
ninja -C build-mpi hansu-selfplay hansu-tune
echo "setup: built the MPI self-play and tuner into build-mpi/"
