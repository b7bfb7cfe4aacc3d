#!/usr/bin/env bash
# Rating benchmark: 100,000 games of 30 players (synthetic, seeded) rated by `skillcal rate`
# with one anchor and 1000 bootstrap simulations. Target: under 10 seconds on this machine.
# Usage: scripts/bench/rate-bench.sh [GAMES] [PLAYERS] [BOOTSTRAP]
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-100000}
players=${2:-30}
bootstrap=${3:-1000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bin=${CARGO_TARGET_DIR:-target}/release
cargo build --release --quiet --bin skillcal --example rating_gen_games
"$bin/examples/rating_gen_games" "$dir/games.csv" "$games" "$players" 1
start=$(date +%s.%N)
"$bin/skillcal" rate "$dir/games.csv" --anchor P00=1200 --bootstrap "$bootstrap" \
    --csv "$dir/ratings.csv" > "$dir/table.txt"
end=$(date +%s.%N)
head -12 "$dir/table.txt"
echo "..."
printf 'skillcal rate: %s games, %s players, %s bootstrap simulations: %.2f s (load average %s)\n' \
    "$games" "$players" "$bootstrap" "$(echo "$end - $start" | bc -l)" "$(cut -d' ' -f1-3 /proc/loadavg)"
