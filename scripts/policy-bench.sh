#!/usr/bin/env bash
# The policy room's speed beside lc0's BLAS backend, in the same sitting, one thread: CPU time a
# position at batch BATCH, each side measured three times alternately, the best of each kept,
# and the ratio (skillcal's time over lc0's; the target is at most 1.0).
#
#   scripts/policy-bench.sh [LC0] [BAND] [BATCH]    (defaults: target/lc0/build/lc0, 1100, 1)
#
# The time is the process's task-clock (`perf stat -e task-clock`: CPU time while it runs, far
# less disturbed by other load than wall time; this machine's VM has no cycle counters) of a long
# run minus that of a short one, over the evaluations between them, so loading the net and
# starting up cancel. lc0 comes from scripts/build-lc0.sh; its backendbench evaluates the start
# position again and again (encoding and network); skillcal policy-bench the positions of a
# game with their history (encoding, network and the policy over the legal moves).
set -euo pipefail
cd "$(dirname "$0")/.."
lc0=${1:-target/lc0/build/lc0}
band=${2:-1100}
batch=${3:-1}
net=nets/maia/maia-$band.pb.gz
export OPENBLAS_NUM_THREADS=1
command -v perf >/dev/null || { echo "policy-bench.sh: needs perf (linux-perf)" >&2; exit 1; }
cargo build --release --quiet
short=$((batch * (500 / batch + 1)))
long=$((short * 5))
# CPU milliseconds of a command
cpu() { perf stat -e task-clock -x, "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ {print $1}'; }
ours() { cpu target/release/skillcal policy-bench --net "$band" --batch "$batch" --evaluations "$1"; }
theirs() {
    cpu "$lc0" backendbench --backend=blas --weights="$net" --threads=1 --batches=$(($1 / batch)) \
        --start-batch-size="$batch" --max-batch-size="$batch" --nncache=0
}
per() { awk -v a="$1" -v b="$2" -v n=$((long - short)) 'BEGIN {printf "%.4f", (b - a) / n}'; }
best_ours=1e9
best_lc0=1e9
for round in 1 2 3; do
    o=$(per "$(ours $short)" "$(ours $long)")
    l=$(per "$(theirs $short)" "$(theirs $long)")
    echo "round $round: skillcal $o, lc0 $l CPU ms a position"
    best_ours=$(awk -v a="$o" -v b="$best_ours" 'BEGIN {print (a < b ? a : b)}')
    best_lc0=$(awk -v a="$l" -v b="$best_lc0" 'BEGIN {print (a < b ? a : b)}')
done
awk -v o="$best_ours" -v l="$best_lc0" -v n="$band" -v b="$batch" 'BEGIN {
    printf "maia-%s batch %s, one thread: skillcal %.0f, lc0 (BLAS) %.0f positions a CPU second; time ratio skillcal/lc0 %.2f (target <= 1.0)\n", n, b, 1000 / o, 1000 / l, o / l
}'
