"""From a case's agreement and counters to a reference count. {#count.agreement}

:func:`final_position` builds the :class:`~jpdref.counting.FinalPosition` of a game after the
case's last step: the board as it stands, the case's agreement (GTP vertices → points) and the
game's counters with the figures the case's ``counters:`` key gives put in their place.
:func:`reference_count` counts it with the ruleset's ``counting`` method and ``komi``.
"""

from dataclasses import replace

from jpdref.coords import Geometry
from jpdref.counting import Agreement, Claim, ClaimKind, Count, FinalPosition
from jpdref.counting.dispatch import count_for
from jpdref.game import Counters, Game
from jpdref.rules import Rules
from jpdref.stones import Color

from jpdtools.suite.setup import CaseAgreement, CaseCounters, FinalSpec


def agreement_of(case: CaseAgreement, geometry: Geometry) -> Agreement:
    """The engine's agreement for the case's (GTP vertices → board points)."""

    def points(vertices) -> frozenset[int]:
        return frozenset(geometry.from_gtp(v) for v in vertices)

    claims = tuple(
        Claim(ClaimKind(c.kind), Color.parse(c.color), geometry.from_gtp(c.vertex)) for c in case.claims
    )
    return Agreement(
        dead=points(case.dead),
        seki=points(case.seki),
        claims=claims,
        dame=points(case.dame),
        shared=points(case.shared),
        black_owns=points(case.black_owns),
        white_owns=points(case.white_owns),
    )


def _side(text: str) -> Color | None:
    return None if text == "none" else Color.parse(text)


def counters_of(game: Counters, given: CaseCounters) -> Counters:
    """The game's counters with every figure the case gives put in its place."""
    moves = dict(game.moves)
    for key, kind in (("moves", "move"), ("passes", "pass"), ("virtual", "virtual")):
        pair = getattr(given, key)
        if pair is not None:
            moves[f"B-{kind}"], moves[f"W-{kind}"] = pair
    out = replace(game, moves=moves)
    if given.virtual is not None:
        out = replace(out, virtual_stones={"B": given.virtual[0], "W": given.virtual[1]})
    if given.prisoners is not None:
        out = replace(out, prisoners={"B": given.prisoners[0], "W": given.prisoners[1]})
    if given.handicap is not None:
        out = replace(out, handicap_stones=given.handicap)
    if given.first_pass is not None:
        out = replace(out, first_to_pass=_side(given.first_pass))
    if given.last_move is not None:
        out = replace(out, last_real_move=_side(given.last_move))
    return out


def final_position(game: Game, final: FinalSpec) -> FinalPosition:
    """The position after the case's last step, with the case's agreement and counters."""
    settling = final.counters.settling or (0, 0)
    return FinalPosition(
        game.geometry,
        tuple(int(c) for c in game.board.color),
        agreement_of(final.agreement, game.geometry),
        counters_of(game.counters(), final.counters),
        settling,
    )


def reference_count(rules: Rules, fp: FinalPosition) -> Count:
    """The count of ``fp`` by ``rules``' counting method and komi (axes ``counting``, ``komi``).
    Raises CountingError for a refused count."""
    return count_for(rules, fp)


def count_lines(rules: Rules, count: Count) -> list[str]:
    """``rules``' count step by step, its figures, komi, margin and the counted board: what
    ``jpd count`` explains (and the book's playground shows)."""
    from jpdref.counting.explanation import num

    lines = [f"{rules.name}: {rules.counting}, komi {rules.komi}"]
    lines += [f"  {s}" for s in count.steps]
    for side, fig in (("Black", count.black), ("White", count.white)):
        parts = " + ".join(f"{name} {num(v)}" for name, v in fig.parts if v)
        lines.append(f"  {side}: {num(fig.score)} {count.unit}" + (f" ({parts})" if parts else ""))
    lines.append(f"  komi: {num(count.komi.points)} points — {count.komi.reason}")
    margin = count.margin
    lead = f"Black by {num(margin)}" if margin > 0 else f"White by {num(-margin)}" if margin < 0 else "even"
    lines.append(f"  margin: {num(margin)} points ({lead}); winner {count.winner}")
    lines.append("  counted board (X O stones, b w owned empty points, - split or nobody's):")
    lines += [f"    {r}" for r in count.render().split("\n")]
    return lines
