"""The revision of a case: the content hash a decision records (spec/case-format.md#format.revision).
A decision whose revision is not the current one was taken on an earlier revision, and counts for
nothing until the committee decides again. An open question's revision is its section's
(:func:`jpdtools.review.questions.question_revisions`).
"""

import datetime
import hashlib
import json
import re

REVIEW_KEYS = ("status", "decision", "decided", "decided-by", "revision", "rulings", "votes", "comments")
"""The keys a review writes: never part of what it decides."""
READER_KEYS = ("title", "zh", "note", "tags")
"""Texts written for readers: rewording them does not change what a case claims."""
DIGITS = 12  # as the revisions of spec sections (jpdtools.review.translations)
REVISION_RE = re.compile(r"[0-9a-f]{12}")


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
