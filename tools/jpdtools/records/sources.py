"""The records of a collection: files, folders, globs and archives of SGF. {#count.replay}

:func:`find_records` turns the paths a user gives into a list of record keys and where to read
each; :func:`read_records` reads them lazily, archive members in one pass over the archive. A
record that cannot be read comes out as a :class:`SourceError`, never as an exception: one bad
file does not stop a collection.
"""

import bz2
import functools
import gzip
import lzma
import os
import stat
import tarfile
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from jpdtools.errors import InputError, Location
from jpdtools.records.sgf import MAX_SGF_BYTES

SGF_SUFFIX = ".sgf"
TAR_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tar.xz")
ZIP_SUFFIXES = (".zip",)
_GLOB_CHARS = set("*?[")
MAX_ARCHIVE_BYTES = 4 * 1024**3
"""The most bytes of one archive jpd reads (after decompression; for a zip, the members' sizes):
a zip or tar bomb is one record error, found before anything in it is refereed."""


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
    A file reached twice (named twice, through a link, a hard link) is one source, under the
    first name. Links to folders are not followed (no loop); what is not a regular file is
    skipped in a folder, and an error for that record when named or matched.
    A path that names nothing is an InputError (before any work is done)."""
    found: list[Source] = []
    seen: set[str | tuple[int, int]] = set()

    def add(path: str, explicit: bool, base: str | None = None) -> None:
        kind = _kind(path)
        if kind is None:
            if explicit:
                kind = "file"  # a record given by name is read whatever its suffix
            else:
                return
        norm = os.path.normpath(path)
        try:
            st = os.stat(norm)
            same: str | tuple[int, int] = (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else norm
        except OSError:
            same = norm
        if norm not in seen and same not in seen:
            seen.update((norm, same))
            name = os.path.relpath(norm, base) if base is not None else os.path.basename(norm)
            found.append(Source(norm, kind, name))

    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for sub in _files_below(p):
                add(sub, False, raw)
        elif p.exists():
            add(raw, True)  # a file, or a pipe or a device: an error for that record when read
        elif _GLOB_CHARS & set(raw):
            base = _glob_base(raw)
            matches = sorted(str(m) for m in Path(base).glob(os.path.relpath(raw, base)))
            if not matches:
                raise InputError(f"no file matches {raw!r}")
            for m in matches:
                if Path(m).is_dir():
                    for sub in _files_below(Path(m)):
                        add(sub, False, base)
                else:
                    add(m, True, base)
        elif p.is_symlink():
            raise InputError(f"a broken symbolic link: {raw}", Location(raw))
        else:
            raise InputError(f"no such file or folder: {raw}", Location(raw))
    return found


def _files_below(folder: Path) -> list[str]:
    """The regular files below ``folder`` (links to files followed, links to folders not), sorted."""
    return sorted(str(q) for q in folder.rglob("*") if q.is_file())


def _glob_base(pattern: str) -> str:
    """The folder a glob's matches are named relative to: its longest prefix without a glob character."""
    parts = Path(pattern).parts
    fixed = [part for part in parts[: next(i for i, part in enumerate(parts) if _GLOB_CHARS & set(part))]]
    return str(Path(*fixed)) if fixed else "."


@functools.lru_cache(maxsize=4096)
def _real(path: str) -> str:
    return os.path.realpath(path)


def identity(key: str) -> str:
    """The record a key names however its path was spelt (relative or absolute, through a link):
    the real path of its file, then ``!member`` for an archive member. A key naming no file
    (from another folder, or since removed) is its own identity."""
    if os.path.lexists(key):
        return _real(key)
    start = 0
    while (i := key.find("!", start)) >= 0:
        if os.path.isfile(key[:i]):
            return _real(key[:i]) + key[i:]
        start = i + 1
    return key


def shard_of(name: str, shards: int) -> int:
    """The shard (0-based) of a record's portable name (:attr:`Source.portable`, ``!member`` added
    for an archive member): its CRC-32 modulo ``shards``. Not the path as given, so machines that
    hold the collection in different folders split it the same way. A file name that is not
    UTF-8 (read by Python as surrogate escapes) is hashed by its bytes as they are on disk."""
    return zlib.crc32(name.encode("utf-8", "surrogateescape")) % shards


def read_records(
    sources: Sequence[Source], keep: Callable[[str, str], bool] = lambda _key, _name: True
) -> Iterator[RecordData | SourceError]:
    """Every record of ``sources`` that ``keep(key, portable name)`` accepts, read once, in order."""
    for src in sources:
        if src.kind == "file":
            if keep(src.path, src.portable):
                yield _file_record(src)
        elif src.kind == "tar":
            yield from _tar_records(src, keep)
        else:
            yield from _zip_records(src, keep)


_NOT_REGULAR = {
    stat.S_IFIFO: "a pipe",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}


def _file_record(src: Source) -> RecordData | SourceError:
    """A file's bytes: opened without blocking (a pipe with no writer does not hang the run),
    read only if it is a regular file, at most :data:`MAX_SGF_BYTES` of it."""
    path = src.path
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        return SourceError(path, "unreadable", f"{path}: cannot read: {err.strerror or err}")
    with os.fdopen(fd, "rb") as f:
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                what = _NOT_REGULAR.get(stat.S_IFMT(st.st_mode), "not a regular file")
                return SourceError(path, "not-a-file", f"{path}: {what}, not a record file: not read")
            if st.st_size > MAX_SGF_BYTES:
                return _too_large(path, st.st_size)
            data = f.read(MAX_SGF_BYTES + 1)
        except OSError as err:
            return SourceError(path, "unreadable", f"{path}: cannot read: {err.strerror or err}")
    if len(data) > MAX_SGF_BYTES:
        return _too_large(path, len(data))
    return RecordData(path, data, src.portable)


def _too_large(key: str, size: int) -> SourceError:
    """A record over the reader's size limit is not read (issue 12: memory stays bounded)."""
    message = f"{key}: {size:,} bytes; the SGF reader takes at most {MAX_SGF_BYTES:,}"
    return SourceError(key, "too-large", message)


def member_key(archive: str, member: str) -> str:
    return f"{archive}!{member}"


def _numbered(names: Counter, name: str) -> str:
    """A member's name in its key: the second and later members of one name get ``#2``, ``#3``…
    (an archive may hold several; each is a record)."""
    names[name] += 1
    return name if names[name] == 1 else f"{name}#{names[name]}"


_MAGIC = ((b"\x1f\x8b", gzip.open), (b"BZh", bz2.open), (b"\xfd7zXZ\x00", lzma.open))
_STREAM_ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError, ValueError)
_CHUNK = 1 << 20


def _tar_problem(path: str) -> str | None:
    """Why a tar archive is not read at all: over :data:`MAX_ARCHIVE_BYTES` (after decompression),
    or a compressed stream that fails its checksum or breaks off. Checked before any member is
    refereed: a compressed tar's checksum covers the whole stream, so a failed one cannot be
    pinned on a member."""
    try:
        with open(path, "rb") as f:
            head = f.read(6)
        opener = next((op for magic, op in _MAGIC if head.startswith(magic)), None)
        if opener is None:
            size = os.path.getsize(path)
            return _over(size) if size > MAX_ARCHIVE_BYTES else None
        total = 0
        with opener(path, "rb") as stream:
            while chunk := stream.read(_CHUNK):
                total += len(chunk)
                if total > MAX_ARCHIVE_BYTES:
                    return _over(total, "more than ")
    except _STREAM_ERRORS as err:
        return f"the compressed archive is corrupt ({err or type(err).__name__})"
    return None


def _over(size: int, more: str = "") -> str:
    return f"{more}{size:,} bytes of archive; jpd reads at most {MAX_ARCHIVE_BYTES:,} bytes of one archive"


def _tar_records(src: Source, keep: Callable[[str, str], bool]) -> Iterator[RecordData | SourceError]:
    """Members in archive order: a compressed tar is read in one pass, never rewound (after the
    check of the whole stream, :func:`_tar_problem`). Members are read, never extracted: links,
    folders and devices in the archive are skipped, and a name with ``..`` or a leading ``/`` is
    only a key."""
    path = src.path
    problem = _tar_problem(path)
    if problem:
        yield SourceError(path, "archive", f"{path}: {problem}: none of its records is read")
        return
    names: Counter = Counter()
    try:
        with tarfile.open(path, "r:*") as tar:
            for m in tar:
                if not (m.isfile() and m.name.lower().endswith(SGF_SUFFIX)):
                    continue
                member = _numbered(names, m.name)
                key, name = member_key(path, member), member_key(src.portable, member)
                if keep(key, name) and m.size > MAX_SGF_BYTES:
                    yield _too_large(key, m.size)
                elif keep(key, name):
                    f = tar.extractfile(m)
                    yield RecordData(key, f.read() if f is not None else b"", name)
    except (tarfile.TarError, *_STREAM_ERRORS) as err:
        yield SourceError(path, "archive", f"{path}: cannot read the archive: {err or type(err).__name__}")


_ZIP_MEMBER_ERRORS = (
    zipfile.BadZipFile,  # a failed CRC, a local header that does not match the directory
    RuntimeError,  # an encrypted member
    NotImplementedError,  # a compression method zipfile does not read (implode, …)
    *_STREAM_ERRORS,
)


def _zip_records(src: Source, keep: Callable[[str, str], bool]) -> Iterator[RecordData | SourceError]:
    """Members in name order, each read (and its CRC checked) on its own: a member that cannot be
    read is an error for that member only. Links in the archive are skipped; a name with ``..``
    or a leading ``/`` is only a key; the declared sizes of the members add up to at most
    :data:`MAX_ARCHIVE_BYTES`."""
    path = src.path
    try:
        z = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, NotImplementedError, *_STREAM_ERRORS) as err:
        reason = "a member name flagged UTF-8 is not UTF-8" if isinstance(err, UnicodeDecodeError) else err
        yield SourceError(path, "archive", f"{path}: cannot read the archive: {reason}")
        return
    with z:
        infos = sorted(
            (i for i in z.infolist() if _zip_record(i)),
            key=lambda i: i.filename,
        )
        total = sum(i.file_size for i in infos)
        if total > MAX_ARCHIVE_BYTES:
            yield SourceError(path, "archive", f"{path}: {_over(total)}: none of its records is read")
            return
        names: Counter = Counter()
        for info in infos:
            member = _numbered(names, info.filename)
            key, name = member_key(path, member), member_key(src.portable, member)
            if not keep(key, name):
                continue
            if info.file_size > MAX_SGF_BYTES:
                yield _too_large(key, info.file_size)
                continue
            try:
                data = z.read(info)
            except _ZIP_MEMBER_ERRORS as err:
                yield SourceError(key, "archive-member", f"{key}: cannot read the member: {err}")
                continue
            yield RecordData(key, data, name)


def _zip_record(info: zipfile.ZipInfo) -> bool:
    """A member that may be a record: an SGF file, not a folder or a symbolic link."""
    is_link = stat.S_ISLNK(info.external_attr >> 16)
    return not info.is_dir() and not is_link and info.filename.lower().endswith(SGF_SUFFIX)
