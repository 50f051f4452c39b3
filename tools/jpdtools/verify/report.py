"""Reports of ``jpd verify``: terminal text, JSON, JUnit XML (HTML: :mod:`jpdtools.verify.report_html`).

JSON shape (``"format": 1``, ``"kind": "verify"``; keys are stable, new keys may be added)::

    {"format": 1, "kind": "verify", "implementation": "gnugo", "impl": "gnugo",
     "suite": {"distribution": "jipingdian", "version": "0.1.0", "sha256": "3f0c…", "files": 22},
     "interrupted": false, "jobs": 1,
     "timing": {"wall_seconds": 2.4, "items_seconds": 2.3, "engine_seconds": 1.3,
                "harness_seconds": 1.0, "harness_share": 0.43},
     "results": [{"case": "ko.simple.001", "ruleset": "japanese", "outcome": "pass",
                  "status": "pass", "expected_failure": null, "limited": ["end: halted two-passes"],
                  "mismatches": [...], "detail": "", "file": "...", "line": 7}],
     "load_errors": [...], "unused_expected_failures": ["file:3: pattern"],
     "summary": {"total": 10, "pass": 5, "unexpected-pass": 0, "expected-failure": 1,
                 "unexpected-failure": 0, "open": 0, "skip": 4, "error": 0, "load_errors": 0,
                 "limited": 3, "ok": true, "planned": 10, "played": 6,
                 "by_ruleset": {"japanese": {...}}, "by_axis": {"suicide": {"forbidden": {...}}},
                 "by_board": {"19x19": {"total": 4, "played": 3, "skip": 1}, ...},
                 "skipped_by_cause": {"axis pass=forbidden is not supported": 3, ...}}}

``status`` is the comparator's (pass, fail, open, skip, error); ``outcome`` adds the expected-failure
list. ``ok`` is false when anything failed unexpectedly, passed unexpectedly or errored, a case
file could not be loaded, or the implementation played nothing (every item skipped); and when the
run checked too little (``shortfall`` says how: under ``--min-played`` % of the plan played, an
expected-failure list naming over ``--max-excused`` % of the cases loaded, or no pass). Timing:
``items_seconds`` sums the time spent on each item (in all workers), ``engine_seconds`` the part
of it spent waiting for the implementation; ``harness_seconds`` is the difference. ``limited``
counts the played items compared without some claims (those only the harness decides, listed per
result under ``limited``). ``suite`` says which
suite ran (:mod:`jpdtools.suite.identity`; null when unknown); JUnit carries it as ``properties``.

How much of the suite the implementation could play: ``played`` (items not skipped),
``by_board`` (per board size, ``WxH``, largest first: items, played, skipped) and
``skipped_by_cause`` (skips per :func:`skip_cause`, most frequent first); these count the items of
the plan, not the rows a second pass gave again (``total`` and the outcomes count every row).

Items given under a transform (spec/contract.md#contract.transform): a result given under one
names its ``transform`` (``rotate-90``, ``mirror+colours``, ``colours``; null: as written), its
``reproduce`` line replays the transformed item and ``transform_note`` says which transforms were
not drawn for it, and why. ``transform_seed`` is the seed that drew them (null: ``--no-transform``)
and ``transform_one_in`` how many: 1 under ``--transform SEED`` (every item, in place of the item
as written), N for the second pass of a plain run (one in N of the items played, each a row of its
own after the rows as written). ``summary.transformed`` counts the rows given under a transform.
"""

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from jpdref.rules import AXES

from jpdtools import table
from jpdtools.run.report import failure_json, suite_lines, suite_properties, table_rows
from jpdtools.run.runner import LoadFailure
from jpdtools.suite.identity import SuiteIdentity
from jpdtools.verify.causes import RootCause, root_causes, split
from jpdtools.verify.verification import BAD, OUTCOMES, Outcome, VerifyResult

JSON_FORMAT = 1
TRANSCRIPT_TAIL = 16  # lines of a failing item's transcript in the text report
FULL_BOARD = "19x19"  # the size most engines play: its share is on the summary
CAUSES_SHOWN = 6  # skip causes in the text report (all with --verbose)
CAUSE_WIDTH = 100  # characters of a skip cause in the text report
# the item's own board (``board 5x4 is not square``, ``board size 5``) and ruleset name vary per
# item; every other word of a skip reason is kept ("boards 9x9, 13x13 and 19x19", 'loss')
SIZE_RE = re.compile(r"(?<=board )\d+x\d+\b|(?<=board size )\d+\b|(?<=got )\d+x\d+\b")
QUOTED_RE = re.compile(r"(?<=ruleset )'[^'\s]+'")
ITEMS_LISTED = 10  # unexpected failures listed one by one below the root causes (all with --verbose)
EXAMPLES = 3  # other items named under a root cause
LEFT_OUT = "nothing left to compare ("


@dataclass(frozen=True)
class Timing:
    wall_seconds: float = 0.0
    items_seconds: float = 0.0
    engine_seconds: float = 0.0

    @property
    def harness_seconds(self) -> float:
        return max(0.0, self.items_seconds - self.engine_seconds)

    @property
    def harness_share(self) -> float:
        return self.harness_seconds / self.items_seconds if self.items_seconds else 0.0

    def to_json(self) -> dict:
        return {
            "wall_seconds": round(self.wall_seconds, 3),
            "items_seconds": round(self.items_seconds, 3),
            "engine_seconds": round(self.engine_seconds, 3),
            "harness_seconds": round(self.harness_seconds, 3),
            "harness_share": round(self.harness_share, 3),
        }


@dataclass(frozen=True)
class VerifyRun:
    implementation: str
    impl: str
    results: tuple[VerifyResult, ...]
    failures: tuple[LoadFailure, ...] = ()
    interrupted: bool = False
    jobs: int = 1
    timing: Timing = field(default_factory=Timing)
    unused: tuple[str, ...] = ()
    planned: int | None = None  # items planned (None: as many as there are results)
    notes: tuple[str, ...] = ()  # what the reader should know about how the run was set up
    suite: SuiteIdentity | None = None  # which suite ran
    min_played: float = 0.0  # percent of the planned items that must be played (--min-played)
    max_excused: float = 100.0  # percent of the suite's cases the list may name (--max-excused)
    excused: tuple[int, int] = (0, 0)  # (cases the expected-failure list names, cases loaded)
    allow_no_pass: bool = True  # a run in which no item passed may be OK (--allow-no-pass)
    transform_seed: str | None = None  # the seed that drew the transforms items were given under
    transform_one_in: int | None = None  # 1: every item (--transform SEED); N: a second pass of 1 in N

    @property
    def ok(self) -> bool:
        """False when anything failed or passed unexpectedly, errored, did not load — or when the
        run was interrupted (a partial run is never a success), or when the implementation played
        nothing (every item skipped: nothing was checked), or when it checked too little
        (:attr:`shortfall`)."""
        bad = any(r.outcome in BAD for r in self.results)
        clean = not self.interrupted and not self.failures and not bad
        return clean and not self.played_nothing and not self.shortfall

    @property
    def shortfall(self) -> str:
        """Why a run with nothing failing still checked too little, or "": under ``min_played`` %
        of its plan played, an expected-failure list naming over ``max_excused`` % of the cases
        loaded, or no item passed (unless ``allow_no_pass``)."""
        bad = any(r.outcome in BAD for r in self.results)
        if not self.results or self.played_nothing or self.interrupted or bad or self.failures:
            return ""  # a run failing already says so by its failures
        planned = self.total - self.given_again
        share = 100 * self.playable / planned if planned else 100.0
        if share < self.min_played:
            return (
                f"played {self.playable} of {planned} planned items ({share:.1f} %), "
                f"under --min-played {self.min_played:g} %"
            )
        named, loaded = self.excused
        if loaded and 100 * named / loaded > self.max_excused:
            return (
                f"the expected-failure list names {named} of the {loaded} cases loaded "
                f"({100 * named / loaded:.0f} %), over --max-excused {self.max_excused:g} %"
                f"{_broadest(self.results)}"
            )
        if not self.allow_no_pass and counts(self.results)[str(Outcome.PASS)] == 0:
            return "no item passed (--allow-no-pass accepts a run without a pass)"
        return ""

    @property
    def played_nothing(self) -> bool:
        """Every item was skipped (there were items): a run that checked nothing."""
        return bool(self.results) and self.playable == 0

    @property
    def total(self) -> int:
        return len(self.results) if self.planned is None else self.planned

    @property
    def interruption(self) -> str:
        return f"interrupted: {len(self.results)} of {self.total} items ran" if self.interrupted else ""

    @property
    def sampled(self) -> bool:
        """Whether a second pass gave a sample of the items played again, transformed."""
        return self.transform_seed is not None and (self.transform_one_in or 1) > 1

    @property
    def first_pass(self) -> tuple[VerifyResult, ...]:
        """The rows of the plan itself: every row but those the second pass gave again."""
        return tuple(r for r in self.results if not r.transform) if self.sampled else self.results

    @property
    def given_again(self) -> int:
        """Rows the second pass gave again, transformed (0 without one)."""
        return len(self.results) - len(self.first_pass)

    @property
    def playable(self) -> int:
        """Items of the plan the implementation could play (not skipped; the second pass apart)."""
        return sum(1 for r in self.first_pass if r.outcome is not Outcome.SKIP)


def _broadest(results: Iterable[VerifyResult]) -> str:
    """``; broadest pattern P (N items)`` for the pattern excusing most items, or ""."""
    tally: dict[str, int] = {}
    for r in results:
        if r.outcome is Outcome.EXPECTED_FAILURE and r.expected_failure:
            tally[r.expected_failure] = tally.get(r.expected_failure, 0) + 1
    if not tally:
        return ""
    pattern, n = max(tally.items(), key=lambda kv: kv[1])
    return f"; broadest pattern {pattern} ({n} item{'s' if n != 1 else ''})"


def counts(results: Iterable[VerifyResult]) -> dict[str, int]:
    tally = dict.fromkeys((str(o) for o in OUTCOMES), 0)
    for r in results:
        tally[str(r.outcome)] += 1
    return tally


def by_ruleset(results: Sequence[VerifyResult], order: Sequence[str] = ()) -> dict[str, dict[str, int]]:
    names = list(
        dict.fromkeys(
            [
                *[n for n in order if any(r.result.ruleset == n for r in results)],
                *[r.result.ruleset for r in results],
            ]
        )
    )
    return {n: counts(r for r in results if r.result.ruleset == n) for n in names}


def by_axis(results: Sequence[VerifyResult]) -> dict[str, dict[str, dict[str, int]]]:
    out: dict[str, dict[str, dict[str, int]]] = {}
    axes = [dict(r.axes) for r in results]
    for axis in AXES:
        values: dict[str, list[VerifyResult]] = {}
        for r, named in zip(results, axes, strict=True):
            value = named.get(axis)
            if value is not None:
                values.setdefault(value, []).append(r)
        out[axis] = {value: counts(rs) for value, rs in values.items()}
    return out


def skip_cause(detail: str, implementation: str = "") -> str:
    """The cause of a skip, without what varies between items — the program's name, the item's
    own board size and ruleset name, the claims left over (``board 5x4 is not square`` and
    ``board 6x3 is not square`` are one cause, ``board WxH is not square``) — and in the
    reason's own words otherwise."""
    text = detail.removeprefix(f"{implementation}: ") if implementation else detail
    if text.startswith(LEFT_OUT):
        return "nothing left to compare (every claim of the item is one the program cannot be asked)"
    return QUOTED_RE.sub("'…'", SIZE_RE.sub("WxH", text)).strip() or "(no reason given)"


def skipped_by_cause(run: VerifyRun) -> dict[str, int]:
    """Skipped items per :func:`skip_cause`, most frequent first."""
    tally: dict[str, int] = {}
    for r in run.first_pass:
        if r.outcome is Outcome.SKIP:
            cause = skip_cause(r.result.detail, run.implementation)
            tally[cause] = tally.get(cause, 0) + 1
    return dict(sorted(tally.items(), key=lambda kv: (-kv[1], kv[0])))


def _clip(text: str, width: int = CAUSE_WIDTH) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _area(board: str) -> tuple[int, str]:
    width, _, height = board.partition("x")
    return (-int(width) * int(height), board) if width.isdigit() and height.isdigit() else (1, board)


def by_board(results: Sequence[VerifyResult]) -> dict[str, dict[str, int]]:
    """Per board size (largest first; error cases, which have none, under ""): items, played, skipped."""
    out: dict[str, dict[str, int]] = {}
    for r in results:
        row = out.setdefault(r.board, {"total": 0, "played": 0, "skip": 0})
        row["total"] += 1
        row["skip" if r.outcome is Outcome.SKIP else "played"] += 1
    return {b: out[b] for b in sorted(out, key=_area)}


def _share(part: int, whole: int) -> str:
    return f"{part} of {whole} ({100 * part / whole:.0f} %)" if whole else "0 of 0"


def playable_lines(run: VerifyRun, verbose: bool = False) -> list[str]:
    """How much of the suite the implementation could play, and why the rest was skipped (the items
    of the plan: a second pass's rows apart)."""
    results = list(run.first_pass)
    if not results:
        return []
    boards = by_board(results)
    full = boards.get(FULL_BOARD, {"total": 0, "played": 0})
    on_full = _share(full["played"], full["total"])
    out = ["PLAYED", f"  {_share(run.playable, len(results))} items; on {FULL_BOARD}: {on_full}"]
    if verbose:
        out.append("  by board size:")
        out += [f"    {b or '(error cases)':<8} {_share(c['played'], c['total'])}" for b, c in boards.items()]
    causes = list(skipped_by_cause(run).items())
    if causes:
        out.append("  skipped, by cause:")
        shown = causes if verbose else causes[:CAUSES_SHOWN]
        out += [f"    {n:>5}  {cause if verbose else _clip(cause)}" for cause, n in shown]
        if len(shown) < len(causes):
            out.append(f"    ({len(causes) - len(shown)} more cause(s): --verbose)")
    return out


# -- text --------------------------------------------------------------------------------------


def summary_table(
    results: Sequence[VerifyResult], order: Sequence[str] = (), width: int | None = None
) -> str:
    """One row per ruleset (:func:`jpdtools.run.report.table_rows`), then a total row."""
    headers = ["ruleset", *(str(o) for o in OUTCOMES)]
    rows = [
        [n, *(str(c[str(o)]) for o in OUTCOMES)] for n, c in table_rows(by_ruleset(results, order), order)
    ]
    total = counts(results)
    rows.append(["total", *(str(total[str(o)]) for o in OUTCOMES)])
    moved = transformed(results)
    if moved:
        given = counts(moved)
        rows.append(["of which transformed", *(str(given[str(o)]) for o in OUTCOMES)])
    return table.render(headers, rows, width)


def _lines(results: Sequence[VerifyResult], outcome: Outcome) -> list[str]:
    out = []
    for r in results:
        if r.outcome is not outcome:
            continue
        clauses = f"  [{', '.join(r.clauses)}]" if r.clauses else ""
        out.append(f"  {r.name}  {r.result.where}{clauses}")
        if r.transform and outcome is not Outcome.SKIP:
            out.append(f"    given under {r.transform} (mismatches name the case's own vertices)")
        out.extend(f"    {m}" for m in r.result.mismatches)
        if r.result.detail and not r.result.mismatches:
            out.append(f"    {r.result.detail}")
        if r.expected_failure and outcome is Outcome.UNEXPECTED_PASS:
            out.append(f"    listed as {r.expected_failure}")
        if r.transcript and outcome in (Outcome.UNEXPECTED_FAILURE, Outcome.ERROR):
            shown = r.transcript[-TRANSCRIPT_TAIL:]
            out.append(f"    transcript{' (last lines)' if len(shown) < len(r.transcript) else ''}:")
            out.extend(f"      {line}" for line in shown)
    return out


def cause_lines(causes: Sequence[RootCause], what: str, verbose: bool = False) -> list[str]:
    """The root causes as text: count, first divergence and clause; the smallest item with its
    mismatches (consequences apart), seeds and a one-line reproduction; a few other items."""
    if not causes:
        return []
    items = sum(c.count for c in causes)
    out = [
        f"ROOT CAUSES of the {items} {what} ({len(causes)}): each item counted once, at its first divergence"
    ]
    for n, cause in enumerate(causes, 1):
        ex = cause.example
        first, later = split(ex)
        out.append(f"  {n}. {cause.count:>4} × {cause.title}")
        where = f"{ex.board}, {ex.moves} move{'s' if ex.moves != 1 else ''}" if ex.board else ""
        out.append(f"        smallest: {ex.name}  ({where})  {ex.result.where}")
        out.extend(f"          {m}" for m in first)
        if later:
            shown = later if verbose else later[:2]
            more = f" (+{len(later) - len(shown)})" if len(shown) < len(later) else ""
            out.append(f"          then, as consequences (not counted): {'; '.join(map(str, shown))}{more}")
        if ex.seeds:
            out.append(f"        seeds: {'; '.join(ex.seeds)}")
        if ex.transform:
            out.append(f"        given under {ex.transform} (mismatches name the case's own vertices)")
        if ex.reproduce:
            out.append(f"        reproduce: {ex.reproduce}")
        if len(cause.cases) > 1:
            shown_cases = cause.cases if verbose else cause.cases[:EXAMPLES]
            rest_cases = len(cause.cases) - len(shown_cases)
            more_cases = f" (+{rest_cases} more)" if rest_cases else ""
            out.append(f"        {len(cause.cases)} cases: {', '.join(shown_cases)}{more_cases}")
        others = cause.items[1:] if verbose else cause.items[1 : 1 + EXAMPLES]
        if others:
            rest = cause.count - 1 - len(others)
            out.append(
                f"        also: {', '.join(r.name for r in others)}{f' (+{rest} more)' if rest else ''}"
            )
    return out


def summary_line(run: VerifyRun) -> str:
    c = counts(run.results)
    parts = [f"{c[str(o)]} {o}" for o in OUTCOMES]
    if run.failures:
        parts.append(f"{len(run.failures)} file(s) not loaded")
    verdict = "OK" if run.ok else "FAILED"
    if run.played_nothing and not run.interrupted:
        verdict = "FAILED: the implementation played nothing (every item was skipped)"
    elif run.shortfall:
        verdict = f"FAILED: {run.shortfall}"
    if run.interrupted:
        verdict = f"INTERRUPTED ({run.interruption}: partial results)"
    if run.results:
        share = 100 * run.playable / len(run.first_pass)
        parts.append(f"played {run.playable} of {len(run.first_pass)} ({share:.0f} %)")
    moved = transformed(run.results)
    if run.sampled:
        parts.append(f"{len(moved)} of them given again transformed ({_transformed_bad(moved)})")
    t = run.timing
    timing = (
        f"{t.wall_seconds:.1f} s wall, {t.engine_seconds:.1f} s in the implementation, "
        f"{t.harness_seconds:.1f} s in the harness ({run.jobs} job{'s' if run.jobs > 1 else ''})"
    )
    return f"{', '.join(parts)} — {verdict} [{run.implementation}]; {timing}"


def transformed(results: Iterable[VerifyResult]) -> list[VerifyResult]:
    """The rows given under a transform."""
    return [r for r in results if r.transform]


def _transformed_bad(moved: Sequence[VerifyResult]) -> str:
    """How the rows given transformed went, in a few words: ``all as written``-like tallies."""
    c = counts(moved)
    shown = [f"{c[str(o)]} {o}" for o in OUTCOMES if c[str(o)]]
    return ", ".join(shown) or "none"


def transform_lines(run: VerifyRun) -> list[str]:
    """What the transform pass gave, for the text report: its seed, its share, its rows."""
    if run.transform_seed is None or not run.transform_one_in:
        return []
    moved = transformed(run.results)
    if run.transform_one_in > 1:
        head = (
            f"  a second pass gave one in {run.transform_one_in} of the items played under a transform "
            f"drawn from seed {run.transform_seed!r}: {len(moved)} rows, {_transformed_bad(moved)}"
        )
    else:
        head = (
            f"  every item given under a transform drawn from seed {run.transform_seed!r}: "
            f"{_transformed_bad(moved)}"
        )
    if run.transform_one_in > 1:
        return ["TRANSFORMED", head, "  (--transform SEED gives every item transformed; --no-transform none)"]
    return ["TRANSFORMED", head]


def format_text(
    run: VerifyRun,
    order: Sequence[str] = (),
    verbose: bool = False,
    quiet: bool = False,
    width: int | None = None,
) -> str:
    results = list(run.results)
    out = [] if quiet else [summary_table(results, order, width)]
    if run.notes:
        out += ["", *(f"note: {n}" for n in run.notes)]
    if not quiet:
        out += ["", *playable_lines(run, verbose)]
        moved = transform_lines(run)
        out += ["", *moved] if moved else []
    sections = [
        ("UNEXPECTED FAILURES", Outcome.UNEXPECTED_FAILURE),
        ("UNEXPECTED PASSES", Outcome.UNEXPECTED_PASS),
        ("ERRORS", Outcome.ERROR),
    ]
    if verbose:
        sections += [("EXPECTED FAILURES", Outcome.EXPECTED_FAILURE), ("SKIPPED", Outcome.SKIP)]
    causes = root_causes(results)
    if causes:
        out += ["", *cause_lines(causes, "unexpected failures", verbose)]
    if verbose:
        expected = root_causes(results, (Outcome.EXPECTED_FAILURE,))
        if expected:
            out += ["", *cause_lines(expected, "expected failures", verbose)]
    for title, outcome in sections:
        lines = _lines(results, outcome)
        failing = sum(1 for r in results if r.outcome is outcome)
        if outcome is Outcome.UNEXPECTED_FAILURE and failing > ITEMS_LISTED and not verbose:
            lines = [f"  {failing} items, grouped above by root cause (--verbose lists each)"]
        if lines:
            out += ["", title, *lines]
    if run.failures:
        out += ["", "LOAD ERRORS", *(f"  {f}" for f in run.failures)]
    if run.unused:
        out += ["", "UNUSED EXPECTED-FAILURE PATTERNS", *(f"  {u}" for u in run.unused)]
    out += ["", *suite_lines(run.suite, quiet), summary_line(run)]
    return "\n".join(out).lstrip("\n")


# -- JSON --------------------------------------------------------------------------------------


def result_json(r: VerifyResult) -> dict:
    c = r.result
    return {
        "case": c.case_id,
        "ruleset": c.ruleset,
        "outcome": str(r.outcome),
        "status": str(c.status),
        "expected_failure": r.expected_failure,
        "limited": list(r.limited),
        "mismatches": [m.to_json() for m in c.mismatches],
        "detail": c.detail,
        "file": c.file,
        "line": c.line,
        "clauses": list(r.clauses),
        "reproduce": r.reproduce,
        "transform": r.transform or None,
        "transform_note": r.transform_note or None,
        "transcript": list(r.transcript),
    }


def _reported(r: VerifyResult) -> dict:
    """A result in ``report.json``: the transcript only where something went wrong."""
    out = result_json(r)
    if r.outcome not in BAD and r.outcome is not Outcome.EXPECTED_FAILURE:
        del out["transcript"]
    return out


def to_json(run: VerifyRun, order: Sequence[str] = ()) -> dict:
    results = list(run.results)
    summary: dict = {"total": len(results), **counts(results)}
    summary["load_errors"] = len(run.failures)
    summary["limited"] = sum(1 for r in results if r.limited and r.outcome is not Outcome.SKIP)
    summary["ok"] = run.ok
    summary["planned"] = run.total
    summary["played"] = run.playable
    summary["shortfall"] = run.shortfall
    summary["by_ruleset"] = by_ruleset(results, order)
    summary["by_axis"] = by_axis(results)
    summary["by_board"] = by_board(run.first_pass)
    summary["skipped_by_cause"] = skipped_by_cause(run)
    causes = root_causes(results)
    summary["root_causes"] = len(causes)
    moved = transformed(results)
    summary["transformed"] = {"total": len(moved), **counts(moved)}
    return {
        "format": JSON_FORMAT,
        "kind": "verify",
        "implementation": run.implementation,
        "impl": run.impl,
        "suite": run.suite.to_json() if run.suite else None,
        "interrupted": run.interrupted,
        "notes": list(run.notes),
        "jobs": run.jobs,
        "transform_seed": run.transform_seed,
        "transform_one_in": run.transform_one_in,
        "timing": run.timing.to_json(),
        "root_causes": [c.to_json() for c in causes],
        "expected_root_causes": [c.to_json() for c in root_causes(results, (Outcome.EXPECTED_FAILURE,))],
        "results": [_reported(r) for r in results],
        "load_errors": [failure_json(f) for f in run.failures],
        "unused_expected_failures": list(run.unused),
        "summary": summary,
    }


def format_json(run: VerifyRun, order: Sequence[str] = ()) -> str:
    return json.dumps(to_json(run, order), ensure_ascii=False, indent=2)


# -- JUnit XML ---------------------------------------------------------------------------------


def _testcase(parent: ET.Element, r: VerifyResult, cause: RootCause | None = None) -> None:
    c = r.result
    case = ET.SubElement(
        parent,
        "testcase",
        classname=f"jpd.{c.ruleset}",
        name=f"{c.case_id}@{r.transform}" if r.transform else c.case_id,
        file=c.file,
        line=str(c.line),
        time=f"{r.seconds:.4f}",
    )
    text = "\n".join(str(m) for m in c.mismatches) or c.detail
    if cause is not None:
        first, later = split(r)
        text = "\n".join(
            [
                f"root cause: {cause.title} ({cause.count} item(s))",
                *(str(m) for m in first),
                *(f"consequence: {m}" for m in later),
                *([f"reproduce: {r.reproduce}"] if r.reproduce else []),
            ]
        )
    if r.outcome is Outcome.UNEXPECTED_FAILURE:
        first_text = (
            cause.title if cause is not None else (str(c.mismatches[0]) if c.mismatches else c.detail)
        )
        ET.SubElement(case, "failure", message=first_text, type="unexpected-failure").text = text
    elif r.outcome is Outcome.UNEXPECTED_PASS:
        message = f"unexpected pass (listed as {r.expected_failure})"
        ET.SubElement(case, "failure", message=message, type="unexpected-pass").text = message
    elif r.outcome is Outcome.ERROR:
        ET.SubElement(case, "error", message=c.detail, type="error").text = c.detail
    elif r.outcome is Outcome.EXPECTED_FAILURE:
        ET.SubElement(case, "skipped", message=f"expected failure: {text}", type="expected-failure")
    elif r.outcome is Outcome.SKIP:
        ET.SubElement(case, "skipped", message=c.detail, type="skip")
    elif r.outcome is Outcome.OPEN:
        ET.SubElement(case, "skipped", message=f"open: {c.detail}", type="open")


def _attrs(name: str, c: dict[str, int], tests: int, seconds: float) -> dict[str, str]:
    skipped = c.get("skip", 0) + c.get("open", 0) + c.get("expected-failure", 0)
    return {
        "name": name,
        "tests": str(tests),
        "failures": str(c.get("unexpected-failure", 0) + c.get("unexpected-pass", 0)),
        "errors": str(c.get("error", 0)),
        "skipped": str(skipped),
        "time": f"{seconds:.3f}",
    }


def format_junit(run: VerifyRun, order: Sequence[str] = ()) -> str:
    results = list(run.results)
    cause_of = {r.name: cause for cause in root_causes(results) for r in cause.items}
    cause_of |= {
        r.name: cause for cause in root_causes(results, (Outcome.EXPECTED_FAILURE,)) for r in cause.items
    }
    root = ET.Element(
        "testsuites",
        _attrs(f"jpd verify {run.implementation}", counts(results), len(results), run.timing.wall_seconds),
    )
    for name, c in by_ruleset(results, order).items():
        mine = [r for r in results if r.result.ruleset == name]
        suite = ET.SubElement(root, "testsuite", _attrs(name, c, len(mine), sum(r.seconds for r in mine)))
        suite_properties(suite, run.suite)
        for r in mine:
            _testcase(suite, r, cause_of.get(r.name))
    if run.failures:
        suite = ET.SubElement(
            root, "testsuite", _attrs("load", {"error": len(run.failures)}, len(run.failures), 0)
        )
        for f in run.failures:
            case = ET.SubElement(suite, "testcase", classname="jpd.load", name=f.file, file=f.file, time="0")
            ET.SubElement(case, "error", message=str(f), type=f.code or "load").text = str(f)
    if run.interrupted:
        suite = ET.SubElement(root, "testsuite", _attrs("interrupted", {"error": 1}, 1, 0))
        case = ET.SubElement(suite, "testcase", classname="jpd.run", name="interrupted", time="0")
        ET.SubElement(case, "error", message=run.interruption, type="interrupted").text = run.interruption
        root.set("errors", str(int(root.get("errors", "0")) + 1))
        root.set("tests", str(int(root.get("tests", "0")) + 1))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
