"""The options many ``jpd`` commands share, each spelt and read the same everywhere: ``--rules``,
``--lang``, ``--suite DIR`` and the suite paths, ``-o/--out OUTDIR``.

Parsing them imports nothing of the suite or the runner (``jpd play`` and ``jpd rules`` start with
these alone); the case selection of ``jpd run``, ``jpd verify`` and ``jpd export`` is
:mod:`jpdtools.commands.selecting`.
"""

import argparse
import sys
from pathlib import Path

from jpdtools.errors import InputError
from jpdtools.paths import conformance_dir

RULES_HELP = "rulesets: NAME or NAME:axis=value,…, several joined by '+' (repeatable); 'all' (the default)"


def add_rules_argument(parser: argparse.ArgumentParser, help: str = RULES_HELP) -> None:
    """``--rules``, the same on every command: repeatable, joined by '+', 'all' by default."""
    parser.add_argument("--rules", action="append", default=[], metavar="R", help=help)


def rules_value(values: list[str]) -> str:
    """The ``--rules`` values as one selection (``all`` when none is given)."""
    return "+".join(values) if values else "all"


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
