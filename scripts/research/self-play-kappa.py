#!/usr/bin/env python3
"""How much games between a calibration's own settings stretch rating differences (self-play
inflation), estimated outside the fit: every setting is rated from its games against the pool
alone (members held at POOL_DIR/pool.csv), then kappa is the factor on those ratings'
differences that best explains the games between settings (maximum likelihood on a grid, draws
as half a win and half a loss). Settings with fewer than 20 pool games or a perfect score are
left out. Errors in the settings' ratings bias kappa towards 0, so the figures are conservative.
The fit's own estimate is `fit.self_play_scale = "fit"` (src/calibrate/fit/self_play.rs).

    scripts/research/self-play-kappa.py POOL_DIR GAMES.csv [--split T ...]

e.g. scripts/research/self-play-kappa.py results/pool results/range/games.csv --split 0.3 0.7
"""
import argparse
import collections
import csv
import math


def expected(d):
    return 1 / (1 + 10 ** (-d / 400))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pool_dir")
    ap.add_argument("games")
    ap.add_argument("--split", type=float, nargs="*", default=[],
                    help="also fit kappa separately for pairs whose higher t lies below each split")
    a = ap.parse_args()
    pool = {r["name"]: float(r["elo"]) for r in csv.DictReader(open(f"{a.pool_dir}/pool.csv"))}
    points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    vs_pool = collections.defaultdict(list)
    between = []
    for g in csv.DictReader(open(a.games)):
        s = points.get(g["result"])
        if s is None:
            continue
        w, b = g["white"], g["black"]
        ws, bs = w.startswith("skillcal_t"), b.startswith("skillcal_t")
        if ws and bs:
            between.append((w, b, s))
        elif ws and b in pool:
            vs_pool[w].append((pool[b], s))
        elif bs and w in pool:
            vs_pool[b].append((pool[w], 1 - s))
    rating = {}
    for name, games in vs_pool.items():
        total = sum(s for _, s in games)
        if len(games) < 20 or total in (0, len(games)):
            continue
        lo, hi = -1000.0, 4000.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if sum(s - expected(mid - o) for o, s in games) > 0:
                lo = mid
            else:
                hi = mid
        rating[name] = mid
    usable = [(w, b, s) for w, b, s in between if w in rating and b in rating]

    def t(name):
        return float(name[len("skillcal_t"):])

    def loglik(kappa, games):
        total = 0.0
        for w, b, s in games:
            p = min(max(expected(kappa * (rating[w] - rating[b])), 1e-12), 1 - 1e-12)
            total += s * math.log(p) + (1 - s) * math.log(1 - p)
        return total

    def report(label, games):
        if not games:
            print(f"{label}: no games")
            return
        best = max((loglik(k / 100, games), k / 100) for k in range(25, 501))
        print(f"{label}: {len(games)} games between settings, kappa {best[1]:.2f}")

    print(f"{len(rating)} settings rated from their pool games")
    report("all", usable)
    edges = [-math.inf] + sorted(a.split) + [math.inf]
    for lo, hi in zip(edges, edges[1:]):
        part = [x for x in usable if lo <= max(t(x[0]), t(x[1])) < hi]
        report(f"higher t in [{lo}, {hi})", part)


if __name__ == "__main__":
    main()
