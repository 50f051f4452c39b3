"""A JSON-lines program wrapping sgfmill's ``Board`` (``python program.py``, with jipingdian installed).

sgfmill's board places stones, removes captured chains and, for a move without liberties, removes
the mover's own chain (self-capture); it refuses only an occupied point. It knows nothing of turns,
ko, superko, passes or the end of the game. So this program:

* sets up the position with ``Board.apply_setup`` (set-up stones are not moves);
* plays every real move sgfmill accepts and reports the captures, self-captures and board it
  produced — the claims it declares. It cannot tell legality (sgfmill refuses only an occupied
  point), the side to move or the end state, so it does not declare them: legality is sent only
  for sgfmill's own refusal (``occupied``) and is ``null`` otherwise, and the harness compares
  none of these claims;
* declares the one axis value its boards embody, ``suicide: allowed`` (under any other value a
  suicide would be refused, and sgfmill's board would differ), and declines non-square boards and
  fixed handicaps (sgfmill has no handicap placement).

A move the rules refuse (a ko recapture, a move out of turn or after the game is over) is still
placed by sgfmill, so from that step on its board differs from the case's: the deviations in
``reports/sgfmill/DEVIATIONS.md``.
"""

import sys
from importlib import metadata

from jpdtools.verify.jsonl.points import describe, opponent, point, removed, rows, setup_stones, stones
from jpdtools.verify.jsonl.protocol import Act, Error, Ready, Result, Run, Step, Supports, Unsupported
from jpdtools.verify.jsonl.serve import serve
from sgfmill import boards

CLAIMS = ("captures", "self-captures", "board")
COLOUR = {"B": "b", "W": "w"}


class SgfmillProgram:
    def ready(self) -> Ready:
        supports = Supports(axes={"suicide": ("allowed",)}, max_size=25, claims=CLAIMS)
        return Ready("sgfmill", metadata.version("sgfmill"), supports)

    def run(self, msg: Run) -> Result | Error | Unsupported:
        if msg.width != msg.height:
            return Unsupported(msg.id, f"sgfmill boards are square, not {msg.width}x{msg.height}")
        if msg.handicap and msg.rules.get("handicap") != "free":
            return Unsupported(msg.id, "sgfmill has no fixed handicap placement")
        board = boards.Board(msg.width)
        black, white = setup_stones(msg)
        if not board.apply_setup(black, white, []):
            return Error(msg.id, "the set-up position has a chain without liberties")
        initial = _rows(board)
        for n, act in enumerate(msg.history, 1):
            step = _play(board, act)
            if step.legal is False:
                return Error(msg.id, f"history action {n} ({describe(act)}) was refused: {step.reason}")
        return Result(msg.id, tuple(_play(board, act) for act in msg.moves), None, initial)


def _colour_at(board: boards.Board):
    def colour_at(p):
        got = board.get(*p)
        return None if got is None else got.upper()

    return colour_at


def _rows(board: boards.Board) -> str:
    return rows(board.side, _colour_at(board))


def _refused(board: boards.Board, reason: str) -> Step:
    return Step(
        legal=False, effect="refused", reason=reason, captures=(), self_captures=(), board=_rows(board)
    )


def _play(board: boards.Board, act: Act) -> Step:
    """One action on sgfmill's board; only a real move does anything."""
    if act.action != "move" or act.vertex is None:
        return Step(legal=None, captures=(), self_captures=(), board=_rows(board))
    before = stones(board.side, _colour_at(board))
    row, col = point(act.vertex)
    try:
        board.play(row, col, COLOUR[act.color])
    except IndexError:
        return _refused(board, "off-board")
    except ValueError:
        return _refused(board, "occupied")
    after = stones(board.side, _colour_at(board))
    before_with_move = {**before, (row, col): act.color}
    return Step(
        legal=None,
        captures=removed(before, after, opponent(act.color)),
        self_captures=removed(before_with_move, after, act.color),
        board=_rows(board),
    )


def main() -> int:
    return serve(SgfmillProgram())


if __name__ == "__main__":
    sys.exit(main())
