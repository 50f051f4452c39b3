"""Writing an export to disk: the directory layout of ``jpd export``. {#export.layout}

``OUTDIR/cases.jsonl`` (JSON Lines), ``OUTDIR/sgf/<case-id>/<ruleset>.sgf`` and
``OUTDIR/gtp/<case-id>.<ruleset>.tst``; the case × ruleset items that have no GTP script are
listed with the reason in ``OUTDIR/gtp/not-exported.txt``.

An export is written whole or not at all (spec/export-formats.md#export.layout): every form is
first written into a private staging directory inside ``OUTDIR``; only when all of it is written
does each entry replace its namesake by a rename, and the entries of an earlier export that this
one does not write are removed. ``OUTDIR`` may be new, empty, or hold an earlier export and
nothing else; a directory holding anything else is refused before anything is written.
"""

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from jpdtools.export.gtp import gtp_script
from jpdtools.export.jsonl import records_text
from jpdtools.export.sgf import sgf_text
from jpdtools.outdir import Layout, replace_whole
from jpdtools.run.runner import PlanItem

FORMS = ("json", "sgf", "gtp")
JSONL_NAME = "cases.jsonl"
NOT_EXPORTED_NAME = "not-exported.txt"
ENTRIES = (JSONL_NAME, "sgf", "gtp")  # what an export puts directly in OUTDIR
_STAGING_PREFIX = ".jpd-export-"
_UNSAFE = re.compile(r"[^A-Za-z0-9._=+-]")


@dataclass(frozen=True)
class Written:
    """What one form of the export wrote: ``count`` files or records, and the problems."""

    form: str
    where: Path
    count: int
    not_exported: tuple[str, ...] = ()  # "case[ruleset]: reason" (a limit of the format)
    problems: tuple[str, ...] = ()  # items that failed to export (a bug; reported, exit 1)


def file_name(text: str) -> str:
    """``text`` safe as one file-name component (ids and preset names already are)."""
    return _UNSAFE.sub("_", text) or "_"


def _write(path: Path, text: str) -> None:
    """A file of the staging directory (private until published: no temporary file needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


Tick = Callable[[int, int], None]
"""Called with (done, total) after each item a writer handles."""


def _played(items: Iterable[PlanItem], tick: Tick | None = None) -> Iterator[PlanItem]:
    """The items with a ruleset (error cases have no game to write as SGF or GTP), ``tick``
    called after each."""
    played = [i for i in items if i.rules is not None]
    for n, item in enumerate(played, 1):
        yield item
        if tick is not None:
            tick(n, len(played))


def write_json(items: list[PlanItem], outdir: Path, tick: Tick | None = None) -> Written:
    path = outdir / JSONL_NAME
    _write(path, records_text(items))
    if tick is not None:
        tick(len(items), len(items))
    return Written("json", path, len(items))


def write_sgf(items: list[PlanItem], outdir: Path, tick: Tick | None = None) -> Written:
    where = outdir / "sgf"
    count, problems = 0, []
    for item in _played(items, tick):
        try:
            text = sgf_text(item)
        except Exception as err:  # one bad item must not lose the others
            problems.append(f"{item.name}: {type(err).__name__}: {err}")
            continue
        _write(where / file_name(item.case.id) / f"{file_name(item.ruleset)}.sgf", text)
        count += 1
    return Written("sgf", where, count, problems=tuple(problems))


def write_gtp(items: list[PlanItem], outdir: Path, tick: Tick | None = None) -> Written:
    where = outdir / "gtp"
    count, skipped, problems = 0, [], []
    for item in _played(items, tick):
        try:
            script = gtp_script(item)
        except Exception as err:  # one bad item must not lose the others
            problems.append(f"{item.name}: {type(err).__name__}: {err}")
            continue
        if script.text is None:
            skipped.append(f"{item.name}: {script.reason}")
            continue
        _write(where / f"{file_name(item.case.id)}.{file_name(item.ruleset)}.tst", script.text)
        count += 1
    listing = "".join(f"{line}\n" for line in skipped)
    _write(
        where / NOT_EXPORTED_NAME,
        "# case[ruleset]: why GNU Go's regression format cannot hold it\n" + listing,
    )
    return Written("gtp", where, count, tuple(skipped), tuple(problems))


WRITERS = {"json": write_json, "sgf": write_sgf, "gtp": write_gtp}


LAYOUT = Layout(frozenset(ENTRIES), _STAGING_PREFIX, "export")


def write_export(
    items: list[PlanItem],
    outdir: Path,
    forms: Iterable[str],
    progress: Callable[[str, int, int], None] | None = None,
) -> list[Written]:
    """Write the chosen forms of ``items`` as the whole content of ``outdir``, replacing an
    earlier export there (jpdtools/outdir.py). Raises InputError (nothing changed) if it cannot.
    ``progress(form, done, total)`` after each item of each form."""
    chosen = set(forms)

    def tick(form: str) -> Tick | None:
        return None if progress is None else (lambda done, total: progress(form, done, total))

    def write(staging: Path) -> list[Written]:
        written = [WRITERS[form](items, staging, tick(form)) for form in FORMS if form in chosen]
        return [replace(w, where=outdir / w.where.relative_to(staging)) for w in written]

    return replace_whole(outdir, LAYOUT, write)
