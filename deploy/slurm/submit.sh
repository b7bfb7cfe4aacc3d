#!/usr/bin/env bash
# The commands of a calibration on a Slurm cluster through the PostgreSQL store; run them from
# a login node that reaches the database. WORKERS array tasks of CPUS cores each.
#
#   deploy/slurm/submit.sh WORKERS CPUS -- skillcal calibrate configs/default.toml
#   deploy/slurm/submit.sh 16 2 -- skillcal match --engine builtin --engine stockfish ... --out results/m
#
# SKILLCAL_STORE must name the store (postgres://USER:PASSWORD@HOST:PORT/DB); SKILLCAL the
# skillcal binary the nodes run (default: skillcal on their PATH).
set -euo pipefail
workers=${1:?usage: submit.sh WORKERS CPUS -- COMMAND...}
cpus=${2:?usage: submit.sh WORKERS CPUS -- COMMAND...}
shift 2
[ "${1:-}" = "--" ] && shift
: "${SKILLCAL_STORE:?set SKILLCAL_STORE to the URL of the store}"
export SKILLCAL_STORE
here=$(cd "$(dirname "$0")" && pwd)
"${SKILLCAL:-skillcal}" store init
# the workers wait for work; they exit SKILLCAL_IDLE_EXIT seconds after the last unit
sbatch --parsable --array=0-$((workers - 1)) --cpus-per-task="$cpus" "$here/skillcal-worker.sbatch"
# the coordinator: enqueues, shows progress (games done, workers running, ETA), fits, writes
"$@"
