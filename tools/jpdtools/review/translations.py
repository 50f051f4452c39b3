# ruff: noqa: E501 -- messages kept on one line
"""The spec in Chinese (``spec/zh/<name>.md``) and its check (``jpd lint``).

``spec/zh/play.md`` is the Chinese twin of ``spec/play.md``, and so on for every document of
:data:`TRANSLATED_DOCUMENTS`: the same CommonMark, the same headings in the same order with the
same ``{#anchor}``. A *section* is an anchored heading and the text below it up to the next
anchored heading; the text before a document's first anchored heading is its *preamble* (key
``""``). A section's *revision* is the first 12 hex digits of the SHA-256 of its English text
(blank runs collapsed), so any change to the English changes it. Each section of a twin records,
on the line right after its heading (the preamble: right after the ``# title`` line), the revision
of the English it renders::

    ### 颜色 {#board.colours}
    <!-- source: ab8556c7a6c4 -->

Links in a twin are relative file links valid in the repository: ``#anchor``, ``counting.md#anchor``
(another twin) and ``../rulesets.yaml`` (an English-only file of ``spec/``).

Lint fails on a twin whose structure is wrong (an anchor the English document lacks, a section with
no or two ``source`` lines, a section out of order). A section that is missing from a twin, or whose
``source`` is not the current revision (the English changed since), is a warning while its document
is being translated and an error once the document is in :data:`WHOLE` (its twin complete): then
whoever changes an English section brings its Chinese text up to date in the same change. Seed
quotations are never translated.
"""

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from jpdtools.errors import Location, read_text_file
from jpdtools.review.anchors import ANCHOR_RE

TRANSLATED_DOCUMENTS = (
    "play.md",
    "counting.md",
    "open-questions.md",
    "case-format.md",
    "contract.md",
    "jsonl-protocol.md",
)
# documents whose Chinese twin is complete: a missing or stale section of these is an error (every
# translated document is; a document added to TRANSLATED_DOCUMENTS alone is being translated)
WHOLE: tuple[str, ...] = TRANSLATED_DOCUMENTS
ZH_DIR = "zh"
PREAMBLE = ""  # the key of a document's preamble
GENERATED = "Pinned by:"  # a line written from the suite (spec/open-questions.md), not translated
_HEADING = re.compile(r"^(#+)\s.*\{#([A-Za-z0-9][A-Za-z0-9_.-]*)\}\s*$")
_SOURCE = re.compile(r"^<!--\s*source:\s*(\S*)\s*-->\s*$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_CODE_SPAN = re.compile(r"`[^`]*`")


@dataclass(frozen=True)
class Clause:
    """A section of an English document and its revision."""

    anchor: str  # "" for the preamble
    file: str
    line: int
    revision: str


@dataclass(frozen=True)
class ZhSection:
    anchor: str  # "" for the preamble
    source: str  # the revision of the English section it renders ("" when no source line)
    heading: str  # the heading without its anchor
    location: Location  # the heading (the preamble: line 1)
    source_lines: tuple[int, ...]  # where its source lines are (1-based)


@dataclass(frozen=True)
class ZhDocument:
    name: str  # "play.md"
    path: Path
    text: str  # the Markdown with every source line blanked (same line numbers), ready to render
    sections: tuple[ZhSection, ...]  # in order, the preamble first

    @property
    def sources(self) -> dict[str, str]:
        return {s.anchor: s.source for s in self.sections}

    def anchors(self) -> set[str]:
        """Every ``{#anchor}`` of the twin, in headings and in running text."""
        return {a for line in _outside_fences(self.text) for a in _anchors_in(line)}


def revision(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:12]


def _outside_fences(text: str) -> list[str]:
    """The lines of ``text``, those inside fenced code blocks replaced by ""."""
    out, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    return out


def _anchors_in(line: str) -> list[str]:
    """The ``{#anchor}`` of a line, those quoted in code spans left out."""
    return ANCHOR_RE.findall(_CODE_SPAN.sub("", line))


def _heads(lines: list[str]) -> list[tuple[int, str, str]]:
    """(0-based line, anchor, heading text) of every anchored heading."""
    return [
        (n, m.group(2), ANCHOR_RE.sub("", line).strip().lstrip("#").strip())
        for n, line in enumerate(lines)
        if (m := _HEADING.match(line))
    ]


def _without_generated(lines: list[str]) -> list[str]:
    """``lines`` with every ``Pinned by:`` paragraph (up to the next blank line) blanked."""
    out, inside = [], False
    for line in lines:
        inside = line.startswith(GENERATED) or (inside and bool(line.strip()))
        out.append("" if inside else line)
    return out


def document_sections(text: str, name: str) -> dict[str, Clause]:
    """The sections of one English document (the preamble under ``""``), with their revisions.

    An open question's ``Pinned by:`` line is left out of its revision: ``jpd lint --update-pins``
    writes it from the suite, and the twin does not repeat it (the book lists the cases itself)."""
    raw = _without_generated(text.splitlines())
    heads = _heads(_outside_fences(text))
    preamble = "\n".join(raw[: heads[0][0] if heads else len(raw)])
    out = {PREAMBLE: Clause(PREAMBLE, name, 1, revision(preamble))} if preamble.strip() else {}
    for i, (n, anchor, _) in enumerate(heads):
        end = heads[i + 1][0] if i + 1 < len(heads) else len(raw)
        out.setdefault(anchor, Clause(anchor, name, n + 1, revision("\n".join(raw[n:end]))))
    return out


def english_sections(spec_dir: Path) -> dict[str, dict[str, Clause]]:
    """document -> its sections (the preamble under ``""``), for every translated document."""
    return {
        name: document_sections(read_text_file(spec_dir / name), name)
        for name in TRANSLATED_DOCUMENTS
        if (spec_dir / name).is_file()
    }


def english_clauses(spec_dir: Path) -> dict[str, Clause]:
    """Every anchored section of the translated documents, with its revision."""
    out: dict[str, Clause] = {}
    for sections in english_sections(spec_dir).values():
        for anchor, clause in sections.items():
            if anchor != PREAMBLE:
                out.setdefault(anchor, clause)
    return out


def read_zh_document(path: Path) -> ZhDocument:
    text = read_text_file(path)
    lines = _outside_fences(text)
    heads = _heads(lines)
    starts = [(0, PREAMBLE, ""), *heads]
    sections = []
    blanked = text.splitlines()
    for i, (n, anchor, heading) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(lines)
        if anchor == PREAMBLE and not any(line.strip() for line in lines[n:end]):
            continue  # a document whose first line is an anchored heading has no preamble
        found = [(k, m.group(1)) for k in range(n, end) if (m := _SOURCE.match(lines[k]))]
        for k, _ in found:
            blanked[k] = ""
        sections.append(
            ZhSection(
                anchor,
                found[0][1] if found else "",
                heading,
                Location(str(path), n + 1, 1),
                tuple(k + 1 for k, _ in found),
            )
        )
    body = "\n".join(blanked) + ("\n" if text.endswith("\n") else "")
    return ZhDocument(path.name, path, body, tuple(sections))


def zh_documents(spec_dir: Path) -> dict[str, ZhDocument]:
    """The Chinese twins that exist, by document name."""
    return {
        name: read_zh_document(spec_dir / ZH_DIR / name)
        for name in TRANSLATED_DOCUMENTS
        if (spec_dir / ZH_DIR / name).is_file()
    }


Found = tuple[str, Location | None]


@dataclass(frozen=True)
class TranslationCheck:
    problems: tuple[Found, ...]  # errors: a malformed twin; a missing or stale section of a WHOLE document
    stale: tuple[Found, ...]  # warnings: sections older than their English text
    untranslated: tuple[str, ...]  # warnings: anchors (or "name.md" for a preamble) with no Chinese text yet
    done: int  # anchored sections translated and current
    total: int  # anchored sections of the translated documents


def _label(name: str, anchor: str) -> str:
    return f"{name} (its preamble)" if anchor == PREAMBLE else repr(anchor)


def _check_twin(name: str, english: dict[str, Clause], zh: ZhDocument, whole: bool):
    problems: list[Found] = []
    stale: list[Found] = []
    order = list(english)
    seen = [s.anchor for s in zh.sections]
    for s in zh.sections:
        clause = english.get(s.anchor)
        label = _label(name, s.anchor)
        if clause is None:
            problems.append((f"the Chinese section {label} has no English section in {name}", s.location))
            continue
        if len(s.source_lines) != 1:
            what = (
                "no"
                if not s.source_lines
                else f"{len(s.source_lines)} (lines {', '.join(map(str, s.source_lines))})"
            )
            problems.append(
                (
                    f"the Chinese section {label} has {what} '<!-- source: … -->' lines; it needs exactly one, the revision of the English it renders (now {clause.revision})",
                    s.location,
                )
            )
        elif s.source != clause.revision:
            message = (
                f"the Chinese section {label} renders revision {s.source} of the English one, which is now "
                f"{clause.revision} ({name}:{clause.line}): translate the change and update 'source'"
            )
            (problems if whole else stale).append((message, s.location))
    present = [a for a in order if a in seen]
    if present != [a for a in seen if a in english]:
        problems.append(
            (f"the sections of {zh.path} are not in the order of {name}", Location(str(zh.path), 1, 1))
        )
    missing = [a for a in order if a not in seen]
    return problems, stale, missing


def check_translations(spec_dir: Path) -> TranslationCheck:
    english = english_sections(spec_dir)
    twins = zh_documents(spec_dir)
    problems: list[Found] = []
    stale: list[Found] = []
    untranslated: list[str] = []
    done = 0
    for name, sections in english.items():
        whole = name in WHOLE
        twin = twins.get(name)
        anchored = [a for a in sections if a != PREAMBLE]
        if twin is None:
            if whole:
                problems.append(
                    (
                        f"{name} is complete in Chinese but spec/{ZH_DIR}/{name} is missing",
                        Location(str(spec_dir / name)),
                    )
                )
            untranslated += anchored
            continue
        found, old, missing = _check_twin(name, sections, twin, whole)
        problems += found
        stale += old
        wanted = _inline_anchors(spec_dir / name) - twin.anchors() - set(missing)
        problems += [
            (f"the anchor {{#{a}}} of {name} is missing from {twin.path}", Location(str(twin.path), 1, 1))
            for a in sorted(wanted)
        ]
        labels = [f"{name} (its preamble)" if a == PREAMBLE else a for a in missing]
        if whole and missing:
            problems += [
                (
                    f"the section {label} of {name} has no Chinese text in {twin.path} (the document is complete in Chinese: translate it)",
                    Location(str(twin.path), 1, 1),
                )
                for label in labels
            ]
        untranslated += labels
        current = {
            s.anchor
            for s in twin.sections
            if s.anchor in sections and s.source == sections[s.anchor].revision
        }
        done += len(current - {PREAMBLE})
    total = sum(len([a for a in s if a != PREAMBLE]) for s in english.values())
    return TranslationCheck(tuple(problems), tuple(stale), tuple(untranslated), done, total)


def _inline_anchors(path: Path) -> set[str]:
    """The anchors of an English document written in running text (not on an anchored heading)."""
    lines = _outside_fences(read_text_file(path))
    return {a for line in lines if not _HEADING.match(line) for a in _anchors_in(line)}
