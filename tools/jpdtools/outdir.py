"""An output folder written whole or not at all: ``jpd export`` and ``jpd book``.

:func:`replace_whole` writes the new content into a private staging folder inside ``OUTDIR``;
only when all of it is written does each entry replace its namesake by one rename, and the
entries of an earlier output that this one does not write are removed. Signals are held during
those renames (a few, quick), so SIGINT or SIGTERM leaves the earlier output or the new one,
never a mix; a staging folder left by a killed run is removed by the next.

``OUTDIR`` may be new, empty, or hold an earlier output of the same command and nothing else
(:func:`check_outdir`): a folder holding anything else, or an entry that is a symbolic link
(writing through it would write outside ``OUTDIR``), is refused before anything is written.
Every failure (full disk, read-only file system, permissions) is an InputError naming OUTDIR.
"""

import os
import secrets
import shutil
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from jpdtools.errors import InputError, Location

T = TypeVar("T")


@dataclass(frozen=True)
class Layout:
    """What a command's output folder holds: its entries (names directly in OUTDIR), how its
    staging folders are named, and what the output is called in messages."""

    entries: frozenset[str]
    staging_prefix: str
    what: str  # "export", "book"


def check_outdir(outdir: Path, layout: Layout) -> None:
    """``outdir`` must be new, empty, or hold an earlier output of ``layout`` and nothing else."""
    where = Location(str(outdir))
    if outdir.is_symlink() and not outdir.exists():
        raise InputError("OUTDIR is a broken symbolic link", where)
    if outdir.exists() and not outdir.is_dir():
        raise InputError("OUTDIR is not a directory", where)
    if not outdir.is_dir():
        return
    try:
        entries = sorted(outdir.iterdir())
    except OSError as err:
        raise InputError(f"cannot read OUTDIR: {err.strerror or err}", where) from None
    links = [p.name for p in entries if p.name in layout.entries and p.is_symlink()]
    if links:
        raise InputError(
            f"OUTDIR/{links[0]} is a symbolic link, not part of an earlier {layout.what}: writing through it "
            "would write outside OUTDIR; remove it or write into another directory",
            where,
        )
    ours = layout.entries
    foreign = [p.name for p in entries if p.name not in ours and not p.name.startswith(layout.staging_prefix)]
    if foreign:
        shown = ", ".join(foreign[:3]) + (", …" if len(foreign) > 3 else "")
        raise InputError(
            f"OUTDIR holds files that are not part of an earlier {layout.what} ({shown}); write into a "
            f"new or empty directory, or one holding only an earlier {layout.what} (which is replaced)",
            where,
        )


def replace_whole(outdir: Path, layout: Layout, write: Callable[[Path], T]) -> T:
    """``write(staging)`` fills a staging folder; its entries then replace ``outdir``'s whole.
    Raises InputError (``outdir`` as it was) if anything fails; an interruption while writing
    removes the staging folder and leaves ``outdir`` as it was."""
    check_outdir(outdir, layout)
    created = not outdir.exists()
    where = Location(str(outdir))
    try:
        outdir.mkdir(parents=True, exist_ok=True)
        _remove_stale(outdir, layout)
        staging = outdir / f"{layout.staging_prefix}{os.getpid()}-{secrets.token_hex(4)}"
        staging.mkdir()
    except OSError as err:
        raise InputError(f"cannot write the {layout.what}: {err.strerror or err}", where) from None
    try:
        result = write(staging)
        with _signals_held():
            _publish(staging, outdir, layout)
    except OSError as err:
        _discard(staging, outdir if created else None)
        raise InputError(f"cannot write the {layout.what}: {err.strerror or err}", where) from None
    except BaseException:
        _discard(staging, outdir if created else None)
        raise
    shutil.rmtree(staging, ignore_errors=True)
    return result


def _discard(staging: Path, created: Path | None) -> None:
    shutil.rmtree(staging, ignore_errors=True)
    if created is not None:
        with suppress(OSError):
            created.rmdir()


def _remove_stale(outdir: Path, layout: Layout) -> None:
    """Staging folders of runs that are gone (killed outright)."""
    for entry in outdir.iterdir():
        if not entry.name.startswith(layout.staging_prefix):
            continue
        pid = entry.name[len(layout.staging_prefix) :].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and _alive(int(pid)):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            with suppress(OSError):
                entry.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block ends (then they are delivered)."""
    held = {signal.SIGINT, signal.SIGTERM}
    try:
        earlier = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    except (AttributeError, ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, earlier)


def _publish(staging: Path, outdir: Path, layout: Layout) -> None:
    """Move every entry of ``staging`` into ``outdir`` (each by one rename), then remove the
    entries of an earlier output that this one did not write."""
    new = {p.name for p in staging.iterdir()}
    for name in sorted(new):
        target = outdir / name
        if (staging / name).is_dir() and (target.is_symlink() or target.is_file()):
            target.unlink()
        if target.is_dir() and not target.is_symlink():
            old = outdir / f"{layout.staging_prefix}old-{secrets.token_hex(4)}"
            target.rename(old)
            (staging / name).rename(target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(staging / name, target)
    for name in sorted(layout.entries - new):
        stale = outdir / name
        if stale.is_dir() and not stale.is_symlink():
            shutil.rmtree(stale)
        elif stale.exists() or stale.is_symlink():
            with suppress(FileNotFoundError):
                stale.unlink()
