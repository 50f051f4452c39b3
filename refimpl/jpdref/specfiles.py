"""Where the specification's data files are: inside the installed package, or the checkout's ``spec/``.

A built distribution (wheel) carries the repository's ``spec/`` folder as ``jpdref/_data/spec``
(the build copies it; see ``setup.py``), read here as files next to the package (what
:mod:`importlib.resources` would give). Run from a checkout — an editable install, or
``refimpl/`` on the path — the package has no ``_data`` and the checkout's own ``spec/`` is read,
so there is one copy of every file in the repository.
"""

import sys
from pathlib import Path

PACKAGED = ("_data", "spec")
"""The packaged ``spec/`` folder, relative to the ``jpdref`` package."""

MARKER = "rulesets.yaml"


def files(package: str) -> Path:
    """The folder of an imported package: what :func:`importlib.resources.files` gives for a
    package on the filesystem, without importing :mod:`importlib.resources` (zipfile, tempfile
    and more: 5–10 ms of every start). From a zip import the path is inside the zip, so nothing
    under it is a file and the readers fall back as before."""
    return Path(sys.modules[package].__file__).resolve().parent


class SpecFilesMissing(FileNotFoundError):
    """Neither the package nor a checkout around it holds the specification's files."""


def packaged_spec_dir() -> Path | None:
    """``jpdref/_data/spec`` when this is an installed distribution that carries it, else None."""
    folder = files("jpdref").joinpath(*PACKAGED)
    return folder if (folder / MARKER).is_file() else None


def checkout_root() -> Path | None:
    """The repository root when ``jpdref`` runs from a checkout (``refimpl/jpdref``), else None."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "spec" / MARKER).is_file() and (root / "refimpl" / "jpdref").is_dir() else None


def spec_dir() -> Path:
    """The folder of the specification's files: the packaged copy first, else the checkout's ``spec/``.

    Raises :class:`SpecFilesMissing` naming both places when neither exists.
    """
    packaged = packaged_spec_dir()
    if packaged is not None:
        return packaged
    root = checkout_root()
    if root is not None:
        return root / "spec"
    package = Path(__file__).resolve().parent
    raise SpecFilesMissing(
        f"jipingdian's specification files are missing: neither {package.joinpath(*PACKAGED)} nor a "
        f"checkout's spec/ around {package} holds {MARKER}; reinstall the distribution "
        "(pip install jipingdian) or install it from its checkout (pip install -e .)"
    )
