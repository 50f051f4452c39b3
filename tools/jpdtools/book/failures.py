"""The failing items of ``jpd verify``'s HTML report, illustrated with the book's boards.

For an item that failed (or errored, or passed unexpectedly) :func:`illustrator` gives the report
the position with the moves numbered on it, the board the program showed after each step next to
the board the reference implementation shows (expected), the clause deciding the first step that
differs (and the ending, if that differs), the seed articles the case cites, and the commands that
reproduce it. The report itself (:mod:`jpdtools.verify.report_html`) knows nothing of SVG: the
``jpd verify`` command hands it this illustrator.
"""

import shlex
from collections.abc import Callable, Sequence

from jpdtools.book.boards import step_pictures
from jpdtools.book.page import esc
from jpdtools.book.svg import Picture, board_svg
from jpdtools.review.anchors import Anchor
from jpdtools.review.explanation import deciding_clause, ending_clause, setup_rows
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.runner import PlanItem
from jpdtools.verify.verification import Outcome, VerifyResult

ILLUSTRATED = frozenset(
    {Outcome.UNEXPECTED_FAILURE, Outcome.UNEXPECTED_PASS, Outcome.ERROR, Outcome.EXPECTED_FAILURE}
)
MAX_STEPS = 12


def moves_picture(item: PlanItem) -> Picture:
    """The set-up with each move of the case numbered where it is played (the last number wins)."""
    setup = item.case.setup
    marks: dict[str, str] = {}
    where = dict(setup.markers)
    for n, action in enumerate(item.case.moves, 1):
        vertex = action.vertex
        if action.kind == "move" and vertex:
            vertex = where.get(vertex[1:], vertex) if vertex.startswith("@") else vertex
            marks[vertex] = str(n)
    markers = tuple((label, vertex) for vertex, label in marks.items())
    return Picture(setup_rows(setup), markers=markers, label=f"{item.case.id}: the position and the moves")


def _figure(picture: Picture, caption: str) -> str:
    return f"<figure>{board_svg(picture)}<figcaption>{esc(caption)}</figcaption></figure>"


def _first_difference(result) -> int | None:
    steps = [m.step for m in result.mismatches if m.step is not None]
    return min(steps) if steps else None


def item_html(item: PlanItem, vr: VerifyResult, impl: str, anchors: dict[str, Anchor]) -> str:
    case = item.case
    if case.setup is None or item.rules is None:
        return ""
    out = ['<div class="illustrated">']
    moves = " ".join(f"{n}. {a}" for n, a in enumerate(case.moves, 1)) or "no moves"
    out.append(f"<figure>{board_svg(moves_picture(item))}<figcaption>{esc(moves)}</figcaption></figure>")
    reference = ReferenceAdapter().observe(case.setup, case.history, case.moves, item.rules)
    observed = vr.result.observation
    virtual = any(a.kind == "virtual" for a in (*case.history, *case.moves))
    ref_pictures = step_pictures(reference.steps, case.setup, case.history, virtual)
    obs_pictures = step_pictures(observed.steps, case.setup, case.history, virtual) if observed else []
    first = _first_difference(vr.result)
    shown = [first] if first is not None else range(1, min(len(case.moves), MAX_STEPS) + 1)
    for n in shown:
        if n <= len(ref_pictures):
            out.append(_figure(ref_pictures[n - 1], f"expected (the reference) after step {n}"))
        if n <= len(obs_pictures):
            out.append(_figure(obs_pictures[n - 1], f"observed ({vr.result.ruleset}) after step {n}"))
    out.append("</div>")
    decisions = []
    if first is not None and first <= len(reference.steps):
        d = deciding_clause(reference.steps[first - 1], case.moves[first - 1].kind, item.rules, anchors)
        decisions.append(f"step {first}: {d.text}" + "".join(f"; {s}" for s in d.sources))
    if any(m.step is None and m.where == "end" for m in vr.result.mismatches) and reference.end is not None:
        d = ending_clause(reference.end, item.rules, anchors)
        if d is not None:
            decisions.append(f"end: {d.text}")
    if decisions:
        out.append("<p>deciding clause: " + "<br>".join(esc(d) for d in decisions) + "</p>")
    if case.seeds:
        out.append("<p>seeds: " + esc("; ".join(case.seeds)) + "</p>")
    rerun = f"jpd verify --impl {shlex.quote(impl)} --id {case.id} --rules {item.ruleset}"
    out.append(f"<pre>jpd explain {esc(case.id)}\n{esc(rerun)}</pre>")
    return "".join(out)


def illustrator(
    items: Sequence[PlanItem], impl: str, anchors: dict[str, Anchor]
) -> Callable[[VerifyResult], str]:
    by_name = {i.name: i for i in items}

    def illustrate(vr: VerifyResult) -> str:
        item = by_name.get(vr.result.name)  # a row given transformed: its case as written
        if item is None or vr.outcome not in ILLUSTRATED:
            return ""
        try:
            return item_html(item, vr, impl, anchors)
        except Exception as err:  # an illustration never costs the report
            return f"<p>(no boards: {esc(type(err).__name__)}: {esc(err)})</p>"

    return illustrate
