"""The positions a game has met, filed under their Zobrist hash. {#rep.hashing}

A repetition verdict is by position, never by hash: two different positions may share a 64-bit
hash (one can build such a pair on purpose from the public keys). The hash is only the index
that makes the common case — no earlier position with this hash — one dictionary look-up. A hit
is confirmed against the exact position: the history keeps, under each hash, a *reference* from
which the game rebuilds the exact earlier position (``exact(ref)``), so that nothing but a small
reference is stored per move.
"""

from collections.abc import Callable, Hashable

Exact = Callable[[Hashable], bytes]
"""Rebuilds the exact position a reference names (the game's ``_exact_of``)."""


class History(dict):
    """``{hash: ref}``, or ``{hash: [ref, …]}`` for a hash shared by different positions.

    A reference is any hashable value other than a list. ``key in history`` is the fast path,
    not a verdict: :meth:`holds` and :meth:`add` decide by the exact position.
    """

    __slots__ = ()

    def copy(self) -> "History":
        other = History(self)
        for key, found in other.items():
            if found.__class__ is list:
                other[key] = list(found)
        return other

    def holds(self, key: int, position: bytes, exact: Exact) -> bool:
        """Whether ``position`` (whose hash is ``key``) is in the history: the verdict."""
        found = self.get(key)
        if found is None:
            return False
        refs = found if found.__class__ is list else (found,)
        return any(exact(ref) == position for ref in refs)

    def add(self, key: int, ref: Hashable, position: bytes, exact: Exact) -> bool:
        """File ``ref`` (naming ``position``, whose hash is ``key``) unless that position is
        already in; True if it was."""
        found = self.get(key)
        if found is None:
            self[key] = ref
            return False
        refs = found if found.__class__ is list else [found]
        if any(exact(r) == position for r in refs):
            return True
        self[key] = [*refs, ref]
        return False

    def positions(self) -> int:
        """How many different positions it holds (``len`` counts hashes)."""
        return sum(len(v) if v.__class__ is list else 1 for v in self.values())
