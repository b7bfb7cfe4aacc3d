#!/usr/bin/env bash
# The pool's ratings beside Ordo's, on the same games: a check of `skillcal rate` (and of the
# pool fit, which `rate` reproduces) against the rating tool engine testers know.
#   scripts/bench/ordo-side-by-side.sh ORDO [POOL_DIR]
# ORDO: an Ordo binary (github.com/michiguel/Ordo, `make` in its folder: plain C, no
# dependency). POOL_DIR: a pool folder (default results/pool); its retired members' games are
# left out, as the pool fit leaves them out. Three fits, each by both tools, logistic scale
# (Ordo's `-z 200.24`: 76% = +200.24, skillcal's scale; Ordo's default 202 is 0.9% wider), no
# white advantage (both tools' default):
#   hard    Stockfish Skill 0 held at its anchor value, the rest from the games alone;
#   soft    every anchored member a loose anchor (Gaussian prior, the pool's SD), Ordo at its
#           default draw model (50% draws between equals);
#   soft-D  the same with Ordo's draw rate fitted to the games (`-D`).
set -euo pipefail
cd "$(dirname "$0")/../.."
ORDO="${1:?usage: scripts/bench/ordo-side-by-side.sh ORDO [POOL_DIR]}"
POOL="${2:-results/pool}"
[ -x "$ORDO" ] || { echo "$ORDO: not an executable Ordo binary" >&2; exit 1; }
for f in games.csv pool.csv pool.toml; do
  [ -f "$POOL/$f" ] || { echo "$POOL/$f: missing (not a pool folder?)" >&2; exit 1; }
done
BIN="${SKILLCAL_BIN:-$PWD/target/release/skillcal}"
[ -x "$BIN" ] || { echo "no $BIN: cargo build --release first" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ordo-side.XXXXXX")
trap 'rm -rf "$work"' EXIT
# the games (retired members' left out) as CSV for skillcal and tag-only PGN for Ordo, the
# anchors as Ordo's loose-anchor file and as skillcal's --anchor flags
python3 - "$POOL" "$work" <<'PY'
import csv, sys, tomllib
pool, work = sys.argv[1:]
retired = set(tomllib.load(open(f"{pool}/pool.toml", "rb")).get("pool", {}).get("retired", []))
games = 0
with open(f"{work}/games.csv", "w", newline="") as c, open(f"{work}/games.pgn", "w") as p:
    w = csv.writer(c)
    w.writerow(["white", "black", "result"])
    for r in csv.DictReader(open(f"{pool}/games.csv")):
        if r["white"] in retired or r["black"] in retired:
            continue
        w.writerow([r["white"], r["black"], r["result"]])
        p.write(f'[White "{r["white"]}"]\n[Black "{r["black"]}"]\n[Result "{r["result"]}"]\n\n{r["result"]}\n\n')
        games += 1
anchors = [r for r in csv.DictReader(open(f"{pool}/pool.csv")) if r["anchor_elo"]]
with open(f"{work}/loose.csv", "w") as f:
    for r in anchors:
        f.write(f'"{r["name"]}",{r["anchor_elo"]},{r["anchor_sd"]}\n')
open(f"{work}/soft.args", "w").write(
    " ".join(f'--anchor={r["name"]}={r["anchor_elo"]}:{r["anchor_sd"]}' for r in anchors))
low = min(anchors, key=lambda r: float(r["anchor_elo"]))
open(f"{work}/hard.name", "w").write(low["name"])
open(f"{work}/hard.elo", "w").write(low["anchor_elo"])
print(f"{games} games of {pool} (retired members' left out: {', '.join(sorted(retired)) or 'none'})")
PY
hard=$(cat "$work/hard.name")
hard_elo=$(cat "$work/hard.elo")
rate() { "$BIN" rate "$work/games.csv" --bootstrap 0 --white-advantage off --csv "$work/$1.rate.csv" "${@:2}" >/dev/null; }
ordo() { "$ORDO" -q -p "$work/games.pgn" -z 200.24 -c "$work/$1.ordo.csv" -o "$work/$1.ordo.txt" "${@:2}" >/dev/null; }
rate hard --anchor "$hard=$hard_elo"
ordo hard -A "$hard" -a "$hard_elo"
# shellcheck disable=SC2046
rate soft $(cat "$work/soft.args")
cp "$work/soft.rate.csv" "$work/soft-D.rate.csv"
ordo soft -y "$work/loose.csv"
ordo soft-D -y "$work/loose.csv" -D
echo "hard: $hard = $hard_elo; soft: $(wc -l < "$work/loose.csv") loose anchors from $POOL/pool.csv"
grep -h "Draw rate" "$work/soft-D.ordo.txt" | sed 's/^/Ordo -D: /'
python3 - "$work" <<'PY'
import csv, sys
work = sys.argv[1]
def ours(fit):
    return {r["name"]: float(r["elo"]) for r in csv.DictReader(open(f"{work}/{fit}.rate.csv"))}
def ordo(fit):
    out = {}
    for r in csv.reader(open(f"{work}/{fit}.ordo.csv")):
        try:
            out[r[1].strip('" ')] = float(r[2])
        except (IndexError, ValueError):
            pass  # the header
    return out
fits = ["hard", "soft", "soft-D"]
a = {f: ours(f) for f in fits}
b = {f: ordo(f) for f in fits}
names = sorted(a["hard"], key=a["hard"].get)
print(f"{'player':24}" + "".join(f"{f + ' skillcal':>16}{'Ordo':>9}{'diff':>7}" for f in fits))
for n in names:
    print(f"{n:24}" + "".join(f"{a[f][n]:16.1f}{b[f][n]:9.1f}{a[f][n] - b[f][n]:+7.1f}" for f in fits))
print(f"{'largest |diff|':24}" + "".join(
    f"{max(abs(a[f][n] - b[f][n]) for n in names):32.1f}" for f in fits))
PY
