#!/usr/bin/env python3
"""Which curve form predicts games the calibration never saw: refits a calibration run with each
form named, then compares each curve with the levels of an earlier verification (its games
rated again on the pool as it stands), at each level's own settings.

    scripts/research/validate-forms.py RUN_DIR CONFIG VERIFY_DIR FORM...
    FORM: quadratic, cubic, linear, or spline:K (K knots placed as the config says)

e.g. scripts/research/validate-forms.py results/range configs/families/blend.toml results/range/verify \
         spline:5 spline:6 spline:7 spline:8

Why: the residual chi-square of the tested settings cannot tell close forms apart (each setting
carries 40-480 games in results/range), while a verification's levels carry 120-300 games each at
settings of their own. On results/range at 12,900 pool games the 6-knot spline missed the first
verification's levels by RMS 54 Elo and the 7-knot one by 37 (the games' noise alone: 33), while
leaving each setting out of its own fit gave 58 and 59. So the form of a final refit is chosen on
the first verification (validation), and a fresh verification (verify-final) then tests it.

Nothing in RUN_DIR or VERIFY_DIR changes: each refit runs on a copy (PGNs left out), with a copy
of CONFIG beside the original (its relative paths hold) that is removed afterwards. A level's
settings are matched to the nearest point of the refitted curve (fit_curve.csv's grid, on the
knobs' log scales). RMS is of measured minus curve; z2 divides each miss by the level's game
noise (verify.csv's sd_games) and the curve's band at that point (its 95% half-width / 1.96;
the pool's share, common to both, makes this conservative).

The refits run $SKILLCAL_BIN when set (scripts/research/long-runs.sh exports its copied binary), else
target/release/skillcal.
"""
import csv
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SKILLCAL = Path(os.environ.get("SKILLCAL_BIN")
                or Path(__file__).resolve().parents[2] / "target" / "release" / "skillcal")


def with_form(text, form):
    """The config's text with [fit]'s model (and knots) set to `form`."""
    model, _, knots = form.partition(":")
    if model not in ("linear", "quadratic", "cubic", "spline"):
        sys.exit(f"form '{form}': not linear, quadratic, cubic or spline:K")
    if model == "spline" and not knots.isdigit():
        sys.exit(f"form '{form}': a spline needs its knots, e.g. spline:6")
    lines = text.splitlines()
    out, in_fit, done = [], False, False
    for line in lines:
        section = re.match(r"^\s*\[([^\]]+)\]", line)
        if section:
            if in_fit and not done:
                out.extend(form_lines(model, knots))
                done = True
            in_fit = section.group(1).strip() == "fit"
            out.append(line)
            continue
        if in_fit and re.match(r"^\s*(model|knots)\s*=", line):
            if not done:
                out.extend(form_lines(model, knots))
                done = True
            continue
        out.append(line)
    if not done:
        if not in_fit:
            out.append("[fit]")
        out.extend(form_lines(model, knots))
    return "\n".join(out) + "\n"


def form_lines(model, knots):
    return [f'model = "{model}"'] + ([f"knots = {knots}"] if model == "spline" else [])


def run(args):
    r = subprocess.run([str(SKILLCAL), *map(str, args)], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"skillcal {' '.join(map(str, args))} failed:\n{r.stderr}")
    return r.stdout + r.stderr


def knobs_of(text):
    return {k: float(v) for k, v in (kv.split("=") for kv in text.split(";") if kv)}


def distance(a, b):
    def f(v):
        return math.log1p(abs(v))
    return sum((f(a[k]) - f(b[k])) ** 2 for k in a if k in b)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    run_dir, config, verify_dir = map(Path, sys.argv[1:4])
    forms = sys.argv[4:]
    for p, what in ((run_dir / "calibrate.toml", "a calibration run"),
                    (config, "a calibration config"),
                    (verify_dir / "verified-table.csv", "a verification folder")):
        if not p.exists():
            sys.exit(f"{p}: missing ({what} has it)")
    if not SKILLCAL.exists():
        sys.exit(f"{SKILLCAL}: missing (cargo build --release)")
    work = Path(tempfile.mkdtemp(prefix="skillcal-validate-"))
    cfg_copy = config.with_name(f".{config.stem}-validate-{work.name}.toml")
    try:
        ignore = shutil.ignore_patterns("games.pgn", "analysis", "verify", "eval-cache.csv")
        # the verification's levels, rated on the pool as it stands
        shutil.copytree(verify_dir, work / "verify", ignore=shutil.ignore_patterns("games.pgn"))
        shutil.copy(config, cfg_copy)
        run(["verify", work / "verify" / "verified-table.csv", "--config", cfg_copy,
             "--out", work / "verify", "--rate-only"])
        with open(work / "verify" / "verify.csv", newline="") as f:
            measured = {round(float(r["target"])): r for r in csv.DictReader(f)}
        with open(work / "verify" / "verified-table.csv", newline="") as f:
            table = {int(r["elo"]): r for r in csv.DictReader(l for l in f if not l.startswith("#"))}
        print(f"{len(measured)} levels of {verify_dir}, rated on the pool as it stands")
        print(f"{'form':12} {'used':28} {'RMS miss':>8} {'z2':>7}  misses by level")
        for form in forms:
            cfg_copy.write_text(with_form(config.read_text(), form))
            out = work / "run"
            shutil.rmtree(out, ignore_errors=True)
            shutil.copytree(run_dir, out, ignore=ignore)
            run(["calibrate", cfg_copy, "--out", out, "--fit-only"])
            with open(out / "fit_curve.csv", newline="") as f:
                curve = [(knobs_of(r["knobs"]), float(r["elo"]),
                          (float(r["upper"]) - float(r["lower"])) / 3.92)
                         for r in csv.DictReader(f)]
            used = re.search(r"the (spline with \d+ knots|linear|quadratic|cubic) form is used",
                             (out / "report.md").read_text())
            misses, z2 = [], 0.0
            for level in sorted(measured):
                row = table[level]
                want = {k: float(v) for k, v in row.items()
                        if k in curve[0][0] and v not in ("", None)}
                knobs, elo, sd_curve = min(curve, key=lambda c: distance(want, c[0]))
                m = measured[level]
                miss = float(m["measured"]) - elo
                misses.append((level, miss))
                z2 += miss ** 2 / (float(m["sd_games"]) ** 2 + sd_curve ** 2)
            rms = math.sqrt(sum(x * x for _, x in misses) / len(misses))
            print(f"{form:12} {(used.group(1) if used else 'as named'):28} {rms:8.0f} {z2:7.1f}  "
                  + " ".join(f"{lv}:{x:+.0f}" for lv, x in misses))
    finally:
        cfg_copy.unlink(missing_ok=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
