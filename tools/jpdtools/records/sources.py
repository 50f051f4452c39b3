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


@dataclass(frozen=True)
class RecordData:
    """The bytes of one record, under its key."""

    key: str
    data: bytes


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

    def add(path: str, explicit: bool) -> None:
        kind = _kind(path)
        if kind is None:
            if explicit:
                kind = "file"  # a record given by name is read whatever its suffix
            else:
                return
        norm = os.path.normpath(path)
        if norm not in seen:
            seen.add(norm)
            found.append(Source(norm, kind))

    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for sub in sorted(str(q) for q in p.rglob("*") if q.is_file()):
                add(sub, False)
        elif p.is_file():
            add(raw, True)
        elif _GLOB_CHARS & set(raw):
            matches = sorted(glob.glob(raw, recursive=True))
            if not matches:
                raise InputError(f"no file matches {raw!r}")
            for m in matches:
                if Path(m).is_dir():
                    for sub in sorted(str(q) for q in Path(m).rglob("*") if q.is_file()):
                        add(sub, False)
                else:
                    add(m, True)
        else:
            raise InputError(f"no such file or folder: {raw}", Location(raw))
    return found


def shard_of(key: str, shards: int) -> int:
    """The shard (0-based) a record key belongs to: its CRC-32 modulo ``shards``."""
    return zlib.crc32(key.encode("utf-8")) % shards


def read_records(
    sources: Sequence[Source], keep: Callable[[str], bool] = lambda _key: True
) -> Iterator[RecordData | SourceError]:
    """Every record of ``sources`` whose key ``keep`` accepts, read once, in order."""
    for src in sources:
        if src.kind == "file":
            if not keep(src.path):
                continue
            try:
                size = Path(src.path).stat().st_size
                if size > MAX_SGF_BYTES:
                    yield _too_large(src.path, size)
                    continue
                yield RecordData(src.path, Path(src.path).read_bytes())
            except OSError as err:
                yield SourceError(src.path, "unreadable", f"{src.path}: cannot read: {err.strerror or err}")
        elif src.kind == "tar":
            yield from _tar_records(src.path, keep)
        else:
            yield from _zip_records(src.path, keep)


def _too_large(key: str, size: int) -> SourceError:
    """A record over the reader's size limit is not read (issue 12: memory stays bounded)."""
    message = f"{key}: {size:,} bytes; the SGF reader takes at most {MAX_SGF_BYTES:,}"
    return SourceError(key, "too-large", message)


def member_key(archive: str, member: str) -> str:
    return f"{archive}!{member}"


def _tar_records(path: str, keep: Callable[[str], bool]) -> Iterator[RecordData | SourceError]:
    """Members in archive order: a compressed tar is read in one pass, never rewound."""
    try:
        with tarfile.open(path, "r:*") as tar:
            for m in tar:
                if not (m.isfile() and m.name.lower().endswith(SGF_SUFFIX)):
                    continue
                key = member_key(path, m.name)
                if keep(key) and m.size > MAX_SGF_BYTES:
                    yield _too_large(key, m.size)
                elif keep(key):
                    f = tar.extractfile(m)
                    yield RecordData(key, f.read() if f is not None else b"")
    except (OSError, tarfile.TarError, EOFError, zlib.error) as err:
        yield SourceError(path, "archive", f"{path}: cannot read the archive: {err}")


def _zip_records(path: str, keep: Callable[[str], bool]) -> Iterator[RecordData | SourceError]:
    try:
        with zipfile.ZipFile(path) as z:
            infos = sorted(
                (i for i in z.infolist() if not i.is_dir() and i.filename.lower().endswith(SGF_SUFFIX)),
                key=lambda i: i.filename,
            )
            for info in infos:
                key = member_key(path, info.filename)
                if keep(key) and info.file_size > MAX_SGF_BYTES:
                    yield _too_large(key, info.file_size)
                elif keep(key):
                    yield RecordData(key, z.read(info.filename))
    except (OSError, zipfile.BadZipFile, EOFError, zlib.error) as err:
        yield SourceError(path, "archive", f"{path}: cannot read the archive: {err}")
