#!/usr/bin/env bash
# The arena's 100-game acceptance match (Stockfish Skill 2 vs 4, nodes=20000, concurrency 2),
# then the independent legality / consistency check of every game in its PGN.
# Usage: scripts/bench/arena-100.sh [OUT_DIR]   (default results/arena-100; rerun resumes)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${CARGO_TARGET_DIR:-target}/release"
out="${1:-results/arena-100}"
cargo build --release --quiet
start=$(date +%s)
"$bin"/skillcal match --config configs/sf-skill2-vs-4.toml --out "$out"
echo "wall time: $(( $(date +%s) - start )) s"
echo "games in CSV: $(( $(wc -l < "$out/games.csv") - 1 ))"
ARENA_CHECK_DIR="$out" cargo test --release --quiet --test arena -- --ignored --nocapture check_existing_run
