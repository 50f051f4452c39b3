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

The count (``count:`` and ``point:`` claims) is asked with ``final_score`` only where the engine
can be told everything the count depends on (:func:`count_refusal`):

* the ruleset's counting method is one the profile counts (GNU Go: ``area`` with
  ``--chinese-rules``, ``japanese`` with ``--japanese-rules``); every other method is not asked;
* the agreement is empty: no dead stones (diagram ``x``/``o`` or ``agreement.dead``), no seki,
  claims, dame or shared marks — GTP has no way to tell the engine any of them;
* the case's ``counters:`` give nothing the count reads beyond the komi: under ``japanese`` the
  ``prisoners`` figure is the engine's own capture count, so a case that sets it is not asked.
  Everything else in ``counters:`` (moves, passes, first pass, last move, handicap) only decides
  the komi, which the harness computes (:func:`jpdref.counting.komi.decide_komi`) and sends.

Where the count is asked, only winner and margin are compared: the method's figures
(``black``/``white``), its ``unit`` and every ``point:`` line are dropped (``final_score`` gives
none of them), and so is a ``count: error CODE`` claim — a refused count is the komi rule's or the
agreement's refusal, which the harness, not the engine, would make. Where it is not asked, every
count claim is dropped, with the reason.
"""

from dataclasses import replace

from jpdtools.run.adapters import Limited
from jpdtools.suite.model import CountVerdict, Expectation, StepVerdict
from jpdtools.suite.setup import CaseAction, FinalSpec

REFEREE_REASONS = frozenset(
    {"out-of-turn", "game-over", "pass-not-allowed", "virtual-not-allowed", "handicap-placement", "off-board"}
)
REFEREE_ACTIONS = frozenset({"virtual", "resign"})
ENGINE_ENDS = frozenset({"contest"})


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


NO_BOARD_READER = "the engine lists no list_stones: its board cannot be read"
BOARD_CLAIMS = frozenset({"captures", "self-captures", "board"})


def limit_board(expectation: Expectation, refusal: str | None) -> Limited:
    """Without a way to read the engine's board (``refusal`` says why), the claims about the
    board — ``captures``, ``self-captures``, ``board`` — are left out; an either-verdict whose
    alternative would be left with no claim goes whole. With ``refusal`` None, nothing goes."""
    if refusal is None:
        return Limited(expectation)
    kept: list[StepVerdict] = []
    dropped: list[str] = []
    for verdict in expectation.steps:
        alternatives = tuple(
            tuple(c for c in alt if c.kind not in BOARD_CLAIMS) for alt in verdict.alternatives
        )
        if alternatives == verdict.alternatives:
            kept.append(verdict)
            continue
        if verdict.is_open and not all(alternatives):
            dropped.append(f"{verdict} ({refusal})")
            continue
        gone = [c for alt in verdict.alternatives for c in alt if c.kind in BOARD_CLAIMS]
        dropped.extend(f"step {verdict.step}: {c} ({refusal})" for c in gone)
        if any(alternatives):
            kept.append(replace(verdict, alternatives=alternatives))
    return Limited(replace(expectation, steps=tuple(kept)), tuple(dropped))


def unplayable(history: tuple[CaseAction, ...], handicap: int, placement: str, free_ok: bool) -> str | None:
    """Why a set-up cannot be rebuilt through GTP at all, or None."""
    for n, action in enumerate(history, 1):
        if action.kind in REFEREE_ACTIONS:
            return f"history action {n} is a {action.kind} action, which GTP cannot play"
    if handicap and placement == "free" and not free_ok:
        return "free handicap placement is a controller procedure (GTP places all stones at once)"
    return None


def count_refusal(final: FinalSpec | None, method: str, counted: frozenset[str]) -> str | None:
    """Why the engine is not asked for the count of this item (see the module text), or None."""
    if final is None:
        return "the case gives no final position to count"
    if final.settle is not None:
        return "the case settles a dispute by play, which GTP cannot do"
    if method not in counted:
        known = " and ".join(sorted(counted)) or "nothing"
        return f"the {method} counting method cannot be asked: the engine counts {known} only"
    agreement = final.agreement
    marks = [
        name
        for name, given in (
            ("dead stones", agreement.dead),
            ("seki", agreement.seki),
            ("claims", agreement.claims),
            ("dame", agreement.dame),
            ("shared liberties", agreement.shared),
            ("agreed owners", agreement.black_owns + agreement.white_owns),
        )
        if given
    ]
    if marks:
        return f"the agreement marks {', '.join(marks)}, which GTP cannot tell the engine"
    if method == "japanese" and final.counters.prisoners is not None:
        return "the case sets the prisoners, which the engine counts from the moves itself"
    return None


def limit_count(expectation: Expectation, refusal: str | None) -> Limited:
    """The count claims the engine is held to: winner and margin only, or none (``refusal``)."""
    if not expectation.counts:
        return Limited(expectation)
    verdict = expectation.count
    dropped = [f"{line} (no per-point owners from final_score)" for line in expectation.points]
    if refusal is not None:
        dropped = [str(verdict)] if verdict is not None else []
        dropped += [str(line) for line in expectation.points]
        dropped = [f"{text} ({refusal})" for text in dropped]
        return Limited(replace(expectation, count=None, points=()), tuple(dropped))
    if verdict is not None and any(c.kind == "error" for c in verdict.alternatives):
        dropped.insert(0, f"{verdict} (a refused count is the harness's decision, not the engine's)")
        verdict = None
    elif verdict is not None:
        bare = tuple(replace(c, black=None, white=None, unit=None) for c in verdict.alternatives)
        if bare != verdict.alternatives:
            dropped.insert(0, f"{verdict}: figures and unit (final_score gives winner and margin only)")
        verdict = CountVerdict(bare, verdict.location)  # an either stays open
    return Limited(replace(expectation, count=verdict, points=()), tuple(dropped))
