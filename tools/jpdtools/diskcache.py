"""Values kept on disk between processes, found by a content key and checked before use.

What is kept: the loaded case files (:mod:`jpdtools.suite.compiled`) and the parsed presets
(:mod:`jpdtools.presets`) — values whose parsing is most of a command's time. Each is an *entry*,
one file named by its key: ``MAGIC``, the key (32 bytes), the SHA-256 of the payload, and the
payload, a pickle. The key is a SHA-256 of everything the value depends on (the input file's
bytes, and :func:`code_digest`: the source of the code that parses it), so a changed input or
parser never finds an old entry; nothing is judged by modification times.

An entry is used only when its magic, its key and its payload's digest are the expected ones and
the payload unpickles with nothing but the classes the caller allows (:class:`_Unpickler` refuses
every other global, so a foreign pickle cannot call anything) into a value of the expected type.
Anything else — truncated, corrupt, foreign, another format — is ignored and the value made again.
Entries are written to a temporary file in the folder and renamed into place, so concurrent
writers never leave a partial entry (the last rename wins; both wrote the same bytes).

Where (:func:`cache_dirs`): read from the distribution's own entries (``jpdtools/_data/compiled``,
built by ``setup.py``, read-only) and from the user's cache folder (``$JPD_CACHE_DIR``, else
``$XDG_CACHE_HOME/jipingdian/suite``, else ``~/.cache/jipingdian/suite``), where new entries are
written. Not beside the suite: a checkout would see untracked files, an installed suite is often
read-only, and one user folder serves every checkout and suite at once (entries are
content-addressed, so they never clash). When the folder cannot be made or written, everything
still works and is parsed every time. ``JPD_CACHE=off`` turns the cache off.
"""

import contextlib
import functools
import gc
import hashlib
import io
import os
import pickle
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

MAGIC = b"JPDCASE1"
CACHE_ENV = "JPD_CACHE_DIR"
SWITCH_ENV = "JPD_CACHE"
PACKAGED = ("_data", "compiled")
"""The distribution's entries, relative to the ``jpdtools`` package."""
MAX_ENTRIES = 2000
"""Entries kept in the user's cache folder; beyond that the least recently used go."""
_DIGEST = 32
_HEADER = len(MAGIC) + 2 * _DIGEST
_PATH = "path"  # the persistent id standing for the input file's own path in a payload

CODE_SOURCES = (("jpdtools", "suite"), ("jpdtools", "records"), ("jpdtools", ""), ("jpdref", "**"))
"""(package, folder) whose ``.py`` files make :func:`code_digest`: ``""`` the package's own
top-level modules, ``"**"`` every module of the package. Every module that loading a case file or
the presets imports is in one of them (tests/test_compiled.py checks it)."""


# -- keys -------------------------------------------------------------------------------------------
def code_sources() -> list[tuple[str, Path]]:
    """(name, file) of every source file of :func:`code_digest`, in a fixed order."""
    import jpdref

    roots = {"jpdtools": Path(__file__).resolve().parent, "jpdref": Path(jpdref.__file__).resolve().parent}
    found: list[tuple[str, Path]] = []
    for package, folder in CODE_SOURCES:
        root = roots[package]
        paths = sorted(root.rglob("*.py")) if folder == "**" else sorted((root / folder).glob("*.py"))
        found.extend((p.relative_to(root.parent).as_posix(), p) for p in paths)
    return found


@functools.cache
def code_digest() -> str:
    """The SHA-256 of the parsing code's source files, read once per process (the code that runs
    is the code imported at start)."""
    digest = hashlib.sha256(MAGIC)
    for name, path in code_sources():
        source = path.read_bytes()
        digest.update(b"\0%s\0%d\0" % (name.encode(), len(source)))
        digest.update(source)
    return digest.hexdigest()


def key_of(*parts: bytes) -> bytes:
    """The SHA-256 of ``parts``, each length-prefixed (so no two part lists share a key)."""
    digest = hashlib.sha256(MAGIC)
    for part in parts:
        digest.update(b"%d:" % len(part) + part)
    return digest.digest()


# -- entries ----------------------------------------------------------------------------------------
class _Unpickler(pickle.Unpickler):
    """Unpickles the allowed classes and nothing else."""

    def __init__(self, data: bytes, allowed: frozenset[tuple[str, str]], path: str | None) -> None:
        super().__init__(io.BytesIO(data))
        self._allowed, self._path = allowed, path

    def find_class(self, module: str, name: str):
        if (module, name) not in self._allowed:
            raise pickle.UnpicklingError(f"{module}.{name} may not be in this entry")
        return super().find_class(module, name)

    def persistent_load(self, pid):
        if pid != _PATH or self._path is None:
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
        return self._path


class _Pickler(pickle.Pickler):
    def __init__(self, out: io.BytesIO, path: str | None) -> None:
        super().__init__(out, protocol=5)
        self._path = path

    def persistent_id(self, obj):
        return _PATH if self._path is not None and type(obj) is str and obj == self._path else None


def encode(value: object, key: bytes, path: str | None = None) -> bytes | None:
    """The bytes of an entry. Every string equal to ``path`` is left out of the payload (the value
    then serves the same input at any path); None when ``path`` also occurs inside other text."""
    out = io.BytesIO()
    _Pickler(out, path).dump(value)
    payload = out.getvalue()
    if path is not None and path.encode() in payload:
        return None
    return MAGIC + key + hashlib.sha256(payload).digest() + payload


def decode(data: bytes, key: bytes, allowed: frozenset[tuple[str, str]], path: str | None = None):
    """The value in ``data`` if it is a whole entry with ``key`` made of ``allowed`` classes; else None."""
    if len(data) < _HEADER or data[: len(MAGIC)] != MAGIC or data[len(MAGIC) : len(MAGIC) + _DIGEST] != key:
        return None
    payload = data[_HEADER:]
    if hashlib.sha256(payload).digest() != data[len(MAGIC) + _DIGEST : _HEADER]:
        return None
    collecting = gc.isenabled()
    gc.disable()  # tens of thousands of new objects: the collector would double the time
    try:
        return _Unpickler(payload, allowed, path).load()
    except Exception:  # whatever a damaged payload raises: it is not an entry
        return None
    finally:
        if collecting:
            gc.enable()


def allowed_classes(*modules_and_names: tuple[str, Iterable[str]]) -> frozenset[tuple[str, str]]:
    return frozenset((module, name) for module, names in modules_and_names for name in names)


# -- where ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CacheDirs:
    """Folders to read entries from (in order), and the one to write new entries to (or None)."""

    read: tuple[Path, ...] = ()
    write: Path | None = None

    def find(self, name: str, key: bytes, allowed: frozenset[tuple[str, str]], path: str | None = None):
        """The value of the first valid entry ``name`` in the read folders, or None."""
        for folder in self.read:
            try:
                data = (folder / name).read_bytes()
            except OSError:
                continue
            value = decode(data, key, allowed, path)
            if value is not None:
                if folder == self.write:
                    with contextlib.suppress(OSError):
                        os.utime(folder / name)  # recently used: kept by _prune
                return value
        return None

    def store(self, name: str, value: object, key: bytes, path: str | None = None) -> bool:
        """Write the entry (if there is a folder to write to); False when it was not written."""
        if self.write is None:
            return False
        encoded = encode(value, key, path)
        return encoded is not None and write_entry(self.write, name, encoded)


def user_cache_dir() -> Path | None:
    """``$JPD_CACHE_DIR``, else the user's cache folder for jipingdian's entries."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME")
    try:
        root = Path(base) if base else Path.home() / ".cache"
    except RuntimeError:  # no home folder to be found
        return None
    return root / "jipingdian" / "suite"


def packaged_dir() -> Path | None:
    """``jpdtools/_data/compiled`` when this is an installed distribution that carries it."""
    folder = Path(__file__).resolve().parent.joinpath(*PACKAGED)
    return folder if folder.is_dir() else None


def cache_dirs() -> CacheDirs:
    """Where this process reads and writes entries (see the module docstring)."""
    if os.environ.get(SWITCH_ENV, "").strip().lower() == "off":
        return CacheDirs()
    user = user_cache_dir()
    read = tuple(d for d in (packaged_dir(), user) if d is not None)
    return CacheDirs(read, user)


def write_entry(folder: Path, name: str, data: bytes) -> bool:
    """Write an entry whole or not at all (a temporary file, then one rename); False on failure."""
    import tempfile  # only when writing: 5 ms of every start

    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".part")
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, folder / name)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return False
    _prune(folder)
    return True


def _prune(folder: Path, keep: int = MAX_ENTRIES) -> None:
    """Remove the least recently used entries beyond ``keep`` (and temporary files left by a kill)."""
    try:
        entries = [(p.stat().st_mtime, p) for p in folder.iterdir() if p.suffix in (".entry", ".part")]
    except OSError:
        return
    if len(entries) <= keep:
        return
    entries.sort(reverse=True)
    for _, path in entries[keep:]:
        with contextlib.suppress(OSError):
            path.unlink()
