#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Rated human games for `skillcal analyse --human`, from the Lichess games of the Kaggle
dataset "datasnaek/chess" (about 20,000 games from lichess.org in 2016-2017, CC0; the file is
usually called games.csv or chess_games.csv, with a `moves` column of SAN moves separated by
spaces and the players' ratings). Writes PGN with WhiteElo / BlackElo, keeping rated games only.

    scripts/research/datasnaek-to-pgn.py chess_games.csv [more.csv ...] > human.pgn

Rows that do not parse (a file cut mid-row, say) are skipped and counted on stderr, and so is a
row whose move count differs from its `turns` column: that check catches a damaged copy.
The ratings are Lichess's Glicko-2 ratings of the time, not Elo on skillcal's scale.
"""

import csv
import sys

# Column names in the two common layouts of the dataset.
ALIASES = {
    "id": "game_id",
    "increment_code": "time_increment",
}


def time_control(code):
    """Lichess's "15+2" (minutes + seconds of increment) as PGN's "900+2"."""
    try:
        base, inc = code.split("+")
        return f"{int(float(base) * 60)}+{int(inc)}"
    except ValueError:
        return "-"


def result(winner):
    return {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}.get(winner.strip().lower())


def movetext(moves, res):
    out = []
    for i, san in enumerate(moves):
        if i % 2 == 0:
            out.append(f"{i // 2 + 1}.")
        out.append(san)
    out.append(res)
    # PGN lines of at most about 80 characters
    lines, line = [], ""
    for tok in out:
        if line and len(line) + 1 + len(tok) > 79:
            lines.append(line)
            line = tok
        else:
            line = f"{line} {tok}" if line else tok
    lines.append(line)
    return "\n".join(lines)


def rows(path):
    """Rows as dicts; a header-less file (a slice of the dataset) gets the positional layout."""
    with open(path, newline="", encoding="utf-8") as f:
        first = f.readline()
        f.seek(0)
        if "white_rating" in first:
            reader = csv.DictReader(f)
            for r in reader:
                yield {ALIASES.get(k, k): v for k, v in r.items() if k is not None}
        else:
            cols = ["game_id", "rated", "turns", "victory_status", "winner", "time_increment",
                    "white_id", "white_rating", "black_id", "black_rating", "moves"]
            for rec in csv.reader(f):
                if len(rec) >= len(cols):
                    yield dict(zip(cols, rec))
                else:
                    yield None


def main(paths):
    kept = skipped = casual = 0
    seen = set()
    for path in paths:
        for r in rows(path):
            try:
                moves = r["moves"].split()
                res = result(r["winner"])
                white_elo, black_elo = int(r["white_rating"]), int(r["black_rating"])
                ok = res is not None and len(moves) == int(r["turns"]) and moves
            except (TypeError, KeyError, ValueError):
                ok = False
            if not ok:
                skipped += 1
                continue
            if r["rated"].strip().upper() not in ("TRUE", "1"):
                casual += 1
                continue
            key = (r["white_id"], r["black_id"], r["moves"])
            if key in seen:
                continue
            seen.add(key)
            print(f'[Event "Rated game (lichess.org, Kaggle datasnaek/chess)"]')
            print(f'[Site "lichess.org"]')
            print(f'[White "{r["white_id"]}"]')
            print(f'[Black "{r["black_id"]}"]')
            print(f'[Result "{res}"]')
            print(f'[WhiteElo "{white_elo}"]')
            print(f'[BlackElo "{black_elo}"]')
            print(f'[TimeControl "{time_control(r["time_increment"])}"]')
            print()
            print(movetext(moves, res))
            print()
            kept += 1
    print(f"{kept} rated games written; {casual} casual and {skipped} unparsable rows skipped",
          file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
