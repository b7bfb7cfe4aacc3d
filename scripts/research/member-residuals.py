#!/usr/bin/env python3
"""How a calibration's subject does against each pool member, beside how far the run's fit moved
that member from its pool-file rating: a member the subject beats more often than the settings'
own ratings predict is pulled down in the joint fit, and a table built on the moved member reads
off in a verification that holds it at the pool file's rating.

For every game of a tested setting against a pool member: the score minus the logistic expected
score from the setting's own rating (fit_points.csv) and the member's fitted rating (pool.csv).

    scripts/research/member-residuals.py RUN_DIR [MIN_GAMES]   # default MIN_GAMES: 40

e.g. scripts/research/member-residuals.py results/families/nodes
"""
import csv
import sys
from collections import defaultdict
from pathlib import Path


def expected(diff):
    return 1.0 / (1.0 + 10.0 ** (-diff / 400.0))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    run = Path(sys.argv[1])
    min_games = int(sys.argv[2]) if len(sys.argv) == 3 else 40
    for name in ("pool.csv", "fit_points.csv", "games.csv"):
        if not (run / name).exists():
            sys.exit(f"{run / name}: missing (a calibration run folder has it)")
    with open(run / "pool.csv", newline="") as f:
        pool = list(csv.DictReader(f))
    fitted = {r["name"]: float(r["elo"]) for r in pool}
    in_file = {r["name"]: float(r["pool_file_elo"]) for r in pool if r.get("pool_file_elo")}
    with open(run / "fit_points.csv", newline="") as f:
        settings = {r["name"]: float(r["elo"]) for r in csv.DictReader(f)}
    scores = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    tally = defaultdict(lambda: [0, 0.0, 0.0])
    with open(run / "games.csv", newline="") as f:
        for g in csv.DictReader(f):
            white_score = scores.get(g["result"])
            if white_score is None:
                continue
            for me, them, score in ((g["white"], g["black"], white_score),
                                    (g["black"], g["white"], 1.0 - white_score)):
                if me in settings and them in fitted:
                    t = tally[them]
                    t[0] += 1
                    t[1] += score
                    t[2] += expected(settings[me] - fitted[them])
    print(f"{'member':24} {'games':>5} {'score - expected':>16} {'fitted - pool file':>18}")
    for name in sorted(tally, key=lambda n: fitted[n]):
        games, score, exp = tally[name]
        if games < min_games:
            continue
        moved = f"{fitted[name] - in_file[name]:+.0f}" if name in in_file else "-"
        print(f"{name:24} {games:5d} {(score - exp) / games:+16.3f} {moved:>18}")


if __name__ == "__main__":
    main()
