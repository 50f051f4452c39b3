"""What ``jpd explain`` and the case book say about an observed case: which spec clause (and which
ruleset axis) decides each step and the ending, and how each observation stands against the case's
claims (``ok``, ``open``, ``FAIL``).

The clause is chosen from the observation (legality, reason code, captures) and the ruleset, never
from the case's own text, so a page or a printout shows the clause the engine's behaviour rests on.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from jpdref.coords import GTP_COLUMNS
from jpdref.rules import Rules

from jpdtools.review.anchors import Anchor
from jpdtools.review.deciding import end_parts, step_parts
from jpdtools.run.adapters import CountObservation, EndState, SettleObservation, StepObservation
from jpdtools.run.compare import (
    claim_holds,
    claim_text,
    count_claim_holds,
    observed_claim,
    observed_end,
    proof_holds,
)
from jpdtools.run.runner import PlanItem
from jpdtools.suite.model import CountVerdict, StepVerdict
from jpdtools.suite.setup import Setup


def setup_rows(setup: Setup) -> str:
    """The set-up as rows; stones agreed dead are ``x``/``o``."""
    grid = [["."] * setup.width for _ in range(setup.height)]
    dead = set(setup.final.agreement.dead) if setup.final is not None else set()
    for vertex, colour in setup.stones:
        x, y = GTP_COLUMNS.index(vertex[0].upper()), setup.height - int(vertex[1:])
        symbol = "X" if colour == "B" else "O"
        grid[y][x] = symbol.lower() if vertex in dead else symbol
    return "/".join("".join(r) for r in grid)


@dataclass(frozen=True)
class Decision:
    """The clause deciding a step, the ruleset axes involved, and where each value comes from."""

    text: str  # "rep.positional — <heading>; repetition=positional"
    sources: tuple[str, ...] = ()  # "repetition: 002 §21 …", one per axis
    anchors: tuple[str, ...] = ()  # the clauses named in ``text``, in order
    axes: tuple[tuple[str, str], ...] = ()  # (axis, value) named in ``text``, in order


def _clause(candidates: Sequence[str], anchors: dict[str, Anchor]) -> str:
    name = _anchor(candidates, anchors)
    a = anchors.get(name)
    return f"{name} — {a.heading}" if a is not None and a.heading else name


def _anchor(candidates: Sequence[str], anchors: dict[str, Anchor]) -> str:
    return next((name for name in candidates if name in anchors), candidates[0])


def _decision(parts: Sequence[tuple[Sequence[str], str | None]], rules, anchors) -> Decision:
    texts, sources, names, axes = [], [], [], []
    for candidates, axis in parts:
        text = _clause(candidates, anchors)
        names.append(_anchor(candidates, anchors))
        if axis is not None:
            text += f"; {axis}={rules.value(axis)}"
            axes.append((axis, str(rules.value(axis))))
            if rules.source(axis):
                sources.append(f"{axis}: {rules.source(axis)}")
        texts.append(text)
    return Decision("; then ".join(texts), tuple(sources), tuple(names), tuple(axes))


def deciding_clause(step: StepObservation, kind: str, rules: Rules, anchors: dict[str, Anchor]) -> Decision:
    """The clause (and ruleset axis) that decides ``step`` under ``rules``."""
    parts = step_parts(
        step.legal,
        step.reason,
        step.effect,
        kind,
        bool(step.captures),
        bool(step.self_captures),
        str(rules.repetition),
    )
    return _decision(parts, rules, anchors)


def ending_clause(end: EndState, rules: Rules, anchors: dict[str, Anchor]) -> Decision | None:
    if end.kind is None:
        return None
    return _decision(end_parts(end.kind), rules, anchors)


def step_verdict(item: PlanItem, n: int) -> StepVerdict | None:
    assert item.expectation is not None
    return next((v for v in item.expectation.steps if v.step == n), None)


def observed_text(step: StepObservation) -> str:
    parts = [claim_text(observed_claim("legal", step))]
    if step.captures:
        parts.append(claim_text(observed_claim("captures", step)))
    if step.self_captures:
        parts.append(claim_text(observed_claim("self-captures", step)))
    parts.append(f"to-move {step.to_move}")
    return " ".join(parts)


def verdict_mark(verdict: StepVerdict | None, step: StepObservation) -> str:
    if verdict is None:
        return "no claim"
    held = [all(claim_holds(c, step) for c in alt) for alt in verdict.alternatives]
    if not any(held):
        return "FAIL"
    return "open" if verdict.is_open else "ok"


def count_mark(verdict: CountVerdict | None, count: CountObservation) -> tuple[str, str]:
    """(expected text, ok | open | FAIL | -) of the ``count:`` line against ``count``."""
    if verdict is None:
        return "-", "-"
    held = [count_claim_holds(c, count) for c in verdict.alternatives]
    mark = "FAIL" if not any(held) else "open" if verdict.is_open else "ok"
    return str(verdict).removeprefix("count: "), mark


def settle_lines(item: PlanItem, settling: SettleObservation) -> tuple[str, ...]:
    """The settling stage as observed, each line marked against the case's claims."""
    assert item.expectation is not None
    verdicts = item.expectation.settle
    if settling.error is not None:
        mark = "ok" if verdicts.error == settling.error else "FAIL"
        return (f"refused: {settling.error} — {settling.message}  [{mark}]",)
    lines = [f"procedure {settling.procedure}"]
    by_step = {v.step: v for v in verdicts.steps}
    for n, step in enumerate(settling.steps, 1):
        verdict = by_step.get(n)
        expected = claim_text(verdict) if verdict else "-"
        lines.append(
            f"settle {n}: {step.action}: expected {expected}; observed {observed_text(step)}"
            f"  [{verdict_mark(verdict, step)}]"
        )
    if settling.end is not None:
        expected = claim_text(verdicts.end) if verdicts.end else "-"
        observed = claim_text(observed_end(settling.end))
        mark = "-" if expected == "-" else "ok" if expected == observed else "FAIL"
        lines.append(f"settle-end: expected {expected}; observed {observed}  [{mark}]")
    b, w = settling.settled or (0, 0)
    lines.append(f"settled (the stage's real + virtual moves): B {b} W {w}")
    lines.append(f"halt stones captured in the stage: {' '.join(settling.captured) or 'none'}")
    if settling.upheld or settling.rejected:
        lines.append(
            f"claims upheld: {', '.join(settling.upheld) or 'none'}; rejected: "
            f"{', '.join(settling.rejected) or 'none'}"
        )
    for line in verdicts.proved:
        lines.append(f"{line}  [{'ok' if proof_holds(line, settling) else 'FAIL'}]")
    for claim in settling.filled:
        lines.append(
            filled_line(claim, item.rules is not None and str(item.rules.value("counting")) == "art")
        )
    return tuple(lines)


def filled_line(claim: str, art: bool) -> str:
    """Why an upheld claim whose point the stage filled gains nothing (spec/counting.md#count.settling):
    the board is not restored, so the point counts as the stone on it; the art judgment divides
    every stone equally (004 補棋损点损目: 收则损点损目)."""
    why = (
        "the art judgment divides all stones equally: worth nothing (004 補棋损点损目: 收则损点损目)"
        if art
        else "the method counts it as that stone"
    )
    stone = "the claimer's stone stands on it and is counted, not the claim"
    return f"upheld on a filled point: {claim} — {stone}; {why}"


def agreement_lines(setup: Setup) -> list[str]:
    """The agreement and the counters the case gives."""
    assert setup.final is not None
    a, c = setup.final.agreement, setup.final.counters
    parts = [(k, " ".join(v)) for k, v in (("dead", a.dead), ("seki", a.seki), ("dame", a.dame)) if v]
    parts += [("shared", " ".join(a.shared))] if a.shared else []
    parts += [("black owns", " ".join(a.black_owns))] if a.black_owns else []
    parts += [("white owns", " ".join(a.white_owns))] if a.white_owns else []
    parts += [("claims", ", ".join(map(str, a.claims)))] if a.claims else []
    out = ["agreement: " + ("; ".join(f"{k} {v}" for k, v in parts) or "none")]
    given = [f"{k} {'/'.join(map(str, v)) if isinstance(v, tuple) else v}" for k, v in c.items()]
    out.append("counters: " + ("; ".join(given) + " (the others from play)" if given else "from play"))
    return out
