"""The case-selection options shared by ``jpd run``, ``jpd verify`` and ``jpd export``.

``PATH…`` or ``--suite DIR`` (default: the installed suite, or the checkout's ``conformance/``),
``--rules``, ``--tag`` and ``--id``, turned into the runner's :class:`~jpdtools.run.runner.Plan`
and the :class:`~jpdtools.suite.identity.SuiteIdentity` of the files it came from, in one place.
"""

import argparse
import sys
from pathlib import Path

from jpdtools.errors import InputError, NothingSelected
from jpdtools.paths import conformance_dir
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


RULES_HELP = "rulesets: NAME or NAME:axis=value,…, several joined by '+' (repeatable); 'all' (the default)"


def add_rules_argument(parser: argparse.ArgumentParser, help: str = RULES_HELP) -> None:
    """``--rules``, the same on every command: repeatable, joined by '+', 'all' by default."""
    parser.add_argument("--rules", action="append", default=[], metavar="R", help=help)


def rules_value(values: list[str]) -> str:
    """The ``--rules`` values as one selection (``all`` when none is given)."""
    return "+".join(values) if values else "all"


def add_outdir_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """``-o/--out OUTDIR``, the output folder of ``jpd book`` and ``jpd export``; the older
    positional OUTDIR (before the case paths) still works, with a note saying it is deprecated."""
    parser.add_argument("-o", "--out", metavar="OUTDIR", help=f"the folder to write {what} into")
    parser.add_argument("outdir", nargs="?", metavar="OUTDIR", help="deprecated: the same as -o/--out OUTDIR")


def outdir_value(args: argparse.Namespace, command: str) -> Path:
    """The output folder ``args`` name (with ``--out``, a positional OUTDIR is a case path)."""
    if args.out is not None:
        if args.outdir is not None:
            args.paths = [Path(args.outdir), *args.paths]
        chosen = args.out
    elif args.outdir is not None:
        print(
            f"jpd {command}: note: OUTDIR as the first argument is deprecated: write -o/--out {args.outdir}",
            file=sys.stderr,
        )
        chosen = args.outdir
    else:
        raise InputError(f"name the folder to write into: jpd {command} --out OUTDIR")
    if not chosen.strip():
        raise InputError("OUTDIR is empty: name the folder to write into")
    return Path(chosen)


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        choices=("en", "zh"),
        default="en",
        help="the language of the text: en (default) or zh (简体中文, the book's catalogues and glossary)",
    )


def speaker(lang: str):
    """(a line, a table cell) in ``lang``: as written, in English; in Chinese by the book's
    catalogues and glossary (jpdtools/book/lang/output.py, imported only then)."""
    if lang != "zh":
        return (lambda s: s), (lambda s: s)
    from jpdtools.book.lang.output import cell_zh, line_cli_zh

    return line_cli_zh, cell_zh


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


def ruleset_order(args: argparse.Namespace, presets: Presets) -> list[str]:
    """The rulesets of a report's table, in order: the presets, then the variants ``--rules``
    asks for (a variant only a case names is not one of them: the table adds those up)."""
    asked = parse_rules_option(args.rules, presets)
    return [*presets.names, *(name for name in asked if name not in presets.names)]
