"""Root causes: the failures of a verify run grouped by the first place each item diverges.

After the first step where a program and the suite part ways, every later step of the same item
tends to differ too (a stone that was not captured stays on the board for the rest of the game),
so counting mismatches counts consequences. :func:`root_causes` — the one grouping every report
format uses (text, JSON, HTML, JUnit) — keeps, per item, only its **first divergence**: the
mismatches of its earliest step (play steps first, then the end state, the count, the points,
settling), and of those the primary one (the verdict — legal or the refusal and its effect —
before captures, self-captures, the side to move and the board). Items are grouped by that
mismatch made independent of the case (:func:`cause_key`): the kind of action it diverges at
(``move``, ``pass``, ``virtual``, ``resign``; ``end``, ``count``, … after play), and the expected
and observed claim with the reason and effect kept, vertex sets as "none" or "stones", colours
dropped. One bug is one cause: the clauses deciding its items (:func:`deciding_clause`) and the
cases showing it are listed inside, never split into causes of their own (a count scored for the
wrong side is one cause however many clauses its cases pin). Everything after the first
divergence is a consequence: shown under the item, never counted.

Each :class:`RootCause` has its items smallest first (board area, then number of moves), so
``example`` is the smallest case showing it, with its clauses, seeds and a one-line reproduction
(``VerifyResult.reproduce``) a library author can paste into an issue.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from jpdtools.run.compare import Mismatch, claim_text
from jpdtools.suite.model import Claim, EndVerdict, StepVerdict
from jpdtools.verify.verification import Outcome, VerifyResult

VERDICTS = ("legal", "illegal", "void-pass", "forfeit")
PRIMARY = (*VERDICTS, "captures", "self-captures", "to-move", "board")  # which mismatch of a step leads
PLACES = ("", "end", "count", "point", "settle", "settle-end", "settled", "proved", "load")
REASON_CLAUSE = {
    "suicide": "capture.suicide",
    "ko": "rep.simple-ko",
    "occupied": "play.move",
    "off-board": "board.points",
    "out-of-turn": "play.turn",
    "game-over": "end.halt",
    "pass-not-allowed": "turn.pass",
    "virtual-not-allowed": "turn.virtual",
    "handicap-placement": "setup.handicap",
}
END_CLAUSE = {
    "two-passes": "end.two-passes",
    "four-virtual": "end.four-virtual",
    "resignation": "end.resignation",
    "cycle": "end.cycle",
    "illegal-move": "play.illegal",
}


@dataclass(frozen=True)
class RootCause:
    """Items whose first divergence is the same: ``expected`` vs ``observed`` at ``where`` (the
    action kind — ``move``, ``pass``, … — or ``end``, ``count``, …). ``clauses``: the clauses
    deciding its items, most frequent first; ``items`` smallest first."""

    where: str
    expected: str
    observed: str
    clauses: tuple[str, ...]
    items: tuple[VerifyResult, ...]

    @property
    def count(self) -> int:
        return len(self.items)

    @property
    def example(self) -> VerifyResult:
        return self.items[0]

    @property
    def clause(self) -> str:
        """The clause deciding most of its items."""
        return self.clauses[0] if self.clauses else ""

    @property
    def cases(self) -> tuple[str, ...]:
        """The cases showing it (each once, whatever rulesets it failed under), smallest first."""
        return tuple(dict.fromkeys(r.result.case_id for r in self.items))

    @property
    def title(self) -> str:
        clauses = f" [{', '.join(self.clauses)}]" if self.clauses else ""
        return f"{self.where}: expected {self.expected}, got {self.observed}{clauses}"

    def to_json(self) -> dict:
        ex = self.example
        first, later = split(ex)
        return {
            "where": self.where,
            "expected": self.expected,
            "observed": self.observed,
            "clause": self.clause,
            "clauses": list(self.clauses),
            "count": self.count,
            "cases": list(self.cases),
            "items": [r.name for r in self.items],
            "example": {
                "item": ex.name,
                "board": ex.board,
                "moves": ex.moves,
                "file": ex.result.file,
                "line": ex.result.line,
                "clauses": list(ex.clauses),
                "seeds": list(ex.seeds),
                "first": [str(m) for m in first],
                "consequences": [str(m) for m in later],
                "reproduce": ex.reproduce,
                "transform": ex.transform or None,
            },
        }


def _place(m: Mismatch) -> tuple[int, int]:
    """Where a mismatch is, in play order: steps by number, then the places after play."""
    if m.step is not None and not m.label:
        return (0, m.step)
    label = m.label.split(" ")[0] if m.label else ("end" if m.step is None else "")
    return (1 + (PLACES.index(label) if label in PLACES else len(PLACES)), m.step or 0)


def _kind(item: Claim | EndVerdict | StepVerdict | None) -> str:
    if isinstance(item, Claim):
        return item.kind
    if isinstance(item, StepVerdict):
        return "legal"  # an either-verdict is a verdict
    return "end"


def split(vr: VerifyResult) -> tuple[tuple[Mismatch, ...], tuple[Mismatch, ...]]:
    """An item's mismatches at its first divergence (the primary one first) and the rest (its
    consequences), each in play order."""
    mismatches = sorted(vr.result.mismatches, key=_place)
    if not mismatches:
        return (), ()
    at = _place(mismatches[0])
    first = [m for m in mismatches if _place(m) == at]
    first.sort(
        key=lambda m: PRIMARY.index(_kind(m.expected)) if _kind(m.expected) in PRIMARY else len(PRIMARY)
    )
    return tuple(first), tuple(m for m in mismatches if _place(m) != at)


def _stones(args: tuple[str, ...]) -> str:
    return "none" if not args else "stones"


def normalised(item, other=None) -> str:
    """A claim of a mismatch without what belongs to one case: vertices, colours, rows."""
    if item is None:
        return "nothing"
    if isinstance(item, EndVerdict):
        args = [a for a in item.args if a not in ("B", "W")]
        return " ".join((item.state, *args))
    if isinstance(item, StepVerdict):
        return " | ".join(" ".join(normalised(c) for c in alt) for alt in item.alternatives)
    kind, args = item.kind, item.args
    if kind in VERDICTS:
        return claim_text(item)
    if kind in ("captures", "self-captures"):
        mine = _stones(args)
        if other is not None and isinstance(other, Claim) and other.args and args:
            mine = "other stones"
        return f"{kind} {mine}"
    if kind in ("to-move", "board"):
        return kind if other is None else f"{kind} (other)"
    if kind == "point":
        return " ".join(("point", *args[1:]))
    if kind == "count":
        text = args[0] if args else ""
        return f"count {text}" if text.startswith("error") else "count"
    if kind == "settle":
        text = args[0] if args else ""
        return text.split(" ")[0].rstrip(":") if "error" not in text else text
    return claim_text(item)


def action_kind(m: Mismatch, vr: VerifyResult | None = None) -> str:
    """Where a first divergence is, independent of the case: the kind of the action at a diverging
    step (``move``, ``pass``, ``virtual``, ``resign``; ``step`` when unknown), else the place
    after play (``end``, ``count``, ``point``, ``settle``, …)."""
    if m.step is not None and not m.label:
        actions = vr.actions if vr is not None else ()
        return actions[m.step - 1] if 1 <= m.step <= len(actions) else "step"
    return m.label.split(" ")[0] or "end"


def cause_key(m: Mismatch, vr: VerifyResult | None = None) -> tuple[str, str, str]:
    """(where, expected, observed) of a first divergence, independent of the case."""
    where = action_kind(m, vr)
    expected = normalised(m.expected)
    observed = normalised(m.observed, m.expected) if m.observed is not None else "nothing"
    if expected == observed == "count":
        observed = _count_difference(m.expected.args[0], m.observed.args[0])
    elif observed == expected:  # e.g. two different boards
        observed += " (another)"
    return where, expected, observed


def _count_difference(expected: str, observed: str) -> str:
    """How two count results differ: the winner, else the margin, else the figures or unit."""

    def word(text: str, name: str) -> str:
        words = text.split()
        return words[words.index(name) + 1] if name in words[:-1] else ""

    for name in ("winner", "margin"):
        if word(expected, name) != word(observed, name):
            return f"count with another {name}"
    return "count with other figures"


def deciding_clause(m: Mismatch, vr: VerifyResult) -> str:
    """The clause that decides a first divergence: the rule behind the expected refusal (or,
    where the suite says legal, behind the program's refusal), the capture, the ending, the
    count — the one the case cites when it cites it."""
    axes = dict(vr.axes)
    expected, observed = m.expected, m.observed
    if isinstance(expected, StepVerdict):
        expected = next((c for alt in expected.alternatives for c in alt if c.kind != "legal"), None)
    clause = ""
    if isinstance(expected, Claim) and expected.kind in VERDICTS[1:]:
        if isinstance(observed, Claim) and observed.kind in VERDICTS[1:] and observed.kind != expected.kind:
            clause = "play.illegal"  # refused, but with another policy
        else:
            clause = _reason_clause(expected.args[0] if expected.args else "", axes)
    elif isinstance(expected, Claim) and expected.kind == "legal" and isinstance(observed, Claim):
        clause = _reason_clause(observed.args[0] if observed.args else "", axes) or "play.move"
    elif isinstance(expected, Claim) and expected.kind == "captures":
        clause = "capture.rule"
    elif isinstance(expected, Claim) and expected.kind == "self-captures":
        clause = "capture.suicide"
    elif isinstance(expected, Claim) and expected.kind == "to-move":
        clause = "play.turn"
    elif isinstance(expected, Claim) and expected.kind == "board":
        clause = "capture.rule"
    elif isinstance(expected, EndVerdict):
        kind = expected.args[0] if expected.state != "contest" and expected.args else ""
        if not kind and isinstance(observed, EndVerdict) and observed.args:
            kind = observed.args[0]
        clause = END_CLAUSE.get(kind, "end.halt")
    cited = [c for c in vr.clauses if c.startswith(("count.", "settle."))]
    if not clause and cited:
        clause = cited[0]
    return clause or (vr.clauses[0] if vr.clauses else "")


def _reason_clause(reason: str, axes: dict[str, str]) -> str:
    if reason == "superko":
        return f"rep.{axes.get('repetition', 'rules')}"
    return REASON_CLAUSE.get(reason, "")


def _size(vr: VerifyResult) -> tuple[int, int, str]:
    width, _, height = vr.board.partition("x")
    area = int(width) * int(height) if width.isdigit() and height.isdigit() else 10**6
    return (area, vr.moves, vr.name)


def root_causes(
    results: Iterable[VerifyResult], outcomes: Sequence[Outcome] = (Outcome.UNEXPECTED_FAILURE,)
) -> tuple[RootCause, ...]:
    """The items of ``outcomes`` grouped by their first divergence, most frequent first."""
    groups: dict[tuple[str, str, str], list[VerifyResult]] = {}
    clauses: dict[tuple[str, str, str], dict[str, int]] = {}
    for vr in results:
        if vr.outcome not in outcomes:
            continue
        first, _ = split(vr)
        if first:
            key = cause_key(first[0], vr)
            clause = deciding_clause(first[0], vr)
        else:  # a failure without a mismatch (it has a detail instead)
            key, clause = ("item", vr.result.detail or "a failure", ""), ""
        groups.setdefault(key, []).append(vr)
        tally = clauses.setdefault(key, {})
        if clause:
            tally[clause] = tally.get(clause, 0) + 1
    causes = [
        RootCause(
            where,
            expected,
            observed,
            tuple(sorted(clauses[key], key=lambda c: (-clauses[key][c], c))),
            tuple(sorted(items, key=_size)),
        )
        for key, items in groups.items()
        for where, expected, observed in (key,)
    ]
    return tuple(sorted(causes, key=lambda c: (-c.count, c.title)))
