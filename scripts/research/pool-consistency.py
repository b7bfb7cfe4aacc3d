#!/usr/bin/env python3
"""Whether the measured pool is transitive: each member's results against each opponent beside
the score its fitted rating predicts (pool.csv, pool-pairs.csv), with z = (points - n e) /
sqrt(n e (1 - e)) and per member the sum of its z squared. About one per pair is chance; a
member far above that scores against some opponents as a different rating would (binomial
variance, draws ignored, so |z| is if anything small; the ratings' own uncertainty is left out).

    scripts/research/pool-consistency.py [POOL_DIR]   # default: results/pool

Used to tell where verify's by-opponent split at the weak end comes from: if the Fairy-Stockfish
chain is consistent within itself, the split is the subject's against it.
"""
import csv
import math
import sys
from collections import defaultdict
from pathlib import Path


def short(name):
    return name.replace("fairy11.1-skill", "F").replace("sf15.1-skill", "S")


def main():
    if len(sys.argv) > 2:
        sys.exit(__doc__)
    pool = Path(sys.argv[1] if len(sys.argv) == 2 else "results/pool")
    for f in ("pool.csv", "pool-pairs.csv"):
        if not (pool / f).exists():
            sys.exit(f"{pool / f}: missing (a `skillcal pool` output folder?)")
    elo = {r["name"]: float(r["elo"]) for r in csv.DictReader(open(pool / "pool.csv"))}
    per = defaultdict(list)
    for line, r in enumerate(csv.DictReader(open(pool / "pool-pairs.csv")), start=2):
        a, b = r["a"], r["b"]
        if a not in elo or b not in elo:
            sys.exit(f"{pool / 'pool-pairs.csv'} line {line}: {a} or {b} not in pool.csv")
        n, s = float(r["games"]), float(r["a_points"])
        if n == 0:
            continue
        e = 1.0 / (1.0 + 10.0 ** ((elo[b] - elo[a]) / 400.0))
        z = (s - n * e) / math.sqrt(n * e * (1.0 - e))
        per[a].append((b, n, s / n, e, z))
        per[b].append((a, n, 1.0 - s / n, 1.0 - e, -z))
    print("member              pairs   sum z^2  opponent:games:score/expected(z)")
    for m in sorted(elo, key=elo.get):
        rows = per.get(m, [])
        chi = sum(z * z for *_, z in rows)
        cells = " ".join(
            f"{short(o)}:{n:.0f}:{q:.2f}/{e:.2f}({z:+.1f})" for o, n, q, e, z in rows
        )
        print(f"{m:<20}{len(rows):>5}{chi:>10.1f}  {cells}")


if __name__ == "__main__":
    main()
