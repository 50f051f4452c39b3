"""A JSON-lines program wrapping OpenSpiel's ``go`` game (run as a module by the harness).

What OpenSpiel's Go does (open_spiel/games/go/go.cc, go_board.cc; checked against the installed
package by tests/test_jsonl.py):

* ``legal_actions()`` excludes occupied points, the simple-ko point (a single-stone capture by a
  stone played into an eye) and every suicide, single or multi-stone; the pass is always legal;
* a real move that brings back an earlier board (stones only, side to move ignored) is *accepted*
  and ends the game, scored as a draw; two passes in a row end the game (to be counted);
* square boards up to 19x19; a fixed handicap only at 19x19 points (the ``handicap`` parameter),
  after which White moves; no set-up stones, no resignation, no virtual moves.

So the program declares the axis values OpenSpiel embodies — ``suicide: forbidden``,
``repetition: simple-ko``, ``cycle: draw``, ``pass: allowed``, ``virtual-move: forbidden``,
``position: board``, ``halt: two-passes``, ``handicap: fixed`` (the preset ``jpd-art-2008``) —
and ``illegal-move: refuse`` or ``loss``: OpenSpiel only leaves an illegal move out of its legal
actions, so under ``loss`` (jpd-art-2008, OQ-9) the wrapper itself ends the game against the side
that attempted a ko or suicide. It reports every claim. A refusal's reason is what OpenSpiel's
state shows: ``game-over`` (terminal), ``out-of-turn`` (not the current player), ``occupied``
(a stone on the point), else ``ko`` or ``suicide``: OpenSpiel refuses an empty point only for
those two, and the program tells them apart by asking OpenSpiel again about the same board
without the ko point.

Set-up stones cannot be given to OpenSpiel, so they are played as alternating moves (with passes
where one colour has more), which never captures. OpenSpiel then knows positions that were never
on the board; if it ends a game on one of them, or if its two-pass rule would count a set-up
pass, the run is declined (a skip), never reported as OpenSpiel's verdict.
"""

import os
import re
import sys
from importlib import metadata

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
from jpdtools.verify.jsonl.protocol import Act, End, Error, Ready, Result, Run, Step, Supports, Unsupported
from jpdtools.verify.jsonl.serve import serve

MAX_SIZE = 19
MAX_GAME_LENGTH = 100_000
AXES = {
    "suicide": ("forbidden",),
    "repetition": ("simple-ko",),
    "cycle": ("draw",),
    "illegal-move": ("refuse", "loss"),
    "pass": ("allowed",),
    "virtual-move": ("forbidden",),
    "position": ("board",),
    "halt": ("two-passes",),
    "handicap": ("fixed",),
}
_TO_PLAY = re.compile(r"to_play=([BW])")


class Declined(Exception):
    """The run cannot be played faithfully through OpenSpiel (becomes ``unsupported``)."""


class _Game:
    """One OpenSpiel state plus what the wrapper needs to read it back."""

    def __init__(
        self,
        pyspiel,
        size: int,
        black: list[Point],
        white: list[Point],
        to_move: str,
        handicap: int,
        forfeit: bool = False,
    ):
        params = {"board_size": size, "komi": 7.5, "handicap": handicap, "max_game_length": MAX_GAME_LENGTH}
        self.pyspiel = pyspiel
        self.size = size
        self.pass_action = size * size
        self.state = pyspiel.load_game("go", params).new_initial_state()
        self.intermediate: set[str] = set()
        plays = setup_sequence(black, white, to_move) if not handicap else []
        for colour, p in plays:
            self.intermediate.add(self.rows())
            if self.to_move() != colour:
                raise RuntimeError("set-up out of step")
            self.state.apply_action(self.pass_action if p is None else self.action(p))
        self.trailing_pass = bool(plays) and plays[-1][1] is None
        self.seen = {self.rows()}
        self.forfeit = forfeit  # illegal-move policy ``loss``: the wrapper applies it {#play.illegal}
        self.winner: str | None = None  # set when a forfeit ended the game

    def action(self, p: Point) -> int:
        return p[0] * self.size + p[1]

    def colour_at(self, p: Point) -> str | None:
        tensor = self.state.observation_tensor(0)
        cell = self.action(p)
        if tensor[cell]:
            return "B"
        if tensor[self.size * self.size + cell]:
            return "W"
        return None

    def stones(self) -> dict[Point, str]:
        return stones(self.size, self.colour_at)

    def rows(self) -> str:
        return rows(self.size, self.colour_at)

    def to_move(self) -> str:
        found = _TO_PLAY.search(str(self.state))
        return found.group(1) if found else "?"

    def halted_by_passes(self) -> bool:
        history = self.state.history()
        return len(history) >= 2 and history[-1] == history[-2] == self.pass_action

    def refused(self, reason: str) -> Step:
        return Step(False, "refused", reason, (), (), self.to_move(), self.rows())

    def play(self, act: Act) -> Step:
        if self.state.is_terminal() or self.winner is not None:
            return self.refused("game-over")
        if act.color != self.to_move():
            return self.refused("out-of-turn")
        if act.action == "virtual":
            return self.refused("virtual-not-allowed")
        if act.action == "pass":
            action = self.pass_action
        else:
            p = point(act.vertex or "")
            if not (0 <= p[0] < self.size and 0 <= p[1] < self.size):
                return self.refused("off-board")
            action = self.action(p)
            if action not in self.state.legal_actions():
                why = self._why_not(p)
                if self.forfeit and why in ("ko", "suicide"):
                    self.winner = opponent(act.color)
                    return Step(False, "forfeit", why, (), (), self.to_move(), self.rows())
                return self.refused(why)
        before = self.stones()
        self.state.apply_action(action)
        after = self.stones()
        board = self.rows()
        if self.state.is_terminal() and not self.halted_by_passes() and board not in self.seen:
            raise Declined(
                "OpenSpiel saw a repetition of a position that only the set-up (played as moves) had"
            )
        self.seen.add(board)
        mover = {**before, **({} if action == self.pass_action else {p: act.color})}
        return Step(
            True,
            "played",
            None,
            removed(before, after, opponent(act.color)),
            removed(mover, after, act.color),
            self.to_move(),
            board,
        )

    def _why_not(self, p: Point) -> str:
        if self.colour_at(p) is not None:
            return "occupied"
        black = [q for q, c in self.stones().items() if c == "B"]
        white = [q for q, c in self.stones().items() if c == "W"]
        fresh = _Game(self.pyspiel, self.size, black, white, self.to_move(), 0)
        return "ko" if fresh.action(p) in fresh.state.legal_actions() else "suicide"

    def end(self) -> End:
        to_move = self.to_move()
        if self.winner is not None:
            return End("ended", to_move, "illegal-move", "win", self.winner)
        if not self.state.is_terminal():
            return End("contest", to_move)
        if self.halted_by_passes():
            return End("halted", to_move, "two-passes", "to-count")
        return End("ended", to_move, "cycle", "draw")


class OpenSpielProgram:
    def __init__(self) -> None:
        import pyspiel  # imported here so a missing package is an error answer, not a crash

        self.pyspiel = pyspiel

    def ready(self) -> Ready:
        supports = Supports(axes=AXES, max_size=MAX_SIZE)
        return Ready("open_spiel go", metadata.version("open_spiel"), supports)

    def run(self, msg: Run) -> Result | Error | Unsupported:
        try:
            return self._run(msg)
        except Declined as why:
            return Unsupported(msg.id, str(why))

    def _run(self, msg: Run) -> Result | Error | Unsupported:
        size = msg.width
        if msg.width != msg.height:
            raise Declined(f"OpenSpiel boards are square, not {msg.width}x{msg.height}")
        actions = (*msg.history, *msg.moves)
        if any(a.action == "resign" for a in actions):
            raise Declined("OpenSpiel's go has no resignation")
        if msg.handicap and (size != 19 or msg.stones or msg.rules.get("handicap") != "fixed"):
            raise Declined("OpenSpiel places a fixed handicap on 19x19 only")
        black = [point(v) for v, c in msg.stones if c == "B"]
        white = [point(v) for v, c in msg.stones if c == "W"]
        forfeit = msg.rules.get("illegal-move") == "loss"
        game = _Game(self.pyspiel, size, black, white, msg.to_move, msg.handicap, forfeit)
        if not msg.handicap and game.to_move() != msg.to_move:
            return Error(msg.id, f"OpenSpiel starts with {game.to_move()} to move, not {msg.to_move}")
        if game.trailing_pass and actions and actions[0].action == "pass":
            raise Declined("the set-up ends in a pass that OpenSpiel would count towards two passes")
        initial = game.rows()
        for n, act in enumerate(msg.history, 1):
            step = game.play(act)
            if not step.legal:
                return Error(msg.id, f"history action {n} ({describe(act)}) was refused: {step.reason}")
        steps = tuple(game.play(act) for act in msg.moves)
        return Result(msg.id, steps, game.end(), initial)


class _Unavailable:
    """Stands in for the program when open-spiel is missing: every answer is that error."""

    def __init__(self, why: str) -> None:
        self.why = why

    def ready(self) -> Ready:
        raise RuntimeError(self.why)

    def run(self, msg: Run) -> Error:
        return Error(msg.id, self.why)


def main() -> int:
    # OpenSpiel's C++ code may write to file descriptor 1: keep the protocol on a private copy of it
    protocol_out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    try:
        program: OpenSpielProgram | _Unavailable = OpenSpielProgram()
    except ImportError as err:
        program = _Unavailable(f"open-spiel is not installed ({err})")
    return serve(program, sys.stdin, protocol_out)


if __name__ == "__main__":
    sys.exit(main())
