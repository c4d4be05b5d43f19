#!/usr/bin/env python3
"""Fits the win/draw/loss model that `UCI_ShowWDL` reports (src/search/wdl.rs) to self-play data,
the way Stockfish fits its own:

    win  = sigmoid(( score - a(m)) / b(m))
    loss = sigmoid((-score - a(m)) / b(m))
    draw = 1 - win - loss

with m the material on the board (1 P + 3 N + 3 B + 5 R + 9 Q, both sides, clamped to
[M_MIN, M_MAX]) and a, b cubic polynomials of x = m / M_SCALE, fitted by maximum likelihood.
The model is symmetric, so White's view (as the data is written) and the side to move's view
(as the search reports) give the same fit.

Data: text lines `<FEN> | <score cp, White's view> | <result for White 1.0/0.5/0.0>`, as
`quintessence datagen --dump` writes them, or match PGNs (`.pgn`) whose move comments carry the
engine's score, as fastchess and cutechess-cli write them (`{+0.35/12 0.123s}`); every move of
such a game counts, so use games in which both engines share the evaluation being fitted, or
`--engine NAME` to take only the moves of the engine that PGN names so. Fit
on one set of games, measure on another (the two files of ../shared/data/selfplay come from
different seeds, so their games are disjoint):

    pip install numpy scipy matplotlib
    scripts/wdl-fit.py --fit data/shared-a.txt --holdout data/shared-b.txt --plot docs/wdl-fit.png

It prints the log-loss on the held-out positions of the fitted model, of the model before this
fit (a fixed logistic without material), of a fit without material and of the bare result
frequencies, and the Rust constants to paste into src/search/wdl.rs. `--every N` takes every
N-th line (to keep the run short). About 30 s for 2 M positions on one core.
"""
import argparse
import re
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

M_MIN, M_MAX, M_SCALE = 4, 78, 58
VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9}
MATE_BOUND = 31_000


def material(placement):
    """The model's material count of a FEN piece placement, lower-cased (both sides)."""
    return sum(placement.count(c) * v for c, v in VALUES.items())


def load(paths, every, engine=None):
    """(score, material, result) arrays; mate scores dropped."""
    scores, materials, results = [], [], []
    for path in paths:
        if path.endswith(".pgn"):
            for i, (score, mat, result) in enumerate(load_pgn(path, engine)):
                if i % every == 0:
                    scores.append(score), materials.append(mat), results.append(result)
            continue
        with open(path) as f:
            for i, line in enumerate(f):
                if i % every:
                    continue
                parts = line.split("|")
                if len(parts) < 3:
                    continue
                placement = parts[0].split(None, 1)[0].lower()
                score = int(parts[1])
                if abs(score) >= MATE_BOUND:
                    continue
                scores.append(score)
                materials.append(material(placement))
                results.append(float(parts[2]))
    return np.array(scores), np.array(materials), np.array(results)


PGN_SCORE = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/\d+")
PGN_RESULTS = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}


def load_pgn(path, engine=None):
    """(score, material, result) of every move of a match PGN whose comment carries the engine's
    score, as fastchess and cutechess-cli write it (`{+0.35/12 0.123s}`, side to move's view, in
    pawns): the score of the position the engine searched, turned to White's view. With `engine`,
    only the moves of the player of that name."""
    import chess.pgn

    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            result = PGN_RESULTS.get(game.headers.get("Result"))
            if result is None:
                continue
            board = game.board()
            sides = {chess.WHITE: game.headers.get("White"), chess.BLACK: game.headers.get("Black")}
            for node in game.mainline():
                found = PGN_SCORE.match(node.comment)
                if found and not found.group(2) and engine in (None, sides[board.turn]):
                    pawns = float(found.group(3)) * (-1 if found.group(1) == "-" else 1)
                    score = round(pawns * 100) * (1 if board.turn == chess.WHITE else -1)
                    yield score, material(board.board_fen().lower()), result
                board.push(node.move)


def group(scores, materials, results):
    """Counts of wins, draws and losses per distinct (score, material): the likelihood only
    depends on these, and there are far fewer of them than positions."""
    key = (scores.astype(np.int64) + 40_000) * 128 + materials
    keys, inverse = np.unique(key, return_inverse=True)
    counts = np.zeros((len(keys), 3))
    for k, r in enumerate((1.0, 0.5, 0.0)):
        counts[:, k] = np.bincount(inverse, weights=results == r, minlength=len(keys))
    return keys // 128 - 40_000, keys % 128, counts


def sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def poly(c, x):
    return ((c[0] * x + c[1]) * x + c[2]) * x + c[3]


def model(params, scores, materials):
    """(win, draw, loss) probabilities of the fitted model."""
    x = np.clip(materials, M_MIN, M_MAX) / M_SCALE
    # b > 0 wherever a fit ends; the floor only keeps the optimiser's trial steps finite.
    a, b = poly(params[:4], x), np.maximum(poly(params[4:], x), 1.0)
    s = np.clip(scores, -4000, 4000)
    win, loss = sigmoid((s - a) / b), sigmoid((-s - a) / b)
    return win, 1.0 - win - loss, loss


def engine_constants():
    """The constants src/search/wdl.rs holds (A then B), the default of `--previous`: a refit
    must beat them on held-out games of the evaluation it is fitted for. Read from the source so
    that they are written in one place."""
    source = (Path(__file__).resolve().parent.parent / "src/search/wdl.rs").read_text()
    constants = []
    for name in ("A", "B"):
        found = re.search(rf"const {name}: \[f64; 4\] = \[([^\]]*)\];", source)
        constants += [float(v) for v in found.group(1).split(",")]
    return constants


def old_model(scores):
    """The hand-set model the engine reported before the first fit (searcher.rs `wdl`)."""
    s = np.clip(scores, -2000, 2000)
    win, loss = sigmoid((s - 200) / 80), sigmoid((-s - 200) / 80)
    return win, 1.0 - win - loss, loss


def log_loss(probs, counts):
    """Mean negative log-likelihood per position, in nats (probabilities floored at 1e-6)."""
    p = np.stack(probs, axis=1).clip(1e-6, 1.0)
    return -(counts * np.log(p)).sum() / counts.sum()


def fit(scores, materials, counts):
    # Start from one (a, b) per material, as Stockfish does, then fit the polynomials to them.
    def nll_const(p, s, c):
        return log_loss(model([0, 0, 0, p[0], 0, 0, 0, p[1]], s, np.full(len(s), M_MIN)), c)

    xs, a_s, b_s, weights = [], [], [], []
    for m in range(M_MIN, M_MAX + 1):
        sel = np.clip(materials, M_MIN, M_MAX) == m
        if counts[sel].sum() < 500:
            continue
        r = minimize(nll_const, [150.0, 150.0], args=(scores[sel], counts[sel]), method="Nelder-Mead")
        xs.append(m / M_SCALE), a_s.append(r.x[0]), b_s.append(abs(r.x[1]))
        weights.append(np.sqrt(counts[sel].sum()))
    start = np.concatenate([np.polyfit(xs, a_s, 3, w=weights), np.polyfit(xs, b_s, 3, w=weights)])
    r = minimize(lambda p: log_loss(model(p, scores, materials), counts), start, method="BFGS")
    if not r.success:
        print(f"note: the optimiser stopped early: {r.message}", file=sys.stderr)
    return r.x


def fit_constant(scores, counts):
    """The same model with a and b constant: what material adds."""
    r = minimize(lambda p: log_loss(model([0, 0, 0, p[0], 0, 0, 0, p[1]], scores, scores * 0), counts),
                 [150.0, 150.0], method="Nelder-Mead")
    return r.x


def plot(path, params, previous, scores, materials, counts, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bands = [(1, 20), (21, 40), (41, 60), (61, 78)]
    fig, axes = plt.subplots(1, len(bands), figsize=(14, 4), sharey=True)
    width = 40
    for ax, (lo, hi) in zip(axes, bands):
        sel = (materials >= lo) & (materials <= hi) & (np.abs(scores) <= 1000)
        s, m, c = scores[sel], materials[sel], counts[sel]
        bins = np.round(s / width).astype(int)
        n = np.bincount(bins + 50, weights=c.sum(axis=1), minlength=101)
        keep = n >= 200
        centre = (np.arange(101) - 50)[keep] * width
        probs, old = model(params, s, m), model(previous, s, m)
        for k, (name, colour) in enumerate((("win", "tab:green"), ("draw", "tab:blue"), ("loss", "tab:red"))):
            total = lambda w: np.bincount(bins + 50, weights=w, minlength=101)[keep] / n[keep]
            ax.plot(centre, total(c[:, k]), "o", ms=3, color=colour, label=f"{name}, measured")
            ax.plot(centre, total(probs[k] * c.sum(axis=1)), "-", color=colour, label=f"{name}, model")
            ax.plot(centre, total(old[k] * c.sum(axis=1)), ":", color=colour, lw=1,
                    label=f"{name}, previous fit")
        ax.set_title(f"material {lo}-{hi}  ({int(c.sum()):,} positions)")
        ax.set_xlabel("search score, cp")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("rate")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, ncol=9, loc="lower center", frameon=False)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    fig.savefig(path, dpi=72)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--fit", nargs="+", required=True, help="data files to fit on")
    p.add_argument("--holdout", nargs="+", required=True, help="data files (other games) to measure on")
    p.add_argument("--every", type=int, default=1, help="take every N-th line")
    p.add_argument("--engine", help="in PGNs, only the moves of the player of this name")
    p.add_argument("--plot", help="PNG of measured vs modelled rates on the held-out data")
    p.add_argument("--previous", type=lambda v: [float(x) for x in v.split(",")], default=None,
                   help="the model to compare with: A then B, 8 numbers separated by commas "
                        "(default: the constants of src/search/wdl.rs)")
    a = p.parse_args()
    if a.previous is None:
        a.previous = engine_constants()
    if len(a.previous) != 8:
        p.error("--previous takes 8 numbers")

    train = group(*load(a.fit, a.every, a.engine))
    test = group(*load(a.holdout, a.every, a.engine))
    print(f"fit on {int(train[2].sum()):,} positions, held out {int(test[2].sum()):,}")
    params = fit(*train)
    const = fit_constant(train[0], train[2])
    freq = train[2].sum(axis=0) / train[2].sum()
    rows = [
        ("fitted model (score, material)", model(params, test[0], test[1])),
        ("fitted, a and b constant", model([0, 0, 0, const[0], 0, 0, 0, const[1]], test[0], test[1])),
        ("previous fit (--previous)", model(a.previous, test[0], test[1])),
        ("old hand-set (searcher.rs)", old_model(test[0])),
        ("result frequencies only", tuple(np.full(len(test[0]), f) for f in freq)),
    ]
    print("held-out log-loss per position (nats):")
    for name, probs in rows:
        print(f"  {name:32s} {log_loss(probs, test[2]):.4f}")
    print(f"fitted model on its own fit data: {log_loss(model(params, *train[:2]), train[2]):.4f}")
    print(f"a, b constant: a = {const[0]:.1f}, b = {const[1]:.1f}")
    x = np.arange(M_MIN, M_MAX + 1) / M_SCALE
    a_m, b_m = poly(params[:4], x), poly(params[4:], x)
    print("m:    " + " ".join(f"{m:5d}" for m in range(M_MIN, M_MAX + 1, 6)))
    print("a(m): " + " ".join(f"{v:5.0f}" for v in a_m[::6]))
    print("b(m): " + " ".join(f"{v:5.0f}" for v in b_m[::6]))
    print("\n// Rust, for src/search/wdl.rs:")
    print(f"const M_MIN: i32 = {M_MIN};\nconst M_MAX: i32 = {M_MAX};\nconst M_SCALE: f64 = {M_SCALE}.0;")
    print("const A: [f64; 4] = [" + ", ".join(f"{v:.6}" for v in params[:4]) + "];")
    print("const B: [f64; 4] = [" + ", ".join(f"{v:.6}" for v in params[4:]) + "];")
    if a.plot:
        n_fit, n_test = int(train[2].sum()), int(test[2].sum())
        plot(a.plot, params, a.previous, *test,
             f"Quintessence self-play: measured (dots, {n_test:,} held-out positions) vs the model fitted on "
             f"{n_fit:,} other positions (lines) and the previous fit (dotted)")
        print(f"\nplot: {a.plot}")


if __name__ == "__main__":
    main()
