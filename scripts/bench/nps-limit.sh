#!/usr/bin/env bash
# Measures how well LimitNps holds the search rate: a 2-second search from a middlegame position
# at each throttle, rated by the engine's final `info nodes N nps M time T` line at bestmove.
# The throttle only slows the search down: a target above what the machine reaches unthrottled
# tests nothing.
#   scripts/bench/nps-limit.sh [RATE...]      (default: 20000 100000 500000)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
BIN="$PWD/target/release/skillcal"
FEN="r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16"
RATES=("$@")
[ ${#RATES[@]} -eq 0 ] && RATES=(20000 100000 500000)
printf '%10s %12s %8s %10s %8s\n' target nodes ms nps deviation
for rate in "${RATES[@]}"; do
  last=$(printf 'uci\nsetoption name LimitNps value %s\nposition fen %s\ngo movetime 2000\n' "$rate" "$FEN" \
    | (cat; sleep 3; echo quit) | "$BIN" uci | grep '^info nodes' | tail -1)
  nodes=$(awk '{for(i=1;i<NF;i++) if($i=="nodes") print $(i+1)}' <<<"$last")
  ms=$(awk '{for(i=1;i<NF;i++) if($i=="time") print $(i+1)}' <<<"$last")
  awk -v r="$rate" -v n="$nodes" -v t="$ms" 'BEGIN {
    nps = n * 1000 / t; printf "%10d %12d %8d %10d %+7.1f%%\n", r, n, t, nps, (nps / r - 1) * 100 }'
done
