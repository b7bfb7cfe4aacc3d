#!/usr/bin/env python3
"""How other games see the pool's members: rate GAMES alone (`skillcal rate`, the anchor held at
its pool-file rating) and print each member's rating beside the pool file's, with the difference
in SDs. A member the pool's own ladder places well but other engines see elsewhere is not
transitive: a calibration that rates against it inherits the disagreement.

    scripts/research/member-views.py POOL_DIR ANCHOR [--with PREFIX] GAMES.csv...

--with PREFIX keeps only games where a player's name starts with PREFIX (e.g. `skillcal_`, the
calibration's own settings: then each setting links members only through its own games).

e.g. scripts/research/member-views.py results/pool sf15.1-skill0 --with skillcal_ results/range/games.csv
     scripts/research/member-views.py results/pool sf15.1-skill0 results/low-end-check/games.csv
"""
import csv
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def main():
    args = sys.argv[1:]
    prefix = None
    if "--with" in args:
        i = args.index("--with")
        if i + 1 >= len(args):
            sys.exit(__doc__)
        prefix = args[i + 1]
        del args[i : i + 2]
    if len(args) < 3:
        sys.exit(__doc__)
    pool_dir, anchor, files = Path(args[0]), args[1], args[2:]
    with open(pool_dir / "pool.csv", newline="") as f:
        pool = {r["name"]: r for r in csv.DictReader(f)}
    if anchor not in pool:
        sys.exit(f"{pool_dir / 'pool.csv'}: no member `{anchor}`")
    binary = os.environ.get("SKILLCAL_BIN", "target/release/skillcal")
    with tempfile.TemporaryDirectory() as tmp:
        games = Path(tmp) / "games.csv"
        header, kept = None, 0
        with open(games, "w", newline="") as out:
            w = csv.writer(out)
            for name in files:
                with open(name, newline="") as f:
                    r = csv.reader(f)
                    h = next(r)
                    if header is None:
                        header = h
                        w.writerow(h)
                    cols = {c: h.index(c) for c in header if c in h}
                    for row in r:
                        white, black = row[h.index("white")], row[h.index("black")]
                        if prefix and not (white.startswith(prefix) or black.startswith(prefix)):
                            continue
                        w.writerow([row[cols[c]] if c in cols else "" for c in header])
                        kept += 1
        ratings = Path(tmp) / "ratings.csv"
        subprocess.run(
            [binary, "rate", str(games), "--anchor", f"{anchor}={pool[anchor]['elo']}",
             "--bootstrap", "0", "--csv", str(ratings)],
            check=True, stdout=subprocess.DEVNULL)
        with open(ratings, newline="") as f:
            seen = {r["name"]: r for r in csv.DictReader(f)}
    print(f"{kept} games; {anchor} held at {float(pool[anchor]['elo']):.0f} (pool file)")
    print(f"{'member':22} {'pool file':>12} {'these games':>12} {'games':>6} {'diff':>6} {'z':>5}")
    for name in sorted(pool, key=lambda n: float(pool[n]["elo"])):
        if name not in seen or name == anchor:
            continue
        p, s = pool[name], seen[name]
        pe, ps, se, ss = float(p["elo"]), float(p["sd"]), float(s["elo"]), float(s["sd"])
        # the pool file's SD is relative to all anchors; close enough beside these games' SD
        z = (se - pe) / math.hypot(ps, ss)
        print(f"{name:22} {pe:6.0f} ±{1.96 * ps:4.0f} {se:6.0f} ±{1.96 * ss:4.0f} "
              f"{s['games']:>6} {se - pe:+6.0f} {z:+5.1f}")
    others = [n for n in seen if n not in pool]
    if others:
        print("not in the pool:")
        for n in sorted(others, key=lambda n: float(seen[n]["elo"])):
            s = seen[n]
            print(f"  {n:20} {float(s['elo']):6.0f} ±{1.96 * float(s['sd']):4.0f} "
                  f"games {s['games']}")


if __name__ == "__main__":
    main()
