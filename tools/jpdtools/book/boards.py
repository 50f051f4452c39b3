"""Pictures of a case's positions from its observations: the set-up, the board after each step,
the counted board. Used by the case pages and by the verify report."""

from jpdtools.book.svg import Picture
from jpdtools.review.explanation import setup_rows
from jpdtools.run.adapters import CountObservation, StepObservation
from jpdtools.suite.setup import CaseAction, Setup

OTHER = {"B": "W", "W": "B"}


def initial_picture(setup: Setup, virtual: bool, label: str = "the initial position") -> Picture:
    """The set-up as the case gives it (stones agreed dead marked), with its marker letters."""
    markers = tuple((letter, v) for letter, v in setup.markers)
    return Picture(setup_rows(setup), markers=markers, virtual=(0, 0) if virtual else None, label=label)


def _vertex(action: str, markers: dict[str, str]) -> str | None:
    _, _, what = action.partition(" ")
    if what in ("pass", "virtual", "resign", ""):
        return None
    return markers.get(what[1:]) if what.startswith("@") else what


def virtual_before(history: tuple[CaseAction, ...]) -> tuple[int, int]:
    b = sum(1 for a in history if a.kind == "virtual" and a.color == "B")
    w = sum(1 for a in history if a.kind == "virtual" and a.color == "W")
    return b, w


def step_pictures(
    steps: tuple[StepObservation, ...],
    setup: Setup,
    history: tuple[CaseAction, ...],
    show_virtual: bool,
) -> list[Picture]:
    """The board after each step: the move just played ringed, the stones it captured (and any
    it self-captured) faded with a capture mark, a refused move marked, virtual stones counted;
    the board after the last step of several numbers every stone the steps placed that still stands."""
    markers = dict(setup.markers)
    vb, vw = virtual_before(history)
    out = []
    numbers: dict[str, int] = {}  # vertex -> the step whose stone stands there (move numbers)
    for n, step in enumerate(steps, 1):
        colour = step.action[:1]
        vertex = _vertex(step.action, markers)
        if step.legal and step.action.endswith(" virtual"):
            vb, vw = (vb + 1, vw) if colour == "B" else (vb, vw + 1)
        captured = tuple((v, OTHER.get(colour, "W")) for v in step.captures)
        captured += tuple((v, colour) for v in step.self_captures)
        played = step.legal and vertex is not None and not step.self_captures
        for v in (*step.captures, *step.self_captures):
            numbers.pop(v, None)
        if played:
            numbers[vertex] = n
        last_of_several = n == len(steps) and len(steps) > 1
        out.append(
            Picture(
                step.board,
                last=vertex if played else None,
                captured=captured,
                virtual=(vb, vw) if show_virtual else None,
                refused=vertex if not step.legal else None,
                label=f"the board after step {n} ({step.action})",
                numbers=tuple(numbers.items()) if last_of_several else (),
            )
        )
    return out


def count_picture(count: CountObservation, halt_rows: str, label: str) -> Picture:
    """The counted board: its stones (filled-back ones included), the stones taken off as dead
    where they stood at the halt (crossed), and every point's owner with the reason."""
    counted = [list(r.replace("b", ".").replace("w", ".").replace("-", ".")) for r in count.board.split("/")]
    halt = halt_rows.split("/") if halt_rows else []
    for y, row in enumerate(counted):
        for x, ch in enumerate(row):
            if ch == "." and y < len(halt) and x < len(halt[y]) and halt[y][x] in "XO":
                row[x] = halt[y][x].lower()
    rows = "/".join("".join(r) for r in counted)
    return Picture(rows, owners=count.points, label=label)
