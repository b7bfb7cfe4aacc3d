#!/usr/bin/env python3
"""A rough look at a verification under way: each level's maximum-likelihood performance (the
logistic Elo) against its opponents' pool ratings taken as exact, and its score and rough
performance per opponent, from the games each level's folder holds so far. Not the verification's own fit (which rates
the opponents with their covariance and every level at once); for a run that has not finished.

    scripts/research/rough-performance.py results/families/human/verify [results/pool/pool.csv]

The RMS counts the levels with at least 240 games (a verification's level).
"""
import csv, glob, math, re, sys

folder = sys.argv[1]
pool_file = sys.argv[2] if len(sys.argv) > 2 else "results/pool/pool.csv"
pool = {r["name"]: float(r["elo"]) for r in csv.DictReader(open(pool_file))}
errors = []


def perf(name, v):  # one opponent's rough performance; a score of 0 or all only bounds it
    if v[0] <= 0 or v[0] >= v[1]:
        return "<" if v[0] <= 0 else ">"
    return str(round(pool[name] + 400 * math.log10(v[0] / (v[1] - v[0]))))


for f in sorted(glob.glob(f"{folder}/matches/*/games.csv")):
    res, per = [], {}
    for r in csv.DictReader(open(f)):
        mine_white = r["white"].startswith("skillcal")
        opp = r["black"] if mine_white else r["white"]
        s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(r["result"])
        if s is None or opp not in pool:
            continue
        s = s if mine_white else 1.0 - s
        res.append((pool[opp], s))
        per.setdefault(opp, [0.0, 0])
        per[opp][0] += s
        per[opp][1] += 1
    if not res:
        continue
    e = 1000.0
    for _ in range(200):  # Newton on the logistic likelihood, steps capped
        ps = [1 / (1 + 10 ** ((o - e) / 400)) for o, _ in res]
        g = sum(s - p for (_, s), p in zip(res, ps))
        h = sum(math.log(10) / 400 * p * (1 - p) for p in ps)
        e += max(-300.0, min(300.0, g / h))
    level = f.split("/")[-2]
    # v01-600, or v01-600-also for the opponents `verify --also-against` adds
    target = int(re.match(r"v\d+-(\d+)", level).group(1))
    if len(res) >= 240:
        errors.append(e - target)
    print(level, len(res), round(e), " ".join(f"{k} {v[0]}/{v[1]} ({perf(k, v)})" for k, v in per.items()))
if errors:
    rms = math.sqrt(sum(x * x for x in errors) / len(errors))
    print(f"RMS over the {len(errors)} levels with 240 games or more: {rms:.1f}")
