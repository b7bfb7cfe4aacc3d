#!/usr/bin/env python3
"""Positions of one Lichess rating band for comparing Style=human's mistake rules offline.

For up to N positions (one a game, ply >= 10, the mover rated LO..HI-1, seed 7) of the two
human files: Maia-1100's policy (with the game's history, `skillcal policy`), the human's move,
and the built-in engine's scores of the top move and its plausible alternatives (at least a
tenth of its probability, at most 8) searched together at 300 nodes (what the rule sees) and at
20,000 (the loss it is charged). One JSON line a position. Needs python3-chess and zstd.

    SKILLCAL=target/release/skillcal scripts/research/mistake-positions.py 1100 1200 600 band1100.jsonl
    scripts/research/mistake-rules.py band1100.jsonl
"""
import chess, chess.pgn, io, json, os, random, subprocess, sys
SK = os.environ.get("SKILLCAL", "target/release/skillcal")
HUMAN = os.environ.get("HUMAN_DIR", "../shared/human")
lo, hi, n, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(7)
games = []
for f in [f"{HUMAN}/datasnaek_lichess_20k.pgn.zst", f"{HUMAN}/lichess_2018-06_hlias_28k.pgn.zst"]:
    txt = subprocess.run(["zstd", "-dc", f], capture_output=True, text=True).stdout
    s = io.StringIO(txt)
    while True:
        g = chess.pgn.read_game(s)
        if g is None: break
        try:
            we, be = int(g.headers.get("WhiteElo", "0")), int(g.headers.get("BlackElo", "0"))
        except ValueError: continue
        if lo <= we < hi or lo <= be < hi:
            games.append((g, we, be))
rng.shuffle(games)
eng = subprocess.Popen([SK, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(x): eng.stdin.write(x + "\n")
def wait(tok):
    lines = []
    while True:
        l = eng.stdout.readline()
        lines.append(l)
        if l.startswith(tok): return lines
send("uci"); wait("uciok")
def scores(moves_hist, cands, nodes):
    send(f"setoption name MultiPV value {len(cands)}")
    send("ucinewgame"); send("isready"); wait("readyok")
    send("position startpos moves " + " ".join(moves_hist))
    send(f"go nodes {nodes} searchmoves " + " ".join(cands))
    got = {}
    for l in wait("bestmove"):
        t = l.split()
        if "multipv" in t and "pv" in t and "score" in t:
            mv = t[t.index("pv") + 1]
            i = t.index("score")
            v = int(t[i + 2])
            if t[i + 1] == "mate":  # a mate counts as +-10,000 cp
                v = 10000 if v > 0 else -10000
            got[mv] = v
    return got
rows = []
with open(out, "w") as fo:
    for g, we, be in games:
        if len(rows) >= n: break
        mvs = [m.uci() for m in g.mainline_moves()]
        if len(mvs) < 12: continue
        ply = rng.randrange(10, len(mvs))
        mover_elo = we if ply % 2 == 0 else be
        if not (lo <= mover_elo < hi): continue
        hist = mvs[:ply]
        pol = subprocess.run([SK, "policy", "--net", "1100", "--moves"] + hist, capture_output=True, text=True).stdout.splitlines()
        probs = [(l.split()[0], float(l.split()[1])) for l in pol if len(l.split()) == 2 and l.split()[0] != "wdl"]
        probs.sort(key=lambda x: -x[1])
        top = probs[0]
        pl = [m for m, p in probs[1:] if p >= 0.1 * top[1]][:8]
        cands = [top[0]] + pl
        s300 = scores(hist, cands, 300) if len(cands) > 1 else {top[0]: 0}
        s20k = scores(hist, cands, 20000) if len(cands) > 1 else {top[0]: 0}
        r = dict(human=mvs[ply], probs=probs[:12], cands=cands, s300=s300, s20k=s20k)
        fo.write(json.dumps(r) + "\n"); fo.flush()
        rows.append(r)
send("quit")
