"""Which claims a GTP engine can be held to: the rest is the referee's, and is not compared.

GTP has no turn order, no end of the game, no virtual move, no resignation and no illegal-move
policy: those are the controller's job. The GTP adapter plays that controller (the *referee*), so
a claim that only the referee decides would measure the harness, not the engine. Such claims are
left out of the comparison:

* a step whose action is a virtual move or a resignation, or whose verdict (in any alternative)
  names a reason only the referee gives: ``out-of-turn``, ``game-over``, ``pass-not-allowed``,
  ``virtual-not-allowed``, ``handicap-placement``, ``off-board`` — the whole step verdict goes;
* an end verdict other than ``contest C`` and ``ended illegal-move C`` (halting after passes,
  four virtual moves, resignation, cycles).

An item left with no claim at all is skipped. An item with a virtual move or a resignation in its
``history``, or free handicap placement, cannot be played and is skipped too.
"""

from dataclasses import dataclass, replace

from jpdtools.model import CaseAction, Expectation, StepVerdict

REFEREE_REASONS = frozenset(
    {"out-of-turn", "game-over", "pass-not-allowed", "virtual-not-allowed", "handicap-placement", "off-board"}
)
REFEREE_ACTIONS = frozenset({"virtual", "resign"})
ENGINE_ENDS = frozenset({"contest"})


@dataclass(frozen=True)
class Limited:
    """The expectation the engine is held to, and what was left out (one line per dropped claim)."""

    expectation: Expectation
    dropped: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.expectation.steps and self.expectation.end is None


def _referee_step(verdict: StepVerdict, moves: tuple[CaseAction, ...]) -> str | None:
    if 1 <= verdict.step <= len(moves) and moves[verdict.step - 1].kind in REFEREE_ACTIONS:
        return f"step {verdict.step}: a {moves[verdict.step - 1].kind} action"
    for alternative in verdict.alternatives:
        for claim in alternative:
            refusal = claim.kind in ("illegal", "void-pass", "forfeit")
            if refusal and claim.args and claim.args[0] in REFEREE_REASONS:
                return f"step {verdict.step}: {claim.args[0]}"
    return None


def limit(expectation: Expectation, moves: tuple[CaseAction, ...]) -> Limited:
    """The part of ``expectation`` a GTP engine decides."""
    kept: list[StepVerdict] = []
    dropped: list[str] = []
    for verdict in expectation.steps:
        why = _referee_step(verdict, moves)
        if why:
            dropped.append(why)
        else:
            kept.append(verdict)
    end = expectation.end
    forfeit = end is not None and end.state == "ended" and end.args[:1] == ("illegal-move",)
    if end is not None and end.state not in ENGINE_ENDS and not forfeit:
        dropped.append(f"end: {' '.join((end.state, *end.args))}")
        end = None
    return Limited(replace(expectation, steps=tuple(kept), end=end), tuple(dropped))


def unplayable(history: tuple[CaseAction, ...], handicap: int, placement: str, free_ok: bool) -> str | None:
    """Why a set-up cannot be rebuilt through GTP at all, or None."""
    for n, action in enumerate(history, 1):
        if action.kind in REFEREE_ACTIONS:
            return f"history action {n} is a {action.kind} action, which GTP cannot play"
    if handicap and placement == "free" and not free_ok:
        return "free handicap placement is a controller procedure (GTP places all stones at once)"
    return None
