"""Checks of the suite itself (``jpd lint``): ids, id stability, anchors, citations, coverage.

* **ids** — every case id matches ``[a-z0-9][a-z0-9.-]*`` and is unique across the suite;
* **stability** — ``conformance/ids.txt`` lists every id ever used, append-only: an id listed
  there must still be in the suite unless marked ``# retired``, a retired id must not come back,
  and every suite id must be listed (``jpd lint --update-ids`` appends new ones);
* **anchors** — every ``spec:`` anchor exists as ``{#anchor}`` in ``spec/*.md``;
* **sources** — the seed-traceability table ``spec/sources.yaml`` loads; each of its articles
  is mapped to clauses or marked non-normative; every clause it maps exists and is cited by a
  case; every citation of a ``Sources:`` line of ``spec/*.md`` resolves to articles of the
  table; every quotation of a seed is in the seed file (where ``../shared/seeds`` is present);
* **seeds** — every citation of a case resolves to articles of that table (the rule:
  :mod:`jpdtools.review.sources`); without a loadable table, it must at least look like a seed
  article (``000 §22``, ``001 第八条``, ``003 四虚终局``) or a public source (``J1989 Art. 12``);
* **review** — a case ``accepted``, ``disputed`` or ``rejected`` carries its decision record (text,
  date, who decided), a ``proposed`` one records none (the loader already checks the form of the
  review keys: spec/case-format.md#format.review); so do the open questions' decisions
  (``spec/question-reviews.yaml``);
* **pins** — every open question ``{#oq.N}`` of ``spec/open-questions.md`` is cited by a case, and
  its ``Pinned by:`` line lists exactly the cases citing it (``jpd lint --update-pins`` rewrites
  those lines); an entry whose cases cannot be written yet says so, ``Pinned by: (pending: why)``;
  the entries follow each other by number;
* **features** — every rule feature the reference implementation exercises playing an item (a
  refusal out of turn, after the game, of a ko under the ruleset's illegal-move policy, …) is
  among the features derived from the item's verdict text (:mod:`jpdtools.run.features`), so
  that the derivation that decides which items a program lacking a feature skips cannot drift;
* **depends** — a case that lists ``depends`` lists every axis its verdicts rest on: the axes the
  clauses deciding the reference's play read (:mod:`.depends`), so that a variant is
  never handed the text of a ruleset whose rules differ on one of them;
* **overrides** — every ``Overrides:`` ruleset of ``spec/open-questions.md`` (another reading of an
  open question as axis overrides) is a preset with valid overrides (:mod:`.overrides`);
* **coverage** — every normative play clause of ``spec/play.md`` (anchors starting with
  ``capture.``, ``rep.``, ``turn.``, ``end.``, ``setup.``, ``play.move``, ``play.illegal``) is
  cited by a case with a step that is legal under some ruleset and by one with a step that is
  illegal under some ruleset (as the reference implementation observes it, or, where it cannot
  play the case, as the case's firm verdicts say);
* **19×19 coverage** — each of those clauses is also cited by a case on a 19×19 board, so that an
  engine that plays only 19×19 is tested on every clause (``conformance/board19.yaml`` holds
  small cases moved into the corner of a 19×19 board: :mod:`jpdtools.suite.enlarge`);
* **status** — every dead and seki mark and every claim of a counting case's agreement is proven on its board
  (:mod:`.statuses`, spec/counting.md#count.status), or the case says ``status-proof: agreement``
  with the reason;
* **zh** — every case has its Chinese title, and its Chinese note where it has a note
  (spec/case-format.md#format.zh; :mod:`.case_translations`): a warning counts the missing ones,
  ``require_zh`` (``jpd lint --require-zh``) makes each a problem; a ``zh`` text without a Chinese
  character is always one, and one lacking a figure (vertex, number) of its English text is a
  warning;
* **count coverage** (only with ``require_count_coverage``, ``jpd lint --require-count-coverage``)
  — every clause ``{#count.…}`` of ``spec/counting.md`` is cited by at least one case. It is a
  separate switch because the counting cases are still being written: CI turns it on once they
  exist. Without it the rows are still computed (``LintReport.count_coverage``), not enforced.
"""

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from jpdref.rules import AXES

from jpdtools import atomic
from jpdtools.errors import InputError, Location, read_text_file
from jpdtools.hidden import find_hidden
from jpdtools.presets import Presets
from jpdtools.review import traceability
from jpdtools.review.anchors import ANCHOR_RE, Anchor, spec_anchors
from jpdtools.review.case_translations import check_case_translations
from jpdtools.review.depends import resting_axes
from jpdtools.review.overrides import read_overrides
from jpdtools.review.sources import SOURCES_FILE, load_sources
from jpdtools.review.statuses import (
    CaseStatuses,
    Settledness,
    prove_files,
    settledness_files,
    unsettled_files,
)
from jpdtools.review.translations import TRANSLATED_DOCUMENTS, check_translations
from jpdtools.run.adapters import Adapter, Observation
from jpdtools.run.compare import CaseResult
from jpdtools.run.exercised import exercised
from jpdtools.run.runner import Filters, LoadFailure, PlanItem, SuiteLoader, execute, make_plan
from jpdtools.suite.loader import load_question_reviews
from jpdtools.suite.model import Case, CaseFile, Expectation

ID_RE = re.compile(r"[a-z0-9][a-z0-9.-]*\Z")
SEED_RE = re.compile(r"00[0-4] (§\d+(–\d+)?|第[一二三四五六七八九十]+条.*|.+)\Z")
PUBLIC_SOURCES = (
    "Chinese",
    "J1989",
    "Ing",
    "AGA",
    "WMSG",
    "Tromp-Taylor",
    "KataGo",
    "GTP",
    "SGF",
)
PUBLIC_RE = re.compile("(" + "|".join(map(re.escape, PUBLIC_SOURCES)) + r")(?![A-Za-z0-9])")
COVERED_PREFIXES = ("capture.", "rep.", "turn.", "end.", "setup.", "play.move", "play.illegal")
PLAY_SPEC = "play.md"
COUNT_SPEC = "counting.md"
COUNT_PREFIX = "count."
RETIRED = "# retired"
IDS_HEADER = (
    "# Every conformance case id ever used, one a line, append-only (jpd lint checks it).\n"
    "# Never delete a line: mark an id that left the suite with '# retired'.\n"
)


@dataclass(frozen=True)
class Problem:
    check: str  # ids | stability | anchors | sources | seeds | review | coverage | pins | status | load | …
    message: str
    location: Location | None = None

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.message} [{self.check}]"


@dataclass(frozen=True)
class CoverageRow:
    anchor: str
    cases: tuple[str, ...]
    legal: tuple[str, ...]  # ids of cases with a legal step under some ruleset
    illegal: tuple[str, ...]  # … and with an illegal step

    @property
    def ok(self) -> bool:
        return bool(self.legal and self.illegal)


@dataclass(frozen=True)
class IdsFile:
    ids: tuple[str, ...]  # every id listed, in file order
    retired: frozenset[str]
    lines: tuple[tuple[str, int], ...] = ()  # (id, line number of its first listing)


@dataclass(frozen=True)
class LintReport:
    problems: tuple[Problem, ...]
    coverage: tuple[CoverageRow, ...]
    new_ids: tuple[str, ...] = ()  # suite ids missing from ids.txt
    count_coverage: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (count clause, citing case ids)
    large_board: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (play clause, citing 19×19 case ids)
    statuses: tuple[CaseStatuses, ...] = ()  # the status proofs of the counting cases
    warnings: tuple[str, ...] = ()  # reported, not failing: clauses with no Chinese text yet
    settledness: tuple[Settledness, ...] = ()  # the settledness proofs of the counted positions

    @property
    def ok(self) -> bool:
        return not self.problems


# -- the ids file ------------------------------------------------------------------------------


def read_ids(path: Path) -> IdsFile:
    """Read ``ids.txt``: one id a line, ``#`` comments; ``ID  # retired`` marks a retired id."""
    if not path.is_file():
        return IdsFile((), frozenset())
    ids, retired, lines = [], set(), {}
    for n, raw in enumerate(read_text_file(path).splitlines(), 1):
        text, hash_, comment = raw.partition("#")
        word = text.strip()
        if not word:
            continue
        ids.append(word)
        lines.setdefault(word, n)
        if hash_ and comment.strip().lower().startswith("retired"):
            retired.add(word)
    return IdsFile(tuple(ids), frozenset(retired), tuple(lines.items()))


def append_ids(path: Path, ids: Sequence[str]) -> None:
    """Append ``ids`` to ``path`` (creating it with a header)."""
    existing = read_text_file(path) if path.is_file() else IDS_HEADER
    if existing and not existing.endswith("\n"):
        existing += "\n"
    atomic.write_text(path, existing + "".join(f"{i}\n" for i in ids))


# -- the checks --------------------------------------------------------------------------------


def _where(case: Case, case_file: CaseFile) -> Location:
    return case.location or Location(case_file.path)


def _cases(files: Iterable[CaseFile]) -> list[tuple[Case, CaseFile]]:
    return [(case, f) for f in files for case in f.cases]


def check_ids(files: Sequence[CaseFile]) -> list[Problem]:
    problems = []
    seen: dict[str, Location] = {}
    for case, f in _cases(files):
        where = _where(case, f)
        if not ID_RE.match(case.id):
            problems.append(Problem("ids", f"id {case.id!r} is not [a-z0-9][a-z0-9.-]*", where))
        if case.id in seen:
            message = f"duplicate id {case.id!r} (first at {seen[case.id]})"
            problems.append(Problem("ids", message, where))
        else:
            seen[case.id] = where
    return problems


def check_stability(
    files: Sequence[CaseFile], listed: IdsFile, ids_path: Path, whole_suite: bool
) -> tuple[list[Problem], list[str]]:
    """Problems, and the suite ids that ``ids.txt`` does not list yet (in suite order)."""
    problems = []
    suite: dict[str, Location] = {}
    for case, f in _cases(files):
        suite.setdefault(case.id, _where(case, f))
    line_of = dict(listed.lines)
    if whole_suite:
        for old in dict.fromkeys(listed.ids):
            if old not in suite and old not in listed.retired:
                problems.append(
                    Problem(
                        "stability",
                        f"id {old!r} of {ids_path.name} is gone from the suite "
                        f"(restore it, or mark it '{old}  {RETIRED}')",
                        Location(str(ids_path), line_of.get(old, 0), 1),
                    )
                )
    for case_id, loc in suite.items():
        if case_id in listed.retired:
            problems.append(Problem("stability", f"id {case_id!r} was retired and must not be reused", loc))
    known = set(listed.ids)
    new = [i for i in suite if i not in known]
    return problems, new


def check_anchors(files: Sequence[CaseFile], anchors: dict[str, Anchor]) -> list[Problem]:
    return [
        Problem("anchors", f"spec anchor {a!r} does not exist in spec/*.md", _where(case, f))
        for case, f in _cases(files)
        for a in case.spec
        if a not in anchors
    ]


def check_sources(
    files: Sequence[CaseFile],
    anchors: dict[str, Anchor],
    spec_dir: Path,
    seeds_root: Path | None = None,
    whole_suite: bool = True,
) -> list[Problem]:
    """The seed-traceability table ``spec/sources.yaml`` (:mod:`jpdtools.review.traceability`):
    it loads, every article is mapped or marked, its clauses exist and have cases; every
    citation of a case (check ``seeds``) and of a ``Sources:`` line resolves; and, when
    ``seeds_root`` holds the seed files, every quotation is in its seed. Without a loadable
    table the case citations are checked by form only (:func:`check_seeds`). Whether a mapped
    clause has a case is only asked of the ``whole_suite``."""
    path = spec_dir / SOURCES_FILE
    try:
        table = load_sources(path)
    except InputError as err:
        return [Problem("sources", err.message, err.location or Location(str(path))), *check_seeds(files)]
    found = [
        Problem("sources", f.message, f.location)
        for f in (
            *traceability.check_table(table, anchors, citing_cases(files) if whole_suite else None),
            *traceability.check_spec_citations(spec_dir, table),
            *traceability.check_renderings(table),
            *(traceability.check_quotes(table, seeds_root) if seeds_root is not None else ()),
        )
    ]
    found += [
        Problem("seeds", f.message, f.location) for f in traceability.check_case_citations(files, table)
    ]
    return found


def check_review(files: Sequence[CaseFile]) -> list[Problem]:
    """{#format.review} The loader checks the form of the review keys; here, that a status says
    what was decided: ``accepted``, ``disputed`` and ``rejected`` carry a decision record (text,
    date, who, the revision decided), and a ``proposed`` case records none (a decision moves it out
    of proposed)."""
    found = []
    for case, f in _cases(files):
        problem = review_problem(case.status, case.decision, case.decided_by, case.revision)
        if problem:
            found.append(Problem("review", f"case {case.id!r} {problem}", _where(case, f)))
    return found


QUESTION_REVIEWS = "question-reviews.yaml"


def question_reviews(spec_dir: Path, presets: Presets):
    """The decisions on the open questions (empty when the spec has no such file); InputError
    when it does not load."""
    path = spec_dir / QUESTION_REVIEWS
    if not path.is_file():
        return ()
    return load_question_reviews(read_text_file(path), str(path), presets)


def check_question_reviews(spec_dir: Path, presets: Presets, anchors: dict) -> list[Problem]:
    try:
        reviews = question_reviews(spec_dir, presets)
    except InputError as err:
        return [Problem("review", err.message, err.location)]
    found = []
    for r in reviews:
        if r.anchor not in anchors:
            found.append(Problem("review", f"{r.anchor} is not an open question of the spec", r.location))
        problem = review_problem(r.status, r.decision, r.decided_by, r.revision)
        if problem:
            found.append(Problem("review", f"open question {r.anchor} {problem}", r.location))
    return found


def review_problem(status: str, decision: str, decided_by: str, revision: str) -> str:
    """What is wrong with a review status and its decision record ("" if nothing)."""
    if status == "proposed" and decision:
        return "is 'proposed' but records a decision: a decided case is accepted, disputed or rejected"
    if status != "proposed" and not (decision and decided_by and revision):
        parts = (("'decision'/'decided'", decision), ("'decided-by'", decided_by), ("'revision'", revision))
        missing = " and ".join(k for k, v in parts if not v)
        return f"is {status!r} without a decision record (missing {missing}): who decided, when, and what"
    return ""


def seed_ok(citation: str) -> bool:
    text = citation.strip()
    return bool(SEED_RE.match(text) or PUBLIC_RE.match(text))


def check_seeds(files: Sequence[CaseFile]) -> list[Problem]:
    return [
        Problem(
            "seeds",
            f"citation {s!r} is neither a seed article ('000 §22', '001 第八条') nor a public "
            f"source ({', '.join(PUBLIC_SOURCES)})",
            _where(case, f),
        )
        for case, f in _cases(files)
        for s in case.seeds
        if not seed_ok(s)
    ]


# -- coverage ----------------------------------------------------------------------------------


def covered_anchors(anchors: dict[str, Anchor]) -> list[str]:
    """The normative play clauses that need a legal and an illegal case."""
    return [a.name for a in anchors.values() if a.file == PLAY_SPEC and a.name.startswith(COVERED_PREFIXES)]


def _expected_legality(expectation: Expectation) -> set[bool]:
    found = set()
    for verdict in expectation.steps:
        if verdict.is_open or not verdict.alternatives:
            continue
        kinds = {c.kind for c in verdict.alternatives[0]}
        if "legal" in kinds:
            found.add(True)
        if kinds & {"illegal", "void-pass", "forfeit"}:
            found.add(False)
    return found


def _observed_legality(observation: Observation | None) -> set[bool] | None:
    if observation is None or observation.error:
        return None
    return {s.legal for s in observation.steps}


def reference_runs(
    files: Sequence[CaseFile],
    presets: Presets,
    adapter: Adapter,
    loader: SuiteLoader,
    progress: Callable[[int, int], None] | None = None,
) -> list[tuple[PlanItem | None, CaseResult]]:
    """Every item of the suite played through ``adapter`` (the reference), with its plan item;
    ``progress(done, total)`` after each."""
    plan = make_plan(files, presets, Filters(), loader)
    items = {(i.case.id, i.ruleset): i for i in plan.items}
    tick = None if progress is None else (lambda n, total, _result: progress(n, total))
    return [(items.get((r.case_id, r.ruleset)), r) for r in execute(plan, adapter, presets, loader, tick)]


def legality_by_case(
    files: Sequence[CaseFile],
    presets: Presets,
    adapter: Adapter,
    loader: SuiteLoader,
    runs: list[tuple[PlanItem | None, CaseResult]] | None = None,
) -> dict[str, set[bool]]:
    """For each case id: which legalities (True/False) its steps have under some ruleset
    (``runs``: :func:`reference_runs`, when the caller already has them)."""
    found: dict[str, set[bool]] = {}
    for item, result in runs if runs is not None else reference_runs(files, presets, adapter, loader):
        seen = _observed_legality(result.observation)
        if seen is None and item is not None and item.expectation is not None:
            seen = _expected_legality(item.expectation)
        found.setdefault(result.case_id, set()).update(seen or ())
    return found


def check_feature_derivation(runs: Sequence[tuple[PlanItem | None, CaseResult]]) -> list[Problem]:
    """Every rule feature the reference exercises playing an item is one the item's derived
    features include (:func:`jpdtools.run.features.features_of` reads them from the verdict text;
    a refusal the text does not state would let a program lacking the feature be held to it)."""
    problems = []
    for item, result in runs:
        observation = result.observation
        if item is None or item.rules is None or observation is None or observation.error:
            continue
        derived = item.features
        for used in exercised(observation, item.rules):
            if used.feature not in derived:
                problems.append(
                    Problem(
                        "features",
                        f"{item.name}: the reference exercises feature {used.feature} ({used.where}) "
                        "but the verdicts do not say so: state that step's verdict",
                        item.case.location,
                    )
                )
    return problems


def check_depends(runs: Sequence[tuple[PlanItem | None, CaseResult]]) -> list[Problem]:
    """Every axis a case's verdicts rest on (:func:`jpdtools.run.depends.resting_axes`: the axes
    read by the clauses deciding what the reference did) is in its ``depends``, when it lists one:
    a shorter list hands a variant agreeing on it the text of a ruleset whose rules differ."""
    missing: dict[str, dict[str, list[str]]] = {}
    cases: dict[str, Case] = {}
    for item, result in runs:
        observation = result.observation
        if item is None or item.rules is None or observation is None or observation.error:
            continue
        case = item.case
        if not case.depends or item.expectation is None:
            continue
        for axis in resting_axes(case, item.expectation, observation, item.rules) - set(case.depends):
            missing.setdefault(case.id, {}).setdefault(axis, []).append(item.ruleset)
            cases[case.id] = case
    problems = []
    for case_id, axes in missing.items():
        case = cases[case_id]
        order = [a for a in AXES if a in axes]
        why = "; ".join(
            f"{a} (under {', '.join(axes[a][:3])}{', …' if len(axes[a]) > 3 else ''})" for a in order
        )
        problems.append(
            Problem(
                "depends",
                f"{case_id}: its verdicts rest on clauses reading {why}, which its depends "
                f"[{', '.join(case.depends)}] leaves out: add {', '.join(order)}",
                case.location,
            )
        )
    return problems


def coverage(
    files: Sequence[CaseFile], clauses: Sequence[str], legality: dict[str, set[bool]]
) -> list[CoverageRow]:
    rows = []
    for clause in clauses:
        citing = [c.id for c, _ in _cases(files) if clause in c.spec and not c.is_error_case]
        rows.append(
            CoverageRow(
                clause,
                tuple(citing),
                tuple(i for i in citing if True in legality.get(i, ())),
                tuple(i for i in citing if False in legality.get(i, ())),
            )
        )
    return rows


def check_coverage(rows: Sequence[CoverageRow], anchors: dict[str, Anchor], spec_dir: Path) -> list[Problem]:
    problems = []
    for row in rows:
        missing = [k for k, ids in (("legal", row.legal), ("illegal", row.illegal)) if not ids]
        if not missing:
            continue
        if not row.cases:
            message = f"clause {row.anchor!r} is cited by no case"
        else:
            what = " or ".join(f"{k} step" for k in missing)
            message = f"clause {row.anchor!r}: no citing case has a {what} under any ruleset"
        a = anchors[row.anchor]
        problems.append(Problem("coverage", message, Location(str(spec_dir / a.file), a.line, 1)))
    return problems


LARGE_BOARD = 19


def large_board_coverage(
    files: Sequence[CaseFile], clauses: Sequence[str], size: int = LARGE_BOARD
) -> list[tuple[str, tuple[str, ...]]]:
    """For each play clause, the cases on a ``size`` × ``size`` board that cite it."""
    large = [
        c
        for c, _ in _cases(files)
        if c.setup is not None and not c.is_error_case and (c.setup.width, c.setup.height) == (size, size)
    ]
    return [(clause, tuple(c.id for c in large if clause in c.spec)) for clause in clauses]


def check_large_board(
    rows: Sequence[tuple[str, tuple[str, ...]]], anchors: dict[str, Anchor], spec_dir: Path
) -> list[Problem]:
    problems = []
    for clause, ids in rows:
        if not ids:
            a = anchors[clause]
            message = f"clause {clause!r} is cited by no {LARGE_BOARD}x{LARGE_BOARD} case"
            problems.append(Problem("coverage", message, Location(str(spec_dir / a.file), a.line, 1)))
    return problems


def count_coverage(
    files: Sequence[CaseFile], anchors: dict[str, Anchor]
) -> list[tuple[str, tuple[str, ...]]]:
    """Every ``{#count.…}`` clause of spec/counting.md with the (non-error) cases citing it."""
    clauses = [a.name for a in anchors.values() if a.file == COUNT_SPEC and a.name.startswith(COUNT_PREFIX)]
    cases = [c for c, _ in _cases(files) if not c.is_error_case]
    return [(clause, tuple(c.id for c in cases if clause in c.spec)) for clause in clauses]


def check_count_coverage(
    rows: Sequence[tuple[str, tuple[str, ...]]], anchors: dict[str, Anchor], spec_dir: Path
) -> list[Problem]:
    """A problem for every count clause no case cites."""
    problems = []
    for clause, citing in rows:
        if not citing:
            a = anchors[clause]
            where = Location(str(spec_dir / a.file), a.line, 1)
            problems.append(Problem("coverage", f"clause {clause!r} is cited by no case", where))
    return problems


# -- open questions and the cases that pin them ----------------------------------------------

OPEN_QUESTIONS = "open-questions.md"
PINNED = "Pinned by:"


def _pin_lines(path: Path) -> dict[str, int]:
    """``oq.N`` → index (0-based) of the ``Pinned by:`` line of that entry."""
    lines = read_text_file(path).splitlines()
    found: dict[str, int] = {}
    current = None
    for i, line in enumerate(lines):
        match = ANCHOR_RE.search(line) if line.startswith("#") else None
        if match and match.group(1).startswith("oq."):
            current = match.group(1)
        elif current and line.startswith(PINNED):
            found[current] = i
            current = None
    return found


PENDING = f"{PINNED} (pending:"
"""An entry whose cases cannot be written yet says why: ``Pinned by: (pending: REASON)``."""


def _pinned_text(ids: Sequence[str], current: str = "") -> str:
    if not ids and current.startswith(PENDING):
        return current
    return f"{PINNED} " + (", ".join(f"`{i}`" for i in ids) if ids else "(no case yet)")


def citing_cases(files: Sequence[CaseFile]) -> dict[str, list[str]]:
    """Anchor → ids of the cases citing it in ``spec:``, sorted."""
    cited: dict[str, list[str]] = {}
    for case, _ in _cases(files):
        for anchor in case.spec:
            cited.setdefault(anchor, []).append(case.id)
    return {a: sorted(ids) for a, ids in cited.items()}


def check_pins(files: Sequence[CaseFile], spec_dir: Path) -> list[Problem]:
    path = spec_dir / OPEN_QUESTIONS
    if not path.is_file():
        return []
    lines = read_text_file(path).splitlines()
    cited = citing_cases(files)
    problems = []
    for anchor, index in _pin_lines(path).items():
        where = Location(str(path), index + 1, 1)
        ids = cited.get(anchor, [])
        if not ids and lines[index].startswith(PENDING):
            continue  # declared pending, with its reason, in the register itself
        if not ids:
            problems.append(Problem("pins", f"open question {anchor!r} is pinned by no case", where))
        elif lines[index].strip() != _pinned_text(ids):
            problems.append(
                Problem(
                    "pins",
                    f"the {PINNED!r} line of {anchor!r} is out of date (rewrite it: jpd lint --update-pins)",
                    where,
                )
            )
    return problems


def check_question_order(spec_dir: Path) -> list[Problem]:
    """The register's entries ``{#oq.N}`` follow each other by N (ids never change, so an entry
    added late goes where its number puts it; the Chinese twin keeps the same order:
    :mod:`.translations`)."""
    path = spec_dir / OPEN_QUESTIONS
    if not path.is_file():
        return []
    problems, last = [], 0
    for n, line in enumerate(read_text_file(path).splitlines(), 1):
        match = ANCHOR_RE.search(line) if line.startswith("#") else None
        if not (match and re.fullmatch(r"oq\.\d+", match.group(1))):
            continue
        number = int(match.group(1)[3:])
        if number < last:
            problems.append(
                Problem(
                    "pins",
                    f"open question {match.group(1)!r} comes after 'oq.{last}': the register goes by number",
                    Location(str(path), n, 1),
                )
            )
        last = max(last, number)
    return problems


def update_pins(files: Sequence[CaseFile], spec_dir: Path) -> int:
    """Rewrite every ``Pinned by:`` line of the register; returns how many changed."""
    path = spec_dir / OPEN_QUESTIONS
    lines = read_text_file(path).splitlines()
    cited = citing_cases(files)
    changed = 0
    for anchor, index in _pin_lines(path).items():
        text = _pinned_text(cited.get(anchor, []), lines[index])
        if lines[index] != text:
            lines[index], changed = text, changed + 1
    atomic.write_text(path, "\n".join(lines) + "\n")
    return changed


# -- everything --------------------------------------------------------------------------------


def check_overrides(spec_dir: Path, presets: Presets) -> list[Problem]:
    """Every ``Overrides:`` ruleset of the register is a preset with valid axis overrides."""
    path = spec_dir / OPEN_QUESTIONS
    if not path.is_file():
        return []
    try:
        read_overrides(path, presets)
    except InputError as err:
        return [Problem("overrides", err.message, err.location)]
    return []


def check_hidden(paths: Sequence[Path]) -> list[Problem]:
    """A character a reader cannot see (a control, a bidirectional override or isolate, a
    zero-width or other format character: :mod:`jpdtools.hidden`) anywhere in a case file or a
    spec file the book renders: it would reach the pages raw, making them say what a reader does
    not see."""
    out = []
    for path in paths:
        try:
            text = read_text_file(path)
        except InputError:
            continue  # the load check names it
        for n, line in enumerate(text.split("\n"), 1):
            found = find_hidden(line, multiline=True)
            if found:
                where = Location(str(path), n, found[0] + 1)
                out.append(Problem("hidden-character", f"{found[1]}: a character a reader cannot see", where))
    return out


def check_statuses(proven: Sequence[CaseStatuses]) -> list[Problem]:
    """{#count.status} A declared status disproven, undecided, pending, or on a position that cannot be
    played (spec/case-format.md#format.status-proof)."""
    problems = []
    for case in proven:
        if case.holds is True:
            continue
        if case.pending:
            problems.append(
                Problem(
                    "status",
                    f"{case.case_id}: its statuses are not proven "
                    f"(status-proof: pending: {case.pending.strip()}); redraw the position until they are, "
                    "or say 'status-proof: {agreement: why}' if the case is false as Go on purpose",
                    case.location,
                )
            )
            continue
        if case.error:
            problems.append(
                Problem(
                    "status", f"{case.case_id}: its statuses cannot be proven: {case.error}", case.location
                )
            )
            continue
        for proof in case.proofs:
            if proof.holds is True:
                continue
            marks = " ".join(c[0] for c in proof.chains)
            what = f"{proof.status} {marks}"
            if proof.claimer:
                what = f"claim '{proof.claimer} {proof.status} {marks}'"
            verdict = "is not proven" if proof.holds is None else "is disproven"
            why = "; ".join(proof.failures())
            problems.append(
                Problem(
                    "status",
                    f"{case.case_id}: {what} {verdict} ({why}); redraw the position, or say "
                    "'status-proof: {agreement: why}' if the case is false as Go on purpose",
                    case.location,
                )
            )
    return problems


def check_settledness(found: Sequence[Settledness]) -> list[Problem]:
    """{#count.status} A counted position with a chain the agreement leaves alive that the prover
    shows captured or does not decide (count.status (6))."""
    return _settledness_problems(found)


def _settledness_problems(found: Sequence[Settledness]) -> list[Problem]:
    problems = []
    for settled in found:
        for proof in settled.proof.proofs:
            if proof.holds is True:
                continue
            first = " ".join(f"{n.color} {n.move}" for n in proof.lines)
            what = "is captured" if proof.holds is False else "is not proven alive"
            refuted = f" by {first}" if first and proof.holds is False else ""
            problems.append(
                Problem(
                    "settledness",
                    f"{settled.case_id}: {proof.color} {proof.name}, counted alive, {what}{refuted} "
                    f"({proof.describe()}); count.status (6): a counted position is settled"
                    + (" — redraw it" if proof.holds is False else ""),
                    settled.location,
                )
            )
    return problems


def lint(
    files: Sequence[CaseFile],
    failures: Sequence[LoadFailure],
    presets: Presets,
    spec_dir: Path,
    ids_path: Path,
    adapter: Adapter,
    loader: SuiteLoader,
    whole_suite: bool = True,
    accept_new_ids: bool = False,
    require_count_coverage: bool = False,
    seeds_root: Path | None = None,
    require_zh: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
) -> LintReport:
    """Run every check. ``whole_suite``: the files are the whole suite (so an id missing from
    them is gone; otherwise — a proposal file — only the checks of the files themselves run: ids,
    anchors, citations, review, not coverage, pins or the id register); ``accept_new_ids``: ids
    missing from ``ids.txt`` are not problems (the caller
    appends ``new_ids``); ``require_count_coverage``: every count clause must be cited;
    ``seeds_root``: the folder holding ``seeds/`` (quotations are checked against it);
    ``require_zh``: every case's Chinese title and note must be written (else a warning counts them);
    ``progress(stage, done, total)``: how far the two long stages are (proving statuses, playing
    the suite)."""

    def stage(name: str) -> Callable[[int, int], None] | None:
        return None if progress is None else (lambda done, total: progress(name, done, total))

    problems = [Problem("load", f.message, f.location or Location(f.file)) for f in failures]
    problems += check_ids(files)
    rendered = [Path(f.path) for f in files]
    rendered += sorted(p for p in spec_dir.rglob("*") if p.suffix in (".md", ".yaml") and p.is_file())
    problems += check_hidden(rendered)
    stability, new_ids = check_stability(files, read_ids(ids_path), ids_path, whole_suite and not failures)
    problems += stability
    if not accept_new_ids and new_ids and not ids_path.is_file():
        problems.append(
            Problem(
                "stability",
                f"{ids_path} does not exist (create it: jpd lint --update-ids)",
                Location(str(ids_path)),
            )
        )
    elif not accept_new_ids and whole_suite:
        where = {c.id: _where(c, f) for c, f in _cases(files)}
        problems += [
            Problem(
                "stability",
                f"id {i!r} is not in {ids_path} (append it: jpd lint --update-ids)",
                where.get(i),
            )
            for i in new_ids
        ]
    anchors = spec_anchors(spec_dir)
    problems += check_anchors(files, anchors)
    problems += check_sources(files, anchors, spec_dir, seeds_root, whole_suite and not failures)
    problems += check_review(files)
    problems += check_question_reviews(spec_dir, presets, anchors)
    proven = prove_files(files, presets, progress=stage("proving statuses"))
    problems += check_statuses(proven)
    unsettled = unsettled_files(files, presets)
    settledness = settledness_files(files, presets, stage("proving settledness"))
    problems += check_settledness(settledness)
    translated = check_translations(spec_dir)
    problems += [Problem("translations", message, where) for message, where in translated.problems]
    warnings = tuple(f"{message} ({where})" for message, where in translated.stale) + (
        (
            f"translations: {translated.done} of {translated.total} sections of "
            f"{', '.join(TRANSLATED_DOCUMENTS)} have a current Chinese text in spec/zh/; not yet: "
            + ", ".join(translated.untranslated),
        )
        if translated.untranslated
        else ()
    )
    problems += [
        Problem(
            "settledness",
            f"{u.case_id}: leaves a chain the agreement counts as alive in atari ({' '.join(u.chains)}); "
            "count.status (6): a counted position has none but a ko the agreement claims, or a board "
            "四虚终局 halted in the middle of a cycle (OQ-62)",
            u.location,
        )
        for u in unsettled
    ]
    zh = check_case_translations(files)
    problems += [Problem("zh", message, where) for message, where in zh.not_chinese]
    if require_zh:
        problems += [
            Problem("zh", f"{m.case_id}: no Chinese {m.what} (zh.{m.what})", m.location) for m in zh.missing
        ]
    elif zh.missing:
        warnings += (zh.summary(),)
    warnings += tuple(f"{message} ({where})" for message, where in zh.drifted)
    count_rows = count_coverage(files, anchors)

    def report(rows: Sequence[CoverageRow] = (), large: Sequence = ()) -> LintReport:
        return LintReport(
            tuple(problems),
            tuple(rows),
            tuple(new_ids),
            tuple(count_rows),
            tuple(large),
            tuple(proven),
            warnings,
            tuple(settledness),
        )

    if not whole_suite:
        # a proposal linted on its own: only what the files themselves get wrong (no suite-wide
        # coverage, pins or id-register noise: new ids are what a proposal adds)
        problems += check_overrides(spec_dir, presets)
        return report()
    if require_count_coverage:
        problems += check_count_coverage(count_rows, anchors, spec_dir)
    if whole_suite and not failures:
        problems += check_pins(files, spec_dir)
    problems += check_question_order(spec_dir)
    problems += check_overrides(spec_dir, presets)
    if not (spec_dir / PLAY_SPEC).is_file():
        problems.append(Problem("coverage", f"spec/{PLAY_SPEC} not found: no clauses to cover"))
        return report()
    runs = reference_runs(files, presets, adapter, loader, stage("playing the suite"))
    legality = legality_by_case(files, presets, adapter, loader, runs)
    problems += check_feature_derivation(runs)
    problems += check_depends(runs)
    rows = coverage(files, covered_anchors(anchors), legality)
    problems += check_coverage(rows, anchors, spec_dir)
    large = large_board_coverage(files, covered_anchors(anchors)) if whole_suite else []
    problems += check_large_board(large, anchors, spec_dir)
    return report(rows, large)
