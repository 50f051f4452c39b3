"""The messages of the JSON-lines protocol, version 1 (``spec/jsonl-protocol.md``).

One message is one JSON object on one line. :func:`encode` turns a message into that line (no
newline); :func:`decode` parses and validates a line and raises :class:`ProtocolError` with a
one-line reason for anything malformed. Unknown keys are ignored (later minor additions must not
break older harnesses or programs); unknown message types, wrong types and values outside the
closed lists are errors. ``None`` in an observation means "the program cannot tell".
"""

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jpdref.reasons import Reason

PROTOCOL_VERSION = 1

CLAIMS = ("legal", "reason", "captures", "self-captures", "to-move", "board", "end")
ACTIONS = ("move", "pass", "virtual", "resign")
EFFECTS = ("played", "refused", "void-pass", "forfeit")
PHASES = ("handicap", "contest", "halted", "ended")
END_KINDS = ("two-passes", "four-virtual", "resignation", "cycle", "illegal-move")
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
    """Harness → program, once, first: the protocol version the harness speaks."""

    protocol: int = PROTOCOL_VERSION


@dataclass(frozen=True)
class Supports:
    """What a program declares it can play and report (``None``: no restriction)."""

    rulesets: tuple[str, ...] | None = None
    axes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    max_size: int | None = None
    claims: tuple[str, ...] = CLAIMS


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


@dataclass(frozen=True)
class End:
    """The game after the last step (``phase`` None: cannot tell)."""

    phase: str | None = None
    to_move: str | None = None
    kind: str | None = None
    result: str | None = None
    winner: str | None = None


@dataclass(frozen=True)
class Result:
    """Program → harness: the observations of one ``run``."""

    id: str
    steps: tuple[Step, ...] = ()
    end: End | None = None
    initial_board: str | None = None


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
    }


def _end_json(e: End) -> dict:
    return {"phase": e.phase, "to_move": e.to_move, "kind": e.kind, "result": e.result, "winner": e.winner}


def to_json(msg: Message) -> dict:
    """The JSON object of a message."""
    if isinstance(msg, Start):
        return {"type": "start", "protocol": msg.protocol}
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
        }
    if isinstance(msg, Result):
        return {
            "type": "result",
            "id": msg.id,
            "initial_board": msg.initial_board,
            "steps": [_step_json(s) for s in msg.steps],
            "end": None if msg.end is None else _end_json(msg.end),
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
    )


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
        _one_of("claims", claim if isinstance(claim, str) else repr(claim), CLAIMS)
    return Supports(None if rulesets is None else tuple(rulesets), axes, max_size, tuple(claims))


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


def from_json(obj: object) -> Message:
    """The message of a JSON value (raises ProtocolError)."""
    if not isinstance(obj, dict):
        raise ProtocolError("a message must be a JSON object")
    kind = _get(obj, "type", str)
    if kind == "start":
        return Start(_get(obj, "protocol", int))
    if kind == "ready":
        return Ready(
            name=_get(obj, "name", str),
            version=_get(obj, "version", str),
            supports=_supports(obj.get("supports")),
            protocol=_get(obj, "protocol", int),
        )
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
        )
    if kind == "result":
        return Result(
            id=_get(obj, "id", str),
            steps=tuple(_step(s) for s in _get(obj, "steps", list)),
            end=_end(obj.get("end")),
            initial_board=_rows("initial_board", _get(obj, "initial_board", str, default=None)),
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
