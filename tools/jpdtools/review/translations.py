# ruff: noqa: E501 -- messages kept on one line
"""The spec's clauses in Chinese (``spec/zh/clauses.yaml``) and their check (``jpd lint``).

A clause is a heading with an anchor of ``play.md`` or ``counting.md`` and the text below it up
to the next heading. Its *revision* is the first 12 hex digits of the SHA-256 of that text (blank
runs collapsed), so any change to the English clause changes it. Each Chinese clause is written for
this project in its own words and records the revision of the English clause it renders
(``source:``). Lint fails on a Chinese clause whose English clause is gone, and warns — on every
run, with the place — of one whose ``source`` is not the current revision (the translation is older
than its source; the book marks it on the clause's page) and of the clauses with no Chinese text
yet. A stale translation warns rather than fails so that a fix to an English clause is not held up
by its translator; the warning stays until the Chinese text is brought up to date. Seed quotations are never translated.
"""

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from jpdtools.errors import InputError, Location, read_text_file
from jpdtools.yamlsrc import LocDict, load_yaml_text, location_of

TRANSLATED_DOCUMENTS = ("play.md", "counting.md")
ZH_CLAUSES = Path("zh") / "clauses.yaml"
_HEADING = re.compile(r"^(#+)\s.*\{#([A-Za-z0-9][A-Za-z0-9_.-]*)\}\s*$")


@dataclass(frozen=True)
class Clause:
    anchor: str
    file: str
    line: int
    revision: str


@dataclass(frozen=True)
class Translation:
    anchor: str
    source: str  # the revision of the English clause it renders
    heading: str
    text: str
    location: Location


def revision(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:12]


def english_clauses(spec_dir: Path) -> dict[str, Clause]:
    """Every clause of the translated documents, with its revision."""
    out: dict[str, Clause] = {}
    for name in TRANSLATED_DOCUMENTS:
        path = spec_dir / name
        if not path.is_file():
            continue
        lines = read_text_file(path).splitlines()
        heads = [(n, m.group(2)) for n, line in enumerate(lines) if (m := _HEADING.match(line))]
        for i, (n, anchor) in enumerate(heads):
            end = heads[i + 1][0] if i + 1 < len(heads) else len(lines)
            out.setdefault(anchor, Clause(anchor, name, n + 1, revision("\n".join(lines[n:end]))))
    return out


def load_translations(path: Path) -> dict[str, Translation]:
    text = read_text_file(path)
    where = str(path)
    data = load_yaml_text(text, where)
    if not isinstance(data, LocDict) or data.get("format") != 1 or data.get("language") != "zh-Hans":
        raise InputError("expected 'format: 1', 'language: zh-Hans' and 'clauses'", Location(where, 1, 1))
    clauses = data.get("clauses") or LocDict()
    if not isinstance(clauses, LocDict):
        raise InputError("'clauses' maps anchors to translations", location_of(clauses, where))
    out = {}
    for anchor, item in clauses.items():
        at = clauses.key_location(str(anchor), where)
        if not isinstance(item, LocDict) or set(item) != {"source", "heading", "text"}:
            raise InputError(f"the translation of {anchor!r} needs exactly: source, heading, text", at)
        values = [item[k] for k in ("source", "heading", "text")]
        if not all(isinstance(v, str) and v.strip() for v in values):
            raise InputError(f"source, heading and text of {anchor!r} are non-empty strings", at)
        out[str(anchor)] = Translation(str(anchor), *(str(v).strip() for v in values), at)
    return out


@dataclass(frozen=True)
class TranslationCheck:
    problems: tuple[
        tuple[str, Location | None], ...
    ]  # (message, where): a Chinese clause with no English one
    stale: tuple[tuple[str, Location | None], ...]  # translations older than their English clause (warnings)
    untranslated: tuple[str, ...]  # anchors with no Chinese text yet (warnings)
    done: int
    total: int


def check_translations(spec_dir: Path) -> TranslationCheck:
    english = english_clauses(spec_dir)
    path = spec_dir / ZH_CLAUSES
    try:
        zh = load_translations(path) if path.is_file() else {}
    except InputError as err:
        return TranslationCheck(((err.message, err.location),), (), tuple(english), 0, len(english))
    problems, stale = [], []
    for anchor, t in zh.items():
        clause = english.get(anchor)
        if clause is None:
            problems.append(
                (
                    f"the Chinese clause {anchor!r} has no English clause in {', '.join(TRANSLATED_DOCUMENTS)}",
                    t.location,
                )
            )
        elif t.source != clause.revision:
            stale.append(
                (
                    f"the Chinese clause {anchor!r} renders revision {t.source} of the English one, which is now "
                    f"{clause.revision} ({clause.file}:{clause.line}): translate the change and update 'source'",
                    t.location,
                )
            )
    untranslated = tuple(a for a in english if a not in zh)
    return TranslationCheck(
        tuple(problems), tuple(stale), untranslated, len(english) - len(untranslated), len(english)
    )
