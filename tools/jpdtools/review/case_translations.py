"""The cases' Chinese texts (spec/case-format.md#format.zh) and their check (``jpd lint``).

Every case carries its title in Chinese, and its note where it has one. While the set is
incomplete ``jpd lint`` warns with the counts (and how many are missing in each file);
``jpd lint --require-zh`` makes every missing text a problem. A Chinese title or note without a
single Chinese character is always a problem (English pasted into ``zh``).

A Chinese text records no revision of the English it renders; what lint can see is its figures. A
note carries hand derivations — counts, coordinates, fractions — and its Chinese text must carry
every one of them. A figure of the English text that its Chinese text lacks is reported as a
warning on every run (the English changed after the translation, or the translation dropped a
step); like a stale Chinese clause it warns rather than fails, so that a fix to a case is not held
up by its translator.
"""

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from jpdtools.errors import Location
from jpdtools.suite.model import CaseFile

_HAN = re.compile(r"[\u3400-\u9fff]")
_FIGURE = re.compile(r"\b[A-HJ-Z](?:[1-9][0-9]?)\b|\d+(?:\.\d+)?|[¼½¾]")
"""A figure a translation keeps as written: a vertex (C3, T19), a number (6.5, 184) or a fraction."""


def figures(text: str) -> tuple[str, ...]:
    """The figures of ``text``, each once, in order."""
    return tuple(dict.fromkeys(_FIGURE.findall(text)))


def missing_figures(english: str, chinese: str) -> tuple[str, ...]:
    """The figures of ``english`` that ``chinese`` does not contain."""
    return tuple(f for f in figures(english) if f not in chinese)


@dataclass(frozen=True)
class Missing:
    case_id: str
    file: str
    what: str  # "title" | "note"
    location: Location | None


@dataclass(frozen=True)
class CaseTranslationCheck:
    missing: tuple[Missing, ...]
    not_chinese: tuple[tuple[str, Location | None], ...]  # (message, where): no Chinese, raw anchor: problems
    drifted: tuple[tuple[str, Location | None], ...]  # (message, where): figures lost, warnings
    titles: tuple[int, int]  # (written, cases)
    notes: tuple[int, int]  # (written, cases with a note)

    def summary(self) -> str:
        """One line: the counts and, per file, how many texts are missing ("" when none is)."""
        if not self.missing:
            return ""
        per_file = Counter(Path(m.file).name for m in self.missing)
        files = ", ".join(f"{name} {n}" for name, n in sorted(per_file.items()))
        return (
            f"case translations: {self.titles[0]} of {self.titles[1]} cases have a Chinese title, "
            f"{self.notes[0]} of {self.notes[1]} notes a Chinese note; missing per file: {files} "
            "(jpd lint --require-zh lists them)"
        )


def check_case_translations(files: Sequence[CaseFile]) -> CaseTranslationCheck:
    missing: list[Missing] = []
    not_chinese: list[tuple[str, Location | None]] = []
    drifted: list[tuple[str, Location | None]] = []
    titles = notes = with_note = cases = 0
    for case_file in files:
        for case in case_file.cases:
            where = case.location or Location(case_file.path)
            cases += 1
            has_note = bool(case.note.strip())
            with_note += has_note
            if case.zh_title:
                titles += 1
            else:
                missing.append(Missing(case.id, case_file.path, "title", where))
            if has_note and case.zh_note.strip():
                notes += 1
            elif has_note:
                missing.append(Missing(case.id, case_file.path, "note", where))
            for what, english, text in (
                ("title", case.title, case.zh_title),
                ("note", case.note, case.zh_note),
            ):
                if not text.strip():
                    continue
                if "{#" in text:
                    message = (
                        f"{case.id}: zh.{what} shows a raw {{#…}} anchor: name the clause in Chinese "
                        "and its anchor as code (`rules.axes`)"
                    )
                    not_chinese.append((message, where))
                if not _HAN.search(text):
                    not_chinese.append((f"{case.id}: zh.{what} has no Chinese character", where))
                elif lost := missing_figures(english, text):
                    message = (
                        f"{case.id}: zh.{what} lacks {', '.join(lost)} of the English {what}: "
                        "bring the Chinese text up to date"
                    )
                    drifted.append((message, where))
    return CaseTranslationCheck(
        tuple(missing), tuple(not_chinese), tuple(drifted), (titles, cases), (notes, with_note)
    )
