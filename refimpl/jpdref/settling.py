"""Settling a dispute by play (实战解决), as each ruleset runs it. {#count.settling}

A dispute after the halt (which stones are dead, whose an empty point is) is settled by playing
it out on the same engine as the play phase (:class:`~jpdref.game.Game`), started from the
halted game with :meth:`~jpdref.game.Game.continuation`. The halted game is never changed.

* jpd-art-2008 (001 第十三条, 答棋友问): an independent **test** from the halt position; the
  history is forgotten, either side may start by agreement, and afterwards the board goes back to
  the halt position and is counted with the statuses the test proved. {#count.settling.art-2008}
* jpd-art-2 (004 实战解决(1)–(2)): play **continues** from the halt position; the side to move
  starts; the history restarts; a pass is refused (virtual moves stand for passes); two
  consecutive virtual moves halt it, with a balancing virtual move when the first mover made the
  last move. {#count.settling.art-2}
* jpd-2022 (000 §28–29): play **continues** under the play-phase rules and history; the moves of
  the stage are counted apart and cost nothing (多下不贴点). {#count.settling.jpd-2022}
* jpd-a, jpd-b (003 恢復對局…直至再次休止): the game **resumes** under its own rules and history
  until it halts again by 四虚终局. {#count.settling.a-version}

After a continuation 收后 is the last real move of the whole game, settling included (003
第七條(1): 棋局最后那次休止前…最后的那一手實著為收后之著; OQ-52).

:func:`settled_position` turns a :class:`SettlingResult` into the
:class:`~jpdref.counting.FinalPosition` that counting takes.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from jpdref.coords import Geometry
from jpdref.counting.agreement import Agreement, Claim, ClaimKind
from jpdref.counting.position import FinalPosition
from jpdref.counting.regions import chain_points
from jpdref.game import Action, Game, Outcome, Phase, Stage, Step
from jpdref.stones import EMPTY, Color


class Procedure(StrEnum):
    """The ways of settling by play the seeds describe. {#count.settling}"""

    ART_2008 = "jpd-art-2008"  # 001 第十三条: an independent test, then back to the halt
    ART_2 = "jpd-art-2"  # 004 实战解决: a continuation with virtual moves for passes
    JPD_2022 = "jpd-2022"  # 000 §28–29: a continuation whose extra moves cost nothing
    A_VERSION = "jpd-a"  # 003: the game resumes (恢復對局) until it halts again (直至再次休止)


class SettlingError(ValueError):
    """Settling cannot start or its result cannot be counted; ``code`` names why.

    Codes: ``not-halted`` (the game to settle has not halted), ``unfinished`` (the settling
    stage has not halted yet), ``ended`` (it ended without counting: resignation, a cycle, a
    forfeit — the game's result is that outcome), ``no-procedure`` (no settling procedure for
    the ruleset), ``first-mover`` (a first mover given where the procedure fixes it).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Dispute:
    """What the players disagree about (001 第十三条(1)–(4)). {#count.settling}

    ``stones``: points of halt-position stones whose life is disputed (a mark stands for its
    chain). ``claims``: disputed ko and one-sided claims (单劫不粘有1目, 单方权利单官). A dispute
    about the eye points of a group (第十三条(3)) is a dispute about the chains around them
    (OQ-47).
    """

    stones: frozenset[int] = frozenset()
    claims: tuple[Claim, ...] = ()


@dataclass(frozen=True)
class Proof:
    """What the play proved, comparing the halt position with the stage's last position.

    ``captured`` are the halt stones whose chain does not stand at the end (some point of the
    chain no longer holds its colour); ``standing`` the others. {#count.settling.art-2008}
    """

    geometry: Geometry
    halt: tuple[int, ...]
    end: tuple[int, ...]
    captured: frozenset[int]
    standing: frozenset[int]

    @classmethod
    def of(cls, halted: Game, end: Game) -> "Proof":
        board, after = halted.board, end.board.color
        captured: set[int] = set()
        done: set[int] = set()
        for p, colour in enumerate(board.color):
            chain = board.chain[p]
            if colour == EMPTY or p in done or chain is None:
                continue
            done.update(chain.stones)
            if any(after[q] != colour for q in chain.stones):
                captured.update(chain.stones)
        stones = frozenset(done)
        return cls(halted.geometry, tuple(board.color), tuple(after), frozenset(captured), stones - captured)

    def chain_at(self, point: int) -> frozenset[int]:
        """The halt chain through ``point`` (empty if the point was empty at the halt)."""
        if self.halt[point] == EMPTY:
            return frozenset()
        return frozenset(chain_points(self.geometry, self.halt, point))

    def upholds(self, claim: Claim) -> bool:
        """{#count.settling.art-2008} 001 第十三条(2): a ko point is the claimer's if the opponent
        did not take it — at the end no opponent stone stands on it and every claimer stone next
        to it at the halt still stands; 第十三条(4): a one-sided point is the claimer's if the
        claimer's stone stands on it at the end (OQ-47)."""
        c, p = int(claim.color), claim.point
        if claim.kind is ClaimKind.ONE_SIDED:
            return self.end[p] == c
        if self.end[p] == int(claim.color.opponent):
            return False
        return all(q in self.standing for q in self.geometry.neighbours[p] if self.halt[q] == c)

    def resolve(self, agreement: Agreement, dispute: Dispute, on_halt_board: bool = True) -> Agreement:
        """The agreement with every disputed item decided by the play. {#count.settling}

        A disputed chain is dead if it was captured, alive if it stands (001 第十三条(1)); a
        disputed claim is kept if upheld, dropped if not, and when a ko claim fails the
        claimer's chains next to the point that were captured are dead (第十三条(2): the point
        is then not the claimer's). ``on_halt_board=False`` (a continuation: the board is not
        restored) adds no dead mark — a captured chain is gone already — and no claim on a point
        that is no longer empty.
        """
        dead = set(agreement.dead)
        for p in dispute.stones:
            chain = self.chain_at(p)
            if on_halt_board or p in self.standing:
                dead -= chain
            if on_halt_board and p in self.captured:
                dead |= chain
        disputed = set(dispute.claims)
        board = self.halt if on_halt_board else self.end
        claims = [c for c in agreement.claims if c not in disputed]
        for claim in dispute.claims:
            if self.upholds(claim):
                if board[claim.point] == EMPTY:
                    claims.append(claim)
            elif on_halt_board and claim.kind is ClaimKind.KO:
                own = int(claim.color)
                for q in self.geometry.neighbours[claim.point]:
                    if self.halt[q] == own and q in self.captured:
                        dead |= self.chain_at(q)
        seki = agreement.seki - dead
        return Agreement(frozenset(dead), seki, tuple(claims), agreement.dame, agreement.shared)


@dataclass(frozen=True)
class SettlingResult:
    """The settling stage: its game and steps, and what it proved. {#count.settling}

    ``halted`` is the game at the halt (unchanged); ``game`` the stage's game after the last
    action. ``settling`` is (Black, White) real + virtual moves made in the stage.
    """

    procedure: Procedure
    halted: Game
    game: Game
    steps: tuple[Step, ...]
    proof: Proof = field(repr=False)

    @property
    def finished(self) -> bool:
        """True when the stage halted and its result goes to counting."""
        return self.game.phase is Phase.HALTED

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome

    @property
    def settling(self) -> tuple[int, int]:
        return self.game.stage_moves()

    def filled(self, claims: Iterable[Claim]) -> tuple[Claim, ...]:
        """The upheld ``claims`` whose point the stage filled, in a continuation (the board is not
        restored): they are counted as the stone on the point, not as claims {#count.settling} —
        under the art judgment worth nothing (004 補棋损点损目: 收则损点损目). Empty for the
        independent test, which counts on the halt board."""
        if self.procedure is Procedure.ART_2008:
            return ()
        end = self.proof.end
        return tuple(c for c in claims if self.proof.upholds(c) and end[c.point] != EMPTY)


def _run(procedure: Procedure, halted: Game, game: Game, actions: Iterable[Action]) -> SettlingResult:
    steps = tuple(game.play(a) for a in actions)
    return SettlingResult(procedure, halted, game, steps, Proof.of(halted, game))


def _check_halted(halted: Game) -> None:
    if halted.phase is not Phase.HALTED:
        raise SettlingError("not-halted", f"only a halted game can be settled (this one is {halted.phase})")


def settle_art_2008(halted: Game, first: Color, actions: Iterable[Action]) -> SettlingResult:
    """{#count.settling.art-2008} 001 第十三条: the independent test (实战检验).

    The test starts from the halt's global position with no earlier position in its history;
    ``first`` is the side the players agreed on (the side to move or the other); the play-phase
    rules apply, two passes halt the test. The halted game is unchanged: the count is made on
    the halt position with the statuses the test proved (:func:`settled_position`).
    """
    _check_halted(halted)
    return _run(Procedure.ART_2008, halted, halted.continuation(Stage.TEST, to_move=first), actions)


def settle_art_2(halted: Game, actions: Iterable[Action]) -> SettlingResult:
    """{#count.settling.art-2} 004 实战解决(1)–(2): play continues from the halt position.

    The side to move at the halt (先弃方) starts; the history restarts; a pass is refused
    (``pass-not-allowed``) — a virtual move stands for it; two consecutive virtual moves halt
    the stage, and if the first mover made the last of them the engine makes the other side's
    balancing virtual move.
    """
    _check_halted(halted)
    game = halted.continuation(Stage.SETTLING, reset_history=True, virtual_for_pass=True)
    return _run(Procedure.ART_2, halted, game, actions)


def settle_jpd_2022(halted: Game, actions: Iterable[Action]) -> SettlingResult:
    """{#count.settling.jpd-2022} 000 §28–29: play continues under the same rules.

    The side to move at the halt starts; the 禁倒退 history continues (OQ-51); two passes halt
    the stage again; the stage's real + virtual moves are counted apart for 多下不贴点.
    """
    _check_halted(halted)
    game = halted.continuation(Stage.SETTLING, reset_history=False)
    return _run(Procedure.JPD_2022, halted, game, actions)


def settle_a_version(halted: Game, actions: Iterable[Action]) -> SettlingResult:
    """{#count.settling.a-version} 003: 協商時，若雙方意見分歧，應恢復對局，以實戰來解決分歧，直至再次休止.

    The game resumes: the side to move at the halt starts, the positional history and the
    four-virtual counts per board continue (a virtual move under a board that has already seen
    four halts the game again at once), and only 四虚终局 halts it again (OQ-51).
    """
    _check_halted(halted)
    game = halted.continuation(Stage.SETTLING, reset_history=False)
    return _run(Procedure.A_VERSION, halted, game, actions)


PROCEDURE_OF_RULESET = {
    "jpd-art-2008": Procedure.ART_2008,
    "jpd-art-2": Procedure.ART_2,
    "jpd-2022": Procedure.JPD_2022,
    "jhz-2022": Procedure.JPD_2022,  # 002 §27 has 000 §28's words and nothing more (OQ-51)
    "jpd-a": Procedure.A_VERSION,  # 003 (恢復對局…直至再次休止; OQ-51)
    "jpd-b": Procedure.A_VERSION,  # 003 (B版亦如是: the same fragments)
}
"""Preset name → its settling procedure. Other rulesets have none in the seeds (OQ-51)."""


def settle(
    procedure: Procedure | str, halted: Game, actions: Iterable[Action], first: Color | None = None
) -> SettlingResult:
    """Run ``procedure`` (or the procedure of a ruleset name). ``first`` only for jpd-art-2008,
    where it defaults to the side to move at the halt; the others refuse it.

    The checks come in the order of {#count.settling}: the halt is a precondition of any
    settling, so an unhalted game is ``not-halted`` even under a ruleset without a procedure;
    then ``no-procedure``; then ``first-mover``."""
    _check_halted(halted)
    try:
        proc = Procedure(PROCEDURE_OF_RULESET.get(str(procedure), procedure))
    except ValueError:
        raise SettlingError("no-procedure", f"no settling procedure for {procedure!r}") from None
    if proc is Procedure.ART_2008:
        return settle_art_2008(halted, first or halted.to_move, actions)
    if first is not None and first is not halted.to_move:
        raise SettlingError("first-mover", f"under {proc} the side to move at the halt starts")
    if proc is Procedure.ART_2:
        return settle_art_2(halted, actions)
    if proc is Procedure.A_VERSION:
        return settle_a_version(halted, actions)
    return settle_jpd_2022(halted, actions)


def settled_position(
    result: SettlingResult, agreement: Agreement | None = None, dispute: Dispute | None = None
) -> FinalPosition:
    """The :class:`FinalPosition` to count after settling. {#count.settling}

    jpd-art-2008: the halt board and the play-phase counters — the test's moves and captures are
    not part of the game — with ``agreement`` resolved by the test's proof; ``settling`` is
    (0, 0). The continuations (jpd-art-2, jpd-2022, jpd-a): the board at the end of the stage (the
    agreement is on that board), the counters of the whole game — 收后 the last real move before
    the final halt, settling included (003 第七條(1), OQ-52) — and ``settling`` = the stage's real
    + virtual moves.
    """
    if result.game.phase is Phase.ENDED:
        raise SettlingError("ended", f"the settling ended without counting: {result.outcome.describe()}")
    if not result.finished:
        raise SettlingError("unfinished", "the settling stage has not halted")
    agreement, dispute = agreement or Agreement(), dispute or Dispute()
    halted = result.halted
    if result.procedure is Procedure.ART_2008:
        proved = result.proof.resolve(agreement, dispute, on_halt_board=True)
        return FinalPosition.from_game(halted, proved)
    proved = result.proof.resolve(agreement, dispute, on_halt_board=False)
    game = result.game
    return FinalPosition(game.geometry, tuple(game.board.color), proved, game.counters(), result.settling)


__all__ = [
    "PROCEDURE_OF_RULESET",
    "Dispute",
    "Procedure",
    "Proof",
    "SettlingError",
    "SettlingResult",
    "settle",
    "settle_a_version",
    "settle_art_2",
    "settle_art_2008",
    "settle_jpd_2022",
    "settled_position",
]
