"""A JSON-lines program wrapping PettingZoo's ``classic.go_v5`` environment (run by the harness).

The environment is made as its documentation says, ``make("aec", "classic/go-v5", board_size=N,
komi=K)``, with the wrappers ``go_v5.env`` applies.

What the environment does (pettingzoo/classic/go/go.py and go_base.py, its copy of MiniGo's
rules; checked against the installed package by tests/test_pettingzoo.py):

* two agents, ``black_0`` and ``white_0``, take turns; an action is a point (``row * N + col``,
  row 0 at the top) or the pass (``N * N``); there is no set-up, handicap, resignation or virtual
  move, and no action out of turn (``step`` acts for the agent whose turn it is);
* the legal actions (``action_mask``) leave out occupied points, the simple-ko point (the point of
  a single stone just captured by a stone played into an eye) and every suicide; there is no
  superko and no cycle rule (a repeated position plays on);
* **any** action outside the mask — an occupied point as much as a ko — ends the game at once,
  the agent that took it losing (``TerminateIllegalWrapper``): a forfeit, the ``loss`` policy for
  every illegal action;
* two passes in a row end the game, scored by ``go_base.Position.score()`` — stones plus the empty
  regions that reach only one colour, minus komi, the board as it stands (Tromp-Taylor
  counting) — into rewards of +1 and -1.

So the program declares the axis values the environment embodies — ``suicide: forbidden``,
``repetition: simple-ko``, ``position: board``, ``pass: allowed``, ``virtual-move: forbidden``,
``halt: two-passes``, ``illegal-move: loss`` — and the features ``end-of-play``,
``illegal-move-loss``, ``setup-stones`` and ``counting`` but not ``plain-refusal`` (an occupied
point is a forfeit, not a refusal), ``turn-order``, ``cycle-verdict``, the handicaps, resignation,
virtual moves or non-square boards (protocol 4, spec/jsonl-protocol.md#jsonl.v4). It reports every
claim of play and ``count-result``: the winner as the rewards give it (the agent with +1; the
environment has no draw) and Black's margin as ``score()`` gives it — the environment's own
figure, read from its position. A count is given only for a game the environment ended by two
passes under the ``tromp-taylor`` counting with a numeric komi (or none) and no agreement (other
counts are declined); a position the game has not ended is counted by passing until the
environment ends it, which leaves the board as it stands, all Tromp-Taylor counting looks at.

The set-up is played as moves (alternating, a pass where one colour has more stones), which never
captures, so no ko point is left and simple ko needs no other history (spec/jsonl-protocol.md,
set-up by moves). A set-up ending in a pass before a first pass would make two; that item is
declined. A refused action's reason is read from the environment's position: ``occupied`` (a
stone on the point), ``ko`` (its ko point), else ``suicide``.
"""

import os
import sys
from fractions import Fraction
from importlib import metadata

from jpdtools.suite.setup import CaseAgreement
from jpdtools.verify.jsonl.points import (
    Point,
    describe,
    opponent,
    point,
    removed,
    rows,
    setup_sequence,
    stones,
)
from jpdtools.verify.jsonl.protocol import (
    CLAIMS,
    Act,
    Count,
    End,
    Error,
    Ready,
    Result,
    Run,
    Step,
    Supports,
    Unsupported,
)
from jpdtools.verify.jsonl.serve import serve

MAX_SIZE = 19
AXES = {
    "suicide": ("forbidden",),
    "repetition": ("simple-ko",),
    "position": ("board",),
    "pass": ("allowed",),
    "virtual-move": ("forbidden",),
    "halt": ("two-passes",),
    "illegal-move": ("loss",),
}
FEATURES = ("end-of-play", "illegal-move-loss", "setup-stones", "counting")
AGENTS = {"black_0": "B", "white_0": "W"}


class Declined(Exception):
    """The run cannot be played faithfully through the environment (becomes ``unsupported``)."""


class _Game:
    """One environment plus what the wrapper needs to read it back."""

    def __init__(self, make, size: int, komi: float, black: list[Point], white: list[Point], to_move: str):
        self.size = size
        self.pass_action = size * size
        self.env = make("aec", "classic/go-v5", board_size=size, komi=komi)
        self.env.reset()
        self.loser: str | None = None  # the agent an illegal action lost the game for
        plays = setup_sequence(black, white, to_move)
        for colour, p in plays:
            if self.to_move() != colour:
                raise RuntimeError("set-up out of step")
            self.env.step(self.pass_action if p is None else self.action(p))
        if self.over():
            raise RuntimeError("the set-up ended the game")
        self.trailing_pass = bool(plays) and plays[-1][1] is None

    def position(self):
        return self.env.unwrapped._go  # go_base.Position: the board the environment plays on

    def action(self, p: Point) -> int:
        return (self.size - 1 - p[0]) * self.size + p[1]

    def colour_at(self, p: Point) -> str | None:
        value = int(self.position().board[self.size - 1 - p[0], p[1]])
        return {1: "B", -1: "W"}.get(value)

    def stones(self) -> dict[Point, str]:
        return stones(self.size, self.colour_at)

    def rows(self) -> str:
        return rows(self.size, self.colour_at)

    def over(self) -> bool:
        return any(self.env.terminations.values())

    def to_move(self) -> str:
        """The agent whose turn the environment says it is (after the end, whatever it says)."""
        return AGENTS[self.env.agent_selection]

    def refused(self, reason: str) -> Step:
        return Step(False, "refused", reason, (), (), self.to_move(), self.rows())

    def play(self, act: Act) -> Step:
        if self.over():
            return self.refused("game-over")
        if act.color != self.to_move():
            return self.refused("out-of-turn")
        if act.action in ("virtual", "resign"):
            raise Declined(f"the environment has no {act.action} action")
        if act.action == "pass":
            action = self.pass_action
        else:
            p = point(act.vertex or "")
            if not (0 <= p[0] < self.size and 0 <= p[1] < self.size):
                raise Declined(f"{act.vertex} is off the board, an action the environment cannot take")
            action = self.action(p)
            mask = self.env.observe(self.env.agent_selection)["action_mask"]
            if not mask[action]:
                why = self._why_not(p)
                agent = self.env.agent_selection
                self.env.step(action)  # the environment ends the game against the agent
                if self.env.rewards[agent] < 0 and self.over():
                    self.loser = act.color
                return Step(False, "forfeit", why, (), (), self.to_move(), self.rows())
        before = self.stones()
        self.env.step(action)
        after = self.stones()
        mover = {**before, **({} if action == self.pass_action else {p: act.color})}
        return Step(
            True,
            "played",
            None,
            removed(before, after, opponent(act.color)),
            removed(mover, after, act.color),
            self.to_move(),
            self.rows(),
        )

    def _why_not(self, p: Point) -> str:
        if self.colour_at(p) is not None:
            return "occupied"
        coordinate = (self.size - 1 - p[0], p[1])
        return "ko" if self.position().ko == coordinate else "suicide"

    def end(self) -> End:
        if self.loser is not None:
            return End("ended", self.to_move(), "illegal-move", "win", opponent(self.loser))
        if self.over():
            return End("halted", self.to_move(), "two-passes", "to-count")
        return End("contest", self.to_move())

    def count(self, komi: Fraction) -> Count:
        if self.loser is not None:
            return Count(error="ended", message="an illegal action ended the game")
        while not self.over():  # the environment scores a game two passes ended: end it so
            self.env.step(self.pass_action)
        rewards = {AGENTS[agent]: reward for agent, reward in self.env.rewards.items()}
        winner = "B" if rewards["B"] > 0 else "W" if rewards["W"] > 0 else "draw"
        margin = Fraction(float(self.position().score())).limit_denominator(1000)
        return Count(method="tromp-taylor", winner=winner, margin=margin, komi=komi)


def komi_of(value: str) -> Fraction | None:
    """The ruleset's komi as a number (``none``: 0), or None for a komi that is a rule."""
    if value == "none":
        return Fraction(0)
    try:
        return Fraction(value)
    except ValueError:
        return None


class PettingZooProgram:
    def __init__(self) -> None:
        from pettingzoo import make  # here so a missing package is an error answer

        self.make = make

    def ready(self) -> Ready:
        supports = Supports(axes=AXES, max_size=MAX_SIZE, claims=(*CLAIMS, "count-result"), features=FEATURES)
        return Ready("pettingzoo classic.go_v5", metadata.version("pettingzoo"), supports)

    def run(self, msg: Run) -> Result | Error | Unsupported:
        try:
            return self._run(msg)
        except Declined as why:
            return Unsupported(msg.id, str(why))

    def _run(self, msg: Run) -> Result | Error | Unsupported:
        if msg.width != msg.height:
            raise Declined(f"the environment's boards are square, not {msg.width}x{msg.height}")
        if msg.handicap:
            raise Declined("the environment has no handicap")
        komi = komi_of(msg.rules.get("komi", "none"))
        if msg.final is not None:
            if msg.rules.get("counting") != "tromp-taylor" or komi is None:
                raise Declined(
                    "the environment counts the board as it stands with a numeric komi (tromp-taylor)"
                )
            if msg.final.agreement != CaseAgreement() or msg.final.settle is not None:
                raise Declined("the environment counts the board as it stands: no agreement, no settling")
        black = [point(v) for v, c in msg.stones if c == "B"]
        white = [point(v) for v, c in msg.stones if c == "W"]
        game = _Game(self.make, msg.width, float(komi or 0), black, white, msg.to_move)
        if game.to_move() != msg.to_move:
            return Error(msg.id, f"the environment has {game.to_move()} to move, not {msg.to_move}")
        actions = (*msg.history, *msg.moves)
        if game.trailing_pass and actions and actions[0].action == "pass":
            raise Declined("the set-up ends in a pass that the environment would count towards two passes")
        initial = game.rows()
        for n, act in enumerate(msg.history, 1):
            step = game.play(act)
            if not step.legal:
                return Error(msg.id, f"history action {n} ({describe(act)}) was refused: {step.reason}")
        steps = tuple(game.play(act) for act in msg.moves)
        end = game.end()  # before the count, which may pass to end the game
        count = game.count(komi or Fraction(0)) if msg.final is not None else None
        return Result(msg.id, steps, end, initial, count)


class _Unavailable:
    """Stands in for the program when pettingzoo is missing: every answer is that error."""

    def __init__(self, why: str) -> None:
        self.why = why

    def ready(self) -> Ready:
        raise RuntimeError(self.why)

    def run(self, msg: Run) -> Error:
        return Error(msg.id, self.why)


def main() -> int:
    # the environment's warnings may go to file descriptor 1: keep the protocol on a copy of it
    protocol_out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    try:
        program: PettingZooProgram | _Unavailable = PettingZooProgram()
    except ImportError as err:
        program = _Unavailable(f"pettingzoo is not installed ({err})")
    return serve(program, sys.stdin, protocol_out, protocols=(4,))


if __name__ == "__main__":
    sys.exit(main())
