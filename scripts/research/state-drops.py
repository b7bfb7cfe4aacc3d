#!/usr/bin/env python3
"""Blunders by the position's state two ways, from an analysis's moves.csv: Lichess's judgement
(a drop of 0.3 in winning chances) and a material drop (a centipawn loss of 300 or more, with
evaluations capped at +-1000 as for ACPL), with the share of "losing" moves (wc < -0.5) where a
0.3 drop cannot happen at all (wc < -0.7). Groups: the subject's settings by t, and pool members.

    scripts/research/state-drops.py results/range-tmin02/analysis/moves.csv

moves.csv is not committed: `skillcal analyse` writes it, from the run's PGNs.
"""
import collections
import csv
import sys

if len(sys.argv) != 2:
    print(__doc__, file=sys.stderr)
    sys.exit(2)


def group(player):
    if not player.startswith("skillcal_t"):
        return player
    t = float(player[len("skillcal_t"):])
    return next(name for bound, name in ((0.2, "t < 0.2"), (0.5, "t 0.2-0.5"),
                                         (0.8, "t 0.5-0.8"), (9.0, "t >= 0.8")) if t < bound)


counts = collections.defaultdict(collections.Counter)
with open(sys.argv[1], newline="") as f:
    for r in csv.DictReader(f):
        c = counts[(group(r["player"]), r["state"])]
        c["moves"] += 1
        c["blunder"] += r["judgement"] == "blunder"
        c["drop300"] += float(r["cp_loss"]) >= 300
        c["no_blunder_possible"] += float(r["wc_before"]) < -0.7
print("group,state,moves,blunder_pct,drop300_pct,no_blunder_possible_pct")
for (g, s), c in sorted(counts.items()):
    if s in ("equal", "losing", "winning"):
        n = c["moves"]
        print(f"{g},{s},{n},{100 * c['blunder'] / n:.1f},{100 * c['drop300'] / n:.1f},"
              f"{100 * c['no_blunder_possible'] / n:.1f}")
