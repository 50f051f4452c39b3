"""The comparator: typed claims of a case against what a program was observed to do.

Claims are compared as values (legality, reason codes, vertex sets, board rows), never as message
strings. One case under one ruleset gets one :class:`Status`:

* ``pass`` — every claim held;
* ``fail`` — some claim did not hold (the :class:`Mismatch` list says which, expected vs observed);
* ``open`` — every claim held and some step had an either-verdict (``legal | illegal superko``):
  the rule text leaves it open, so it is never counted as a pass;
* ``skip`` — the program cannot play this ruleset or board (it declared so), or the case makes
  claims about the count or about settling by play and the program did not count or settle
  (while every other claim held);
* ``error`` — the case could not be played (impossible set-up, a refused history action, a crash),
  or its expectation claims nothing: a claim is never compared against nothing, so nothing that
  was not checked can pass (an empty verdict text, a step line without claims, a settling end the
  program did not report).
"""

from dataclasses import dataclass, field
from enum import StrEnum

from jpdtools.run.adapters import (
    CountObservation,
    EndState,
    Observation,
    SettleObservation,
    StepObservation,
    sort_vertices,
)
from jpdtools.suite.model import (
    Claim,
    CountClaim,
    CountVerdict,
    EndVerdict,
    Expectation,
    PointVerdict,
    ProofVerdict,
    SettleVerdicts,
    StepVerdict,
)

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
    review: str = "accepted"  # the case's review status (spec/case-format.md#format.review)

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
    if item.kind in VERDICT_KINDS[1:] and not item.args:  # a refusal held without its reason
        return f"{item.kind} (any reason)"
    if item.kind == "settle":  # a settling line, whole (``settled: B 2 W 2``)
        return item.args[0]
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
    # a reason holds when it is the program's, or among the reasons it reports true (a set)
    if kind == "illegal":  # no reason: a refusal whose reason is not compared (jsonl limit)
        return not step.legal and (not args or args[0] == step.reason or args[0] in step.reasons)
    if kind in ("void-pass", "forfeit"):
        reason_holds = not args or args[0] == step.reason or args[0] in step.reasons
        return not step.legal and step.effect == kind and reason_holds
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
    points = {vertex: (owner, why) for vertex, owner, why in count.points} if expectation.points else {}
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


# -- settling by play ({#format.settle}) ----------------------------------------------------------


def _settle_claim(text: str) -> Claim:
    return Claim("settle", (text,))


def _judge_steps(
    verdicts: tuple[StepVerdict, ...], steps: tuple[StepObservation, ...], label: str = ""
) -> tuple[list[Mismatch], list[int]]:
    """Mismatches of step verdicts against observed steps, and the steps whose either matched.
    ``label`` (``settle``) prefixes the place of a mismatch: ``settle 2``."""
    mismatches: list[Mismatch] = []
    open_steps: list[int] = []

    def where(n: int) -> str:
        return f"{label} {n}" if label else ""

    for verdict in verdicts:
        if not 1 <= verdict.step <= len(steps):
            mismatches.append(Mismatch(verdict.step, verdict, None, where(verdict.step)))
            continue
        step = steps[verdict.step - 1]
        if not verdict.alternatives or not all(verdict.alternatives):  # a line that claims nothing
            mismatches.append(Mismatch(verdict.step, verdict, None, where(verdict.step)))
            continue
        if verdict.is_open:
            if any(all(claim_holds(c, step) for c in alt) for alt in verdict.alternatives):
                open_steps.append(verdict.step)
            else:
                observed = _either_observed(verdict, step)
                mismatches.append(Mismatch(verdict.step, verdict, observed, where(verdict.step)))
            continue
        for claim in verdict.alternatives[0]:
            if not claim_holds(claim, step):
                observed_one = observed_claim(claim.kind, step)
                mismatches.append(Mismatch(verdict.step, claim, observed_one, where(verdict.step)))
    return mismatches, open_steps


def proof_holds(line: ProofVerdict, settling: SettleObservation) -> bool:
    """``dead``/``alive``: every vertex is a halt stone whose chain was captured / stands at the
    end of the stage; ``upheld``/``rejected``: the disputed claim was upheld / rejected."""
    if line.kind in ("dead", "alive"):
        found = settling.captured if line.kind == "dead" else settling.standing
        return bool(line.vertices) and all(v in found for v in line.vertices)
    found = settling.upheld if line.kind == "upheld" else settling.rejected
    return str(line.claim) in found


def observed_proof(line: ProofVerdict, settling: SettleObservation) -> str:
    """What the stage proved about the vertices or the claim of ``line`` (case-file spelling)."""
    if line.claim is not None:
        verdict = "upheld" if str(line.claim) in settling.upheld else "rejected"
        return f"proved: {verdict} {line.claim}"
    words = []
    for v in line.vertices:
        status = "dead" if v in settling.captured else "alive" if v in settling.standing else "empty"
        words.append(f"{status} {v}")
    return "proved: " + ", ".join(words)


def contradiction(settling: SettleObservation) -> str:
    """What a settling stage reports both ways — a halt stone both captured and standing, a claim
    both upheld and rejected — or "": such a stage would satisfy every ``proved:`` line."""
    stones = sorted(set(settling.captured) & set(settling.standing))
    claims = sorted(set(settling.upheld) & set(settling.rejected))
    parts = [f"{', '.join(stones)} both captured and standing"] if stones else []
    parts += [f"{', '.join(claims)} both upheld and rejected"] if claims else []
    return f"the settling stage reports {' and '.join(parts)}" if parts else ""


def judge_settling(verdicts: SettleVerdicts, settling: SettleObservation) -> tuple[list[Mismatch], list[int]]:
    """Mismatches of the settling lines against the observed stage, and the settling steps
    whose either-verdict matched."""
    if settling.error is not None:
        observed = _settle_claim(f"settle: error {settling.error}")
        if verdicts.error == settling.error:
            return [], []
        return [Mismatch(None, _settle_claim(e), observed, label="settle") for e in verdicts.lines()], []
    mismatches, open_steps = _judge_steps(verdicts.steps, settling.steps, label="settle")
    if verdicts.error is not None:
        refused = _settle_claim(f"settle: error {verdicts.error}")
        mismatches.append(Mismatch(None, refused, _settle_claim("settled by play"), label="settle"))
    if verdicts.end is not None:
        if settling.end is None:  # nothing observed is not a match
            mismatches.append(Mismatch(None, verdicts.end, None, label="settle-end"))
        elif not end_holds(verdicts.end, settling.end):
            mismatches.append(Mismatch(None, verdicts.end, observed_end(settling.end), label="settle-end"))
    settled = verdicts.settled
    if settled is not None and (settled.black, settled.white) != settling.settled:
        got_text = (
            "settled: ?" if settling.settled is None else "settled: B {} W {}".format(*settling.settled)
        )
        mismatches.append(Mismatch(None, _settle_claim(str(settled)), _settle_claim(got_text), "settled"))
    for line in verdicts.proved:
        if not proof_holds(line, settling):
            got = _settle_claim(observed_proof(line, settling))
            mismatches.append(Mismatch(None, _settle_claim(str(line)), got, label="proved"))
    return mismatches, open_steps


def judge(expectation: Expectation, observation: Observation) -> Judgement:
    """Compare every claim of ``expectation`` with ``observation``."""
    if observation.error:
        return Judgement(Status.ERROR, detail=observation.error)
    if expectation.empty:  # the loader refuses it; an expectation built otherwise must not pass
        return Judgement(Status.ERROR, detail="the expectation states no claim: nothing was checked")
    if observation.skip:
        return Judgement(Status.SKIP, detail=observation.skip)
    both_ways = contradiction(observation.settling) if observation.settling is not None else ""
    if both_ways:  # an observation that contradicts itself is not one: nothing can be compared
        return Judgement(Status.ERROR, detail=both_ways)
    count_open = False
    mismatches, open_steps = _judge_steps(expectation.steps, observation.steps)
    if expectation.end is not None:
        if observation.end is None:
            mismatches.append(Mismatch(None, expectation.end, None))
        elif not end_holds(expectation.end, observation.end):
            mismatches.append(Mismatch(None, expectation.end, observed_end(observation.end)))
    unsettled = expectation.settles and observation.settling is None
    settle_open: list[int] = []
    if expectation.settles and observation.settling is not None:
        found_settle, settle_open = judge_settling(expectation.settle, observation.settling)
        mismatches.extend(found_settle)
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
    if unsettled:
        return Judgement(
            Status.SKIP, detail="the program did not settle by play (the case makes claims about it)"
        )
    if open_steps or count_open or settle_open:
        where = [f"step {', '.join(map(str, open_steps))}"] if open_steps else []
        where += [f"settling step {', '.join(map(str, settle_open))}"] if settle_open else []
        where += ["count"] if count_open else []
        return Judgement(
            Status.OPEN,
            detail=f"either-verdict matched at {' and '.join(where)}",
            open_steps=tuple(open_steps),
        )
    return Judgement(Status.PASS)
