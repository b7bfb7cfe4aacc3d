#!/usr/bin/env python3
"""A verification folder's levels as the markdown table of docs/results/people.md: measured Elo
with its 95% interval, the difference, games, each opponent's score and the performance it
gives, and the check that one rating explains all three opponents; then the RMS.

    scripts/research/verify-table.py results/families/human/verify-refit

Reads verify.csv and verify_opponents.csv. Standard library only.
"""
import csv
import math
import re
import sys
from pathlib import Path


def short(name):
    m = re.fullmatch(r"fairy[\d.]+-skill(-?\d+)", name)
    if m:
        return f"F{m.group(1)}"
    m = re.fullmatch(r"sf[\d.]+-skill(\d+)", name)
    if m:
        return f"SF{m.group(1)}"
    m = re.fullmatch(r"maia1-(\d+)", name)
    if m:
        return f"Maia-{m.group(1)}"
    return name


def chi2_sf(x, dof):
    """The chi-square survival function (closed forms for even and odd degrees of freedom)."""
    if dof % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(1, dof // 2):
            term *= (x / 2) / k
            total += term
        return math.exp(-x / 2) * total
    total, term = 0.0, math.sqrt(x)
    for j in range(1, (dof - 1) // 2 + 1):
        total += term
        term *= x / (2 * j + 1)
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 / math.pi) * math.exp(-x / 2) * total


def p_text(p):
    return f"{p:.0e}".replace("e-0", "e-") if p < 0.001 else f"{p:.2g}"


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    d = Path(argv[1])
    with open(d / "verify.csv", newline="") as f:
        levels = list(csv.DictReader(f))
    with open(d / "verify_opponents.csv", newline="") as f:
        opponents = list(csv.DictReader(f))
    print("| UCI_Elo | measured (95%) | diff | games | by opponent: score (performance [95%]) | one rating for all three |")
    print("|---|---|---|---|---|---|")
    sq = []
    for r in levels:
        t, m = float(r["target"]), float(r["measured"])
        sq.append((m - t) ** 2)
        cells = []
        for o in opponents:
            if float(o["target"]) != t:
                continue
            score = float(o["score"])
            lo, hi = float(o["performance_lower"]), float(o["performance_upper"])
            if score <= 0.0:
                perf = f"< {hi:.0f}"
            elif score >= 1.0:
                perf = f"> {lo:.0f}"
            else:
                perf = f"{float(o['performance']):.0f} [{lo:.0f}, {hi:.0f}]"
            cells.append(f"{short(o['opponent'])} {score * 100:.0f}% ({perf})")
        chi2, dof = float(r["opponents_chi2"]), int(r["opponents_dof"])
        print(
            f"| {t:.0f} | {m:.0f} [{float(r['lower']):.0f}, {float(r['upper']):.0f}] | {m - t:+.0f} |"
            f" {r['games']} | {'; '.join(cells)} | chi2 {chi2:.1f}/{dof}, p {p_text(chi2_sf(chi2, dof))} |"
        )
    print(f"\nRMS of measured - target over {len(sq)} levels: {math.sqrt(sum(sq) / len(sq)):.1f} Elo")


if __name__ == "__main__":
    main(sys.argv)
