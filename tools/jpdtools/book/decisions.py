"""Where each clause decides something, as run: for every case, ruleset and step, the clause that
decides the step (or the ending) by :mod:`jpdtools.review.explanation`, as ``jpd explain`` names it."""

from jpdtools.book.context import Book
from jpdtools.review.explanation import deciding_clause, ending_clause

Decided = dict[str, dict[str, dict[str, list[str]]]]  # clause -> case id -> "step N" | "end" -> rulesets


def decided(book: Book) -> Decided:
    out: Decided = {}
    for record in book.suite.records:
        moves = record.case.moves
        for item, result in zip(record.items, record.results, strict=False):
            obs = result.observation
            if item.rules is None or obs is None or obs.error:
                continue
            found = [
                (f"step {n}", deciding_clause(step, moves[n - 1].kind, item.rules, book.anchors))
                for n, step in enumerate(obs.steps, 1)
            ]
            if obs.end is not None:
                found.append(("end", ending_clause(obs.end, item.rules, book.anchors)))
            for where, decision in found:
                for anchor in decision.anchors if decision is not None else ():
                    places = out.setdefault(anchor, {}).setdefault(record.case.id, {})
                    places.setdefault(where, []).append(item.ruleset)
    return out
