"""``jpd matrix [REPORTS]``: the compatibility matrix of every verified implementation, one page.

Reads each ``REPORTS/<name>/report.json`` (written by ``jpd verify --report-dir``) with the
``expected-failures.txt`` beside it, and writes ``REPORTS/index.html`` (or ``--out``): every
implementation × ruleset and × clause, as passes, failures by root cause and skips by reason
(:mod:`jpdtools.verify.matrix`). REPORTS defaults to the checkout's ``reports/``.
"""

from pathlib import Path

from jpdtools.atomic import replacing
from jpdtools.errors import InputError
from jpdtools.outputs import check_output
from jpdtools.paths import checkout_root
from jpdtools.presets import load_presets
from jpdtools.verify import matrix


def add_arguments(parser) -> None:
    parser.add_argument(
        "reports",
        nargs="?",
        type=Path,
        help="the folder of verify report folders (default: the checkout's reports/)",
    )
    parser.add_argument("--json", action="store_true", help="print what was written as JSON")
    parser.add_argument("-o", "--out", type=Path, help="the page to write (default: REPORTS/index.html)")


def run(args) -> int:
    reports = args.reports
    if reports is None:
        root = checkout_root()
        if root is None:
            raise InputError("jpd matrix: name the folder of verify reports (no checkout here)")
        reports = root / "reports"
    out = args.out or reports / "index.html"
    folders = matrix.discover(reports)
    check_output("--out", out, "html", folders)
    impls = [matrix.load(folder) for folder in folders]
    page = matrix.render(impls, load_presets().names)
    with replacing(out) as f:
        f.write(page)
    if args.json:
        import json

        print(json.dumps({"out": str(out), "implementations": [str(f) for f in folders]}, indent=2))
    else:
        print(f"wrote {out}: {len(impls)} implementations")
    return 0
