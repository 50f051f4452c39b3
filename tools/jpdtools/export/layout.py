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

import os
import re
import secrets
import shutil
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path

from jpdtools.errors import InputError, Location
from jpdtools.export.gtp import gtp_script
from jpdtools.export.jsonl import records_text
from jpdtools.export.sgf import sgf_text
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


def _played(items: Iterable[PlanItem]) -> list[PlanItem]:
    """The items with a ruleset (error cases have no game to write as SGF or GTP)."""
    return [i for i in items if i.rules is not None]


def write_json(items: list[PlanItem], outdir: Path) -> Written:
    path = outdir / JSONL_NAME
    _write(path, records_text(items))
    return Written("json", path, len(items))


def write_sgf(items: list[PlanItem], outdir: Path) -> Written:
    where = outdir / "sgf"
    count, problems = 0, []
    for item in _played(items):
        try:
            text = sgf_text(item)
        except Exception as err:  # one bad item must not lose the others
            problems.append(f"{item.name}: {type(err).__name__}: {err}")
            continue
        _write(where / file_name(item.case.id) / f"{file_name(item.ruleset)}.sgf", text)
        count += 1
    return Written("sgf", where, count, problems=tuple(problems))


def write_gtp(items: list[PlanItem], outdir: Path) -> Written:
    where = outdir / "gtp"
    count, skipped, problems = 0, [], []
    for item in _played(items):
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


def write_export(items: list[PlanItem], outdir: Path, forms: Iterable[str]) -> list[Written]:
    """Write the chosen forms of ``items`` as the whole content of ``outdir``, replacing an
    earlier export there. Raises InputError (nothing changed) if it cannot."""
    chosen = set(forms)
    _check_outdir(outdir)
    created = not outdir.exists()
    staging = outdir / f"{_STAGING_PREFIX}{os.getpid()}-{secrets.token_hex(4)}"
    try:
        staging.mkdir(parents=True)
        written = [WRITERS[form](items, staging) for form in FORMS if form in chosen]
        _publish(staging, outdir)
    except OSError as err:
        shutil.rmtree(staging, ignore_errors=True)
        if created:
            with suppress(OSError):
                outdir.rmdir()
        raise InputError(f"cannot write the export: {err.strerror or err}", Location(str(outdir))) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(staging, ignore_errors=True)
    return [replace(w, where=outdir / w.where.relative_to(staging)) for w in written]


def _check_outdir(outdir: Path) -> None:
    """``outdir`` must be new, empty, or hold an earlier export and nothing else."""
    if outdir.exists() and not outdir.is_dir():
        raise InputError("OUTDIR is not a directory", Location(str(outdir)))
    if not outdir.is_dir():
        return
    try:
        names = sorted(p.name for p in outdir.iterdir())
    except OSError as err:
        raise InputError(f"cannot read OUTDIR: {err.strerror or err}", Location(str(outdir))) from None
    foreign = [n for n in names if n not in ENTRIES and not n.startswith(_STAGING_PREFIX)]
    if foreign:
        shown = ", ".join(foreign[:3]) + (", …" if len(foreign) > 3 else "")
        raise InputError(
            f"OUTDIR holds files that are not an export ({shown}); export into a new or empty "
            "directory, or one holding only an earlier export (which is replaced)",
            Location(str(outdir)),
        )


def _publish(staging: Path, outdir: Path) -> None:
    """Move every entry of ``staging`` into ``outdir`` (each by one rename), then remove the
    entries of an earlier export that this one did not write."""
    new = {p.name for p in staging.iterdir()}
    for name in sorted(new):
        target = outdir / name
        if target.is_dir() and not target.is_symlink():
            old = outdir / f"{_STAGING_PREFIX}old-{secrets.token_hex(4)}"
            target.rename(old)
            (staging / name).rename(target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(staging / name, target)
    for name in ENTRIES:
        stale = outdir / name
        if name in new or not (stale.exists() or stale.is_symlink()):
            continue
        if stale.is_dir() and not stale.is_symlink():
            shutil.rmtree(stale)
        else:
            with suppress(FileNotFoundError):
                stale.unlink()
