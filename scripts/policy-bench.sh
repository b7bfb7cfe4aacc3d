#!/usr/bin/env bash
# The policy room's speed beside lc0's BLAS backend, in the same sitting: positions a second at
# batch 1 on one thread, each measured three times alternately (the best of each kept), and the
# ratio of times (skillcal's time per position over lc0's; the issue's target is at most 1.5).
# Run it on a quiet machine.
#
#   scripts/policy-bench.sh [LC0] [BAND]      (defaults: target/lc0/build/lc0, 1100)
#
# lc0 comes from scripts/build-lc0.sh. Its backendbench evaluates the start position again and
# again (encoding and network, no softmax); skillcal policy-bench the positions of a game with
# their history (encoding, network and the policy over the legal moves). Both figures are means
# (lc0's "mean nps" column); on a loaded machine lc0's median says more.
set -euo pipefail
cd "$(dirname "$0")/.."
lc0=${1:-target/lc0/build/lc0}
band=${2:-1100}
net=nets/maia/maia-$band.pb.gz
export OPENBLAS_NUM_THREADS=1
cargo build --release --quiet
ours_best=0
lc0_best=0
for round in 1 2 3; do
    ours=$(target/release/skillcal policy-bench --net "$band" --batch 1 --evaluations 3000 |
        sed -E 's/.*: ([0-9.]+) positions a second.*/\1/')
    theirs=$("$lc0" backendbench --backend=blas --weights="$net" --threads=1 --batches=3000 \
        --start-batch-size=1 --max-batch-size=1 --nncache=0 2>/dev/null | awk -F, '$1 ~ /^ *1$/ {print $2+0}')
    echo "round $round: skillcal $ours, lc0 $theirs positions a second"
    ours_best=$(awk -v a="$ours" -v b="$ours_best" 'BEGIN {print (a > b ? a : b)}')
    lc0_best=$(awk -v a="$theirs" -v b="$lc0_best" 'BEGIN {print (a > b ? a : b)}')
done
awk -v o="$ours_best" -v l="$lc0_best" -v n="$band" 'BEGIN {
    printf "maia-%s batch 1, one thread: skillcal %.1f, lc0 (BLAS) %.1f positions a second; time ratio skillcal/lc0 %.2f (target <= 1.5)\n", n, o, l, l / o
}'
