#!/bin/sh
# Checks `skillcal perft` against published counts with the release binary.
# Usage: scripts/bench/perft-check.sh   (exit status 1 on a mismatch)
set -e
cd "$(dirname "$0")/../.."
cargo build --release --quiet
bin=target/release/skillcal
fail=0
check() {
  got=$($bin perft "$2" --fen "$1" 2>/dev/null | tail -n 1 | awk '{print $NF}')
  if [ "$got" = "$3" ]; then echo "ok   perft $2 = $3  $1"; else echo "FAIL perft $2 = $got, expected $3  $1"; fail=1; fi
}
check "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 6 119060324
check "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 5 193690690
check "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1" 6 11030083
check "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1" 5 15833292
check "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8" 4 2103487
check "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10" 4 3894594
exit $fail
