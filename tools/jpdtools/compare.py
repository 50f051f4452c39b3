"""The comparator: typed claims of a case against what a program was observed to do.

Claims are compared as values (legality, reason codes, vertex sets, board rows), never as message
strings. One case under one ruleset gets one :class:`Status`:

* ``pass`` — every claim held;
* ``fail`` — some claim did not hold (the :class:`Mismatch` list says which, expected vs observed);
* ``open`` — every claim held and some step had an either-verdict (``legal | illegal superko``):
  the rule text leaves it open, so it is never counted as a pass;
* ``skip`` — the program cannot play this ruleset or board (it declared so), or the case makes
  claims about the count and the program did not count (while every other claim held);
* ``error`` — the case could not be played (impossible set-up, a refused history action, a crash).
"""

from dataclasses import dataclass, field
from enum import StrEnum

from jpdtools.adapters import CountObservation, EndState, Observation, StepObservation, sort_vertices
from jpdtools.model import Claim, CountClaim, CountVerdict, EndVerdict, Expectation, PointVerdict, StepVerdict

VERDICT_KINDS = ("legal", "illegal", "void-pass", "forfeit")


class Status(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    OPEN = "open"
    SKIP = "skip"
    ERROR = "error"


STATUSES = tuple(Status)


@dataclass(frozen=True)
class Mismatch:
    """One claim that did not hold. ``step`` is None for the end state.

    ``expected`` is the claim as the case states it (an either-verdict stays whole);
    ``observed`` is the same kind of claim as the program's behaviour makes it, or None when
    there was nothing to observe (a step the program never reached).
    """

    step: int | None
    expected: Claim | EndVerdict | StepVerdict
    observed: Claim | EndVerdict | StepVerdict | None
    label: str = ""  # overrides "step N" / "end" (the loader's error cases say "load")

    @property
    def where(self) -> str:
        if self.label:
            return self.label
        return "end" if self.step is None else f"step {self.step}"

    def to_json(self) -> dict:
        return {
            "where": self.where,
            "step": self.step,
            "expected": claim_text(self.expected),
            "observed": None if self.observed is None else claim_text(self.observed),
        }

    def __str__(self) -> str:
        observed = "nothing" if self.observed is None else claim_text(self.observed)
        return f"{self.where}: expected {claim_text(self.expected)}, observed {observed}"


@dataclass(frozen=True)
class Judgement:
    status: Status
    mismatches: tuple[Mismatch, ...] = ()
    detail: str = ""
    open_steps: tuple[int, ...] = ()


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one case under one ruleset (``ruleset`` is ``loader`` for error cases)."""

    case_id: str
    ruleset: str
    status: Status
    mismatches: tuple[Mismatch, ...] = ()
    detail: str = ""
    file: str = ""
    line: int = 0
    observation: Observation | None = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        return f"{self.case_id}[{self.ruleset}]"

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


# -- rendering ---------------------------------------------------------------------------------


def claim_text(item: Claim | EndVerdict | StepVerdict) -> str:
    """A claim, end verdict or either-verdict in case-file spelling (no ``N:`` prefix)."""
    if isinstance(item, StepVerdict):
        return " | ".join(" ".join(claim_text(c) for c in alt) for alt in item.alternatives)
    if isinstance(item, EndVerdict):
        return " ".join((item.state, *item.args))
    if item.kind in ("captures", "self-captures") and not item.args:
        return f"{item.kind} none"
    return str(item)


# -- what was observed, as claims --------------------------------------------------------------


def observed_claim(kind: str, step: StepObservation) -> Claim:
    """The claim of kind ``kind`` that ``step`` makes true (verdict kinds share one claim)."""
    if kind in VERDICT_KINDS:
        if step.legal:
            return Claim("legal")
        reason = (step.reason or "?",)
        if step.effect == "void-pass":
            return Claim("void-pass", reason)
        if step.effect == "forfeit":
            return Claim("forfeit", reason)
        return Claim("illegal", reason)
    if kind == "captures":
        return Claim("captures", step.captures)
    if kind == "self-captures":
        return Claim("self-captures", step.self_captures)
    if kind == "to-move":
        return Claim("to-move", (step.to_move,))
    if kind == "board":
        return Claim("board", (step.board,))
    return Claim(kind, ("?",))


def observed_end(end: EndState) -> EndVerdict:
    if end.phase == "halted":
        return EndVerdict("halted", (end.kind or "?",))
    if end.phase == "ended":
        if end.kind == "cycle":
            return EndVerdict("ended", ("cycle", end.result or "?"))
        return EndVerdict("ended", (end.kind or "?", end.winner or "?"))
    return EndVerdict(end.phase, (end.to_move,))


# -- matching ----------------------------------------------------------------------------------


def _rows(text: str) -> str:
    return text.replace("+", ".").strip().upper()


def claim_holds(claim: Claim, step: StepObservation) -> bool:
    kind, args = claim.kind, claim.args
    if kind == "legal":
        return step.legal
    if kind == "illegal":
        return not step.legal and step.reason == args[0]
    if kind in ("void-pass", "forfeit"):
        return not step.legal and step.effect == kind and step.reason == args[0]
    if kind == "captures":
        return sort_vertices(args) == sort_vertices(step.captures)
    if kind == "self-captures":
        return sort_vertices(args) == sort_vertices(step.self_captures)
    if kind == "to-move":
        return step.to_move == args[0]
    if kind == "board":
        return _rows(args[0]) == _rows(step.board)
    return False


def end_holds(expected: EndVerdict, end: EndState) -> bool:
    got = observed_end(end)
    return (expected.state, expected.args) == (got.state, got.args)


def _either_observed(verdict: StepVerdict, step: StepObservation) -> StepVerdict:
    kinds: list[str] = []
    for alt in verdict.alternatives:
        for claim in alt:
            kind = "legal" if claim.kind in VERDICT_KINDS else claim.kind
            if kind not in kinds:
                kinds.append(kind)
    return StepVerdict(verdict.step, (tuple(observed_claim(k, step) for k in kinds),))


# -- the count ---------------------------------------------------------------------------------


def observed_count_claim(expected: CountClaim, count: CountObservation) -> CountClaim:
    """The count claim ``count`` makes true, with the parts ``expected`` states (figures, unit)."""
    if count.error is not None:
        return CountClaim("error", code=count.error)
    figures = expected.black is not None
    return CountClaim(
        "result",
        count.winner or "?",
        count.margin if count.margin is not None else 0,
        count.black if figures else None,
        count.white if figures else None,
        count.unit if expected.unit else None,
    )


def count_claim_holds(claim: CountClaim, count: CountObservation) -> bool:
    """Typed: the code, or winner and margin (Fractions), and the figures and unit when given."""
    if claim.kind == "error":
        return count.error == claim.code
    if count.error is not None or count.margin is None:
        return False
    if (claim.winner, claim.margin) != (count.winner, count.margin):
        return False
    if claim.black is not None and (claim.black, claim.white) != (count.black, count.white):
        return False
    return claim.unit is None or claim.unit == count.unit


def _count_claim(item: CountVerdict | CountClaim) -> Claim:
    text = str(item).removeprefix("count: ")
    return Claim("count", (text,))


def _point_claim(vertex: str, owner: str, why: str) -> Claim:
    return Claim("point", (vertex, owner, why))


def judge_count(expectation: Expectation, count: CountObservation) -> tuple[list[Mismatch], bool]:
    """Mismatches of the ``count:`` and ``point:`` claims, and whether an either matched."""
    mismatches: list[Mismatch] = []
    opened = False
    verdict = expectation.count
    if verdict is not None:
        holds = [count_claim_holds(c, count) for c in verdict.alternatives]
        if verdict.is_open and any(holds):
            opened = True
        elif not any(holds):
            first = verdict.alternatives[0]
            observed = _count_claim(observed_count_claim(first, count))
            mismatches.append(Mismatch(None, _count_claim(verdict), observed, label="count"))
    points = {vertex: (owner, why) for vertex, owner, why in count.points}
    for line in expectation.points:
        mismatches.extend(_point_mismatches(line, points, count))
    return mismatches, opened


def _point_mismatches(line: PointVerdict, points: dict, count: CountObservation) -> list[Mismatch]:
    out = []
    for vertex in line.vertices:
        expected = _point_claim(vertex, line.owner, line.why)
        if count.error is not None:
            out.append(Mismatch(None, expected, Claim("count", (f"error {count.error}",)), label="point"))
            continue
        got = points.get(vertex)
        if got != (line.owner, line.why):
            observed = None if got is None else _point_claim(vertex, *got)
            out.append(Mismatch(None, expected, observed, label="point"))
    return out


def judge(expectation: Expectation, observation: Observation) -> Judgement:
    """Compare every claim of ``expectation`` with ``observation``."""
    if observation.error:
        return Judgement(Status.ERROR, detail=observation.error)
    if observation.skip:
        return Judgement(Status.SKIP, detail=observation.skip)
    mismatches: list[Mismatch] = []
    open_steps: list[int] = []
    count_open = False
    steps = observation.steps
    for verdict in expectation.steps:
        if not 1 <= verdict.step <= len(steps):
            mismatches.append(Mismatch(verdict.step, verdict, None))
            continue
        step = steps[verdict.step - 1]
        if verdict.is_open:
            if any(all(claim_holds(c, step) for c in alt) for alt in verdict.alternatives):
                open_steps.append(verdict.step)
            else:
                mismatches.append(Mismatch(verdict.step, verdict, _either_observed(verdict, step)))
            continue
        for claim in verdict.alternatives[0] if verdict.alternatives else ():
            if not claim_holds(claim, step):
                mismatches.append(Mismatch(verdict.step, claim, observed_claim(claim.kind, step)))
    if expectation.end is not None:
        if observation.end is None:
            mismatches.append(Mismatch(None, expectation.end, None))
        elif not end_holds(expectation.end, observation.end):
            mismatches.append(Mismatch(None, expectation.end, observed_end(observation.end)))
    uncounted = expectation.counts and observation.count is None
    if expectation.counts and observation.count is not None:
        found, count_open = judge_count(expectation, observation.count)
        mismatches.extend(found)
    if mismatches:
        return Judgement(Status.FAIL, tuple(mismatches), open_steps=tuple(open_steps))
    if uncounted:
        return Judgement(
            Status.SKIP, detail="the program did not count (the case makes claims about the count)"
        )
    if open_steps or count_open:
        where = [f"step {', '.join(map(str, open_steps))}"] if open_steps else []
        where += ["count"] if count_open else []
        return Judgement(
            Status.OPEN,
            detail=f"either-verdict matched at {' and '.join(where)}",
            open_steps=tuple(open_steps),
        )
    return Judgement(Status.PASS)
