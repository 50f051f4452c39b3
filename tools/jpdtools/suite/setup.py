"""What a case plays and counts, as frozen values: the set-up (the starting position), the
actions of its move lists, and its terms for counting the final position (the agreement, the
counters, a dispute settled by play). {#format.case}

These are the parts of the case model (:mod:`jpdtools.suite.model`) that a position to adjudicate
needs without a case around it: ``jpd play`` builds them from a diagram or ``--size`` and a move
list, and imports nothing else of the model.
"""

from dataclasses import dataclass, field

from jpdtools.errors import Location


@dataclass(frozen=True)
class CaseAction:
    """One action of a move list: ``kind`` is move | virtual | pass | resign."""

    color: str  # "B" | "W"
    kind: str
    vertex: str | None = None  # GTP vertex for kind == "move"
    location: Location | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.color} {self.vertex if self.kind == 'move' else self.kind}"


@dataclass(frozen=True)
class CaseClaim:
    """One claim of the agreement: ``color`` owns the empty ``vertex`` (kind ko | one-sided)."""

    color: str
    kind: str
    vertex: str
    location: Location | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.color} {self.kind} {self.vertex}"


@dataclass(frozen=True)
class CaseAgreement:
    """The agreement after the halt (spec/counting.md#count.agreement), as GTP vertices.

    ``dead`` holds the diagram's ``x``/``o`` marks and the ``agreement.dead`` vertices together
    (sorted); every tuple is sorted and free of repeats, so equal agreements compare equal.
    """

    dead: tuple[str, ...] = ()
    seki: tuple[str, ...] = ()
    claims: tuple[CaseClaim, ...] = ()
    dame: tuple[str, ...] = ()
    shared: tuple[str, ...] = ()
    black_owns: tuple[str, ...] = ()  # empty points agreed to be Black's (count.agreement.owned)
    white_owns: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (
            self.dead
            or self.seki
            or self.claims
            or self.dame
            or self.shared
            or self.black_owns
            or self.white_owns
        )


COUNTER_PAIRS = ("moves", "passes", "virtual", "prisoners", "settling")
COUNTER_KEYS = (*COUNTER_PAIRS[:4], "handicap", "first-pass", "last-move", "settling")


@dataclass(frozen=True)
class CaseCounters:
    """The ``counters:`` of a case: each figure given replaces the game's (None: not given).

    Pairs are (Black, White); ``prisoners`` are the stones each side *holds*; ``first_pass`` and
    ``last_move`` are ``B``, ``W`` or ``none``; ``settling`` the real + virtual moves each side made
    while settling a dispute by play (they are part of ``moves``/``virtual`` too).
    """

    moves: tuple[int, int] | None = None
    passes: tuple[int, int] | None = None
    virtual: tuple[int, int] | None = None
    prisoners: tuple[int, int] | None = None
    handicap: int | None = None
    first_pass: str | None = None
    last_move: str | None = None
    settling: tuple[int, int] | None = None

    @property
    def empty(self) -> bool:
        return all(getattr(self, f) is None for f in self.__dataclass_fields__)

    def items(self) -> list[tuple[str, object]]:
        """(case-file key, value) for every figure given, in the order of COUNTER_KEYS."""
        names = {"first-pass": "first_pass", "last-move": "last_move"}
        out = []
        for key in COUNTER_KEYS:
            value = getattr(self, names.get(key, key))
            if value is not None:
                out.append((key, value))
        return out


@dataclass(frozen=True)
class SettleSpec:
    """The ``settle:`` key: a dispute settled by play after the halt. {#format.settle}

    ``first`` (``B``/``W``, or None: the side to move at the halt) is the agreed first mover of
    jpd-art-2008's test; ``moves`` the settling stage's actions; ``stones`` the halt-position
    stones whose life is disputed (a mark stands for its chain) and ``claims`` the disputed
    claims, both sorted.
    """

    moves: tuple[CaseAction, ...] = ()
    first: str | None = None
    stones: tuple[str, ...] = ()
    claims: tuple[CaseClaim, ...] = ()


@dataclass(frozen=True)
class FinalSpec:
    """What a case says about counting: the agreement and the counters it gives (if any), and
    the dispute it settles by play first (``settle``)."""

    agreement: CaseAgreement = CaseAgreement()
    counters: CaseCounters = CaseCounters()
    settle: SettleSpec | None = None


@dataclass(frozen=True)
class Setup:
    """The starting position of a case. {#setup.position}

    ``stones`` maps GTP vertices to ``"B"``/``"W"``; ``markers`` maps marker letters to vertices.
    ``diagram`` keeps the original text (for writing back and for ``jpd explain``).
    """

    width: int
    height: int
    to_move: str = "B"  # "B" or "W"
    stones: tuple[tuple[str, str], ...] = ()  # ((vertex, colour), ...) in reading order
    markers: tuple[tuple[str, str], ...] = ()  # ((letter, vertex), ...)
    handicap: int = 0
    source: str = "size"  # "board" | "sgf" | "size"
    text: str = ""  # the diagram or SGF text as written
    # The agreement and counters for counting the position after the last step; None when the
    # case says nothing about counting (no agreement, no counters, no count or point verdict).
    final: FinalSpec | None = None
