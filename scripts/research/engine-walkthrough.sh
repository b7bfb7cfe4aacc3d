#!/usr/bin/env bash
# The "calibrate your engine" guide (docs/guide/calibrate-your-engine.md) run as a new user
# would on an engine no one here wrote: `skillcal init` in an empty folder, `skillcal calibrate`,
# `skillcal report`, then `skillcal verify` of the table, each step's wall time appended to the
# folder's walkthrough.log. The folder is results/engines/NAME; the PGNs stay out of git.
# Resumable: rerun the same command and each step goes on where it stopped (init is skipped once
# its config exists). One game at a time unless CONCURRENCY says more (init writes 1: the
# machine was shared when the walk-throughs began).
#   SKILLCAL=/tmp/skillcal scripts/research/engine-walkthrough.sh toga2 toga2
#   SKILLCAL=/tmp/skillcal BUDGET=200 VERIFY=0 scripts/research/engine-walkthrough.sh \
#       "gnuchess --uci" gnuchess
# ENGINE is the command line given to `init --engine`; BUDGET caps the calibration's games (a
# smoke run); VERIFY=0 skips the verification; LEVELS and GAMES choose the verification's levels
# (default: the table's, every other row) and its games per opponent; CONCURRENCY plays that many
# games at once in calibrate and verify (`--concurrency`; the config keeps init's 1).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
engine=$1
name=$2
bin=${SKILLCAL:-skillcal}
dir=$repo/results/engines/$name
mkdir -p "$dir"
cd "$dir"
log=walkthrough.log
stamp() { date -u +%Y-%m-%dT%H:%M:%SZ; }
now() { date +%s; }
step() {
  local t0
  t0=$(now)
  echo "$(stamp) start: skillcal $*" >>"$log"
  "$bin" "$@"
  echo "$(stamp) done: skillcal $*: $(($(now) - t0)) s this sitting (load average $(cut -d' ' -f1-3 /proc/loadavg))" >>"$log"
}
export PATH="$PATH:/usr/games"
if [ ! -f calibration.toml ]; then
  step init --engine "$engine" --concurrency 1
fi
step calibrate calibration.toml --out run ${BUDGET:+--budget "$BUDGET"} \
  ${CONCURRENCY:+--concurrency "$CONCURRENCY"}
step report run
if [ "${VERIFY:-1}" != 0 ]; then
  step verify run/uci_elo_table.csv --config calibration.toml --out verify \
    ${LEVELS:+--levels "$LEVELS"} ${GAMES:+--games "$GAMES"} \
    ${CONCURRENCY:+--concurrency "$CONCURRENCY"}
fi
