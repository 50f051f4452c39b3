"""Dead, alive and seki for the chains of a position, by the definitions of
spec/counting.md#count.status.

* **dead** — for each side moving first, the opponent captures the chain against any defence, by
  a capture that stands (its owner cannot capture a capturing chain back: J1989 Art. 7's second
  test);
* **alive** — for each side moving first, the opponent cannot capture it by a capture that stands
  (unconditional life, :mod:`.benson`, decides without search where it applies);
* **seki** — chains of both colours, each alive in that sense, each with a liberty on a *shared*
  point (an empty area that living stones of both colours border: J1989 Art. 8's dame, 004's 公气),
  and none of which its owner can make unconditionally alive on its own (two eyes).

Each chain is proved by :class:`.search.CaptureSearch` on its *region* (:mod:`.region`). The
answers keep the first moves of each proof.
"""

from collections.abc import Iterable
from dataclasses import dataclass, replace

from jpdref import Action, Game, Geometry, Rules
from jpdref.board import Board
from jpdref.stones import EMPTY, Color

from jpdtools.proof.benson import unconditionally_alive
from jpdtools.proof.eyes import EyeReader
from jpdtools.proof.region import area as _area
from jpdtools.proof.region import region
from jpdtools.proof.search import TWO_EYES, CaptureAnswer, CaptureSearch
from jpdtools.proof.tree import MoveNode

DEAD, ALIVE, SEKI, ONE_SIDED, KO = "dead", "alive", "seki", "one-sided", "ko"
DEFAULT_BUDGET = 6_000
ESCALATION = 10
"""A search undecided within the budget runs once more with this many times the budget (the few
hard diagrams pay for it; lint keeps every answer in its cache)."""
POSITION_BUDGET = 250_000
"""The nodes all the searches of one position may take together: about five times what the
suite's hardest case takes (51,494 nodes), so a proposal with a hundred marks is undecided within
seconds rather than searched for minutes, chain by chain."""


@dataclass
class Allowance:
    """The nodes the searches of one position may still take (:data:`POSITION_BUDGET`)."""

    left: int = POSITION_BUDGET

    def grant(self, budget: int) -> int:
        """How many of ``budget`` nodes the next search may take (0: none left)."""
        return max(0, min(budget, self.left))

    def spend(self, nodes: int) -> None:
        self.left -= nodes


@dataclass(frozen=True)
class ChainProof:
    """One chain, one side moving first: is it captured (``dead``) or safe (``alive``)?

    ``holds`` is True when the search proved what the status needs, False when it proved the
    opposite, None when it stopped (``stopped``: ``nodes``, ``depth`` or ``position``, the position's
    :class:`Allowance` spent) before deciding.
    """

    chain: tuple[str, ...]  # its stones, GTP vertices, sorted
    color: str  # "B" | "W"
    first: str  # who moves first
    needs: str  # "captured" | "safe" | "dependent" (its owner cannot make it live on its own)
    holds: bool | None
    lines: tuple[MoveNode, ...] = ()
    nodes: int = 0
    stopped: str = ""
    method: str = "search"  # "search" | "unconditional" | "eye-space" (:mod:`.eyes`)
    # J1989 Art. 7's second test decided it: the opponent can capture the chain, but every such
    # capture is answered by its owner capturing a capturing chain back (a capture that costs)
    recaptures: bool = False
    note: str = ""  # the move made before the search (a one-sided claim: "after B C5")

    @property
    def name(self) -> str:
        return self.chain[0] if len(self.chain) == 1 else f"{self.chain[0]} (+{len(self.chain) - 1})"

    def describe(self) -> str:
        side = "Black" if self.first == "B" else "White"
        if self.note:
            return f"{self.note}: " + replace(self, note="").describe()
        if self.method == "unconditional":
            return f"{self.color} {self.name}: unconditionally alive (no search needed)"
        if self.method == "eye-space":
            return f"{self.color} {self.name}: alive by its eye spaces (each answered where it is played)"
        if self.holds is None:
            if self.stopped == "position":
                bound = "the position's node budget ran out"
            else:
                bound = f"{self.stopped} bound"
            return f"{self.color} {self.name}, {side} first: undecided within {self.nodes} nodes ({bound})"
        if self.needs == "dependent":
            verb = (
                "cannot make two eyes of its own"
                if self.holds
                else "makes two eyes of its own (so it is not seki)"
            )
            return f"{self.color} {self.name}, {side} first: {verb} ({self.nodes} nodes)"
        captured = (self.needs == "captured") == self.holds
        verb = "is captured" if captured else "cannot be captured"
        if self.recaptures:
            verb = "is captured only at a cost: its owner captures back (J1989 Art. 7, second test)"
        return f"{self.color} {self.name}, {side} first: {verb} ({self.nodes} nodes)"


@dataclass(frozen=True)
class StatusProof:
    """The proof of one declared status for a set of chains: every chain proof, and what else the
    definition needs that failed (``problems``, e.g. a seki chain with no shared liberty)."""

    status: str  # dead | alive | seki | one-sided | ko
    chains: tuple[tuple[str, ...], ...]  # one-sided, ko: the claimed point
    proofs: tuple[ChainProof, ...]  # ko: none (its shape is the proof, :mod:`.ko`)
    problems: tuple[str, ...] = ()
    claimer: str = ""  # one-sided, ko: "B" | "W"

    @property
    def holds(self) -> bool | None:
        """True: proven; False: disproven; None: undecided within the bounds."""
        if self.problems or any(p.holds is False for p in self.proofs):
            return False
        if any(p.holds is None for p in self.proofs):
            return None
        return True

    def describe(self) -> list[str]:
        return [*self.problems, *(p.describe() for p in self.proofs)]

    def failures(self) -> list[str]:
        """What keeps it from holding: the problems and the chain proofs that failed or stopped."""
        return [*self.problems, *(p.describe() for p in self.proofs if p.holds is not True)]


@dataclass(frozen=True)
class Position:
    """A position to prove statuses on: its geometry and stones (``{point: colour}``)."""

    geometry: Geometry
    stones: dict[int, Color]

    @classmethod
    def from_vertices(cls, geometry: Geometry, stones: Iterable[tuple[str, str]]) -> "Position":
        return cls(geometry, {geometry.from_gtp(v): Color.parse(c) for v, c in stones})

    def board(self) -> Board:
        return Board.from_stones(self.geometry, self.stones)


class StatusProver:
    """Proves statuses on one position under ``rules`` (the engine's legality), each chain search
    bounded by ``budget`` nodes."""

    def __init__(
        self,
        rules: Rules,
        position: Position,
        budget: int = DEFAULT_BUDGET,
        show: int = 4,
        allowance: Allowance | None = None,
    ) -> None:
        self.rules, self.position, self.budget, self.show = rules, position, budget, show
        self.allowance = allowance if allowance is not None else Allowance()
        self.board = position.board()
        self.geometry = position.geometry
        self._unconditional = {
            side: unconditionally_alive(self.geometry, self.board.color, side)
            for side in (Color.BLACK, Color.WHITE)
        }

    def chain_at(self, vertex: str) -> frozenset[int]:
        p = self.geometry.from_gtp(vertex)
        ch = self.board.chain[p]
        if ch is None:
            raise ValueError(f"no stone at {vertex}")
        return frozenset(ch.stones)

    def _names(self, chain: frozenset[int]) -> tuple[str, ...]:
        return tuple(sorted(self.geometry.to_gtp(p) for p in chain))

    def chain_proofs(
        self,
        chain: frozenset[int],
        needs: str,
        firsts: tuple[Color, ...] | None = None,
        eyes: EyeReader | None = None,
    ) -> tuple[ChainProof, ...]:
        """The two searches (each side first, or only ``firsts``) for ``chain``: ``needs`` captured
        or safe."""
        color = Color(self.board.color[next(iter(chain))])
        names = self._names(chain)
        if needs == "safe" and chain <= self._unconditional[color]:
            first = (firsts or (color,))[0]
            return (ChainProof(names, color.letter, first.letter, needs, True, method="unconditional"),)
        out = []
        for first in firsts or (color, color.opponent):

            def attempt(near_only: bool, second_test: bool, first: Color = first) -> CaptureAnswer:
                answer = CaptureAnswer(None, (), 0, "position")
                for budget in (self.budget, self.budget * ESCALATION):
                    granted = self.allowance.grant(budget)
                    if not granted:
                        return replace(answer, stopped="position")
                    search = CaptureSearch(
                        self.rules,
                        self.geometry,
                        self.position.stones,
                        chain,
                        color.opponent,
                        region(self.board, chain),
                        budget=granted,
                        show=self.show,
                        near_only=near_only,
                        second_test=second_test,
                        eyes=eyes,
                    )
                    answer = search.run(first)
                    self.allowance.spend(answer.nodes)
                    if answer.captured is None and granted < budget:
                        answer = replace(answer, stopped="position")
                    if answer.captured is not None or (near_only and not second_test):
                        break
                return answer

            # a plain search first (captures count as they fall); only when it finds a capture (or
            # stops) does the second test (a capture its owner answers by capturing back does not
            # count) search again — it can only turn captures into failures
            answer = attempt(True, False) if needs == "captured" else attempt(False, False)
            if needs == "captured" and not answer.captured:
                answer = attempt(False, False)
            plain = answer.captured
            if plain is not False:
                answer = attempt(True, True) if needs == "captured" else answer
                if needs != "captured" or not answer.captured:
                    answer = attempt(False, True)
            holds = None if answer.captured is None else answer.captured is (needs == "captured")
            out.append(
                ChainProof(
                    names,
                    color.letter,
                    first.letter,
                    needs,
                    holds,
                    answer.lines,
                    answer.nodes,
                    answer.stopped,
                    recaptures=plain is True and answer.captured is False,
                )
            )
        return tuple(out)

    def dependent(self, chain: frozenset[int]) -> ChainProof:
        """Its owner, moving first, cannot make ``chain`` unconditionally alive (two eyes of its own):
        it lives only with the opponent's chains, as a seki does."""
        color = Color(self.board.color[next(iter(chain))])
        granted = self.allowance.grant(self.budget)
        search = CaptureSearch(
            self.rules,
            self.geometry,
            self.position.stones,
            chain,
            color,
            region(self.board, chain),
            budget=granted,
            show=self.show,
            goal=TWO_EYES,
        )
        answer = search.run(color) if granted else CaptureAnswer(None, (), 0, "position")
        self.allowance.spend(answer.nodes)
        if answer.captured is None and granted < self.budget:
            answer = replace(answer, stopped="position")
        holds = None if answer.captured is None else not answer.captured
        names = self._names(chain)
        return ChainProof(
            names, color.letter, color.letter, "dependent", holds, answer.lines, answer.nodes, answer.stopped
        )

    def settled(self, skip: Iterable[str] = ()) -> StatusProof:
        """count.status (6): every chain but those of ``skip`` (the agreement's dead and seki marks)
        is alive — unconditionally (:mod:`.benson`), by its eye spaces (:mod:`.eyes`), or by the
        search, each side moving first."""
        skipped = {p for ch in self._chains(skip) for p in ch}
        reader = EyeReader(self.rules, self.geometry)
        by_eyes = {side: reader.alive(self.board.color, side) for side in (Color.BLACK, Color.WHITE)}
        chains: list[frozenset[int]] = []
        for p in sorted(self.position.stones):
            chain = frozenset(self.board.chain[p].stones)
            if p not in skipped and chain not in chains:
                chains.append(chain)
        proofs: list[ChainProof] = []
        for chain in chains:
            color = Color(self.board.color[next(iter(chain))])
            if chain <= self._unconditional[color]:
                proofs.extend(self.chain_proofs(chain, "safe"))
            elif chain <= by_eyes[color]:
                names = self._names(chain)
                proofs.append(ChainProof(names, color.letter, color.letter, "safe", True, method="eye-space"))
            else:
                proofs.extend(self.chain_proofs(chain, "safe", eyes=reader))
        return StatusProof(ALIVE, tuple(map(self._names, chains)), tuple(proofs))

    def _chains(self, vertices: Iterable[str]) -> list[frozenset[int]]:
        out: list[frozenset[int]] = []
        for v in vertices:
            ch = self.chain_at(v)
            if ch not in out:
                out.append(ch)
        return out

    def dead(self, vertices: Iterable[str]) -> StatusProof:
        chains = self._chains(vertices)
        proofs = tuple(p for ch in chains for p in self.chain_proofs(ch, "captured"))
        return StatusProof(DEAD, tuple(map(self._names, chains)), proofs)

    def alive(self, vertices: Iterable[str]) -> StatusProof:
        chains = self._chains(vertices)
        proofs = tuple(p for ch in chains for p in self.chain_proofs(ch, "safe"))
        return StatusProof(ALIVE, tuple(map(self._names, chains)), proofs)

    def seki(self, vertices: Iterable[str], dead: Iterable[str] = ()) -> StatusProof:
        """The chains of ``vertices`` are in seki; ``dead`` are the stones agreed dead (they do not
        make a point shared)."""
        chains = self._chains(vertices)
        board, nbrs = self.board, self.board.nbrs
        dead_points = {p for ch in self._chains(dead) for p in ch}
        problems = []
        colours = {board.color[next(iter(ch))] for ch in chains}
        if len(colours) < 2:
            problems.append("a seki needs living chains of both colours; these are all one colour")
        for ch in chains:
            own = board.color[next(iter(ch))]
            libs = {q for p in ch for q in nbrs[p] if board.color[q] == EMPTY}
            shared = False
            for lib in libs:
                area = _area(board.color, nbrs, lib)
                border = {
                    board.color[q]
                    for p in area
                    for q in nbrs[p]
                    if board.color[q] != EMPTY and q not in dead_points
                }
                if len(border) == 2 and (3 - own) in border:
                    shared = True
                    break
            if not shared:
                name = f"{Color(own).letter} {self._names(ch)[0]}"
                problems.append(f"{name}: no liberty on a point both colours border (not seki)")
        proofs = tuple(p for ch in chains for p in (*self.chain_proofs(ch, "safe"), self.dependent(ch)))
        return StatusProof(SEKI, tuple(map(self._names, chains)), proofs, tuple(problems))

    def one_sided(self, vertex: str, claimer: str) -> StatusProof:
        """``claimer`` (``B``/``W``) owns the empty point ``vertex`` one-sidedly (count.status (5)):
        its stone there leaves the chain holding it alive with the opponent to move, and the
        opponent's stone there is illegal or leaves a chain that is captured, the claimer to move."""
        side = Color.parse(claimer)
        point = self.geometry.from_gtp(vertex)
        if self.board.color[point] != EMPTY:
            raise ValueError(f"a one-sided point must be empty; {vertex} is not")
        proofs: list[ChainProof] = []
        problems: list[str] = []
        for mover, needs, next_first in ((side, "safe", side.opponent), (side.opponent, "captured", side)):
            game = Game.new(self.rules, self.geometry, dict(self.position.stones), to_move=mover)
            step = game.play(Action.move(mover, point))
            if not step.legal:
                if mover is side:
                    problems.append(f"{side.letter} cannot fill {vertex}: {step.reason}")
                continue
            after = Position(self.geometry, {p: Color(c) for p, c in enumerate(game.board.color) if c})
            prover = StatusProver(self.rules, after, self.budget, self.show, self.allowance)
            chain = prover.chain_at(vertex)
            proofs.extend(
                replace(p, note=f"after {mover.letter} {vertex}")
                for p in prover.chain_proofs(chain, needs, (next_first,))
            )
        return StatusProof(ONE_SIDED, ((vertex,),), tuple(proofs), tuple(problems), claimer=side.letter)
