#!/usr/bin/env bash
# The "calibrate your engine" walk-through, run as a new user would, on Fairy-Stockfish's
# Skill Level (docs/guide/calibrate-your-engine.md): a fresh clone of this repository's HEAD,
# `cargo install` into a temporary root, `skillcal init` from an empty folder elsewhere,
# `skillcal calibrate`, `skillcal report`; the run folder (PGNs aside) and the wall times are
# then copied to results/fairy-skill/. Resumable: rerun the same command and the calibration
# resumes in WORK/fairy/fairy-run (WORK defaults to /tmp/skillcal-walkthrough). Run it on a
# quiet machine so the wall time means something.
#   scripts/research/fairy-walkthrough.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-/tmp/skillcal-walkthrough}
dest=$repo/results/fairy-skill
mkdir -p "$work" "$dest"
log=$dest/walkthrough.log
stamp() { date -u +%Y-%m-%dT%H:%M:%SZ; }
now() { date +%s; }
command -v fairy-stockfish >/dev/null || [ -x /usr/games/fairy-stockfish ] || "$repo/scripts/install-engines.sh"
export PATH="$PATH:/usr/games"
if [ ! -x "$work/root/bin/skillcal" ]; then
  rm -rf "$work/clone"
  git clone -q "$repo" "$work/clone"
  echo "$(stamp) clone $(git -C "$work/clone" rev-parse --short HEAD)" | tee -a "$log"
  t0=$(now)
  cargo install --quiet --path "$work/clone" --root "$work/root"
  echo "$(stamp) cargo install --path . --root $work/root: $(( $(now) - t0 )) s" | tee -a "$log"
fi
bin=$work/root/bin/skillcal
mkdir -p "$work/fairy"
cd "$work/fairy"
if [ ! -f fairy.toml ]; then
  "$bin" init --engine fairy-stockfish --out fairy.toml | tee -a "$log"
fi
t0=$(now)
"$bin" calibrate fairy.toml --out fairy-run 2>&1 | tee "$work/calibrate.log" | tail -n 5
echo "$(stamp) skillcal calibrate fairy.toml --out fairy-run: $(( $(now) - t0 )) s this sitting (load average $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$log"
"$bin" report fairy-run | tee -a "$log"
cp fairy.toml "$dest/"
rm -rf "$dest/fairy-run"
cp -r fairy-run "$dest/fairy-run"
find "$dest/fairy-run" -name '*.pgn' -delete
echo "$(stamp) copied to results/fairy-skill (PGNs left out)" | tee -a "$log"
