#!/usr/bin/env bash
# Builds the reference engines from their own sources for this CPU, so that runs configured with
# Debian's generic builds (/usr/games/stockfish: "64bit SSE2") play the same games sooner:
#   scripts/native-engines.sh [OUT_DIR] [STOCKFISH_GIT] [FAIRY_GIT]
# then, as the last line printed says:
#   export SKILLCAL_ENGINE_SUBSTITUTE="/usr/games/stockfish=OUT/stockfish-15.1;/usr/games/fairy-stockfish=OUT/fairy-stockfish-11.1"
# skillcal takes a substitute only when it searches the same nodes as the engine it replaces in
# `bench 16 1 10`, so the games are those of the configured engine; configs and records keep
# /usr/games/... . Stockfish 15.1's net is the one embedded in Debian's binary (`export_net`), so
# nothing is downloaded but the sources (tags sf_15.1 and fairy_sf_11_1; a local clone will do).
# Measured 2026-11-25 (AMD EPYC, beside a running pool, builds alternating; `bench 16 1 12-13`):
# Stockfish x86-64-vnni512 with PGO 1.37x Debian's speed, Fairy-Stockfish x86-64-bmi2 1.23-1.26x.
set -euo pipefail
out=${1:-$HOME/.cache/skillcal/engines}
sf_git=${2:-https://github.com/official-stockfish/Stockfish.git}
fairy_git=${3:-https://github.com/fairy-stockfish/Fairy-Stockfish.git}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
has() { [[ " $flags " == *" $1 "* ]]; }

# $1 git source, $2 tag, $3 folder
source_of() {
  git clone -q --depth 1 --branch "$2" "$1" "$work/$3" 2>/dev/null ||
    { mkdir -p "$work/$3" && git -C "$1" archive "$2" | tar x -C "$work/$3"; }
}

subst=()
if [ -x /usr/games/stockfish ]; then
  if has avx512_vnni && has avx512bw; then arch=x86-64-vnni512
  elif has bmi2; then arch=x86-64-bmi2
  elif has avx2; then arch=x86-64-avx2
  else arch=x86-64-modern; fi
  source_of "$sf_git" sf_15.1 sf
  (cd "$work/sf/src" && echo "export_net $work/sf/src/nn-ad9b42354671.nnue" | /usr/games/stockfish >/dev/null &&
    make -j"$(nproc)" profile-build ARCH=$arch COMP=gcc >"$work/sf.log" 2>&1) ||
    { tail -20 "$work/sf.log" >&2; exit 1; }
  cp "$work/sf/src/stockfish" "$out/stockfish-15.1"
  subst+=("/usr/games/stockfish=$out/stockfish-15.1")
  echo "built $out/stockfish-15.1 ($arch)" >&2
fi
if [ -x /usr/games/fairy-stockfish ]; then
  if has bmi2; then arch=x86-64-bmi2; else arch=x86-64-modern; fi
  source_of "$fairy_git" fairy_sf_11_1 fairy
  # Debian builds 11.1 with large boards ("LB 64"); its node counts need the same
  (cd "$work/fairy/src" && make -j"$(nproc)" profile-build ARCH=$arch COMP=gcc largeboards=yes \
    >"$work/fairy.log" 2>&1) || { tail -20 "$work/fairy.log" >&2; exit 1; }
  cp "$work/fairy/src/stockfish" "$out/fairy-stockfish-11.1"
  subst+=("/usr/games/fairy-stockfish=$out/fairy-stockfish-11.1")
  echo "built $out/fairy-stockfish-11.1 ($arch)" >&2
fi
# the check skillcal makes, here too, so a mismatch shows now
for s in "${subst[@]}"; do
  a=$("${s%%=*}" bench 16 1 10 </dev/null 2>&1 | grep 'Nodes searched')
  b=$("${s#*=}" bench 16 1 10 </dev/null 2>&1 | grep 'Nodes searched')
  [ "$a" = "$b" ] || { echo "${s#*=} does not search as ${s%%=*}: $b against $a" >&2; exit 1; }
done
(IFS=';'; echo "export SKILLCAL_ENGINE_SUBSTITUTE=\"${subst[*]}\"")
