"""Small helpers for engine unit tests: boards from ASCII rows, moves from GTP text.

Independent of the case-file loader on purpose, so the engine tests do not depend on it.
"""

from jpdref import BLACK, WHITE, Action, Game, Geometry
from jpdref.stones import Color
from jpdtools.presets import load_presets

PRESETS = load_presets()


def rules(name: str):
    return PRESETS.get(name)


def game(rows: str, ruleset: str, to_move: Color = BLACK) -> Game:
    """A game on the board drawn by ``rows`` (``X`` black, ``O`` white, ``.`` empty)."""
    lines = [line.split() for line in rows.strip().splitlines()]
    geometry = Geometry(len(lines[0]), len(lines))
    stones = {}
    for y, line in enumerate(lines):
        for x, ch in enumerate(line):
            if ch in "XO":
                stones[geometry.point(x, y)] = BLACK if ch == "X" else WHITE
    return Game.new(rules(ruleset), geometry, stones, to_move)


def action(g: Game, color: str, target: str) -> Action:
    c = Color.parse(color)
    if target == "pass":
        return Action.pass_(c)
    if target == "virtual":
        return Action.virtual(c)
    if target == "resign":
        return Action.resign(c)
    return Action.move(c, g.geometry.from_gtp(target))


def play(g: Game, moves: str):
    """Play ``"B C3 W pass …"`` and return the list of steps."""
    words = moves.split()
    return [g.play(action(g, words[i], words[i + 1])) for i in range(0, len(words), 2)]


def verdicts(steps) -> list[str]:
    """Each step as ``legal`` or ``<effect> <reason>``, for compact assertions."""
    return ["legal" if s.legal else f"{s.effect} {s.reason}" for s in steps]


def rows(g: Game) -> str:
    b = g.board
    w = g.geometry.width
    chars = {0: ".", 1: "X", 2: "O"}
    return "/".join("".join(chars[c] for c in b.color[y * w : (y + 1) * w]) for y in range(g.geometry.height))


def gtp(g: Game, points) -> list[str]:
    return sorted(g.geometry.to_gtp(p) for p in points)
