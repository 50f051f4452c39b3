"""The suite, run once through the reference implementation, as the book's pages need it.

Every case is planned over every ruleset it applies to and executed through
:class:`~jpdtools.run.adapters.ReferenceAdapter` — the same plan, execution and judgement as
``jpd run`` and ``jpd explain`` — and the results are kept per case with their observations.
A case's *verdict* under a ruleset (:func:`verdict_of`) is what happens: whether each step is
accepted, refused, voided or forfeits the game, how play stands at the end, and who wins the count
by how much. Two rulesets *differ* on a case when its verdicts under them differ; a different
reason code for the same refusal (``ko`` against ``superko``) is not a different verdict.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from jpdref.rules import Rules

from jpdtools.presets import Presets
from jpdtools.run.adapters import Observation, ReferenceAdapter
from jpdtools.run.compare import CaseResult, Status, claim_text, observed_claim, observed_end
from jpdtools.run.runner import (
    Filters,
    LoadFailure,
    PlanItem,
    SuiteLoader,
    execute_item,
    load_files,
    make_plan,
)
from jpdtools.suite.model import Case, CaseFile, decimal_text


@dataclass(frozen=True)
class CaseRecord:
    """One case, its file, and its plan items with their results (same order)."""

    case: Case
    file: str
    items: tuple[PlanItem, ...]
    results: tuple[CaseResult, ...]

    @property
    def rulesets(self) -> tuple[str, ...]:
        return tuple(r.ruleset for r in self.results)

    def result(self, ruleset: str) -> CaseResult | None:
        return next((r for r in self.results if r.ruleset == ruleset), None)

    @property
    def worst(self) -> Status:
        """The case's outcome over all its rulesets: error, fail, open, skip, then pass."""
        statuses = {r.status for r in self.results}
        for s in (Status.ERROR, Status.FAIL, Status.OPEN, Status.SKIP):
            if s in statuses:
                return s
        return Status.PASS


@dataclass(frozen=True)
class ObservedSuite:
    files: tuple[CaseFile, ...]
    failures: tuple[LoadFailure, ...]
    records: tuple[CaseRecord, ...]

    def record(self, case_id: str) -> CaseRecord | None:
        return next((r for r in self.records if r.case.id == case_id), None)


def observe_suite(
    paths: Iterable[Path],
    presets: Presets,
    loader: SuiteLoader,
    filters: Filters,
    progress: Callable[[str, int, int], None] | None = None,
) -> ObservedSuite:
    """Load, plan and run the selected cases under every ruleset they apply to; ``progress``
    hears ("running", done, total) after each run."""
    files, failures = load_files(paths, presets, loader)
    plan = make_plan(files, presets, filters, loader)
    adapter = ReferenceAdapter()
    by_case: dict[str, list[tuple[PlanItem, CaseResult]]] = {}
    for n, item in enumerate(plan.items, 1):
        by_case.setdefault(item.case.id, []).append((item, execute_item(item, adapter, presets, loader)))
        if progress is not None:
            progress("running", n, len(plan.items))
    unresolved = {r.case_id: r for r in plan.errors}
    records = []
    for case_file in files:
        for case in case_file.cases:
            pairs = by_case.get(case.id, [])
            results = [r for _, r in pairs] + ([unresolved[case.id]] if case.id in unresolved else [])
            if pairs or case.id in unresolved:
                records.append(CaseRecord(case, case_file.path, tuple(i for i, _ in pairs), tuple(results)))
    return ObservedSuite(tuple(files), tuple(failures), tuple(records))


def observe_under(record: CaseRecord, rules: Rules) -> Observation | None:
    """The reference's observation of ``record``'s case under ``rules`` (an override), or None for
    an error case."""
    case = record.case
    if case.setup is None:
        return None
    return ReferenceAdapter().observe(case.setup, case.history, case.moves, rules)


def verdict_of(observation: Observation | None) -> tuple[str, ...]:
    """What happens in the case, one word group per step, then the end, then the count."""
    if observation is None:
        return ("not played",)
    if observation.error:
        return ("error",)
    out = [observed_claim("legal", s).kind for s in observation.steps]
    if observation.end is not None:
        out.append("end " + claim_text(observed_end(observation.end)))
    count = observation.count
    if count is not None:
        if count.error:
            out.append(f"count refused ({count.error})")
        elif count.margin is not None:
            out.append(f"count {count.winner} {decimal_text(count.margin)}")
    return tuple(out)


def verdict_text(verdict: Sequence[str]) -> str:
    """A verdict for a table cell: steps numbered, then the end and the count."""
    parts = []
    for n, word in enumerate(verdict, 1):
        parts.append(word if word.startswith(("end ", "count", "error", "not ")) else f"{n}: {word}")
    return "; ".join(parts)
