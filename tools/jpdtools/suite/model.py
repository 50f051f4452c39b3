"""The case model: what a case file says, as frozen values. {#format.case}

The loader (``jpdtools.suite.loader``) builds these from YAML + the DSL of ``spec/case.lark``; the
runner executes them; the writer (``jpdtools.suite.writer``) turns them back into YAML. Nothing here
knows about YAML, Lark or the engine's internals beyond colours and reason codes.
"""

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from jpdtools.errors import Location
from jpdtools.suite.setup import CaseAction, CaseClaim, Setup

UNITS = {
    **{u: u for u in ("点", "目", "子", "路")},
    **{"points": "点", "moku": "目", "stones": "子", "roads": "路"},
}
"""Unit spellings of a ``count:`` verdict → the method's unit (ASCII aliases allowed)."""


def decimal_text(x: Fraction) -> str:
    """A figure as the exact decimal a case file writes: ``3``, ``-0.5``, ``184.25``.

    Figures read from case files are decimals, so their denominators divide a power of ten;
    any other fraction is written with 12 decimals (it cannot come from a case file).
    """
    if x.denominator == 1:
        return str(x.numerator)
    d = Decimal(x.numerator) / Decimal(x.denominator)
    return format(d.normalize() if Fraction(d) == x else round(d, 12), "f")


@dataclass(frozen=True)
class Claim:
    """One typed claim about a step.

    ``kind`` and ``args``:
    * ``legal`` — ()
    * ``illegal`` / ``void-pass`` / ``forfeit`` — (reason,); or () for a refusal held without its
      reason (a program that does not report reasons: ``jpdtools.verify.jsonl.adapter.held_claim``)
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
class CountClaim:
    """One claim about the count: ``kind`` is ``result`` or ``error``.

    ``result``: ``winner`` (B, W, draw), ``margin`` (Black's lead in points after komi) and
    optionally each side's figures ``black``/``white`` in the method's unit and the ``unit``;
    ``error``: ``code``, a CountingError code.
    """

    kind: str
    winner: str = ""
    margin: Fraction = Fraction(0)
    black: Fraction | None = None
    white: Fraction | None = None
    unit: str | None = None
    code: str = ""

    def __str__(self) -> str:
        if self.kind == "error":
            return f"error {self.code}"
        words = [f"winner {self.winner} margin {decimal_text(self.margin)}"]
        if self.black is not None and self.white is not None:
            words.append(f"black {decimal_text(self.black)} white {decimal_text(self.white)}")
        if self.unit:
            words.append(f"unit {self.unit}")
        return " ".join(words)


@dataclass(frozen=True)
class CountVerdict:
    """The ``count:`` line: one claim, or several alternatives (either)."""

    alternatives: tuple[CountClaim, ...]
    location: Location | None = field(default=None, compare=False)

    @property
    def is_open(self) -> bool:
        return len(self.alternatives) > 1

    def __str__(self) -> str:
        return "count: " + " | ".join(map(str, self.alternatives))


@dataclass(frozen=True)
class PointVerdict:
    """A ``point:`` line: these vertices' owner (B, W or none) and reason on the counted board."""

    vertices: tuple[str, ...]
    owner: str
    why: str
    location: Location | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"point: {' '.join(self.vertices)} {self.owner} {self.why}"


@dataclass(frozen=True)
class ProofVerdict:
    """A ``proved:`` line: what the settling proved. ``kind`` is dead | alive (``vertices``: halt
    stones whose chain was captured / stands at the end of the stage) or upheld | rejected
    (``claim``: a disputed claim)."""

    kind: str
    vertices: tuple[str, ...] = ()
    claim: CaseClaim | None = None
    location: Location | None = field(default=None, compare=False)

    def __str__(self) -> str:
        what = " ".join(self.vertices) if self.claim is None else str(self.claim)
        return f"proved: {self.kind} {what}"


@dataclass(frozen=True)
class SettledVerdict:
    """A ``settled:`` line: the settling stage's real + virtual moves (Black, White)."""

    black: int
    white: int
    location: Location | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"settled: B {self.black} W {self.white}"


@dataclass(frozen=True)
class SettleVerdicts:
    """What a verdict text says about settling by play (spec/case-format.md#format.settle).

    ``steps`` (``settle N:`` lines, numbered over the ``settle`` moves), ``end`` (``settle-end:``),
    ``settled``, ``proved`` lines, and ``error`` (``settle: error CODE``, a SettlingError code).
    """

    steps: tuple[StepVerdict, ...] = ()
    end: EndVerdict | None = None
    settled: SettledVerdict | None = None
    proved: tuple[ProofVerdict, ...] = ()
    error: str | None = None
    error_location: Location | None = field(default=None, compare=False)

    @property
    def empty(self) -> bool:
        return not (self.steps or self.end or self.settled or self.proved or self.error)

    def lines(self) -> list[str]:
        """The canonical lines: steps, ``settle-end:``, ``settled:``, ``proved:``, the error."""
        out = [f"settle {s}" for s in self.steps]
        out += [f"settle-{self.end}"] if self.end is not None else []
        out += [str(self.settled)] if self.settled is not None else []
        out += [str(p) for p in self.proved]
        out += [f"settle: error {self.error}"] if self.error else []
        return out


@dataclass(frozen=True)
class Expectation:
    """The verdict text chosen for one selector (``default``, a preset, or axis conditions)."""

    selector: str
    steps: tuple[StepVerdict, ...]
    end: EndVerdict | None
    text: str = ""
    location: Location | None = field(default=None, compare=False)
    count: CountVerdict | None = None
    points: tuple[PointVerdict, ...] = ()
    settle: SettleVerdicts = SettleVerdicts()

    @property
    def counts(self) -> bool:
        """Whether this expectation says anything about the count."""
        return self.count is not None or bool(self.points)

    @property
    def settles(self) -> bool:
        """Whether this expectation says anything about settling by play."""
        return not self.settle.empty

    @property
    def empty(self) -> bool:
        """Whether it claims nothing at all (an empty or comment-only text): an error, never a
        pass ({#format.expect})."""
        return not self.steps and self.end is None and not self.counts and not self.settles


@dataclass(frozen=True)
class LoadErrorSpec:
    """An error case: loading ``file`` must fail with ``code`` at ``line``/``column``."""

    file: str
    code: str
    line: int
    column: int


REVIEW_STATUSES = ("proposed", "accepted", "disputed", "rejected")
"""The review status of a case or open question ({#format.review}); ``proposed`` is the default:
nothing is accepted until a decision is recorded."""
DECIDED_STATUSES = REVIEW_STATUSES[1:]
"""The statuses a decision gives; each needs the decision's text, date and who took it."""


@dataclass(frozen=True)
class Ruling:
    """A decision on one ruleset's verdicts of a case (``rulings:``, {#format.review})."""

    ruleset: str
    status: str  # one of DECIDED_STATUSES
    decision: str
    decided: str  # YYYY-MM-DD
    decided_by: str
    revision: str = ""  # the revision of the case it was taken on ({#format.revision})


@dataclass(frozen=True)
class Vote:
    """One committee member's position on a case or question, or on one ruleset's verdicts of it
    (``votes:``, {#format.quorum}); a decision needs a quorum of them on the current revision."""

    by: str
    status: str  # one of DECIDED_STATUSES
    date: str  # YYYY-MM-DD
    revision: str  # the revision the member read ({#format.revision})
    text: str
    ruleset: str = ""  # empty: the case as a whole


@dataclass(frozen=True)
class Comment:
    """A reviewer's remark on a case, or on one ruleset's verdicts of it (``comments:``)."""

    by: str
    date: str  # YYYY-MM-DD
    text: str
    ruleset: str = ""  # empty: the case as a whole


@dataclass(frozen=True)
class QuestionReview:
    """Where an open question of spec/open-questions.md stands (``spec/question-reviews.yaml``);
    a question the file does not name is ``proposed``."""

    anchor: str  # "oq.3"
    status: str = "proposed"
    decision: str = ""
    decided: str = ""
    decided_by: str = ""
    revision: str = ""  # the revision of the question the decision was taken on
    rulings: tuple[Ruling, ...] = ()
    votes: tuple[Vote, ...] = ()
    comments: tuple[Comment, ...] = ()
    location: Location | None = field(default=None, compare=False)


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
    # spec/case-format.md#format.zh: the title and note in Simplified Chinese ("" = not written yet)
    zh_title: str = ""
    zh_note: str = ""
    load_error: LoadErrorSpec | None = None
    # review status (spec/case-format.md#format.review): absent in the file = proposed
    status: str = "proposed"  # one of REVIEW_STATUSES
    decision: str = ""  # the committee's decision, free text
    decided: str = ""  # the date of the decision, YYYY-MM-DD (given exactly when decision is)
    decided_by: str = ""  # who took it
    revision: str = ""  # the revision of the case the decision was taken on ({#format.revision})
    rulings: tuple[Ruling, ...] = ()  # decisions on single rulesets' verdicts
    votes: tuple[Vote, ...] = ()  # the members' positions ({#format.quorum})
    comments: tuple[Comment, ...] = ()
    # spec/case-format.md#format.status-proof: ("agreement" | "pending", why) when the agreement's
    # statuses are agreed on purpose / not proven yet; ("", "") when lint proves them
    status_proof: tuple[str, str] = ("", "")
    # {#format.revision}: the content hash of the case as it stands (computed by the loader from
    # the YAML as written: like the location, a fact of the text, not compared)
    content_revision: str = field(default="", compare=False)
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
