"""The ``Overrides:`` lines of ``spec/open-questions.md``: other readings of an open question
written as axis overrides of a preset.

An entry whose other reading can be written as axis overrides says so on a paragraph of its own,
``Overrides: reading 2 `chinese:repetition=simple-ko,cycle=draw`, …`` (one or more rulesets in
backquotes, each optionally preceded by the reading it stands for). :func:`read_overrides` reads
them and checks each ruleset against the presets (``jpd lint`` reports a bad one with its place);
the case book runs every case of the base preset under each (:mod:`jpdtools.book.overrides`).
"""

import re
from dataclasses import dataclass
from pathlib import Path

from jpdref.rules import RulesError

from jpdtools.errors import InputError, Location, read_text_file
from jpdtools.presets import Presets

OPEN_QUESTIONS = "open-questions.md"
OVERRIDES = "Overrides:"
ITEM_RE = re.compile(r"(?:reading (\d+)\s*)?`([^`]+)`")
ENTRY_RE = re.compile(r"\{#(oq\.[0-9]+)\}")


@dataclass(frozen=True)
class Override:
    question: str  # "oq.7"
    reading: str  # "2", or "" when the line does not say
    rules: str  # "chinese:repetition=simple-ko,cycle=draw"

    @property
    def base(self) -> str:
        return self.rules.partition(":")[0]


def read_overrides(path: Path, presets: Presets) -> tuple[Override, ...]:
    """Every ``Overrides:`` line of the register; a ruleset that is not a preset with valid
    overrides is an InputError naming the line."""
    out: list[Override] = []
    current = None
    lines = read_text_file(path).splitlines()
    for n, line in enumerate(lines, 1):
        if line.startswith("#"):
            match = ENTRY_RE.search(line)
            current = match.group(1) if match else None
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
