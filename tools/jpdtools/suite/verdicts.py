"""The verdict text of a case, as one value (:class:`Verdicts`): its lines, parsed by the grammar
of ``spec/case.lark`` (:meth:`jpdtools.suite.dsl.Dsl.parse_verdicts`), collected and checked —
one line per step, one ``end:``, one ``count:``, a point or a vertex named once.
"""

from dataclasses import dataclass, field

from jpdtools.errors import InputError, Location
from jpdtools.suite.model import (
    CountVerdict,
    EndVerdict,
    PointVerdict,
    ProofVerdict,
    SettledVerdict,
    SettleVerdicts,
    StepVerdict,
)


@dataclass(frozen=True)
class Verdicts:
    """A parsed verdict text. ``vertices`` and ``boards`` list what the loader must check
    against the board, with where each was written."""

    steps: tuple[StepVerdict, ...]
    end: EndVerdict | None
    vertices: tuple[tuple[str, Location], ...] = ()
    boards: tuple[tuple[str, Location], ...] = ()
    count: CountVerdict | None = None
    points: tuple[PointVerdict, ...] = ()
    settle: SettleVerdicts = field(default_factory=SettleVerdicts)

    @property
    def text(self) -> str:
        """The canonical text of these verdicts (steps, ``end:``, the settling lines, ``count:``,
        ``point:`` lines)."""
        return verdict_text(self.steps, self.end, self.count, self.points, self.settle)


def verdict_text(steps, end, count=None, points=(), settle: SettleVerdicts | None = None) -> str:
    """One line per step, then ``end:``, the settling lines, ``count:`` and the ``point:`` lines."""
    lines = [str(s) for s in steps]
    lines += [str(end)] if end is not None else []
    lines += settle.lines() if settle is not None else []
    lines += [str(count)] if count is not None else []
    lines += [str(p) for p in points]
    return "\n".join(lines)


def collect(lines, vertices, boards) -> Verdicts:
    """The verdicts of a verdict text from its parsed lines (the grammar's ``verdict_lines``): step
    verdicts in written order and the ``end:`` verdict. At most one line per step and one ``end:``
    line."""
    steps: list[StepVerdict] = []
    end: EndVerdict | None = None
    count: CountVerdict | None = None
    points: list[PointVerdict] = []
    seen: set[int] = set()
    settle = _SettleLines()
    for line in lines:
        if isinstance(line, tuple):
            settle.add(*line)
            continue
        if isinstance(line, CountVerdict):
            if count is not None:
                raise InputError("verdict: a second 'count:' line", line.location, code="verdict-syntax")
            count = line
            continue
        if isinstance(line, PointVerdict):
            _check_point(line, points)
            points.append(line)
            continue
        if isinstance(line, EndVerdict):
            if end is not None:
                raise InputError("verdict: a second 'end:' line", line.location, code="verdict-syntax")
            end = line
            continue
        if line.step in seen:
            raise InputError(
                f"verdict: a second line for step {line.step} (put all claims on one line)",
                line.location,
                code="verdict-syntax",
            )
        seen.add(line.step)
        steps.append(line)
    return Verdicts(
        tuple(steps),
        end,
        tuple(vertices),
        tuple(boards),
        count,
        tuple(points),
        settle.verdicts(),
    )


class _SettleLines:
    """Collects the settling lines of one verdict text: at most one line per settling step, one
    ``settle-end:``, one ``settled:`` and one ``settle:`` line; a vertex in at most one
    ``proved: dead|alive`` line and a claim in at most one ``proved: upheld|rejected`` line."""

    def __init__(self) -> None:
        self.steps: list[StepVerdict] = []
        self.end: EndVerdict | None = None
        self.settled: SettledVerdict | None = None
        self.proved: list[ProofVerdict] = []
        self.error: tuple[str, Location] | None = None

    @staticmethod
    def _twice(what: str, where: Location | None) -> InputError:
        return InputError(f"verdict: a second {what}", where, code="verdict-syntax")

    def add(self, kind: str, value) -> None:
        if kind == "fail":
            raise value
        if kind == "settle-step":
            if any(s.step == value.step for s in self.steps):
                raise self._twice(f"line for settling step {value.step}", value.location)
            self.steps.append(value)
        elif kind == "settle-end":
            if self.end is not None:
                raise self._twice("'settle-end:' line", value.location)
            self.end = value
        elif kind == "settled":
            if self.settled is not None:
                raise self._twice("'settled:' line", value.location)
            self.settled = value
        elif kind == "settle-error":
            if self.error is not None:
                raise self._twice("'settle:' line", value[1])
            self.error = value
        else:
            self._check_proved(value)
            self.proved.append(value)

    def _check_proved(self, line: ProofVerdict) -> None:
        vertices = [v for p in self.proved for v in p.vertices]
        for vertex in line.vertices:
            if vertex in vertices:
                message = f"verdict: {vertex} is named twice in 'proved:' lines"
                raise InputError(message, line.location, code="verdict-syntax")
            vertices.append(vertex)
        if line.claim is not None:
            same = (line.claim.color, line.claim.kind, line.claim.vertex)
            if any(p.claim and (p.claim.color, p.claim.kind, p.claim.vertex) == same for p in self.proved):
                raise self._twice(f"'proved:' line for the claim {line.claim}", line.location)

    def verdicts(self) -> SettleVerdicts:
        code, where = self.error if self.error is not None else (None, None)
        return SettleVerdicts(tuple(self.steps), self.end, self.settled, tuple(self.proved), code, where)


def _check_point(line: PointVerdict, earlier: list[PointVerdict]) -> None:
    """A vertex may appear in one ``point:`` line once."""
    seen = {v for p in earlier for v in p.vertices}
    mine: set[str] = set()
    for vertex in line.vertices:
        if vertex in seen or vertex in mine:
            raise InputError(
                f"verdict: point {vertex} is named twice in 'point:' lines",
                line.location,
                code="verdict-syntax",
            )
        mine.add(vertex)
