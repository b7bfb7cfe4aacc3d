#!/usr/bin/env python3
"""Plays python-chess games against `skillcal` with Style=maia and checks every move it answers
is legal; prints the time of each `go nodes 1` (from sending it to `bestmove`), their median and
maximum. python-chess is the opponent's move generator and the judge: it plays random legal
moves (seeded), so the games reach positions no book has.

    pip install chess
    cargo build --release
    python3 scripts/research/maia-game.py [--engine target/release/skillcal] [--net 1100] [--games 2]
"""
import argparse
import random
import statistics
import sys
import time

import chess
import chess.engine


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/skillcal")
    ap.add_argument("--net", default="1100")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit-ms", type=float, default=50.0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    times = []
    with chess.engine.SimpleEngine.popen_uci(args.engine) as eng:
        eng.configure({"Style": "maia", "MaiaNet": args.net})
        for g in range(args.games):
            board = chess.Board()
            maia_white = g % 2 == 0
            while not board.is_game_over(claim_draw=True) and board.ply() < 300:
                if (board.turn == chess.WHITE) == maia_white:
                    t0 = time.perf_counter()
                    res = eng.play(board, chess.engine.Limit(nodes=1))
                    times.append((time.perf_counter() - t0) * 1000)
                    if res.move is None or res.move not in board.legal_moves:
                        print(f"game {g + 1}: illegal move {res.move} in {board.fen()}")
                        return 1
                    board.push(res.move)
                else:
                    board.push(rng.choice(list(board.legal_moves)))
            print(f"game {g + 1}: {board.ply()} plies, {board.result(claim_draw=True)}, all legal")
    med, worst = statistics.median(times), max(times)
    print(f"go nodes 1: {len(times)} answers, median {med:.1f} ms, max {worst:.1f} ms")
    if med > args.limit_ms:
        print(f"median above {args.limit_ms} ms")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
