#!/usr/bin/env python3
"""Where the committed results stand against issues 13 and 14's "Done when", criterion by
criterion, from the files alone (no game, no build):

    scripts/done-when.py [REPO_DIR]

Prints one line per criterion, PASS / MISS / ABSENT with the figures behind it, and exits 0 only
when every one passes. The checks read what the long runs write (scripts/long-runs.sh): the pool
file, the range run's table and verification, each family's table and verification. A
verification counts only when its verified-table.csv is the run's current table (a refit since
moves the rows it tested). Ratings are those the files were last written with: a run or a
verification rated on an earlier pool file reads differently once refitted or rated again
(`skillcal calibrate CONFIG --out RUN --fit-only`, `skillcal verify ... --rate-only`; the long
runs' `range` and `family-rerate` stages do it on the final pool). What needs a person (the README's prose, the comparison page's
content) is left to the reader.

Needs Python 3.11 or later (tomllib).
"""
import csv
import math
import sys
import tomllib
from pathlib import Path

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
FAMILIES = ["nodes", "inaccuracy", "gaussian", "gbm", "evalnoise"]
RANGE_LEVELS = [600, 800, 1000, 1200, 1400, 1800, 2200, 2400, 2600]
failures = 0


def say(ok, what, detail):
    global failures
    verdict = {True: "PASS", False: "MISS", None: "ABSENT"}[ok]
    if ok is not True:
        failures += 1
    print(f"{verdict:6} {what}: {detail}")


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def table_body(path):
    return [line for line in path.read_text().splitlines() if not line.startswith("#")]


def check_pool():
    path = ROOT / "results/pool/pool.csv"
    if not path.exists():
        return say(None, "13 pool: every member ±25", f"{path} missing")
    members = rows(path)
    widths = {m["name"]: (float(m["upper"]) - float(m["lower"])) / 2 for m in members}
    worst = max(widths, key=widths.get)
    over = [f"{n} ±{w:.0f}" for n, w in widths.items() if w > 25.0]
    games = sum(int(m["games"]) for m in members) // 2
    say(
        not over,
        "13 pool: every member ±25 relative to the anchors",
        f"{games} games; widest {worst} ±{widths[worst]:.0f}"
        + (f"; beyond ±25: {', '.join(over)}" if over else ""),
    )


def check_rows(run, lo, hi, width, what):
    path = ROOT / run / "table_details.csv"
    if not path.exists():
        return say(None, what, f"{path} missing")
    by_target = {round(float(r["target"])): r for r in rows(path)}
    missing = [t for t in range(lo, hi + 1, 100) if t not in by_target]
    wide, flagged = [], []
    for t in range(lo, hi + 1, 100):
        r = by_target.get(t)
        if r is None:
            continue
        if float(r["half_width"]) > width:
            wide.append(f"{t} ±{float(r['half_width']):.0f}")
        if r["extrapolated"] == "true" or r["range"] != "ok":
            flagged.append(f"{t} ({r['range']})")
    widest = max(
        (float(by_target[t]["half_width"]) for t in range(lo, hi + 1, 100) if t in by_target),
        default=math.nan,
    )
    detail = f"widest ±{widest:.0f}"
    for name, items in [("missing", missing), ("wider", wide), ("beyond range", flagged)]:
        if items:
            detail += f"; {name}: {', '.join(map(str, items))}"
    say(not (missing or wide or flagged), what, detail)


def verification(run):
    """(rows, note) of RUN's verification when it tests RUN's current table, else (None, why)."""
    v = ROOT / run / "verify"
    if not (v / "verify.csv").exists():
        return None, f"{v}/verify.csv missing"
    if table_body(v / "verified-table.csv") != table_body(ROOT / run / "uci_elo_table.csv"):
        return None, f"{v} verified another table than {run}/uci_elo_table.csv (refitted since)"
    return rows(v / "verify.csv"), ""


def rms(levels):
    d = [float(r["diff"]) for r in levels if r["extrapolated"] == "false"]
    return math.sqrt(sum(x * x for x in d) / len(d)) if d else math.nan


def check_range_verify():
    what = "13 verify 600..2600 (9 levels, >= 100 games each): RMS <= 35, none off by > 2 intervals"
    levels, why = verification("results/range")
    if levels is None:
        return say(None, what, why)
    by_target = {round(float(r["target"])): r for r in levels}
    missing = [t for t in RANGE_LEVELS if t not in by_target]
    few = [f"{t} ({by_target[t]['games']})" for t in RANGE_LEVELS
           if t in by_target and int(by_target[t]["games"]) < 100]
    far = []
    for t in RANGE_LEVELS:
        r = by_target.get(t)
        if r is None:
            continue
        half = (float(r["upper"]) - float(r["lower"])) / 2
        if abs(float(r["diff"])) > 2 * half:
            far.append(f"{t} {float(r['diff']):+.0f} (interval ±{half:.0f})")
    value = rms([by_target[t] for t in RANGE_LEVELS if t in by_target])
    detail = f"RMS {value:.0f}"
    for name, items in [("missing", missing), ("under 100 games", few), ("off", far)]:
        if items:
            detail += f"; {name}: {', '.join(map(str, items))}"
    say(value <= 35 and not (missing or few or far), what, detail)


def check_range_games():
    path = ROOT / "results/range/summary.toml"
    if not path.exists():
        return say(None, "13 calibration within 4,000 games", f"{path} missing")
    games = tomllib.loads(path.read_text())["games"]
    say(games <= 4000, "13 calibration within 4,000 games", f"{games} games")


def check_family_verify(run, name, limit):
    what = f"14 verify {name}: RMS <= {limit}"
    levels, why = verification(run)
    if levels is None:
        return say(None, what, why)
    value = rms(levels)
    say(value <= limit, what, f"RMS {value:.0f} over {len(levels)} levels")


def check_files():
    for rel in [
        "results/families/compare.md",
        "results/families/compare.html",
        "results/families/compare_curves.svg",
        "results/families/stockfish-uci-elo/uci_elo_table.csv",
    ]:
        say((ROOT / rel).exists() or None, f"14 committed: {rel}", "present" if (ROOT / rel).exists() else "missing")
    readme = (ROOT / "README.md").read_text()
    say("results/families/compare.md" in readme, "14 README links the comparison page", "")


def note_ceiling():
    """Issue 13's High end: the engine should reach 2600 within about a million nodes a move,
    else be made stronger; a judgement, so printed as INFO, not counted."""
    path = ROOT / "results/range/uci_elo_table.csv"
    if not path.exists():
        return
    for r in csv.DictReader(table_body(path)):
        if round(float(r["elo"])) == 2600 and "LimitNodes" in r:
            print(
                f"INFO   13 the 2600 row plays LimitNodes {int(float(r['LimitNodes'])):,} "
                f"[{int(float(r['LimitNodes_lower'])):,}, {int(float(r['LimitNodes_upper'])):,}] "
                "(the issue: 2600 within about a million nodes a move, else a stronger engine)"
            )


check_pool()
note_ceiling()
check_rows("results/range", 600, 2600, 50, "13 table rows 600..2600 at ±50, none beyond range")
check_range_verify()
check_range_games()
check_rows("results/range", 600, 2600, 50, "14 default family (blend) at ±50 over 600..2600")
check_family_verify("results/range", "blend (default)", 50)
for f in FAMILIES:
    check_rows(f"results/families/{f}", 1400, 2200, 75, f"14 {f}: rows 1400..2200 at ±75")
    check_family_verify(f"results/families/{f}", f, 60)
check_files()
print(f"{failures} criteria not met" if failures else "every criterion checked here is met")
sys.exit(1 if failures else 0)
