#!/usr/bin/env bash
# The store's overhead with instant engines (the mock engine, 100-ply games): N games through the
# file path and through the store with one worker (the store's cost a game), then
# `--concurrency 2` against 2 workers of one slot each. Run on a quiet machine:
#   scripts/store-bench.sh [N]      (default 400)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-400}
cargo build --release --quiet
bin=$PWD/target/release/skillcal
mock=$PWD/target/release/skillcal-mock-engine
work=$(mktemp -d /tmp/skillcal-bench.XXXXXX)
chmod 755 "$work"
trap 'scripts/pg-temp.sh destroy "$work/pg" >/dev/null 2>&1; rm -rf "$work"' EXIT
url=$(scripts/pg-temp.sh start "$work/pg")
"$bin" store init --store "$url" >/dev/null
args=(--engine "$mock" --engine "$mock" --nodes 1 --games "$n" --max-plies 100 --no-progress)
now() { date +%s.%N; }

# file path, one game at a time / two
t0=$(now); "$bin" match "${args[@]}" --out "$work/f1" --concurrency 1 >/dev/null; t1=$(now)
"$bin" match "${args[@]}" --out "$work/f2" --concurrency 2 >/dev/null; t2=$(now)
# the store: one worker of one slot / two workers of one slot; the coordinator starts first
store_run() {
  local out=$1 workers=$2 pids=()
  "$bin" match "${args[@]}" --store "$url" --out "$out" >/dev/null 2>"$out.log" &
  local coord=$!
  for _ in $(seq "$workers"); do
    "$bin" worker --store "$url" --idle-exit 1 >/dev/null 2>&1 &
    pids+=($!)
  done
  wait "$coord"
  wait "${pids[@]}"
}
t3=$(now); store_run "$work/s1" 1; t4=$(now)
store_run "$work/s2" 2; t5=$(now)
awk -v n="$n" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v e="$t4" -v f="$t5" 'BEGIN {
  f1 = b - a; f2 = c - b; s1 = e - d; s2 = f - e
  printf "file path, concurrency 1: %.2f s (%.2f ms a game)\n", f1, 1000 * f1 / n
  printf "store, 1 worker:          %.2f s (%.2f ms a game; +%.2f ms a game beside the file path)\n", s1, 1000 * s1 / n, 1000 * (s1 - f1) / n
  printf "file path, concurrency 2: %.2f s\n", f2
  printf "store, 2 workers:         %.2f s (%+.1f%% beside --concurrency 2)\n", s2, 100 * (s2 - f2) / f2
  print "(the store times include the worker start, its 1 s idle exit and the coordinator polling every 0.5 s)"
}'
