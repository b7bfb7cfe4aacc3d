#!/usr/bin/env bash
# Move-matching on the rated human games of ../shared/human (Lichess, CC0) into results/human:
# every Maia-1 net on every position (argmax, and the exact expectation at PolicyTemperature 1),
# then the six families on a seeded sample of positions per band. Resumable: a killed run keeps
# every finished chunk (results/human/matching-chunks.csv) and a rerun skips it; the script
# keeps a zstd copy of that file (committed; the CSV itself is not) and restores it when the CSV
# is missing, so a run can go on in a later session.
#
#   scripts/research/human-analysis.sh            # both parts
#   scripts/research/human-analysis.sh maia       # the nets only
#   scripts/research/human-analysis.sh families   # the families only
#
# Environment: HUMAN_DIR (default ../shared/human), OUT (default results/human), THREADS
# (default 2: network evaluators, or engine processes), SAMPLE (positions per band for the
# families, default 2000), SKILLCAL (default target/release/skillcal, built if missing).
set -euo pipefail
cd "$(dirname "$0")/../.."

HUMAN_DIR=${HUMAN_DIR:-../shared/human}
OUT=${OUT:-results/human}
THREADS=${THREADS:-2}
SAMPLE=${SAMPLE:-2000}
SKILLCAL=${SKILLCAL:-target/release/skillcal}
PART=${1:-all}

[ -x "$SKILLCAL" ] || cargo build --release
mkdir -p "$OUT"
CHUNKS="$OUT/matching-chunks.csv"
if [ ! -f "$CHUNKS" ] && [ -f "$CHUNKS.zst" ]; then
    zstd -q -d "$CHUNKS.zst" -o "$CHUNKS"
fi
keep() { if [ -f "$CHUNKS" ]; then zstd -q -19 -f "$CHUNKS" -o "$CHUNKS.zst"; fi; }
trap keep EXIT

FILES=("$HUMAN_DIR"/datasnaek_lichess_20k.pgn.zst "$HUMAN_DIR"/lichess_2018-06_hlias_28k.pgn.zst)
# Maia's protocol (first 10 plies skipped; moves under 30 s skipped where clocks exist: these
# files have none), movers rated 800-2499, every time control (one file has no TimeControl tag).
COMMON=(analyse --human "${FILES[@]}" --matching-only --out "$OUT" --bands 800-2499
    --min-ply 10 --min-clock 30 --concurrency "$THREADS")

if [ "$PART" = all ] || [ "$PART" = maia ]; then
    NETS=()
    for n in 1100 1200 1300 1400 1500 1600 1700 1800 1900; do
        NETS+=(--match-engine "builtin:Style=maia,MaiaNet=$n"
            --match-engine "builtin:Style=maia,MaiaNet=$n,PolicyTemperature=1")
    done
    "$SKILLCAL" "${COMMON[@]}" "${NETS[@]}"
    keep
fi

if [ "$PART" = all ] || [ "$PART" = families ]; then
    FAMILIES=()
    for f in blend nodes inaccuracy gaussian gbm evalnoise; do
        FAMILIES+=(--match-engine "builtin:Style=$f,RandomSeed=1")
    done
    "$SKILLCAL" "${COMMON[@]}" "${FAMILIES[@]}" --match-limit nodes=10000000 \
        --sample-positions "$SAMPLE" --sample-seed 1
    keep
fi
# each run writes matching.{csv,md,svg} from every chunk in the folder: after both parts they
# hold the nets and the families together
