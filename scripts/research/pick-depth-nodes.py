#!/usr/bin/env python3
"""Nodes Stockfish 15.1 needs, with Skill Level L, to finish depth 1 + L (where Skill picks its
move): one thread, 16 MB hash, the 16 positions after the start position of skillcal's bench
list (src/engine/bench.rs). Sets the pool's node limits (configs/pool.toml).

    scripts/research/pick-depth-nodes.py [LEVEL...]      # default: 8 9 10 11 12
"""
import re
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "src/engine/bench.rs"
FENS = [l.split('"')[1] for l in BENCH.read_text().splitlines()
        if l.strip().startswith('"') and "/" in l][1:17]
ENGINE = "/usr/games/stockfish"


def nodes_to_depth(level, depth, fen):
    p = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write("uci\nsetoption name Threads value 1\nsetoption name Hash value 16\n"
                  f"setoption name Skill Level value {level}\nisready\n"
                  f"position fen {fen}\ngo depth {depth}\n")
    p.stdin.flush()
    nodes = None
    for line in p.stdout:
        m = re.search(r" depth (\d+) .* nodes (\d+)", line)
        if m and int(m.group(1)) == depth:
            nodes = int(m.group(2))
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return nodes


for level in [int(a) for a in sys.argv[1:]] or [8, 9, 10, 11, 12]:
    ns = sorted(n for n in (nodes_to_depth(level, level + 1, f) for f in FENS) if n)
    print(f"Skill {level}: depth {level + 1} in median {statistics.median(ns):.0f} nodes, "
          f"p90 {ns[int(len(ns) * 0.9)]}, max {max(ns)} ({len(ns)} positions)", flush=True)
