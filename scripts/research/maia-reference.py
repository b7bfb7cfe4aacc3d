#!/usr/bin/env python3
"""Reference outputs of lc0 for the policy room's fixture (tests/data/maia-fixture/).

Samples positions from human games (PGN, .pgn.zst read through `zstd -dc`) at various plies,
each with its game's moves as history, and asks lc0 (BLAS backend, one thread,
PolicyTemperature 1, VerboseMoveStats, `go nodes 1`) for each legal move's policy and the
root's value, for each net. Writes positions.csv (id, moves from the start position) and one
maia-<band>.csv per net (id, W, D, L, then `move:probability` pairs), gzipped.

lc0 as scripts/build-lc0.sh builds it prints more than it does by itself (its printing only is
patched): each move's P to 1e-6 (lc0 still stores it in 16 bits, a relative error up to 2^-12,
after a softmax with its FastExp), and the root's raw network value, q = W - L (V) and D (RawD),
to 1e-6. An unpatched lc0 prints P to 0.01% and passes the root's WL and D through FastLog and
FastLogistic, which moves D by up to a few 1e-3: this script then fails (no RawD).

    pip install chess
    scripts/build-lc0.sh /path/to/lc0-source   # gives target/lc0/build/lc0
    python3 scripts/research/maia-reference.py --lc0 target/lc0/build/lc0 --positions 520
"""
import argparse
import csv
import gzip
import io
import os
import random
import re
import subprocess
import sys

import chess
import chess.pgn

MOVE_LINE = re.compile(r"^info string (\S+)\s+\(\s*\d+\s*\) N:.*\(P:\s*([\d.]+)%\)")
NODE_LINE = re.compile(r"^info string node\s.*\(RawD:\s*([\d.]+)\) \(V:\s*(-?[\d.]+)\)")


def games(paths, rng, want):
    """Up to `want` games' main lines (lists of moves), read in file order, each kept at
    random (so that both files contribute)."""
    out = []
    for path in paths:
        text = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
        stream = io.StringIO(text.decode("utf-8", "replace"))
        kept = 0
        while kept < want // len(paths):
            game = chess.pgn.read_game(stream)
            if game is None:
                break
            moves = list(game.mainline_moves())
            if len(moves) >= 2 and rng.random() < 0.2:
                out.append(moves)
                kept += 1
    return out


def sample_positions(paths, count, seed):
    rng = random.Random(seed)
    chosen = []
    for moves in games(paths, rng, count):
        ply = rng.randrange(0, min(len(moves), 160))
        board = chess.Board()
        for m in moves[:ply]:
            board.push(m)
        if board.is_game_over():
            continue
        chosen.append([m.uci() for m in moves[:ply]])
    return chosen[:count]


class Lc0:
    def __init__(self, exe, net):
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
        self.p = subprocess.Popen(
            [exe, f"--weights={net}", "--backend=blas", "--threads=1"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, env=env)
        self.send("uci")
        self.until("uciok")
        for opt in ("PolicyTemperature value 1.0", "VerboseMoveStats value true",
                    "SmartPruningFactor value 0"):
            self.send(f"setoption name {opt}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"lc0 ended before {prefix}: {lines[-5:]}")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def evaluate(self, moves):
        self.send("ucinewgame")
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("go nodes 1")
        policy, wdl = {}, None
        for line in self.until("bestmove"):
            m = MOVE_LINE.match(line)
            if m and m.group(1) != "node":
                policy[m.group(1)] = float(m.group(2)) / 100
            n = NODE_LINE.match(line)
            if n:
                d, q = float(n.group(1)), float(n.group(2))
                wdl = ((1 + q - d) / 2, d, (1 - q - d) / 2)
        return policy, wdl

    def close(self):
        self.send("quit")
        self.p.wait(timeout=30)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lc0", default="target/lc0/build/lc0")
    ap.add_argument("--nets", default="1100,1500,1900")
    ap.add_argument("--positions", type=int, default=520)
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--human", default="/work/shared/human")
    ap.add_argument("--out", default="tests/data/maia-fixture")
    args = ap.parse_args()
    paths = sorted(os.path.join(args.human, f) for f in os.listdir(args.human)
                   if f.endswith(".pgn.zst"))
    positions = sample_positions(paths, args.positions, args.seed)
    os.makedirs(args.out, exist_ok=True)
    with gzip.open(os.path.join(args.out, "positions.csv.gz"), "wt", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "moves"])
        for i, moves in enumerate(positions):
            w.writerow([i, " ".join(moves)])
    for band in args.nets.split(","):
        net = f"nets/maia/maia-{band}.pb.gz"
        lc0 = Lc0(args.lc0, net)
        with gzip.open(os.path.join(args.out, f"maia-{band}.csv.gz"), "wt", newline="") as f:
            w = csv.writer(f)
            w.writerow(["id", "w", "d", "l", "policy"])
            for i, moves in enumerate(positions):
                policy, wdl = lc0.evaluate(moves)
                board = chess.Board()
                for m in moves:
                    board.push_uci(m)
                legal = {m.uci() for m in board.legal_moves}
                # lc0 may name castling king-takes-rook (e1h1): the fixture keeps UCI's e1g1
                as_uci = {board.uci(m, chess960=True): m.uci() for m in board.legal_moves}
                policy = {as_uci.get(k, k): v for k, v in policy.items()}
                if set(policy) != legal or wdl is None:
                    sys.exit(f"net {band}, position {i}: lc0 gave {sorted(policy)}, legal {sorted(legal)}")
                pairs = " ".join(f"{m}:{p:.6f}" for m, p in sorted(policy.items(), key=lambda x: -x[1]))
                w.writerow([i] + [f"{x:.6f}" for x in wdl] + [pairs])
        lc0.close()
        print(f"maia-{band}: {len(positions)} positions")


if __name__ == "__main__":
    main()
