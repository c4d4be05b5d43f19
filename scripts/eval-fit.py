#!/usr/bin/env python3
"""How well static evaluations predict self-play data: for text lines `FEN | score | result`
(White's view), the mean squared error of sigmoid(eval * K / 400) against the game result and
against sigmoid(score / 400), at the best K, for the hand-crafted evaluation and for networks.

    scripts/eval-fit.py data.txt [--count N] [--net a.nnue --net b.nnue ...]
"""
import argparse, math, re, subprocess

p = argparse.ArgumentParser()
p.add_argument("data")
p.add_argument("--count", type=int, default=2000)
p.add_argument("--engine", default="target/release/quintessence")
p.add_argument("--net", action="append", default=[])
a = p.parse_args()

rows = []
with open(a.data) as f:
    for line in f:
        fen, score, result = [x.strip() for x in line.split("|")[:3]]
        rows.append((fen, int(score), float(result)))
step = max(1, len(rows) // a.count)
rows = rows[::step][: a.count]


def evals(net):
    cmds = [f"setoption name EvalFile value {net}"] if net else []
    for fen, _, _ in rows:
        cmds += [f"position fen {fen}", "eval"]
    out = subprocess.run([a.engine], input="\n".join(cmds + ["quit"]) + "\n",
                         capture_output=True, text=True).stdout
    hce = [int(x) for x in re.findall(r"\nevaluation: (-?\d+) cp \(White\)", out)]
    nn = [int(x) for x in re.findall(r"network: (-?\d+) cp \(White\)", out)]
    return hce, nn


sig = lambda x: 1 / (1 + math.exp(-max(-50, min(50, x))))


def fit(values, target):
    best = min((sum((sig(v * k / 20 / 400) - t) ** 2 for v, t in zip(values, target)) / len(values), k / 20)
               for k in range(4, 60))
    return best


results = [r[2] for r in rows]
scores = [sig(r[1] / 400) for r in rows]
hce, _ = evals(None)
print(f"{len(rows)} positions")
for name, vals in [("search score", [r[1] for r in rows]), ("hce", hce)] + [
        (net, evals(net)[1]) for net in a.net]:
    (mr, kr), (ms, ks) = fit(vals, results), fit(vals, scores)
    print(f"{name:40} result mse {mr:.5f} (K {kr:.2f})   score mse {ms:.5f} (K {ks:.2f})")
