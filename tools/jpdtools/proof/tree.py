"""The move tree of a proof: the first moves of each line, as frozen values. {#count.status}

A tree is read from the prover's side: where the side that the proof is about moves, one move is
enough (the move that works); where its opponent moves, every move it could make is listed with
the answer to it. Lines deeper than the shown depth are cut (``cut``): the search went on, the
tree only keeps what a reader checks in a minute.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class MoveNode:
    """One move of a line: ``color`` plays ``move`` (a GTP vertex or ``pass``); ``note`` says what it
    did (``captures C1 C2``, ``ends: two passes``); ``replies`` are the moves that follow."""

    color: str  # "B" | "W"
    move: str
    note: str = ""
    replies: tuple["MoveNode", ...] = ()
    cut: bool = False  # the line goes on beyond the shown depth

    def lines(self, indent: int = 0) -> list[str]:
        """The tree as indented text lines (for ``jpd lint`` output and tests)."""
        text = f"{'  ' * indent}{self.color} {self.move}"
        if self.note:
            text += f" ({self.note})"
        if self.cut:
            text += " …"
        out = [text]
        for reply in self.replies:
            out.extend(reply.lines(indent + 1))
        return out


def shown(node: MoveNode, depth: int) -> MoveNode:
    """``node`` with its lines cut below ``depth`` plies."""
    if depth <= 1:
        return MoveNode(node.color, node.move, node.note, (), node.cut or bool(node.replies))
    return MoveNode(
        node.color, node.move, node.note, tuple(shown(r, depth - 1) for r in node.replies), node.cut
    )
