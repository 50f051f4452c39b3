"""The case-selection options shared by ``jpd run``, ``jpd verify`` and ``jpd export``.

``PATH…`` or ``--suite DIR`` (default: the installed suite, or the checkout's ``conformance/``),
``--rules``, ``--tag`` and ``--id``, turned into the runner's :class:`~jpdtools.run.runner.Plan`
and the :class:`~jpdtools.suite.identity.SuiteIdentity` of the files it came from, in one place.
The options themselves are :mod:`jpdtools.commands.options`.
"""

import argparse
from pathlib import Path

from jpdtools.commands.options import add_rules_argument, add_suite_argument, suite_paths
from jpdtools.errors import NothingSelected
from jpdtools.presets import Presets
from jpdtools.run.runner import Plan, SuiteLoader, parse_rules_option, plan_paths, selection_filters
from jpdtools.suite.identity import SuiteIdentity, identify


def add_selection_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="case files or directories (default: the suite, see --suite)",
    )
    add_suite_argument(parser)
    add_rules_argument(parser)
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


def selected_suite(args: argparse.Namespace) -> SuiteIdentity:
    """Which suite the selection options of ``args`` name (version and content hash)."""
    return identify(suite_paths(args))


def selected_plan(args: argparse.Namespace, presets: Presets, loader: SuiteLoader) -> Plan:
    """The plan the selection options of ``args`` choose. Raises NothingSelected, naming the
    selectors, when it holds no item (and no file failed to load, which is reported as such)."""
    filters = selection_filters(args.rules, presets, tags=tuple(args.tag), ids=tuple(args.ids))
    paths = suite_paths(args)
    plan = plan_paths(paths, presets, filters, loader)
    if not (plan.items or plan.failures or plan.errors):
        raise NothingSelected(f"nothing selected: no case matches {describe_selection(args, paths)}")
    return plan


def describe_selection(args: argparse.Namespace, paths: list[Path]) -> str:
    """The selectors of ``args`` as the user wrote them, e.g. ``--id 'nosuch' in conformance``."""
    parts = [f"--id {p!r}" for p in args.ids] + [f"--tag {t!r}" for t in args.tag]
    parts += [f"--rules {r!r}" for r in args.rules]
    where = ", ".join(str(p) for p in paths)
    return f"{' '.join(parts)} in {where}" if parts else f"the cases of {where}"


def ruleset_order(args: argparse.Namespace, presets: Presets) -> list[str]:
    """The rulesets of a report's table, in order: the presets, then the variants ``--rules``
    asks for (a variant only a case names is not one of them: the table adds those up)."""
    asked = parse_rules_option(args.rules, presets)
    return [*presets.names, *(name for name in asked if name not in presets.names)]
