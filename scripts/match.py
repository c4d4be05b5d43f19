#!/usr/bin/env python3
"""Play a match or an SPRT between two chess engines and report the result.

Three runners can play the games:

  fastchess      builds and runs a fastchess command line (UCI engines only)
  cutechess      builds and runs a cutechess-cli command line (UCI and xboard)
  python         a built-in runner on python-chess (`pip install chess`),
                 UCI and xboard, with its own clocks and rule adjudication

`--runner auto` (the default) picks fastchess if it is on PATH and both engines
speak UCI, else cutechess-cli if it is on PATH, else the python runner.  If
fastchess is asked for an xboard engine the script says so and falls back to
the python runner.

Every opening (EPD/FEN lines, by default tests/data/books/balanced-8ply.epd
relative to the repository root) is played twice with colours reversed; the
openings are shuffled with --seed.  At the end the script prints, from
engine1's point of view: games, W/D/L, score, Elo difference with a 95% error
bar (trinomial and, where game pairs are complete, pentanomial), draw ratio,
time losses, illegal moves and crashes per engine, and in SPRT mode the LLR
with its bounds and the decision (H0, H1 or continue).

The SPRT LLR of the python runner is the usual normal approximation of the
GSPRT on the trinomial (W/D/L) in logistic Elo, as fishtest and cutechess
"LLR" compute it.  With fastchess the script asks for its logistic model and
prints its own (pentanomial) LLR; cutechess-cli prints its own LLR in its
BayesElo model.  The script's trinomial LLR is printed in all cases.

Exit status: 0 normally, 1 when an engine made an illegal move or crashed
(disconnected, stalled), 2 on a usage or setup error.

Examples:
  scripts/match.py --engine1 target/release/quintessence --engine2 stockfish \\
      --option2 "Skill Level=3" --tc 10+0.1 --games 200 --concurrency 2
  scripts/match.py --engine1 ./new --engine2 ./old --tc 5+0.05 --sprt 0,5
  scripts/match.py --engine1 stockfish --engine2 phalanx --proto2 xboard \\
      --tc 2+0.02 --games 8 --runner python --pgn games.pgn
"""

import argparse
import math
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BOOK = REPO_ROOT / "tests" / "data" / "books" / "balanced-8ply.epd"
# Debian installs its chess engines in /usr/games, which is often not on PATH.
EXTRA_BIN_DIRS = ["/usr/games", "/usr/local/games"]

Z95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution
# The normal approximation of the LLR is meaningless on a handful of games (one
# win gives a huge LLR): the python runner takes no SPRT decision before this.
SPRT_MIN_GAMES = 16


# ---------------------------------------------------------------------------
# Time control
# ---------------------------------------------------------------------------

@dataclass
class TimeControl:
    """`moves/base+inc`, all times in seconds; moves == 0 means sudden death."""
    moves: int
    base: float
    inc: float

    @staticmethod
    def parse(text):
        m = re.fullmatch(r"\s*(?:(\d+)/)?([0-9.:]+)(?:\+([0-9.]+))?\s*", text)
        if not m:
            raise ValueError(f"bad time control {text!r} (want base+inc or moves/base+inc, in seconds)")
        moves = int(m.group(1) or 0)
        base_text = m.group(2)
        if ":" in base_text:  # minutes:seconds, as cutechess allows
            minutes, seconds = base_text.split(":", 1)
            base = 60 * float(minutes) + float(seconds)
        else:
            base = float(base_text)
        inc = float(m.group(3) or 0)
        if base <= 0:
            raise ValueError(f"time control {text!r} has no base time")
        return TimeControl(moves, base, inc)

    def __str__(self):
        text = f"{self.base:g}"
        if self.inc:
            text += f"+{self.inc:g}"
        if self.moves:
            text = f"{self.moves}/{text}"
        return text

    def pgn_header(self):
        text = f"{self.base:g}"
        if self.moves:
            text = f"{self.moves}/{text}"
        if self.inc:
            text += f"+{self.inc:g}"
        return text


# ---------------------------------------------------------------------------
# Statistics: Elo, error bars, SPRT
# ---------------------------------------------------------------------------

def elo_from_score(score):
    """Logistic Elo difference for an expected score in (0, 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_interval(score, stderr):
    """Elo and the half-width of its 95% interval, from a score and its standard error."""
    elo = elo_from_score(score)
    lo = elo_from_score(score - Z95 * stderr)
    hi = elo_from_score(score + Z95 * stderr)
    return elo, (hi - lo) / 2.0


def trinomial_elo(wins, draws, losses):
    """(elo, error95) from W/D/L: the error uses the standard deviation of per-game scores."""
    n = wins + draws + losses
    if n == 0:
        return 0.0, math.inf
    s = (wins + 0.5 * draws) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    return elo_interval(s, math.sqrt(var / n))


def pentanomial_elo(penta):
    """(elo, error95) from game-pair counts [LL, LD, DD+WL, WD, WW] (pair scores 0..2)."""
    pairs = sum(penta)
    if pairs == 0:
        return 0.0, math.inf
    values = [0.0, 0.25, 0.5, 0.75, 1.0]  # pair score / 2, comparable with a game score
    s = sum(c * v for c, v in zip(penta, values)) / pairs
    var = sum(c * (v - s) ** 2 for c, v in zip(penta, values)) / pairs
    return elo_interval(s, math.sqrt(var / pairs))


def sprt_bounds(alpha, beta):
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(wins, draws, losses, elo0, elo1):
    """GSPRT log-likelihood ratio on the trinomial, normal approximation, logistic Elo.

    LLR = N * (s1 - s0) * (2*s - s0 - s1) / (2 * var), with s the mean game
    score, var the per-game score variance and s0/s1 the scores expected at
    elo0/elo1.  Empty cells are regularised as fishtest does.
    """
    if wins + draws + losses == 0:
        return 0.0
    eps = 1e-3
    w, d, l = (max(x, eps) for x in (wins, draws, losses))
    n = w + d + l
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)


def sprt_decision(llr, lower, upper, games=SPRT_MIN_GAMES):
    if games < SPRT_MIN_GAMES:
        return "continue"
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return "continue"


def fmt_elo(elo, err):
    e = f"{elo:+.1f}"
    r = "inf" if math.isinf(err) or math.isnan(err) else f"{err:.1f}"
    return f"{e} +/- {r}"


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

@dataclass
class GameRecord:
    number: int          # 1-based game number; games 2k-1 and 2k share an opening
    score1: float        # engine1's score: 1, 0.5 or 0
    reason: str
    fault: str = ""      # "time", "illegal" or "crash" when a game was lost by such a fault
    fault_engine: int = 0  # 1 or 2: which engine is at fault


@dataclass
class Summary:
    games: list = field(default_factory=list)
    external_llr: str = ""      # the runner's own LLR line, if any
    external_result: str = ""   # the runner's own final W/D/L line, if any
    interrupted: bool = False

    def wdl(self):
        w = sum(1 for g in self.games if g.score1 == 1)
        d = sum(1 for g in self.games if g.score1 == 0.5)
        l = sum(1 for g in self.games if g.score1 == 0)
        return w, d, l

    def pentanomial(self):
        pairs = {}
        for g in self.games:
            pairs.setdefault((g.number - 1) // 2, []).append(g.score1)
        penta = [0] * 5
        for scores in pairs.values():
            if len(scores) == 2:
                penta[int(round(2 * sum(scores)))] += 1
        return penta

    def faults(self, kind, engine):
        return sum(1 for g in self.games if g.fault == kind and g.fault_engine == engine)


def print_report(summary, name1, name2, sprt=None):
    """Final report; returns True if an engine made an illegal move or crashed."""
    w, d, l = summary.wdl()
    n = w + d + l
    print()
    print("=" * 64)
    print(f"Match: {name1} (engine1) vs {name2} (engine2)" + ("  [interrupted]" if summary.interrupted else ""))
    if summary.external_result:
        print(f"Runner's own result: {summary.external_result}")
    print(f"Games: {n}   W/D/L (engine1): {w}/{d}/{l}")
    if n:
        score = (w + 0.5 * d) / n
        print(f"Score: {100 * score:.1f}%   Draw ratio: {100 * d / n:.1f}%")
        elo, err = trinomial_elo(w, d, l)
        print(f"Elo difference: {fmt_elo(elo, err)} (95%, trinomial)")
        penta = summary.pentanomial()
        if sum(penta):
            pelo, perr = pentanomial_elo(penta)
            print(f"Pentanomial [0, 0.5, 1, 1.5, 2]: {penta}   Elo: {fmt_elo(pelo, perr)} (95%, {sum(penta)} pairs)")
    for i, name in ((1, name1), (2, name2)):
        print(f"{name}: time losses {summary.faults('time', i)}, illegal moves {summary.faults('illegal', i)}, "
              f"crashes {summary.faults('crash', i)}")
    if sprt:
        elo0, elo1, alpha, beta = sprt
        lower, upper = sprt_bounds(alpha, beta)
        llr = sprt_llr(w, d, l, elo0, elo1)
        print(f"SPRT [{elo0:g}, {elo1:g}] alpha={alpha:g} beta={beta:g}: "
              f"LLR {llr:.2f} (trinomial) bounds [{lower:.2f}, {upper:.2f}]")
        decision = sprt_decision(llr, lower, upper, n)
        if summary.external_llr:
            print(f"Runner's own LLR: {summary.external_llr}")
            m = re.search(r"(-?\d+(?:\.\d+)?)", summary.external_llr.split("llr")[-1])
            if m:
                decision = sprt_decision(float(m.group(1)), lower, upper)
        verdict = {"H1": "H1 accepted (engine1 is stronger by elo1 rather than elo0)",
                   "H0": "H0 accepted (engine1 is not stronger by elo1)",
                   "continue": "continue (no decision yet)"}[decision]
        if decision == "continue" and n < SPRT_MIN_GAMES:
            verdict += f" - fewer than {SPRT_MIN_GAMES} games"
        print(f"SPRT decision: {verdict}")
    bad = any(g.fault in ("illegal", "crash") for g in summary.games)
    if bad:
        print("!!! An engine made an illegal move or crashed: see above. Exit status 1.")
    print("=" * 64)
    return bad


# ---------------------------------------------------------------------------
# Engines and openings
# ---------------------------------------------------------------------------

@dataclass
class EngineSpec:
    cmd: list        # argv; cmd[0] resolved to an absolute path
    name: str
    proto: str       # "uci" or "xboard"
    options: dict


def resolve_command(command):
    argv = shlex.split(command)
    if not argv:
        raise ValueError("empty engine command")
    exe = argv[0]
    if os.sep in exe:
        path = Path(exe).expanduser().resolve()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise ValueError(f"engine {exe!r} is not an executable file")
        argv[0] = str(path)
        return argv
    found = shutil.which(exe) or shutil.which(exe, path=os.pathsep.join(EXTRA_BIN_DIRS))
    if not found:
        raise ValueError(f"engine {exe!r} not found on PATH nor in {', '.join(EXTRA_BIN_DIRS)}")
    argv[0] = found
    return argv


def parse_options(items):
    options = {}
    for item in items or []:
        if "=" not in item:
            raise ValueError(f"bad option {item!r}, want Name=Value")
        key, value = item.split("=", 1)
        options[key.strip()] = value.strip()
    return options


def read_openings(path):
    """FEN strings from an EPD or FEN file, one position per line."""
    import chess
    fens = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split(";")[0].split()
            if len(fields) < 4:
                print(f"warning: {path}:{lineno}: not a position, skipped", file=sys.stderr)
                continue
            fen = " ".join(fields[:4])
            if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
                fen += f" {fields[4]} {fields[5]}"
            else:
                fen += " 0 1"
            try:
                chess.Board(fen)
            except ValueError as err:
                print(f"warning: {path}:{lineno}: {err}, skipped", file=sys.stderr)
                continue
            fens.append(fen)
    if not fens:
        raise ValueError(f"no positions in {path}")
    return fens


# ---------------------------------------------------------------------------
# Built-in runner on python-chess
# ---------------------------------------------------------------------------

class PythonRunner:
    """Plays the games itself in `concurrency` threads, each with its own two engine processes."""

    def __init__(self, args, engines, openings):
        import chess
        import chess.engine
        import chess.pgn
        self.chess = chess
        self.args = args
        self.engines = engines          # {1: EngineSpec, 2: EngineSpec}
        self.openings = openings
        self.tc = args.tc
        self.summary = Summary()
        self.lock = threading.Lock()
        self.next_game = 0
        self.stop = threading.Event()
        self.fatal = None
        self.sprt = args.sprt_params
        self.live = set()               # every engine process running, to kill on interrupt

    # -- engine processes ---------------------------------------------------

    def open_engine(self, idx):
        spec = self.engines[idx]
        popen = (self.chess.engine.SimpleEngine.popen_uci if spec.proto == "uci"
                 else self.chess.engine.SimpleEngine.popen_xboard)
        stderr = None if self.args.verbose else subprocess.DEVNULL
        engine = popen(spec.cmd, timeout=self.args.startup_timeout, stderr=stderr, setpgrp=True)
        with self.lock:
            self.live.add(engine)
        if spec.options:
            engine.configure(spec.options)
        return engine

    def kill_engine(self, engine):
        if engine is None:
            return
        with self.lock:
            self.live.discard(engine)
        try:
            os.kill(engine.transport.get_pid(), signal.SIGKILL)
        except (OSError, TypeError, AttributeError):
            pass
        try:
            engine.close()
        except Exception:
            pass

    def quit_engine(self, engine):
        try:
            engine.quit()
        except Exception:
            pass
        self.kill_engine(engine)

    def new_game(self, engine, key):
        """Send ucinewgame + isready before the clock starts, so that clearing the
        hash is not charged to the engine's first move.  Relies on python-chess
        internals; if they change, python-chess sends ucinewgame itself in play()."""
        proto = engine.protocol
        if not isinstance(proto, self.chess.engine.UciProtocol):
            return
        try:
            import asyncio

            async def go():
                proto.game = key
                proto._ucinewgame()
                await proto.ping()

            asyncio.run_coroutine_threadsafe(go(), proto.loop).result(self.args.startup_timeout)
        except AttributeError:
            pass

    # -- one move -------------------------------------------------------------

    def play_move(self, engine, board, limit, key, hard_timeout):
        """Ask for a move; kill the engine if it overruns hard_timeout seconds.
        Returns (PlayResult or None, elapsed seconds, error kind, message)."""
        killed = threading.Event()

        def kill():
            killed.set()
            try:
                os.kill(engine.transport.get_pid(), signal.SIGKILL)
            except (OSError, TypeError, AttributeError):
                pass

        timer = threading.Timer(hard_timeout, kill)
        timer.daemon = True
        start = time.monotonic()
        timer.start()
        try:
            result = engine.play(board, limit, game=key)
            err = None
        except self.chess.engine.EngineTerminatedError as e:
            result, err = None, ("time" if killed.is_set() else "crash", str(e) or "engine terminated")
        except self.chess.engine.EngineError as e:
            result, err = None, ("illegal", f"engine error: {e}")
        except Exception as e:  # TimeoutError from python-chess, broken pipes, ...
            result, err = None, ("time" if killed.is_set() else "crash", f"{type(e).__name__}: {e}")
        finally:
            timer.cancel()
        elapsed = time.monotonic() - start
        if killed.is_set():  # the watchdog fired, whatever play() then reported
            err = ("time", f"no move after {elapsed:.3f}s, engine killed")
        if err:
            return None, elapsed, err[0], err[1]
        return result, elapsed, None, ""

    # -- one game -----------------------------------------------------------

    def play_game(self, number, engines):
        """Play game `number` (0-based); engines is this worker's {1: SimpleEngine, 2: ...}
        (entries are replaced by None when a process had to be killed)."""
        chess = self.chess
        args = self.args
        pair = number // 2
        fen = self.openings[pair % len(self.openings)]
        white_idx = 1 if number % 2 == 0 else 2
        side_engine = {chess.WHITE: white_idx, chess.BLACK: 3 - white_idx}
        board = chess.Board(fen)
        start_board = board.copy()
        key = (threading.get_ident(), number)
        for idx in (1, 2):
            if engines[idx] is None:
                engines[idx] = self.open_engine(idx)
            self.new_game(engines[idx], key)

        clock = {chess.WHITE: self.tc.base, chess.BLACK: self.tc.base} if self.tc else None
        moves_made = {chess.WHITE: 0, chess.BLACK: 0}
        moves = []
        outcome_text = fault = ""
        fault_engine = 0
        winner = None  # chess.WHITE / chess.BLACK / None for a draw
        grace = args.grace / 1000.0

        while True:
            if self.summary.interrupted or self.fatal:  # drop the game (an SPRT stop lets it finish)
                return None, board, start_board, moves
            outcome = board.outcome(claim_draw=True)
            if outcome:
                winner = outcome.winner
                outcome_text = outcome.termination.name.lower().replace("_", " ")
                if outcome.winner is not None:
                    outcome_text = f"{'White' if outcome.winner else 'Black'} wins by {outcome_text}"
                else:
                    outcome_text = f"Draw by {outcome_text}"
                break
            turn = board.turn
            idx = side_engine[turn]
            engine = engines[idx]
            if clock:
                limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                           white_inc=self.tc.inc, black_inc=self.tc.inc)
                if self.tc.moves:
                    limit.remaining_moves = self.tc.moves - moves_made[turn] % self.tc.moves
                hard = clock[turn] + grace
            else:
                limit = chess.engine.Limit(nodes=args.nodes, depth=args.depth)
                hard = args.move_timeout
            result, elapsed, err, msg = self.play_move(engine, board, limit, key, hard)
            if self.summary.interrupted:  # engines killed under us: drop the game
                return None, board, start_board, moves
            colour = "White" if turn else "Black"
            name = self.engines[idx].name
            if err is None and result.resigned:
                winner, outcome_text = not turn, f"{colour} resigns"
                break
            if err is None and (result.move is None or result.move not in board.legal_moves):
                err, msg = "illegal", f"move {result.move} is illegal or null in {board.fen()}"
            if err is None and clock and elapsed > clock[turn] + grace:
                err, msg = "time", f"used {elapsed:.3f}s with {clock[turn]:.3f}s left"
            if err:
                winner, fault, fault_engine = not turn, err, idx
                what = {"time": "loses on time", "illegal": "makes an illegal move",
                        "crash": "crashed / disconnects"}[err]
                outcome_text = f"{colour} ({name}) {what}: {msg}"
                if err == "illegal":
                    self.log(f"!!! ILLEGAL MOVE by {name} in game {number + 1}: {msg}")
                elif err == "crash":
                    self.log(f"!!! CRASH of {name} in game {number + 1}: {msg}")
                # Start a fresh process for the next game unless the move was merely late.
                if not (err == "time" and result is not None):
                    self.kill_engine(engine)
                    engines[idx] = None
                break
            board.push(result.move)
            moves.append(result.move)
            if clock:
                moves_made[turn] += 1
                clock[turn] = max(clock[turn] - elapsed, 0.001) + self.tc.inc
                if self.tc.moves and moves_made[turn] % self.tc.moves == 0:
                    clock[turn] += self.tc.base

        score_white = 0.5 if winner is None else (1.0 if winner == chess.WHITE else 0.0)
        score1 = score_white if white_idx == 1 else 1.0 - score_white
        record = GameRecord(number + 1, score1, outcome_text, fault, fault_engine)
        return record, board, start_board, moves

    # -- PGN ------------------------------------------------------------------

    def write_pgn(self, record, start_board, moves, number):
        chess = self.chess
        game = chess.pgn.Game()
        white_idx = 1 if number % 2 == 0 else 2
        game.headers["Event"] = "match.py"
        game.headers["Site"] = os.uname().nodename
        game.headers["Date"] = time.strftime("%Y.%m.%d")
        game.headers["Round"] = str(number + 1)
        game.headers["White"] = self.engines[white_idx].name
        game.headers["Black"] = self.engines[3 - white_idx].name
        score_white = record.score1 if white_idx == 1 else 1 - record.score1
        game.headers["Result"] = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[score_white]
        game.headers["TimeControl"] = self.tc.pgn_header() if self.tc else "-"
        game.headers["Termination"] = {"time": "time forfeit", "illegal": "rules infraction",
                                       "crash": "abandoned"}.get(record.fault, "normal")
        game.setup(start_board)
        node = game
        for move in moves:
            node = node.add_variation(move)
        node.comment = record.reason
        with open(self.args.pgn, "a", encoding="utf-8") as f:
            print(game, file=f, end="\n\n")

    # -- scheduling -------------------------------------------------------------

    def log(self, text):
        with self.lock:
            print(text, flush=True)

    def take_game(self):
        with self.lock:
            if self.stop.is_set() or self.next_game >= self.args.games:
                return None
            number = self.next_game
            self.next_game += 1
            return number

    def worker(self):
        engines = {1: None, 2: None}
        try:
            while True:
                number = self.take_game()
                if number is None:
                    break
                record, board, start_board, moves = self.play_game(number, engines)
                if record is None:
                    break
                self.finish_game(number, record, start_board, moves)
        except Exception as e:  # an engine that cannot start or be configured
            with self.lock:
                if self.fatal is None:
                    self.fatal = f"{type(e).__name__}: {e}"
            self.stop.set()
        finally:
            for engine in engines.values():
                if engine is not None:
                    self.quit_engine(engine)

    def finish_game(self, number, record, start_board, moves):
        white_idx = 1 if number % 2 == 0 else 2
        with self.lock:
            self.summary.games.append(record)
            if self.args.pgn:
                self.write_pgn(record, start_board, moves, number)
            w, d, l = self.summary.wdl()
            n = w + d + l
            if not self.args.quiet:
                score_white = record.score1 if white_idx == 1 else 1 - record.score1
                res = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[score_white]
                print(f"Finished game {number + 1} ({self.engines[white_idx].name} vs "
                      f"{self.engines[3 - white_idx].name}): {res} {{{record.reason}}}")
                line = (f"Score of {self.engines[1].name} vs {self.engines[2].name}: "
                        f"{w} - {l} - {d}  [{(w + 0.5 * d) / n:.3f}] {n}")
                if self.sprt:
                    elo0, elo1, alpha, beta = self.sprt
                    line += f"  LLR {sprt_llr(w, d, l, elo0, elo1):.2f}"
                print(line, flush=True)
            if self.sprt:
                elo0, elo1, alpha, beta = self.sprt
                lower, upper = sprt_bounds(alpha, beta)
                if sprt_decision(sprt_llr(w, d, l, elo0, elo1), lower, upper, n) != "continue":
                    self.stop.set()  # games already running are finished and counted

    def run(self):
        threads = [threading.Thread(target=self.worker, daemon=True) for _ in range(self.args.concurrency)]
        for t in threads:
            t.start()
        try:
            while any(t.is_alive() for t in threads):
                for t in threads:
                    t.join(0.2)
        except KeyboardInterrupt:
            print("\ninterrupted: stopping (games in progress are dropped)", file=sys.stderr)
            self.summary.interrupted = True
            self.stop.set()
            with self.lock:
                engines = list(self.live)
            for engine in engines:
                self.kill_engine(engine)
            for t in threads:
                t.join(10)
        if self.fatal:
            raise RuntimeError(self.fatal)
        self.summary.games.sort(key=lambda g: g.number)
        return self.summary


# ---------------------------------------------------------------------------
# External runners: fastchess and cutechess-cli
# ---------------------------------------------------------------------------

FINISHED_RE = re.compile(r"^Finished game (\d+) \((.+) vs (.+)\): (1-0|0-1|1/2-1/2|\*) \{(.*)\}")


def parse_finished_line(line, name1, name2):
    """A GameRecord from a 'Finished game N (White vs Black): result {reason}' line."""
    m = FINISHED_RE.match(line.strip())
    if not m:
        return None
    number, white, black, result, reason = int(m.group(1)), m.group(2), m.group(3), m.group(4), m.group(5)
    if result == "*":
        return None
    if white == name1 and black == name2:
        white_idx = 1
    elif white == name2 and black == name1:
        white_idx = 2
    else:
        return None
    score_white = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
    score1 = score_white if white_idx == 1 else 1 - score_white
    fault = ""
    low = reason.lower()
    if "loses on time" in low:
        fault = "time"
    elif "illegal move" in low:
        fault = "illegal"
    elif "disconnects" in low or "stalls" in low or "crash" in low:
        fault = "crash"
    fault_engine = 0
    if fault:
        loser_white = low.startswith("white")
        fault_engine = white_idx if loser_white else 3 - white_idx
    return GameRecord(number, score1, reason, fault, fault_engine)


def run_external(argv, cwd, name1, name2, quiet):
    """Run fastchess/cutechess-cli, echo its output, and collect the finished games."""
    print("Running: " + shlex.join(argv), flush=True)
    summary = Summary()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, bufsize=1, start_new_session=True)
    try:
        for line in proc.stdout:
            record = parse_finished_line(line, name1, name2)
            loud = record is not None and record.fault in ("illegal", "crash")
            if not quiet or loud or line.startswith(("Warning", "Error")):
                print(("!!! " if loud else "") + line, end="", flush=True)
            if record:
                summary.games.append(record)
            stripped = line.strip()
            if stripped.startswith("LLR:") or stripped.startswith("SPRT: llr"):
                summary.external_llr = stripped
            if stripped.startswith("Games:") or stripped.startswith("Score of"):
                summary.external_result = stripped
        proc.wait()
    except KeyboardInterrupt:
        print("\ninterrupted: stopping the runner", file=sys.stderr)
        summary.interrupted = True
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            pass
    finally:
        if proc.poll() is None:  # never leave the runner and its engines behind
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    if proc.returncode not in (0, None) and not summary.interrupted:
        print(f"warning: runner exited with status {proc.returncode}", file=sys.stderr)
    summary.games.sort(key=lambda g: g.number)
    return summary


def limit_args(args, runner):
    """Per-engine search-limit arguments for fastchess or cutechess-cli."""
    if args.tc:
        return [f"tc={args.tc}", f"timemargin={int(args.grace)}"]
    out = ["tc=inf"] if runner == "cutechess" else []
    if args.nodes:
        out.append(f"nodes={args.nodes}")
    if args.depth:
        out.append(f"depth={args.depth}" if runner == "cutechess" else f"plies={args.depth}")
    return out


def fastchess_argv(args, engines, rounds):
    argv = ["fastchess"]
    for idx in (1, 2):
        spec = engines[idx]
        argv += ["-engine", f"cmd={spec.cmd[0]}", f"name={spec.name}"]
        if len(spec.cmd) > 1:
            argv.append(f"args={shlex.join(spec.cmd[1:])}")
        argv += [f"option.{k}={v}" for k, v in spec.options.items()]
    argv += ["-each", "proto=uci"] + limit_args(args, "fastchess")
    argv += ["-openings", f"file={args.openings}", "format=epd", "order=random", "-srand", str(args.seed)]
    argv += ["-rounds", str(rounds), "-games", "2", "-concurrency", str(args.concurrency), "-recover"]
    if args.sprt_params:
        elo0, elo1, alpha, beta = args.sprt_params
        argv += ["-sprt", f"elo0={elo0:g}", f"elo1={elo1:g}", f"alpha={alpha:g}", f"beta={beta:g}", "model=logistic"]
    if args.pgn:
        argv += ["-pgnout", f"file={args.pgn}", "notation=san"]
    return argv


def cutechess_argv(args, engines, rounds):
    argv = ["cutechess-cli"]
    for idx in (1, 2):
        spec = engines[idx]
        argv += ["-engine", f"cmd={spec.cmd[0]}", f"name={spec.name}", f"proto={spec.proto}"]
        argv += [f"arg={a}" for a in spec.cmd[1:]]
        argv += [f"option.{k}={v}" for k, v in spec.options.items()]
    argv += ["-each"] + limit_args(args, "cutechess")
    argv += ["-openings", f"file={args.openings}", "format=epd", "order=random", "policy=round",
             "-repeat", "-srand", str(args.seed)]
    argv += ["-rounds", str(rounds), "-games", "2", "-concurrency", str(args.concurrency), "-recover"]
    if args.sprt_params:
        elo0, elo1, alpha, beta = args.sprt_params
        argv += ["-sprt", f"elo0={elo0:g}", f"elo1={elo1:g}", f"alpha={alpha:g}", f"beta={beta:g}"]
    if args.pgn:
        argv += ["-pgnout", args.pgn]
    return argv


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    e = p.add_argument_group("engines")
    e.add_argument("--engine1", required=True, metavar="CMD", help="engine1 command line (may contain arguments)")
    e.add_argument("--engine2", required=True, metavar="CMD", help="engine2 command line")
    e.add_argument("--name1", help="engine1 name (default: executable name)")
    e.add_argument("--name2", help="engine2 name")
    e.add_argument("--proto1", choices=["uci", "xboard"], default="uci", help="engine1 protocol (default uci)")
    e.add_argument("--proto2", choices=["uci", "xboard"], default="uci", help="engine2 protocol (default uci)")
    e.add_argument("--option1", action="append", metavar="NAME=VALUE", help="engine1 option (repeatable)")
    e.add_argument("--option2", action="append", metavar="NAME=VALUE", help="engine2 option (repeatable)")
    g = p.add_argument_group("games")
    g.add_argument("--tc", help="time control in seconds: base+inc or moves/base+inc (default 10+0.1 "
                   "unless --nodes/--depth is given)")
    g.add_argument("--nodes", type=int, help="fixed nodes per move instead of a clock")
    g.add_argument("--depth", type=int, help="fixed depth per move instead of a clock")
    g.add_argument("--games", type=int, help="number of games (default 100; in SPRT mode the maximum, default 20000)")
    g.add_argument("--concurrency", type=int, default=1, help="games played at once (default 1)")
    g.add_argument("--openings", default=str(DEFAULT_BOOK), help="EPD/FEN file (default %(default)s)")
    g.add_argument("--seed", type=int, help="seed for the opening order (default: random, printed)")
    g.add_argument("--pgn", help="append the games to this PGN file")
    g.add_argument("--grace", type=float, default=100, help="milliseconds a move may exceed the clock "
                   "before it is a time loss (default 100)")
    g.add_argument("--move-timeout", type=float, default=60, help="seconds before a move under --nodes/--depth "
                   "counts as a hang (python runner, default 60)")
    g.add_argument("--startup-timeout", type=float, default=30, help="seconds for an engine to start (default 30)")
    s = p.add_argument_group("SPRT")
    s.add_argument("--sprt", metavar="ELO0,ELO1", help="run an SPRT of H0: elo=ELO0 against H1: elo=ELO1 (logistic Elo)")
    s.add_argument("--alpha", type=float, default=0.05, help="SPRT false-positive rate (default 0.05)")
    s.add_argument("--beta", type=float, default=0.05, help="SPRT false-negative rate (default 0.05)")
    r = p.add_argument_group("runner")
    r.add_argument("--runner", choices=["auto", "fastchess", "cutechess", "python"], default="auto",
                   help="who plays the games (default auto: fastchess, else cutechess-cli, else python)")
    r.add_argument("-q", "--quiet", action="store_true", help="print only the final report (and faults)")
    r.add_argument("-v", "--verbose", action="store_true", help="show engines' stderr (python runner)")
    args = p.parse_args(argv)

    limits = sum(x is not None for x in (args.tc, args.nodes, args.depth))
    if limits > 1:
        p.error("give only one of --tc, --nodes, --depth")
    if args.nodes is not None and args.depth is not None:
        p.error("give only one of --nodes, --depth")
    if limits == 0:
        args.tc = "10+0.1"
    try:
        args.tc = TimeControl.parse(args.tc) if args.tc else None
        args.options1 = parse_options(args.option1)
        args.options2 = parse_options(args.option2)
    except ValueError as err:
        p.error(str(err))
    args.sprt_params = None
    if args.sprt:
        try:
            elo0, elo1 = (float(x) for x in args.sprt.split(","))
        except ValueError:
            p.error("--sprt wants ELO0,ELO1, e.g. 0,5")
        if elo1 <= elo0:
            p.error("--sprt needs ELO0 < ELO1")
        args.sprt_params = (elo0, elo1, args.alpha, args.beta)
    if args.games is None:
        args.games = 20000 if args.sprt else 100
    if args.games < 1 or args.concurrency < 1:
        p.error("--games and --concurrency must be positive")
    if args.seed is None:
        args.seed = random.randrange(1, 2 ** 31)
    args.openings = str(Path(args.openings).expanduser().resolve())
    if args.pgn:
        args.pgn = str(Path(args.pgn).expanduser().resolve())
    return args


def choose_runner(args, engines):
    both_uci = engines[1].proto == engines[2].proto == "uci"
    have_fast = shutil.which("fastchess") is not None
    have_cute = shutil.which("cutechess-cli") is not None
    runner = args.runner
    if runner == "auto":
        if have_fast and both_uci:
            return "fastchess"
        if have_cute:
            return "cutechess"
        return "python"
    if runner == "fastchess":
        if not have_fast:
            sys.exit("error: fastchess is not on PATH")
        if not both_uci:
            print("note: fastchess supports only UCI engines; this pairing has an xboard engine, "
                  "so the built-in python runner plays it instead", flush=True)
            return "python"
    if runner == "cutechess" and not have_cute:
        sys.exit("error: cutechess-cli is not on PATH")
    return runner


def on_sigterm(signum, frame):
    raise KeyboardInterrupt  # stop cleanly: kill engines / the runner, print what was played


def main(argv=None):
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        engines = {}
        for idx, cmd, name, proto, options in ((1, args.engine1, args.name1, args.proto1, args.options1),
                                               (2, args.engine2, args.name2, args.proto2, args.options2)):
            argv_ = resolve_command(cmd)
            engines[idx] = EngineSpec(argv_, name or Path(argv_[0]).name, proto, options)
        if engines[1].name == engines[2].name:
            engines[1].name += "-1"
            engines[2].name += "-2"
        if not Path(args.openings).is_file():
            raise ValueError(f"openings file {args.openings} not found")
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2

    runner = choose_runner(args, engines)
    limit = (f"tc {args.tc}" if args.tc else f"nodes {args.nodes}" if args.nodes else f"depth {args.depth}")
    print(f"Runner: {runner}; {engines[1].name} vs {engines[2].name}; {limit}; "
          f"{'up to ' if args.sprt else ''}{args.games} games; concurrency {args.concurrency}; "
          f"openings {args.openings}; seed {args.seed}", flush=True)

    if runner == "python":
        try:
            import chess.engine  # noqa: F401
        except ImportError:
            print("error: the python runner needs python-chess: pip install chess", file=sys.stderr)
            return 2
        import logging
        logging.basicConfig(level=logging.DEBUG if args.verbose else logging.CRITICAL)
        try:
            openings = read_openings(args.openings)
        except (OSError, ValueError) as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        random.Random(args.seed).shuffle(openings)
        try:
            summary = PythonRunner(args, engines, openings).run()
        except RuntimeError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
    else:
        rounds = (args.games + 1) // 2
        if args.games % 2:
            print(f"note: {runner} plays openings in pairs: {2 * rounds} games", flush=True)
        build = fastchess_argv if runner == "fastchess" else cutechess_argv
        argv_ = build(args, engines, rounds)
        argv_[0] = shutil.which(argv_[0])
        with tempfile.TemporaryDirectory(prefix="match-") as tmp:  # fastchess writes config.json in its cwd
            summary = run_external(argv_, tmp, engines[1].name, engines[2].name, args.quiet)

    bad = print_report(summary, engines[1].name, engines[2].name, args.sprt_params)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
