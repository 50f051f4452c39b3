"""The runner: load case files, plan case × ruleset items, execute them through an adapter.

The three stages are separate so that ``jpd run``, ``jpd lint``, ``jpd explain`` and the pytest
plugin share them:

1. :func:`load_files` — every file on its own: a bad file becomes a :class:`LoadFailure` naming
   file:line:col and the other files still load;
2. :func:`make_plan` — expand each case over the rulesets it applies to (``resolve``), keeping
   those the :class:`Filters` select; an error case (``load-error``) is one item, not one per
   ruleset;
3. :func:`execute` — run each item through an :class:`~jpdtools.run.adapters.Adapter` and judge it
   (:mod:`jpdtools.run.compare`), yielding results one by one so nothing computed is lost.

The loader (``jpdtools.suite.loader``) is reached through a :class:`SuiteLoader` value so tests can
stand in for it.
"""

import fnmatch
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from jpdref.rules import Rules, RulesError

from jpdtools.errors import InputError, Location, not_a_case_path
from jpdtools.presets import Presets, parse_selection
from jpdtools.run.adapters import Adapter, ReferenceAdapter
from jpdtools.run.compare import CaseResult, Judgement, Mismatch, Status, judge
from jpdtools.run.features import features_of
from jpdtools.run.oracle import variant_verdict
from jpdtools.suite.identity import SuiteIdentity
from jpdtools.suite.model import Case, CaseFile, Claim, Expectation
from jpdtools.suite.standing import counted_status

LOADER_SUITE = "loader"  # the "ruleset" column of error cases, which test the loader itself
UNRESOLVED = "unresolved"  # the "ruleset" column of a case whose expectations cannot be chosen


@dataclass(frozen=True)
class SuiteLoader:
    """The loader functions the runner needs (by default those of ``jpdtools.suite.loader``)."""

    load_case_file: Callable[[Path, Presets], CaseFile]
    resolve: Callable[[Case, Presets], list[tuple[Rules, Expectation]]]
    check_error_case: Callable[[Case, Presets], tuple[bool, str]]


def default_loader() -> SuiteLoader:
    """The loader of ``jpdtools.suite.loader`` through the compiled suite
    (:mod:`jpdtools.suite.compiled`): a case file is parsed only when no entry has its key."""
    from jpdtools.suite.compiled import CompiledLoader
    from jpdtools.suite.selection import resolve

    compiled = CompiledLoader()
    return SuiteLoader(compiled.load_case_file, resolve, compiled.check_error_case)


def parsing_loader() -> SuiteLoader:
    """The loader of ``jpdtools.suite.loader`` itself: every file parsed, nothing kept (for
    mutation testing, where the code on disk is not the code that runs)."""
    from jpdtools.suite import loader

    return SuiteLoader(loader.load_case_file, loader.resolve, loader.check_error_case)


@dataclass(frozen=True)
class LoadFailure:
    """A case file (or a case in it) that could not be loaded."""

    file: str
    message: str
    location: Location | None = None
    code: str = ""

    def __str__(self) -> str:
        where = self.location or Location(self.file)
        code = f" [{self.code}]" if self.code else ""
        return f"{where}: {self.message}{code}"


@dataclass(frozen=True)
class Filters:
    """Which items to run: empty tuples select everything.

    ``rules``: ruleset names; ``tags``: a case matches if it has any of them; ``ids``: fnmatch
    patterns, a case matches if its id matches any of them. ``variants``: the rulesets of
    ``rules`` that are presets with axis overrides (``japanese:illegal-move=refuse``), for the
    cases that do not name them themselves (:func:`jpdtools.suite.selection.choose_variant`).
    """

    rules: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    variants: tuple[Rules, ...] = ()

    def wants_case(self, case: Case) -> bool:
        if self.tags and not set(self.tags) & set(case.tags):
            return False
        return not self.ids or any(fnmatch.fnmatchcase(case.id, p) for p in self.ids)

    def wants_rules(self, name: str) -> bool:
        return not self.rules or name in self.rules


def parse_rules_option(values: Iterable[str], presets: Presets) -> tuple[str, ...]:
    """``--rules`` values (:func:`jpdtools.presets.parse_selection`) → ruleset names; () for all.

    Raises InputError naming the offending part (with a did-you-mean hint for a name)."""
    chosen = parse_selection(tuple(values), presets)
    return () if chosen is None else tuple(r.name for r in chosen)


def selection_filters(values: Iterable[str], presets: Presets, **others) -> Filters:
    """The :class:`Filters` of ``--rules`` values (overrides allowed) and the other selectors."""
    chosen = parse_selection(tuple(values), presets) or ()
    variants = tuple(r for r in chosen if r.name not in presets.names)
    return Filters(rules=tuple(r.name for r in chosen), variants=variants, **others)


@dataclass(frozen=True)
class PlanItem:
    """One case under one ruleset (``rules`` None: an error case, run once by the loader)."""

    case: Case
    file: str
    rules: Rules | None = None
    expectation: Expectation | None = None

    @property
    def ruleset(self) -> str:
        return self.rules.name if self.rules is not None else LOADER_SUITE

    @property
    def name(self) -> str:
        return f"{self.case.id}[{self.ruleset}]"

    @property
    def line(self) -> int:
        return self.case.location.line if self.case.location else 0

    @property
    def features(self) -> frozenset[str]:
        """The rule features this item needs, derived from the case and the ruleset
        (:func:`jpdtools.run.features.features_of`; none for an error case)."""
        if self.rules is None or self.expectation is None:
            return frozenset()
        return features_of(self.case, self.rules, self.expectation)


@dataclass(frozen=True)
class Plan:
    items: tuple[PlanItem, ...]
    failures: tuple[LoadFailure, ...] = ()
    # results known before anything runs (a case whose expectations cannot be resolved)
    errors: tuple[CaseResult, ...] = ()
    # (case id, ruleset) of a selected variant the reference cannot play the case under: not planned
    undetermined: tuple[tuple[str, str], ...] = ()
    # (case id, ruleset, what) of a variant the case's own text decides otherwise than the reference
    contradicted: tuple[tuple[str, str, str], ...] = ()
    # the id of every case of the files loaded, selected or not, but error cases (what an
    # expected-failure list is measured against)
    case_ids: tuple[str, ...] = ()

    def undetermined_note(self) -> str:
        """One line on the variant items left out (\"\" when none), for every report."""
        if not self.undetermined:
            return ""
        counts = _per_ruleset(name for _, name in self.undetermined)
        return f"not planned, the reference cannot play the case under the variant ({counts})"

    def contradicted_note(self) -> str:
        """One line on the variant items whose case text the reference contradicts (\"\" when
        none): held to the reference (spec/contract.md#contract.variants); each case is a case to
        correct (its ``depends`` or an axis selector claims too much)."""
        if not self.contradicted:
            return ""
        counts = _per_ruleset(name for _, name, _ in self.contradicted)
        ids = sorted({case for case, _, _ in self.contradicted})
        shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
        return (
            f"held to the reference under the variant, whose verdicts contradict the case's own text "
            f"for it ({counts}): {shown} — their depends or an axis selector claims too much"
        )

    def notes(self) -> tuple[str, ...]:
        """The plan's notes for every report (none when nothing is left out or contradicted)."""
        return tuple(n for n in (self.undetermined_note(), self.contradicted_note()) if n)


def _per_ruleset(names: Iterable[str]) -> str:
    per: dict[str, int] = {}
    for name in names:
        per[name] = per.get(name, 0) + 1
    return ", ".join(f"{name}: {n} cases" for name, n in per.items())


@dataclass(frozen=True)
class RunResult:
    adapter: str
    results: tuple[CaseResult, ...]
    failures: tuple[LoadFailure, ...] = ()
    interrupted: bool = False
    suite: SuiteIdentity | None = None  # which suite ran (set by the command that ran it)

    @property
    def ok(self) -> bool:
        """Nothing failed, nothing errored, every file loaded, and the run was not interrupted
        (a partial run is never a success, in any report)."""
        bad = (Status.FAIL, Status.ERROR)
        return not self.interrupted and not self.failures and not any(r.status in bad for r in self.results)


# -- 1. loading --------------------------------------------------------------------------------


def case_files(paths: Iterable[Path]) -> list[Path]:
    """The ``.yaml`` files named by ``paths`` (directories are searched recursively, sorted)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.yaml") if p.is_file()))
        elif path.is_file():
            found.append(path)
        else:
            raise InputError(not_a_case_path(path))
    unique: list[Path] = []
    for p in found:
        if p not in unique:
            unique.append(p)
    return unique


def _failure(path: Path, err: InputError) -> LoadFailure:
    return LoadFailure(str(path), err.message, err.location, getattr(err, "code", "") or "")


def load_files(
    paths: Iterable[Path], presets: Presets, loader: SuiteLoader
) -> tuple[list[CaseFile], list[LoadFailure]]:
    """Load every case file on its own; report bad files and duplicate ids, keep the rest."""
    files: list[CaseFile] = []
    failures: list[LoadFailure] = []
    for path in case_files(paths):
        try:
            files.append(loader.load_case_file(path, presets))
        except InputError as err:
            failures.append(_failure(path, err))
    failures.extend(duplicate_ids(files))
    return files, failures


def duplicate_ids(files: Iterable[CaseFile]) -> list[LoadFailure]:
    seen: dict[str, Location] = {}
    failures = []
    for case_file in files:
        for case in case_file.cases:
            where = case.location or Location(case_file.path)
            if case.id in seen:
                failures.append(
                    LoadFailure(
                        case_file.path,
                        f"duplicate case id {case.id!r} (first at {seen[case.id]})",
                        where,
                        "duplicate-id",
                    )
                )
            else:
                seen[case.id] = where
    return failures


# -- 2. planning -------------------------------------------------------------------------------


def make_plan(
    files: Iterable[CaseFile],
    presets: Presets,
    filters: Filters,
    loader: SuiteLoader,
    failures: Iterable[LoadFailure] = (),
    oracle: Adapter | None = None,
) -> Plan:
    """Expand every selected case over its rulesets. A variant's items take their expectations
    from :func:`jpdtools.run.oracle.variant_verdict` (``oracle``: the reference by default)."""
    items: list[PlanItem] = []
    errors: list[CaseResult] = []
    undetermined: list[tuple[str, str]] = []
    contradicted: list[tuple[str, str, str]] = []
    case_ids: list[str] = []
    for case_file in files:
        for case in case_file.cases:
            if not case.is_error_case:
                case_ids.append(case.id)
            if not filters.wants_case(case):
                continue
            if case.is_error_case:
                items.append(PlanItem(case, case_file.path))
                continue
            try:
                resolved = loader.resolve(case, presets)
            except (InputError, RulesError) as err:
                line = case.location.line if case.location else 0
                result = CaseResult(
                    case.id, UNRESOLVED, Status.ERROR, (), str(err), "", line, review=counted_status(case)
                )
                errors.append(replace(result, file=case_file.path))
                continue
            for rules, expectation in resolved:
                if filters.wants_rules(rules.name):
                    items.append(PlanItem(case, case_file.path, rules, expectation))
            named = {rules.name for rules, _ in resolved}
            for variant in filters.variants:
                # a variant of a preset the case does not apply to is not the case's business
                if variant.name in named or variant.name.partition(":")[0] not in named:
                    continue
                oracle = oracle or ReferenceAdapter()
                verdict = variant_verdict(case, variant, resolved, oracle)
                if verdict.contradiction:
                    contradicted.append((case.id, variant.name, verdict.contradiction))
                if verdict.expectation is not None:
                    items.append(PlanItem(case, case_file.path, variant, verdict.expectation))
                else:
                    undetermined.append((case.id, variant.name))
    return Plan(
        tuple(items),
        tuple(failures),
        tuple(errors),
        tuple(undetermined),
        tuple(contradicted),
        tuple(case_ids),
    )


def plan_paths(paths: Iterable[Path], presets: Presets, filters: Filters, loader: SuiteLoader) -> Plan:
    files, failures = load_files(paths, presets, loader)
    return make_plan(files, presets, filters, loader, failures)


# -- 3. execution ------------------------------------------------------------------------------


def case_result(item: PlanItem, judgement: Judgement, observation=None) -> CaseResult:
    """The result row of one plan item."""
    return CaseResult(
        item.case.id,
        item.ruleset,
        judgement.status,
        judgement.mismatches,
        judgement.detail,
        item.file,
        item.line,
        observation,
        counted_status(item.case),
    )


def run_error_case(item: PlanItem, presets: Presets, loader: SuiteLoader) -> CaseResult:
    """An error case: the loader must reject its quoted file with the stated code and place."""
    spec = item.case.load_error
    assert spec is not None
    ok, message = loader.check_error_case(item.case, presets)
    if ok:
        return case_result(item, Judgement(Status.PASS))
    expected = Claim("fails-with", (spec.code, "at", f"{spec.line}:{spec.column}"))
    _, got, what = message.partition(", got ")
    observed = Claim("fails-with", (what,)) if got else Claim("loads", (message,))
    mismatch = Mismatch(None, expected, observed, label="load")
    return case_result(item, Judgement(Status.FAIL, (mismatch,), message))


def execute_item(item: PlanItem, adapter: Adapter, presets: Presets, loader: SuiteLoader) -> CaseResult:
    """Run one item. Never raises for a problem of the program under test: that is an error."""
    try:
        if item.rules is None:
            return run_error_case(item, presets, loader)
        case, expectation = item.case, item.expectation
        if case.setup is None or expectation is None:
            return case_result(item, Judgement(Status.ERROR, detail="the case has no set-up"))
        why_not = adapter.capabilities().unsupported(item.rules, case.setup, item.features)
        if why_not:
            return case_result(item, Judgement(Status.SKIP, detail=f"{adapter.name}: {why_not}"))
        observation = adapter.observe(case.setup, case.history, case.moves, item.rules)
        judgement = judge(expectation, observation)
        if judgement.status is Status.OPEN and case.open:
            judgement = Judgement(
                Status.OPEN,
                detail=f"{judgement.detail} ({', '.join(case.open)})",
                open_steps=judgement.open_steps,
            )
        return case_result(item, judgement, observation)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as err:  # a crash of the program under test is a result, not a traceback
        return case_result(item, Judgement(Status.ERROR, detail=f"{type(err).__name__}: {err}"))


ProgressFn = Callable[[int, int, CaseResult], None]


def execute(
    plan: Plan,
    adapter: Adapter,
    presets: Presets,
    loader: SuiteLoader,
    progress: ProgressFn | None = None,
) -> Iterator[CaseResult]:
    """Yield the plan's known errors, then one result per item, calling ``progress`` after each."""
    yield from plan.errors
    total = len(plan.items)
    for n, item in enumerate(plan.items, 1):
        result = execute_item(item, adapter, presets, loader)
        if progress is not None:
            progress(n, total, result)
        yield result


def run_plan(
    plan: Plan,
    adapter: Adapter,
    presets: Presets,
    loader: SuiteLoader,
    progress: ProgressFn | None = None,
) -> RunResult:
    """Execute a whole plan. On Ctrl-C, the results so far are kept (``interrupted`` is set)."""
    results: list[CaseResult] = []
    try:
        for result in execute(plan, adapter, presets, loader, progress):
            results.append(result)
    except KeyboardInterrupt:
        return RunResult(adapter.name, tuple(results), plan.failures, interrupted=True)
    return RunResult(adapter.name, tuple(results), plan.failures)
