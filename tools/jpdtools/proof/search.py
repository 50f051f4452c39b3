"""Can one side capture a chain? A bounded exhaustive search through the reference engine.
{#count.status}

Every move is made with :meth:`jpdref.Game.play` on a game replayed from the position along the
line, so legality, captures, the repetition rule and the halt are the engine's. The players move
in the *region* (and on points freed by captures) or pass; the defender wins when play halts (two
passes) without the target being captured, the attacker when a move removes a stone of the target.
The answer is ``True`` (captured against any defence), ``False`` (never captured) or ``None``
(undecided within the node budget or the depth bound), with the proof's first moves
(:mod:`.tree`).

Positions are remembered (a transposition table keyed by the exact board, the side to move and
whether the last action was a pass) only for lines in which the repetition rule refused nothing,
so a remembered answer never depends on how the position was reached.
"""

from dataclasses import dataclass

from jpdref import Action, Game, Geometry, Phase, Rules
from jpdref.game import Effect
from jpdref.reasons import Reason
from jpdref.stones import EMPTY, Color

from jpdtools.proof.benson import unconditionally_alive
from jpdtools.proof.eyes import EyeReader
from jpdtools.proof.region import lives_on_its_own, region
from jpdtools.proof.tree import MoveNode

_REPETITION = {Reason.KO, Reason.SUPERKO}
CAPTURE, TWO_EYES = "capture", "two-eyes"
"""The goals of a search: ``attacker`` captures the target, or (``two-eyes``) the target's owner,
as ``attacker``, makes it unconditionally alive (:mod:`.benson`) before play halts."""
RECAPTURE_MOVES, RECAPTURE_NODES = 8, 400
"""The bounds of J1989 Art. 7's second test (:meth:`CaptureSearch._costly`): the owner's capture
back is searched this many moves deep (three of the owner's moves) within this many positions; a
capture back not found within them lets the capture stand (spec/counting.md#count.status)."""
SMALL_CHAIN = 3
"""The points of a chain of at most this many stones become playable once it is captured (a ko, a
snapback, playing under the stones); the points a larger capture frees are outside the search."""


def _chain(geometry: Geometry, stones: dict[int, Color], start: int) -> set[int]:
    color = stones[start]
    seen, todo = {start}, [start]
    while todo:
        p = todo.pop()
        for q in geometry.neighbours[p]:
            if q not in seen and stones.get(q) == color:
                seen.add(q)
                todo.append(q)
    return seen


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class CaptureAnswer:
    """The answer of one search: ``captured`` True / False / None (undecided), the first moves of
    the proof (empty when undecided), the nodes searched and the bound that stopped it, if any."""

    captured: bool | None
    lines: tuple[MoveNode, ...]
    nodes: int
    stopped: str = ""  # "" | "nodes" | "depth" | "position" (proof/status.py: Allowance)
    clean: bool = True  # no move refused by the repetition rule in the search


@dataclass(frozen=True)
class _Result:
    value: bool | None
    lines: tuple[MoveNode, ...]
    clean: bool  # no move refused by the repetition rule below this node


class CaptureSearch:
    """Whether ``attacker`` can capture the chain holding ``target`` on the position ``stones``
    (``{point: colour}``), moves restricted to ``region`` and to points freed by captures; with
    ``goal`` ``two-eyes``, whether ``attacker`` — the target's owner — can make it unconditionally
    alive (``captured`` then reads "reached").

    ``budget`` bounds the positions visited, ``max_depth`` the length of a line, ``show`` the
    depth of the tree kept for the reader.
    """

    def __init__(
        self,
        rules: Rules,
        geometry: Geometry,
        stones: dict[int, Color],
        target: frozenset[int],
        attacker: Color,
        region: frozenset[int],
        budget: int = 200_000,
        max_depth: int | None = None,
        show: int = 4,
        near_only: bool = False,
        goal: str = "capture",
        second_test: bool = True,
        root: Game | None = None,
        eyes: EyeReader | None = None,
    ) -> None:
        if root is not None:  # the search starts from a game in progress (its history kept)
            stones = {p: Color(c) for p, c in enumerate(root.board.color) if c != EMPTY}
        self.rules, self.geometry, self.stones = rules, geometry, dict(stones)
        self.target, self.attacker = target, attacker
        small = {p for p in stones if len(_chain(geometry, stones, p)) <= SMALL_CHAIN}
        self.candidates = tuple(sorted(region | small))
        self.budget = budget
        self.max_depth = max_depth if max_depth is not None else 3 * len(region) + 12
        self.show = show
        self.nodes = 0
        self.stopped = ""
        self.table: dict[tuple[bytes, int, bool], bool] = {}
        self.first = attacker
        # the attacker plays only on the liberties of the target and of the chains next to it:
        # fewer moves, so a capture found is still a proof; a failure proves nothing
        self.near_only = near_only
        self.goal = goal
        # J1989 Art. 7's second test: a capture its owner answers by capturing a capturing chain
        # back costs the capturer, and does not count (:meth:`_costly`)
        self.second_test = second_test
        self.recaptures: dict[tuple[bytes, int], CaptureAnswer] = {}  # _costly's answers, by position
        self.root = root
        # the target alive by its eye spaces (:mod:`.eyes`) ends a line as unconditional life does
        self.eyes = eyes
        self.by_eyes: dict[bytes, bool] = {}

    def run(self, first: Color) -> CaptureAnswer:
        """Search with ``first`` to move."""
        self.nodes, self.table, self.first = 0, {}, first
        game = self.root.copy() if self.root is not None else self._replay(())
        limit = self.max_depth
        result = _Result(None, (), True)
        # iterative deepening: short lines first (a decided answer is exact at any depth bound,
        # and the table keeps only decided answers, so it carries over)
        for depth in (*(d for d in (2, 4) if d < limit), limit):
            self.max_depth, self.stopped = depth, ""
            try:
                result = self._solve(game, (), False, 0)
            except _OutOfBudget:
                self.max_depth = limit
                return CaptureAnswer(None, (), self.nodes, "nodes")
            if result.value is not None:
                break
        self.max_depth = limit
        value = result.value
        lines = result.lines if value is not None else ()
        return CaptureAnswer(value, lines, self.nodes, self.stopped, result.clean)

    # -- the search --------------------------------------------------------------------------
    def _replay(self, path: tuple[Action, ...]) -> Game:
        game = Game.new(self.rules, self.geometry, self.stones, to_move=self.first)
        for action in path:
            game.play(action)
        return game

    def _moves(self, game: Game) -> list[int]:
        """The empty candidate points, the target's liberties first, then the liberties of the
        chains next to it, then the rest (an order only: every candidate is tried)."""
        board = game.board
        empty = [p for p in self.candidates if board.color[p] == EMPTY]
        target_libs: set[int] = set()
        near_libs: set[int] = set()
        for p in self.target:
            ch = board.chain[p]
            if ch is not None:
                target_libs |= ch.libs
                for s in ch.stones:
                    for q in board.nbrs[s]:
                        other = board.chain[q]
                        if other is not None and other.color != ch.color:
                            near_libs |= other.libs
        if self.near_only and game.to_move is self.attacker:
            empty = [p for p in empty if p in target_libs or p in near_libs]
        return sorted(empty, key=lambda p: (p not in target_libs, p not in near_libs, p))

    def _solve(self, game: Game, path: tuple[Action, ...], passed: bool, depth: int) -> _Result:
        self.nodes += 1
        if self.nodes > self.budget:
            self.stopped = "nodes"
            raise _OutOfBudget
        mover = game.to_move
        key = (bytes(game.board.color), int(mover), passed)
        known = self.table.get(key)
        if known is not None and depth >= self.show:
            return _Result(known, (), True)
        if depth >= self.max_depth:
            self.stopped = self.stopped or "depth"
            return _Result(None, (), True)
        attacking = mover is self.attacker
        if self.goal == TWO_EYES:
            if self.target <= unconditionally_alive(self.geometry, game.board.color, int(self.attacker)):
                return self._remember(key, _Result(True, (), True))  # the owner made it live on its own
        elif attacking and self.target <= unconditionally_alive(
            self.geometry, game.board.color, int(self.attacker.opponent)
        ):
            return self._remember(key, _Result(False, (), True))  # no sequence of moves captures it now
        elif attacking and self.eyes is not None and self._alive_by_eyes(game):
            return self._remember(key, _Result(False, (), True))  # its eye spaces keep it alive now
        actions = [Action.move(mover, p) for p in self._moves(game)]
        actions.insert(len(actions) if attacking else 0, Action.pass_(mover))
        clean, undecided = True, False
        proof: list[MoveNode] = []  # every move of the side that fails here, each answered
        child = None
        for action in actions:
            child = child or game.copy()
            step = child.play(action)
            if not step.legal:  # not a choice: the player would not make it (a pass is one already)
                clean = clean and step.reason not in _REPETITION
                if step.effect is not Effect.REFUSED:
                    child = None  # the ruleset turned it into a pass or a loss: that copy is spent
                continue
            note = (
                "captures " + " ".join(sorted(map(self.geometry.to_gtp, step.captures)))
                if step.captures
                else ""
            )
            terminal = True
            if self.goal == CAPTURE:
                removed = step.captures if attacking else step.self_captures
            else:
                removed = step.self_captures if attacking else step.captures
            if set(removed) & self.target:
                result = _Result(self.goal == CAPTURE, (), True)
                if self.goal == CAPTURE and self.second_test:
                    back = self._costly(child, step.captures)
                    if back.captured is not False:  # recaptured (or undecided): not a capture for good
                        value = None if back.captured is None else False
                        result = _Result(value, back.lines, back.clean)
                        note += "; its owner captures back"
                        terminal = False
            elif child.phase is not Phase.CONTEST:
                result = _Result(False, (), True)
                note = "play halts"
            else:
                result = self._solve(child, (*path, action), action.point is None, depth + 1)
                terminal = False
            clean = clean and result.clean
            child = None
            if result.value is None:
                undecided = True
                continue
            vertex = "pass" if action.point is None else self.geometry.to_gtp(action.point)
            replies = result.lines if depth + 1 < self.show else ()
            node = MoveNode(mover.letter, vertex, note, replies, not terminal and not replies)
            if result.value is attacking:  # this move decides the node for the mover
                return self._remember(key, _Result(attacking, (node,), clean))
            proof.append(node)
        if undecided:
            return _Result(None, (), clean)
        return self._remember(key, _Result(not attacking, tuple(proof), clean))

    def _costly(self, game: Game, captured: tuple[int, ...]) -> CaptureAnswer:
        """J1989 Art. 7's second test: after the attacker's move that captured the target (the
        target's owner to move on ``game``), can the owner capture a chain of the attacker next to
        the captured points back, against any defence, within :data:`RECAPTURE_MOVES` moves? A
        plain search (no second test of its own) on the capturing chain's region, its positions
        charged to this search's budget. ``captured`` True: the capture cost the capturer;
        False: it stands (a chain that lives on its own is not searched)."""
        board = game.board
        key = (bytes(board.color), int(game.to_move))
        known = self.recaptures.get(key)
        if known is not None:
            return known
        chains: list[frozenset[int]] = []
        for p in captured:
            for q in board.nbrs[p]:
                ch = board.chain[q]
                if ch is not None and ch.color == self.attacker and frozenset(ch.stones) not in chains:
                    chains.append(frozenset(ch.stones))
        answer = CaptureAnswer(False, (), 0)
        for chain in chains:
            if lives_on_its_own(board, chain):
                continue
            libs = {q for p in chain for q in board.nbrs[p] if board.color[q] == EMPTY}
            if len(libs) > (RECAPTURE_MOVES + 1) // 2:
                continue  # the owner has too few moves to fill them all, even if never answered
            search = CaptureSearch(
                self.rules,
                self.geometry,
                {},
                chain,
                self.attacker.opponent,
                region(board, chain),
                budget=RECAPTURE_NODES,
                max_depth=RECAPTURE_MOVES,
                show=self.show,
                near_only=True,
                second_test=False,
                root=game,
            )
            answer = search.run(game.to_move)
            self.nodes += search.nodes
            if answer.captured:
                break
            answer = CaptureAnswer(False, (), answer.nodes, answer.stopped, answer.clean)
        if self.nodes > self.budget:
            self.stopped = "nodes"
            raise _OutOfBudget
        if answer.clean:
            self.recaptures[key] = answer
        return answer

    def _alive_by_eyes(self, game: Game) -> bool:
        color = bytes(game.board.color)
        known = self.by_eyes.get(color)
        if known is None:
            owner = self.attacker.opponent
            known = self.target <= self.eyes.alive(game.board.color, owner)
            self.by_eyes[color] = known
        return known

    def _remember(self, key: tuple[bytes, int, bool], result: _Result) -> _Result:
        if result.clean and result.value is not None:
            self.table[key] = result.value
        return result
