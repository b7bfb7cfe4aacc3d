#!/usr/bin/env bash
# The Style=human family from its calibration to its evidence, each step resumable (a rerun
# skips finished games and finished matching chunks):
#   1. calibrate configs/families/human.toml into results/families/human (--install human)
#   2. rebuild, so the engine embeds the installed table
#   3. move-matching of each band's level: UCI_Elo = the band's middle read on Lichess blitz
#      (UCI_EloScale=lichess-blitz), 2,000 seeded positions a band (as the six families), and
#      the nine Maia nets' top moves on the same positions (compare pairs them per band)
#   4. the comparison page of the seven families with the trade-off figure
#   5. verify the table: 11 levels (600..2600 every 200), 240 games a level (its three nearest
#      pool members, which near 1,300-1,500 are the Maia members, 80 games each), the longest step
#
#   scripts/human-family.sh            # every step
#   scripts/human-family.sh verify     # the verification alone (or: matching, compare on)
#
# Environment: SKILLCAL (default target/release/skillcal, rebuilt at step 2), HUMAN_DIR
# (default ../shared/human), THREADS (default 2), NICE (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
SKILLCAL=${SKILLCAL:-target/release/skillcal}
HUMAN_DIR=${HUMAN_DIR:-../shared/human}
THREADS=${THREADS:-2}
NICE=${NICE:-5}
FROM=${1:-calibrate}
RUN=results/families/human
run() { echo "== $*" >&2; nice -n "$NICE" "$@"; }
step() { # true from the step named FROM on
  local order=(calibrate build matching compare verify) seen=0
  for s in "${order[@]}"; do
    [ "$s" = "$FROM" ] && seen=1
    [ "$s" = "$1" ] && [ "$seen" = 1 ] && return 0
  done
  return 1
}
scripts/install-engines.sh # the pool's Stockfish and Fairy-Stockfish
export PATH="$PATH:/usr/games"
[ -x "$SKILLCAL" ] || cargo build --release
if step calibrate; then
  run "$SKILLCAL" calibrate configs/families/human.toml --out "$RUN" --install human
fi
if step build; then
  cargo build --release
  SKILLCAL=target/release/skillcal
fi
if step matching; then
  nets=()
  for n in 1100 1200 1300 1400 1500 1600 1700 1800 1900; do
    nets+=(--match-engine "builtin:Style=maia,MaiaNet=$n")
  done
  run "$SKILLCAL" analyse --human "$HUMAN_DIR"/datasnaek_lichess_20k.pgn.zst \
    "$HUMAN_DIR"/lichess_2018-06_hlias_28k.pgn.zst --matching-only --out "$RUN/matching" \
    --bands 800-2499 --min-ply 10 --min-clock 30 --concurrency "$THREADS" \
    --match-engine "builtin:Style=human,UCI_EloScale=lichess-blitz" "${nets[@]}" \
    --match-limit nodes=10000000 --sample-positions 2000 --sample-seed 1
fi
if step compare; then
  run "$SKILLCAL" compare results/families/blend results/families/nodes \
    results/families/inaccuracy results/families/gaussian results/families/gbm \
    results/families/evalnoise "$RUN" --human results/human --matching results/human-tradeoff \
    --matching "$RUN/matching" --out results/families/compare-people
fi
if step verify; then
  run "$SKILLCAL" verify "$RUN/uci_elo_table.csv" --config configs/families/human.toml \
    --levels 600,800,1000,1200,1400,1600,1800,2000,2200,2400,2600
fi
