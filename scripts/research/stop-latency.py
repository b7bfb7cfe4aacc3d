#!/usr/bin/env python3
"""How fast `stop` is answered while HumanTime waits a person's think time: N moves of a level
with HumanTime on and HumanTimeScale 1000 (so every wait is long), each stopped after a pause;
prints the time from `stop` to `bestmove` (median and largest, ms).

  scripts/research/stop-latency.py target/release/skillcal [--moves 30] [--elo 1500]
"""
import argparse
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engine")
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--elo", type=int, default=1500)
    ap.add_argument("--pause", type=float, default=0.3, help="seconds from go to stop")
    a = ap.parse_args()
    p = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(word):
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit(f"engine ended before '{word}'")
            if line.split()[0:1] == [word]:
                return line

    send("uci")
    until("uciok")
    for k, v in [("UCI_LimitStrength", "true"), ("UCI_EloScale", "lichess-blitz"),
                 ("UCI_Elo", str(a.elo)), ("HumanTime", "true"), ("HumanTimeScale", "1000"),
                 ("RandomSeed", "1")]:
        send(f"setoption name {k} value {v}")
    send("isready")
    until("readyok")
    moves, waits = [], []
    for _ in range(a.moves):
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        send("go wtime 600000 btime 600000 winc 0 binc 0")
        time.sleep(a.pause)
        t = time.monotonic()
        send("stop")
        best = until("bestmove").split()[1]
        waits.append((time.monotonic() - t) * 1000)
        if best == "0000":
            break
        moves.append(best)
    send("quit")
    print(f"stop to bestmove over {len(waits)} moves: median {statistics.median(waits):.1f} ms, "
          f"largest {max(waits):.1f} ms")


if __name__ == "__main__":
    main()
