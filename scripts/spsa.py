#!/usr/bin/env python3
"""SPSA tuning of the search parameters (src/search/params.rs) with fastchess.

The engine must be a tuning build, which offers every parameter as a UCI spin option:

    cargo build --release --features spsa --target-dir target/spsa

Each iteration perturbs every tuned parameter by +c or -c (a random sign per parameter),
plays game pairs (each opening with both colours) between the two perturbed engines, and
moves the parameters towards the side that scored better. The gains follow the usual
schedule (Spall; as fishtest and OpenBench use it): c_k = c / k^0.101,
a_k = a / (A + k)^0.602 with A = N/10, chosen so that at the last iteration the step is
c_end = range/20 (at least 1) and the learning rate a_end / c_end^2 is --r-end.

The state (iteration, values, results) is saved after every iteration in --state, so a stopped
run continues where it was. At the end, and with --show, the values are printed in
params.rs's syntax.

Examples:
  scripts/spsa.py --engine target/spsa/release/quintessence --tc 2+0.02 --iterations 2000 \\
      --state data/spsa/run1.json
  scripts/spsa.py --engine target/spsa/release/quintessence --nodes 10000 --only '^(RFP|LMR)_' \\
      --iterations 1000 --state data/spsa/run2.json
  scripts/spsa.py --engine target/spsa/release/quintessence --nodes 10000 \\
      --bound LMR_BASE=60..100 --bound LMR_DIVISOR=200..300 --state data/spsa/run3.json
  scripts/spsa.py --state data/spsa/run1.json --show
  scripts/spsa.py --selftest
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BOOK = REPO_ROOT / "tests" / "data" / "books" / "balanced-8ply.epd"
ALPHA, GAMMA = 0.602, 0.101
# Depth gates move in whole plies, where a step of c is too coarse for SPSA.
DEFAULT_EXCLUDE = r"(_MIN_DEPTH|_MAX_DEPTH)$"
PARAM_NAME = re.compile(r"^[A-Z][A-Z0-9_]+$")


def engine_params(engine):
    """The tuning build's parameters: {name: (default, min, max)} from its `uci` answer."""
    out = subprocess.run(
        [engine], input="uci\nquit\n", capture_output=True, text=True, timeout=30
    ).stdout
    params = {}
    for line in out.splitlines():
        m = re.match(r"option name (\S+) type spin default (-?\d+) min (-?\d+) max (-?\d+)$", line)
        if m and PARAM_NAME.match(m.group(1)):
            params[m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
    if not params:
        sys.exit(f"{engine} lists no parameters: build it with --features spsa")
    return params


class Spsa:
    """The SPSA state: every tuned parameter's value and range, and the gain schedule."""

    def __init__(self, params, iterations, r_end):
        self.iterations = iterations
        self.k = 0
        self.params = {}
        for name, (default, lo, hi) in params.items():
            c_end = max((hi - lo) / 20, 1.0)
            self.params[name] = {
                "value": float(default),
                "min": lo,
                "max": hi,
                "c_end": c_end,
                "a_end": r_end * c_end**2,
            }
        self.history = []

    def gains(self, name):
        """(a_k, c_k) of this iteration for one parameter."""
        p, n = self.params[name], self.iterations
        big_a = n / 10
        c = p["c_end"] * n**GAMMA
        a = p["a_end"] * (big_a + n) ** ALPHA
        return a / (big_a + self.k + 1) ** ALPHA, c / (self.k + 1) ** GAMMA

    def perturb(self, rng):
        """The signs and the two engines' (integer) values for this iteration."""
        signs, plus, minus = {}, {}, {}
        for name, p in self.params.items():
            _, c_k = self.gains(name)
            signs[name] = rng.choice((-1, 1))
            for side, sign in ((plus, 1), (minus, -1)):
                v = p["value"] + sign * signs[name] * c_k
                side[name] = int(round(min(max(v, p["min"]), p["max"])))
        return signs, plus, minus

    def update(self, signs, result):
        """`result`: the plus engine's wins minus its losses in this iteration's games."""
        for name, p in self.params.items():
            a_k, c_k = self.gains(name)
            v = p["value"] + a_k / c_k * result * signs[name]
            p["value"] = min(max(v, p["min"]), p["max"])
        self.history.append(result)
        self.k += 1

    def save(self, path):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.__dict__, indent=1))
        tmp.replace(path)

    @classmethod
    def load(cls, path):
        spsa = cls.__new__(cls)
        spsa.__dict__.update(json.loads(path.read_text()))
        return spsa

    def show(self):
        for name, p in self.params.items():
            print(f"    {name} = {round(p['value'])};  // {p['value']:.2f}")


def play(args, plus, minus, seed):
    """Plays --pairs game pairs; returns (wins, draws, losses) of the plus engine."""
    with tempfile.TemporaryDirectory() as tmp:
        pgn = Path(tmp) / "games.pgn"
        argv = ["fastchess"]
        for name, values in (("plus", plus), ("minus", minus)):
            argv += ["-engine", f"cmd={args.engine}", f"name={name}"]
            argv += [f"option.{k}={v}" for k, v in values.items()]
        limit = [f"tc={args.tc}"] if not args.nodes else ["tc=inf", f"nodes={args.nodes}"]
        argv += ["-each", *limit, "option.Hash=16", "option.Threads=1", "proto=uci"]
        argv += ["-openings", f"file={args.book}", "format=epd", "order=random"]
        argv += ["-srand", str(seed), "-repeat", "-games", "2", "-rounds", str(args.pairs)]
        argv += ["-concurrency", str(args.concurrency), "-pgnout", f"file={pgn}"]
        if args.adjudicate:
            # Shorter games, the same signal in the middlegame: decided games end at a
            # lasting 10-pawn score, dead draws after move 40.
            argv += ["-resign", "movecount=3", "score=1000", "-draw", "movenumber=40", "movecount=8", "score=10"]
        if args.nodes and args.concurrency > (os.cpu_count() or 1):
            # At fixed nodes a game's moves do not depend on the CPU it gets, and the
            # extra games fill the gaps between moves and between games.
            argv.append("-force-concurrency")
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
        text = pgn.read_text()
    wins = draws = losses = 0
    for game in re.split(r"\n(?=\[Event )", text.strip()):
        white = re.search(r'\[White "([^"]*)"\]', game).group(1)
        result = re.search(r'\[Result "([^"]*)"\]', game).group(1)
        if result == "1/2-1/2":
            draws += 1
        elif result in ("1-0", "0-1"):
            if (result == "1-0") == (white == "plus"):
                wins += 1
            else:
                losses += 1
        # An unfinished game ("*") counts for neither side.
    return wins, draws, losses


def parse_bounds(specs):
    """`NAME=LO..HI` → (name, lo, hi), with LO < HI."""
    bounds = []
    for spec in specs:
        m = re.fullmatch(r"([A-Z][A-Z0-9_]+)=(-?\d+)\.\.(-?\d+)", spec)
        if not m or int(m.group(2)) >= int(m.group(3)):
            sys.exit(f"--bound {spec!r}: expected NAME=LO..HI with LO < HI")
        bounds.append((m.group(1), int(m.group(2)), int(m.group(3))))
    return bounds


def selftest():
    """SPSA on a noisy quadratic with a known optimum: the values must move most of the way
    there (a check of the gain schedule and of the update's sign)."""
    rng = random.Random(1)
    optimum = {"A": 120.0, "B": 30.0}
    params = {"A": (75, 0, 300), "B": (60, 0, 150)}
    spsa = Spsa(params, iterations=3000, r_end=0.002)

    def win_rate(values):
        loss = sum(((values[n] - optimum[n]) / 60) ** 2 for n in optimum)
        return 1 / (1 + math.exp(loss))

    while spsa.k < spsa.iterations:
        signs, plus, minus = spsa.perturb(rng)
        # Two games: each a win for plus with the probability its edge gives it.
        edge = 0.5 + 2 * (win_rate(plus) - win_rate(minus))
        result = sum((rng.random() < edge) - (rng.random() > edge) for _ in range(2))
        spsa.update(signs, result)
    for name, target in optimum.items():
        start = params[name][0]
        got = spsa.params[name]["value"]
        print(f"{name}: start {start}, optimum {target}, SPSA {got:.1f}")
        if abs(got - target) > abs(start - target) / 2:
            sys.exit(f"selftest failed: {name} did not move halfway to its optimum")
    print("selftest ok")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", help="a tuning build (--features spsa)")
    ap.add_argument("--state", type=Path, help="JSON file: created, or continued")
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--nodes", type=int, help="play at this many nodes a move instead of --tc")
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--pairs", type=int, default=2, help="game pairs per iteration")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--r-end", type=float, default=0.002)
    ap.add_argument("--book", default=str(DEFAULT_BOOK))
    ap.add_argument("--only", help="regex: tune only the parameters it matches")
    ap.add_argument("--exclude", default=DEFAULT_EXCLUDE, help=f"regex (default {DEFAULT_EXCLUDE!r})")
    ap.add_argument(
        "--bound",
        action="append",
        default=[],
        metavar="NAME=LO..HI",
        help="tune NAME within LO..HI instead of its params.rs range (repeatable; sets the step too)",
    )
    ap.add_argument("--adjudicate", action="store_true", help="end decided games and dead draws early")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", action="store_true", help="print the state's values and stop")
    ap.add_argument("--selftest", action="store_true")
    args = ap.parse_args()

    if args.selftest:
        return selftest()
    if not args.state:
        ap.error("--state is required")
    if args.state.exists():
        spsa = Spsa.load(args.state)
        if args.show:
            return spsa.show()
    elif args.show:
        ap.error(f"{args.state} does not exist")
    if not args.engine:
        ap.error("--engine is required")
    if not args.nodes and args.concurrency > (os.cpu_count() or 1):
        ap.error("more games at once than cores distorts a timed game: use --nodes or less --concurrency")
    if not shutil.which("fastchess"):
        sys.exit("fastchess is not on PATH")
    if not args.state.exists():
        params = {
            name: spec
            for name, spec in engine_params(args.engine).items()
            if (not args.only or re.search(args.only, name))
            and not (args.exclude and re.search(args.exclude, name))
        }
        for name, lo, hi in parse_bounds(args.bound):
            if name not in params:
                ap.error(f"--bound {name}: not a tuned parameter")
            default = min(max(params[name][0], lo), hi)
            params[name] = (default, lo, hi)
        spsa = Spsa(params, args.iterations, args.r_end)
        print(f"tuning {len(params)} parameters: {', '.join(params)}")

    while spsa.k < spsa.iterations:
        rng = random.Random(args.seed * 1_000_003 + spsa.k)
        signs, plus, minus = spsa.perturb(rng)
        w, d, l = play(args, plus, minus, args.seed * 1_000_003 + spsa.k)
        spsa.update(signs, w - l)
        spsa.save(args.state)
        total = sum(spsa.history)
        print(f"iteration {spsa.k}/{spsa.iterations}: plus {w}/{d}/{l}, sum of results {total}", flush=True)
    spsa.show()


if __name__ == "__main__":
    main()
