"""The JSON Lines export: one record per case × ruleset, fully expanded. {#export.json}

A record carries everything needed to run the case without this repository: the set-up (board
size, stones, side to move, handicap with its fixed points resolved), the history and the moves,
the ruleset's name and its value on every axis, the agreement and counters for counting
(``final``, with the dispute settled by play in ``final.settle``), and the chosen expectation as
typed claims (``count``, ``points`` and ``settle`` included). An
error case (``load-error``) is one record of kind ``load-error``. The record's shape is
``spec/export.schema.json``; :mod:`jpdtools.export.reimport` reads records back.
"""

import json
from collections.abc import Iterable

from jpdref.coords import CoordinateError, Geometry
from jpdref.handicap import HandicapError, fixed_handicap_points
from jpdref.rules import HandicapPlacement, Rules

from jpdtools.export import EXPORT_VERSION, relative_source
from jpdtools.run.runner import PlanItem
from jpdtools.suite.model import (
    Case,
    Claim,
    CountClaim,
    CountVerdict,
    EndVerdict,
    Expectation,
    PointVerdict,
    SettleVerdicts,
    StepVerdict,
    decimal_text,
)
from jpdtools.suite.setup import CaseAction, CaseAgreement, FinalSpec, SettleSpec, Setup


# -- pieces ------------------------------------------------------------------------------------
def action_json(action: CaseAction) -> dict:
    return {"color": action.color, "kind": action.kind, "vertex": action.vertex}


def claim_json(claim: Claim) -> dict:
    return {"kind": claim.kind, "args": list(claim.args)}


def step_json(verdict: StepVerdict) -> dict:
    return {
        "step": verdict.step,
        "open": verdict.is_open,
        "alternatives": [[claim_json(c) for c in alt] for alt in verdict.alternatives],
    }


def end_json(end: EndVerdict | None) -> dict | None:
    return None if end is None else {"state": end.state, "args": list(end.args)}


def _decimal(x) -> str | None:
    return None if x is None else decimal_text(x)


def count_claim_json(claim: CountClaim) -> dict:
    if claim.kind == "error":
        return {"kind": "error", "code": claim.code}
    return {
        "kind": "result",
        "winner": claim.winner,
        "margin": decimal_text(claim.margin),
        "black": _decimal(claim.black),
        "white": _decimal(claim.white),
        "unit": claim.unit,
    }


def count_json(count: CountVerdict | None) -> dict | None:
    if count is None:
        return None
    return {"open": count.is_open, "alternatives": [count_claim_json(c) for c in count.alternatives]}


def point_json(point: PointVerdict) -> dict:
    return {"vertices": list(point.vertices), "owner": point.owner, "why": point.why}


def _claim_json(claim) -> dict:
    return {"color": claim.color, "kind": claim.kind, "vertex": claim.vertex}


def settle_spec_json(settle: SettleSpec | None) -> dict | None:
    """The ``settle:`` key: first mover (null: the side to move), moves, the dispute."""
    if settle is None:
        return None
    return {
        "first": settle.first,
        "moves": [action_json(a) for a in settle.moves],
        "dispute": {"stones": list(settle.stones), "claims": [_claim_json(c) for c in settle.claims]},
    }


def settle_json(settle: SettleVerdicts) -> dict | None:
    """The settling verdicts of an expectation (null when it has none)."""
    if settle.empty:
        return None
    return {
        "steps": [step_json(v) for v in settle.steps],
        "end": end_json(settle.end),
        "settled": None if settle.settled is None else [settle.settled.black, settle.settled.white],
        "proved": [
            {
                "kind": p.kind,
                "vertices": list(p.vertices),
                "claim": None if p.claim is None else _claim_json(p.claim),
            }
            for p in settle.proved
        ],
        "error": settle.error,
    }


def final_json(final: FinalSpec | None) -> dict | None:
    """The agreement (vertex lists, claims) and the counters the case gives (null: not given)."""
    if final is None:
        return None
    a, c = final.agreement, final.counters

    def pair(value):
        return None if value is None else list(value)

    return {
        "agreement": {
            "dead": list(a.dead),
            "seki": list(a.seki),
            "claims": [_claim_json(x) for x in a.claims],
            "dame": list(a.dame),
            "shared": list(a.shared),
        }
        | _owned_json(a),
        "counters": {
            "moves": pair(c.moves),
            "passes": pair(c.passes),
            "virtual": pair(c.virtual),
            "prisoners": pair(c.prisoners),
            "handicap": c.handicap,
            "first-pass": c.first_pass,
            "last-move": c.last_move,
            "settling": pair(c.settling),
        },
        "settle": settle_spec_json(final.settle),
    }


def fixed_points(setup: Setup, rules: Rules) -> list[str]:
    """The handicap stones a fixed placement puts on the board ([] for free or no handicap)."""
    if not setup.handicap or rules.handicap is not HandicapPlacement.FIXED:
        return []
    try:
        geometry = Geometry(setup.width, setup.height)
        return [geometry.to_gtp(p) for p in fixed_handicap_points(geometry, setup.handicap)]
    except (HandicapError, CoordinateError):
        return []  # the case cannot be played; running it says so


def expect_json(case: Case, expectation: Expectation) -> dict:
    return {
        "selector": expectation.selector,
        "text": expectation.text.strip(),
        "steps": [step_json(v) for v in expectation.steps],
        "end": end_json(expectation.end),
        "open": any(v.is_open for v in (*expectation.steps, *expectation.settle.steps))
        or bool(expectation.count and expectation.count.is_open),
        "open_questions": list(case.open),
        "count": count_json(expectation.count),
        "points": [point_json(p) for p in expectation.points],
        "settle": settle_json(expectation.settle),
    }


def _common(item: PlanItem, kind: str) -> dict:
    case = item.case
    where = case.location
    return {
        "version": EXPORT_VERSION,
        "kind": kind,
        "id": case.id,
        "title": case.title,
        "spec": list(case.spec),
        "seeds": list(case.seeds),
        "tags": list(case.tags),
        "note": case.note.strip(),
        **({"zh": {"title": case.zh_title, "note": case.zh_note.strip()}} if case.zh_title else {}),
        "source": {
            "file": relative_source(item.file),
            "line": where.line if where else 0,
            "column": where.column if where else 0,
        },
    }


# -- records -----------------------------------------------------------------------------------
def case_record(item: PlanItem) -> dict:
    """The record of a case under one ruleset (``item.rules`` and ``item.expectation`` set)."""
    case, rules, expectation = item.case, item.rules, item.expectation
    assert rules is not None and expectation is not None and case.setup is not None
    setup = case.setup
    return {
        **_common(item, "case"),
        "depends": list(case.depends),
        "ruleset": {"name": rules.name, "axes": rules.values()},
        "board": {"width": setup.width, "height": setup.height},
        "to_move": setup.to_move,
        "handicap": setup.handicap,
        "handicap_points": fixed_points(setup, rules),
        "setup": [{"vertex": v, "color": c} for v, c in setup.stones],
        "markers": [{"marker": m, "vertex": v} for m, v in setup.markers],
        "history": [action_json(a) for a in case.history],
        "moves": [action_json(a) for a in case.moves],
        "final": final_json(setup.final),
        "expect": expect_json(case, expectation),
    }


def error_record(item: PlanItem) -> dict:
    """The record of an error case: the quoted file and where loading it must fail."""
    spec = item.case.load_error
    assert spec is not None
    return {
        **_common(item, "load-error"),
        "load_error": {"file": spec.file, "code": spec.code, "line": spec.line, "column": spec.column},
    }


def record(item: PlanItem) -> dict:
    if item.case.is_error_case:
        return error_record(item)
    return case_record(item)


def records_text(items: Iterable[PlanItem]) -> str:
    """JSON Lines: one compact record per line (UTF-8 text, not ASCII-escaped)."""
    return "".join(json.dumps(record(i), ensure_ascii=False) + "\n" for i in items)


def _owned_json(a: CaseAgreement) -> dict:
    """The agreed owners of empty points, only when the case gives any (count.agreement.owned)."""
    out = {}
    if a.black_owns:
        out["black_owns"] = list(a.black_owns)
    if a.white_owns:
        out["white_owns"] = list(a.white_owns)
    return out
