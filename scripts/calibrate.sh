#!/usr/bin/env bash
# The README's main command: a real calibration of the built-in engine against Stockfish 15.1
# Skill Levels, then its report.
#   scripts/calibrate.sh [CONFIG [OUT [extra calibrate flags, e.g. --install]]]
# Defaults: configs/default.toml into results/default (about 8 minutes on 2 cores).
# VERIFY=1 also plays the verification games of the new table (the config's [verify] levels)
# into OUT/verify and adds them to the report. Rerunning the same command resumes a killed run.
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG="${1:-configs/default.toml}"
NAME="$(basename "$CONFIG" .toml)"
OUT="${2:-results/$NAME}"
shift $(( $# > 2 ? 2 : $# ))
scripts/install-engines.sh
export PATH="$PATH:/usr/games"
cargo build --release --quiet
BIN="$PWD/target/release/skillcal"
# builtin engines in the arena are started from this binary
export SKILLCAL_BIN="$BIN"
"$BIN" calibrate "$CONFIG" --out "$OUT" "$@"
if [ "${VERIFY:-0}" = 1 ]; then
  "$BIN" verify "$OUT/uci_elo_table.csv" --config "$CONFIG" --out "$OUT/verify"
fi
"$BIN" report "$OUT" >/dev/null
echo "table:  $OUT/uci_elo_table.csv"
echo "report: $OUT/report.html (and $OUT/report.md)"
