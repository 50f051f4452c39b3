"""A small-board case on a larger board: the 19×19 variants of the play-phase cases.

An engine that plays only 19×19 (Leela Zero, most strong engines) skips every case on another
board; spec/play.md's clauses must still each be pinned on 19×19 (``jpd lint`` checks it). A
case's diagram is put in the **lower-left corner** of the larger board, where GTP coordinates
stay the same (``A1`` is the lower-left point), so its moves, markers and verdicts keep their
vertices; only each ``board`` claim grows: rows of empty points above, empty points to the
right. :func:`enlarge` is that transformation, nothing more: the verdicts are the small case's,
as its author derived them from the rule text.

The corner keeps two of the small board's edges; the other two open onto empty points, which
can change what happens (a chain with more liberties is not captured). Such a variant is not a
faithful copy and must not be committed: ``conformance/board19.yaml`` holds only variants whose
every verdict the reference implementation also reaches on the larger board (the reference
confirms that the open edges change nothing; it does not supply the verdicts), and
``tests/test_board19.py`` checks that each committed variant is exactly ``enlarge`` of its
source case. Cases that count, settle or place a handicap are not enlarged (the count of a
larger board and the handicap points differ by design). A variant cites the clauses of its
source, not its open questions (those stay pinned by the cases written for them).
"""

from dataclasses import replace

from jpdtools.suite.model import Case, Claim, Expectation, StepVerdict
from jpdtools.suite.setup import Setup

LARGE = 19


def can_enlarge(case: Case, size: int = LARGE) -> bool:
    """Whether ``case`` has a variant on ``size`` × ``size``: a play-phase case on a smaller
    board, without handicap, count or settling."""
    setup = case.setup
    if setup is None or case.is_error_case or setup.handicap or setup.final is not None:
        return False
    if max(setup.width, setup.height) >= size:
        return False
    return all(not e.counts and not e.settles for e in case.expectations)


def enlarged_rows(rows: str, width: int, height: int, size: int = LARGE) -> str:
    """``rows`` (top first, ``/``-separated, ``width`` × ``height``) in the lower-left corner of a
    ``size`` × ``size`` board."""
    lines = rows.split("/")
    if len(lines) != height or any(len(line) != width for line in lines):
        raise ValueError(f"board rows {rows!r} are not {width}x{height}")
    top = ["." * size] * (size - height)
    return "/".join(top + [line + "." * (size - width) for line in lines])


def _claim(claim: Claim, setup: Setup, size: int) -> Claim:
    if claim.kind != "board":
        return claim
    return Claim("board", (enlarged_rows(claim.args[0], setup.width, setup.height, size),))


def _verdict(verdict: StepVerdict, setup: Setup, size: int) -> StepVerdict:
    alternatives = tuple(tuple(_claim(c, setup, size) for c in alt) for alt in verdict.alternatives)
    return replace(verdict, alternatives=alternatives, location=None)


def _expectation(expectation: Expectation, setup: Setup, size: int) -> Expectation:
    steps = tuple(_verdict(v, setup, size) for v in expectation.steps)
    end = None if expectation.end is None else replace(expectation.end, location=None)
    return replace(expectation, steps=steps, end=end, text="", location=None)


def enlarge(case: Case, new_id: str, size: int = LARGE) -> Case:
    """The variant of ``case`` on a ``size`` × ``size`` board (see the module text)."""
    if not can_enlarge(case, size):
        raise ValueError(f"{case.id} cannot be enlarged to {size}x{size}")
    setup = case.setup
    assert setup is not None
    large = Setup(size, size, setup.to_move, setup.stones, setup.markers)
    note = (
        f"The {size}x{size} variant of {case.id}: its diagram in the lower-left corner, the same "
        f"moves and verdicts (board claims grown with empty points). {case.note}".strip()
    )
    zh_note = (
        f"{case.id} 的 {size}路棋盘版本：原图置于左下角，着手与判定相同"
        f"（棋盘断言以空点补足）。{case.zh_note}".strip()
        if case.zh_title
        else ""
    )
    return replace(
        case,
        id=new_id,
        title=f"{case.title} (on {size}x{size})",
        zh_title=f"{case.zh_title}（{size}路棋盘）" if case.zh_title else "",
        zh_note=zh_note,
        spec=tuple(anchor for anchor in case.spec if not anchor.startswith("oq.")),
        tags=tuple(dict.fromkeys((*case.tags, f"board{size}"))),
        depends=(),
        setup=large,
        expectations=tuple(_expectation(e, setup, size) for e in case.expectations),
        note=note,
        location=None,
    )
