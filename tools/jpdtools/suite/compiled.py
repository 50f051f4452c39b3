"""The compiled suite: loaded case files kept on disk, so that a run parses only what changed.

Loading a case file (YAML, then the DSL of ``spec/case.lark`` for every diagram, move list and
verdict) takes most of a ``jpd run``. A :class:`CompiledLoader` keeps each loaded
:class:`~jpdtools.suite.model.CaseFile` in an *entry*, one file per case file, named and checked by
a key that is the SHA-256 of everything the loaded model depends on:

* the case file's bytes;
* the presets the file was loaded with (their full value: names, axes, sources);
* the loader's fingerprint: the bytes of ``spec/case.lark`` and of every source file of the code
  that loading runs (``jpdtools/suite``, ``jpdtools/records``, the top-level modules of
  ``jpdtools``, all of ``jpdref``), and :data:`FORMAT`.

Any change of any of them gives another key, so an entry is never used for another file, grammar,
preset or loader: a case edited on disk is parsed again by the very next load (nothing is judged
by modification times). The outcome of every error case of the file (what the loader says about
its quoted file) is computed with it and kept in the same entry.

An entry is ``MAGIC``, the key, the SHA-256 of the payload, and the payload: a pickle of the
model in which the file's own path is left out (so an entry serves the same bytes at any path,
and a distribution can ship the entries of its suite). An entry is used only when its magic and
key are the expected ones, the payload's digest matches and the payload unpickles with nothing
but the model's own classes (:class:`_ModelUnpickler` refuses every other global), into a
``CaseFile``; anything else — a truncated, corrupt, foreign or older entry — is ignored and the
file is loaded again. Entries are written to a temporary file in the cache folder and renamed into
place, so concurrent writers (two ``jpd`` processes, pytest workers) never leave a partial entry:
the last rename wins and both wrote the same bytes.

Where entries live (:func:`cache_dirs`): read from the distribution's own compiled suite
(``jpdtools/_data/compiled``, built by ``setup.py``; read-only) and from the user's cache folder
(``$JPD_CACHE_DIR``, else ``$XDG_CACHE_HOME/jipingdian/suite``, else ``~/.cache/jipingdian/suite``),
where new entries are written. Not beside the suite: a checkout would see untracked files, an
installed suite is often read-only, and one user folder serves every checkout and suite at once
(entries are content-addressed, so they never clash). When the cache folder cannot be made or
written, loading still works; it just parses every time. ``JPD_CACHE=off`` turns the cache off.
"""

import contextlib
import functools
import gc
import hashlib
import io
import os
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field, is_dataclass
from pathlib import Path

from jpdtools.errors import InputError, Location, text_of
from jpdtools.suite import model
from jpdtools.suite.model import Case, CaseFile, LoadErrorSpec

FORMAT = b"jipingdian compiled case file, format 1\n"
"""The entry format; part of every key (a change of the layout below changes it)."""
MAGIC = b"JPDCASE1"
CACHE_ENV = "JPD_CACHE_DIR"
SWITCH_ENV = "JPD_CACHE"
PACKAGED = ("_data", "compiled")
"""The distribution's compiled suite, relative to the ``jpdtools`` package."""
MAX_ENTRIES = 2000
"""Entries kept in the user's cache folder; beyond that the least recently used go."""
_DIGEST = 32
_HEADER = len(MAGIC) + 2 * _DIGEST
_PATH = "path"  # the persistent id standing for the case file's own path in a payload

LOADER_SOURCES = (("jpdtools", "suite"), ("jpdtools", "records"), ("jpdtools", ""), ("jpdref", "**"))
"""(package, folder) whose ``.py`` files make the loader's fingerprint: ``""`` the package's own
top-level modules, ``"**"`` every module of the package. Every module that loading a case file
imports is in one of them (tests/test_compiled.py checks it)."""


# -- keys -------------------------------------------------------------------------------------------
def loader_sources() -> list[tuple[str, Path]]:
    """(name, file) of every source file of the loader's fingerprint, in a fixed order."""
    import jpdref

    roots = {
        "jpdtools": Path(__file__).resolve().parents[1],
        "jpdref": Path(jpdref.__file__).resolve().parent,
    }
    found: list[tuple[str, Path]] = []
    for package, folder in LOADER_SOURCES:
        root = roots[package]
        paths = sorted(root.rglob("*.py")) if folder == "**" else sorted((root / folder).glob("*.py"))
        found.extend((p.relative_to(root.parent).as_posix(), p) for p in paths)
    return found


@functools.cache
def sources_digest() -> str:
    """The SHA-256 of the loader's source files, read once per process (the code that runs is the
    code imported at start)."""
    digest = hashlib.sha256(FORMAT)
    for name, path in loader_sources():
        source = path.read_bytes()
        digest.update(b"\0%s\0%d\0" % (name.encode(), len(source)))
        digest.update(source)
    return digest.hexdigest()


def loader_fingerprint(grammar: Path) -> str:
    """The SHA-256 of the grammar (read every time) and of the loader's source files."""
    digest = hashlib.sha256(sources_digest().encode())
    digest.update(grammar.read_bytes())
    return digest.hexdigest()


@functools.lru_cache(maxsize=16)
def presets_digest(presets) -> str:
    """The SHA-256 of the presets' whole value (every ruleset's name, axes, title and sources)."""
    return hashlib.sha256(repr(presets.rulesets).encode()).hexdigest()


def entry_key(fingerprint: str, presets: str, data: bytes) -> bytes:
    """The key of the entry for a case file's bytes ``data``."""
    digest = hashlib.sha256(FORMAT)
    for part in (fingerprint.encode(), presets.encode(), hashlib.sha256(data).digest()):
        digest.update(b"%d:" % len(part) + part)
    return digest.digest()


# -- entries ----------------------------------------------------------------------------------------
ErrorOutcomes = tuple[tuple[LoadErrorSpec, bool, str], ...]
"""(the error case's spec, whether the loader failed as it says, what happened instead)."""


@dataclass(frozen=True)
class Entry:
    """One compiled case file: the model and the outcome of its error cases."""

    case_file: CaseFile
    error_outcomes: ErrorOutcomes = ()


_ALLOWED = {
    ("jpdtools.errors", "Location"),
    ("jpdtools.yamlsrc", "LocStr"),
    ("fractions", "Fraction"),
    (__name__, "Entry"),
    *(
        ("jpdtools.suite.model", name)
        for name, value in vars(model).items()
        if isinstance(value, type) and is_dataclass(value) and value.__module__ == model.__name__
    ),
}


class _ModelUnpickler(pickle.Unpickler):
    """Unpickles the case model and nothing else: every global but the model's classes is refused,
    so a foreign pickle cannot call anything."""

    def __init__(self, data: bytes, path: str) -> None:
        super().__init__(io.BytesIO(data))
        self._path = path

    def find_class(self, module: str, name: str):
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of the case model")
        return super().find_class(module, name)

    def persistent_load(self, pid):
        if pid != _PATH:
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
        return self._path


class _ModelPickler(pickle.Pickler):
    def __init__(self, out: io.BytesIO, path: str) -> None:
        super().__init__(out, protocol=5)
        self._path = path

    def persistent_id(self, obj):
        return _PATH if type(obj) is str and obj == self._path else None


def encode(entry: Entry, key: bytes) -> bytes | None:
    """The bytes of an entry; None when the model cannot be stored without its path."""
    out = io.BytesIO()
    path = entry.case_file.path
    _ModelPickler(out, path).dump(entry)
    payload = out.getvalue()
    if path.encode() in payload:  # the path inside some other text: the payload would tie it to this path
        return None
    return MAGIC + key + hashlib.sha256(payload).digest() + payload


def decode(data: bytes, key: bytes, path: str) -> Entry | None:
    """The entry in ``data`` if it is whole, has ``key`` and holds a case model; else None."""
    if len(data) < _HEADER or data[: len(MAGIC)] != MAGIC or data[len(MAGIC) : len(MAGIC) + _DIGEST] != key:
        return None
    payload = data[_HEADER:]
    if hashlib.sha256(payload).digest() != data[len(MAGIC) + _DIGEST : _HEADER]:
        return None
    collecting = gc.isenabled()
    gc.disable()  # tens of thousands of new objects: the collector would double the time
    try:
        entry = _ModelUnpickler(payload, path).load()
    except Exception:  # whatever a damaged payload raises: it is not an entry
        return None
    finally:
        if collecting:
            gc.enable()
    if not isinstance(entry, Entry) or not isinstance(entry.case_file, CaseFile):
        return None
    if entry.case_file.path != path:
        return None
    return entry


# -- where ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CacheDirs:
    """Folders to read entries from (in order), and the one to write new entries to (or None)."""

    read: tuple[Path, ...] = ()
    write: Path | None = None


def user_cache_dir() -> Path | None:
    """``$JPD_CACHE_DIR``, else the user's cache folder for jipingdian's compiled suite."""
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
    folder = Path(__file__).resolve().parents[1].joinpath(*PACKAGED)
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


# -- the loader -------------------------------------------------------------------------------------
LoadText = Callable[[str, str, object], CaseFile]
CheckErrorCase = Callable[[Case, object], tuple[bool, str]]


def _default_load_text(text: str, path: str, presets) -> CaseFile:
    from jpdtools.suite import loader  # Lark and the parser: only when a file must be parsed

    return loader.load_case_text(text, path, presets)


def _default_check_error_case(case: Case, presets) -> tuple[bool, str]:
    from jpdtools.suite import loader

    return loader.check_error_case(case, presets)


@dataclass
class CompiledLoader:
    """``load_case_file`` and ``check_error_case`` of :mod:`jpdtools.suite.loader`, through the
    compiled suite. ``load_text``/``check`` are the real ones (tests stand in for them)."""

    dirs: CacheDirs = field(default_factory=cache_dirs)
    load_text: LoadText = _default_load_text
    check: CheckErrorCase = _default_check_error_case
    _outcomes: dict = field(default_factory=dict, repr=False)
    parsed: list[str] = field(default_factory=list, repr=False)  # the paths parsed (not from an entry)

    def _fingerprint(self) -> str:
        from jpdtools.paths import spec_file

        return loader_fingerprint(spec_file("case.lark"))

    def load_case_file(self, path: Path, presets) -> CaseFile:
        """The case file at ``path``, from an entry when one has its key, else loaded (and stored)."""
        try:
            data = path.read_bytes()
        except OSError as err:
            raise InputError(f"cannot read file: {err.strerror or err}", Location(str(path))) from None
        name = str(path)
        digest = presets_digest(presets)
        key = entry_key(self._fingerprint(), digest, data)
        entry_name = key.hex() + ".entry"
        for folder in self.dirs.read:
            entry = _read(folder / entry_name, key, name)
            if entry is not None:
                if folder == self.dirs.write:
                    _touch(folder / entry_name)
                return self._remember(entry, digest)
        case_file = self.load_text(text_of(data, path), name, presets)  # InputError: not stored
        self.parsed.append(name)
        outcomes = tuple(
            (case.load_error, *self.check(case, presets))
            for case in case_file.cases
            if case.load_error is not None
        )
        entry = Entry(case_file, outcomes)
        if self.dirs.write is not None:
            encoded = encode(entry, key)
            if encoded is not None:
                write_entry(self.dirs.write, entry_name, encoded)
        return self._remember(entry, digest)

    def _remember(self, entry: Entry, digest: str) -> CaseFile:
        for spec, ok, message in entry.error_outcomes:
            self._outcomes[(digest, spec)] = (ok, message)
        return entry.case_file

    def check_error_case(self, case: Case, presets) -> tuple[bool, str]:
        """The loader's verdict on an error case's quoted file (kept from when its file was loaded)."""
        if case.load_error is not None:
            known = self._outcomes.get((presets_digest(presets), case.load_error))
            if known is not None:
                return known
        return self.check(case, presets)


def _read(path: Path, key: bytes, name: str) -> Entry | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return decode(data, key, name)


def _touch(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.utime(path)


# -- the distribution's compiled suite ---------------------------------------------------------------
def build(suite: Path, out: Path) -> int:
    """Compile every case file of ``suite`` into ``out`` (``setup.py`` runs this on the built
    packages, so the keys are those of the installed files). Returns the number of entries."""
    from jpdtools.presets import load_presets

    presets = load_presets()
    compiler = CompiledLoader(CacheDirs((), out))
    files = sorted(p for p in suite.rglob("*.yaml") if p.is_file())
    for path in files:
        compiler.load_case_file(path, presets)  # an InputError: the build fails, naming the file
    written = len(list(out.glob("*.entry")))
    if written != len(files):
        raise RuntimeError(f"compiled {written} of the {len(files)} case files of {suite} into {out}")
    return written
