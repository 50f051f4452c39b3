"""``jpd run [PATHS…]``: run the conformance suite against the reference implementation.

Exit status: 0 when nothing failed (open and skipped items are not failures), 1 when a case
failed or errored or a case file could not be loaded, 2 for bad command-line input.
"""

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from jpdtools import atomic, colour, table
from jpdtools.commands.options import suite_paths
from jpdtools.commands.selecting import add_selection_arguments, ruleset_order, selected_plan, selected_suite
from jpdtools.errors import InputError
from jpdtools.exitcodes import ERROR, FAILURE, INTERRUPTED, SUCCESS
from jpdtools.outputs import check_output
from jpdtools.presets import load_presets
from jpdtools.run import report
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.runner import default_loader, run_plan


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_selection_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--junit", type=Path, metavar="FILE", help="also write JUnit XML here")
    parser.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="no progress line and no table: failures and the summary line",
    )
    parser.add_argument("--verbose", "-v", action="store_true", help="also list open and skipped items")


def run(args: argparse.Namespace) -> int:
    check_output("--junit", args.junit, "junit", suite_paths(args))
    presets = load_presets()
    loader = default_loader()
    plan = selected_plan(args, presets, loader)
    suite = selected_suite(args)
    for note in () if args.json else plan.notes():
        print(f"jpd run: note: {note}", file=sys.stderr)
    progress = report.Progress(sys.stderr, len(plan.items), enabled=not (args.quiet or args.json))
    try:
        result = run_plan(plan, ReferenceAdapter(), presets, loader, progress)
    finally:
        progress.finish()
    result = replace(result, suite=suite)
    order = ruleset_order(args, presets)
    if args.json:
        print(report.format_json(result, order))
    else:
        width = table.terminal_width(args.wide)
        text = report.format_text(result, order, verbose=args.verbose, quiet=args.quiet, width=width)
        print(colour.verdict_line(text, result.ok, sys.stdout))
    if args.junit:
        try:
            atomic.write_text(args.junit, report.format_junit(result, order))
        except InputError as err:
            print(f"jpd: error: {err}", file=sys.stderr)
            return ERROR
    if result.interrupted:
        return INTERRUPTED
    return SUCCESS if result.ok else FAILURE
