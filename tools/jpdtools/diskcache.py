"""Values kept on disk between processes, found by a content key and checked before use.

What is kept: the loaded case files (:mod:`jpdtools.suite.compiled`), the parsed presets
(:mod:`jpdtools.presets`) and the book's cut font (:mod:`jpdtools.book.font`) — values whose making
is most of a command's time. Each is an *entry*,
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

Who may write (:func:`secret_key`): the user's cache folder is writable by every program the user
runs, a program under test included, and an entry's key is a public hash: anyone could write an
entry that the next load believes. So entries of the user's folder carry, instead of a plain
digest, an HMAC-SHA-256 of their key and payload under a *secret key*: 32 random bytes in the
file ``key`` of that folder, created with mode 0600 on first use and used only while it is a
regular file of this user that nobody else can read. An entry made without the secret is not an
entry (it is made again and overwritten). ``jpd verify`` runs the program under test with its own
scratch home, cache and temporary folders (:mod:`jpdtools.verify.process`), so a program writing
where the environment tells it writes nowhere jipingdian reads. The distribution's own entries
keep the plain digest: they are as trusted as the installed code beside them.
"""

import contextlib
import functools
import gc
import hashlib
import hmac
import io
import os
import pickle
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
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
KEY_FILE = "key"
"""The secret key's file name in the user's cache folder (:func:`secret_key`)."""
_SECRET = 32
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


def seal(key: bytes, payload: bytes, secret: bytes | None) -> bytes:
    """The digest an entry carries: an HMAC of key and payload under ``secret``, else the payload's
    SHA-256 (the distribution's own entries)."""
    if secret is None:
        return hashlib.sha256(payload).digest()
    return hmac.new(secret, key + payload, hashlib.sha256).digest()


def encode(value: object, key: bytes, path: str | None = None, secret: bytes | None = None) -> bytes | None:
    """The bytes of an entry. Every string equal to ``path`` is left out of the payload (the value
    then serves the same input at any path); None when ``path`` also occurs inside other text."""
    out = io.BytesIO()
    _Pickler(out, path).dump(value)
    payload = out.getvalue()
    if path is not None and path.encode() in payload:
        return None
    return MAGIC + key + seal(key, payload, secret) + payload


def decode(
    data: bytes,
    key: bytes,
    allowed: frozenset[tuple[str, str]],
    path: str | None = None,
    secret: bytes | None = None,
):
    """The value in ``data`` if it is a whole entry with ``key`` made of ``allowed`` classes (and
    sealed with ``secret`` when one is given); else None. Nothing is unpickled before the seal is
    checked."""
    if len(data) < _HEADER or data[: len(MAGIC)] != MAGIC or data[len(MAGIC) : len(MAGIC) + _DIGEST] != key:
        return None
    payload = data[_HEADER:]
    if not hmac.compare_digest(seal(key, payload, secret), data[len(MAGIC) + _DIGEST : _HEADER]):
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
    """Folders to read entries from (in order), and the one to write new entries to (or None).
    ``secret`` seals the entries of the ``write`` folder (the user's; :func:`secret_key`); the
    entries of the other folders carry a plain digest."""

    read: tuple[Path, ...] = ()
    write: Path | None = None
    secret: bytes | None = field(default=None, repr=False)

    def _secret_of(self, folder: Path) -> bytes | None:
        return self.secret if folder == self.write else None

    def find(self, name: str, key: bytes, allowed: frozenset[tuple[str, str]], path: str | None = None):
        """The value of the first valid entry ``name`` in the read folders, or None."""
        for folder in self.read:
            data = read_entry(folder / name)
            if data is None:
                continue
            value = decode(data, key, allowed, path, self._secret_of(folder))
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
        encoded = encode(value, key, path, self.secret)
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
    secret = secret_key(user) if user is not None else None
    if secret is None:  # no folder, or no key to seal with: the user's folder is not used
        user = None
    read = tuple(d for d in (packaged_dir(), user) if d is not None)
    return CacheDirs(read, user, secret)


def secret_key(folder: Path) -> bytes | None:
    """The secret sealing the entries of ``folder`` (the file :data:`KEY_FILE` in it), made on first
    use: 32 random bytes written with mode 0600 and linked into place (two processes making it at
    once agree on the one linked first). None — the folder is then not used — when it cannot be
    made, or when the file is not a regular file of this user with no access for anyone else
    (a key others could read or replace would authenticate nothing)."""
    path = folder / KEY_FILE
    secret = _read_secret(path)
    if secret is not None or path.is_symlink() or path.exists():
        return secret
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".key-", suffix=".part")  # mode 0600
    except OSError:
        return None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(os.urandom(_SECRET))
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    except OSError:
        return None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    return _read_secret(path)


def _read_secret(path: Path) -> bytes | None:
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(handle, "rb") as key_file:
        info = os.fstat(key_file.fileno())
        mine = not hasattr(os, "geteuid") or info.st_uid == os.geteuid()
        if not stat.S_ISREG(info.st_mode) or not mine or info.st_mode & 0o077 or info.st_size != _SECRET:
            return None
        secret = key_file.read(_SECRET + 1)
    return secret if len(secret) == _SECRET else None


MAX_ENTRY_BYTES = 256 * 1024 * 1024
"""The largest entry read (the whole compiled suite is a few megabytes): a bigger file is not one."""


def read_entry(path: Path) -> bytes | None:
    """The bytes of the entry file at ``path``, or None when it is missing, not a regular file
    (a FIFO or a device put at an entry's name is never opened for reading: opened without
    blocking, then checked) or larger than :data:`MAX_ENTRY_BYTES`."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(handle, "rb") as entry:
        try:
            info = os.fstat(entry.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
                return None
            data = entry.read(MAX_ENTRY_BYTES + 1)
        except OSError:
            return None
    return data if len(data) <= MAX_ENTRY_BYTES else None


def write_entry(folder: Path, name: str, data: bytes, prune: bool = True) -> bool:
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
    if prune:
        _prune(folder)
    return True


def is_own_file(name: str) -> bool:
    """Whether a file name is one this module makes: an entry (a SHA-256 in hexadecimal, then
    ``.entry``, optionally after a ``word-`` prefix) or a temporary one (``.tmp-….part``,
    ``.key-….part``). Nothing else in a folder is ever removed: ``$JPD_CACHE_DIR`` may name a
    folder holding the user's own files."""
    if name.startswith((".tmp-", ".key-")) and name.endswith(".part"):
        return True
    stem, dot, suffix = name.rpartition(".")
    digest = stem.rpartition("-")[2]
    hexadecimal = len(digest) == 64 and all(c in "0123456789abcdef" for c in digest)
    return bool(dot) and suffix == "entry" and hexadecimal


def prune_named(folder: Path | None, prefix: str, keep: int) -> None:
    """Remove the least recently used entries named ``prefix…`` beyond ``keep`` (the large ones of
    one kind, such as cut fonts, kept to a few whatever the folder's other entries)."""
    if folder is None:
        return
    try:
        names = [p for p in folder.iterdir() if p.name.startswith(prefix) and is_own_file(p.name)]
        infos = [(p.lstat(), p) for p in names]
    except OSError:
        return
    entries = sorted(((info.st_mtime, p) for info, p in infos if stat.S_ISREG(info.st_mode)), reverse=True)
    for _, path in entries[keep:]:
        with contextlib.suppress(OSError):
            path.unlink()


def _prune(folder: Path, keep: int = MAX_ENTRIES) -> None:
    """Remove the least recently used entries beyond ``keep`` (and temporary files left by a kill);
    only files :func:`is_own_file` names, and only regular files (never a link's target)."""
    try:
        infos = [(p.lstat(), p) for p in folder.iterdir() if is_own_file(p.name)]
    except OSError:
        return
    entries = [(info.st_mtime, p) for info, p in infos if stat.S_ISREG(info.st_mode)]
    if len(entries) <= keep:
        return
    entries.sort(reverse=True)
    for _, path in entries[keep:]:
        with contextlib.suppress(OSError):
            path.unlink()
