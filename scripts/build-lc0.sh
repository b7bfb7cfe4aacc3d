#!/usr/bin/env bash
# Builds lc0 (the reference for the policy room's fixture, never a test dependency) from a
# snapshot, offline, with Debian's libraries and the BLAS backend only.
#
#   scripts/build-lc0.sh SOURCE [BUILD_DIR]
#
# SOURCE: an lc0 checkout, or a bare git directory of LeelaChessZero/lc0 (its HEAD is
# exported). BUILD_DIR (default target/lc0) receives the sources and `build/lc0`.
set -euo pipefail
src=${1:?usage: scripts/build-lc0.sh SOURCE [BUILD_DIR]}
dest=${2:-target/lc0}
if ! command -v meson >/dev/null || ! dpkg -s libopenblas-dev libeigen3-dev libabsl-dev >/dev/null 2>&1; then
    apt-get update
    apt-get install -y meson ninja-build libeigen3-dev libopenblas-dev libabsl-dev pkg-config g++
fi
mkdir -p "$dest"
if [ -f "$src/meson.build" ]; then
    cp -a "$src/." "$dest/"
elif git --git-dir="$src" rev-parse HEAD >/dev/null 2>&1; then
    git --git-dir="$src" archive HEAD | tar -x -C "$dest"
else
    echo "build-lc0: $src is neither an lc0 checkout nor a git directory" >&2
    exit 1
fi
cd "$dest"
# The oracle's printing only, not its computation: VerboseMoveStats prints P to 0.01% and the
# node's value as WL / D after a round trip through FastLog and FastLogistic (a WDL "rescale"
# that is applied even at ratio 1), which moves D by up to a few 1e-3. Printed instead: P to
# 1e-6 (% with 4 decimals; lc0 still stores it in 16 bits), the network's raw q (V) to 1e-6 and
# its raw draw probability as (RawD: ...). Applied once; the markers make it idempotent.
search=src/search/classic/search.cc
if ! grep -q RawD "$search"; then
    sed -i \
        -e 's|print(oss, "(P: ", p \* 100, "%) ", 5, p >= 0.99995f ? 1 : 2);|print(oss, "(P: ", p * 100, "%) ", 5, 4);|' \
        -e 's|if (nneval) v = -nneval->q;|if (nneval) { v = -nneval->q; *oss << "(RawD: " << std::setprecision(6) << nneval->d << ") "; }|' \
        -e 's|print(oss, "(V: ", sign \* \*v, ") ", 7, 4);|print(oss, "(V: ", sign * *v, ") ", 7, 6);|' \
        "$search"
    grep -q RawD "$search" || { echo "build-lc0: could not patch $search" >&2; exit 1; }
fi
if [ ! -d build ]; then
    meson setup build --buildtype=release -Dgtest=false -Dnative_cuda=false \
        -Dplain_cuda=false -Dcudnn=false -Dopencl=false -Ddx=false -Donednn=false \
        --wrap-mode=nodownload
fi
ninja -C build
echo "lc0: $(pwd)/build/lc0"
