"""Programs under test, behind one interface: an adapter turns a case's actions into observations.

The runner and the comparator only ever see an :class:`Observation` — plain strings and tuples,
never engine objects — so the same runner drives the reference implementation
(:class:`ReferenceAdapter`), GTP engines (:mod:`jpdtools.verify.gtp`) and JSON-lines programs
(:mod:`jpdtools.verify.jsonl`).

An adapter declares what it can play (:class:`Capabilities`); a plan it cannot play is skipped,
never passed. Vertices are GTP (``C3``); boards are rows top first, ``/``-separated, ``X O .``.
"""

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from jpdref.board import PositionError
from jpdref.coords import CoordinateError, Geometry, vertex_names
from jpdref.game import Action, Game, Step
from jpdref.handicap import HandicapError
from jpdref.rules import Rules
from jpdref.stones import BLACK, WHITE, Color

from jpdtools.run.features import FEATURES
from jpdtools.suite.setup import CaseAction, CaseAgreement, Setup

if TYPE_CHECKING:
    from jpdref.counting import Count

    from jpdtools.suite.model import Expectation  # annotations only: jpd play has no case model


@dataclass(frozen=True)
class StepObservation:
    """What the program did with one action of ``moves``.

    ``effect`` is played | refused | void-pass | forfeit; ``reason`` a reason code of
    ``spec/play.md#play.reasons`` (None when accepted); ``captures`` / ``self_captures`` sorted GTP
    vertices; ``to_move`` and ``board`` describe the game after the step.
    """

    action: str
    legal: bool
    effect: str
    reason: str | None
    captures: tuple[str, ...]
    self_captures: tuple[str, ...]
    to_move: str
    board: str
    reasons: tuple[str, ...] = ()  # every reason true of a refusal (a protocol 4 program's set)


@dataclass(frozen=True)
class EndState:
    """The game after the last step: ``phase`` is handicap | contest | halted | ended.

    ``kind`` (two-passes, four-virtual, resignation, cycle, illegal-move), ``result`` (to-count,
    win, draw, no-result) and ``winner`` are set once play has halted or ended.
    """

    phase: str
    to_move: str
    kind: str | None = None
    result: str | None = None
    winner: str | None = None


@dataclass(frozen=True)
class CountObservation:
    """The count of the position after the last step, as the program made it.

    Either ``error`` (a CountingError code: the count was refused; ``message`` says why) or the
    result: ``winner`` (B, W, draw), ``margin`` (Black's lead in points after komi), each side's
    figures ``black``/``white`` in the method's ``unit``, and every point as (vertex, owner — B,
    W or none —, why). ``board`` is the counted board (rows top first, ``/``-separated; ``b``/``w``
    empty points owned by a side, ``-`` split or nobody's).
    """

    method: str = ""
    winner: str | None = None
    margin: Fraction | None = None
    black: Fraction | None = None
    white: Fraction | None = None
    unit: str | None = None
    points: tuple[tuple[str, str, str], ...] = ()
    error: str | None = None
    message: str = ""
    board: str = ""
    komi: str = ""
    black_parts: tuple[tuple[str, Fraction], ...] = ()
    white_parts: tuple[tuple[str, Fraction], ...] = ()
    steps: tuple[str, ...] = ()


@dataclass(frozen=True)
class SettleObservation:
    """The settling stage as the program played it (spec/counting.md#count.settling).

    Either ``error`` (a SettlingError code: settling was refused; ``message`` says why) or the
    stage: its ``steps`` (as for ``moves``), its ``end`` state, ``settled`` (real + virtual moves
    of the stage, Black and White), the halt stones whose chain was ``captured`` in the stage and
    those ``standing`` at its end (sorted GTP vertices), and the disputed claims the play
    ``upheld`` and ``rejected`` (as ``"B ko E5"``). ``procedure`` names the procedure used.
    """

    procedure: str = ""
    steps: tuple["StepObservation", ...] = ()
    end: EndState | None = None
    settled: tuple[int, int] | None = None
    captured: tuple[str, ...] = ()
    standing: tuple[str, ...] = ()
    upheld: tuple[str, ...] = ()
    rejected: tuple[str, ...] = ()
    error: str | None = None
    message: str = ""
    # the reference's own note, not a claim a program makes (never compared): the upheld claims
    # whose point the stage filled — counted as the stone there, not as a claim (count.settling)
    filled: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Observation:
    """Everything a program was seen to do with one case under one ruleset.

    ``error`` is set when the case could not be played at all (an impossible set-up, a refused
    history action); then ``steps`` holds whatever was observed before it and ``end`` is None.
    ``count`` is the count of the position after the last step, or None when the program did not
    count (the case says nothing about counting, or the program cannot count).
    """

    initial_board: str
    steps: tuple[StepObservation, ...] = ()
    end: EndState | None = None
    error: str | None = None
    count: CountObservation | None = None
    skip: str | None = None  # the program declined the item (it cannot play it faithfully)
    settling: SettleObservation | None = None  # None: the program did not settle by play


@dataclass(frozen=True)
class Capabilities:
    """What an adapter can play. ``None`` means "anything".

    ``rulesets``: the preset names it knows; ``axes``: for each axis it restricts, the values it
    supports; ``max_size``: the largest board side it takes; ``sizes``: the only board sides it
    takes (a set: 9, 13 and 19); ``features``: the rule features it has
    (:mod:`jpdtools.run.features`; None: all of them).
    """

    rulesets: frozenset[str] | None = None
    axes: Mapping[str, frozenset[str]] = field(default_factory=dict)
    max_size: int | None = None
    features: frozenset[str] | None = None
    sizes: frozenset[int] | None = None  # the board sides it plays (None: any up to max_size)

    def lacks(self, needs: frozenset[str]) -> tuple[str, ...]:
        """The features of ``needs`` this adapter does not have, in the vocabulary's order."""
        if self.features is None:
            return ()
        return tuple(f for f in FEATURES if f in needs and f not in self.features)

    def unsupported(
        self, rules: Rules, setup: Setup | None = None, needs: frozenset[str] = frozenset()
    ) -> str | None:
        """Why a plan cannot be played (a one-line reason), or None if it can. ``needs``: the
        item's features (:func:`jpdtools.run.features.features_of`)."""
        base = rules.name.partition(":")[0]
        if self.rulesets is not None and base not in self.rulesets:
            return f"ruleset {rules.name!r} is not supported"
        for axis, allowed in self.axes.items():
            value = str(rules.value(axis))
            if value not in allowed:
                return f"axis {axis}={value} is not supported"
        big = setup is not None and max(setup.width, setup.height) > (self.max_size or 99)
        if setup is not None and big:
            return f"board {setup.width}x{setup.height} is larger than {self.max_size}"
        if setup is not None and self.sizes is not None and not {setup.width, setup.height} <= self.sizes:
            sides = ", ".join(map(str, sorted(self.sizes)))
            return f"board {setup.width}x{setup.height} is not among the sizes it plays ({sides})"
        lacking = self.lacks(needs)
        if lacking:
            return f"lacks {'features' if len(lacking) > 1 else 'feature'} {', '.join(lacking)}"
        return None


@dataclass(frozen=True)
class Limited:
    """The expectation a program is held to, and the claims left out (one line each): what an
    adapter's optional ``limit``/``limit_item`` returns."""

    expectation: "Expectation"
    dropped: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        e = self.expectation
        return not e.steps and e.end is None and not e.counts


class Adapter(Protocol):
    """A program under test."""

    name: str

    def capabilities(self) -> Capabilities: ...

    def observe(
        self,
        setup: Setup,
        history: tuple[CaseAction, ...],
        moves: tuple[CaseAction, ...],
        rules: Rules,
    ) -> Observation: ...


# -- helpers shared by adapters ----------------------------------------------------------------


_SYMBOLS = bytes.maketrans(bytes((0, int(BLACK), int(WHITE))), b".XO")


def board_rows(game: Game) -> str:
    """The board of ``game`` as rows top first, ``/``-separated (``X`` black, ``O`` white)."""
    width = game.geometry.width
    points = bytes(game.board.color).translate(_SYMBOLS).decode("ascii")
    return "/".join(points[start : start + width] for start in range(0, len(points), width))


@functools.lru_cache(maxsize=1024)
def _stones(width: int, height: int, stones: tuple[tuple[str, str], ...]) -> tuple[tuple[int, Color], ...]:
    """A set-up's stones as (point, colour), once per set-up (a run plays each under 12 rulesets)."""
    geometry = Geometry(width, height)
    return tuple((geometry.from_gtp(v), Color.parse(c)) for v, c in stones)


def end_state(game: Game) -> EndState:
    outcome = game.outcome
    if outcome is None:
        return EndState(str(game.phase), game.to_move.letter)
    winner = outcome.winner.letter if outcome.winner is not None else None
    return EndState(str(game.phase), game.to_move.letter, str(outcome.kind), str(outcome.result), winner)


def observation_json(name: str, obs: Observation) -> dict:
    """One ruleset's observation as ``jpd play --json`` prints it (and the book's playground shows
    it): every step, the phase and side to move after the last, the outcome once play ended."""
    steps = [
        {
            "step": n,
            "action": step.action,
            "legal": step.legal,
            "effect": step.effect,
            "reason": step.reason,
            "captures": list(step.captures),
            "self_captures": list(step.self_captures),
            "to_move": step.to_move,
        }
        for n, step in enumerate(obs.steps, 1)
    ]
    e = obs.end
    outcome = None
    if e is not None and e.kind is not None:
        outcome = {"kind": e.kind, "result": e.result, "winner": e.winner}
    return {
        "rules": name,
        "steps": steps,
        "phase": e.phase if e else None,
        "to_move": e.to_move if e else None,
        "outcome": outcome,
    }


# -- the reference implementation --------------------------------------------------------------


class ReferenceAdapter:
    """The pure-Python reference implementation ``jpdref``: supports every ruleset and axis."""

    name = "jpdref"

    def capabilities(self) -> Capabilities:
        return Capabilities()

    def observe(
        self,
        setup: Setup,
        history: tuple[CaseAction, ...],
        moves: tuple[CaseAction, ...],
        rules: Rules,
    ) -> Observation:
        try:
            geometry = Geometry(setup.width, setup.height)
            stones = dict(_stones(setup.width, setup.height, setup.stones))
            game = Game.new(rules, geometry, stones, Color.parse(setup.to_move), setup.handicap)
        except (PositionError, CoordinateError, HandicapError, ValueError) as err:
            return Observation("", error=f"the set-up cannot be played: {err}")
        initial = board_rows(game)
        markers = dict(setup.markers)
        for n, case_action in enumerate(history, 1):
            try:
                step = game.play(_action(case_action, geometry, markers))
            except CoordinateError as err:
                return Observation(initial, error=f"history action {n} ({case_action}): {err}")
            if not step.legal:
                return Observation(
                    initial,
                    error=f"history action {n} ({case_action}) was refused: {step.reason}",
                )
        observed = []
        for case_action in moves:
            try:
                action = _action(case_action, geometry, markers)
            except CoordinateError as err:
                return Observation(initial, tuple(observed), error=f"{case_action}: {err}")
            observed.append(step_observation(case_action, game.play(action), game))
        final = setup.final
        if final is not None and final.settle is not None:
            settling, count = observe_settling(game, setup, rules)
            return Observation(initial, tuple(observed), end_state(game), count=count, settling=settling)
        count = observe_count(game, setup, rules) if final is not None else None
        return Observation(initial, tuple(observed), end_state(game), count=count)


def step_observation(case_action: CaseAction, step: Step, game: Game) -> StepObservation:
    """What ``step`` (the engine's answer to ``case_action``) did, and ``game`` after it."""
    geometry = game.geometry
    return StepObservation(
        action=str(case_action),
        legal=step.legal,
        effect=str(step.effect),
        reason=str(step.reason) if step.reason is not None else None,
        captures=_vertices(geometry, step.captures),
        self_captures=_vertices(geometry, step.self_captures),
        to_move=game.to_move.letter,
        board=board_rows(game),
    )


_OWNER_LETTER = {0: "none", BLACK: "B", WHITE: "W"}
"""A point's owner in a count (0: nobody's, or split) as an observation names it."""


def count_observation(count: "Count") -> CountObservation:
    """A reference :class:`~jpdref.counting.Count` as plain values."""
    facts = count.facts
    names = vertex_names(count.geometry.width, count.geometry.height)
    points = tuple(zip(names, map(_OWNER_LETTER.__getitem__, facts.owner), map(str, facts.why), strict=True))
    return CountObservation(
        method=str(count.method),
        winner=count.winner,
        margin=count.margin,
        black=count.black.score,
        white=count.white.score,
        unit=str(count.unit),
        points=points,
        board="/".join(row.replace(" ", "") for row in count.render().split("\n")),
        komi=count.komi.reason,
        black_parts=count.black.parts,
        white_parts=count.white.parts,
        steps=count.steps,
    )


def observe_count(game: Game, setup: Setup, rules: Rules) -> CountObservation:
    """The reference count of ``game``'s position under ``rules``.

    A refusal (:class:`~jpdref.counting.CountingError`) is an observation too: ``error`` = its code.
    """
    from jpdref.counting import CountingError  # counting is imported only when a case counts:

    from jpdtools.run.reference_count import final_position, reference_count  # start-up time

    assert setup.final is not None
    try:
        fp = final_position(game, setup.final)
        count = reference_count(rules, fp)
    except CountingError as err:
        return CountObservation(error=err.code, message=str(err))
    return count_observation(count)


def observe_settling(game: Game, setup: Setup, rules: Rules) -> tuple[SettleObservation, CountObservation]:
    """Settle the case's dispute by play from ``game`` (halted) under ``rules``' procedure, then
    count the settled position (spec/counting.md#count.settling).

    A refused settling is an observation (``error`` = its SettlingError code) and so is the count
    that cannot follow it (same code); so is a stage that did not halt (``unfinished``,
    ``ended``).
    """
    from jpdref.counting import CountingError
    from jpdref.settling import Dispute, Proof, SettlingError, SettlingResult, settle, settled_position

    from jpdtools.run.reference_count import agreement_of, counters_of, reference_count

    assert setup.final is not None and setup.final.settle is not None
    final, spec = setup.final, setup.final.settle
    geometry = game.geometry
    markers = dict(setup.markers)
    try:
        actions = [_action(a, geometry, markers) for a in spec.moves]
        first = Color.parse(spec.first) if spec.first else None
        start = settle(rules.name.partition(":")[0], game, [], first)
    except SettlingError as err:
        refused = SettleObservation(error=err.code, message=str(err))
        return refused, CountObservation(error=err.code, message=str(err))
    # The stage's actions are played here one by one (as settle() plays them) to observe the
    # board after each; the result is the one settle() would return.
    stage = start.game
    steps, observed_steps = [], []
    for case_action, action in zip(spec.moves, actions, strict=True):
        steps.append(stage.play(action))
        observed_steps.append(step_observation(case_action, steps[-1], stage))
    result = SettlingResult(start.procedure, game, stage, tuple(steps), Proof.of(game, stage))
    dispute = Dispute(
        frozenset(geometry.from_gtp(v) for v in spec.stones),
        agreement_of(CaseAgreement(claims=spec.claims), geometry).claims,
    )
    proof = result.proof
    upheld = tuple(
        str(c) for c, claim in zip(spec.claims, dispute.claims, strict=True) if proof.upholds(claim)
    )
    observed = SettleObservation(
        procedure=str(result.procedure),
        steps=tuple(observed_steps),
        end=end_state(stage),
        settled=result.settling,
        captured=_vertices(geometry, proof.captured),
        standing=_vertices(geometry, proof.standing),
        upheld=upheld,
        rejected=tuple(str(c) for c in spec.claims if str(c) not in upheld),
        filled=tuple(
            str(c)
            for c, claim in zip(spec.claims, dispute.claims, strict=True)
            if claim in result.filled([claim])
        ),
    )
    try:
        fp = settled_position(result, agreement_of(final.agreement, geometry), dispute)
    except SettlingError as err:
        return observed, CountObservation(error=err.code, message=str(err))
    fp = replace(fp, counters=counters_of(fp.counters, final.counters))
    if final.counters.settling is not None:
        fp = replace(fp, settling=final.counters.settling)
    try:
        return observed, count_observation(reference_count(rules, fp))
    except CountingError as err:
        return observed, CountObservation(error=err.code, message=str(err))


def _action(case_action: CaseAction, geometry: Geometry, markers: dict[str, str]) -> Action:
    color = Color.parse(case_action.color)
    kind = case_action.kind
    if kind == "move":
        vertex = case_action.vertex
        if vertex is not None and vertex.startswith("@"):
            vertex = markers.get(vertex[1:])
        if vertex is None:
            raise CoordinateError(f"move {case_action} names no vertex")
        return Action.move(color, geometry.from_gtp(vertex))
    if kind == "virtual":
        return Action.virtual(color)
    if kind == "pass":
        return Action.pass_(color)
    if kind == "resign":
        return Action.resign(color)
    raise CoordinateError(f"unknown action kind {kind!r}")


def sort_vertices(vertices) -> tuple[str, ...]:
    """GTP vertices in a canonical order: by column letter, then row number."""
    return tuple(sorted((v.upper() for v in vertices), key=lambda v: (v[0], int(v[1:]))))


def _vertices(geometry: Geometry, points) -> tuple[str, ...]:
    if not points:
        return ()  # most steps capture nothing
    return sort_vertices(geometry.to_gtp(p) for p in points)
