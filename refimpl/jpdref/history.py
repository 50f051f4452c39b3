"""The positions a game has met: exact positions, filed under their Zobrist hash. {#rep.hashing}

A repetition verdict is by position, never by hash: two different positions may share a 64-bit
hash (one can build such a pair on purpose from the public keys). The hash is only the index that
makes the common case — no earlier position with this hash — one dictionary look-up; a hit is
confirmed against the exact position kept under it.
"""

from collections.abc import Hashable


class History(dict):
    """Exact positions, each filed under its hash: ``{hash: position}``, or ``{hash: [position,
    …]}`` for the rare hash shared by different positions.

    A position is any hashable value (never a list) that is equal exactly when the positions are
    the same for the rule comparing them; the game uses the board's bytes with the virtual stones
    and the side to move as the ruleset says. ``key in history`` is the fast path, not a verdict:
    :meth:`holds` and :meth:`add` decide by the position.
    """

    __slots__ = ()

    def copy(self) -> "History":
        other = History(self)
        for key, found in other.items():
            if found.__class__ is list:
                other[key] = list(found)
        return other

    def holds(self, key: int, position: Hashable) -> bool:
        """Whether ``position`` (whose hash is ``key``) is in the history: the verdict."""
        found = self.get(key)
        if found is None:
            return False
        if found.__class__ is list:
            return position in found
        return found == position

    def add(self, key: int, position: Hashable) -> bool:
        """Put ``position`` (whose hash is ``key``) in; True if it was there already."""
        found = self.get(key)
        if found is None:
            self[key] = position
            return False
        if found.__class__ is list:
            if position in found:
                return True
            found.append(position)
            return False
        if found == position:
            return True
        self[key] = [found, position]
        return False

    def positions(self) -> int:
        """How many different positions it holds (``len`` counts hashes)."""
        return sum(len(v) if v.__class__ is list else 1 for v in self.values())
