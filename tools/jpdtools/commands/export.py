"""``jpd export --to json|sgf|gtp -o OUTDIR [PATHS…]``: the suite in forms other programs read.

Forms (spec/export-formats.md): ``json`` → ``OUTDIR/cases.jsonl``; ``sgf`` →
``OUTDIR/sgf/<case-id>/<ruleset>.sgf``; ``gtp`` → ``OUTDIR/gtp/<case-id>.<ruleset>.tst`` (GNU Go
regression scripts). ``--to`` may be repeated or given ``all``. A case file that fails to load is
reported with file:line:col and the rest is exported.

Exit status: 0 when everything selected was exported, 1 when a case file could not be loaded, a
case could not be resolved or an item failed to export, 2 for bad command-line input.
"""

import argparse
import sys

from jpdtools.commands.options import add_outdir_arguments, outdir_value, suite_paths
from jpdtools.commands.selecting import add_selection_arguments, selected_plan
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.export.layout import FORMS, NOT_EXPORTED_NAME, write_export
from jpdtools.outputs import check_output
from jpdtools.presets import load_presets
from jpdtools.progress import Stages
from jpdtools.run.runner import default_loader


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--to",
        action="append",
        required=True,
        choices=[*FORMS, "all"],
        dest="forms",
        help="the form to write (repeatable; 'all' for every form)",
    )
    add_outdir_arguments(parser, "the export (new, empty, or an earlier export, which is replaced whole)")
    add_selection_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    outdir = outdir_value(args, "export")
    check_output("OUTDIR", outdir, "folder", suite_paths(args))
    presets = load_presets()
    forms = FORMS if "all" in args.forms else tuple(args.forms)
    plan = selected_plan(args, presets, default_loader())
    ok = True
    for failure in plan.failures:
        print(f"jpd: {failure}", file=sys.stderr)
        ok = False
    for error in plan.errors:
        print(f"jpd: {error.where}: {error.case_id}: {error.detail}", file=sys.stderr)
        ok = False
    forms_written = []
    progress = Stages("jpd export", enabled=not (args.quiet or args.json))
    try:
        exported = write_export(list(plan.items), outdir, forms, progress)
    finally:
        progress.close()
    for written in exported:
        line = f"{written.form}: {written.count} written to {written.where}"
        if written.not_exported:
            line += f" ({len(written.not_exported)} not expressible, see {written.where / NOT_EXPORTED_NAME})"
        if not args.json:
            print(line)
        forms_written.append(
            {
                "form": written.form,
                "written": written.count,
                "where": str(written.where),
                "not_expressible": len(written.not_exported),
                "problems": [str(p) for p in written.problems],
            }
        )
        for problem in written.problems:
            print(f"jpd: cannot export {problem}", file=sys.stderr)
            ok = False
    if args.json:
        import json

        print(
            json.dumps({"out": str(outdir), "ok": ok, "forms": forms_written}, ensure_ascii=False, indent=2)
        )
    return SUCCESS if ok else FAILURE
