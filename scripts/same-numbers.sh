#!/usr/bin/env bash
# Same numbers: what two builds write from the same games. Copies every calibration run that has
# its config in configs/ (paired by the config's `name` and `seed`), the measured pool and the configs into a
# scratch folder per build, refits each run there (`calibrate --fit-only`: no game; it writes the
# report too), writes the pool's report, rates results/pool/games.csv, then diffs the two folders:
# tables, fit_curve.csv, summaries, report.md and every other file written.
#   scripts/same-numbers.sh BASE [HEAD]
# BASE, HEAD: a skillcal binary, or a commit (built once into target/same-numbers/<commit>).
# HEAD defaults to target/release/skillcal. The games, configs and pool are taken from the commit
# INPUTS (default HEAD), the same for both builds. Exit status 1 when anything differs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

binary() { # a binary path, or a commit built once
  if [ -x "$1" ] && [ -f "$1" ]; then
    echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
    return
  fi
  local sha
  sha=$(git rev-parse --verify "$1^{commit}") || { echo "$1: neither a binary nor a commit" >&2; exit 2; }
  local out="$root/target/same-numbers/$sha"
  if [ ! -x "$out/release/skillcal" ]; then
    local src="$root/target/same-numbers/src-$sha"
    [ -d "$src" ] || git worktree add --detach "$src" "$sha" >&2
    (cd "$src" && CARGO_TARGET_DIR="$out" cargo build --release --bin skillcal >&2)
  fi
  echo "$out/release/skillcal"
}

BASE=$(binary "$1")
HEAD=$(binary "${2:-target/release/skillcal}")

work=$(mktemp -d "${TMPDIR:-/tmp}/same-numbers.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
mkdir -p "$work/inputs"
git archive "${INPUTS:-HEAD}" configs results | tar -x -C "$work/inputs" --exclude='*.pgn'
cd "$work/inputs"

# (run folder, config) pairs: a run's calibrate.toml and a config share their `name` and `seed`
pairs=()
for run in results/*/calibrate.toml results/*/*/calibrate.toml; do
  [ -f "$run" ] || continue
  name=$(grep -m1 '^name = ' "$run" || true)
  seed=$(grep -m1 '^seed = ' "$run" || true)
  [ -n "$name" ] || continue
  cfg=$(grep -lx -F "$name" configs/*.toml configs/families/*.toml 2>/dev/null |
    xargs -r grep -lx -F "$seed" | head -1 || true)
  if [ -n "$cfg" ]; then
    pairs+=("$(dirname "$run") $cfg")
  else
    echo "skipped $(dirname "$run"): no config in configs/ with its ${name} and ${seed}"
  fi
done

refit() { # BIN DIR: the copies refitted and reported by BIN in DIR
  local bin=$1 dir=$2
  mkdir -p "$dir/results/pool"
  cp -r configs "$dir/"
  (cd results/pool && tar cf - --exclude='*.pgn' --exclude=report.md --exclude='.skillcal.lock' .) |
    (cd "$dir/results/pool" && tar xf -)
  for p in "${pairs[@]}"; do
    set -- $p
    mkdir -p "$dir/$1"
    (cd "$1" && tar cf - --exclude='*.pgn' --exclude='verify*' --exclude=tc-check \
      --exclude='.skillcal.lock' .) | (cd "$dir/$1" && tar xf -)
    (cd "$dir" && "$bin" calibrate "$2" --out "$1" --fit-only >"$dir/$1.log" 2>&1) ||
      echo "$1: calibrate --fit-only failed (see the diff of $1.log)"
  done
  (cd "$dir" && "$bin" report results/pool >"$dir/results/pool.report.log" 2>&1) ||
    echo "results/pool: report failed"
  (cd "$dir" && "$bin" rate results/pool/games.csv >"$dir/rate-pool.txt" 2>&1) ||
    echo "rate results/pool/games.csv failed"
  find "$dir" -name .skillcal.lock -delete
}

echo "base: $BASE"
echo "head: $HEAD"
refit "$BASE" "$work/base"
refit "$HEAD" "$work/head"
status=0
for p in "${pairs[@]}" "results/pool -" "rate-pool.txt -"; do
  set -- $p
  if diff -rq "$work/base/$1" "$work/head/$1" >/dev/null 2>&1; then
    echo "same: $1"
  else
    status=1
    echo "DIFFERS: $1"
    # to files first: a pipe into head would end diff by SIGPIPE, and pipefail the script
    diff -rq "$work/base/$1" "$work/head/$1" >"$work/files.txt" 2>&1 || true
    sed -e "s|$work/||g" -e 's/^/    /' "$work/files.txt"
    diff -r "$work/base/$1" "$work/head/$1" >"$work/diff.txt" 2>&1 || true
    head -n 40 "$work/diff.txt" | cut -c1-200 | sed 's/^/    /'
  fi
done
exit $status
