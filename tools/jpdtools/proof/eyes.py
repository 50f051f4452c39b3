"""Life by eye spaces: chains whose enclosed areas give them two eyes under alternating play.
{#count.status}

Benson's test (:mod:`.benson`) needs every empty point of an eye to be a liberty of the chain; a
wall round a 2 × 2 corner, a straight five along the edge or a corner holding a dead stone is alive
by reading but not by that test. Here each *enclosure* of one colour S — a maximal connected set of
points that are not S's stones, only S's stones and the edge around it — is read on its own by a
small search through the reference engine (:meth:`jpdref.Game.play`), the opponent moving first
inside it and S answering every move inside it (or passing):

* it gives **one eye** when, at every turn of the opponent, every S chain around it keeps a liberty
  inside it (the chains are taken to have one more liberty elsewhere, which the opponent cannot
  fill while this one stands: the other eye);
* it gives **two eyes** when every S chain around it keeps two liberties inside it at every turn of
  the opponent (with no liberty elsewhere, a chain with one is in atari and is taken).

An enclosure of at least :data:`~jpdtools.proof.region.EYE_SPACE` empty points and no stone gives
two eyes without search (the assumption of :mod:`.region`); one of more than
:data:`LOCAL_POINTS` points, or holding a chain of the opponent's that is unconditionally alive,
gives none. As in Benson's test, the chains that
keep two eyes from enclosures around which every chain keeps two eyes are alive: an opponent's move
inside an enclosure is answered inside it, so each enclosure keeps what it gives, and a move
outside them takes none of those liberties. A line in which the repetition rule refused the
opponent's move counts as lost for S (a ko is no eye), and a search that runs out of its nodes
proves nothing.
"""

from dataclasses import dataclass

from jpdref import Action, Game, Geometry, Phase, Rules
from jpdref.reasons import Reason
from jpdref.stones import EMPTY, Color

from jpdtools.proof.benson import flood, unconditionally_alive
from jpdtools.proof.region import EYE_SPACE

_REPETITION = {Reason.KO, Reason.SUPERKO}
LOCAL_POINTS = 10
"""The largest enclosure searched (its points, stones inside included)."""
LOCAL_NODES = 20_000
"""The positions one enclosure's search may visit."""


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class Enclosure:
    """One enclosure of ``side``: its points, the chains of ``side`` around it (each as a frozen
    set of points) and the eyes it gives (0, 1 or 2)."""

    points: frozenset[int]
    chains: tuple[frozenset[int], ...]
    eyes: int


class _Local:
    """The search of one enclosure: can ``side`` keep ``need`` liberties inside it for every chain
    around it, at every turn of the opponent, answering inside it?"""

    def __init__(self, rules: Rules, geometry: Geometry, color, side: Color, points, around, need: int):
        self.rules, self.geometry = rules, geometry
        self.stones = {p: Color(c) for p, c in enumerate(color) if c != EMPTY}
        self.side, self.points, self.around, self.need = side, tuple(sorted(points)), tuple(around), need
        self.nodes = 0
        self.table: dict[tuple[bytes, int, bool], bool] = {}
        self.max_depth = 3 * len(points) + 6

    def holds(self) -> bool:
        game = Game.new(self.rules, self.geometry, self.stones, to_move=self.side.opponent)
        try:
            value, _ = self._solve(game, False, 0)
        except _OutOfBudget:
            return False
        return value is True

    def _kept(self, game: Game) -> bool:
        board = game.board
        inside = set(self.points)
        for p in self.around:
            chain = board.chain[p]
            if chain is None or len(chain.libs & inside) < self.need:
                return False
        return True

    def _solve(self, game: Game, passed: bool, depth: int) -> tuple[bool | None, bool]:
        """(the side keeps its liberties: True / False / None undecided, no move refused by the
        repetition rule below)."""
        self.nodes += 1
        if self.nodes > LOCAL_NODES:
            raise _OutOfBudget
        mover = game.to_move
        attacking = mover is not self.side
        if attacking and not self._kept(game):
            return False, True
        key = (bytes(game.board.color), int(mover), passed)
        if key in self.table:
            return self.table[key], True
        if depth >= self.max_depth:
            return None, True
        moves = [Action.move(mover, p) for p in self.points if game.board.color[p] == EMPTY]
        actions = [*moves, Action.pass_(mover)] if attacking else [Action.pass_(mover), *moves]
        clean, undecided = True, False
        for action in actions:
            child = game.copy()
            step = child.play(action)
            if not step.legal:
                if step.reason in _REPETITION:
                    if attacking:  # the opponent's move the repetition rule refused: not trusted
                        return False, False
                    clean = False
                continue
            if child.phase is not Phase.CONTEST:
                value, sub_clean = True, True  # play halts: the side kept what it needs
            else:
                value, sub_clean = self._solve(child, action.point is None, depth + 1)
            clean = clean and sub_clean
            if value is None:
                undecided = True
                continue
            if value is not attacking:  # this move decides the node for its mover
                result = value
                break
        else:
            result = None if undecided else attacking
        if result is not None and clean:
            self.table[key] = result
        return result, clean


class EyeReader:
    """Reads enclosures (this module's rule) on the boards of one geometry under ``rules``,
    remembering each enclosure's eyes by what they depend on: its points' contents, the stones of
    the chains around it and whether each has a liberty outside it (the legality of every move
    inside; a search through one region asks about the same enclosures again and again)."""

    def __init__(self, rules: Rules, geometry: Geometry) -> None:
        self.rules, self.geometry = rules, geometry
        self.known: dict[tuple, int] = {}

    def enclosures(self, color, side: Color) -> list[Enclosure]:
        """Every enclosure of ``side`` on the board ``color`` (one value a point), with its eyes."""
        nbrs = self.geometry.neighbours
        chain_of: dict[int, frozenset[int]] = {}
        for p, c in enumerate(color):
            if c == side and p not in chain_of:
                chain = flood(color, nbrs, p, lambda v: v == side)
                chain_of.update(dict.fromkeys(chain, chain))
        seen: set[int] = set()
        out = []
        for p, c in enumerate(color):
            if c == side or p in seen:
                continue
            points = flood(color, nbrs, p, lambda v: v != side)
            seen |= points
            chains = tuple(dict.fromkeys(chain_of[q] for r in points for q in nbrs[r] if q in chain_of))
            out.append(Enclosure(points, chains, self._eyes(color, side, points, chains)))
        return out

    def _eyes(self, color, side: Color, points: frozenset[int], chains) -> int:
        if not chains:
            return 0
        stones_inside = any(color[p] != EMPTY for p in points)
        if len(points) >= EYE_SPACE and not stones_inside:
            return 2
        if len(points) > LOCAL_POINTS:
            return 0
        nbrs = self.geometry.neighbours
        outside = tuple(
            any(color[q] == EMPTY and q not in points for p in ch for q in nbrs[p]) for ch in chains
        )
        key = (
            int(side),
            tuple((p, color[p]) for p in sorted(points)),
            tuple(tuple(sorted(ch)) for ch in chains),
            outside,
        )
        if key not in self.known:
            self.known[key] = self._read(color, side, points, chains)
        return self.known[key]

    def _read(self, color, side: Color, points: frozenset[int], chains) -> int:
        inside = {p for p in points if color[p] != EMPTY}
        if inside & unconditionally_alive(self.geometry, list(color), int(side.opponent)):
            return 0  # a living chain of the opponent stands in it
        around = [next(iter(ch)) for ch in chains]
        for need in (2, 1):
            if _Local(self.rules, self.geometry, color, side, points, around, need).holds():
                return need
        return 0

    def alive(self, color, side: Color) -> frozenset[int]:
        """The points of ``side``'s chains that are alive by their enclosures (this module's rule):
        drop, until nothing changes, the chains with fewer than two eyes from the enclosures kept
        and the enclosures around which a dropped chain stands."""
        found = self.enclosures(color, side)
        chains = {ch for e in found for ch in e.chains}
        live = set(chains)
        kept = {i for i, e in enumerate(found) if e.eyes}
        changed = True
        while changed:
            changed = False
            for ch in list(live):
                if sum(found[i].eyes for i in kept if ch in found[i].chains) < 2:
                    live.discard(ch)
                    changed = True
            for i in list(kept):
                if not set(found[i].chains) <= live:
                    kept.discard(i)
                    changed = True
        return frozenset(p for ch in live for p in ch)


def enclosures(rules: Rules, geometry: Geometry, color, side: Color) -> list[Enclosure]:
    """Every enclosure of ``side`` on the board ``color``, with its eyes (:class:`EyeReader`)."""
    return EyeReader(rules, geometry).enclosures(color, side)


def alive_by_eyes(rules: Rules, geometry: Geometry, color, side: Color) -> frozenset[int]:
    """The points of ``side``'s chains alive by their enclosures (:meth:`EyeReader.alive`)."""
    return EyeReader(rules, geometry).alive(color, side)
