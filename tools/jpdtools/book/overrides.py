"""Other readings of the open questions as rulesets, and the cases whose verdict they flip.

An entry of ``spec/open-questions.md`` whose other reading can be written as axis overrides says
so on a line of its own, ``Overrides: reading 2 `chinese:repetition=simple-ko,cycle=draw`; …``
(one or more rulesets in backquotes, each optionally preceded by the reading it stands for). The
book runs every case of the base preset under each such ruleset through the reference
implementation and lists the cases whose verdict differs (:func:`flips`): run, not guessed.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from jpdref.rules import RulesError

from jpdtools.book.observe import ObservedSuite, observe_under, verdict_of
from jpdtools.errors import InputError, Location
from jpdtools.presets import Presets
from jpdtools.review.lint import ANCHOR_RE

OVERRIDES = "Overrides:"
ITEM_RE = re.compile(r"(?:reading (\d+)\s*)?`([^`]+)`")


@dataclass(frozen=True)
class Override:
    question: str  # "oq.7"
    reading: str  # "2", or "" when the line does not say
    rules: str  # "chinese:repetition=simple-ko,cycle=draw"

    @property
    def base(self) -> str:
        return self.rules.partition(":")[0]


@dataclass(frozen=True)
class Flip:
    """A case whose verdict under ``override`` differs from its verdict under the base preset."""

    case_id: str
    override: Override
    before: tuple[str, ...]
    after: tuple[str, ...]


def read_overrides(path: Path, presets: Presets) -> tuple[Override, ...]:
    """Every ``Overrides:`` line of the register; a ruleset that is not a preset with valid
    overrides is an InputError naming the line."""
    out: list[Override] = []
    current = None
    lines = path.read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, 1):
        match = ANCHOR_RE.search(line) if line.startswith("#") else None
        if match:
            current = match.group(1) if match.group(1).startswith("oq.") else None
        if not line.startswith(OVERRIDES):
            continue
        paragraph = [(n, line)]  # the line and those continuing it, up to a blank line
        while n + len(paragraph) - 1 < len(lines) and lines[n + len(paragraph) - 1].strip():
            paragraph.append((n + len(paragraph), lines[n + len(paragraph) - 1]))
        if current is None or not ITEM_RE.search(" ".join(t for _, t in paragraph)):
            where = Location(str(path), n, 1)
            raise InputError(f"an {OVERRIDES!r} line names no ruleset or stands outside an entry", where)
        for m, text in paragraph:
            for item in ITEM_RE.finditer(text):
                out.append(_override(current, item, presets, Location(str(path), m, item.start(2) + 1)))
    return tuple(out)


def _override(question: str, item: re.Match, presets: Presets, where: Location) -> Override:
    reading, spec = item.group(1) or "", item.group(2)
    if ":" not in spec:
        raise InputError(f"{spec!r} overrides no axis", where)
    try:
        presets.get(spec)
    except RulesError as err:
        raise InputError(str(err), where) from None
    return Override(question, reading, spec)


def flips(override: Override, suite: ObservedSuite, presets: Presets) -> tuple[Flip, ...]:
    """The cases of the base preset whose verdict the override changes (each one run)."""
    rules = presets.get(override.rules)
    out = []
    for record in suite.records:
        base = record.result(override.base)
        if base is None or record.case.setup is None or base.observation is None:
            continue
        before = verdict_of(base.observation)
        after = verdict_of(observe_under(record, rules))
        if before != after:
            out.append(Flip(record.case.id, override, before, after))
    return tuple(out)
