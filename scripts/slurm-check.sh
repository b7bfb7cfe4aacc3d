#!/usr/bin/env bash
# A real single-node Slurm (Debian's slurm-wlm with munge) and a throwaway PostgreSQL on this
# machine: configs/smoke.toml calibrated through the store by a job array of 4 workers must give
# the file path's games and table. Installs what is missing (root or sudo), starts munged, slurmctld and
# slurmd with their files in a temporary folder, and stops what it started.
#   scripts/slurm-check.sh [CONFIG]   (default configs/smoke.toml)
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-configs/smoke.toml}
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
missing=()
command -v slurmctld >/dev/null 2>&1 || missing+=(slurm-wlm)
command -v munged >/dev/null 2>&1 || [ -x /usr/sbin/munged ] || missing+=(munge)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
scripts/install-engines.sh
export PATH="$PATH:/usr/games"
cargo build --release --quiet
bin=$PWD/target/release/skillcal

work=$(mktemp -d /tmp/skillcal-slurm.XXXXXX)
chmod 755 "$work"
started_munge=""
cleanup() {
  set +e
  for d in slurmd slurmctld; do
    if [ -f "$work/slurm/$d.pid" ]; then $SUDO kill "$(cat "$work/slurm/$d.pid")"; fi
  done
  if [ -n "$started_munge" ] && [ -f /run/munge/munged.pid ]; then
    $SUDO kill "$(cat /run/munge/munged.pid)"
  fi
  scripts/pg-temp.sh destroy "$work/pg" >/dev/null 2>&1
  sleep 1
  $SUDO rm -rf "$work"
}
trap cleanup EXIT

# munge: a key, its run folder, the daemon as the munge user (one already running is used)
if ! pgrep -x munged >/dev/null; then
  [ -f /etc/munge/munge.key ] || $SUDO runuser -u munge -- mungekey -c -k /etc/munge/munge.key
  $SUDO mkdir -p /run/munge && $SUDO chown munge:munge /run/munge
  $SUDO runuser -u munge -- /usr/sbin/munged
  started_munge=1
fi

# Slurm: this host as controller and node, its files in $work/slurm, ports no system Slurm uses
host=$(hostname -s)
mkdir -p "$work/slurm/state" "$work/slurm/spool" "$work/slurm/log"
$SUDO chown -R slurm "$work/slurm"
cat >"$work/slurm.conf" <<CONF
ClusterName=skillcal-check
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/log/slurmctld.log
SlurmdLogFile=$work/slurm/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
$SUDO env SLURM_CONF="$SLURM_CONF" slurmctld -f "$SLURM_CONF"
$SUDO env SLURM_CONF="$SLURM_CONF" slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o "%P %t %c" | grep -q idle || {
  echo "slurm-check: the node never became idle" >&2
  cat "$work/slurm/log/"*.log >&2
  exit 1
}

# the store
url=$(scripts/pg-temp.sh start "$work/pg")
"$bin" store init --store "$url"

# the file path, then the store path: 4 workers from a job array, the coordinator here
"$bin" calibrate "$config" --out "$work/file" >"$work/file.log" 2>&1 ||
  { cat "$work/file.log" >&2; exit 1; }
SKILLCAL_STORE=$url SKILLCAL=$bin SKILLCAL_IDLE_EXIT=30 \
  sbatch --wait --parsable --array=0-3 --cpus-per-task=1 --output="$work/worker-%a.log" \
  deploy/slurm/skillcal-worker.sbatch >"$work/sbatch.out" 2>&1 &
array=$!
"$bin" calibrate "$config" --out "$work/store" --store "$url" >"$work/store.log" 2>&1 ||
  { cat "$work/store.log" "$work"/worker-*.log >&2; exit 1; }
wait "$array" || { echo "slurm-check: the job array failed" >&2; cat "$work/sbatch.out" "$work"/worker-*.log >&2; exit 1; }
played=$(grep -h "games played" "$work"/worker-*.log | awk '{s += $5} END {print s + 0}')
echo "slurm-check: 4 array tasks, $played games played by the workers" >&2
grep -h "games played" "$work"/worker-*.log >&2
[ "$played" -gt 0 ] || { echo "slurm-check: FAIL: no worker played a game" >&2; exit 1; }
# configs/smoke.toml replays exactly (deterministic players, a plan ranked per game): both runs
# must hold the same matches, the same games in each (games.csv but its seconds column) and the
# same table, byte for byte.
games() { tail -n +2 "$1/games.csv" | cut -d, -f1-12,14- | sort -t, -k1,1n; }
(cd "$work/file/matches" && ls) >"$work/file.matches"
(cd "$work/store/matches" && ls) >"$work/store.matches"
if ! diff "$work/file.matches" "$work/store.matches" >&2; then
  echo "slurm-check: FAIL: the store's run played other matches than the file path's" >&2
  exit 1
fi
total=0
while read -r name; do
  if ! diff <(games "$work/file/matches/$name") <(games "$work/store/matches/$name") >/dev/null; then
    echo "slurm-check: FAIL: matches/$name holds other games through the store" >&2
    diff <(games "$work/file/matches/$name") <(games "$work/store/matches/$name") | head -n 10 >&2
    exit 1
  fi
  total=$((total + $(games "$work/file/matches/$name" | wc -l)))
done <"$work/file.matches"
[ "$total" -gt 0 ] || { echo "slurm-check: FAIL: no games" >&2; exit 1; }
if ! cmp -s "$work/file/uci_elo_table.csv" "$work/store/uci_elo_table.csv"; then
  echo "slurm-check: FAIL: the tables differ" >&2
  diff "$work/file/uci_elo_table.csv" "$work/store/uci_elo_table.csv" >&2 || true
  exit 1
fi
echo "slurm-check: ok: $(wc -l <"$work/file.matches") matches, $total games the same both ways, the same table:" >&2
grep -v '^#' "$work/store/uci_elo_table.csv" >&2
