#!/usr/bin/env bash
# Gauntlet: full-strength built-in engine vs Stockfish 15.1 Skill 3, 5, 7 (>= 200 games,
# nodes=50000), then the legality check. Long: run it with nohup.
# Usage: scripts/bench/arena-gauntlet.sh [OUT_DIR [MATCH FLAGS...]]
#   (default results/gauntlet-builtin-vs-sf; rerun resumes; e.g. `... DIR --concurrency 2`)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${CARGO_TARGET_DIR:-target}/release"
out="${1:-results/gauntlet-builtin-vs-sf}"
shift || true
cargo build --release --quiet
start=$(date +%s)
SKILLCAL_BIN="$(realpath "$bin")/skillcal" \
  "$bin"/skillcal match --config configs/gauntlet-builtin-vs-sf.toml --out "$out" "$@"
echo "wall time: $(( $(date +%s) - start )) s"
ARENA_CHECK_DIR="$out" cargo test --release --quiet --test arena -- --ignored --nocapture check_existing_run
