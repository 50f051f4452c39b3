"""A JSON-lines program wrapping dlgo's ``goboard_fast`` (``python program.py``, with jipingdian installed).

dlgo 0.2 is the code of the book *Deep Learning and the Game of Go* (Pumperla & Ferguson). Its
rules live in ``dlgo.goboard_fast`` (checked against the installed package):

* ``GameState.apply_move(move)`` plays ``move`` for ``next_player`` — the API has no colour, so
  the side to move is the library's; it does not check legality: ``is_valid_move(move)`` does,
  and the book's agents ask it first. ``is_valid_move`` is false after the game is over, and for
  an occupied point, a self-capture (``is_move_self_capture``: dlgo forbids every suicide) or a
  move that ``does_move_violate_ko``: the new board with the opponent to move is in
  ``previous_states`` (every earlier *situation*, player to move + Zobrist hash of the board, the
  initial one included) — situational superko;
* ``is_over()``: the last two moves were passes, or the last one a resignation (``winner()`` is
  then the side to move);
* ``Board(rows, cols)`` takes rectangles; the Zobrist table covers 19 x 19 points.

So this program: sets up the stones with ``Board.place_stone`` on a fresh board (set-up stones
never capture) and starts a ``GameState`` from it with the side to move; refuses an action by the
side not to move as ``out-of-turn`` (``apply_move`` can only play for ``next_player``), a virtual
move as ``virtual-not-allowed`` (dlgo has none); asks ``is_valid_move`` before each action and
names its refusal ``game-over`` (``is_over``), ``occupied``, ``suicide`` or ``superko``; reports
the end from ``is_over`` and ``winner``. It declares the axis values dlgo embodies (suicide
forbidden, situational superko on the board position, two passes, refusal as the only policy)
and declines a handicap (dlgo places none).

dlgo 0.2 declares ``tensorflow==1.10.1``, ``keras==2.2.2`` and ``numpy<=1.14.5`` as
requirements, which no current Python can install; the rules modules need only numpy (imported
by ``dlgo.utils``), so ``.ci/run`` installs it with ``pip install --no-deps``.
"""

import sys
from importlib import metadata

from jpdtools.verify.jsonl.points import describe, opponent, point, removed
from jpdtools.verify.jsonl.protocol import Act, End, Error, Ready, Result, Run, Step, Supports, Unsupported
from jpdtools.verify.jsonl.serve import serve

MAX_SIZE = 19  # dlgo.zobrist.HASH_CODE covers rows and columns 1..19
AXES = {
    "suicide": ("forbidden",),
    "repetition": ("situational",),
    "position": ("board",),
    "illegal-move": ("refuse",),
    "pass": ("allowed",),
    "virtual-move": ("forbidden",),
    "halt": ("two-passes",),
}

FEATURES = ("turn-order", "end-of-play", "illegal-move-refuse", "setup-stones", "resignation", "non-square")
"""The rule features dlgo has (protocol 3): no handicap placement, no virtual move, no cycle verdict."""


class Declined(Exception):
    """The run cannot be put to dlgo faithfully (becomes ``unsupported``)."""


class _Game:
    """One dlgo game state plus what the program needs to read it back."""

    def __init__(self, goboard, gotypes, msg: Run):
        self.goboard = goboard
        self.gotypes = gotypes
        self.width, self.height = msg.width, msg.height
        board = goboard.Board(msg.height, msg.width)
        for v, colour in msg.stones:
            board.place_stone(self.player(colour), self.point(v))
        self.state = goboard.GameState(board, self.player(msg.to_move), None, None)

    def player(self, colour: str):
        return self.gotypes.Player.black if colour == "B" else self.gotypes.Player.white

    def point(self, v: str):
        row, col = point(v)
        return self.gotypes.Point(row=row + 1, col=col + 1)

    def colour_at(self, p):
        got = self.state.board.get(self.gotypes.Point(row=p[0] + 1, col=p[1] + 1))
        return None if got is None else ("B" if got == self.gotypes.Player.black else "W")

    def rows(self) -> str:
        return rows_of(self.width, self.height, self.colour_at)

    def stones(self):
        return {
            (r, c): colour
            for r in range(self.height)
            for c in range(self.width)
            if (colour := self.colour_at((r, c))) is not None
        }

    def to_move(self) -> str:
        return "B" if self.state.next_player == self.gotypes.Player.black else "W"

    def refused(self, reason: str) -> Step:
        return Step(False, "refused", reason, (), (), self.to_move(), self.rows())

    def why_not(self, move) -> str:
        if self.state.is_over():
            return "game-over"
        if self.state.board.get(move.point) is not None:
            return "occupied"
        if self.state.is_move_self_capture(self.state.next_player, move):
            return "suicide"
        return "superko"

    def play(self, act: Act) -> Step:
        if act.action == "resign" and act.color != self.to_move():
            raise Declined("dlgo's resignation is the side to move's (Move.resign() has no colour)")
        if act.color != self.to_move():
            return self.refused("game-over" if self.state.is_over() else "out-of-turn")
        if act.action == "virtual":
            return self.refused("virtual-not-allowed")
        move_type = self.goboard.Move
        if act.action == "pass":
            move = move_type.pass_turn()
        elif act.action == "resign":
            move = move_type.resign()
        else:
            row, col = point(act.vertex or "")
            if not (0 <= row < self.height and 0 <= col < self.width):
                return self.refused("off-board")
            move = move_type.play(self.point(act.vertex or ""))
        if not self.state.is_valid_move(move):
            return self.refused(self.why_not(move))
        before = self.stones()
        self.state = self.state.apply_move(move)
        after = self.stones()
        mover = {**before, **({point(act.vertex or ""): act.color} if act.action == "move" else {})}
        return Step(
            True,
            "played",
            None,
            removed(before, after, opponent(act.color)),
            removed(mover, after, act.color),
            self.to_move(),
            self.rows(),
        )

    def end(self) -> End:
        to_move = self.to_move()
        if not self.state.is_over():
            return End("contest", to_move)
        if self.state.last_move.is_resign:
            winner = self.state.winner()
            return End(
                "ended", to_move, "resignation", "win", "B" if winner == self.gotypes.Player.black else "W"
            )
        return End("halted", to_move, "two-passes", "to-count")


def rows_of(width: int, height: int, colour_at) -> str:
    """Board rows of a width x height board (``points.rows`` is for square boards)."""
    symbol = {"B": "X", "W": "O", None: "."}
    return "/".join(
        "".join(symbol[colour_at((row, col))] for col in range(width)) for row in reversed(range(height))
    )


class DlgoProgram:
    def __init__(self) -> None:
        from dlgo import goboard_fast, gotypes  # imported here: a missing package is an error answer

        self.goboard = goboard_fast
        self.gotypes = gotypes

    def ready(self) -> Ready:
        supports = Supports(axes=AXES, max_size=MAX_SIZE, features=FEATURES)
        return Ready("dlgo", metadata.version("dlgo"), supports)

    def run(self, msg: Run) -> Result | Error | Unsupported:
        try:
            return self._run(msg)
        except Declined as why:
            return Unsupported(msg.id, str(why))

    def _run(self, msg: Run) -> Result | Error | Unsupported:
        if max(msg.width, msg.height) > MAX_SIZE:
            return Unsupported(msg.id, f"dlgo's Zobrist table covers {MAX_SIZE}x{MAX_SIZE} points")
        if msg.handicap:
            return Unsupported(msg.id, "dlgo places no handicap")
        game = _Game(self.goboard, self.gotypes, msg)
        initial = game.rows()
        for n, act in enumerate(msg.history, 1):
            step = game.play(act)
            if not step.legal:
                return Error(msg.id, f"history action {n} ({describe(act)}) was refused: {step.reason}")
        steps = tuple(game.play(act) for act in msg.moves)
        return Result(msg.id, steps, game.end(), initial)


class _Unavailable:
    """Stands in for the program when dlgo is missing: every answer is that error."""

    def __init__(self, why: str) -> None:
        self.why = why

    def ready(self) -> Ready:
        raise RuntimeError(self.why)

    def run(self, msg: Run) -> Error:
        return Error(msg.id, self.why)


def main() -> int:
    try:
        program: DlgoProgram | _Unavailable = DlgoProgram()
    except ImportError as err:
        program = _Unavailable(f"dlgo is not installed ({err}; pip install --no-deps dlgo==0.2)")
    return serve(program, protocols=(1, 2, 3))


if __name__ == "__main__":
    sys.exit(main())
