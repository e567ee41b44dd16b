# SPDX-License-Identifier: MIT
# Long runs kept in docs/ (matches, SPRTs, tournaments that outlast a session) commit their PGNs
# gzipped: a run's PGN.gz beside its PGN.state, the plain PGN ignored by git (.gitignore).
# scripts/pack-runs writes the .gz of every run under way, before its state is committed; a
# runner sources this file and calls runs_unpack on its PGNs before it resumes, so that a fresh
# checkout continues from the committed .gz.

# runs_unpack PGN...: each PGN missing beside its PGN.gz is written back from it (byte for byte:
# hansu-match's state names the PGN's length, and resuming cuts the PGN back to it).
runs_unpack() {
  local p
  for p in "$@"; do
    if [ ! -e "$p" ] && [ -f "$p.gz" ]; then
      gzip -dc -- "$p.gz" >"$p.tmp" && mv -- "$p.tmp" "$p"
    fi
  done
}
