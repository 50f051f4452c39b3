"""``jpd book -o OUTDIR [PATHS…|--suite DIR] [--tag T] [--id PATTERN] [--study FILE] [--pdf]``: the
committee's case book.

A static site in two editions, ``OUTDIR/en/`` and ``OUTDIR/zh/``: the same pages, each in its
language, each linked to its twin; ``OUTDIR/index.html`` leads to both. It works from ``file://``
(no server, no network; only the rules playground needs a web server: ``--serve``), with a page
per case, clause, seed article, open question and ruleset, and where the rulesets differ. A book of
the whole suite (no PATH, ``--tag`` or ``--id``) carries the compatibility study:
``study/index.html`` and a page per cause, from ``jpd study`` run on the shipped sample of finished
games (benchmarks/corpus/gnugo-sample.tar.xz) under every preset with each game's komi; ``--study
FILE`` (the ``study.json`` that ``jpd study --out DIR`` writes) adds another study to any book,
``--no-study`` leaves it out. While it builds,
it says on standard error how far it is (one line updated in place on a terminal, else a line per
quarter of each stage). With ``--pdf``, also ``OUTDIR/en/book.pdf`` and ``OUTDIR/zh/book.pdf``:
each chapter printed by headless Chromium, joined with pypdf, pages numbered, with a contents giving
every chapter's and case's page (jpdtools/book/printbook.py). ``OUTDIR`` is new, empty or an
earlier book, which is replaced whole (jpdtools/outdir.py). Exit status 1 when a case file could
not be loaded (the rest is in the book), 2 for bad input (OUTDIR holding anything else, a link in
it, a full disk, a --study file that is not a study), 3 when the selection chose no case.
"""

import argparse
import json
import sys
from pathlib import Path

from jpdtools.book.build import LAYOUT, build
from jpdtools.book.font import ENV
from jpdtools.book.playground import MISSING_MESSAGE
from jpdtools.book.samplestudy import study_of
from jpdtools.commands.options import add_outdir_arguments, add_suite_argument, outdir_value, suite_paths
from jpdtools.errors import InputError, read_text_file
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.outdir import check_outdir
from jpdtools.outputs import check_output
from jpdtools.paths import sample_corpus, spec_dir
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
        "--study",
        type=Path,
        metavar="FILE",
        help="add the compatibility study: the study.json of jpd study --out DIR",
    )
    parser.add_argument(
        "--no-study",
        action="store_true",
        help="leave the compatibility study out (a book of the whole suite runs it on the shipped sample)",
    )
    parser.add_argument(
        "--serve",
        nargs="?",
        type=int,
        const=8000,
        metavar="PORT",
        help="then serve OUTDIR on http://127.0.0.1:PORT (default 8000; 0: any free port) until "
        "interrupted: the playground runs from a web server, not from file://",
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
    progress = Progress(sys.stderr)
    study = chosen_study(args, progress)
    report = build(
        outdir, paths, spec_dir(), load_presets(), default_loader(), filters, study, progress, args.pdf
    )
    progress.done()
    if args.json:
        data = {"out": str(report.out), "files": report.pages, "cases": report.cases}
        data["failures"] = [str(f) for f in report.failures]
        data["pdf"] = [str(p) for p in report.pdfs]
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
    if not report.playground:
        print(f"jpd: {MISSING_MESSAGE}", file=sys.stderr)
    for failure in report.failures:
        print(f"jpd: {failure}", file=sys.stderr)
    for pdf in report.pdfs:
        print(f"printed {pdf}", file=sys.stderr if args.json else sys.stdout)
    if args.serve is not None:
        serve(outdir, args.serve)
    return FAILURE if report.failures else SUCCESS


def serve(outdir: Path, port: int) -> None:
    """Serve ``outdir`` on 127.0.0.1 until interrupted, saying where (the playground's address)."""
    import functools
    import http.server

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format, *args) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(outdir))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as err:
        raise InputError(f"--serve {port}: cannot listen on 127.0.0.1:{port} ({err.strerror})") from None
    address = f"http://127.0.0.1:{server.server_address[1]}"
    print(
        f"serving {outdir} at {address}/ (the playground: {address}/en/playground.html); Ctrl-C stops",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def chosen_study(args: argparse.Namespace, progress: "Progress") -> dict | None:
    """The study the book carries: ``--study FILE``; none with ``--no-study``, for a selection of
    the suite, or where no sample is shipped (said on standard error); else the sample's."""
    if args.study is not None and args.no_study:
        raise InputError("--study FILE and --no-study contradict each other: give one")
    if args.study is not None:
        return load_study(args.study)
    if args.no_study or args.paths or args.tag or args.ids:
        return None
    sample = sample_corpus()
    if sample is None:
        print("jpd: no sample of finished games is shipped here: the book carries no study", file=sys.stderr)
        return None
    return study_of(sample, load_presets(), progress)


STUDY_KEYS = ("records", "rulesets", "pairs", "examples", "unexplained", "engine_score", "komi_source")


def load_study(path: Path) -> dict:
    """The result ``jpd study --out`` wrote (``study.json``); InputError naming what is wrong."""
    text = read_text_file(path, "--study file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(
            f"--study {path}: not JSON ({err.msg} at line {err.lineno}, column {err.colno})"
        ) from None
    missing = [k for k in STUDY_KEYS if not isinstance(data, dict) or k not in data]
    if missing:
        raise InputError(f"--study {path}: not a study.json of jpd study (no {', '.join(missing)})")
    return data


class Progress:
    """How far the build is, on ``stream``: one line updated in place on a terminal, else a line
    when a stage starts and at every quarter of it."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.shown: tuple[str, int] = ("", -1)

    def __call__(self, stage: str, done: int, total: int) -> None:
        quarter = 4 * done // max(total, 1)
        if self.tty:
            if done == total or done % 50 == 0:
                self.stream.write(f"\rjpd book: {stage} {done}/{total} ")
                self.stream.flush()
            return
        if (stage, quarter) != self.shown and (stage != self.shown[0] or quarter > self.shown[1]):
            self.shown = (stage, quarter)
            self.stream.write(f"jpd book: {stage} {done}/{total}\n")
            self.stream.flush()

    def done(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
