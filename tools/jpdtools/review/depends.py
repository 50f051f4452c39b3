"""The ruleset axes a case's verdicts rest on, derived from the clauses that decide them.

A case's ``depends`` lists the axes its verdicts depend on (spec/case-format.md#format.case); a
variant takes the text of the rulesets agreeing with it on those axes
(spec/contract.md#contract.variants), so a list too short hands a variant a verdict its rules do
not give. :func:`resting_axes` derives the axes from the reference's play of one item: the axes
read by the clause deciding each step the text claims (:func:`jpdtools.review.deciding.step_parts`:
a ko refusal reads ``repetition``, a forfeit ``illegal-move`` too, a second move in a row
``out-of-turn``, a pass ``pass``) and the ending it claims (``halt``, ``cycle``, ``illegal-move``,
``out-of-turn`` for a game a second move in a row lost); a count or point claim rests on the
clauses of every step that made the counted position and on ``counting`` and ``komi``; a claim of
the agreement on ``ko-claim`` or ``one-sided-claim``; a settling stage on ``counting`` (the
procedure).
``jpd lint`` reports a case whose ``depends`` leaves one out.
"""

from jpdref.rules import Rules

from jpdtools.review.deciding import Part, end_parts, step_parts
from jpdtools.run.adapters import Observation
from jpdtools.suite.model import Case, Expectation

CLAIM_AXES = {"ko": "ko-claim", "one-sided": "one-sided-claim"}


def resting_axes(
    case: Case, expectation: Expectation, observation: Observation, rules: Rules
) -> frozenset[str]:
    """The axes the verdicts of ``expectation`` rest on, as the reference played ``case`` under
    ``rules`` (``observation``; see the module text)."""
    axes: set[str] = set()
    counted = expectation.count is not None or bool(expectation.points)
    claimed = {v.step for v in expectation.steps}
    for n, (action, step) in enumerate(zip(case.moves, observation.steps, strict=False), 1):
        if counted or n in claimed:
            read = _axes(_step_parts(step, action.kind, rules))
            if step.reason == "game-over" and observation.end is not None:
                # refused because play had stopped: by whatever stopped it (a halt reads the
                # halt axis; a forfeit, resignation or cycle, its own clause's)
                ending = _ending_axes(observation)
                read = (read - {"halt"}) | ending
                if action.kind == "resign" and "halt" in ending:
                    read.add("resignation")  # resigning after the halt (turn.resign)
            if not _second_move_in_a_row(case, observation, n):
                read.discard("out-of-turn")  # a plain refusal under either value (play.turn)
            axes.update(read)
    if expectation.end is not None and observation.end is not None:
        axes.update(_ending_axes(observation))
    if counted:
        axes.update(("counting", "komi"))
    final = case.setup.final if case.setup is not None else None
    if final is not None and (counted or expectation.settles):
        axes.update(CLAIM_AXES[c.kind] for c in final.agreement.claims if c.kind in CLAIM_AXES)
    if expectation.settles:
        axes.add("counting")
    return frozenset(axes)


def _second_move_in_a_row(case: Case, observation: Observation, n: int) -> bool:
    """Step ``n`` is a real move and the game's last action before it an accepted real move by
    the same side: the only action out of turn the out-of-turn axis decides (play.turn)."""
    action = case.moves[n - 1]
    if action.kind != "move":
        return False
    if n > 1:
        before, step = case.moves[n - 2], observation.steps[n - 2]
        return before.kind == "move" and step.legal and before.color == action.color
    return bool(case.history) and case.history[-1].kind == "move" and case.history[-1].color == action.color


def _step_parts(step, kind: str, rules: Rules) -> list[Part]:
    return step_parts(
        step.legal,
        step.reason,
        step.effect,
        kind,
        bool(step.captures),
        bool(step.self_captures),
        str(rules.repetition),
    )


def _axes(parts: list[Part]) -> set[str]:
    return {axis for _, axis in parts if axis}


def _ending_axes(observation: Observation) -> set[str]:
    """The axes of the clause ending play: a game a second move in a row lost is the out-of-turn
    axis's (play.turn), not the illegal-move policy's."""
    end = observation.end
    if end is None or end.kind is None:
        return set()
    if end.kind == "illegal-move" and any(
        s.effect == "forfeit" and s.reason == "out-of-turn" for s in observation.steps
    ):
        return {"out-of-turn"}
    return _axes(end_parts(end.kind))
