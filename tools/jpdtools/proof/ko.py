"""A ko claim proven by its shape (spec/counting.md#count.status (5)).

``C ko P`` (单劫不粘有1目, 001 第十条(1), 第十二条(1)) says that C holds a ko at P and does not
connect. P is such a ko point when it is empty, every neighbour of P is a stone of C, exactly one
of them is a single stone of C whose only liberty is P (the stone that captured: the opponent's
retake at P takes it and nothing else, and stands in atari on its point), and every other is a
chain of C with a liberty besides P. No search is needed: the shape is the proof.
"""

from jpdref.board import Board
from jpdref.stones import Color

from jpdtools.proof.status import KO, Position, StatusProof


def ko_problem(position: Position, board: Board, point: int, claimer: Color) -> str:
    """What keeps ``point`` from being a ko held by ``claimer`` on ``position`` ("" when it is
    one); ``board`` is ``position.board()``."""
    geometry = position.geometry
    vertex = geometry.to_gtp(point)
    owner = position.stones.get(point)
    if owner is not None:
        return f"{vertex} holds a stone, so it is no unconnected ko point"
    in_atari: list[int] = []
    for n in geometry.neighbours[point]:
        colour = position.stones.get(n)
        if colour is None:
            return f"{vertex} has an empty neighbour {geometry.to_gtp(n)}: it is no ko point"
        if colour is not claimer:
            other = geometry.to_gtp(n)
            return f"{vertex} borders the other side's stone at {other}: it is no ko point of the claimer"
        chain = board.chain[n]
        if chain.libs == {point}:
            in_atari.append(n)
            if len(chain.stones) != 1:
                return (
                    f"the claimer's chain at {geometry.to_gtp(n)} in atari on {vertex} has more than one "
                    "stone: a retake there is no ko capture"
                )
    if not in_atari:
        return f"no stone of the claimer is in atari on {vertex}: there is no ko to retake there"
    if len(in_atari) > 1:
        count = len(in_atari)
        return f"{count} stones of the claimer are in atari on {vertex}: a retake there is no ko capture"
    return ""


def ko_stone(position: Position, board: Board, point: int, claimer: Color) -> int | None:
    """The claimer's stone in atari on the ko point ``point`` (the one a retake there captures), or
    None when ``point`` is no ko held by ``claimer`` (:func:`ko_problem`)."""
    if ko_problem(position, board, point, claimer):
        return None
    return next(n for n in position.geometry.neighbours[point] if board.chain[n].libs == {point})


def ko_claim(position: Position, vertex: str, claimer: str) -> StatusProof:
    """The proof of the claim ``claimer ko vertex``: proven when the point is a ko the claimer
    holds, disproven (with what is wrong) when it is not."""
    point = position.geometry.from_gtp(vertex)
    problem = ko_problem(position, position.board(), point, Color.parse(claimer))
    return StatusProof(KO, ((vertex,),), (), (problem,) if problem else (), claimer)
