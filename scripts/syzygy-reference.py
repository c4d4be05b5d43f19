#!/usr/bin/env python3
"""Random positions with at most four pieces, valued by python-chess's Syzygy prober.

    scripts/syzygy-reference.py [--count 500] [--seed 1] [--tables tests/data/syzygy]
                                [--out tests/data/syzygy-reference.txt]
    scripts/syzygy-reference.py --check target/release/quintessence [--tables ../shared/data/syzygy]

Writes one `FEN;WDL;DTZ` line per position (WDL -2..2 and DTZ as chess.syzygy's probe_wdl and
probe_dtz give them, for the side to move). Only material whose tables (and those one capture or
promotion away) are in `--tables` is drawn, so the reference fits the subset of tables kept in
tests/data/syzygy. tests/uci/tablebase.rs
compares the engine's prober with that file; `--check` instead runs `quintessence tbprobe` on
fresh positions and compares at once.
Needs python-chess (`pip install chess`).
"""
import argparse
import os
import random
import subprocess
import sys

import chess
import chess.syzygy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIECES = "QRBNP"


def random_position(rng):
    while True:
        board = chess.Board(None)
        extra = rng.randint(1, 2)
        squares = rng.sample(chess.SQUARES, 2 + extra)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[2:]:
            kind = chess.Piece.from_symbol(rng.choice(PIECES)).piece_type
            if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                break
            board.set_piece_at(sq, chess.Piece(kind, rng.random() < 0.5))
        else:
            board.turn = rng.random() < 0.5
            if board.is_valid() and not board.is_game_over():
                return board


def material(white, black):
    """Table name of a material split, e.g. ("KRP", "K") -> KRPvK or KvKRP."""
    order = "KQRBNP"
    return ["".join(sorted(white, key=order.index)), "".join(sorted(black, key=order.index))]


def successors(white, black):
    """Material splits one capture or one promotion away (the prober needs their tables too)."""
    for side, other in ((white, black), (black, white)):
        for i, piece in enumerate(other):
            if piece != "K":
                yield side, other[:i] + other[i + 1:]
        for i, piece in enumerate(side):
            if piece == "P":
                for promoted in "QRBN":
                    yield side[:i] + promoted + side[i + 1:], other


def has_tables(tables, board):
    """Whether the position's WDL and DTZ tables are in `tables`, and those of every material one
    capture or promotion away (python-chess answers some positions from their captures alone, the
    engine's root probe needs them all)."""
    def present(white, black):
        if len(white) + len(black) == 2 or sorted(white + black) in (list("BKK"), list("KKN")):
            return True  # no table: always a draw
        names = ["v".join(material(white, black)), "v".join(material(black, white))]
        return any(all(os.path.exists(os.path.join(tables, name + ext)) for ext in (".rtbw", ".rtbz"))
                   for name in names)

    white = [p.symbol() for p in board.piece_map().values() if p.color == chess.WHITE]
    black = [p.symbol().upper() for p in board.piece_map().values() if p.color == chess.BLACK]
    sides = ["".join(white), "".join(black)]
    return present(*sides) and all(present(w, b) for w, b in successors(*sides))


def positions(count, seed, tables):
    rng = random.Random(seed)
    with chess.syzygy.open_tablebase(tables) as tb:
        made = 0
        while made < count:
            board = random_position(rng)
            if not has_tables(tables, board):
                continue
            wdl, dtz = tb.probe_wdl(board), tb.probe_dtz(board)
            made += 1
            yield board.fen(), wdl, dtz


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tables", default=os.path.join(ROOT, "tests", "data", "syzygy"))
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "syzygy-reference.txt"))
    ap.add_argument("--check", metavar="ENGINE", help="compare with `ENGINE tbprobe` instead of writing")
    args = ap.parse_args()

    rows = list(positions(args.count, args.seed, args.tables))
    if args.check:
        fens = "".join(f"{fen}\n" for fen, _, _ in rows)
        out = subprocess.run([args.check, "tbprobe", args.tables], input=fens, capture_output=True,
                             text=True, check=True).stdout.splitlines()
        bad = 0
        for (fen, wdl, dtz), line in zip(rows, out):
            got = line.split()
            if got[:2] != [str(wdl), str(dtz)]:
                bad += 1
                print(f"{fen}: python-chess {wdl} {dtz}, engine {line}")
        print(f"{len(rows)} positions, {bad} differences")
        sys.exit(1 if bad or len(out) != len(rows) else 0)
    with open(args.out, "w") as f:
        f.write(f"# {args.count} random positions (seed {args.seed}) with tables in tests/data/syzygy, "
                f"WDL and DTZ from python-chess {chess.__version__}; made by scripts/syzygy-reference.py\n")
        for fen, wdl, dtz in rows:
            f.write(f"{fen};{wdl};{dtz}\n")
    print(f"wrote {len(rows)} positions to {args.out}")


if __name__ == "__main__":
    main()
