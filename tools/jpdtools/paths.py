"""Where the distribution's data is: the specification's files and the conformance suite.

Every module, test and benchmark asks here (never ``__file__``-relative paths of its own):

* :func:`spec_dir` / :func:`spec_file` — the files of ``spec/`` (``rulesets.yaml``, ``case.lark``,
  ``export.schema.json``, the Markdown whose anchors lint and explain read, …);
* :func:`conformance_dir` — the conformance suite (``conformance/``): the default of ``jpd run``,
  ``verify``, ``export``, ``lint`` and ``explain`` when no ``--suite DIR`` or paths are given;
* :func:`checkout_root` — the repository root when running from a checkout, else None;
* :func:`bundled_expected_failures` — the expected-failure list a bundled engine profile carries;
* :func:`implementations_dir` — the third-party programs ``jpd verify --impl NAME`` knows
  (``implementations/``, one folder each).

An installed distribution (wheel) carries ``spec/`` as ``jpdref/_data/spec`` and the suite as
``jpdtools/_data/conformance`` (``setup.py`` copies them at build time; they are read as files next to
the packages). Run from a checkout — an editable install — both are the checkout's own
``spec/`` and ``conformance/``, so the repository holds the one copy. ``$JPD_ROOT`` names a checkout
whose ``spec/`` and ``conformance/`` are read instead of either.
"""

import os
from pathlib import Path

from jpdref import specfiles
from jpdref.specfiles import files

from jpdtools.errors import InputError

ROOT_ENV = "JPD_ROOT"
PACKAGED_SUITE = ("_data", "conformance")
"""The packaged suite, relative to the ``jpdtools`` package."""


def _override_root() -> Path | None:
    """``$JPD_ROOT``, checked to be a checkout; None when unset."""
    override = os.environ.get(ROOT_ENV)
    if not override:
        return None
    root = Path(override)
    if not (root / "spec" / specfiles.MARKER).is_file():
        raise InputError(f"{ROOT_ENV}={override}: no spec/{specfiles.MARKER} there (expected a checkout)")
    return root


def checkout_root() -> Path | None:
    """The repository root: ``$JPD_ROOT``, else the checkout jpdtools runs from; None when installed."""
    override = _override_root()
    if override is not None:
        return override
    root = Path(__file__).resolve().parents[2]
    if (root / "tools" / "jpdtools").is_dir() and (root / "conformance").is_dir():
        return root
    return None


def spec_dir() -> Path:
    """The folder of the specification's files (``spec/``), installed or in the checkout."""
    override = _override_root()
    if override is not None:
        return override / "spec"
    try:
        return specfiles.spec_dir()
    except specfiles.SpecFilesMissing as err:
        raise InputError(str(err)) from None


def spec_file(name: str) -> Path:
    """One file of ``spec/`` (``"case.lark"``); InputError naming where it was looked for."""
    path = spec_dir() / name
    if not path.is_file():
        raise InputError(f"cannot find spec/{name}: {path} does not exist")
    return path


def packaged_suite_dir() -> Path | None:
    """``jpdtools/_data/conformance`` when this is an installed distribution that carries it."""
    folder = files("jpdtools").joinpath(*PACKAGED_SUITE)
    return folder if folder.is_dir() else None


def conformance_dir() -> Path:
    """The conformance suite's folder: ``$JPD_ROOT/conformance``, the installed suite, or the checkout's."""
    override = _override_root()
    if override is not None:
        return override / "conformance"
    packaged = packaged_suite_dir()
    if packaged is not None:
        return packaged
    root = checkout_root()
    if root is not None:
        return root / "conformance"
    package = Path(__file__).resolve().parent
    raise InputError(
        f"cannot find the conformance suite: neither {package.joinpath(*PACKAGED_SUITE)} nor a "
        f"checkout's conformance/ exists; reinstall jipingdian, or give the suite with --suite DIR"
    )


PACKAGED_IMPLEMENTATIONS = ("_data", "implementations")
"""The implementations' folders in a wheel, relative to the ``jpdtools`` package."""


def implementations_dir() -> Path | None:
    """The folder of the implementations (``implementations/``: ``$JPD_ROOT``'s, the installed
    copy in a wheel — ``jpdtools/_data/implementations``, copied by ``setup.py`` —, or the
    checkout's); None when there is none."""
    root = _override_root() or checkout_root()
    if root is not None and (root / "implementations").is_dir():
        return root / "implementations"
    packaged = files("jpdtools").joinpath(*PACKAGED_IMPLEMENTATIONS)
    return Path(str(packaged)) if packaged.is_dir() else None


PACKAGED_EXAMPLES = ("_data", "examples")
"""The files the documentation's examples read, in a wheel, relative to the ``jpdtools`` package."""


def examples_dir() -> Path | None:
    """The folder of the documentation's example files (``examples/``: ``$JPD_ROOT``'s or the
    checkout's, else the installed copy in a wheel, ``jpdtools/_data/examples``); None when there
    is none."""
    root = _override_root() or checkout_root()
    if root is not None and (root / "examples").is_dir():
        return root / "examples"
    packaged = files("jpdtools").joinpath(*PACKAGED_EXAMPLES)
    return Path(str(packaged)) if packaged.is_dir() else None


PACKAGED_EXPECTED = ("_data", "expected")
"""The bundled profiles' expected-failure lists in a wheel, relative to the ``jpdtools`` package."""


def bundled_expected_failures(profile: str) -> Path | None:
    """The expected-failure list a bundled profile (``gnugo``, ``sgfmill``, …) carries: the
    checkout's ``reports/PROFILE/expected-failures.txt``, or its copy in a wheel
    (``jpdtools/_data/expected/PROFILE.txt``, copied by ``setup.py``); None when there is none."""
    root = checkout_root()
    if root is not None:
        path = root / "reports" / profile / "expected-failures.txt"
        return path if path.is_file() else None
    packaged = files("jpdtools").joinpath(*PACKAGED_EXPECTED, f"{profile}.txt")
    return Path(str(packaged)) if packaged.is_file() else None


def shared_dir() -> Path:
    """``../shared`` beside the checkout (beside the working folder when installed): the seed texts
    (``seeds/``) and game records. It may not exist; callers check."""
    return (checkout_root() or Path.cwd()).parent / "shared"


def shared_games_dir() -> Path:
    """``../shared/data/games`` beside the checkout (beside the working folder when installed).

    It may not exist; callers check.
    """
    return shared_dir() / "data" / "games"


SAMPLE_CORPUS = ("benchmarks", "corpus", "gnugo-sample.tar.xz")
"""The shipped sample of finished games in a checkout."""
PACKAGED_SAMPLE = ("_data", "corpus", "gnugo-sample.tar.xz")
"""The same in a wheel, relative to the ``jpdtools`` package."""


def sample_corpus() -> Path | None:
    """The shipped sample of finished games (GNU Go playing itself, its dead stones and seki marked):
    ``benchmarks/corpus/gnugo-sample.tar.xz`` of the checkout, or the installed distribution's copy
    (``jpdtools/_data/corpus/``, copied by ``setup.py``); None when there is neither."""
    root = checkout_root()
    if root is not None and root.joinpath(*SAMPLE_CORPUS).is_file():
        return root.joinpath(*SAMPLE_CORPUS)
    packaged = files("jpdtools").joinpath(*PACKAGED_SAMPLE)
    return Path(str(packaged)) if packaged.is_file() else None
