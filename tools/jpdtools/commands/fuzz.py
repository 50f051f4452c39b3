"""``jpd fuzz --impl SPEC --rules R``: differential fuzzing against the reference implementation.

Plays seeded random games biased towards what breaks engines (ko fights, snapbacks, suicides,
passes and virtual moves between ko captures, long cycles) through the program and through
``jpdref``, compares every step (:mod:`jpdtools.verify.fuzz`), shrinks a failing game to a small
case and writes it as a case file with ``status: proposed`` into ``--out`` (one file per
finding: ``fuzz.R.SEED.yaml``), ready for ``jpd run`` and ``jpd verify``. Bounded by ``--games``
and ``--seconds``; game N of ``--seed S`` is the same on every machine.

Exit status: 0 when no game failed, 1 when something was found (or the program errored on every
game, or no game could be played), 2 for bad input, 130 when interrupted. For a GTP engine the
games' ruleset is the one it is taken to play (``--engine-rules`` of ``jpd verify``).
"""

import argparse
import math
import sys
import time
from pathlib import Path

from jpdtools import atomic
from jpdtools.commands.options import RULES_HELP, add_rules_argument, rules_value
from jpdtools.errors import InputError
from jpdtools.exitcodes import FAILURE, INTERRUPTED, SUCCESS
from jpdtools.outputs import check_output
from jpdtools.presets import load_presets
from jpdtools.suite.model import CaseFile
from jpdtools.suite.writer import dump_case_file
from jpdtools.verify import verification
from jpdtools.verify.fuzz import Event, finding_case, fuzz
from jpdtools.verify.process import MAX_TIMEOUT, Orphans


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--impl", required=True, metavar="SPEC", help="gnugo | gtp:COMMAND | jsonl:COMMAND | …"
    )
    add_rules_argument(parser, RULES_HELP + "; several share --games and --seconds, in turn")
    parser.add_argument(
        "--size",
        default="9,19",
        metavar="N[,N…]",
        help="board sizes, in turn (default 9,19; refused sizes go)",
    )
    parser.add_argument("--games", type=int, default=1000, metavar="N", help="at most N games (default 1000)")
    parser.add_argument(
        "--seconds", type=float, default=60.0, metavar="S", help="at most S seconds (default 60)"
    )
    parser.add_argument("--seed", type=int, default=1, metavar="N", help="the first game's seed (default 1)")
    parser.add_argument(
        "-o",
        "--out",
        type=Path,
        default=Path("fuzz-findings"),
        metavar="DIR",
        help="where the case files go (default: fuzz-findings)",
    )
    parser.add_argument(
        "--keep-going", action="store_true", help="after a finding, go on for findings of other kinds"
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, metavar="SECONDS", help="per command (default 10)"
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="findings only, no line per game")
    parser.add_argument("--json", action="store_true", help="print the findings and the tally as JSON")


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(word) for word in text.split(","))
    except ValueError:
        raise InputError(f"--size: expected N[,N…], got {text!r}") from None
    bad = [n for n in sizes if not 2 <= n <= 25]
    if bad:
        raise InputError(f"--size: {bad[0]} is not a board size (2..25)")
    return sizes


def _check(args: argparse.Namespace) -> None:
    if args.games < 1:
        raise InputError(f"--games must be at least 1, got {args.games}")
    for name in ("seconds", "timeout"):
        value = getattr(args, name)
        if not (value > 0 and math.isfinite(value)):
            raise InputError(f"--{name} must be a positive, finite number of seconds, got {value:g}")
    if args.timeout > MAX_TIMEOUT:
        raise InputError(f"--timeout {args.timeout:g}: at most {MAX_TIMEOUT:,} seconds (a day)")


def run(args: argparse.Namespace) -> int:
    _check(args)
    check_output("--out", args.out, "dir")
    sizes = _sizes(args.size)
    chosen = load_presets().select(rules_value(args.rules))
    # several rulesets share the budget: each plays its part of --games and --seconds in turn
    games_each = max(1, args.games // len(chosen))
    seconds_each = args.seconds / len(chosen)
    found = games = errors = 0
    began = time.perf_counter()
    interrupted = False
    findings: list[Path] = []
    for rules in chosen:
        tally, interrupted = _fuzz_one(args, rules, sizes, games_each, seconds_each, findings)
        found, games, errors = found + tally[0], games + tally[1], errors + tally[2]
        if interrupted or (found and not args.keep_going):
            break
    wall = time.perf_counter() - began
    verdict = "INTERRUPTED" if interrupted else f"{found} finding{'s' * (found != 1)}"
    under = rules_value(args.rules)
    if args.json:
        import json

        data = {"rules": under, "games": games, "errors": games and errors, "interrupted": interrupted}
        print(json.dumps({**data, "findings": [str(f) for f in findings]}, ensure_ascii=False, indent=2))
    else:
        print(f"{games} games under {under} ({errors} errors of the program) in {wall:.1f} s — {verdict}")
    if interrupted:
        return INTERRUPTED
    if not games:
        print("jpd fuzz: no game could be played (see the board sizes above)", file=sys.stderr)
    return FAILURE if found or errors == games else SUCCESS


def _fuzz_one(
    args, rules, sizes, games_wanted: int, seconds: float, findings: list[Path]
) -> tuple[tuple[int, int, int], bool]:
    """Fuzz under one ruleset: (findings, games, errors), and whether it was interrupted; the
    case files written are appended to ``findings``."""
    gtp = args.impl == "gnugo" or args.impl.startswith("gtp:")
    base = frozenset({rules.name.partition(":")[0]})
    adapter = verification.open_impl(args.impl, args.timeout, base if gtp else None)
    orphans = Orphans()
    found = games = errors = 0
    interrupted = False
    try:
        for event in fuzz(
            adapter,
            rules,
            sizes,
            seed=args.seed,
            games=games_wanted,
            seconds=seconds,
            keep_going=args.keep_going,
        ):
            games += event.kind in ("game", "error", "finding")
            errors += event.kind == "error"
            if event.kind == "finding" and event.finding is not None:
                found += 1
                path = _write(args.out, event, rules, args.impl)
                findings.append(path)
                if not args.json:
                    print(f"game {event.seed}: {event.text}")
                    print(f"  shrunk in {event.finding.trials} trials to {path}")
            elif event.kind == "size":
                print(f"skipped board size {event.text}", file=sys.stderr if args.json else sys.stdout)
            elif not (args.quiet or args.json):
                print(f"game {event.seed}: {event.text}", file=sys.stderr)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        verification.close_impl(adapter)
        orphans.clear()
    return (found, games, errors), interrupted


def _write(out: Path, event: Event, rules, impl: str) -> Path:
    assert event.finding is not None
    case = finding_case(event.finding, rules, impl)
    path = out / f"{case.id}.yaml"
    topic = "Findings of jpd fuzz: games the program under test plays differently from the reference"
    atomic.write_text(path, dump_case_file(CaseFile(str(path), 1, topic, (case,)), explicit_status=True))
    return path
