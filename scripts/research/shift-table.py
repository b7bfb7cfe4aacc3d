#!/usr/bin/env python3
"""Refit a UCI_Elo table by its verifications: the calibration's curve moved by what the
verified levels measured.

A verification plays each level at the knob its table row names and measures its Elo on the
pool's scale. Where the measured Elo differs from the curve's at that knob, the curve is moved by
the difference (the mean over the verification folders given, which must have played the same
table), linearly in the knob between verified levels and held beyond the first and last. The new
curve is inverted into rows again, each row's interval widened by the shift's own uncertainty.

    scripts/research/shift-table.py CALIBRATION_DIR VERIFY_DIR [VERIFY_DIR...] > table.csv

CALIBRATION_DIR holds fit_curve.csv and uci_elo_table.csv (the table the verifications played);
each VERIFY_DIR a verify.csv. Standard library only.
"""
import csv
import math
import sys
from pathlib import Path


def rows(path):
    with open(path, newline="") as f:
        lines = [line for line in f if line.strip() and not line.startswith("#")]
    return list(csv.DictReader(lines))


def comments(path):
    with open(path) as f:
        return [line.rstrip("\n") for line in f if line.startswith("#")]


def interp(xs, ys, x):
    """Piecewise-linear through (xs, ys), held flat beyond the ends; xs increasing."""
    if x <= xs[0]:
        return ys[0]
    if x >= xs[-1]:
        return ys[-1]
    for i in range(1, len(xs)):
        if x <= xs[i]:
            w = (x - xs[i - 1]) / (xs[i] - xs[i - 1])
            return ys[i - 1] + w * (ys[i] - ys[i - 1])
    return ys[-1]


def solve(fn, target, lo, hi):
    """The knob in [lo, hi] where the increasing fn reaches target (bisection)."""
    for _ in range(60):
        mid = (lo + hi) / 2
        if fn(mid) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cal = Path(argv[1])
    verifies = [Path(a) for a in argv[2:]]
    curve = rows(cal / "fit_curve.csv")
    knob_name = curve[0]["knobs"].split("=")[0]
    ks = [float(r["knobs"].split("=")[1]) for r in curve]
    elo = [float(r["elo"]) for r in curve]
    half = [(float(r["upper"]) - float(r["lower"])) / 2 for r in curve]
    table = rows(cal / "uci_elo_table.csv")
    knob_at = {float(r["elo"]): float(r[knob_name]) for r in table}

    shifts = {}  # knob -> [(shift, sd)]
    n_games = 0
    for v in verifies:
        for r in rows(v / "verify.csv"):
            target = float(r["target"])
            if target not in knob_at:
                sys.exit(f"{v / 'verify.csv'}: level {target:g} is not a row of {cal / 'uci_elo_table.csv'}")
            k = knob_at[target]
            n_games += int(r["games"])
            shifts.setdefault(k, []).append(
                (float(r["measured"]) - interp(ks, elo, k), float(r["sd_games"]))
            )
    vk = sorted(shifts)
    shift = [sum(s for s, _ in shifts[k]) / len(shifts[k]) for k in vk]
    shift_sd = [math.sqrt(sum(sd * sd for _, sd in shifts[k])) / len(shifts[k]) for k in vk]

    def g(k):
        return interp(ks, elo, k) + interp(vk, shift, k)

    def width(k):
        return math.hypot(interp(ks, half, k), 1.96 * interp(vk, shift_sd, k))

    lo_k, hi_k = ks[0], ks[-1]
    grid = [lo_k + (hi_k - lo_k) * i / 1000 for i in range(1001)]
    values = [g(k) for k in grid]
    for a, b, k in zip(values, values[1:], grid[1:]):
        if b < a:
            sys.exit(f"the moved curve falls at {knob_name}={k:.1f} ({a:.0f} -> {b:.0f}); no table")

    out = csv.writer(sys.stdout, lineterminator="\n")
    header = comments(cal / "uci_elo_table.csv")
    for line in header:
        if "beyond the engine's range" in line:
            continue  # written again below, for the moved curve
        if line.startswith("# skillcal UCI_Elo table"):
            print(line)
            print(
                f"# refit: the calibration's curve moved by {len(verifies)} verification(s) of this table's"
                f" first version ({n_games} games: " + ", ".join(str(v) for v in verifies)
                + f"), the mean measured - curve at each verified {knob_name}, linear between them"
            )
        else:
            print(line)
    scale_cols = [c for c in table[0] if c.startswith("lichess_")]
    offsets = {c: float(table[0][c]) - float(table[0]["elo"]) for c in scale_cols}
    floor, ceiling = values[0], values[-1]
    body = []
    for r in table:
        target = float(r["elo"])
        if target < floor:
            k = lo_k
            print(f"# {target:g}: beyond the engine's range on this path (floor): plays at {floor:.0f}")
        elif target > ceiling:
            k = hi_k
            print(f"# {target:g}: beyond the engine's range on this path (ceiling): plays at {ceiling:.0f}")
        else:
            k = solve(g, target, lo_k, hi_k)
        h = width(k)
        played = g(k)
        k_lower = solve(lambda x: g(x) + width(x), target, lo_k, hi_k) if target > floor + h else lo_k
        k_upper = solve(lambda x: g(x) - width(x), target, lo_k, hi_k) if target < ceiling - h else hi_k
        body.append(
            [f"{target:g}", f"{k:.0f}", f"{played - h:.0f}", f"{played + h:.0f}", f"{k_lower:.0f}", f"{k_upper:.0f}"]
            + [f"{target + offsets[c]:.0f}" for c in scale_cols]
        )
    out.writerow(["elo", knob_name, "elo_lower", "elo_upper", f"{knob_name}_lower", f"{knob_name}_upper"] + scale_cols)
    out.writerows(body)


if __name__ == "__main__":
    main(sys.argv)
