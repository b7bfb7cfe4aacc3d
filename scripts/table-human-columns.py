#!/usr/bin/env python3
"""Adds the human-scale columns to UCI_Elo tables written before the calibration wrote them.

A calibration against a measured pool with a human scale (results/pool/human-scale.csv) writes,
after its flag comments, one comment line a scale and the columns `lichess_blitz`,
`lichess_rapid` (the row's target on that scale) at the end of the header
(src/calibrate/table/uci_elo.rs). Refitting an older run would refit it on today's pool, so the
committed tables get the same lines from this script instead; the engine ignores these columns.

    scripts/table-human-columns.py SCALES TABLE...     (a table that has them is left alone)
"""
import csv
import io
import sys


def num(v):
    return None if v in ("", None) else float(v)


def rust0(x):
    # Rust's {:.0}: round half to even on the exact binary value, as Python's format does
    return format(x, ".0f")


def signed0(x):
    s = format(x, "+.0f")
    return "+0" if s == "-0" else s


def main():
    scales = list(csv.DictReader(open(sys.argv[1])))
    for path in sys.argv[2:]:
        lines = open(path).read().splitlines(keepends=True)
        comments = [l for l in lines if l.startswith("#")]
        body = [l for l in lines if not l.startswith("#") and l.strip()]
        header = next(csv.reader([body[0]]))
        if any(h.startswith("lichess_") for h in header):
            print(f"{path}: has them")
            continue
        out = "".join(comments)
        for h in scales:
            slope_supported = h["slope_supported"] == "true"
            if slope_supported:
                m = "%.0f + %.3f elo" % (float(h["intercept"]), float(h["slope"]))
            else:
                m = "elo %s (95%%: %s to %s)" % (
                    signed0(float(h["offset"])),
                    signed0(float(h["offset_lower"])),
                    signed0(float(h["offset_upper"])),
                )
            col = h["scale"].replace("-", "_")
            out += (
                f"# {h['scale']}: {col} = {m}, from {h['points']} pool members whose "
                f"{h['scale']} ratings others recorded (the pool's human-scale.csv; such ratings drift)\n"
            )
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        rows = list(csv.reader(body))
        w.writerow(rows[0] + [h["scale"].replace("-", "_") for h in scales])
        for r in rows[1:]:
            elo = float(r[0])
            extra = []
            for h in scales:
                if h["slope_supported"] == "true":
                    v = float(h["intercept"]) + float(h["slope"]) * elo
                else:
                    v = elo + float(h["offset"])
                extra.append(rust0(v))
            w.writerow(r + extra)
        open(path, "w").write(out + buf.getvalue())
        print(f"{path}: {len(rows) - 1} rows")


main()
