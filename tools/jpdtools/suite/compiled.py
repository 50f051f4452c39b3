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

An entry (:mod:`jpdtools.diskcache`: checked magic, key and digest, only the model's own classes
unpickled, written atomically) holds a pickle of the model in which the file's own path is left
out, so an entry serves the same bytes at any path, and a distribution ships the entries of its
suite (``setup.py``). Where entries live, and why there: :mod:`jpdtools.diskcache`.
"""

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, is_dataclass
from pathlib import Path

from jpdtools import diskcache
from jpdtools.diskcache import CacheDirs, cache_dirs
from jpdtools.errors import case_file_bytes, text_of
from jpdtools.suite import model, setup
from jpdtools.suite.model import Case, CaseFile, LoadErrorSpec

FORMAT = b"jipingdian compiled case file, format 1\n"
"""The entry format; part of every key (a change of the layout below changes it)."""


# -- keys -------------------------------------------------------------------------------------------
def loader_fingerprint(grammar: Path) -> str:
    """The SHA-256 of the grammar (read every time) and of the loader's source files."""
    digest = hashlib.sha256(diskcache.code_digest().encode())
    digest.update(grammar.read_bytes())
    return digest.hexdigest()


@functools.lru_cache(maxsize=16)
def presets_digest(presets) -> str:
    """The SHA-256 of the presets' whole value (every ruleset's name, axes, title and sources)."""
    return hashlib.sha256(repr(presets.rulesets).encode()).hexdigest()


def entry_key(fingerprint: str, presets: str, data: bytes) -> bytes:
    """The key of the entry for a case file's bytes ``data``."""
    return diskcache.key_of(FORMAT, fingerprint.encode(), presets.encode(), hashlib.sha256(data).digest())


# -- entries ----------------------------------------------------------------------------------------
ErrorOutcomes = tuple[tuple[LoadErrorSpec, bool, str], ...]
"""(the error case's spec, whether the loader failed as it says, what happened instead)."""


@dataclass(frozen=True)
class Entry:
    """One compiled case file: the model and the outcome of its error cases."""

    case_file: CaseFile
    error_outcomes: ErrorOutcomes = ()


_ALLOWED = diskcache.allowed_classes(
    ("jpdtools.errors", ("Location",)),
    ("jpdtools.yamlsrc", ("LocStr",)),
    ("fractions", ("Fraction",)),
    (__name__, ("Entry",)),
    *(
        (
            module.__name__,
            [
                name
                for name, value in vars(module).items()
                if isinstance(value, type) and is_dataclass(value) and value.__module__ == module.__name__
            ],
        )
        for module in (model, setup)
    ),
)


def encode(entry: Entry, key: bytes) -> bytes | None:
    """The bytes of an entry; None when the model cannot be stored without its path."""
    return diskcache.encode(entry, key, entry.case_file.path)


def decode(data: bytes, key: bytes, path: str) -> Entry | None:
    """The entry in ``data`` if it is whole, has ``key`` and holds the case model of ``path``."""
    entry = diskcache.decode(data, key, _ALLOWED, path)
    return entry if _is_entry_of(entry, path) else None


def _is_entry_of(value: object, path: str) -> bool:
    return isinstance(value, Entry) and isinstance(value.case_file, CaseFile) and value.case_file.path == path


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
        data = case_file_bytes(path)  # bounded: MAX_CASE_FILE_BYTES
        name = str(path)
        digest = presets_digest(presets)
        key = entry_key(self._fingerprint(), digest, data)
        entry_name = key.hex() + ".entry"
        entry = self.dirs.find(entry_name, key, _ALLOWED, name)
        if _is_entry_of(entry, name):
            return self._remember(entry, digest)
        case_file = self.load_text(text_of(data, path), name, presets)  # InputError: not stored
        self.parsed.append(name)
        outcomes = tuple(
            (case.load_error, *self.check(case, presets))
            for case in case_file.cases
            if case.load_error is not None
        )
        entry = Entry(case_file, outcomes)
        self.dirs.store(entry_name, entry, key, name)
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


# -- the distribution's compiled suite ---------------------------------------------------------------
def build(suite: Path, out: Path) -> int:
    """Compile the presets and every case file of ``suite`` into ``out`` (``setup.py`` runs this on
    the built packages, so the keys are those of the installed files). Returns the number of case
    files; raises when one does not load or its entry cannot be read back."""
    from jpdtools.presets import load_presets

    presets = load_presets(dirs=CacheDirs((), out))
    files = sorted(p for p in suite.rglob("*.yaml") if p.is_file())
    compiler = CompiledLoader(CacheDirs((), out))
    for path in files:
        compiler.load_case_file(path, presets)  # an InputError: the build fails, naming the file
    reader = CompiledLoader(CacheDirs((out,), None))
    for path in files:
        reader.load_case_file(path, load_presets(dirs=CacheDirs((out,), None)))
    if reader.parsed:
        raise RuntimeError(f"the compiled suite in {out} misses {', '.join(reader.parsed)}")
    return len(files)
