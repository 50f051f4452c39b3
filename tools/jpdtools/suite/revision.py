"""The revision of a case or an open question: the content hash a decision records
(spec/case-format.md#format.revision). A decision whose revision is not the current one was taken
on an earlier revision, and counts for nothing until the committee decides again.
"""

import datetime
import hashlib
import json
import re

REVIEW_KEYS = ("status", "decision", "decided", "decided-by", "revision", "rulings", "votes", "comments")
"""The keys a review writes: never part of what it decides."""
READER_KEYS = ("title", "zh", "note", "tags")
"""Texts written for readers: rewording them does not change what a case claims."""
DIGITS = 16
REVISION_RE = re.compile(r"[0-9a-f]{16}")
_HEADING = re.compile(r"(#+)\s")
_ANCHOR = re.compile(r"\{#(oq\.[1-9][0-9]*)\}")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGITS]


def _plain(value):
    """``value`` as JSON can write it: a YAML date as ``YYYY-MM-DD``, a text without trailing
    white space."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, str):
        return str(value).rstrip()  # a block written | or |-, or a quoted line, alike
    return value


def case_revision(mapping: dict) -> str:
    """The revision of a case, from its mapping as loaded from YAML."""
    claim = {k: v for k, v in mapping.items() if k not in REVIEW_KEYS and k not in READER_KEYS}
    text = json.dumps(_plain(claim), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return _digest(text)


def question_revisions(register: str) -> dict[str, str]:
    """The revision of every open question of ``register`` (the text of open-questions.md): its
    entry from the ``{#oq.N}`` heading up to the next heading of the same or a higher level."""
    lines = [line.rstrip() for line in register.splitlines()]
    levels = []  # the heading level of each line, 0 for text (and inside fenced code)
    fenced = False
    for line in lines:
        if line.lstrip().startswith("```"):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        levels.append(len(heading.group(1)) if heading else 0)
    out: dict[str, str] = {}
    for n, line in enumerate(lines):
        anchor = _ANCHOR.search(line)
        if not (levels[n] and anchor):
            continue
        level = levels[n]
        end = next((m for m in range(n + 1, len(lines)) if 0 < levels[m] <= level), len(lines))
        entry = lines[n:end]
        while entry and not entry[-1]:
            entry.pop()
        out.setdefault(anchor.group(1), _digest("\n".join(entry)))
    return out
