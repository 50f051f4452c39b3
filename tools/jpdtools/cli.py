"""The ``jpd`` command line: a registry of subcommands, each a module with one job.

Each module in ``jpdtools.commands`` exposes ``add_arguments(parser)`` and ``run(args) -> int``;
its one-line help is its entry in :data:`COMMANDS`. Modules are imported lazily, only for the
command being run. This is the one place where exceptions become exit codes and messages: bad
input (InputError, RulesError and the engine's set-up errors) prints ``jpd: error: …`` and exits
2; a failing check exits 1.
"""

import argparse
import importlib
import re
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from jpdtools.exitcodes import ERROR, INTERRUPTED, NOTHING_SELECTED
from jpdtools.table import terminal_columns

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

GROUPS = {
    "check a program against the rules": ("verify", "matrix", "fuzz", "export"),
    "explore the rules": ("rules", "play", "count", "explain", "trace"),
    "game records": ("replay", "study"),
    "the suite and its review": ("run", "lint", "book", "review"),
}

EXAMPLES = {
    "run": """\
  jpd run                                  # the whole suite, every ruleset
  jpd run --rules chinese+japanese --tag ko
  jpd run conformance/ko.yaml --json       # one file, results as JSON
  jpd run -q --junit /tmp/jpd.xml          # a JUnit report for CI""",
    "play": """\
  jpd play examples/ko.txt --rules jpd-2022 --moves "B @a W D3 B pass"
  jpd play examples/ko.txt --moves "B @a W D3"          # every ruleset, side by side
  jpd play --size 9 --moves "B E5 W pass B pass" --rules chinese --json""",
    "rules": """\
  jpd rules                                # every preset, one line each
  jpd rules japanese                       # one preset, with the source of every value
  jpd rules chinese:komi=6.5 --json""",
    "explain": """\
  jpd explain ko.simple.001
  jpd explain ko.simple.001 --rules chinese+japanese""",
    "lint": """\
  jpd lint                                 # the whole suite
  jpd lint conformance/ko.yaml --no-coverage-table""",
    "trace": """\
  jpd trace "000 §22"                      # a seed article → its clauses → their cases
  jpd trace rep.no-retreat                 # a clause → its articles and cases
  jpd trace ko.simple.001 --json""",
    "verify": """\
  jpd verify --impl gnugo -j 2 --report-dir /tmp/gnugo
  jpd verify --impl "gtp:my-engine --gtp" --engine-rules chinese
  jpd verify --impl "jsonl:python3 my_program.py" --rules jpd-2022 --tag ko""",
    "matrix": """\
  jpd matrix reports --out /tmp/matrix.html""",
    "fuzz": """\
  jpd fuzz --impl gnugo --rules chinese --games 200 --out /tmp/findings
  jpd fuzz --impl "jsonl:python3 my_program.py" --rules jpd-2022 --seconds 30""",
    "export": """\
  jpd export --to json --out /tmp/jpd-export       # OUTDIR/cases.jsonl
  jpd export --to all --out /tmp/jpd-export conformance/ko.yaml""",
    "count": """\
  jpd count examples/final.txt                     # every ruleset, side by side
  jpd count examples/final.txt --rules chinese     # one ruleset, step by step
  jpd count game.sgf --komi record --json""",
    "replay": """\
  jpd replay game.sgf                              # one record, every ruleset
  jpd replay games/ --rules chinese+japanese --out /tmp/verdicts.jsonl -j 2""",
    "study": """\
  jpd study games/ --out /tmp/study                # the table, and a page with boards
  jpd study games.tar.gz --rules chinese+japanese --komi record --json""",
    "review": """\
  jpd review status
  jpd review apply reviewer-a.json reviewer-b.json --dry-run""",
    "book": """\
  jpd book --out /tmp/jpd-book                     # then open /tmp/jpd-book/index.html
  jpd book --out /tmp/jpd-book --tag ko --pdf""",
}


# The commands whose tables and text are fitted to the terminal (--wide keeps them whole).
TABLES = ("run", "verify", "play", "count", "rules", "replay", "study", "lint", "explain")


def _usage() -> str:
    """``jpd --help``: the commands in groups, each with its one line."""
    lines = [
        "usage: jpd COMMAND [options]   (jpd COMMAND --help for its options and examples)",
        "",
        "jipingdian: the 计枰点 Go rules specification, reference and conformance suite",
    ]
    for title, names in GROUPS.items():
        lines += ["", f"{title}:"]
        lines += [f"  {name:<9} {COMMANDS[name]}" for name in names]
    lines += [
        "",
        "options:",
        "  -h, --help     this list",
        "  -V, --version  the jipingdian version, which suite and spec it reads, where its examples are",
        "",
        "Every command takes -q/--quiet and -v/--verbose; a command that prints a result takes --json;",
        "--rules is NAME, NAME:axis=value,… or several joined by '+' (default: all). Exit status: 0 ok,",
        "1 a check failed, 2 bad input, 3 nothing selected, 130 interrupted.",
    ]
    return "\n".join(lines)


def _plain(text: str | None) -> str | None:
    """A module docstring as help text: no reStructuredText literals, no spec anchors."""
    if text is None:
        return None
    return re.sub(r"\s*\{#[a-z0-9.-]+\}", "", text.replace("``", ""))


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help layout (descriptions as written), as wide as argparse makes it — the
    terminal's columns less 2 — read by :func:`jpdtools.table.terminal_columns`: argparse's own
    formatter imports shutil for it, and shutil its compressors, at every argument a parser is given,
    whether help is asked for or not (start-up time)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width=None) -> None:
        if width is None:
            width = terminal_columns(fallback=80) - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def command_parser(name: str, module) -> argparse.ArgumentParser:
    """The parser of ``jpd NAME``: the module's options, then the options every command shares
    (``-q``, ``-v``) where the module has none of its own, and its examples."""
    parser = argparse.ArgumentParser(
        prog=f"jpd {name}",
        description=COMMANDS[name],
        epilog=f"examples:\n{EXAMPLES[name]}" if name in EXAMPLES else None,
        formatter_class=HelpFormatter,
    )
    module.add_arguments(parser)
    parser.description = _plain(parser.description)
    known = parser._option_string_actions  # argparse has no public way to ask
    if "--quiet" not in known:
        flags = (["-q"] if "-q" not in known else []) + ["--quiet"]
        parser.add_argument(*flags, action="store_true", help="no progress and no notes")
    if name in TABLES:
        parser.add_argument(
            "--wide",
            action="store_true",
            help="tables and text as wide as they are (not fitted to the terminal)",
        )
    if "--verbose" not in known:
        flags = (["-v"] if "-v" not in known else []) + ["--verbose"]
        parser.add_argument(*flags, action="store_true", help="more detail where there is more to say")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _escape_undecodable_names()
    if not argv:
        print(_usage(), file=sys.stderr)
        print("jpd: error: name a command", file=sys.stderr)
        return ERROR
    if argv[0] in ("-h", "--help"):
        print(_usage())
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
    args = command_parser(name, module).parse_args(argv[1:])
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
    from jpdtools.paths import conformance_dir, examples_dir, spec_dir
    from jpdtools.suite.identity import distribution_version, identify

    suite = conformance_dir()
    print(f"jpd (jipingdian) {distribution_version()}")
    print(identify([suite]).describe())
    print(f"cases: {suite}")
    print(f"spec:  {spec_dir()}")
    examples = examples_dir()
    if examples is not None:  # the files the documentation's examples read (examples/)
        print(f"examples: {examples}")
    return 0


def _error_prefix() -> str:
    from jpdtools.colour import paint

    return paint("jpd: error:", "red", sys.stderr)


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
        print(f"{_error_prefix()} {err}", file=sys.stderr)
        return NOTHING_SELECTED
    except (InputError, RulesError, PositionError, CoordinateError, HandicapError) as err:
        print(f"{_error_prefix()} {err}", file=sys.stderr)
        return ERROR
    except KeyboardInterrupt:
        print("jpd: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
