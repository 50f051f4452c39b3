"""``jpd explain ID``: one case step by step, under every ruleset it applies to.

Prints the title, the spec clauses it cites (with their headings), its seeds, the initial
diagram, then each step: the action and, per group of rulesets that agree, the expected verdict,
the observed result, the outcome and the clause (and ruleset axis) that decides it, followed by
the board after the step; then the end state; then, for a case that settles a dispute by play,
the settling stage (procedure, each step, how it stopped, the stage's moves and what it proved);
then, for a case that counts, the agreement and
counters and, per group of rulesets with the same count, the method, komi, each side's figures
and the counted board (after fill-back and balancing). Exit status 1 if the case fails under
some ruleset.
"""

import argparse
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from jpdref.coords import GTP_COLUMNS

from jpdtools import table
from jpdtools.commands.options import (
    RULES_HELP,
    add_lang_argument,
    add_rules_argument,
    add_suite_argument,
    suite_paths,
)
from jpdtools.errors import InputError
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.paths import spec_dir
from jpdtools.presets import load_presets
from jpdtools.review.anchors import ANCHOR_RE, Anchor, spec_anchors
from jpdtools.review.explanation import (
    Decision,
    agreement_lines,
    count_mark,
    deciding_clause,
    ending_clause,
    observed_text,
    settle_lines,
    setup_rows,
    step_verdict,
    verdict_mark,
)
from jpdtools.review.translations import ZH_DIR, zh_documents
from jpdtools.run.adapters import (
    CountObservation,
    ReferenceAdapter,
    SettleObservation,
)
from jpdtools.run.compare import (
    CaseResult,
    Status,
    claim_text,
    observed_count_claim,
    observed_end,
)
from jpdtools.run.runner import (
    PlanItem,
    case_files,
    default_loader,
    execute_item,
    load_files,
    make_plan,
    selection_filters,
)
from jpdtools.suite.model import Case, decimal_text
from jpdtools.suite.setup import SettleSpec


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID", help="the case id")
    add_rules_argument(parser, RULES_HELP + ": those the case applies to")
    parser.add_argument(
        "--path",
        action="append",
        type=Path,
        default=[],
        metavar="PATH",
        help="look for the case here (repeatable; default: the suite, see --suite)",
    )
    add_suite_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    add_lang_argument(parser)


# -- diagrams ----------------------------------------------------------------------------------


def diagram(rows: str, markers: dict[str, str] | None = None) -> list[str]:
    """A board (rows top first, ``/``-separated) with GTP column letters and row numbers."""
    grid = [list(r) for r in rows.split("/")]
    height, width = len(grid), len(grid[0]) if grid else 0
    for vertex, letter in (markers or {}).items():
        x, y = GTP_COLUMNS.index(vertex[0].upper()), height - int(vertex[1:])
        if 0 <= y < height and 0 <= x < width and grid[y][x] == ".":
            grid[y][x] = letter
    pad = len(str(height))
    letters = " " * (pad + 1) + " ".join(GTP_COLUMNS[:width])
    lines = [letters]
    for y, row in enumerate(grid):
        n = str(height - y).rjust(pad)
        lines.append(f"{n} {' '.join(row)} {n}")
    lines.append(letters)
    return lines


def _indent(lines: Sequence[str], n: int) -> list[str]:
    return [" " * n + line for line in lines]


# -- clauses -----------------------------------------------------------------------------------


def _zh_heading(line: str, anchor: str) -> str:
    """The Chinese words an anchor labels: its heading, or (an anchor in running text) the words
    before it on its line, else the line's first sentence."""
    if line.lstrip().startswith("#"):
        return ANCHOR_RE.sub("", line).strip().lstrip("#").strip()
    before = line.split(f"{{#{anchor}}}", 1)[0]
    words = re.sub(r"^\s*(?:\d+\.|[-*|])\s*|[*`]", "", before).strip(" ：:")
    return words or ANCHOR_RE.sub("", line).split("。", 1)[0].strip()


def zh_anchors(anchors: dict[str, Anchor], spec: Path) -> dict[str, Anchor]:
    """``anchors`` with the Chinese twin's words, file and line (``spec/zh/play.md``) for each
    anchor the twin has; the others as they are."""
    out = dict(anchors)
    found: set[str] = set()
    for doc in zh_documents(spec).values():
        for n, line in enumerate(doc.text.splitlines(), 1):
            for name in ANCHOR_RE.findall(re.sub(r"`[^`]*`", "", line)):
                if name in anchors and name not in found:
                    found.add(name)
                    out[name] = replace(
                        anchors[name], file=f"{ZH_DIR}/{doc.name}", line=n, heading=_zh_heading(line, name)
                    )
    return out


# -- the explanation ---------------------------------------------------------------------------


def _groups(pairs: list[tuple[str, tuple]]) -> list[tuple[list[str], tuple]]:
    groups: dict[tuple, list[str]] = {}
    for name, key in pairs:
        groups.setdefault(key, []).append(name)
    return [(names, key) for key, names in groups.items()]


def explain_case(
    case: Case,
    file: str,
    items: list[PlanItem],
    results: list[CaseResult],
    anchors: dict[str, Anchor],
) -> list[str]:
    out = [f"{case.id} — {case.title}"]
    where = case.location or file
    out.append(f"file: {where}")
    if case.status != "accepted" or case.decision:
        decided = f" (decided {case.decided})" if case.decided else ""
        out.append(f"status: {case.status}{decided}")
        if case.decision:
            out += ["decision:", *_indent(case.decision.strip().splitlines(), 2)]
    out.append("spec:")
    for a in case.spec:
        anchor = anchors.get(a)
        text = f"{anchor.heading}  (spec/{anchor.file}:{anchor.line})" if anchor else "(not found)"
        out.append(f"  {a}  {text}")
    out.append("seeds: " + ("; ".join(case.seeds) or "-"))
    if case.tags:
        out.append("tags: " + ", ".join(case.tags))
    if case.open:
        out.append("open questions: " + ", ".join(case.open))
    if case.note:
        out += ["note:", *_indent(case.note.strip().splitlines(), 2)]
    if case.load_error is not None:
        return out + _explain_error_case(case, results)
    setup = case.setup
    assert setup is not None
    markers = {v: letter for letter, v in setup.markers}
    head = f"initial position: {setup.width}x{setup.height}, {setup.to_move} to move"
    if setup.handicap:
        head += f", handicap {setup.handicap} (placed as each ruleset's handicap axis says)"
    out += ["", head, *_indent(diagram(setup_rows(setup), markers), 2)]
    if case.history:
        out.append("history: " + "  ".join(map(str, case.history)))
    by_rules = {r.ruleset: r for r in results}
    played = [(i, by_rules[i.ruleset]) for i in items if i.ruleset in by_rules]
    for n, action in enumerate(case.moves, 1):
        out += ["", f"step {n}: {action}"]
        out += _explain_step(n, action.kind, played, anchors)
    out += ["", "end:"]
    out += _explain_end(played, anchors)
    if setup.final is not None and setup.final.settle is not None:
        out += ["", *_explain_settle(setup.final.settle, played)]
    if setup.final is not None:
        out += ["", *agreement_lines(setup), *_explain_count(played)]
    out += ["", "verdicts:"]
    for names, key in _groups([(r.ruleset, (str(r.status), r.detail)) for r in results]):
        detail = f" — {key[1]}" if key[1] else ""
        out.append(f"  {', '.join(names)}: {key[0]}{detail}")
    return out


def _sources(names: list[str], decisions: dict[str, Decision]) -> list[str]:
    distinct = {decisions[n].sources for n in names}
    if distinct == {()}:
        return []
    if len(distinct) == 1:
        return [f"      {s}" for s in decisions[names[0]].sources]
    return [f"      {n}: {'; '.join(decisions[n].sources)}" for n in names if decisions[n].sources]


def _explain_step(n: int, kind: str, played, anchors) -> list[str]:
    out: list[str] = []
    verdicts, boards, decisions = [], [], {}
    for item, result in played:
        obs = result.observation
        if result.status is Status.SKIP or obs is None:
            verdicts.append((item.ruleset, ("skipped", result.detail, "", "")))
            continue
        if obs.error or n > len(obs.steps):
            verdicts.append((item.ruleset, ("error", obs.error or "not reached", "", "")))
            continue
        step = obs.steps[n - 1]
        verdict = step_verdict(item, n)
        expected = claim_text(verdict) if verdict else "-"
        decisions[item.ruleset] = deciding_clause(step, kind, item.rules, anchors)
        key = (expected, observed_text(step), verdict_mark(verdict, step))
        verdicts.append((item.ruleset, (*key, decisions[item.ruleset].text)))
        boards.append((item.ruleset, (step.board,)))
    for names, (expected, observed, mark, clause) in _groups(verdicts):
        out.append(f"  {', '.join(names)}:")
        if mark:
            out.append(f"    expected {expected}; observed {observed}  [{mark}]")
            out.append(f"    decided by {clause}")
            out += _sources(names, decisions)
        else:
            out.append(f"    {expected}: {observed}")
    board_groups = _groups(boards)
    for names, (rows,) in board_groups:
        label = "board after" if len(board_groups) == 1 else f"board after ({', '.join(names)})"
        out += [f"  {label}:", *_indent(diagram(rows), 4)]
    return out


def _explain_end(played, anchors) -> list[str]:
    pairs, decisions = [], {}
    for item, result in played:
        obs = result.observation
        if obs is None or obs.end is None:
            continue
        expected = claim_text(item.expectation.end) if item.expectation.end else "-"
        observed = claim_text(observed_end(obs.end))
        mark = "-" if expected == "-" else "ok" if expected == observed else "FAIL"
        decision = ending_clause(obs.end, item.rules, anchors)
        if decision is not None:
            decisions[item.ruleset] = decision
        pairs.append((item.ruleset, (expected, observed, mark, decision.text if decision else "")))
    out = []
    for names, (e, o, m, clause) in _groups(pairs):
        out.append(f"  {', '.join(names)}: expected {e}; observed {o}  [{m}]")
        if clause:
            out.append(f"    decided by {clause}")
            out += _sources(names, decisions)
    return out


def _settle_lines(item: PlanItem, settling: SettleObservation) -> tuple[str, ...]:
    """The settling stage as observed, each line marked, and the board at its end."""
    lines = settle_lines(item, settling)
    if settling.error is None and settling.steps:
        lines += ("board at the end of the stage:", *_indent(diagram(settling.steps[-1].board), 2))
    return lines


def _explain_settle(spec: SettleSpec, played) -> list[str]:
    """The dispute and, per group of rulesets that settled it alike, the settling stage."""
    dispute = [f"stones {' '.join(spec.stones)}"] if spec.stones else []
    dispute += [f"claims {', '.join(map(str, spec.claims))}"] if spec.claims else []
    out = [
        "settling by play (count.settling):",
        "  dispute: " + ("; ".join(dispute) or "none"),
        "  first mover: " + (spec.first or "the side to move at the halt"),
        "  moves: " + ("  ".join(map(str, spec.moves)) or "none"),
    ]
    pairs = []
    for item, result in played:
        settling = result.observation.settling if result.observation is not None else None
        if settling is not None:
            pairs.append((item.ruleset, _settle_lines(item, settling)))
    for names, lines in _groups(pairs):
        out += [f"  {', '.join(names)}:", *_indent(lines, 4)]
    return out


def _figures(parts) -> str:
    return ", ".join(f"{name} {decimal_text(v)}" for name, v in parts)


def _count_lines(count: CountObservation, expected: str, mark: str, verdict) -> list[str]:
    if count.error is not None:
        observed = f"error {count.error}"
        return [f"    expected {expected}; observed {observed}  [{mark}]", f"    {count.message}"]
    first = verdict.alternatives[0] if verdict is not None else None
    shown = observed_count_claim(first, count) if first is not None else None
    observed = (
        str(shown) if shown is not None else f"winner {count.winner} margin {decimal_text(count.margin)}"
    )
    out = [f"    method {count.method}, unit {count.unit}; komi: {count.komi}"]
    out.append(f"    expected {expected}; observed {observed}  [{mark}]")
    for side, score, parts in (
        ("black", count.black, count.black_parts),
        ("white", count.white, count.white_parts),
    ):
        out.append(f"    {side}: {decimal_text(score)} {count.unit} ({_figures(parts)})")
    out += [f"    {step}" for step in count.steps]
    out.append("    counted board (X O stones, b w owned empty points, - split or nobody's):")
    out += _indent(diagram(count.board), 6)
    return out


def _explain_count(played) -> list[str]:
    """Per group of rulesets with the same count and the same claims: the count and the marks."""
    groups = []
    for item, result in played:
        count = result.observation.count if result.observation is not None else None
        if count is None:
            continue
        verdict = item.expectation.count
        expected, mark = count_mark(verdict, count)
        bad = tuple(str(m) for m in result.mismatches if m.label == "point")
        groups.append((item.ruleset, (count, expected, mark, bad, verdict)))
    out = ["count:"]
    for names, (count, expected, mark, bad, verdict) in _groups(groups):
        out.append(f"  {', '.join(names)}:")
        out += _count_lines(count, expected, mark, verdict)
        out += [f"    {m}" for m in bad]
    return out


def _explain_error_case(case: Case, results: list[CaseResult]) -> list[str]:
    spec = case.load_error
    assert spec is not None
    out = [
        "",
        f"error case: loading the quoted file must fail with {spec.code} at {spec.line}:{spec.column}",
        *_indent(spec.file.rstrip().splitlines(), 4),
    ]
    for r in results:
        out.append(f"  {r.status}: {r.detail}")
    return out


def find_case(files, case_id: str):
    ids = []
    for f in files:
        for case in f.cases:
            if case.id == case_id:
                return case, f
            ids.append(case.id)
    close = [i for i in ids if i.startswith(case_id)][:3]
    if not close:
        import difflib  # only for a mistyped id

        close = difflib.get_close_matches(case_id, ids, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise InputError(f"no case with id {case_id!r}{hint}")


def naming(paths: list[Path], case_id: str) -> list[Path]:
    """The case files of ``paths`` whose text names ``case_id`` (a case's id is written in its
    file), and those that cannot be read (loading them says why)."""
    word = case_id.encode("utf-8")
    chosen = []
    for path in case_files(paths):
        try:
            if word not in path.read_bytes():
                continue
        except OSError:
            pass
        chosen.append(path)
    return chosen


def load_case(paths: list[Path], case_id: str, presets, loader):
    """The case ``case_id`` and its file (the first file holding it). Only the files naming the
    id are loaded; when none of them holds the case, every file is, for the message."""
    files, _ = load_files(naming(paths, case_id), presets, loader)
    for case_file in files:
        for case in case_file.cases:
            if case.id == case_id:
                return case, case_file
    files, failures = load_files(paths, presets, loader)
    try:
        return find_case(files, case_id)
    except InputError as err:
        if not failures:
            raise
        message = f"{err.message}; {len(failures)} file(s) could not be loaded, first: {failures[0]}"
        raise InputError(message) from None


def run(args: argparse.Namespace) -> int:
    presets = load_presets()
    loader = default_loader()
    case, case_file = load_case(suite_paths(args, args.path), args.id, presets, loader)
    filters = selection_filters(args.rules, presets, ids=(case.id,))
    plan = make_plan([case_file], presets, filters, loader)
    adapter = ReferenceAdapter()
    items = [i for i in plan.items if i.case.id == case.id]
    results = [execute_item(i, adapter, presets, loader) for i in items] + list(plan.errors)
    if args.json:
        import json

        from jpdtools.run.report import result_json

        data = {
            "case": case.id,
            "title": case.title,
            "file": case_file.path,
            "clauses": list(case.spec),
            "seeds": list(case.seeds),
            "status": case.status,
            "results": [result_json(r) for r in results],
        }
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        shown = case
        if args.lang == "zh":  # the case's own Chinese title and note, where it has them
            shown = replace(case, title=case.zh_title or case.title, note=case.zh_note or case.note)
        anchors = spec_anchors(spec_dir())
        if args.lang == "zh":
            anchors = zh_anchors(anchors, spec_dir())
        lines = explain_case(shown, case_file.path, items, results, anchors)
        if args.lang == "zh":
            from jpdtools.book.lang.output import text_zh  # the book's catalogues: only in Chinese

            lines = text_zh("\n".join(lines), presets).split("\n")
        print("\n".join(table.wrap(lines, table.terminal_width(args.wide))))
    bad = any(r.status in (Status.FAIL, Status.ERROR) for r in results)
    return FAILURE if bad else SUCCESS
