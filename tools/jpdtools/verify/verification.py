"""Verifying a third-party implementation: outcomes, expected-failure lists, parallel execution.

The plan and the comparator are those of ``jpd run`` (:mod:`jpdtools.run.runner`,
:func:`jpdtools.run.compare.judge`); on top of a judgement this module adds:

* the implementer's **expected-failure list** — one pattern per line, ``case-id[ruleset]`` or
  ``case-id`` (any ruleset), each part an fnmatch glob, ``#`` starts a comment; a line ending in
  ``@TRANSFORM`` (a glob) names only the rows given under such a transform (``identity``: the item
  as written), a line without it every row of the item;
* the **outcome** of each item: ``pass``, ``unexpected-pass`` (listed, yet it passed),
  ``expected-failure`` (listed and failed), ``unexpected-failure``, ``open`` (an either-verdict
  matched: never a pass), ``skip`` (the implementation cannot play it: never a pass) and
  ``error`` (it could not be played: a crash, a hang, an impossible set-up — listing an item does
  not excuse an error);
* adapters may *limit* the comparison to what they decide (``adapter.limit(expectation, moves)``,
  or ``adapter.limit_item(expectation, setup, moves, rules)`` when the limit depends on the item's
  ruleset and set-up, as the count does: see :mod:`jpdtools.verify.gtp.limits`) and refuse items their
  capabilities cannot express (``adapter.unsupported_item(setup, history, rules)``): all are
  optional hooks;
* items given to the program under a symmetry of the board and a swap of colours drawn from a
  seed (:class:`Transforming`), its answer mapped back before it is judged
  (:mod:`jpdtools.run.transform`): by default a second pass of a sample of the items played
  (:func:`transform_sample`), under ``--transform SEED`` every item;
* execution in ``jobs`` worker processes, each with its own adapter (and engine processes),
  results streamed back as they come; a worker that dies turns its current item into an error
  and is replaced.

Timing: every result carries its wall ``seconds`` and ``engine_seconds`` — the time the adapter
spent waiting for the implementation (``adapter.engine_seconds``, when the adapter measures it).
"""

import fnmatch
import functools
import hashlib
import multiprocessing
import os
import queue
import re
import shlex
import shutil
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path

from jpdtools.errors import InputError, Location, read_text_file
from jpdtools.run.adapters import Observation, StepObservation
from jpdtools.run.compare import CaseResult, Judgement, Status, judge
from jpdtools.run.runner import PlanItem, case_result
from jpdtools.run.transform import (
    IDENTITY,
    SWAP,
    SYMMETRIES,
    Chosen,
    Item,
    Transform,
    choose,
    observation_back,
    transform_item,
)
from jpdtools.suite.model import Expectation

MAX_WORKER_RESTARTS = 8
DEFAULT_TRANSFORM_SEED = "jipingdian"
"""The seed of the transform pass of a plain ``jpd verify``: the same sample, the same draw, on
every machine (spec/contract.md#contract.transform)."""
SAMPLE_ONE_IN = 4
"""The transform pass of a plain ``jpd verify`` gives one in this many of the items played a
second time (:func:`transform_sample`)."""
TRANSFORM_NAMES = (
    IDENTITY,
    SWAP,
    *SYMMETRIES,
    *(f"{n}+{SWAP}" for n in SYMMETRIES),
)
"""Every name a row's transform may have (``identity``: the item as written)."""
WORKER_GRACE_SECONDS = 5.0  # for a worker to close its engines and exit


class Outcome(StrEnum):
    PASS = "pass"
    UNEXPECTED_PASS = "unexpected-pass"
    EXPECTED_FAILURE = "expected-failure"
    UNEXPECTED_FAILURE = "unexpected-failure"
    OPEN = "open"
    SKIP = "skip"
    ERROR = "error"


OUTCOMES = tuple(Outcome)
BAD = frozenset({Outcome.UNEXPECTED_PASS, Outcome.UNEXPECTED_FAILURE, Outcome.ERROR})


# -- expected failures -------------------------------------------------------------------------


@dataclass(frozen=True)
class ExpectedFailures:
    """Patterns ``(case_glob, ruleset_glob, text, line)``, and for a line ending in ``@GLOB`` the
    transform glob (``transforms``: pattern text → glob); an empty list expects nothing to fail."""

    patterns: tuple[tuple[str, str, str, int], ...] = ()
    path: str = ""
    transforms: tuple[tuple[str, str], ...] = ()

    def match(self, case_id: str, ruleset: str, transform: str = "") -> str | None:
        """The first pattern (as written) matching this row, or None. ``transform``: the one the
        row was given under ("" or ``identity``: as written); a pattern without ``@`` matches every
        row of its items, one with ``@GLOB`` only the rows whose transform GLOB matches."""
        given = transform or IDENTITY
        for case_match, rules_match, text, transform_match in self._compiled:
            if (
                case_match(case_id)
                and rules_match(ruleset)
                and (transform_match is None or transform_match(given))
            ):
                return text
        return None

    @functools.cached_property
    def _compiled(self) -> tuple[tuple[Callable, Callable, str, Callable | None], ...]:
        """The patterns as compiled matchers (fnmatchcase's), each with its transform glob's."""

        def matcher(glob: str) -> Callable:
            return re.compile(fnmatch.translate(glob)).match

        only = dict(self.transforms)
        return tuple(
            (matcher(case_glob), matcher(rules_glob), text, matcher(only[text]) if text in only else None)
            for case_glob, rules_glob, text, _ in self.patterns
        )

    def named(self, case_ids: Sequence[str]) -> int:
        """How many of ``case_ids`` some pattern names (under some ruleset): how much of a suite
        the list may excuse."""
        globs = [case_glob for case_glob, _, _, _ in self.patterns]
        return sum(1 for i in case_ids if any(fnmatch.fnmatchcase(i, g) for g in globs))

    def unused(self, matched: set[str]) -> list[str]:
        return [f"{self.path}:{line}: {text}" for _, _, text, line in self.patterns if text not in matched]


def parse_expected_failures(
    text: str,
    path: str = "<expected-failures>",
    rulesets: Sequence[str] | None = None,
    is_variant: Callable[[str], bool] | None = None,
) -> ExpectedFailures:
    """Parse an expected-failure list. Raises InputError naming the bad line.

    A line is ``case-glob[ruleset-glob]`` or ``case-glob`` (every ruleset), each an ``fnmatch``
    glob. When a line ends with ``]``, its **last** bracket group is the ruleset part; a ``[…]``
    inside a case id (``ko.simple.00[1-3]``) therefore needs a ruleset part after it
    (``ko.simple.00[1-3][*]``). Given the preset names (``rulesets``), a ruleset part that
    matches none of them is an error naming the line — it is almost always that mistake — unless
    ``is_variant`` says it names a variant of a preset (``aga:pass=allowed``): such a line is
    kept, and excuses nothing in a run that does not plan that variant.

    A line may end in ``@GLOB``: it then names only the rows given under a transform GLOB matches
    (``count.territory.009[chinese]@mirror``; ``@identity``: the item as written). A GLOB that
    matches no transform's name is an error naming the line."""
    patterns = []
    transforms = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if " " in line or "\t" in line:
            raise InputError(f"one pattern per line, got {line!r}", Location(path, n, 1))
        item, at, transform_glob = line.partition("@")
        if at:
            if not transform_glob or not any(fnmatch.fnmatchcase(t, transform_glob) for t in TRANSFORM_NAMES):
                raise InputError(
                    f"@{transform_glob} names no transform (identity, {', '.join(TRANSFORM_NAMES[1:])})",
                    Location(path, n, len(item) + 2),
                )
            transforms.append((line, transform_glob))
        case_glob, rules_glob = item, "*"
        if item.endswith("]"):
            head, bracket, tail = item.rpartition("[")
            if not bracket or not head or not tail[:-1]:
                raise InputError(f"expected case-id[ruleset], got {line!r}", Location(path, n, 1))
            case_glob, rules_glob = head, tail[:-1]
            if (
                rulesets is not None
                and not any(fnmatch.fnmatchcase(r, rules_glob) for r in rulesets)
                and not (is_variant is not None and is_variant(rules_glob))
            ):
                raise InputError(
                    f"[{rules_glob}] matches no ruleset: the last [...] of a line is the ruleset part "
                    f"(for a bracket inside a case id, add one: {item}[*])",
                    Location(path, n, len(head) + 1),
                )
        elif "[" in item or "]" in item:
            raise InputError(f"unbalanced brackets in {line!r}", Location(path, n, 1))
        if not case_glob:
            raise InputError(f"expected case-id[ruleset]@transform, got {line!r}", Location(path, n, 1))
        patterns.append((case_glob, rules_glob, line, n))
    return ExpectedFailures(tuple(patterns), path, tuple(transforms))


def load_expected_failures(
    path: Path | None,
    rulesets: Sequence[str] | None = None,
    is_variant: Callable[[str], bool] | None = None,
) -> ExpectedFailures:
    if path is None:
        return ExpectedFailures()
    text = read_text_file(path, "the expected-failure list")
    return parse_expected_failures(text, str(path), rulesets, is_variant)


# -- outcomes ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class VerifyResult:
    """One item's judgement, its outcome and timing. ``index`` is its place in the plan."""

    result: CaseResult
    outcome: Outcome
    index: int = 0
    expected_failure: str | None = None  # the matching pattern
    limited: tuple[str, ...] = ()  # claims left out of the comparison (adapter.limit)
    axes: tuple[tuple[str, str], ...] = ()
    seconds: float = 0.0
    engine_seconds: float = 0.0
    transcript: tuple[str, ...] = ()  # what was sent (``>``) and received (``<``), if the adapter keeps it
    clauses: tuple[str, ...] = ()  # the spec clauses the case pins (its ``spec:`` anchors)
    board: str = ""  # the case's board size, ``WxH`` ("" for an error case)
    seeds: tuple[str, ...] = ()  # the seed articles and public sources the case cites
    moves: int = 0  # actions in the case's moves
    actions: tuple[str, ...] = ()  # the kind of each of them (move, pass, virtual, resign)
    reproduce: str = ""  # one shell line that replays the item through the reference (jpd play)
    transform: str = ""  # the transform the program was given the item under (--transform)
    transform_note: str = ""  # the transforms left out of the item's draw, and why

    @property
    def name(self) -> str:
        """``case[ruleset]``, and ``@transform`` for a row given under one (the expected-failure
        line that names exactly this row)."""
        return f"{self.result.name}@{self.transform}" if self.transform else self.result.name


def outcome_of(status: Status, listed: bool) -> Outcome:
    if status is Status.SKIP:
        return Outcome.SKIP
    if status is Status.ERROR:
        return Outcome.ERROR
    if status is Status.FAIL:
        return Outcome.EXPECTED_FAILURE if listed else Outcome.UNEXPECTED_FAILURE
    if listed:  # it was expected to fail, and it did not
        return Outcome.UNEXPECTED_PASS
    return Outcome.OPEN if status is Status.OPEN else Outcome.PASS


def with_outcome(vr: VerifyResult, expected: ExpectedFailures) -> VerifyResult:
    pattern = expected.match(vr.result.case_id, vr.result.ruleset, vr.transform)
    return replace(vr, outcome=outcome_of(vr.result.status, pattern is not None), expected_failure=pattern)


# -- one item ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Transforming:
    """Items given to the program under the transform ``seed`` draws for each
    (:func:`jpdtools.run.transform.choose`): with ``one_in`` 1 (``--transform SEED``) every item,
    in place of the item as written; otherwise (a plain ``jpd verify``) a second pass gives one in
    ``one_in`` of the items played (:func:`transform_sample`). ``impl`` is the ``--impl`` spec, for
    the line that replays an item."""

    seed: str
    impl: str
    one_in: int = 1

    @property
    def sampled(self) -> bool:
        """Whether the transformed rows are a second pass of a sample (not every item, in one)."""
        return self.one_in > 1


def transform_sample(results: Sequence[VerifyResult], transforming: Transforming) -> tuple[int, ...]:
    """The plan indices of the items the second pass gives transformed: among the items the program
    played as written (passed, failed or open: not skipped, not an error), those whose draw from
    the seed, case id and ruleset falls in one ``one_in``-th. The same seed, the same sample."""

    def drawn(case_id: str, ruleset: str) -> bool:
        text = f"{transforming.seed}\0sample\0{case_id}\0{ruleset}".encode()
        return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") % transforming.one_in == 0

    played = (Status.PASS, Status.FAIL, Status.OPEN)
    return tuple(
        r.index
        for r in sorted(results, key=lambda r: r.index)
        if not r.transform and r.result.status in played and drawn(r.result.case_id, r.result.ruleset)
    )


def given_nothing(vr: VerifyResult) -> bool:
    """A row of the sampled pass for which no transform was drawn (none keeps the item's verdict):
    the item was not given again, and the row is not reported."""
    return not vr.transform and vr.result.status is Status.SKIP


def _judge_item(
    item: PlanItem, adapter, transforming: Transforming | None = None
) -> tuple[Judgement, object, tuple[str, ...], Chosen | None]:
    case, expectation, rules = item.case, item.expectation, item.rules  # the case id stays here
    if case.setup is None or expectation is None or rules is None:
        return Judgement(Status.ERROR, detail="the case has no set-up"), None, (), None
    if transforming is None:
        return (*_judge_given(item, adapter, expectation, None), None)
    why_not = adapter.capabilities().unsupported(rules, case.setup, item.features)
    if why_not:  # a transform offered keeps the board's shape: no need to draw one
        return Judgement(Status.SKIP, detail=f"{adapter.name}: {why_not}"), None, (), None
    given = Item(case.setup, case.history, case.moves)
    chosen = choose(transforming.seed, case.id, item.ruleset, expectation, given, rules)
    if chosen.transform is None:
        return Judgement(Status.SKIP, detail=f"--transform: {chosen.why}"), None, (), chosen
    narrowed = chosen.narrow(expectation)
    try:
        given_as = (narrowed, chosen.transform, chosen.given)
        judgement, observation, dropped = _judge_given(item, adapter, *given_as)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as err:  # a crash of the program on the transformed item: its row names the transform
        return Judgement(Status.ERROR, detail=f"{type(err).__name__}: {err}"), None, chosen.dropped, chosen
    if judgement.status is Status.SKIP:
        judgement = replace(judgement, detail=f"{judgement.detail} (under {chosen.transform.name})")
    return judgement, observation, (*chosen.dropped, *dropped), chosen


def _judge_given(
    item: PlanItem,
    adapter,
    expectation: Expectation,
    transform: Transform | None,
    moved: Item | None = None,
) -> tuple[Judgement, object, tuple[str, ...]]:
    """Judge the program's play of the item as written, or under ``transform`` (then what it
    reports is mapped back before it is judged against ``expectation``, the case's text;
    ``moved``: the item under ``transform``, where the caller has it already)."""
    case, rules = item.case, item.rules
    assert case.setup is not None and rules is not None
    given = Item(case.setup, case.history, case.moves)
    if transform is not None:
        given = moved if moved is not None else transform_item(transform, given)
    why_not = adapter.capabilities().unsupported(rules, given.setup, item.features)
    hook = getattr(adapter, "unsupported_item", None)
    if not why_not and hook is not None:
        why_not = hook(given.setup, given.history, rules)
    if why_not:
        return Judgement(Status.SKIP, detail=f"{adapter.name}: {why_not}"), None, ()
    dropped: tuple[str, ...] = ()
    item_limiter = getattr(adapter, "limit_item", None)
    limiter = getattr(adapter, "limit", None)
    if item_limiter is not None or limiter is not None:
        if item_limiter is not None:
            limited = item_limiter(expectation, case.setup, case.moves, rules)
        else:
            limited = limiter(expectation, case.moves)
        if limited.empty:
            detail = f"{adapter.name}: nothing left to compare ({'; '.join(limited.dropped)})"
            return Judgement(Status.SKIP, detail=detail), None, limited.dropped
        expectation, dropped = limited.expectation, limited.dropped
    observation = adapter.observe(given.setup, given.history, given.moves, rules)
    bad = malformed(observation)
    if bad:
        return Judgement(Status.ERROR, detail=f"{adapter.name}: malformed observation: {bad}"), None, dropped
    if transform is not None and observation.error is None and observation.skip is None:
        observation = observation_back(transform, case.setup, observation)
    judgement = judge(expectation, observation)
    if judgement.status is Status.OPEN and case.open:
        detail = f"{judgement.detail} ({', '.join(case.open)})"
        judgement = Judgement(Status.OPEN, detail=detail, open_steps=judgement.open_steps)
    return judgement, observation, dropped


def malformed(observation) -> str | None:
    """What is wrong with an adapter's observation (wrong types), or None: never judge garbage."""
    if not isinstance(observation, Observation):
        return f"expected an Observation, got {type(observation).__name__}"
    if observation.error is not None:
        return None if isinstance(observation.error, str) else "error is not a string"
    if observation.skip is not None:
        return None if isinstance(observation.skip, str) else "skip is not a string"
    for n, step in enumerate(observation.steps, 1):
        texts = (step.action, step.effect, step.to_move, step.board)
        if not isinstance(step, StepObservation) or not all(isinstance(t, str) for t in texts):
            return f"step {n} lacks action, effect, to-move or board text"
        if not isinstance(step.legal, bool) or not (step.reason is None or isinstance(step.reason, str)):
            return f"step {n} has a bad legal flag or reason"
        for group in (step.captures, step.self_captures):
            if not all(isinstance(v, str) for v in group):
                return f"step {n} has a capture that is not a vertex"
    end = observation.end
    if end is not None and not (isinstance(end.phase, str) and isinstance(end.to_move, str)):
        return "the end state lacks a phase or side to move"
    return None


def verify_item(
    item: PlanItem, adapter, index: int = 0, transforming: Transforming | None = None
) -> VerifyResult:
    """Run one item (under ``transforming``'s draw, if given). Never raises for a problem of the
    implementation: that is an error."""
    began = time.perf_counter()
    engine_before = getattr(adapter, "engine_seconds", 0.0)
    dropped: tuple[str, ...] = ()
    chosen = None
    try:
        judgement, observation, dropped, chosen = _judge_item(item, adapter, transforming)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as err:  # a crash of the implementation is a result, not a traceback
        judgement, observation = Judgement(Status.ERROR, detail=f"{type(err).__name__}: {err}"), None
    result = case_result(item, judgement, observation)
    axes = tuple(item.rules.values().items()) if item.rules is not None else ()
    take = getattr(adapter, "take_transcript", None)
    transcript = tuple(take()) if take is not None else ()
    return VerifyResult(
        result,
        outcome_of(result.status, False),
        index,
        limited=dropped,
        axes=axes,
        seconds=time.perf_counter() - began,
        engine_seconds=getattr(adapter, "engine_seconds", 0.0) - engine_before,
        transcript=transcript,
        clauses=tuple(item.case.spec),
        board=board_of(item),
        seeds=tuple(item.case.seeds),
        moves=len(item.case.moves),
        actions=tuple(a.kind for a in item.case.moves),
        reproduce=reproduction(item, chosen, transforming),
        transform=chosen.transform.name if chosen is not None and chosen.transform is not None else "",
        transform_note=chosen.note if chosen is not None else "",
    )


def reproduction(
    item: PlanItem, chosen: Chosen | None = None, transforming: Transforming | None = None
) -> str:
    """One shell line a library author can paste into an issue: the item's position and actions
    through ``jpd play`` (the history first), under its ruleset — or ``jpd explain`` for an item
    that counts or settles, which ``jpd play`` does not. An item given under a transform: the
    transformed position and actions through ``jpd play`` (what the program was given), or for
    one that counts, the ``jpd verify`` line that gives it to the program again."""
    case, setup = item.case, item.case.setup
    if setup is None or item.rules is None:
        return ""
    rules = shlex.quote(item.ruleset)
    counts = setup.final is not None or (item.expectation is not None and item.expectation.counts)
    if chosen is not None and chosen.transform is not None and transforming is not None:
        if counts:
            return (
                f"jpd verify --impl {shlex.quote(transforming.impl)} --id {shlex.quote(case.id)} "
                f"--rules {rules} --transform {shlex.quote(transforming.seed)}"
            )
        moved = chosen.given or transform_item(chosen.transform, Item(setup, case.history, case.moves))
        given = replace(case, setup=moved.setup, history=moved.history, moves=moved.moves)
        return reproduction(replace(item, case=given))
    if counts:
        return f"jpd explain {case.id} --rules {rules}"
    markers = dict(setup.markers)

    def text(action) -> str:
        vertex = action.vertex or ""
        if action.kind == "move" and vertex.startswith("@"):
            return f"{action.color} {markers.get(vertex[1:], vertex)}"
        return str(action)

    moves = shlex.quote(" ".join(text(a) for a in (*case.history, *case.moves)))
    if not setup.stones:
        size = f"{setup.width}" if setup.width == setup.height else f"{setup.width}x{setup.height}"
        handicap = f" --handicap {setup.handicap}" if setup.handicap else ""
        return f"jpd play --rules {rules} --size {size}{handicap} --moves {moves}"
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    grid = [["."] * setup.width for _ in range(setup.height)]  # top row first
    columns = {letter: x for x, letter in enumerate(letters[: setup.width])}
    lines = {str(row): setup.height - row for row in range(1, setup.height + 1)}
    for vertex, colour in setup.stones:  # a later stone on a point replaces an earlier one
        x, y = columns.get(vertex[:1]), lines.get(vertex[1:])
        if x is not None and y is not None:
            grid[y][x] = {"B": "X", "W": "O"}.get(colour, ".")
    rows = [f"{setup.width}x{setup.height} {setup.to_move}", *(" ".join(line) for line in grid)]
    diagram = " ".join(shlex.quote(r) for r in rows)
    return f"printf '%s\\n' {diagram} | jpd play - --rules {rules} --moves {moves}"


def board_of(item: PlanItem) -> str:
    """The board size of an item's case, ``WxH`` ("" for an error case, which has no set-up)."""
    setup = item.case.setup
    return f"{setup.width}x{setup.height}" if setup is not None else ""


# -- implementations ---------------------------------------------------------------------------


def open_impl(spec: str, timeout: float, engine_rules: frozenset[str] | None = None):
    """The adapter for ``--impl SPEC``: ``gtp:COMMAND…``, ``jsonl:COMMAND…`` or the NAME of an
    implementation of ``implementations/`` (:mod:`jpdtools.verify.implementations`: ``gnugo``,
    ``sgfmill``, …). Raises InputError for an unknown or unusable spec."""
    from jpdtools.verify import implementations
    from jpdtools.verify.gtp import profiles
    from jpdtools.verify.gtp.adapter import GtpAdapter

    kind, colon, rest = spec.partition(":")
    if colon and kind == "gtp":
        argv = _argv(spec, rest)
        _runnable(spec, argv[0])
        return GtpAdapter(profiles.generic(argv), timeout, engine_rules)
    if colon and kind == "jsonl":
        if engine_rules is not None:
            raise InputError(f"--engine-rules is for GTP engines: {spec!r} declares its rulesets itself")
        argv = _argv(spec, rest)
        _runnable(spec, argv[0])
        return _jsonl(argv, timeout)
    impl = None if colon else implementations.find(spec)
    if impl is None:
        known = ", ".join(implementations.names()) or "none in this installation"
        raise InputError(
            f"--impl {spec!r}: expected gtp:COMMAND, jsonl:COMMAND or an implementation ({known})"
        )
    hint = f" (install: {impl.install_hint()})" if impl.install else ""
    if impl.protocol == "gtp":
        binary = impl.find_binary()
        if binary is None:
            raise InputError(f"--impl {spec}: cannot find {' or '.join(impl.binary)}{hint}")
        return GtpAdapter(implementations.gtp_profile(impl.name, binary), timeout, engine_rules)
    if engine_rules is not None:
        raise InputError(f"--engine-rules is for GTP engines: {spec!r} declares its rulesets itself")
    argv = impl.argv()
    if shutil.which(argv[0]) is None:
        raise InputError(f"--impl {spec}: cannot start {argv[0]!r}: not found{hint}")
    return _jsonl(argv, timeout)


def _argv(spec: str, rest: str) -> list[str]:
    try:
        argv = shlex.split(rest)
    except ValueError as err:
        raise InputError(f"--impl {spec!r}: {err}") from None
    if not argv:
        raise InputError(f"--impl {spec!r} names no command")
    return argv


def _runnable(spec: str, program: str) -> None:
    """InputError unless ``program`` (the first word of an --impl command) can be run: an engine
    that cannot start is one clear error, never a run of hundreds of errors."""
    if shutil.which(program) is None:
        what = "is not an executable file" if os.path.exists(program) else "does not exist"
        where = "" if os.sep in program else " on the PATH"
        raise InputError(f"--impl {spec!r}: cannot start the engine: {program!r} {what}{where}")


def started(adapter, spec: str, rules=None) -> None:
    """Start the program and do its handshake now (InputError if it cannot: a program that exits
    at once, or answers ``start`` with an error or garbage, is one clear error and exit 2, quoting
    what it wrote to standard error — not a run of hundreds of errors). A JSON-lines program that
    does not answer ``start`` in time is not refused here: it may on a relaunch, and each item it
    fails is an error. A GTP engine is started with the flags of ``rules`` (the first item's) and
    asked ``list_commands`` (:meth:`~jpdtools.verify.gtp.adapter.GtpAdapter.probe`)."""
    probe = getattr(adapter, "probe", None)
    if probe is not None and rules is not None:
        from jpdtools.verify.gtp.client import EngineTimeout, GtpError

        try:
            probe(rules)
        except EngineTimeout:
            return
        except GtpError as err:
            raise InputError(f"--impl {spec!r}: cannot start the engine: {err}") from None
        return
    declared = getattr(adapter, "declared", None)
    if declared is None:
        return
    from jpdtools.verify.jsonl.adapter import JsonlError, JsonlStartTimeout

    try:
        declared()
    except JsonlStartTimeout:
        return
    except JsonlError as err:
        raise InputError(f"--impl {spec!r}: cannot start the program: {err}") from None


def _jsonl(command: list[str], timeout: float):
    try:
        from jpdtools.verify.jsonl.adapter import JsonlAdapter
    except ImportError:
        raise InputError("the JSON-lines adapter (jpdtools.verify.jsonl.adapter) is not available") from None
    return JsonlAdapter(command, timeout)


def close_impl(adapter) -> None:
    close = getattr(adapter, "close", None)
    if close is not None:
        close()


# -- execution ---------------------------------------------------------------------------------

OpenFn = Callable[[str, float], object]


def run_serial(
    items: Sequence[PlanItem], adapter, transforming: Transforming | None = None
) -> Iterator[VerifyResult]:
    for index, item in enumerate(items):
        yield verify_item(item, adapter, index, transforming)


def _worker(
    spec: str, timeout: float, items, tasks, results, opener: OpenFn, transforming: Transforming | None = None
) -> None:
    """One worker process: its own adapter (and engines), items from ``tasks`` until ``None``.

    The parent stops a worker with SIGTERM (Ctrl-C reaches the parent only: the worker ignores
    SIGINT); either way the worker closes its engines before it exits, so that none is orphaned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_worker)
    adapter = None
    try:
        adapter = opener(spec, timeout)
        while True:
            index = tasks.get()
            if index is None:
                break
            results.put(("start", index, os.getpid()))
            results.put(("done", index, verify_item(items[index], adapter, index, transforming)))
    except _WorkerStopped:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # closing is not to be cut short
        if adapter is not None:
            close_impl(adapter)


class _WorkerStopped(Exception):
    """SIGTERM in a worker: stop taking items, close the engines, exit."""


def _stop_worker(signum, frame) -> None:
    raise _WorkerStopped


def _lost(item: PlanItem, index: int, why: str) -> VerifyResult:
    result = case_result(item, Judgement(Status.ERROR, detail=why))
    return VerifyResult(result, Outcome.ERROR, index, board=board_of(item))


def run_parallel(
    items: Sequence[PlanItem],
    spec: str,
    timeout: float,
    jobs: int,
    opener: OpenFn = open_impl,
    transforming: Transforming | None = None,
) -> Iterator[VerifyResult]:
    """Yield one result per item, in completion order, from ``jobs`` worker processes."""
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    tasks, results = ctx.Queue(), ctx.Queue()
    for index in range(len(items)):
        tasks.put(index)
    workers: dict[int, multiprocessing.Process] = {}
    current: dict[int, int] = {}  # pid -> item index

    def spawn() -> None:
        proc = ctx.Process(
            target=_worker, args=(spec, timeout, items, tasks, results, opener, transforming), daemon=True
        )
        proc.start()
        workers[proc.pid] = proc
        tasks.put(None)

    for _ in range(max(1, min(jobs, len(items)))):
        spawn()
    done: set[int] = set()
    restarts = 0
    finished = False
    try:
        while len(done) < len(items):
            try:
                message = results.get(timeout=0.5)
            except queue.Empty:
                for pid, proc in list(workers.items()):
                    if proc.is_alive():
                        continue
                    del workers[pid]
                    index = current.pop(pid, None)
                    if proc.exitcode == 0:  # it ran out of work
                        continue
                    if index is not None and index not in done:
                        done.add(index)
                        yield _lost(items[index], index, f"the worker process died (exit {proc.exitcode})")
                    if len(done) < len(items) and restarts < MAX_WORKER_RESTARTS:
                        restarts += 1
                        spawn()
                if not workers:
                    for index in range(len(items)):
                        if index not in done:
                            done.add(index)
                            yield _lost(items[index], index, "no worker process left to run it")
                continue
            if message[0] == "start":
                current[message[2]] = message[1]
            elif message[1] not in done:
                done.add(message[1])
                yield message[2]
        finished = True
    finally:
        _stop_workers(list(workers.values()), grace=timeout + WORKER_GRACE_SECONDS if finished else 0.0)
        tasks.close()
        results.close()


def _stop_workers(workers: list, grace: float) -> None:
    """End the workers, letting each close its engines: after a complete run they are exiting by
    themselves (``grace`` seconds), otherwise (or past the grace) SIGTERM makes them close and
    exit, and only a worker still there after that is killed."""
    deadline = time.monotonic() + grace
    for proc in workers:
        proc.join(timeout=max(0.0, deadline - time.monotonic()))
    for proc in workers:
        if proc.is_alive():
            proc.terminate()
    deadline = time.monotonic() + WORKER_GRACE_SECONDS
    for proc in workers:
        proc.join(timeout=max(0.0, deadline - time.monotonic()))
        if proc.is_alive():
            proc.kill()
            proc.join(timeout=1.0)
