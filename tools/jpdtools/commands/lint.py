"""``jpd lint [PATHS…]``: check the suite — ids, id stability, anchors, seed traceability
(spec/sources.yaml), citations, review status, coverage, open-question pins.

Exit status 0 when every check passes, 1 when one fails, 2 for bad command-line input.
"""

import argparse
import sys
from pathlib import Path

import yaml

from jpdtools import atomic, table
from jpdtools.commands.options import add_suite_argument, suite_paths
from jpdtools.errors import InputError, Location, NothingSelected, read_text_file
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.outputs import check_output
from jpdtools.paths import conformance_dir, shared_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.progress import Stages
from jpdtools.review import lint
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.runner import default_loader, load_files
from jpdtools.verify import implementations, status_opinion
from jpdtools.verify.status_opinion import opinions


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
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--gnugo-opinion",
        type=Path,
        metavar="FILE",
        help="also ask GNU Go's final_status_list about every declared status and every counted "
        "position and write the disagreements to FILE (Markdown); an unexplained one on a proven "
        "case, or a chain counted alive that GNU Go calls dead, is a problem",
    )
    parser.add_argument(
        "--gnugo-explanations",
        type=Path,
        metavar="FILE",
        default=Path("reports/status-proofs/explanations.yaml"),
        help="the explained disagreements, case id: text (default: %(default)s, if present)",
    )
    parser.add_argument(
        "--gnugo-redrawing",
        type=Path,
        metavar="FILE",
        default=Path("reports/status-proofs/being-redrawn.yaml"),
        help="counted positions known not to be settled while their diagrams are redrawn, case id: "
        "text; each is a warning instead of a problem (default: %(default)s, if present)",
    )
    parser.add_argument(
        "--require-count-coverage",
        action="store_true",
        help="also require every {#count.…} clause of spec/counting.md to be cited by a case",
    )
    parser.add_argument(
        "--require-zh",
        action="store_true",
        help="also require every case's Chinese title and note (zh:); without it, lint warns with the counts",
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


def _lint(args, files, failures, presets, ids_path, loader, progress) -> lint.LintReport:
    return lint.lint(
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
        require_zh=args.require_zh,
        progress=progress,
    )


def run(args: argparse.Namespace) -> int:
    presets = load_presets()
    paths = suite_paths(args)
    ids_path = args.ids or (args.suite or conformance_dir()) / "ids.txt"
    check_output("--gnugo-opinion", args.gnugo_opinion, "markdown", [*paths, ids_path])
    loader = default_loader()
    files, failures = load_files(paths, presets, loader)
    if not files and not failures:
        raise NothingSelected(f"no case file in {', '.join(str(p) for p in paths)}")
    if args.update_pins and not args.paths and not failures:
        changed = lint.update_pins(files, spec_dir())
        print(f"rewrote {changed} 'Pinned by:' line(s) in spec/open-questions.md")
    progress = Stages("jpd lint", enabled=not (args.quiet or args.json))
    try:
        report = _lint(args, files, failures, presets, ids_path, loader, progress)
    finally:
        progress.close()
    if args.update_ids and report.new_ids:
        lint.append_ids(ids_path, report.new_ids)
        print(f"appended {len(report.new_ids)} id(s) to {ids_path}")
    if args.json:
        return _print_json(args, files, report, problems_of(args, files, presets, report))
    if report.coverage and not args.no_coverage_table:
        print(coverage_table(list(report.coverage)))
        print()
    problems = problems_of(args, files, presets, report)
    for warning in report.warnings:
        print(f"warning: {warning}")
    for problem in problems:
        print(problem)
    cases = sum(len(f.cases) for f in files)
    status = "OK" if not problems else f"{len(problems)} problem(s)"
    print(f"jpd lint: {cases} cases in {len(files)} files: {status}")
    return SUCCESS if not problems else FAILURE


def problems_of(args, files, presets, report: lint.LintReport) -> list[lint.Problem]:
    """The lint's problems, with GNU Go's second opinion when asked for."""
    problems = list(report.problems)
    if args.gnugo_opinion is not None:
        problems += gnugo_opinion(files, presets, report, args)
    return problems


def _print_json(args, files, report: lint.LintReport, problems: list[lint.Problem]) -> int:
    import json

    data = {
        "cases": sum(len(f.cases) for f in files),
        "files": len(files),
        "ok": not problems,
        "problems": [
            {"check": p.check, "message": p.message, "where": str(p.location) if p.location else None}
            for p in problems
        ],
        "warnings": list(report.warnings),
        "pending": {c.case_id: c.pending for c in report.statuses if c.pending},
        "coverage": [
            {
                "clause": r.anchor,
                "cases": len(r.cases),
                "legal": list(r.legal),
                "illegal": list(r.illegal),
                "ok": r.ok,
            }
            for r in report.coverage
        ],
    }
    print(json.dumps(data, ensure_ascii=False, indent=2))
    return SUCCESS if not problems else FAILURE


def gnugo_opinion(files, presets, report: lint.LintReport, args) -> list[lint.Problem]:
    """GNU Go's second opinion on the declared statuses and the counted positions, written to
    ``args.gnugo_opinion``; an unexplained disagreement on a proven case is a problem
    (``status-opinion``), and so is a chain counted alive that GNU Go calls dead (``settledness``)
    unless explained — or, while its diagram is redrawn, listed in ``args.gnugo_redrawing`` (a
    warning then)."""
    out, explained, redrawn = args.gnugo_opinion, args.gnugo_explanations, args.gnugo_redrawing
    explanations = _explanations(explained) if explained.is_file() else {}
    redrawing = _explanations(redrawn, "the counted positions being redrawn") if redrawn.is_file() else {}
    cases = [c for f in files for c in f.cases if status_opinion.asked_about(c)]
    proven = {c.case_id: c for c in report.statuses}
    binary = implementations.binary_of("gnugo")
    if binary is None:
        return [lint.Problem("status-opinion", "GNU Go is not installed (gnugo): no second opinion")]
    found = opinions(cases, presets, proven, binary)
    settling = [c.id for f in files for c in f.cases if status_opinion.settles_first(c)]
    text = status_opinion.report(found, explanations, redrawing, settling, report.settledness)
    atomic.write_text(out, text)
    print(f"wrote GNU Go's second opinion on {len(found)} case(s) to {out}")
    where = {c.id: c.location for c in cases}
    problems = [
        lint.Problem(
            "status-opinion",
            f"{o.case_id}: GNU Go disagrees with the proven statuses, unexplained (add it to {explained})",
            where.get(o.case_id),
        )
        for o in status_opinion.unexplained(found, explanations)
    ]
    for o in status_opinion.unsettled(found, explanations):
        chains = "; ".join(" ".join(chain) for chain in o.unsettled_chains)
        message = (
            f"{o.case_id}: GNU Go calls {chains} dead, which the count leaves alive: a counted position "
            f"is settled (count.status (6)); redraw it, or say in {explained} why GNU Go is wrong"
        )
        if o.case_id in redrawing:
            print(f"warning: {message} (being redrawn: {redrawing[o.case_id]})", file=sys.stderr)
        else:
            problems.append(lint.Problem("settledness", message, where.get(o.case_id)))
    for stale in _stale(redrawing, found, redrawn):
        print(f"warning: {stale}", file=sys.stderr)
    missing = status_opinion.missing(found)
    if missing:  # an opinion not had is not an agreement
        shown = "; ".join(f"{o.case_id}: {o.skipped}" for o in missing[:3])
        more = f"; +{len(missing) - 3} more (in {out})" if len(missing) > 3 else ""
        asked = len(found) - sum(1 for o in found if o.skipped and not o.missing)
        problems.append(
            lint.Problem(
                "status-opinion",
                f"GNU Go gave no opinion on {len(missing)} of {asked} case(s): {shown}{more}",
            )
        )
    return problems


def _stale(redrawing: dict[str, str], found, path: Path) -> list[str]:
    """The entries of the being-redrawn list GNU Go now reads as settled (or that name no counted
    position it was asked about): a warning each, so that the list only shrinks."""
    still = {o.case_id for o in found if o.unsettled_chains or (o.counted and o.skipped)}
    return [
        f"{case_id} is listed in {path} but GNU Go reads it as settled: drop it"
        for case_id in redrawing
        if case_id not in still
    ]


def _explanations(path: Path, what: str = "the explanations of GNU Go's disagreements") -> dict[str, str]:
    """``reports/status-proofs/explanations.yaml`` (or the being-redrawn list): case id → text."""
    text = read_text_file(path, what)
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = Location(str(path), mark.line + 1, mark.column + 1) if mark else Location(str(path))
        problem = getattr(err, "problem", None) or "not YAML"
        raise InputError(f"not YAML: {problem}", where) from None
    except RecursionError:
        raise InputError("nested too deeply to read", Location(str(path))) from None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise InputError("expected 'case id: text' lines", Location(str(path)))
    return {str(k): " ".join(v.split()) for k, v in data.items()}
