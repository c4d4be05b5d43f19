#!/usr/bin/env python3
"""A match or an SPRT between two chess engines, played by fastchess or cutechess-cli.

This script only builds the tool's command line from its options, prints it and runs it
in the current directory. The tool plays the games and its own report is the result
(W/D/L, Elo with its error, pentanomial, LLR); nothing is counted or computed here.

The tool: fastchess, found through --fastchess, $FASTCHESS or PATH, when both engines
speak UCI; otherwise (an xboard engine, no fastchess, or --runner cutechess)
cutechess-cli, found through --cutechess, $CUTECHESS or PATH.

Every opening of the book (EPD, or PGN if the name ends in .pgn; by default
tests/data/books/balanced-8ply.epd) is played twice with colours reversed, in random
order (--seed fixes it). Anything after `--` is passed to the tool unchanged, e.g.
`-- -variant fischerandom` (fastchess). fastchess leaves its saved state in config.json
here; `fastchess -config file=config.json` resumes the match.

Exit status: the tool's; 2 on a usage error.

Examples:
  scripts/match.py --engine1 target/release/quintessence --engine2 stockfish \\
      --option2 "Skill Level=3" --tc 10+0.1 --games 200 --concurrency 2
  scripts/match.py --engine1 ./new --engine2 ./old --tc 5+0.05 --sprt 0,5 --pgn sprt.pgn
  scripts/match.py --engine1 ./new --engine2 ./old --nodes 30000 --games 400 --dry-run
  scripts/match.py --engine1 stockfish --engine2 "phalanx -l-" --proto2 xboard --games 8
"""

import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BOOK = REPO_ROOT / "tests" / "data" / "books" / "balanced-8ply.epd"
# Debian installs its chess engines in /usr/games, which is often not on PATH.
EXTRA_BIN_DIRS = ["/usr/games", "/usr/local/games"]
# With --quiet these per-game lines are dropped unless they tell of a fault.
GAME_LINE = re.compile(r"^(Started|Finished) game ")
FAULT = re.compile(r"illegal|disconnect|stall|crash|on time", re.IGNORECASE)


def find_tool(given, env, name):
    """The tool's path from its option, its environment variable or PATH; None if not found."""
    for candidate in (given, os.environ.get(env)):
        if candidate:
            return shutil.which(candidate)
    return shutil.which(name)


def engine_argv(command, dry_run):
    """The engine's argv, its executable made an absolute path where it can be found."""
    argv = shlex.split(command)
    if not argv:
        raise ValueError("empty engine command")
    exe = argv[0]
    if os.sep in exe:
        found = str(Path(exe).expanduser().resolve()) if os.access(exe, os.X_OK) else None
    else:
        found = shutil.which(exe) or shutil.which(exe, path=os.pathsep.join(EXTRA_BIN_DIRS))
    if found:
        argv[0] = found
    elif not dry_run:
        raise ValueError(f"engine {exe!r} is not an executable file, nor on PATH or in {', '.join(EXTRA_BIN_DIRS)}")
    else:
        print(f"note: engine {exe!r} not found; kept as given", file=sys.stderr)
    return argv


def build_command(args, tool, runner, engines):
    """The fastchess or cutechess-cli argv."""
    cmd = [tool]
    for argv, name, proto, options in engines:
        cmd += ["-engine", f"cmd={argv[0]}", f"name={name}"]
        if runner == "fastchess":
            if len(argv) > 1:
                cmd.append(f"args={shlex.join(argv[1:])}")
        else:
            cmd.append(f"proto={proto}")
            cmd += [f"arg={a}" for a in argv[1:]]
        cmd += [f"option.{option}" for option in options]
    cmd.append("-each")
    if runner == "fastchess":
        cmd.append("proto=uci")
    if args.nodes or args.depth:
        if runner == "cutechess":
            cmd.append("tc=inf")
        if args.nodes:
            cmd.append(f"nodes={args.nodes}")
        if args.depth:
            cmd.append(f"plies={args.depth}" if runner == "fastchess" else f"depth={args.depth}")
    else:
        cmd += [f"tc={args.tc}", f"timemargin={args.timemargin}"]
    book_format = "pgn" if args.openings.lower().endswith(".pgn") else "epd"
    cmd += ["-openings", f"file={args.openings}", f"format={book_format}", "order=random"]
    if runner == "cutechess":
        cmd.append("policy=round")
    if args.seed is not None:
        cmd += ["-srand", str(args.seed)]
    cmd += ["-repeat", "-games", "2", "-rounds", str(args.rounds), "-concurrency", str(args.concurrency),
            "-recover"]
    if args.sprt:
        elo0, elo1 = args.sprt
        cmd += ["-sprt", f"elo0={elo0:g}", f"elo1={elo1:g}", f"alpha={args.alpha:g}", f"beta={args.beta:g}"]
        if runner == "fastchess":
            cmd.append(f"model={args.sprt_model}")
    if args.pgn:
        cmd += ["-pgnout", f"file={args.pgn}", "notation=san"] if runner == "fastchess" else ["-pgnout", args.pgn]
    return cmd + args.extra


def parse_args(argv):
    extra = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1:]
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    e = p.add_argument_group("engines")
    e.add_argument("--engine1", required=True, metavar="CMD", help="engine1's command (may hold arguments)")
    e.add_argument("--engine2", required=True, metavar="CMD", help="engine2's command")
    e.add_argument("--name1", help="engine1's name (default: the executable's name)")
    e.add_argument("--name2", help="engine2's name")
    e.add_argument("--proto1", choices=["uci", "xboard"], default="uci", help="engine1's protocol (default uci)")
    e.add_argument("--proto2", choices=["uci", "xboard"], default="uci", help="engine2's protocol (default uci)")
    e.add_argument("--option1", action="append", default=[], metavar="NAME=VALUE", help="engine1 option (repeatable)")
    e.add_argument("--option2", action="append", default=[], metavar="NAME=VALUE", help="engine2 option (repeatable)")
    g = p.add_argument_group("games")
    limit = g.add_mutually_exclusive_group()
    limit.add_argument("--tc", help="time control, base+inc or moves/base+inc in seconds (default 10+0.1)")
    limit.add_argument("--nodes", type=int, help="fixed nodes a move instead of a clock")
    limit.add_argument("--depth", type=int, help="fixed depth a move instead of a clock")
    count = g.add_mutually_exclusive_group()
    count.add_argument("--games", type=int, help="games (rounded up to pairs; default 100, with --sprt 20000)")
    count.add_argument("--rounds", type=int, help="openings, each played twice")
    g.add_argument("--concurrency", type=int, default=1, help="games played at once (default 1)")
    g.add_argument("--openings", default=str(DEFAULT_BOOK), help="book, EPD or PGN (default %(default)s)")
    g.add_argument("--seed", type=int, help="seed of the opening order (default: the tool's)")
    g.add_argument("--pgn", help="write the games to this PGN file")
    g.add_argument("--timemargin", "--grace", type=int, default=100,
                   help="ms a move may overrun the clock before it loses on time (default 100)")
    s = p.add_argument_group("SPRT")
    s.add_argument("--sprt", metavar="ELO0,ELO1", help="stop when H0 (elo = ELO0) or H1 (elo = ELO1) is accepted")
    s.add_argument("--alpha", type=float, default=0.05, help="false-positive rate (default 0.05)")
    s.add_argument("--beta", type=float, default=0.05, help="false-negative rate (default 0.05)")
    s.add_argument("--sprt-model", choices=["logistic", "normalized", "bayesian"], default="logistic",
                   help="fastchess's Elo model of the SPRT (default logistic; cutechess-cli has its own)")
    r = p.add_argument_group("tool")
    r.add_argument("--runner", choices=["auto", "fastchess", "cutechess"], default="auto",
                   help="the tool (default auto: fastchess if found and both engines speak UCI)")
    r.add_argument("--fastchess", metavar="PATH", help="fastchess's path (default $FASTCHESS, then PATH)")
    r.add_argument("--cutechess", metavar="PATH", help="cutechess-cli's path (default $CUTECHESS, then PATH)")
    r.add_argument("-n", "--dry-run", action="store_true", help="print the command, run nothing")
    r.add_argument("-q", "--quiet", action="store_true", help="drop the per-game lines that tell of no fault")
    args = p.parse_args(argv)
    args.extra = extra

    if not (args.tc or args.nodes or args.depth):
        args.tc = "10+0.1"
    if args.tc and not re.fullmatch(r"(\d+/)?[0-9.:]+(\+[0-9.]+)?", args.tc):
        p.error(f"bad time control {args.tc!r}: want base+inc or moves/base+inc, in seconds")
    for value, what in ((args.nodes, "--nodes"), (args.depth, "--depth"), (args.games, "--games"),
                        (args.rounds, "--rounds"), (args.concurrency, "--concurrency")):
        if value is not None and value < 1:
            p.error(f"{what} must be positive")
    for option in args.option1 + args.option2:
        if "=" not in option:
            p.error(f"bad option {option!r}: want NAME=VALUE")
    if args.sprt:
        try:
            elo0, elo1 = (float(x) for x in args.sprt.split(","))
        except ValueError:
            p.error("--sprt wants ELO0,ELO1, e.g. 0,5")
        if elo1 <= elo0:
            p.error("--sprt needs ELO0 < ELO1")
        args.sprt = (elo0, elo1)
    if args.rounds is None:
        games = args.games or (20000 if args.sprt else 100)
        args.rounds = (games + 1) // 2
        if games % 2:
            print(f"note: openings are played in pairs: {2 * args.rounds} games", file=sys.stderr)
    args.openings = str(Path(args.openings).expanduser().resolve())
    if not Path(args.openings).is_file() and not args.dry_run:
        p.error(f"openings file {args.openings} not found")
    if args.pgn:
        args.pgn = str(Path(args.pgn).expanduser().resolve())
    return args


def main(argv):
    args = parse_args(argv)
    try:
        engines = []
        for command, name, proto, options in ((args.engine1, args.name1, args.proto1, args.option1),
                                              (args.engine2, args.name2, args.proto2, args.option2)):
            argv_ = engine_argv(command, args.dry_run)
            engines.append([argv_, name or Path(argv_[0]).name, proto, options])
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if engines[0][1] == engines[1][1]:  # both tools need two names
        engines[0][1] += "-1"
        engines[1][1] += "-2"

    both_uci = args.proto1 == args.proto2 == "uci"
    fastchess = find_tool(args.fastchess, "FASTCHESS", "fastchess")
    cutechess = find_tool(args.cutechess, "CUTECHESS", "cutechess-cli")
    for given, found, option in ((args.fastchess, fastchess, "--fastchess"), (args.cutechess, cutechess, "--cutechess")):
        if given and not found:
            print(f"error: {option} {given}: not an executable", file=sys.stderr)
            return 2
    runner = args.runner
    if runner == "auto":
        runner = "fastchess" if both_uci and (fastchess or not cutechess) else "cutechess"
    if runner == "fastchess" and not both_uci:
        print("error: fastchess plays only UCI engines; use cutechess-cli (--runner cutechess)", file=sys.stderr)
        return 2
    tool = fastchess if runner == "fastchess" else cutechess
    if tool is None:
        if not args.dry_run:
            print(f"error: {runner} not found: give --{runner} PATH or set ${runner.upper()}, or put it on PATH"
                  + (", or use --runner cutechess" if runner == "fastchess" else ""), file=sys.stderr)
            return 2
        tool = "fastchess" if runner == "fastchess" else "cutechess-cli"

    cmd = build_command(args, tool, runner, engines)
    print(shlex.join(cmd), flush=True)
    if args.dry_run:
        return 0

    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE if args.quiet else None,
                            stderr=subprocess.STDOUT if args.quiet else None, text=True, bufsize=1)
    # Ctrl-C reaches the tool from the terminal, which stops and reports; SIGTERM is passed on as SIGINT.
    signal.signal(signal.SIGINT, lambda *_: None)
    signal.signal(signal.SIGTERM, lambda *_: proc.send_signal(signal.SIGINT))
    if args.quiet:
        for line in proc.stdout:
            if not GAME_LINE.match(line) or FAULT.search(line):
                print(line, end="", flush=True)
    return proc.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
