"""``jpd lint [PATHS…]``: check the suite — ids, id stability, anchors, seed traceability
(spec/sources.yaml), citations, review status, coverage, open-question pins.

Exit status 0 when every check passes, 1 when one fails, 2 for bad command-line input.
"""

import argparse
from pathlib import Path

from jpdtools import table
from jpdtools.commands.selecting import add_suite_argument, suite_paths
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.paths import conformance_dir, shared_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.review import lint
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.runner import default_loader, load_files


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="case files or directories (default: the whole suite, see --suite)",
    )
    add_suite_argument(parser)
    parser.add_argument(
        "--ids",
        type=Path,
        metavar="FILE",
        help="the append-only list of case ids (default: ids.txt in the suite's folder)",
    )
    parser.add_argument(
        "--update-ids",
        action="store_true",
        help="append suite ids missing from the ids file instead of failing on them",
    )
    parser.add_argument(
        "--update-pins",
        action="store_true",
        help="rewrite the 'Pinned by:' lines of spec/open-questions.md from the suite",
    )
    parser.add_argument("--no-coverage-table", action="store_true", help="do not print the coverage table")
    parser.add_argument(
        "--require-count-coverage",
        action="store_true",
        help="also require every {#count.…} clause of spec/counting.md to be cited by a case",
    )


def coverage_table(rows: list[lint.CoverageRow]) -> str:
    def ids(found: tuple[str, ...]) -> str:
        if not found:
            return "-"
        return found[0] if len(found) == 1 else f"{found[0]} (+{len(found) - 1})"

    body = [
        [r.anchor, str(len(r.cases)), ids(r.legal), ids(r.illegal), "ok" if r.ok else "MISSING"] for r in rows
    ]
    return table.render(["clause", "cases", "legal step", "illegal step", ""], body)


def run(args: argparse.Namespace) -> int:
    presets = load_presets()
    paths = suite_paths(args)
    ids_path = args.ids or (args.suite or conformance_dir()) / "ids.txt"
    loader = default_loader()
    files, failures = load_files(paths, presets, loader)
    if args.update_pins and not args.paths and not failures:
        changed = lint.update_pins(files, spec_dir())
        print(f"rewrote {changed} 'Pinned by:' line(s) in spec/open-questions.md")
    report = lint.lint(
        files,
        failures,
        presets,
        spec_dir(),
        ids_path,
        ReferenceAdapter(),
        loader,
        whole_suite=not args.paths,
        accept_new_ids=args.update_ids,
        require_count_coverage=args.require_count_coverage,
        seeds_root=shared_dir(),
    )
    if args.update_ids and report.new_ids:
        lint.append_ids(ids_path, report.new_ids)
        print(f"appended {len(report.new_ids)} id(s) to {ids_path}")
    if report.coverage and not args.no_coverage_table:
        print(coverage_table(list(report.coverage)))
        print()
    pending = [c for c in report.statuses if c.pending]
    if pending:
        print(f"{len(pending)} case(s) whose statuses are not proven yet (status-proof: pending):")
        for c in pending:
            print(f"  {c.case_id}: {c.pending}")
    for problem in report.problems:
        print(problem)
    cases = sum(len(f.cases) for f in files)
    status = "OK" if report.ok else f"{len(report.problems)} problem(s)"
    print(f"jpd lint: {cases} cases in {len(files)} files: {status}")
    return SUCCESS if report.ok else FAILURE
