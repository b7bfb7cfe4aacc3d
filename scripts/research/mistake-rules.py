#!/usr/bin/env python3
"""Style=human's mistake rules compared on the positions of mistake-positions.py: for each rule
and setting, the share of human moves matched (%), the mean loss of expected score a move (in
points of 100, by the 20,000-node scores) and the share of moves that leave the top move (%).
Expected score: the logistic of the score, 400 cp a factor of ten, clamped at +-2,000 cp.

- rate: the second schedule, the worst plausible move (300-node scores) on a random share of moves
  (counted in expectation);
- ratio: the worst of the plausible moves with at least rho of the top move's probability and
  d cp or more below it;
- score (`lam`, kept as the third schedule, src/strength/human.rs): the plausible move whose
  expected-score loss beside the top move exceeds lam times the probability it gives up by the
  most, if any.
"""
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
def wp(cp): return 1 / (1 + 10 ** (-max(-2000, min(2000, cp)) / 400))
def ev(choose):
    m = loss = dep = 0
    for r in rows:
        c = choose(r)  # list of (move, weight)
        for mv, w in c:
            m += w * (mv == r["human"])
            t = r["s20k"]; top = r["cands"][0]
            if mv != top and mv in t and top in t:
                loss += w * (wp(t[top]) - wp(t[mv])); dep += w
    n = len(rows)
    return 100 * m / n, 100 * loss / n, 100 * dep / n
def worst(r, pool):
    s = r["s300"]; pool = [m for m in pool if m in s]
    if not pool: return None
    return min(pool, key=lambda m: s[m])
def rule_rate(rate):
    def f(r):
        top = r["cands"][0]; w = worst(r, r["cands"][1:])
        return [(top, 1.0)] if w is None else [(top, 1 - rate), (w, rate)]
    return f
P = {}
def rule_ratio(rho, dmin=0):
    def f(r):
        top = r["cands"][0]; p = dict(r["probs"]); s = r["s300"]
        alts = [m for m in r["cands"][1:] if p.get(m, 0) >= rho * p[top] and m in s and top in s and s[top] - s[m] >= dmin]
        w = worst(r, alts)
        return [(top, 1.0)] if w is None else [(w, 1.0)]
    return f
def rule_score(lam):
    # depart to the alt maximising loss300 - lam*(ptop-palt)*1000 if positive
    def f(r):
        top = r["cands"][0]; p = dict(r["probs"]); s = r["s300"]
        best = None; bv = 0
        for m in r["cands"][1:]:
            if m in s and top in s:
                v = wp(s[top]) - wp(s[m]) - lam * (p[top] - p.get(m, 0))
                if v > bv: bv, best = v, m
        return [(top, 1.0)] if best is None else [(best, 1.0)]
    return f
print("rate rule: match, wp-loss/move, departures%")
for rate in [0, .1, .2, .3, .4, .5, .6, .8, 1]:
    print(f"  rate {rate:.1f}: %5.1f %5.2f %5.1f" % ev(rule_rate(rate)))
print("ratio rule")
for rho in [0.9, .8, .7, .6, .5, .4, .3, .2, .1]:
    for d in [0, 50, 100]:
        print(f"  rho {rho:.1f} d {d}: %5.1f %5.2f %5.1f" % ev(rule_ratio(rho, d)))
print("score rule")
for lam in [2, 1, .7, .5, .3, .2, .1, .05, 0.02]:
    print(f"  lam {lam}: %5.1f %5.2f %5.1f" % ev(rule_score(lam)))
