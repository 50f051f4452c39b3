"""``jpd book -o OUTDIR [PATHS…|--suite DIR] [--tag T] [--id PATTERN] [--pdf]``: the committee's case book.

A static site in two editions, ``OUTDIR/en/`` and ``OUTDIR/zh/``: the same pages, each in its
language, each linked to its twin; ``OUTDIR/index.html`` leads to both. It works from ``file://``
(no server, no network), with a page per case, clause, seed article, open question and ruleset,
and where the rulesets differ. With ``--pdf``, also ``OUTDIR/en/book.pdf`` and
``OUTDIR/zh/book.pdf``, printed by headless Chromium. ``OUTDIR`` is new, empty or an earlier book,
which is replaced whole (jpdtools/outdir.py). Exit status 1 when a case file could not be loaded
(the rest is in the book), 2 for bad input (OUTDIR holding anything else, a link in it, a full
disk), 3 when the selection chose no case.
"""

import argparse
import sys
from pathlib import Path

from jpdtools.book.build import LAYOUT, build
from jpdtools.book.font import ENV
from jpdtools.book.lang import EDITIONS
from jpdtools.book.pdf import print_pdf
from jpdtools.commands.selecting import add_outdir_arguments, add_suite_argument, outdir_value, suite_paths
from jpdtools.errors import InputError
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.outdir import check_outdir
from jpdtools.outputs import check_output
from jpdtools.paths import spec_dir
from jpdtools.presets import load_presets
from jpdtools.run.runner import Filters, default_loader


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_outdir_arguments(parser, "the book (new, empty, or an earlier book, which is replaced whole)")
    parser.add_argument(
        "paths", nargs="*", type=Path, metavar="PATH", help="case files or directories (default: the suite)"
    )
    add_suite_argument(parser)
    parser.add_argument("--json", action="store_true", help="print what was written as JSON")
    parser.add_argument("--tag", action="append", default=[], metavar="T", help="only cases with this tag")
    parser.add_argument(
        "--id",
        action="append",
        default=[],
        metavar="PATTERN",
        dest="ids",
        help="only cases matching this glob",
    )
    parser.add_argument(
        "--pdf",
        action="store_true",
        help="also print OUTDIR/en/book.pdf and OUTDIR/zh/book.pdf with headless Chromium",
    )


def run(args: argparse.Namespace) -> int:
    outdir = outdir_value(args, "book")
    check_output("OUTDIR", outdir, "folder", suite_paths(args))
    if outdir.exists() and not outdir.is_dir():
        raise InputError(f"OUTDIR {outdir} is a file, not a directory")
    check_outdir(outdir, LAYOUT)
    filters = Filters(tags=tuple(args.tag), ids=tuple(args.ids))
    paths = suite_paths(args)
    report = build(outdir, paths, spec_dir(), load_presets(), default_loader(), filters)
    if args.json:
        import json

        data = {"out": str(report.out), "files": report.pages, "cases": report.cases}
        data["failures"] = [str(f) for f in report.failures]
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        took = f"{report.seconds:.1f} s"
        print(f"{report.pages} files, {report.cases} cases, written to {report.out} in {took}")
    if report.font is None:
        print(
            f"jpd: the book carries no CJK font (none found; apt-get install fonts-noto-cjk, or name a "
            f"Noto CJK font in {ENV}): its Chinese text needs a CJK font on the reader's machine",
            file=sys.stderr,
        )
    for failure in report.failures:
        print(f"jpd: {failure}", file=sys.stderr)
    if args.pdf:
        for lang in EDITIONS:
            print(f"printed {print_pdf(outdir, lang)}", file=sys.stderr if args.json else sys.stdout)
    return FAILURE if report.failures else SUCCESS
