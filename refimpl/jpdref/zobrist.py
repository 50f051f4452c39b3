"""Zobrist keys, derived deterministically (no global random state). {#rep.hashing}

Every key is ``splitmix64(domain, index)``: the same board size always gets the same keys, so
hashes are reproducible across processes and runs.
"""

from functools import cache

from jpdref.stones import BLACK, WHITE, Color

_MASK = (1 << 64) - 1


def splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


_STONE_DOMAIN = 1 << 40
_VIRTUAL_DOMAIN = 2 << 40
_TO_MOVE_DOMAIN = 3 << 40


@cache
def stone_keys(area: int, color: Color) -> tuple[int, ...]:
    """One key per point for a stone of ``color`` (pure, so computed once per size)."""
    base = _STONE_DOMAIN + (int(color) << 20)
    return tuple(splitmix64(base + p) for p in range(area))


def virtual_key(color: Color, count: int) -> int:
    """The key standing for "``color`` has put exactly ``count`` virtual stones off the board"."""
    return 0 if count == 0 else splitmix64(_VIRTUAL_DOMAIN + (int(color) << 32) + count)


TO_MOVE_KEY = {BLACK: 0, WHITE: splitmix64(_TO_MOVE_DOMAIN)}
"""Mixed into a position's hash when the rule compares positions together with the side to move."""
