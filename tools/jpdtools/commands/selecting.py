"""The case-selection options shared by ``jpd run``, ``jpd verify`` and ``jpd export``.

``PATH…`` (default: ``conformance/``), ``--rules``, ``--tag`` and ``--id``, turned into the
runner's :class:`~jpdtools.run.runner.Plan` in one place.
"""

import argparse
from pathlib import Path

from jpdtools.paths import conformance_dir
from jpdtools.presets import Presets
from jpdtools.run.runner import Filters, Plan, SuiteLoader, parse_rules_option, plan_paths


def add_selection_arguments(parser: argparse.ArgumentParser) -> None:
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


def selected_plan(args: argparse.Namespace, presets: Presets, loader: SuiteLoader) -> Plan:
    """The plan the selection options of ``args`` choose."""
    filters = Filters(
        rules=parse_rules_option(args.rules, presets), tags=tuple(args.tag), ids=tuple(args.ids)
    )
    return plan_paths(args.paths or [conformance_dir()], presets, filters, loader)
