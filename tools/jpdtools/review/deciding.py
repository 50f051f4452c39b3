"""Which clauses may decide a step or an ending, and which ruleset axis is involved: the choice of
:mod:`jpdtools.review.explanation`, as plain values, importing nothing (the book's playground runs
it in the page, under Pyodide, beside ``jpdref``).

A part is (candidate anchors, axis or None): the first candidate the specification has is the
clause; the axis's value under the ruleset is named with it.
"""

Part = tuple[tuple[str, ...], str | None]

# reason code → (clause anchors to try, the ruleset axis that decides it)
REASON_CLAUSES: dict[str, Part] = {
    "occupied": (("play.move",), None),
    "off-board": (("board.points",), None),
    "out-of-turn": (("play.turn", "turn.order"), "out-of-turn"),
    "game-over": (("end.halt",), "halt"),
    "pass-not-allowed": (("turn.pass",), "pass"),
    "virtual-not-allowed": (("turn.virtual",), "virtual-move"),
    "handicap-placement": (("setup.handicap",), "handicap"),
    "suicide": (("capture.suicide",), "suicide"),
    "ko": (("rep.simple-ko",), "repetition"),
}
END_CLAUSES: dict[str, Part] = {
    "two-passes": (("end.two-passes", "end.halt"), "halt"),
    "four-virtual": (("end.four-virtual", "end.halt"), "halt"),
    "two-virtual": (("count.settling.art-2", "end.kinds"), None),
    "cycle": (("end.cycle",), "cycle"),
    "resignation": (("end.resignation", "end.kinds"), None),
    "illegal-move": (("play.illegal",), "illegal-move"),
}


def step_parts(
    legal: bool,
    reason: str | None,
    effect: str,
    kind: str,
    captures: bool,
    self_captures: bool,
    repetition: str,
) -> list[Part]:
    """The parts deciding a step: its legality and reason, the effect of a refusal, the action's
    kind and what it removed; ``repetition`` is the ruleset's repetition value."""
    if not legal and reason:
        if reason == "superko":
            parts = [((f"rep.{repetition}", "rep.rules"), "repetition")]
        else:
            parts = [REASON_CLAUSES.get(reason, ((f"play.{reason}",), None))]
        if effect in ("void-pass", "forfeit") and reason != "out-of-turn":
            # the illegal-move policy; acting out of turn is never subject to it (play.turn)
            parts.append((("play.illegal",), "illegal-move"))
        return parts
    if kind == "move" and self_captures:
        return [(("capture.suicide",), "suicide")]
    if kind == "move" and captures:
        return [(("capture.order", "capture.rule", "play.move"), None)]
    if kind == "move":
        return [(("play.move",), None)]
    if kind == "pass":
        return [(("turn.pass",), "pass")]
    if kind == "virtual":
        return [(("turn.virtual",), "virtual-move")]
    return [(("turn.resign", "end.resignation", "turn.actions"), None)]


def end_parts(kind: str) -> list[Part]:
    """The part deciding an ending of ``kind`` (two-passes, cycle, resignation, …)."""
    return [END_CLAUSES.get(kind, ((f"end.{kind}",), None))]


def every_candidate() -> list[str]:
    """Every anchor a part may name apart from those built from a value (``rep.VALUE``,
    ``play.REASON``, ``end.KIND``): what a page resolving parts without the spec must know of."""
    parts = [*REASON_CLAUSES.values(), *END_CLAUSES.values()]
    parts += [
        (("play.illegal",), None),
        (("capture.suicide",), None),
        (("capture.order", "capture.rule", "play.move"), None),
        (("turn.pass",), None),
        (("turn.virtual",), None),
        (("turn.resign", "end.resignation", "turn.actions"), None),
        (("rep.rules",), None),
    ]
    return sorted({a for candidates, _ in parts for a in candidates})
