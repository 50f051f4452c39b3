"""A reviewer's review file, as the case book exports it ({#format.review-file}): who reviewed,
and a list of entries — accept, dispute, reject or comment, on a case or an open question as a
whole or on one ruleset's verdicts. JSON or YAML (JSON is YAML); every problem is an InputError
naming the file, line and column. ``spec/review.schema.json`` states the same form for other tools.
"""

import datetime
import re
from dataclasses import dataclass
from pathlib import Path

from jpdtools.errors import InputError, Location, read_text_file
from jpdtools.hidden import hidden_character
from jpdtools.suite.revision import REVISION_RE
from jpdtools.yamlsrc import LocDict, LocList, load_yaml_text, location_of

KIND = "jipingdian-review"
FILE_KEYS = ("format", "kind", "reviewer", "exported", "entries")
ENTRY_KEYS = ("target", "id", "ruleset", "action", "text", "date", "revision")
TARGETS = ("case", "question")
ACTIONS = ("accept", "dispute", "reject", "comment")
STATUS_OF = {"accept": "accepted", "dispute": "disputed", "reject": "rejected"}
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")


@dataclass(frozen=True)
class Entry:
    reviewer: str
    target: str  # case | question
    id: str  # a case id, or an open question's anchor (oq.3)
    ruleset: str  # "" for the whole case or question
    action: str  # one of ACTIONS
    text: str
    date: str  # YYYY-MM-DD
    location: Location | None = None
    revision: str = ""  # the revision of the page the reviewer read ({#format.revision}); "" unknown

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.target, self.id, self.ruleset)

    @property
    def scope(self) -> str:
        return f"{self.target} {self.id}" + (f" on {self.ruleset}" if self.ruleset else "")


@dataclass(frozen=True)
class ReviewFile:
    path: str
    reviewer: str
    entries: tuple[Entry, ...]


def load_review_file(path: Path) -> ReviewFile:
    return load_review_text(read_text_file(path, "review file"), str(path))


def _at(mapping: LocDict, key: str, path: str) -> Location:
    value = mapping.get(key)
    return location_of(value, path) if getattr(value, "line", 0) else mapping.key_location(key, path)


def _string(
    mapping: LocDict, key: str, path: str, what: str, required: bool = True, multiline: bool = False
) -> str:
    """A string value, stripped; one line without characters a reader cannot see, or (for a
    ``multiline`` text) lines without them (:mod:`jpdtools.hidden`)."""
    if key not in mapping:
        if required:
            raise InputError(f"{what} needs {key!r}", location_of(mapping, path))
        return ""
    value = mapping[key]
    if not isinstance(value, str) or (required and not value.strip()):
        raise InputError(f"{key!r} of {what} must be a non-empty string", _at(mapping, key, path))
    hidden = hidden_character(value.strip(), multiline)
    if hidden:
        kind = "a text" if multiline else "one line"
        raise InputError(
            f"{key!r} of {what} is {kind} of visible characters: it holds {hidden}", _at(mapping, key, path)
        )
    return value.strip()


def _date(mapping: LocDict, key: str, path: str, what: str) -> str:
    value = mapping.get(key)
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, str) and _DATE.match(value):
        try:
            return datetime.date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    where = _at(mapping, key, path) if key in mapping else location_of(mapping, path)
    raise InputError(f"{key!r} of {what} must be a date written YYYY-MM-DD (got {value!r})", where)


def _revision(mapping: LocDict, path: str) -> str:
    if "revision" not in mapping:
        return ""
    value = mapping["revision"]
    if not isinstance(value, str) or not REVISION_RE.fullmatch(value):
        raise InputError(
            f"'revision' of an entry is the 12 hex digits of the page's revision (got {value!r})",
            _at(mapping, "revision", path),
        )
    return str(value)


def load_review_text(text: str, path: str) -> ReviewFile:
    data = load_yaml_text(text, path)
    if not isinstance(data, LocDict):
        raise InputError(f"a review file is a mapping: {', '.join(FILE_KEYS)}", Location(path, 1, 1))
    for key in data:
        if key not in FILE_KEYS:
            raise InputError(
                f"unknown key {key!r} in a review file (expected: {', '.join(FILE_KEYS)})",
                data.key_location(str(key), path),
            )
    if data.get("format") != 1 or type(data.get("format")) is not int:
        raise InputError(
            "expected 'format': 1", _at(data, "format", path) if "format" in data else Location(path, 1, 1)
        )
    if data.get("kind") != KIND:
        where = _at(data, "kind", path) if "kind" in data else Location(path, 1, 1)
        raise InputError(f"expected 'kind': {KIND!r} (is this a review file of the case book?)", where)
    reviewer = _string(data, "reviewer", path, "a review file")
    entries = data.get("entries")
    if not isinstance(entries, LocList):
        raise InputError(
            "'entries' must be a list",
            _at(data, "entries", path) if "entries" in data else Location(path, 1, 1),
        )
    out = []
    for item in entries:
        if not isinstance(item, LocDict):
            raise InputError(f"an entry is a mapping: {', '.join(ENTRY_KEYS)}", location_of(item, path))
        for key in item:
            if key not in ENTRY_KEYS:
                raise InputError(
                    f"unknown key {key!r} in an entry (expected: {', '.join(ENTRY_KEYS)})",
                    item.key_location(str(key), path),
                )
        target = _string(item, "target", path, "an entry")
        if target not in TARGETS:
            raise InputError(
                f"'target' is one of: {', '.join(TARGETS)} (got {target!r})", _at(item, "target", path)
            )
        ident = _string(item, "id", path, "an entry")
        action = _string(item, "action", path, "an entry")
        if action not in ACTIONS:
            raise InputError(
                f"'action' is one of: {', '.join(ACTIONS)} (got {action!r})", _at(item, "action", path)
            )
        text = _string(item, "text", path, "an entry", required=action != "accept", multiline=True)
        out.append(
            Entry(
                reviewer,
                target,
                ident,
                _string(item, "ruleset", path, "an entry", required=False),
                action,
                text or "Accepted as written.",
                _date(item, "date", path, "an entry"),
                location_of(item, path),
                _revision(item, path),
            )
        )
    return ReviewFile(path, reviewer, tuple(out))
