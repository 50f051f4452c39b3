"""The SGF export: one FF[4] game record per case × ruleset. {#export.sgf}

The root node holds the board (``SZ``, ``W:H`` when not square), the set-up (``AB``/``AW``, the
fixed handicap stones included, ``HA``, ``PL``), ``RU`` (the ruleset's name), ``KM[0]`` and, when
the expected end state is a result, ``RE``; its comment (``C``) holds the title, the ids, the
spec anchors and the whole expected verdict. Every action of ``history`` and then of ``moves`` is
one node: a move ``B[cc]``, a pass ``B[]``; a virtual move — which SGF cannot express — is a pass
node whose comment says "virtual move"; a resignation is a node without a move whose comment says
so. The comment of every ``moves`` node states that step's expected verdict.
"""

from jpdref.coords import Geometry

from jpdtools.export import relative_source
from jpdtools.export.jsonl import fixed_points
from jpdtools.run.compare import claim_text
from jpdtools.run.runner import PlanItem
from jpdtools.suite.model import EndVerdict, StepVerdict
from jpdtools.suite.setup import CaseAction

APPLICATION = "jipingdian:1"
VIRTUAL_NOTE = "virtual move (虚着): SGF has no virtual move, written as a pass"


def escape(text: str) -> str:
    """An SGF Text/SimpleText value: backslash and ``]`` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def prop(name: str, *values: str) -> str:
    return name + "".join(f"[{escape(v)}]" for v in values)


def result_of(end: EndVerdict | None) -> str | None:
    """The ``RE`` value of an expected end state that is a result (None: no result yet)."""
    if end is None or end.state != "ended":
        return None
    what, who = end.args
    if what == "resignation":
        return f"{who}+R"
    if what == "illegal-move":
        return f"{who}+F"
    return "0" if who == "draw" else "Void"


def _root_comment(item: PlanItem) -> str:
    case, rules, expectation = item.case, item.rules, item.expectation
    assert rules is not None and expectation is not None
    where = case.location
    lines = [
        case.title,
        f"case: {case.id}",
        f"ruleset: {rules.name} (expectation chosen by: {expectation.selector})",
        "axes: " + " ".join(f"{a}={v}" for a, v in rules.values().items()),
        "spec: " + ", ".join(case.spec),
    ]
    if case.seeds:
        lines.append("seeds: " + "; ".join(case.seeds))
    if case.open:
        lines.append("open questions: " + ", ".join(case.open))
    lines += ["", "expected:", expectation.text.strip() or "(nothing)", ""]
    lines.append(f"source: {relative_source(item.file)}:{where.line if where else 0}")
    if case.note.strip():
        lines += ["", case.note.strip()]
    return "\n".join(lines)


def _step_comment(n: int, action: CaseAction, verdict: StepVerdict | None, case_open: tuple) -> str:
    head = f"step {n}: {action}"
    if verdict is None:
        return f"{head}\nexpected: (no claim)"
    text = claim_text(verdict)
    if verdict.is_open:
        oq = ", ".join(case_open) or "open"
        return f"{head}\nexpected, either ({oq}): {text}"
    return f"{head}\nexpected: {text}"


def _node(action: CaseAction, geometry: Geometry, comment: str) -> str:
    if action.kind == "move" and action.vertex:
        return (
            ";" + prop(action.color, geometry.to_sgf(geometry.from_gtp(action.vertex))) + prop("C", comment)
        )
    if action.kind == "pass":
        return ";" + prop(action.color, "") + prop("C", comment)
    if action.kind == "virtual":
        return ";" + prop(action.color, "") + prop("C", f"{VIRTUAL_NOTE}\n{comment}")
    who = "Black" if action.color == "B" else "White"
    return ";" + prop("C", f"{who} resigns ({action.color} resign)\n{comment}")


def sgf_text(item: PlanItem) -> str:
    """The SGF game record of a case under one ruleset."""
    case, rules, expectation = item.case, item.rules, item.expectation
    assert rules is not None and expectation is not None and case.setup is not None
    setup = case.setup
    geometry = Geometry(setup.width, setup.height)
    size = str(setup.width) if setup.width == setup.height else f"{setup.width}:{setup.height}"
    handicap_points = fixed_points(setup, rules)
    black = [v for v, c in setup.stones if c == "B"] + handicap_points
    white = [v for v, c in setup.stones if c == "W"]
    to_move = "W" if handicap_points else setup.to_move
    root = [prop("FF", "4"), prop("GM", "1"), prop("CA", "UTF-8"), prop("AP", APPLICATION), prop("SZ", size)]
    root += [prop("GN", f"{case.id} [{rules.name}]"), prop("RU", rules.name), prop("KM", "0")]
    if setup.handicap:
        root.append(prop("HA", str(setup.handicap)))
    result = result_of(expectation.end)
    if result:
        root.append(prop("RE", result))
    if black:
        root.append(prop("AB", *(geometry.to_sgf(geometry.from_gtp(v)) for v in black)))
    if white:
        root.append(prop("AW", *(geometry.to_sgf(geometry.from_gtp(v)) for v in white)))
    root += [prop("PL", to_move), prop("C", _root_comment(item))]
    nodes = ["(;" + "".join(root)]
    total = len(case.history)
    for n, action in enumerate(case.history, 1):
        nodes.append(_node(action, geometry, f"history {n}/{total}: {action} (must be accepted)"))
    verdicts = {v.step: v for v in expectation.steps}
    for n, action in enumerate(case.moves, 1):
        comment = _step_comment(n, action, verdicts.get(n), case.open)
        if n == len(case.moves) and expectation.end is not None:
            comment += f"\nafter the last step: {claim_text(expectation.end)}"
        nodes.append(_node(action, geometry, comment))
    return "\n".join(nodes) + ")\n"
