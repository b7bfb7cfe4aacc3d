#!/usr/bin/env python3
"""How many distinct games a level plays: self-play from the start position, one game per
RandomSeed, the same engine process answering both sides, each move on a 3+0 clock that does
not run (the first moves of a blitz game). Prints the number of distinct games and the most
repeated one.

  scripts/research/variety.py target/release/skillcal --elo 1200 --seeds 20 --plies 20 \
      --set UCI_EloScale=lichess-blitz [--set HumanTemperature=0.25]
"""
import argparse
import collections
import subprocess
import sys


class Engine:
    def __init__(self, path, options):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"engine ended before '{word}'")
            line = line.strip()
            lines.append(line)
            if line.split(" ")[0] == word:
                return lines

    def quit(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engine")
    ap.add_argument("--elo", type=int, required=True)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--plies", type=int, default=20)
    ap.add_argument("--set", action="append", default=[], help="NAME=VALUE, a UCI option")
    a = ap.parse_args()
    opts = [("UCI_LimitStrength", "true"), ("UCI_Elo", str(a.elo))]
    opts += [tuple(s.split("=", 1)) for s in a.set]
    e = Engine(a.engine, opts)
    games = []
    for seed in range(a.first_seed, a.first_seed + a.seeds):
        e.send(f"setoption name RandomSeed value {seed}")
        e.send("ucinewgame")
        moves = []
        for _ in range(a.plies):
            e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            e.send("go wtime 180000 btime 180000 winc 0 binc 0")
            best = e.until("bestmove")[-1].split()[1]
            if best == "0000":
                break
            moves.append(best)
        games.append(" ".join(moves))
    e.quit()
    counts = collections.Counter(games)
    line, n = counts.most_common(1)[0]
    print(f"UCI_Elo {a.elo} {' '.join(a.set)}: {len(counts)} distinct games of {len(games)}; "
          f"most repeated ({n}x): {line}")


if __name__ == "__main__":
    main()
