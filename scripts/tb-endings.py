#!/usr/bin/env python3
"""How well the engine judges 3- and 4-piece endings without tablebases.

Random legal positions of the materials whose tables are in --syzygy are labelled won,
drawn or lost for the side to move by the tables (python-chess probes them; a win or loss
the 50-move rule spoils counts as drawn), an equal number of each where the tables allow.
The engine, run without SyzygyPath, searches each to --nodes and its score is compared with
the label: a won position should score at least +MARGIN (or a mate for the side to move), a
drawn one within ±MARGIN, a lost one at most -MARGIN. This is the check of the network's
smallest output bucket (2-5 pieces), which games that stop at the first tablebase hit never
taught.

Needs python-chess (pip install chess). Prints per class and per material how many positions
were judged right and the mean score; exit status 0, or 2 on a usage error.

Examples:
  scripts/tb-endings.py --syzygy <3-4-piece tables> --positions 600
  scripts/tb-endings.py --option EvalFile=nets/g16w.nnue --nodes 1
"""

import argparse
import random
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

try:
    import chess
    import chess.syzygy
except ImportError:
    sys.exit("tb-endings.py needs python-chess: pip install chess")

REPO_ROOT = Path(__file__).resolve().parent.parent
CLASSES = ("won", "drawn", "lost")
SCORE = re.compile(r"\bscore (cp|mate) (-?\d+)")


def materials(folder):
    """The materials ("KRvKP") of the .rtbw tables in `folder` with 3 or 4 pieces."""
    names = sorted(p.stem for p in Path(folder).glob("*.rtbw"))
    # KNvK and KBvK are drawn by the rules alone (insufficient material): nothing to judge,
    # and random_position would never find one that is not over.
    return [n for n in names if len(n.replace("v", "")) in (3, 4) and n not in ("KNvK", "KBvK")]


def random_position(material, rng):
    """A random legal position of `material` (White the first side), either side to move, not
    already over (mate, stalemate, insufficient material)."""
    white, black = material.split("v")
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, len(white) + len(black))
        for color, side in ((chess.WHITE, white), (chess.BLACK, black)):
            for letter in side:
                piece = chess.Piece.from_symbol(letter if color else letter.lower())
                board.set_piece_at(squares.pop(), piece)
        board.turn = rng.choice((chess.WHITE, chess.BLACK))
        if board.is_valid() and not board.is_game_over():
            return board


def label(tables, board):
    """won, drawn or lost for the side to move (cursed wins and blessed losses: drawn)."""
    wdl = tables.probe_wdl(board)
    return "won" if wdl == 2 else "lost" if wdl == -2 else "drawn"


def sample(tables, folder, count, rng):
    """Up to `count` positions, a third of each class where the tables give enough of it."""
    kinds = materials(folder)
    if not kinds:
        sys.exit(f"tb-endings.py: no 3-4-piece tables in {folder}")
    wanted = {c: count // 3 for c in CLASSES}
    found = []
    for _ in range(count * 200):
        if not any(wanted.values()):
            break
        material = rng.choice(kinds)
        board = random_position(material, rng)
        kind = label(tables, board)
        if wanted[kind]:
            wanted[kind] -= 1
            found.append((material, board.fen(), kind))
    return found


class Engine:
    def __init__(self, command, options):
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("setoption name SyzygyPath value <empty>")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait(self, token):
        lines = []
        for line in self.proc.stdout:
            lines.append(line.strip())
            if line.startswith(token):
                return lines
        sys.exit(f"tb-endings.py: the engine stopped before '{token}'")

    def score(self, fen, nodes):
        """The last reported score of a search of `fen`, in centipawns for the side to move
        (a mate: ±100 000)."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        score = None
        for line in self.wait("bestmove"):
            found = SCORE.search(line)
            if found:
                kind, value = found.group(1), int(found.group(2))
                score = value if kind == "cp" else (100_000 if value > 0 else -100_000)
        return 0 if score is None else score

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def right(kind, score, margin):
    return {
        "won": score >= margin,
        "drawn": abs(score) < margin,
        "lost": score <= -margin,
    }[kind]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default=str(REPO_ROOT / "target/release/quintessence"))
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option for the engine (repeatable)")
    parser.add_argument("--syzygy", default=str(REPO_ROOT / "tests/data/syzygy"),
                        help="folder of 3-4-piece tables (default: the test subset)")
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--margin", type=int, default=100, help="centipawns (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    options = []
    for item in args.option:
        if "=" not in item:
            parser.error(f"--option {item}: expected NAME=VALUE")
        options.append(tuple(item.split("=", 1)))

    rng = random.Random(args.seed)
    with chess.syzygy.open_tablebase(args.syzygy) as tables:
        positions = sample(tables, args.syzygy, args.positions, rng)
    engine = Engine([args.engine], options)
    by_class = defaultdict(lambda: [0, 0, 0])  # right, count, score sum
    by_material = defaultdict(lambda: [0, 0])
    for material, fen, kind in positions:
        score = engine.score(fen, args.nodes)
        ok = right(kind, score, args.margin)
        by_class[kind][0] += ok
        by_class[kind][1] += 1
        by_class[kind][2] += max(-2000, min(2000, score))
        by_material[material][0] += ok
        by_material[material][1] += 1
    engine.quit()

    total_right = sum(v[0] for v in by_class.values())
    print(f"{len(positions)} positions, {args.nodes} nodes, margin {args.margin} cp, "
          f"options {options or 'none'}")
    for kind in CLASSES:
        ok, n, s = by_class[kind]
        if n:
            print(f"  {kind:5}: {ok}/{n} right ({100 * ok / n:.1f} %), "
                  f"mean score {s / n:+.0f} cp (clamped to ±2000)")
    print("  by material: " + ", ".join(
        f"{m} {ok}/{n}" for m, (ok, n) in sorted(by_material.items())))
    print(f"right: {total_right}/{len(positions)} "
          f"({100 * total_right / max(1, len(positions)):.1f} %)")


if __name__ == "__main__":
    main()
