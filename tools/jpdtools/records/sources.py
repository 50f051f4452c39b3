"""The records of a collection: files, folders, globs and archives of SGF. {#count.replay}

:func:`find_records` turns the paths a user gives into a list of record keys and where to read
each; :func:`read_records` reads them lazily, archive members in one pass over the archive. A
record that cannot be read comes out as a :class:`SourceError`, never as an exception: one bad
file does not stop a collection.
"""

import glob
import os
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from jpdtools.errors import InputError, Location
from jpdtools.records.sgf import MAX_SGF_BYTES

SGF_SUFFIX = ".sgf"
TAR_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tar.xz")
ZIP_SUFFIXES = (".zip",)
_GLOB_CHARS = set("*?[")


@dataclass(frozen=True)
class Source:
    """Where a record comes from: a file, or an archive (``path``) holding ``member``s."""

    path: str
    kind: str  # "file", "tar" or "zip"
    name: str = ""  # the path relative to the folder or glob it was found under (a file given: its name)

    @property
    def portable(self) -> str:
        """The name the shard split reads: the same on every machine, wherever the collection lies."""
        return (self.name or os.path.basename(self.path)).replace(os.sep, "/")


@dataclass(frozen=True)
class RecordData:
    """The bytes of one record, under its key."""

    key: str
    data: bytes
    name: str = ""  # the portable name the shard split reads (see Source.portable)


@dataclass(frozen=True)
class SourceError:
    """A record (or a whole archive) that could not be read."""

    key: str
    code: str
    message: str


def _kind(name: str) -> str | None:
    low = name.lower()
    if low.endswith(SGF_SUFFIX):
        return "file"
    if low.endswith(TAR_SUFFIXES):
        return "tar"
    if low.endswith(ZIP_SUFFIXES):
        return "zip"
    return None


def find_sources(paths: Sequence[str]) -> list[Source]:
    """The files and archives the paths name, each once, in a fixed order: a file or archive as
    given; a folder's SGF files and archives, recursively, sorted; a glob's matches, sorted.
    A path that names nothing is an InputError (before any work is done)."""
    found: list[Source] = []
    seen: set[str] = set()

    def add(path: str, explicit: bool, base: str | None = None) -> None:
        kind = _kind(path)
        if kind is None:
            if explicit:
                kind = "file"  # a record given by name is read whatever its suffix
            else:
                return
        norm = os.path.normpath(path)
        if norm not in seen:
            seen.add(norm)
            name = os.path.relpath(norm, base) if base is not None else os.path.basename(norm)
            found.append(Source(norm, kind, name))

    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for sub in sorted(str(q) for q in p.rglob("*") if q.is_file()):
                add(sub, False, raw)
        elif p.is_file():
            add(raw, True)
        elif _GLOB_CHARS & set(raw):
            matches = sorted(glob.glob(raw, recursive=True))
            if not matches:
                raise InputError(f"no file matches {raw!r}")
            base = _glob_base(raw)
            for m in matches:
                if Path(m).is_dir():
                    for sub in sorted(str(q) for q in Path(m).rglob("*") if q.is_file()):
                        add(sub, False, base)
                else:
                    add(m, True, base)
        else:
            raise InputError(f"no such file or folder: {raw}", Location(raw))
    return found


def _glob_base(pattern: str) -> str:
    """The folder a glob's matches are named relative to: its longest prefix without a glob character."""
    parts = Path(pattern).parts
    fixed = [part for part in parts[: next(i for i, part in enumerate(parts) if _GLOB_CHARS & set(part))]]
    return str(Path(*fixed)) if fixed else "."


def shard_of(name: str, shards: int) -> int:
    """The shard (0-based) of a record's portable name (:attr:`Source.portable`, ``!member`` added
    for an archive member): its CRC-32 modulo ``shards``. Not the path as given, so machines that
    hold the collection in different folders split it the same way."""
    return zlib.crc32(name.encode("utf-8")) % shards


def read_records(
    sources: Sequence[Source], keep: Callable[[str, str], bool] = lambda _key, _name: True
) -> Iterator[RecordData | SourceError]:
    """Every record of ``sources`` that ``keep(key, portable name)`` accepts, read once, in order."""
    for src in sources:
        if src.kind == "file":
            if not keep(src.path, src.portable):
                continue
            try:
                size = Path(src.path).stat().st_size
                if size > MAX_SGF_BYTES:
                    yield _too_large(src.path, size)
                    continue
                yield RecordData(src.path, Path(src.path).read_bytes(), src.portable)
            except OSError as err:
                yield SourceError(src.path, "unreadable", f"{src.path}: cannot read: {err.strerror or err}")
        elif src.kind == "tar":
            yield from _tar_records(src, keep)
        else:
            yield from _zip_records(src, keep)


def _too_large(key: str, size: int) -> SourceError:
    """A record over the reader's size limit is not read (issue 12: memory stays bounded)."""
    message = f"{key}: {size:,} bytes; the SGF reader takes at most {MAX_SGF_BYTES:,}"
    return SourceError(key, "too-large", message)


def member_key(archive: str, member: str) -> str:
    return f"{archive}!{member}"


def _tar_records(src: Source, keep: Callable[[str, str], bool]) -> Iterator[RecordData | SourceError]:
    """Members in archive order: a compressed tar is read in one pass, never rewound."""
    path = src.path
    try:
        with tarfile.open(path, "r:*") as tar:
            for m in tar:
                if not (m.isfile() and m.name.lower().endswith(SGF_SUFFIX)):
                    continue
                key, name = member_key(path, m.name), member_key(src.portable, m.name)
                if keep(key, name) and m.size > MAX_SGF_BYTES:
                    yield _too_large(key, m.size)
                elif keep(key, name):
                    f = tar.extractfile(m)
                    yield RecordData(key, f.read() if f is not None else b"", name)
    except (OSError, tarfile.TarError, EOFError, zlib.error) as err:
        yield SourceError(path, "archive", f"{path}: cannot read the archive: {err}")


def _zip_records(src: Source, keep: Callable[[str, str], bool]) -> Iterator[RecordData | SourceError]:
    path = src.path
    try:
        with zipfile.ZipFile(path) as z:
            infos = sorted(
                (i for i in z.infolist() if not i.is_dir() and i.filename.lower().endswith(SGF_SUFFIX)),
                key=lambda i: i.filename,
            )
            for info in infos:
                key, name = member_key(path, info.filename), member_key(src.portable, info.filename)
                if keep(key, name) and info.file_size > MAX_SGF_BYTES:
                    yield _too_large(key, info.file_size)
                elif keep(key, name):
                    yield RecordData(key, z.read(info.filename), name)
    except (OSError, zipfile.BadZipFile, EOFError, zlib.error) as err:
        yield SourceError(path, "archive", f"{path}: cannot read the archive: {err}")
