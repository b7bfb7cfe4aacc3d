#!/usr/bin/env bash
# Measures the arena's per-move overhead: the time from receiving `bestmove` to having sent
# the next `go` (position + go), averaged over every move of a match. Engines answer fast
# (Stockfish at nodes=1, and the mock engine), so the figure is the arena's own work:
# legality, SAN, repetition and adjudication bookkeeping, the position string, the pipe write.
# The summary also says how much of it is spent inside the pipe write: on a busy machine
# writing `go` wakes the engine, which may take the CPU before the arena notes the time.
# Usage: scripts/bench/arena-overhead.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${CARGO_TARGET_DIR:-target}/release"
cargo build --release --quiet --bins
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== Stockfish vs Stockfish, nodes=1, 20 games, concurrency 1"
"$bin"/skillcal match --no-progress --out "$tmp/sf" --engine /usr/games/stockfish:Hash=1 \
  --engine "/usr/games/stockfish:Hash=2" --nodes 1 --rounds 10 --concurrency 1 --max-plies 200 \
  | grep -E "overhead|games done"
echo "== mock vs mock (instant answers), 20 games, concurrency 1"
"$bin"/skillcal match --no-progress --out "$tmp/mock" \
  --engine "$bin"/skillcal-mock-engine:Hash=1 --engine "$bin"/skillcal-mock-engine:Hash=2 \
  --nodes 1 --rounds 10 --concurrency 1 --max-plies 300 | grep -E "overhead|games done"
