"""The board: stones, chains and liberties, kept up to date move by move. {#board.chains}
{#board.liberties}

The board knows only stones. It does not know whose turn it is, ko, repetition or passes: the
:class:`jpdref.game.Game` owns those. It keeps, incrementally:

* for every point its colour and the chain (棋子组成的整体) holding it;
* for every chain its stones, its liberties (气) and the XOR of its stones' Zobrist keys;
* the Zobrist hash of the whole board position (盘内棋形).

:meth:`Board.preview` tells what a real move would do without changing anything, including the
hash of the resulting board, so the game can check repetition before committing with
:meth:`Board.commit`. No full-board copy is made per move.
"""

from typing import NamedTuple

from jpdref.coords import Geometry
from jpdref.stones import BLACK, EMPTY, WHITE, Color
from jpdref.zobrist import stone_keys


class PositionError(ValueError):
    """A set-up position that cannot occur on a board (a chain without liberties, …)."""


class Chain:
    """A chain: its colour, stones, liberties, and the XOR of its stones' keys."""

    __slots__ = ("color", "key", "libs", "stones")

    def __init__(self, color: int, stones: list[int], libs: set[int], key: int) -> None:
        self.color = color
        self.stones = stones
        self.libs = libs
        self.key = key


class Preview(NamedTuple):
    """What a real move at ``point`` would do. {#capture.order}

    ``captured`` are the opponent chains it removes; ``suicide`` is True when it captures
    nothing and leaves its own chain without liberties, in which case ``own`` are the chains
    (besides the new stone) that would be removed with it. ``new_hash`` is the board hash after.
    """

    point: int
    color: int
    captured: tuple[Chain, ...]
    own: tuple[Chain, ...]
    suicide: bool
    new_hash: int

    @property
    def captured_count(self) -> int:
        return sum(len(c.stones) for c in self.captured)


def _size(ch: Chain) -> int:
    return len(ch.stones)


_new = tuple.__new__
"""Builds a Preview from its fields without the NamedTuple's Python-level ``__new__`` (hot path)."""


class Board:
    """Stones on a board, with incremental chains and a Zobrist hash of the board position."""

    __slots__ = ("chain", "color", "geometry", "hash", "keys", "nbrs")

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.nbrs = geometry.neighbours
        self.color: list[int] = [EMPTY] * geometry.area
        self.chain: list[Chain | None] = [None] * geometry.area
        self.keys = {
            BLACK: stone_keys(geometry.area, BLACK),
            WHITE: stone_keys(geometry.area, WHITE),
        }
        self.hash = 0

    # -- set-up ------------------------------------------------------------------------------
    @classmethod
    def from_stones(cls, geometry: Geometry, stones: dict[int, Color]) -> "Board":
        """A board holding ``stones``. {#setup.position}

        Raises PositionError if a chain has no liberty: such a position cannot arise in play
        and no rule says which chain would be removed; also for a point off the board or a value
        that is not a colour.
        """
        board = cls(geometry)
        if not stones:
            return board  # an empty board has no chains to build or check
        area = geometry.area
        for p, c in stones.items():
            if not (isinstance(p, int) and 0 <= p < area):
                raise PositionError(f"set-up point {p!r} is off the {geometry.label} board")
            if c not in (BLACK, WHITE):
                raise PositionError(f"set-up stone {c!r} at point {p} is not black or white")
            board.color[p] = int(c)
            board.hash ^= board.keys[c][p]
        board._rebuild_chains()
        return board

    def _rebuild_chains(self) -> None:
        """Flood-fill every chain from scratch (set-up only; never called per move). Chains are
        found in the order of their lowest point, so the first without a liberty is reported."""
        color, nbrs = self.color, self.nbrs
        chain: list[Chain | None] = [None] * len(color)
        self.chain = chain
        for start, c in enumerate(color):
            if c == EMPTY or chain[start] is not None:
                continue
            ch = Chain(c, [], set(), 0)
            stones, libs, keys = ch.stones, ch.libs, self.keys[c]
            key = 0
            stack = [start]
            chain[start] = ch
            while stack:
                p = stack.pop()
                stones.append(p)
                key ^= keys[p]
                for q in nbrs[p]:
                    cq = color[q]
                    if cq == EMPTY:
                        libs.add(q)
                    elif cq == c and chain[q] is None:
                        chain[q] = ch
                        stack.append(q)
            ch.key = key
            if not ch.libs:
                raise PositionError(
                    f"impossible position: the {Color(c).name.lower()} chain at "
                    f"{self.geometry.to_gtp(start)} has no liberties"
                )

    def copy(self) -> "Board":
        """An independent copy: the same stones, chains, liberties and hash (no flood fill)."""
        other = Board.__new__(Board)
        other.geometry, other.nbrs, other.keys, other.hash = self.geometry, self.nbrs, self.keys, self.hash
        other.color = list(self.color)
        # each chain copied once (chains hash by identity), then every point mapped to its twin
        twins: dict[Chain | None, Chain | None] = {
            ch: Chain(ch.color, list(ch.stones), set(ch.libs), ch.key)
            for ch in set(self.chain)
            if ch is not None
        }
        twins[None] = None
        other.chain = list(map(twins.__getitem__, self.chain))
        return other

    # -- queries -----------------------------------------------------------------------------
    def stones(self) -> dict[int, Color]:
        return {p: Color(c) for p, c in enumerate(self.color) if c != EMPTY}

    def position(self) -> bytes:
        """The exact board position (盘内棋形): one byte per point, 0 empty, 1 black, 2 white.
        {#rep.hashing} (Built on demand: the game asks for it only when a hash matches.)"""
        return bytes(self.color)

    def position_after(self, pv: Preview) -> bytes:
        """The exact board position the previewed move would make (changes nothing)."""
        after = bytearray(self.color)
        if pv.suicide:
            for ch in pv.own:
                for s in ch.stones:
                    after[s] = EMPTY
            return bytes(after)
        after[pv.point] = pv.color
        for ch in pv.captured:
            for s in ch.stones:
                after[s] = EMPTY
        return bytes(after)

    def compute_hash(self) -> int:
        """The board hash computed from scratch (for checking the incremental one)."""
        h = 0
        for p, c in enumerate(self.color):
            if c != EMPTY:
                h ^= self.keys[c][p]
        return h

    # -- moves -------------------------------------------------------------------------------
    def preview(self, p: int, color: int) -> Preview:
        """What a real move by ``color`` at the empty point ``p`` would do; changes nothing.

        {#capture.order} Opponent chains left without liberties are removed first; only if
        there are none and the move's own chain has no liberty is that chain removed (自尽).
        """
        chain = self.chain
        captured: list[Chain] = []
        own: list[Chain] = []
        has_liberty = False
        for q in self.nbrs[p]:
            ch = chain[q]
            if ch is None:
                has_liberty = True
            elif ch.color == color:
                if ch not in own:
                    own.append(ch)
                    if len(ch.libs) > 1:
                        has_liberty = True
            elif len(ch.libs) == 1 and ch not in captured:
                captured.append(ch)
        if captured:
            h = self.hash ^ self.keys[color][p]
            for ch in captured:
                h ^= ch.key
            return _new(Preview, (p, color, tuple(captured), tuple(own), False, h))
        if has_liberty:
            return _new(Preview, (p, color, (), tuple(own), False, self.hash ^ self.keys[color][p]))
        h = self.hash
        for ch in own:
            h ^= ch.key
        return _new(Preview, (p, color, (), tuple(own), True, h))

    def commit(self, pv: Preview) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Make the previewed move. Returns (opponent stones captured, own stones removed).

        {#capture.order} The stone merges with its own adjacent chains; the previewed opponent
        chains (or, for a suicide, the previewed own chains and the new stone) are removed.
        """
        p, color = pv.point, pv.color
        chain, board_color, nbrs = self.chain, self.color, self.nbrs
        if pv.suicide:
            removed = [p]
            for ch in pv.own:
                removed.extend(ch.stones)
                self._remove(ch)
            return (), tuple(removed)
        key = self.keys[color][p]
        board_color[p] = color
        self.hash ^= key
        own = pv.own
        if own:
            big = own[0]
            if len(own) > 1:
                big = max(own, key=_size)
                for ch in own:
                    if ch is big:
                        continue
                    for s in ch.stones:
                        chain[s] = big
                    big.stones.extend(ch.stones)
                    big.libs |= ch.libs
                    big.key ^= ch.key
            big.stones.append(p)
            big.key ^= key
            libs = big.libs
            libs.discard(p)
        else:
            libs = set()
            big = Chain(color, [p], libs, key)
        chain[p] = big
        for q in nbrs[p]:
            ch = chain[q]
            if ch is None:
                libs.add(q)
            elif ch is not big:  # an opponent chain: every own chain is ``big`` now
                ch.libs.discard(p)
        if not pv.captured:
            return (), ()
        captured: list[int] = []
        for ch in pv.captured:
            captured.extend(ch.stones)
            self._remove(ch)
        return tuple(captured), ()

    def _remove(self, ch: Chain) -> None:
        """Take a chain off the board, giving its points back as liberties to its neighbours."""
        chain, board_color, nbrs = self.chain, self.color, self.nbrs
        for s in ch.stones:
            board_color[s] = EMPTY
            chain[s] = None
        for s in ch.stones:
            for q in nbrs[s]:
                other = chain[q]
                if other is not None:
                    other.libs.add(s)
        self.hash ^= ch.key
