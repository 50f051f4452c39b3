"""Which suite ran: the distribution's version and a content hash of the case files.

Reports of ``jpd run`` and ``jpd verify`` carry a :class:`SuiteIdentity`, so a result can be traced
to the exact cases it came from — whether they are the installed suite, a checkout's or a suite of
one's own (``--suite DIR``). The hash is the SHA-256 of a manifest with one line per case file,
``<sha256 of the file>  <path>\\n``, sorted by path (relative to the folder given, ``/``-separated;
a file given by itself is named by its file name) — the output of
``cd conformance && find . -name '*.yaml' | sed 's|^\\./||' | LC_ALL=C sort | xargs sha256sum``, so
it can be checked without jpd.
"""

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from jpdtools.errors import InputError, not_a_case_path

DISTRIBUTION = "jipingdian"


def distribution_version() -> str:
    """The installed jipingdian version (``"0.1.0"``), or ``"unknown"`` when it is not installed."""
    # Imported here, not at start-up: a quiet run never shows the version, and importlib.metadata
    # with its look-up costs 20-50 ms.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class SuiteIdentity:
    """The suite a run used: the jipingdian version that ran it and what was in its case files."""

    sha256: str
    files: int

    @cached_property
    def version(self) -> str:
        """The jipingdian version that ran it (looked up when first read)."""
        return distribution_version()

    def describe(self) -> str:
        """``suite: jipingdian 0.1.0, 22 case files, sha256 3f0c…`` (the hash in full)."""
        plural = "" if self.files == 1 else "s"
        return f"suite: {DISTRIBUTION} {self.version}, {self.files} case file{plural}, sha256 {self.sha256}"

    def to_json(self) -> dict:
        return {
            "distribution": DISTRIBUTION,
            "version": self.version,
            "sha256": self.sha256,
            "files": self.files,
        }


def suite_files(paths: Iterable[Path]) -> list[tuple[str, Path]]:
    """(manifest name, file) of every case file ``paths`` name — the files ``jpd run`` loads.

    Raises InputError for a path that does not exist.
    """
    named: dict[str, Path] = {}
    for path in paths:
        if path.is_dir():
            for p in sorted(path.rglob("*.yaml")):
                if p.is_file():
                    named.setdefault(p.relative_to(path).as_posix(), p)
        elif path.is_file():
            named.setdefault(path.name, path)
        else:
            raise InputError(not_a_case_path(path))
    return sorted(named.items())


def manifest(paths: Iterable[Path]) -> str:
    """The ``sha256sum``-style manifest of the case files (see the module docstring)."""
    lines = []
    for name, path in suite_files(paths):
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError as err:
            raise InputError(f"cannot read {path}: {err.strerror}") from None
        lines.append(f"{digest}  {name}\n")
    return "".join(lines)


def identify(paths: Iterable[Path]) -> SuiteIdentity:
    """The identity of the suite made of the case files ``paths`` name."""
    text = manifest(paths)
    return SuiteIdentity(hashlib.sha256(text.encode()).hexdigest(), text.count("\n"))
