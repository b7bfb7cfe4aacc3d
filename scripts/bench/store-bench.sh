#!/usr/bin/env bash
# The store's overhead, on a quiet machine:
#   1. its cost a game with instant engines (the mock engine, 100-ply games): the coordinator's
#      wall time for N and for 3N games through the store with one worker, beside the file path
#      at --concurrency 1; the slope (extra time over the extra 2N games) leaves out the fixed
#      costs (starting the worker, the coordinator's 0.5 s poll) and keeps the round trips;
#   2. 2 workers of one slot against --concurrency 2 on node-bounded games (the built-in engine
#      at NODES nodes a move, G games): the coordinator's wall time beside the file path's.
#   scripts/bench/store-bench.sh [N] [G] [NODES]      (defaults 400, 100, 20000)
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-400}
g=${2:-100}
nodes=${3:-20000}
cargo build --release --quiet
bin=$PWD/target/release/skillcal
mock=$PWD/target/release/skillcal-mock-engine
work=$(mktemp -d /tmp/skillcal-bench.XXXXXX)
chmod 755 "$work"
trap 'scripts/pg-temp.sh destroy "$work/pg" >/dev/null 2>&1; rm -rf "$work"' EXIT
url=$(scripts/pg-temp.sh start "$work/pg")
"$bin" store init --store "$url" >/dev/null
now() { date +%s.%N; }
# prints the seconds a file-path match takes
file_run() {
  local t0; t0=$(now)
  "$bin" match "$@" --out "$work/f$RANDOM$RANDOM" --no-progress >/dev/null
  awk -v a="$t0" -v b="$(now)" 'BEGIN {print b - a}'
}
# prints the seconds from enqueueing to the coordinator's exit, WORKERS workers of one slot
store_run() {
  local workers=$1; shift
  local out="$work/s$RANDOM$RANDOM" pids=() t0 t1
  t0=$(now)
  "$bin" match "$@" --store "$url" --out "$out" --no-progress >/dev/null 2>"$out.log" &
  local coord=$!
  for _ in $(seq "$workers"); do
    "$bin" worker --store "$url" --idle-exit 1 >/dev/null 2>&1 &
    pids+=($!)
  done
  wait "$coord"
  t1=$(now)
  wait "${pids[@]}"
  awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}'
}
mockargs=(--engine "$mock" --engine "$mock" --nodes 1 --max-plies 100)
f1=$(file_run "${mockargs[@]}" --games "$n" --concurrency 1)
f3=$(file_run "${mockargs[@]}" --games $((3 * n)) --concurrency 1)
s1=$(store_run 1 "${mockargs[@]}" --games "$n")
s3=$(store_run 1 "${mockargs[@]}" --games $((3 * n)))
realargs=(--engine builtin --engine builtin --nodes "$nodes" --games "$g")
fc=$(file_run "${realargs[@]}" --concurrency 2)
sc=$(store_run 2 "${realargs[@]}")
awk -v n="$n" -v g="$g" -v nodes="$nodes" -v f1="$f1" -v f3="$f3" -v s1="$s1" -v s3="$s3" \
    -v fc="$fc" -v sc="$sc" 'BEGIN {
  fg = 1000 * (f3 - f1) / (2 * n); sg = 1000 * (s3 - s1) / (2 * n)
  printf "mock engine, %d and %d games: file path %.2f s and %.2f s (%.2f ms a game); store, 1 worker %.2f s and %.2f s (%.2f ms a game)\n", n, 3 * n, f1, f3, fg, s1, s3, sg
  printf "store round trips: %+.2f ms a game beside the file path (target <= 2)\n", sg - fg
  printf "built-in at %d nodes, %d games: --concurrency 2 %.2f s, store with 2 workers %.2f s (%+.1f%%, target within 5%%)\n", nodes, g, fc, sc, 100 * (sc - fc) / fc
}'
