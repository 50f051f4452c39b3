"""The case-selection options shared by ``jpd run``, ``jpd verify`` and ``jpd export``.

``PATH…`` or ``--suite DIR`` (default: the installed suite, or the checkout's ``conformance/``),
``--rules``, ``--tag`` and ``--id``, turned into the runner's :class:`~jpdtools.run.runner.Plan`
and the :class:`~jpdtools.suite.identity.SuiteIdentity` of the files it came from, in one place.
"""

import argparse
from pathlib import Path

from jpdtools.errors import InputError, NothingSelected
from jpdtools.paths import conformance_dir
from jpdtools.presets import Presets
from jpdtools.run.runner import Plan, SuiteLoader, plan_paths, selection_filters
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
    parser.add_argument(
        "--rules",
        action="append",
        default=[],
        metavar="R",
        help="rulesets: NAME or NAME:axis=value,… joined by '+' (repeatable), or 'all' (default)",
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


def add_suite_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--suite",
        type=Path,
        metavar="DIR",
        help="the suite's folder (default: the suite installed with jpd, or the checkout's conformance/)",
    )


def suite_paths(args: argparse.Namespace, paths: list[Path] | None = None) -> list[Path]:
    """The case files or folders to load: the paths given, else ``--suite DIR``, else the default suite."""
    paths = args.paths if paths is None else paths
    if paths and args.suite is not None:
        raise InputError("give either --suite DIR or case paths, not both")
    if paths:
        return list(paths)
    return [args.suite if args.suite is not None else conformance_dir()]


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
