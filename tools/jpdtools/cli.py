"""The ``jpd`` command line: a registry of subcommands, each a module with one job.

Each module in ``jpdtools.commands`` exposes ``add_arguments(parser)`` and ``run(args) -> int``;
its one-line help is its entry in :data:`COMMANDS`. Modules are imported lazily, only for the
command being run. This is the one place where exceptions become exit codes and messages: bad
input (InputError, RulesError and the engine's set-up errors) prints ``jpd: error: …`` and exits
2; a failing check exits 1.
"""

import argparse
import importlib
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from jpdtools.exitcodes import ERROR, INTERRUPTED, NOTHING_SELECTED

COMMANDS = {
    "run": "run the conformance suite against the reference implementation",
    "play": "adjudicate a move sequence from a position, step by step",
    "rules": "list the ruleset presets, or show one with its sources",
    "explain": "show one case step by step under every ruleset",
    "lint": "check the suite: ids, anchors, seed traceability, citations, coverage",
    "trace": "follow a seed article to its clauses and cases, or a clause or case back to its articles",
    "verify": "run the conformance suite against another implementation (GNU Go, GTP, JSON lines)",
    "matrix": "write the compatibility matrix of the verify reports: implementation x ruleset and clause",
    "fuzz": "play seeded random games through another implementation and the reference; shrink what differs",
    "export": "export the suite as JSON Lines, SGF or GNU Go regression scripts",
    "count": "count a final position (diagram or SGF) under each ruleset, side by side",
    "replay": "referee a game record (SGF) from start to end under each ruleset, and count it",
    "study": "measure the compatibility claims on finished games: every pair of rulesets, every cause",
    "review": "apply reviewers' files from the case book to the case files, or print the review tally",
    "book": "write the committee's case book: a static site of every case, clause, seed article and ruleset",
}


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jpd",
        description="jipingdian: the 计枰点 Go rules specification, reference and conformance suite",
    )
    parser.add_argument(
        "--version",
        "-V",
        action="store_true",
        help="the jipingdian version, and which suite and spec it reads",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _escape_undecodable_names()
    if not argv or argv[0] in ("-h", "--help"):
        _build_parser().print_help()
        return 0
    if argv[0] in ("--version", "-V"):
        return guarded(print_version, None)
    name = argv[0]
    if name not in COMMANDS:
        import difflib  # only for a mistyped command: start-up time

        close = difflib.get_close_matches(name, list(COMMANDS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        print(f"jpd: error: unknown command {name!r}{hint}", file=sys.stderr)
        return ERROR
    module = importlib.import_module(f"jpdtools.commands.{name.replace('-', '_')}")
    parser = argparse.ArgumentParser(prog=f"jpd {name}", description=COMMANDS[name])
    module.add_arguments(parser)
    args = parser.parse_args(argv[1:])
    return guarded(module.run, args)


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM stops a command as Ctrl-C does (KeyboardInterrupt): every command's clean-up runs
    (what ran is written, a staging folder is removed, child processes are stopped) and the exit
    status is 130. The earlier handler is put back afterwards."""

    def interrupt(_signum, _frame):
        raise KeyboardInterrupt

    try:
        earlier = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, earlier)


def _escape_undecodable_names() -> None:
    """A file name that is not UTF-8 (a lone surrogate in Python) is printed with a backslash
    escape rather than stopping the command with UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def print_version(_args=None) -> int:
    """``jpd --version``: the distribution's version, the default suite's identity, where both are read."""
    from jpdtools.paths import conformance_dir, spec_dir
    from jpdtools.suite.identity import distribution_version, identify

    suite = conformance_dir()
    print(f"jpd (jipingdian) {distribution_version()}")
    print(identify([suite]).describe())
    print(f"cases: {suite}")
    print(f"spec:  {spec_dir()}")
    return 0


def guarded(run, args) -> int:
    """Run a command, turning bad input into a one-line message and exit status 2."""
    from jpdref.board import PositionError
    from jpdref.coords import CoordinateError
    from jpdref.handicap import HandicapError
    from jpdref.rules import RulesError

    from jpdtools.errors import InputError, NothingSelected

    try:
        with _terminate_as_interrupt():
            return run(args)
    except NothingSelected as err:
        print(f"jpd: error: {err}", file=sys.stderr)
        return NOTHING_SELECTED
    except (InputError, RulesError, PositionError, CoordinateError, HandicapError) as err:
        print(f"jpd: error: {err}", file=sys.stderr)
        return ERROR
    except KeyboardInterrupt:
        print("jpd: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
