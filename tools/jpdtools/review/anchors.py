"""The ``{#anchor}`` labels of ``spec/*.md``: each clause's name, and the heading it labels.

Read by ``jpd lint`` (every case cites anchors that exist), ``jpd explain``, ``jpd trace``,
``jpd verify`` and the book (a clause's title and file); a module of its own so that reading them
imports nothing of the lint.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from jpdtools.errors import InputError, read_text_file

ANCHOR_RE = re.compile(r"\{#([A-Za-z0-9][A-Za-z0-9_.-]*)\}")


@dataclass(frozen=True)
class Anchor:
    """A ``{#anchor}`` in ``spec/*.md`` and the heading (or line) it labels."""

    name: str
    file: str
    line: int
    heading: str


CODE_SPAN_RE = re.compile(r"`[^`]*`")


def spec_anchors(spec_dir: Path) -> dict[str, Anchor]:
    """Every ``{#anchor}`` of ``spec/*.md`` (first occurrence wins); one written in a code span is
    prose about anchors (`{#oq.N}`), not an anchor."""
    anchors: dict[str, Anchor] = {}
    for path in sorted(spec_dir.glob("*.md")):
        try:
            lines = read_text_file(path).splitlines()
        except InputError:
            continue
        for n, line in enumerate(lines, 1):
            for match in ANCHOR_RE.finditer(CODE_SPAN_RE.sub("", line)):
                heading = ANCHOR_RE.sub("", line).strip().lstrip("#").strip()
                anchors.setdefault(match.group(1), Anchor(match.group(1), path.name, n, heading))
    return anchors
