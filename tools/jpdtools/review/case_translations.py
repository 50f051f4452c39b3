"""The cases' Chinese texts (spec/case-format.md#format.zh) and their check (``jpd lint``).

Every case carries its title in Chinese, and its note where it has one. While the set is
incomplete ``jpd lint`` warns with the counts (and how many are missing in each file);
``jpd lint --require-zh`` makes every missing text a problem. A Chinese title or note without a
single Chinese character is always a problem (English pasted into ``zh``).
"""

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from jpdtools.errors import Location
from jpdtools.suite.model import CaseFile

_HAN = re.compile(r"[\u3400-\u9fff]")


@dataclass(frozen=True)
class Missing:
    case_id: str
    file: str
    what: str  # "title" | "note"
    location: Location | None


@dataclass(frozen=True)
class CaseTranslationCheck:
    missing: tuple[Missing, ...]
    not_chinese: tuple[tuple[str, Location | None], ...]  # (message, where): always problems
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
            for what, text in (("title", case.zh_title), ("note", case.zh_note)):
                if text.strip() and not _HAN.search(text):
                    not_chinese.append((f"{case.id}: zh.{what} has no Chinese character", where))
    return CaseTranslationCheck(tuple(missing), tuple(not_chinese), (titles, cases), (notes, with_note))
