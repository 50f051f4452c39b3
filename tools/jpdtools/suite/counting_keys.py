"""Loading the counting keys of a case: ``agreement:`` and ``counters:``. {#format.agreement}

Split from :mod:`jpdtools.suite.loader` to keep it small; the loader calls :func:`load_agreement` and
:func:`load_counters` with its context. Every problem is an :class:`InputError` located in the
case file: a malformed text is ``bad-agreement`` (or ``schema`` for the YAML shape), a vertex off
the board ``unknown-vertex``, a marker not in the diagram ``unknown-marker``, and — when the
case counts its set-up position as it stands (no history, no moves) — a mark that does not fit
the position ``bad-agreement``. :func:`load_settle` reads the ``settle:`` key (a dispute settled by
play, spec/case-format.md#format.settle); its move list is read by the loader's ``actions``.
"""

from collections.abc import Callable

from jpdref.coords import CoordinateError, Geometry

from jpdtools.errors import InputError, Location
from jpdtools.suite.setup import (
    COUNTER_KEYS,
    COUNTER_PAIRS,
    CaseAgreement,
    CaseClaim,
    CaseCounters,
    SettleSpec,
    Setup,
)
from jpdtools.yamlsrc import LocDict, LocList, LocStr

AGREEMENT_KEYS = ("dead", "seki", "claims", "dame", "shared", "black-owns", "white-owns")
SETTLE_KEYS = ("first", "moves", "dispute")
DISPUTE_KEYS = ("stones", "claims")
_SIDES = ("B", "W", "none")


class _Where:
    """What the loader's context offers: locations of keys and values, embedded positions."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx

    def fail(self, code: str, message: str, where: Location) -> InputError:
        return InputError(message, where, code=code)

    def value(self, mapping: LocDict, key: str) -> Location:
        return self.ctx.value(mapping, key)

    def key(self, mapping: LocDict, key: str) -> Location:
        return self.ctx.key(mapping, key)

    def place(self, value: LocStr) -> Callable[[int, int], Location]:
        return self.ctx.place(value)

    def check_keys(self, mapping: LocDict, allowed, what: str) -> None:
        for key in mapping:
            if not isinstance(key, str) or key not in allowed:
                where = self.key(mapping, key) if isinstance(key, str) else self.ctx.source.at(mapping)
                raise self.fail(
                    "schema", f"unknown key {key!r} in {what} (expected: {', '.join(allowed)})", where
                )


# -- agreement --------------------------------------------------------------------------------
def load_agreement(item: LocDict, ctx, setup: Setup, diagram_dead: tuple[str, ...], counts_setup: bool):
    """The case's agreement: the diagram's ``x``/``o`` marks plus the ``agreement:`` key.

    ``counts_setup``: the case has no history and no moves, so the agreement talks about the
    set-up position itself and is checked against it.
    """
    w = _Where(ctx)
    geometry = Geometry(setup.width, setup.height)
    markers = dict(setup.markers)
    lists: dict[str, list[tuple[str, Location]]] = {k: [] for k in AGREEMENT_KEYS if k != "claims"}
    claims: list[CaseClaim] = []
    table = item.get("agreement")
    if "agreement" in item and table is not None:
        if not isinstance(table, LocDict):
            raise w.fail(
                "schema",
                "'agreement' is a mapping: " + ", ".join(AGREEMENT_KEYS),
                w.value(item, "agreement"),
            )
        w.check_keys(table, AGREEMENT_KEYS, "'agreement'")
        for key in lists:
            lists[key] = _vertex_items(table, key, w, geometry, markers)
        claims = _claims(table, w, geometry, markers)
    dead = {v for v in diagram_dead}
    dead.update(v for v, _ in lists["dead"])
    agreement = CaseAgreement(
        dead=_sorted(dead),
        seki=_sorted(v for v, _ in lists["seki"]),
        claims=tuple(sorted(claims, key=lambda c: (_order(c.vertex), c.color, c.kind))),
        dame=_sorted(v for v, _ in lists["dame"]),
        shared=_sorted(v for v, _ in lists["shared"]),
        black_owns=_sorted(v for v, _ in lists["black-owns"]),
        white_owns=_sorted(v for v, _ in lists["white-owns"]),
    )
    _check_claims_once(claims, w)
    if counts_setup:
        _check_against(setup, geometry, lists, claims, w, agreement.dead)
    return agreement


def _order(vertex: str) -> tuple[str, int]:
    return vertex[0], int(vertex[1:])


def _sorted(vertices) -> tuple[str, ...]:
    return tuple(sorted(set(vertices), key=_order))


def _texts(table: LocDict, key: str, w: _Where) -> list[LocStr]:
    """The strings of a key whose value is one string or a list of strings."""
    value = table.get(key)
    if value is None:
        return []
    if isinstance(value, LocStr):
        return [value]
    if not isinstance(value, LocList):
        raise w.fail("schema", f"'{key}' is a string or a list of strings", w.value(table, key))
    items = value
    for text in items:
        if not isinstance(text, LocStr):
            raise w.fail(
                "schema",
                f"every item of '{key}' must be a string",
                w.ctx.source.at(text, w.value(table, key)),
            )
    return list(items)


def _resolve(vertex: str, where: Location, w: _Where, geometry: Geometry, markers: dict[str, str]) -> str:
    if vertex.startswith("@"):
        if vertex[1:] not in markers:
            known = ", ".join("@" + m for m in markers) or "none"
            raise w.fail("unknown-marker", f"marker {vertex} is not in the diagram (markers: {known})", where)
        return markers[vertex[1:]]
    try:
        return geometry.to_gtp(geometry.from_gtp(vertex))
    except CoordinateError as err:
        raise w.fail("unknown-vertex", str(err), where) from None


def _vertex_items(table: LocDict, key: str, w: _Where, geometry, markers) -> list[tuple[str, Location]]:
    out = []
    for text in _texts(table, key, w):
        for vertex, where in w.ctx.dsl.parse_vertex_list(text, w.place(text)):
            out.append((_resolve(vertex, where, w, geometry, markers), where))
    return out


def _claims(table: LocDict, w: _Where, geometry, markers) -> list[CaseClaim]:
    out = []
    for text in _texts(table, "claims", w):
        claim = w.ctx.dsl.parse_agreement_claim(text, w.place(text))
        where = claim.location or w.value(table, "claims")
        vertex = _resolve(claim.vertex, where, w, geometry, markers)
        out.append(CaseClaim(claim.color, claim.kind, vertex, where))
    return out


def _check_claims_once(claims: list[CaseClaim], w: _Where) -> None:
    seen: set[str] = set()
    for claim in claims:
        if claim.vertex in seen:
            raise w.fail("bad-agreement", f"{claim.vertex} is claimed twice", claim.location)
        seen.add(claim.vertex)


def _chain(geometry: Geometry, colour: dict[int, str], start: int) -> set[int]:
    chain, stack = {start}, [start]
    while stack:
        for q in geometry.neighbours[stack.pop()]:
            if q not in chain and colour.get(q) == colour[start]:
                chain.add(q)
                stack.append(q)
    return chain


def _check_against(setup: Setup, geometry: Geometry, lists, claims: list[CaseClaim], w: _Where, dead) -> None:
    """Marks that cannot fit the position they talk about (the set-up, counted as it stands)."""
    colour = {geometry.from_gtp(v): c for v, c in setup.stones}
    for key, what in (("dead", "dead-stone"), ("seki", "seki")):
        for vertex, where in lists[key]:
            if geometry.from_gtp(vertex) not in colour:
                raise w.fail("bad-agreement", f"a {what} mark on the empty point {vertex}", where)
    for key, what in (("dame", "dame"), ("shared", "shared-liberty"), ("black-owns", "black-owns"),
                      ("white-owns", "white-owns")):  # fmt: skip
        for vertex, where in lists[key]:
            if geometry.from_gtp(vertex) in colour:
                raise w.fail("bad-agreement", f"a {what} mark on the stone at {vertex}", where)
    for claim in claims:
        if geometry.from_gtp(claim.vertex) in colour:
            raise w.fail("bad-agreement", f"a claim on the stone at {claim.vertex}", claim.location)
    dead_points: set[int] = set()
    for vertex in dead:  # the diagram's x/o and the dead list
        dead_points |= _chain(geometry, colour, geometry.from_gtp(vertex))
    for vertex, where in lists["seki"]:
        if geometry.from_gtp(vertex) in dead_points:
            raise w.fail("bad-agreement", f"the chain at {vertex} is marked both dead and seki", where)


# -- counters ---------------------------------------------------------------------------------
MAX_COUNTER = 1_000_000
"""The largest figure a counter may hold: far beyond any game, and small enough that every count
made with it stays exact where it is printed as a decimal (JSON numbers are doubles)."""


def counter_value(key: str, value: object, area: int) -> object:
    """One counter, checked: the one validation of a case's ``counters`` and of ``jpd count
    --counters`` ({#format.counters}). ``area`` is the board's number of points. Returns the
    value as :class:`CaseCounters` holds it; raises ValueError with the message."""
    if key in COUNTER_PAIRS:
        ok = isinstance(value, (list, tuple)) and len(value) == 2
        if not (ok and all(type(n) is int and 0 <= n <= MAX_COUNTER for n in value)):
            raise ValueError(f"'{key}' is a pair [Black, White] of whole numbers 0..{MAX_COUNTER:,}")
        return int(value[0]), int(value[1])
    if key == "handicap":
        if type(value) is not int or not (value == 0 or 2 <= value < area):
            raise ValueError(f"'handicap' is 0 or 2..{area - 1} stones (the board has {area} points)")
        return value
    if key in ("first-pass", "last-move"):
        if value not in _SIDES:
            raise ValueError(f"'{key}' is B, W or none")
        return str(value)
    raise ValueError(f"unknown counter {key!r} (expected one of: {', '.join(COUNTER_KEYS)})")


def load_counters(item: LocDict, ctx, area: int) -> CaseCounters:
    """The ``counters:`` mapping (every key optional; a key given replaces the game's figure)."""
    w = _Where(ctx)
    table = item.get("counters")
    if "counters" not in item or table is None:
        return CaseCounters()
    if not isinstance(table, LocDict):
        raise w.fail(
            "schema", f"'counters' is a mapping ({', '.join(COUNTER_KEYS)})", w.value(item, "counters")
        )
    w.check_keys(table, COUNTER_KEYS, "'counters'")
    values: dict[str, object] = {}
    for key in table:
        value = table[key]
        if key in COUNTER_PAIRS and not isinstance(value, LocList):
            value = None  # a pair is a YAML list
        try:
            values[key.replace("-", "_")] = counter_value(key, value, area)
        except ValueError as err:
            raise w.fail("schema", str(err), w.value(table, key)) from None
    return CaseCounters(**values)


# -- settling by play -------------------------------------------------------------------------
def load_settle(item: LocDict, ctx, setup: Setup, actions) -> SettleSpec | None:
    """The ``settle:`` mapping {first, moves, dispute: {stones, claims}} (None when absent).

    ``actions(table, key)`` reads a move list of the mapping (the loader's, so markers and
    vertices are checked as for ``moves``). The dispute's vertices are checked against the
    board but not against the halt position, which only play makes: a disputed point that is
    empty at the halt proves nothing.
    """
    w = _Where(ctx)
    table = item.get("settle")
    if "settle" not in item or table is None:
        return None
    if not isinstance(table, LocDict):
        raise w.fail("schema", "'settle' is a mapping: first, moves, dispute", w.value(item, "settle"))
    w.check_keys(table, SETTLE_KEYS, "'settle'")
    if "moves" not in table:
        raise w.fail("schema", "missing key 'moves' in 'settle' (it may be empty)", w.ctx.source.at(table))
    first = table.get("first")
    if "first" in table and first not in ("B", "W"):
        message = "'first' is B or W (the agreed first mover of jpd-art-2008's test)"
        raise w.fail("schema", message, w.value(table, "first"))
    geometry = Geometry(setup.width, setup.height)
    markers = dict(setup.markers)
    stones: list[tuple[str, Location]] = []
    claims: list[CaseClaim] = []
    dispute = table.get("dispute")
    if "dispute" in table and dispute is not None:
        if not isinstance(dispute, LocDict):
            raise w.fail("schema", "'dispute' is a mapping: stones, claims", w.value(table, "dispute"))
        w.check_keys(dispute, DISPUTE_KEYS, "'dispute'")
        stones = _vertex_items(dispute, "stones", w, geometry, markers)
        claims = _claims(dispute, w, geometry, markers)
        _check_claims_once(claims, w)
    return SettleSpec(
        moves=actions(table, "moves"),
        first=str(first) if first is not None else None,
        stones=_sorted(v for v, _ in stones),
        claims=tuple(sorted(claims, key=lambda c: (_order(c.vertex), c.color, c.kind))),
    )
