#!/usr/bin/env python3
"""Each side's search depth and time per move, from the arena's PGN comments (`{+0.35/12
0.105s}`), per match folder: tells whether a clock cut a node-bounded player's searches short
(a cut search ends shallower at the faster clock; one its node limit ends reaches the same depth
at every clock, however busy the machine). PGNs are mostly not committed (results/range/verify's
are, and 21 of results/range/matches' 98): it reads the games played on this machine.

    scripts/research/pgn-move-stats.py MATCH_DIR... [--player PREFIX]   # default PREFIX: skillcal

e.g. scripts/research/pgn-move-stats.py results/families/gaussian/tc-check/matches/*
"""
import re
import statistics
import sys
from pathlib import Path

COMMENT = re.compile(r"\{([^}]*)\}")
DEPTH_TIME = re.compile(r"/(\d+) ([\d.]+)s$")
TAG = re.compile(r'^\[(\w+) "([^"]*)"\]$', re.M)


def player_moves(pgn_text, prefix):
    """(depth, seconds) of every move of the players whose name starts with prefix."""
    out = []
    for game in pgn_text.split("[Event ")[1:]:
        tags = dict(TAG.findall("[Event " + game))
        body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
        # the last comment is the result's; a game from a FEN with black to move starts with black
        comments = COMMENT.findall(body)[:-1]
        black_first = tags.get("FEN", "").split(" ")[1:2] == ["b"]
        for i, c in enumerate(comments):
            mover = "Black" if (i % 2 == 0) == black_first else "White"
            m = DEPTH_TIME.search(c.strip())
            if m and tags.get(mover, "").startswith(prefix):
                out.append((int(m.group(1)), float(m.group(2))))
    return out


def main(argv):
    prefix = "skillcal"
    dirs = []
    it = iter(argv)
    for a in it:
        if a == "--player":
            prefix = next(it)
        else:
            dirs.append(Path(a))
    if not dirs:
        print(__doc__, file=sys.stderr)
        return 2
    print(f"{'match':<40} {'games':>5} {'moves':>6} {'depth':>6} {'ms/move':>8} {'max ms':>7}")
    for d in dirs:
        pgn = d / "games.pgn"
        if not pgn.exists():
            print(f"{str(d):<40} no games.pgn")
            continue
        text = pgn.read_text()
        moves = player_moves(text, prefix)
        games = text.count("[Event ")
        if not moves:
            print(f"{str(d):<40} {games:>5} no move of a player named {prefix}*")
            continue
        depth = statistics.mean(x[0] for x in moves)
        ms = 1000 * statistics.mean(x[1] for x in moves)
        top = 1000 * max(x[1] for x in moves)
        print(f"{str(d):<40} {games:>5} {len(moves):>6} {depth:>6.2f} {ms:>8.1f} {top:>7.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
