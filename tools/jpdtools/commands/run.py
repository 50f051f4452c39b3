"""``jpd run [PATHS…]``: run the conformance suite against the reference implementation.

Exit status: 0 when nothing failed (open and skipped items are not failures), 1 when a case
failed or errored or a case file could not be loaded, 2 for bad command-line input.
"""

import argparse
import sys
from pathlib import Path

from jpdtools import report
from jpdtools.adapters import ReferenceAdapter
from jpdtools.exitcodes import ERROR, FAILURE, INTERRUPTED, SUCCESS
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.runner import Filters, default_loader, parse_rules_option, plan_paths, run_plan

HELP = "run the conformance suite against the reference implementation"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="case files or directories (default: conformance/)",
    )
    parser.add_argument(
        "--rules",
        action="append",
        default=[],
        metavar="R",
        help="ruleset names (comma-separated, repeatable) or 'all' (default)",
    )
    parser.add_argument(
        "--tag",
        action="append",
        default=[],
        metavar="T",
        help="only cases with this tag (repeatable: any of them)",
    )
    parser.add_argument(
        "--id",
        action="append",
        default=[],
        metavar="PATTERN",
        dest="ids",
        help="only cases whose id matches this glob pattern (repeatable)",
    )
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
    presets = load_presets()
    filters = Filters(
        rules=parse_rules_option(args.rules, presets),
        tags=tuple(args.tag),
        ids=tuple(args.ids),
    )
    paths = args.paths or [conformance_dir()]
    loader = default_loader()
    plan = plan_paths(paths, presets, filters, loader)
    progress = report.Progress(sys.stderr, len(plan.items), enabled=not (args.quiet or args.json))
    try:
        result = run_plan(plan, ReferenceAdapter(), presets, loader, progress)
    finally:
        progress.finish()
    order = presets.names
    if args.json:
        print(report.format_json(result, order))
    else:
        print(report.format_text(result, order, verbose=args.verbose, quiet=args.quiet))
    if args.junit:
        try:
            args.junit.write_text(report.format_junit(result, order), encoding="utf-8")
        except OSError as err:
            print(f"jpd: error: cannot write {args.junit}: {err.strerror}", file=sys.stderr)
            return ERROR
    if result.interrupted:
        return INTERRUPTED
    return SUCCESS if result.ok else FAILURE
