"""Reading the JSON Lines export back into plan items (the round trip). {#export.json}

Each record becomes a :class:`~jpdtools.run.runner.PlanItem` holding a one-ruleset
:class:`~jpdtools.suite.model.Case` (its :class:`Setup`, :class:`CaseAction` s and the chosen
:class:`Expectation`) and the :class:`Rules` rebuilt from the record's axis values, so the runner
and the comparator treat it exactly as the item ``jpd run`` planned from the case file. Nothing
here needs the presets: a record is self-contained.

A malformed line or record is an :class:`InputError` naming the file, the line and the field.
"""

import json
from fractions import Fraction
from pathlib import Path

from jpdref.rules import Rules, RulesError

from jpdtools.errors import InputError, Location, read_text_file
from jpdtools.run.runner import Plan, PlanItem
from jpdtools.suite.model import (
    Case,
    Claim,
    CountClaim,
    CountVerdict,
    EndVerdict,
    Expectation,
    LoadErrorSpec,
    PointVerdict,
    ProofVerdict,
    SettledVerdict,
    SettleVerdicts,
    StepVerdict,
)
from jpdtools.suite.setup import (
    CaseAction,
    CaseAgreement,
    CaseClaim,
    CaseCounters,
    FinalSpec,
    SettleSpec,
    Setup,
)


class _Fields:
    """Typed access to one record's fields; every problem names the line and the field."""

    def __init__(self, where: Location) -> None:
        self.where = where

    def fail(self, path: str, what: str) -> InputError:
        return InputError(f"record field {path!r}: {what}", self.where)

    def get(self, obj, key: str, kind, path: str = ""):
        path = f"{path}.{key}" if path else key
        if not isinstance(obj, dict) or key not in obj:
            raise self.fail(path, "missing")
        value = obj[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if not ok:
            raise self.fail(path, f"expected {getattr(kind, '__name__', kind)}, got {type(value).__name__}")
        return value

    def strings(self, obj, key: str, path: str = "") -> tuple[str, ...]:
        items = self.get(obj, key, list, path)
        if not all(isinstance(i, str) for i in items):
            raise self.fail(f"{path}.{key}" if path else key, "expected a list of strings")
        return tuple(items)

    def optional_str(self, obj, key: str, path: str = "") -> str | None:
        value = obj.get(key) if isinstance(obj, dict) else None
        if value is not None and not isinstance(value, str):
            raise self.fail(f"{path}.{key}" if path else key, "expected a string or null")
        return value


def _action(f: _Fields, obj, path: str) -> CaseAction:
    return CaseAction(
        f.get(obj, "color", str, path),
        f.get(obj, "kind", str, path),
        f.optional_str(obj, "vertex", path),
    )


def _claims(f: _Fields, items, path: str) -> tuple[Claim, ...]:
    if not isinstance(items, list):
        raise f.fail(path, "expected a list of claims")
    return tuple(Claim(f.get(c, "kind", str, path), f.strings(c, "args", path)) for c in items)


def _steps(f: _Fields, obj, path: str) -> tuple[StepVerdict, ...]:
    steps = []
    for n, step in enumerate(f.get(obj, "steps", list, path)):
        where = f"{path}.steps[{n}]"
        alternatives = f.get(step, "alternatives", list, where)
        steps.append(
            StepVerdict(
                f.get(step, "step", int, where),
                tuple(_claims(f, alt, f"{where}.alternatives") for alt in alternatives),
            )
        )
    return tuple(steps)


def _end(f: _Fields, obj, path: str) -> EndVerdict | None:
    end = obj.get("end") if isinstance(obj, dict) else None
    if end is None:
        return None
    return EndVerdict(f.get(end, "state", str, f"{path}.end"), f.strings(end, "args", f"{path}.end"))


def _claim(f: _Fields, obj, path: str) -> CaseClaim:
    return CaseClaim(
        f.get(obj, "color", str, path), f.get(obj, "kind", str, path), f.get(obj, "vertex", str, path)
    )


def _settle_verdicts(f: _Fields, obj) -> SettleVerdicts:
    """The ``settle`` of an expectation (null or absent: no settling claim)."""
    if obj is None:
        return SettleVerdicts()
    path = "expect.settle"
    settled = obj.get("settled") if isinstance(obj, dict) else None
    if settled is not None and not (
        isinstance(settled, list) and len(settled) == 2 and all(type(n) is int for n in settled)
    ):
        raise f.fail(f"{path}.settled", "expected [Black, White] or null")
    proved = []
    for n, p in enumerate(f.get(obj, "proved", list, path)):
        where = f"{path}.proved[{n}]"
        claim = p.get("claim") if isinstance(p, dict) else None
        proved.append(
            ProofVerdict(
                f.get(p, "kind", str, where),
                f.strings(p, "vertices", where),
                None if claim is None else _claim(f, claim, f"{where}.claim"),
            )
        )
    return SettleVerdicts(
        _steps(f, obj, path),
        _end(f, obj, path),
        None if settled is None else SettledVerdict(settled[0], settled[1]),
        tuple(proved),
        f.optional_str(obj, "error", path),
    )


def _expectation(f: _Fields, obj) -> Expectation:
    steps = _steps(f, obj, "expect")
    end_verdict = _end(f, obj, "expect")
    points = tuple(
        PointVerdict(
            f.strings(p, "vertices", "expect.points"),
            f.get(p, "owner", str, "expect.points"),
            f.get(p, "why", str, "expect.points"),
        )
        for p in (obj.get("points") or [] if isinstance(obj, dict) else [])
    )
    return Expectation(
        f.get(obj, "selector", str, "expect"),
        tuple(steps),
        end_verdict,
        f.get(obj, "text", str, "expect"),
        count=_count(f, obj.get("count") if isinstance(obj, dict) else None),
        points=points,
        settle=_settle_verdicts(f, obj.get("settle") if isinstance(obj, dict) else None),
    )


def _fraction(f: _Fields, obj, key: str, path: str) -> Fraction | None:
    text = f.optional_str(obj, key, path)
    if text is None:
        return None
    try:
        return Fraction(text)
    except ValueError:
        raise f.fail(f"{path}.{key}", f"not a decimal number: {text!r}") from None


def _count(f: _Fields, obj) -> CountVerdict | None:
    """The ``count`` of an expectation (null or absent: no count claim)."""
    if obj is None:
        return None
    claims = []
    for n, c in enumerate(f.get(obj, "alternatives", list, "expect.count")):
        path = f"expect.count.alternatives[{n}]"
        if f.get(c, "kind", str, path) == "error":
            claims.append(CountClaim("error", code=f.get(c, "code", str, path)))
            continue
        margin = _fraction(f, c, "margin", path)
        if margin is None:
            raise f.fail(f"{path}.margin", "missing")
        claims.append(
            CountClaim(
                "result",
                f.get(c, "winner", str, path),
                margin,
                _fraction(f, c, "black", path),
                _fraction(f, c, "white", path),
                f.optional_str(c, "unit", path),
            )
        )
    return CountVerdict(tuple(claims))


def _final(f: _Fields, obj) -> FinalSpec | None:
    """The record's ``final`` (null or absent: the case says nothing about counting)."""
    if obj is None:
        return None
    a = f.get(obj, "agreement", dict, "final")
    path = "final.agreement"
    claims = tuple(_claim(f, c, path) for c in f.get(a, "claims", list, path))
    agreement = CaseAgreement(
        f.strings(a, "dead", path),
        f.strings(a, "seki", path),
        claims,
        f.strings(a, "dame", path),
        f.strings(a, "shared", path),
        f.strings(a, "black_owns", path) if "black_owns" in a else (),
        f.strings(a, "white_owns", path) if "white_owns" in a else (),
    )
    c = f.get(obj, "counters", dict, "final")

    def pair(key: str) -> tuple[int, int] | None:
        value = c.get(key)
        if value is None:
            return None
        ok = isinstance(value, list) and len(value) == 2 and all(type(n) is int for n in value)
        if not ok:
            raise f.fail(f"final.counters.{key}", "expected [Black, White] or null")
        return value[0], value[1]

    handicap = c.get("handicap")
    if handicap is not None and type(handicap) is not int:
        raise f.fail("final.counters.handicap", "expected an integer or null")
    counters = CaseCounters(
        moves=pair("moves"),
        passes=pair("passes"),
        virtual=pair("virtual"),
        prisoners=pair("prisoners"),
        handicap=handicap,
        first_pass=f.optional_str(c, "first-pass", "final.counters"),
        last_move=f.optional_str(c, "last-move", "final.counters"),
        settling=pair("settling"),
    )
    return FinalSpec(agreement, counters, _settle_spec(f, obj.get("settle")))


def _settle_spec(f: _Fields, obj) -> SettleSpec | None:
    """``final.settle`` (null or absent: the case settles nothing by play)."""
    if obj is None:
        return None
    path = "final.settle"
    dispute = f.get(obj, "dispute", dict, path)
    return SettleSpec(
        moves=tuple(_action(f, a, f"{path}.moves") for a in f.get(obj, "moves", list, path)),
        first=f.optional_str(obj, "first", path),
        stones=f.strings(dispute, "stones", f"{path}.dispute"),
        claims=tuple(
            _claim(f, c, f"{path}.dispute") for c in f.get(dispute, "claims", list, f"{path}.dispute")
        ),
    )


def _rules(f: _Fields, obj) -> Rules:
    name = f.get(obj, "name", str, "ruleset")
    axes = f.get(obj, "axes", dict, "ruleset")
    try:
        return Rules.from_mapping(name, {str(k): str(v) for k, v in axes.items()})
    except RulesError as err:
        raise f.fail("ruleset.axes", str(err)) from None


def _zh(f: _Fields, obj) -> dict:
    """The case's Chinese texts from a record's optional ``zh``."""
    if obj is None:
        return {}
    return {"zh_title": f.get(obj, "title", str, "zh"), "zh_note": f.get(obj, "note", str, "zh")}


def item_from_record(data: dict, where: Location) -> PlanItem:
    """The plan item a record describes. Raises InputError (at ``where``) for a bad record."""
    f = _Fields(where)
    source = f.get(data, "source", dict)
    file = f.get(source, "file", str, "source")
    location = Location(file, f.get(source, "line", int, "source"), f.get(source, "column", int, "source"))
    common = {
        "id": f.get(data, "id", str),
        "title": f.get(data, "title", str),
        "spec": f.strings(data, "spec"),
        "seeds": f.strings(data, "seeds"),
        "tags": f.strings(data, "tags"),
        "note": f.get(data, "note", str),
        **_zh(f, data.get("zh")),
        "location": location,
    }
    kind = f.get(data, "kind", str)
    if kind == "load-error":
        spec = f.get(data, "load_error", dict)
        load_error = LoadErrorSpec(
            f.get(spec, "file", str, "load_error"),
            f.get(spec, "code", str, "load_error"),
            f.get(spec, "line", int, "load_error"),
            f.get(spec, "column", int, "load_error"),
        )
        return PlanItem(Case(load_error=load_error, **common), file)
    if kind != "case":
        raise f.fail("kind", f"expected 'case' or 'load-error', got {kind!r}")
    board = f.get(data, "board", dict)
    setup = Setup(
        width=f.get(board, "width", int, "board"),
        height=f.get(board, "height", int, "board"),
        to_move=f.get(data, "to_move", str),
        stones=tuple(
            (f.get(s, "vertex", str, "setup"), f.get(s, "color", str, "setup"))
            for s in f.get(data, "setup", list)
        ),
        markers=tuple(
            (f.get(m, "marker", str, "markers"), f.get(m, "vertex", str, "markers"))
            for m in f.get(data, "markers", list)
        ),
        handicap=f.get(data, "handicap", int),
        final=_final(f, data.get("final")),
    )
    rules = _rules(f, f.get(data, "ruleset", dict))
    expect = f.get(data, "expect", dict)
    expectation = _expectation(f, expect)
    case = Case(
        rules=(rules.name,),
        depends=f.strings(data, "depends"),
        setup=setup,
        history=tuple(_action(f, a, "history") for a in f.get(data, "history", list)),
        moves=tuple(_action(f, a, "moves") for a in f.get(data, "moves", list)),
        expectations=(expectation,),
        open=f.strings(expect, "open_questions", "expect"),
        **common,
    )
    return PlanItem(case, file, rules, expectation)


def parse_records(text: str, path: str) -> list[tuple[dict, Location]]:
    """The JSON object on every non-blank line of ``text``, with its location."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(f"not JSON: {err.msg}", Location(path, n, err.colno)) from None
        if not isinstance(data, dict):
            raise InputError("a record is a JSON object", Location(path, n, 1))
        out.append((data, Location(path, n, 1)))
    return out


def read_plan(path: Path) -> Plan:
    """Every record of the JSON Lines file ``path`` as a plan, in file order."""
    text = read_text_file(path)
    items = [item_from_record(data, where) for data, where in parse_records(text, str(path))]
    return Plan(tuple(items))
