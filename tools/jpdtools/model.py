"""The case model: what a case file says, as frozen values. {#format.case}

The loader (``jpdtools.loader``) builds these from YAML + the DSL of ``spec/case.lark``; the
runner executes them; the writer (``jpdtools.writer``) turns them back into YAML. Nothing here
knows about YAML, Lark or the engine's internals beyond colours and reason codes.
"""

from dataclasses import dataclass, field

from jpdtools.errors import Location


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
class Claim:
    """One typed claim about a step.

    ``kind`` and ``args``:
    * ``legal`` — ()
    * ``illegal`` / ``void-pass`` / ``forfeit`` — (reason,)
    * ``captures`` / ``self-captures`` — sorted GTP vertices (empty for ``captures none``)
    * ``to-move`` — (colour,)
    * ``board`` — (rows, e.g. ".XO/X.O/...",)
    """

    kind: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.kind == "captures" and not self.args:
            return "captures none"
        return " ".join((self.kind, *self.args))


@dataclass(frozen=True)
class StepVerdict:
    """The verdict on step ``step``: one list of claims, or several alternatives (either)."""

    step: int
    alternatives: tuple[tuple[Claim, ...], ...]
    location: Location | None = field(default=None, compare=False)

    @property
    def is_open(self) -> bool:
        return len(self.alternatives) > 1

    def __str__(self) -> str:
        return f"{self.step}: " + " | ".join(" ".join(map(str, a)) for a in self.alternatives)


@dataclass(frozen=True)
class EndVerdict:
    """The state after the last step: ``state`` is contest | halted | ended.

    ``args``: contest → (colour,); halted → (two-passes | four-virtual,);
    ended → (resignation | illegal-move, colour) or (cycle, draw | no-result).
    """

    state: str
    args: tuple[str, ...]
    location: Location | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return "end: " + " ".join((self.state, *self.args))


@dataclass(frozen=True)
class Expectation:
    """The verdict text chosen for one selector (``default``, a preset, or axis conditions)."""

    selector: str
    steps: tuple[StepVerdict, ...]
    end: EndVerdict | None
    text: str = ""
    location: Location | None = field(default=None, compare=False)


@dataclass(frozen=True)
class LoadErrorSpec:
    """An error case: loading ``file`` must fail with ``code`` at ``line``/``column``."""

    file: str
    code: str
    line: int
    column: int


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    spec: tuple[str, ...]
    seeds: tuple[str, ...]
    tags: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()  # empty = all presets
    depends: tuple[str, ...] = ()
    setup: Setup | None = None
    history: tuple[CaseAction, ...] = ()
    moves: tuple[CaseAction, ...] = ()
    expectations: tuple[Expectation, ...] = ()
    open: tuple[str, ...] = ()
    note: str = ""
    load_error: LoadErrorSpec | None = None
    location: Location | None = field(default=None, compare=False)

    @property
    def is_error_case(self) -> bool:
        return self.load_error is not None


@dataclass(frozen=True)
class CaseFile:
    path: str
    format: int
    topic: str
    cases: tuple[Case, ...]
