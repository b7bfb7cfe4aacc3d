#!/usr/bin/env bash
# The human-games analysis with the nine Maia nets (move-matching only, one evaluator thread) on
# a seeded sample of SAMPLE positions per band 1100-1999 of the 2018 Lichess file: prints the
# command's CPU milliseconds (`perf stat -e task-clock`, CPU time, far less disturbed by other
# load than wall time). Two sample sizes give the cost of the positions alone (the difference)
# without reading the file and loading the nets; HUMAN_DIR (default ../shared/human beside the
# repository) holds the games; two binaries, timed alternately, give before
# and after (docs/policy.md).
#
#   scripts/bench/analyse-human.sh SKILLCAL OUT_DIR [SAMPLE]    (SAMPLE default 1000)
set -euo pipefail
bin=${1:?usage: scripts/bench/analyse-human.sh SKILLCAL OUT_DIR [SAMPLE]}
out=${2:?usage: scripts/bench/analyse-human.sh SKILLCAL OUT_DIR [SAMPLE]}
sample=${3:-1000}
repo=$(cd "$(dirname "$0")/../.." && pwd)
human=${HUMAN_DIR:-$repo/../shared/human}/lichess_2018-06_hlias_28k.pgn.zst
[ -f "$human" ] || { echo "analyse-human.sh: no $human (set HUMAN_DIR)" >&2; exit 1; }
command -v perf >/dev/null || { echo "analyse-human.sh: needs perf (linux-perf)" >&2; exit 1; }
rm -rf "$out"
nets=()
for n in 1100 1200 1300 1400 1500 1600 1700 1800 1900; do
    nets+=(--match-engine "builtin:Style=maia,MaiaNet=$n")
done
perf stat -e task-clock -x, "$bin" analyse --human "$human" --matching-only --out "$out" \
    --bands 1100-1999 --sample-positions "$sample" --sample-seed 1 --concurrency 1 --quiet \
    "${nets[@]}" 2>&1 >/dev/null | awk -F, '/task-clock/ {print $1}'
