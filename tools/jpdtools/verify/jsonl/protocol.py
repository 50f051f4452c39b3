"""The messages of the JSON-lines protocol, versions 1, 2 and 3 (``spec/jsonl-protocol.md``).

One message is one JSON object on one line. :func:`encode` turns a message into that line (no
newline); :func:`decode` parses and validates a line and raises :class:`ProtocolError` with a
one-line reason for anything malformed. Unknown keys are ignored (later minor additions must not
break older harnesses or programs); unknown message types, wrong types and values outside the
closed lists are errors. ``None`` in an observation means "the program cannot tell".

Version 2 adds the count and settling by play: ``run.final`` (the agreement, counters and the
dispute to settle, as the case format's :class:`~jpdtools.suite.setup.FinalSpec`), and
``result.count`` / ``result.settle`` (:class:`Count`, :class:`Settle`). Numbers that may be
fractions travel as strings (``"3.5"``, ``"7/2"``). Version 3 adds ``ready.supports.features``:
the rule features the program has (:data:`jpdtools.run.features.FEATURES`; absent or null: all).
Version 4 adds ``supports.sizes`` (the board sides it plays), the claim ``count-result`` (a count
as winner and margin only) and ``step.reasons`` (every reason code true of a refusal).
"""

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from jpdref.reasons import Reason

from jpdtools.run.features import FEATURES
from jpdtools.suite.setup import CaseAction, CaseAgreement, CaseClaim, CaseCounters, FinalSpec, SettleSpec

PROTOCOL_VERSION = 1  # the oldest version: start.protocol
PROTOCOL_VERSIONS = (1, 2, 3, 4)  # every version this side speaks: start.protocols
FEATURES_VERSION = 3  # the first version with supports.features
SIZES_VERSION = 4  # the first version with supports.sizes, count-result and step.reasons

CLAIMS = ("legal", "reason", "captures", "self-captures", "to-move", "board", "end")
COUNT_CLAIMS = ("count", "points", "settle")  # version 2
RESULT_CLAIMS = ("count-result",)  # version 4: a count as winner and margin only
ALL_CLAIMS = CLAIMS + COUNT_CLAIMS + RESULT_CLAIMS
WINNERS = ("B", "W", "draw")
OWNERS = ("B", "W", "none")
ACTIONS = ("move", "pass", "virtual", "resign")
EFFECTS = ("played", "refused", "void-pass", "forfeit")
PHASES = ("handicap", "contest", "halted", "ended")
END_KINDS = ("two-passes", "four-virtual", "two-virtual", "resignation", "cycle", "illegal-move")
RESULTS = ("to-count", "win", "draw", "no-result")
REASONS = tuple(str(r) for r in Reason)
COLOURS = ("B", "W")

_VERTEX = re.compile(r"^[A-HJ-Z][1-9][0-9]?$")
_ROWS = re.compile(r"^[XO.]+(/[XO.]+)*$")


class ProtocolError(ValueError):
    """A line that is not a valid message. ``str(err)`` is a one-line reason."""


# -- messages ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Start:
    """Harness → program, once, first: the oldest protocol version the harness speaks, and all
    of them (``protocols``; empty: ``protocol`` only, as a version 1 harness sent)."""

    protocol: int = PROTOCOL_VERSION
    protocols: tuple[int, ...] = ()

    def offered(self) -> tuple[int, ...]:
        return self.protocols or (self.protocol,)


@dataclass(frozen=True)
class Supports:
    """What a program declares it can play and report (``None``: no restriction)."""

    rulesets: tuple[str, ...] | None = None
    axes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    max_size: int | None = None
    claims: tuple[str, ...] = CLAIMS
    features: tuple[str, ...] | None = None  # version 3: the rule features it has (None: all)
    sizes: tuple[int, ...] | None = None  # version 4: the board sides it plays (None: any)


@dataclass(frozen=True)
class Ready:
    """Program → harness, the answer to ``start``."""

    name: str
    version: str
    supports: Supports = field(default_factory=Supports)
    protocol: int = PROTOCOL_VERSION


@dataclass(frozen=True)
class Act:
    """One action: ``action`` is move | pass | virtual | resign; ``vertex`` only for a move."""

    color: str
    action: str
    vertex: str | None = None


@dataclass(frozen=True)
class Run:
    """Harness → program: one case under one ruleset, fully expanded."""

    id: str
    ruleset: str
    rules: Mapping[str, str]
    width: int
    height: int
    to_move: str = "B"
    handicap: int = 0
    stones: tuple[tuple[str, str], ...] = ()  # ((vertex, colour), ...)
    history: tuple[Act, ...] = ()
    moves: tuple[Act, ...] = ()
    case: str = ""
    final: FinalSpec | None = None  # version 2: count (and settle) the position after ``moves``


@dataclass(frozen=True)
class Step:
    """What the program did with one action of ``moves``; ``None`` anywhere: cannot tell."""

    legal: bool | None = None
    effect: str | None = None
    reason: str | None = None
    captures: tuple[str, ...] | None = None
    self_captures: tuple[str, ...] | None = None
    to_move: str | None = None
    board: str | None = None
    reasons: tuple[str, ...] = ()  # version 4: every reason code true of the refusal (a set)


@dataclass(frozen=True)
class End:
    """The game after the last step (``phase`` None: cannot tell)."""

    phase: str | None = None
    to_move: str | None = None
    kind: str | None = None
    result: str | None = None
    winner: str | None = None


@dataclass(frozen=True)
class Count:
    """Version 2: the count of the position after the last step (or ``error``, a refusal code)."""

    method: str | None = None
    winner: str | None = None
    margin: Fraction | None = None
    black: Fraction | None = None
    white: Fraction | None = None
    unit: str | None = None
    komi: Fraction | None = None
    points: tuple[tuple[str, str, str], ...] | None = None  # (vertex, owner, why)
    error: str | None = None
    message: str = ""


@dataclass(frozen=True)
class Settle:
    """Version 2: the settling stage as the program played it (or ``error``, a refusal code)."""

    procedure: str | None = None
    steps: tuple[Step, ...] = ()
    end: End | None = None
    settled: tuple[int, int] | None = None
    captured: tuple[str, ...] = ()
    standing: tuple[str, ...] = ()
    upheld: tuple[str, ...] = ()
    rejected: tuple[str, ...] = ()
    error: str | None = None
    message: str = ""


@dataclass(frozen=True)
class Result:
    """Program → harness: the observations of one ``run``."""

    id: str
    steps: tuple[Step, ...] = ()
    end: End | None = None
    initial_board: str | None = None
    count: Count | None = None  # version 2
    settle: Settle | None = None  # version 2


@dataclass(frozen=True)
class Error:
    """Program → harness: the run (or, with ``id`` None, the start) could not be played."""

    id: str | None
    message: str


@dataclass(frozen=True)
class Unsupported:
    """Program → harness: the program declines this run (it becomes a skip, never a pass)."""

    id: str
    reason: str


@dataclass(frozen=True)
class Stop:
    """Harness → program: exit now."""


Message = Start | Ready | Run | Result | Error | Unsupported | Stop


# -- encoding ----------------------------------------------------------------------------------


def _act_json(a: Act) -> dict:
    out: dict[str, Any] = {"color": a.color, "action": a.action}
    if a.vertex is not None:
        out["vertex"] = a.vertex
    return out


def _step_json(s: Step) -> dict:
    return {
        "legal": s.legal,
        "effect": s.effect,
        "reason": s.reason,
        "captures": None if s.captures is None else list(s.captures),
        "self_captures": None if s.self_captures is None else list(s.self_captures),
        "to_move": s.to_move,
        "board": s.board,
        **({"reasons": list(s.reasons)} if s.reasons else {}),
    }


def _end_json(e: End) -> dict:
    return {"phase": e.phase, "to_move": e.to_move, "kind": e.kind, "result": e.result, "winner": e.winner}


def _number(x: Fraction | None) -> str | None:
    if x is None:
        return None
    return str(x.numerator) if x.denominator == 1 else (decimal if (decimal := _decimal(x)) else str(x))


def _decimal(x: Fraction) -> str | None:
    """``x`` as an exact decimal (``"3.5"``, ``"-0.25"``), or None when it has none."""
    d = x.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return None
    places = max(twos, fives)
    scaled = abs(x.numerator) * 10**places // x.denominator
    sign = "-" if x < 0 else ""
    return f"{sign}{scaled // 10**places}.{scaled % 10**places:0{places}d}"


def _agreement_json(a: CaseAgreement) -> dict:
    return (
        {
            "dead": list(a.dead),
            "seki": list(a.seki),
            "dame": list(a.dame),
            "shared": list(a.shared),
            "claims": [_claim_json(c) for c in a.claims],
        }
        | ({"black_owns": list(a.black_owns)} if a.black_owns else {})
        | ({"white_owns": list(a.white_owns)} if a.white_owns else {})
    )


def _claim_json(c: CaseClaim) -> dict:
    return {"color": c.color, "kind": c.kind, "vertex": c.vertex}


def _counters_json(c: CaseCounters) -> dict:
    def pair(value):
        return None if value is None else list(value)

    return {
        "moves": pair(c.moves),
        "passes": pair(c.passes),
        "virtual": pair(c.virtual),
        "prisoners": pair(c.prisoners),
        "handicap": c.handicap,
        "first_pass": c.first_pass,
        "last_move": c.last_move,
        "settling": pair(c.settling),
    }


def _case_act_json(a: CaseAction) -> dict:
    return _act_json(Act(a.color, a.kind, a.vertex if a.kind == "move" else None))


def _final_json(f: FinalSpec) -> dict:
    settle = None
    if f.settle is not None:
        settle = {
            "first": f.settle.first,
            "moves": [_case_act_json(a) for a in f.settle.moves],
            "stones": list(f.settle.stones),
            "claims": [_claim_json(c) for c in f.settle.claims],
        }
    return {
        "agreement": _agreement_json(f.agreement),
        "counters": _counters_json(f.counters),
        "settle": settle,
    }


def _count_json(c: Count) -> dict:
    return {
        "method": c.method,
        "winner": c.winner,
        "margin": _number(c.margin),
        "black": _number(c.black),
        "white": _number(c.white),
        "unit": c.unit,
        "komi": _number(c.komi),
        "points": None if c.points is None else [list(p) for p in c.points],
        "error": c.error,
        "message": c.message,
    }


def _settle_json(s: Settle) -> dict:
    return {
        "procedure": s.procedure,
        "steps": [_step_json(step) for step in s.steps],
        "end": None if s.end is None else _end_json(s.end),
        "settled": None if s.settled is None else list(s.settled),
        "captured": list(s.captured),
        "standing": list(s.standing),
        "upheld": list(s.upheld),
        "rejected": list(s.rejected),
        "error": s.error,
        "message": s.message,
    }


def to_json(msg: Message) -> dict:
    """The JSON object of a message."""
    if isinstance(msg, Start):
        out: dict[str, Any] = {"type": "start", "protocol": msg.protocol}
        if msg.protocols:
            out["protocols"] = list(msg.protocols)
        return out
    if isinstance(msg, Ready):
        s = msg.supports
        return {
            "type": "ready",
            "protocol": msg.protocol,
            "name": msg.name,
            "version": msg.version,
            "supports": {
                "rulesets": None if s.rulesets is None else list(s.rulesets),
                "axes": {axis: list(values) for axis, values in s.axes.items()},
                "max_size": s.max_size,
                "claims": list(s.claims),
                **({"features": list(s.features)} if s.features is not None else {}),
                **({"sizes": list(s.sizes)} if s.sizes is not None else {}),
            },
        }
    if isinstance(msg, Run):
        stones: dict[str, list[str]] = {"B": [], "W": []}
        for vertex, colour in msg.stones:
            stones[colour].append(vertex)
        return {
            "type": "run",
            "id": msg.id,
            "case": msg.case,
            "ruleset": msg.ruleset,
            "rules": dict(msg.rules),
            "width": msg.width,
            "height": msg.height,
            "to_move": msg.to_move,
            "handicap": msg.handicap,
            "stones": stones,
            "history": [_act_json(a) for a in msg.history],
            "moves": [_act_json(a) for a in msg.moves],
            **({"final": _final_json(msg.final)} if msg.final is not None else {}),
        }
    if isinstance(msg, Result):
        return {
            "type": "result",
            "id": msg.id,
            "initial_board": msg.initial_board,
            "steps": [_step_json(s) for s in msg.steps],
            "end": None if msg.end is None else _end_json(msg.end),
            **({"count": _count_json(msg.count)} if msg.count is not None else {}),
            **({"settle": _settle_json(msg.settle)} if msg.settle is not None else {}),
        }
    if isinstance(msg, Error):
        return {"type": "error", "id": msg.id, "message": msg.message}
    if isinstance(msg, Unsupported):
        return {"type": "unsupported", "id": msg.id, "reason": msg.reason}
    if isinstance(msg, Stop):
        return {"type": "stop"}
    raise TypeError(f"not a protocol message: {msg!r}")


def encode(msg: Message) -> str:
    """One line of ASCII JSON, without the newline."""
    return json.dumps(to_json(msg), separators=(",", ":"), ensure_ascii=True)


# -- decoding ----------------------------------------------------------------------------------

_MISSING = object()


def _get(obj: Mapping, key: str, kinds: type | tuple[type, ...], *, default: Any = _MISSING) -> Any:
    value = obj.get(key, _MISSING)
    if value is _MISSING:
        if default is _MISSING:
            raise ProtocolError(f"missing key {key!r}")
        return default
    if value is None and default is None:
        return None
    # bool is an int in Python: a boolean is accepted only where a boolean is asked for
    wrong_bool = isinstance(value, bool) and kinds is not bool
    if wrong_bool or not isinstance(value, kinds):
        raise ProtocolError(f"{key!r} must be {_kind_name(kinds)}, not {json.dumps(value)[:40]}")
    return value


def _kind_name(kinds: type | tuple[type, ...]) -> str:
    names = {bool: "a boolean", int: "an integer", str: "a string", list: "a list", dict: "an object"}
    if isinstance(kinds, tuple):
        return " or ".join(names.get(k, k.__name__) for k in kinds)
    return names.get(kinds, kinds.__name__)


def _one_of(key: str, value: str | None, allowed: tuple[str, ...]) -> str | None:
    if value is not None and value not in allowed:
        raise ProtocolError(f"{key!r}: {value!r} is not one of {', '.join(allowed)}")
    return value


def _vertex(key: str, value: object) -> str:
    if not isinstance(value, str) or not _VERTEX.match(value.upper()):
        raise ProtocolError(f"{key!r}: {json.dumps(value)[:40]} is not a GTP vertex")
    return value.upper()


def _vertices(obj: Mapping, key: str) -> tuple[str, ...] | None:
    values = _get(obj, key, list, default=None)
    if values is None:
        return None
    return tuple(sorted({_vertex(key, v) for v in values}, key=lambda v: (v[0], int(v[1:]))))


def _rows(key: str, value: str | None) -> str | None:
    if value is None:
        return None
    rows = value.replace("+", ".").upper()
    if not _ROWS.match(rows):
        raise ProtocolError(f"{key!r}: {value[:40]!r} is not board rows (X O . separated by /)")
    return rows


def _act(obj: object) -> Act:
    if not isinstance(obj, dict):
        raise ProtocolError("an action must be an object")
    color = _one_of("color", _get(obj, "color", str), COLOURS)
    action = _one_of("action", _get(obj, "action", str), ACTIONS)
    vertex = _get(obj, "vertex", str, default=None)
    if action == "move":
        vertex = _vertex("vertex", vertex)
    elif vertex is not None:
        raise ProtocolError(f"a {action} names no vertex")
    assert color is not None and action is not None
    return Act(color, action, vertex)


def _step(obj: object) -> Step:
    if not isinstance(obj, dict):
        raise ProtocolError("a step must be an object")
    return Step(
        legal=_get(obj, "legal", bool, default=None),
        effect=_one_of("effect", _get(obj, "effect", str, default=None), EFFECTS),
        reason=_one_of("reason", _get(obj, "reason", str, default=None), REASONS),
        captures=_vertices(obj, "captures"),
        self_captures=_vertices(obj, "self_captures"),
        to_move=_one_of("to_move", _get(obj, "to_move", str, default=None), COLOURS),
        board=_rows("board", _get(obj, "board", str, default=None)),
        reasons=_reasons(obj),
    )


def _reasons(obj: Mapping) -> tuple[str, ...]:
    reasons = _get(obj, "reasons", list, default=None) or []
    for reason in reasons:
        _one_of("reasons", reason if isinstance(reason, str) else repr(reason), REASONS)
    return tuple(dict.fromkeys(reasons))


def _end(obj: object) -> End | None:
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise ProtocolError("'end' must be an object or null")
    return End(
        phase=_one_of("phase", _get(obj, "phase", str, default=None), PHASES),
        to_move=_one_of("to_move", _get(obj, "to_move", str, default=None), COLOURS),
        kind=_one_of("kind", _get(obj, "kind", str, default=None), END_KINDS),
        result=_one_of("result", _get(obj, "result", str, default=None), RESULTS),
        winner=_one_of("winner", _get(obj, "winner", str, default=None), COLOURS),
    )


def _supports(obj: object) -> Supports:
    if obj is None:
        return Supports()
    if not isinstance(obj, dict):
        raise ProtocolError("'supports' must be an object")
    rulesets = _get(obj, "rulesets", list, default=None)
    if rulesets is not None and not all(isinstance(r, str) for r in rulesets):
        raise ProtocolError("'rulesets' must be a list of strings")
    axes_obj = _get(obj, "axes", dict, default=None) or {}
    axes: dict[str, tuple[str, ...]] = {}
    for axis, values in axes_obj.items():
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise ProtocolError(f"axis {axis!r} must map to a list of strings")
        axes[axis] = tuple(values)
    max_size = _get(obj, "max_size", int, default=None)
    claims = _get(obj, "claims", list, default=None)
    if claims is None:
        claims = list(CLAIMS)
    for claim in claims:
        if isinstance(claim, str) and claim.replace("_", "-") in ALL_CLAIMS and "_" in claim:
            raise ProtocolError(
                f"claims: {claim!r} is spelled {claim.replace('_', '-')!r} (claim names use hyphens)"
            )
        _one_of("claims", claim if isinstance(claim, str) else repr(claim), ALL_CLAIMS)
    features = _get(obj, "features", list, default=None)
    if features is not None:
        for feature in features:
            _one_of("features", feature if isinstance(feature, str) else repr(feature), tuple(FEATURES))
        features = tuple(dict.fromkeys(features))
    sizes = _get(obj, "sizes", list, default=None)
    if sizes is not None:
        sides = all(isinstance(n, int) and not isinstance(n, bool) and 2 <= n <= 25 for n in sizes)
        if not sizes or not sides:
            raise ProtocolError(f"'sizes' must be a non-empty list of board sides 2..25, got {sizes!r}")
        sizes = tuple(sorted(set(sizes)))
    rules = None if rulesets is None else tuple(rulesets)
    return Supports(rules, axes, max_size, tuple(claims), features, sizes)


def _stones(obj: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(obj, dict):
        raise ProtocolError('\'stones\' must be an object {"B": [...], "W": [...]}')
    out = []
    for colour in COLOURS:
        values = obj.get(colour, [])
        if not isinstance(values, list):
            raise ProtocolError(f"'stones.{colour}' must be a list")
        out.extend((_vertex(f"stones.{colour}", v), colour) for v in values)
    return tuple(out)


def _fraction(obj: Mapping, key: str) -> Fraction | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ProtocolError(f'{key!r} must be a number or a string like "3.5" or "7/2"')
    try:
        return Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        raise ProtocolError(f"{key!r}: {str(value)[:40]!r} is not a number") from None


def _pair(obj: Mapping, key: str) -> tuple[int, int] | None:
    value = obj.get(key)
    if value is None:
        return None
    ok = isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)
    if not ok:
        raise ProtocolError(f"{key!r} must be a pair of integers [black, white]")
    return (value[0], value[1])


def _claims_of(obj: Mapping, key: str) -> tuple[CaseClaim, ...]:
    out = []
    for c in _get(obj, key, list, default=None) or []:
        if not isinstance(c, dict):
            raise ProtocolError(f"{key!r}: a claim must be an object")
        out.append(
            CaseClaim(
                _one_of("color", _get(c, "color", str), COLOURS) or "",
                _get(c, "kind", str),
                _vertex("vertex", c.get("vertex")),
            )
        )
    return tuple(out)


def _final(obj: object) -> FinalSpec | None:
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise ProtocolError("'final' must be an object or null")
    a = obj.get("agreement") or {}
    c = obj.get("counters") or {}
    if not isinstance(a, dict) or not isinstance(c, dict):
        raise ProtocolError("'final.agreement' and 'final.counters' must be objects")

    def points(key: str) -> tuple[str, ...]:
        return tuple(sorted({_vertex(key, v) for v in _get(a, key, list, default=None) or []}))

    agreement = CaseAgreement(
        points("dead"),
        points("seki"),
        _claims_of(a, "claims"),
        points("dame"),
        points("shared"),
        points("black_owns"),
        points("white_owns"),
    )
    counters = CaseCounters(
        moves=_pair(c, "moves"),
        passes=_pair(c, "passes"),
        virtual=_pair(c, "virtual"),
        prisoners=_pair(c, "prisoners"),
        handicap=_get(c, "handicap", int, default=None),
        first_pass=_one_of("first_pass", _get(c, "first_pass", str, default=None), ("B", "W", "none")),
        last_move=_one_of("last_move", _get(c, "last_move", str, default=None), ("B", "W", "none")),
        settling=_pair(c, "settling"),
    )
    settle = None
    s = obj.get("settle")
    if s is not None:
        if not isinstance(s, dict):
            raise ProtocolError("'final.settle' must be an object or null")
        moves = tuple(_act(m) for m in _get(s, "moves", list, default=None) or [])
        settle = SettleSpec(
            moves=tuple(CaseAction(m.color, m.action, m.vertex) for m in moves),
            first=_one_of("first", _get(s, "first", str, default=None), COLOURS),
            stones=tuple(sorted({_vertex("stones", v) for v in _get(s, "stones", list, default=None) or []})),
            claims=_claims_of(s, "claims"),
        )
    return FinalSpec(agreement, counters, settle)


def _count(obj: object) -> Count | None:
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise ProtocolError("'count' must be an object or null")
    error = _get(obj, "error", str, default=None)
    if error is not None:
        return Count(error=error, message=_get(obj, "message", str, default=None) or "")
    raw_points = _get(obj, "points", list, default=None)
    points = None
    if raw_points is not None:
        found = []
        for p in raw_points:
            if not (isinstance(p, list) and len(p) == 3 and all(isinstance(x, str) for x in p)):
                raise ProtocolError("'points' must be [vertex, owner, why] triples")
            found.append((_vertex("points", p[0]), _one_of("owner", p[1], OWNERS) or "", p[2]))
        points = tuple(found)
    return Count(
        method=_get(obj, "method", str, default=None),
        winner=_one_of("winner", _get(obj, "winner", str, default=None), WINNERS),
        margin=_fraction(obj, "margin"),
        black=_fraction(obj, "black"),
        white=_fraction(obj, "white"),
        unit=_get(obj, "unit", str, default=None),
        komi=_fraction(obj, "komi"),
        points=points,
    )


def _words(obj: Mapping, key: str) -> tuple[str, ...]:
    values = _get(obj, key, list, default=None) or []
    if not all(isinstance(v, str) for v in values):
        raise ProtocolError(f"{key!r} must be a list of strings")
    return tuple(values)


def _settle(obj: object) -> Settle | None:
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise ProtocolError("'settle' must be an object or null")
    error = _get(obj, "error", str, default=None)
    if error is not None:
        return Settle(error=error, message=_get(obj, "message", str, default=None) or "")
    settle = Settle(
        procedure=_get(obj, "procedure", str, default=None),
        steps=tuple(_step(x) for x in _get(obj, "steps", list, default=None) or []),
        end=_end(obj.get("end")),
        settled=_pair(obj, "settled"),
        captured=tuple(sorted({_vertex("captured", v) for v in _words(obj, "captured")})),
        standing=tuple(sorted({_vertex("standing", v) for v in _words(obj, "standing")})),
        upheld=_words(obj, "upheld"),
        rejected=_words(obj, "rejected"),
    )
    both = sorted(set(settle.captured) & set(settle.standing))
    both += sorted(set(settle.upheld) & set(settle.rejected))
    if both:
        named = ", ".join(repr(v) for v in both[:3]) + (" …" if len(both) > 3 else "")
        raise ProtocolError(
            f"'settle' reports {named} both ways (captured and standing, or upheld and rejected): "
            "each stone and claim has one outcome"
        )
    return settle


def from_json(obj: object) -> Message:
    """The message of a JSON value (raises ProtocolError)."""
    if not isinstance(obj, dict):
        raise ProtocolError("a message must be a JSON object")
    kind = _get(obj, "type", str)
    if kind == "start":
        offered = _get(obj, "protocols", list, default=None) or []
        if not all(type(v) is int for v in offered):
            raise ProtocolError("'protocols' must be a list of integers")
        return Start(_get(obj, "protocol", int), tuple(offered))
    if kind == "ready":
        ready = Ready(
            name=_get(obj, "name", str),
            version=_get(obj, "version", str),
            supports=_supports(obj.get("supports")),
            protocol=_get(obj, "protocol", int),
        )
        if ready.supports.features is not None and ready.protocol < FEATURES_VERSION:
            raise ProtocolError(
                f"'supports.features' needs protocol {FEATURES_VERSION} (this ready says protocol "
                f"{ready.protocol}: answer start with protocol {FEATURES_VERSION})"
            )
        later = [k for k in ("sizes",) if getattr(ready.supports, k) is not None]
        later += ["count-result"] if "count-result" in ready.supports.claims else []
        if later and ready.protocol < SIZES_VERSION:
            raise ProtocolError(
                f"{' and '.join(later)} need protocol {SIZES_VERSION} (this ready says protocol "
                f"{ready.protocol}: answer start with protocol {SIZES_VERSION})"
            )
        return ready
    if kind == "run":
        rules = _get(obj, "rules", dict)
        if not all(isinstance(v, str) for v in rules.values()):
            raise ProtocolError("'rules' must map axes to strings")
        return Run(
            id=_get(obj, "id", str),
            ruleset=_get(obj, "ruleset", str),
            rules=rules,
            width=_get(obj, "width", int),
            height=_get(obj, "height", int),
            to_move=_one_of("to_move", _get(obj, "to_move", str, default="B"), COLOURS) or "B",
            handicap=_get(obj, "handicap", int, default=0),
            stones=_stones(obj.get("stones", {})),
            history=tuple(_act(a) for a in _get(obj, "history", list, default=[])),
            moves=tuple(_act(a) for a in _get(obj, "moves", list, default=[])),
            case=_get(obj, "case", str, default=""),
            final=_final(obj.get("final")),
        )
    if kind == "result":
        return Result(
            id=_get(obj, "id", str),
            steps=tuple(_step(s) for s in _get(obj, "steps", list)),
            end=_end(obj.get("end")),
            initial_board=_rows("initial_board", _get(obj, "initial_board", str, default=None)),
            count=_count(obj.get("count")),
            settle=_settle(obj.get("settle")),
        )
    if kind == "error":
        return Error(_get(obj, "id", str, default=None), _get(obj, "message", str))
    if kind == "unsupported":
        return Unsupported(_get(obj, "id", str), _get(obj, "reason", str))
    if kind == "stop":
        return Stop()
    raise ProtocolError(f"unknown message type {kind!r}")


def decode(line: str) -> Message:
    """Parse one line (raises ProtocolError with a one-line reason)."""
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as err:
        raise ProtocolError(f"not JSON: {err}") from None
    return from_json(obj)
