#!/usr/bin/env bash
# What a refit on the pool as it stands would give, without touching the run or the pool while
# they play: copies the measured pool's files, the run (its games; no PGN, no verification) and
# its config into a scratch folder, refits there (`calibrate --fit-only`, no game) and prints
# each table row's interval.
#   scripts/research/refit-copy.sh [RUN [CONFIG [COV_SCALE]]]
# Defaults: results/range and configs/families/blend.toml. COV_SCALE multiplies the pool's
# covariance before the refit (1 = as measured): how much of a row's width is the pool's, e.g.
# 0.0001 leaves the curve's own part. The config must name its pool as `file = "../../results/pool"`
# (every configs/families/*.toml does).
set -euo pipefail
cd "$(dirname "$0")/../.."
RUN="${1:-results/range}"
CONFIG="${2:-configs/families/blend.toml}"
SCALE="${3:-1}"
BIN="${SKILLCAL_BIN:-$PWD/target/release/skillcal}"
[ -x "$BIN" ] || { echo "no $BIN: cargo build --release first" >&2; exit 1; }
[ -f "$CONFIG" ] || { echo "$CONFIG: no such config file" >&2; exit 1; }
[ -f "$RUN/calibrate.toml" ] || { echo "$RUN: no calibration run (no calibrate.toml)" >&2; exit 1; }
grep -q '^file = "../../results/pool"' "$CONFIG" ||
  { echo "$CONFIG: its [pool] file is not ../../results/pool" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/refit-copy.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/configs/families" "$work/configs/books" "$work/results/pool" "$work/run"
cp "$CONFIG" "$work/configs/families/"
cp configs/books/* "$work/configs/books/"
cp results/pool/{pool.toml,pool.csv,pool-pairs.csv,pool-covariance.csv} "$work/results/pool/"
(cd "$RUN" && tar cf - --exclude=verify --exclude='verify-*' --exclude='*.pgn' --exclude=analysis .) |
  (cd "$work/run" && tar xf -)
python3 - "$work/results/pool/pool-covariance.csv" "$SCALE" <<'EOF'
import csv, sys
path, s = sys.argv[1], float(sys.argv[2])
rows = list(csv.reader(open(path)))
out = [rows[0]] + [[r[0]] + [repr(float(x) * s) for x in r[1:]] for r in rows[1:]]
csv.writer(open(path, "w"), lineterminator="\n").writerows(out)
EOF
games=$(($(wc -l < results/pool/games.csv) - 1))
if ! "$BIN" calibrate "$work/configs/families/$(basename "$CONFIG")" --out "$work/run" --fit-only \
  >"$work/refit.log" 2>&1; then
  cat "$work/refit.log" >&2
  exit 1
fi
echo "refit of $RUN on results/pool ($games games in its games.csv, retired members' included), pool covariance x $SCALE:"
python3 - "$work/run" <<'EOF'
import csv, sys
d = sys.argv[1]
table = {round(float(r["elo"])): r for r in csv.DictReader(
    (l for l in open(f"{d}/uci_elo_table.csv") if not l.startswith("#")))}
knobs = [k for k in next(iter(table.values())) if k != "elo" and not k.endswith(("_lower", "_upper"))]
print("target  half-width  " + "  ".join(knobs) + "  flags")
for r in csv.DictReader(open(f"{d}/table_details.csv")):
    t = round(float(r["target"]))
    flags = " ".join(f for f in ("extrapolated" if r["extrapolated"] == "true" else "",
                                 "" if r["range"] == "ok" else f"beyond-{r['range']}") if f)
    row = table.get(t, {})
    print(f"{t:6d}  {float(r['half_width']):10.1f}  " + "  ".join(row.get(k, "") for k in knobs) + f"  {flags}")
EOF
