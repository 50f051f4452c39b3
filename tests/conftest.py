"""pytest integration of the conformance suite: one test item per case × ruleset.

``tests/test_conformance.py`` asks for the ``conformance_item`` fixture; this hook parametrizes
it over the plan of ``conformance/`` (or ``$JPD_CONFORMANCE``, a path list separated by the OS
path separator), with readable ids such as ``ko.simple.recapture[japanese]``. Error cases are
one item each (``format.error.x[loader]``).

Collection never crashes on a bad suite: a case file that does not load becomes a failing item
named after the file whose message gives file:line:col, and so does a suite that cannot be
planned at all. Outcomes: pass → passed, fail/error → failed, skip → skipped, and an
either-verdict that matched (``open``) → xfailed, so it is never counted as a pass.
"""

import os
import signal
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

SUITE_ENV = "JPD_CONFORMANCE"

# CI runs every property test on the same examples (a failure there is reproducible from the log);
# elsewhere Hypothesis explores new examples on every run.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")


# Both cores by default: `pytest` runs on every core through pytest-xdist (the test extra pins it)
# unless told otherwise (`-n 0`, `-n N`, `-p no:xdist`). Set here rather than as `-n auto` in
# pyproject's addopts so that an environment without xdist still runs `pytest` (in one process).
@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    if not config.pluginmanager.hasplugin("xdist") or config.getoption("numprocesses", None) is not None:
        return
    if hasattr(config, "workerinput") or os.environ.get("PYTEST_XDIST_WORKER"):
        return  # a worker runs its share in its own process
    if config.getoption("usepdb", False) or config.getoption("collectonly", False):
        return
    config.option.numprocesses = "auto"


# Test files whose tests share an expensive module- or session-scoped fixture (a built book, a
# study, an export of the whole suite, an engine): a fixture is built once in each worker that runs
# a test asking for it, so the tests of one group are sent to one worker. Files that share one
# fixture (conftest.py's three_file_book) are one group.
SHARED_FIXTURE_GROUPS = {
    "test_book.py": "the whole suite's book",
    "test_book_editions.py": "three_file_book",
    "test_book_screens_chromium.py": "three_file_book",
    "test_book_chromium.py": "the browser book",
    "test_book_pdf.py": "the printed book",
    "test_playground_chromium.py": "the playground's site",
    "test_export.py": "the suite exported",
    "test_study.py": "the sample studied",
    "test_verify_leela.py": "Leela Zero's network",
    "test_fuzz.py": "Leela Zero's network (fuzz)",
    "test_attacks_signals.py": "the games of the signals",
}


@pytest.hookimpl(optionalhook=True)  # an xdist hook: without xdist (`-p no:xdist`) it is never called
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """With xdist's default `--dist load`: the tests in units of work (tests/scheduling.py's
    unit_of), the longest units first; another `--dist` is xdist's own."""
    if config.getoption("dist") != "load":
        return None
    from scheduling import LongestFirstScheduling, known_durations, unit_of

    seconds = known_durations()

    def unit(nodeid: str) -> str:
        return unit_of(nodeid, SHARED_FIXTURE_GROUPS, seconds)

    return LongestFirstScheduling(config, log, unit, seconds)


# Three tiers. The quick tier (`pytest -m "not slow"`) checks the rules, the suite and the commands in
# under a minute. Slow tests (a real engine or library over the whole suite, a search, seconds each)
# are marked `slow`; `pytest` runs them with the quick tier. The tests that start Chromium or hostile
# programs, build a whole book, export, study or compilation, or search generated positions are
# marked `ci` as well as `slow`: `pytest` leaves them out (pyproject's addopts: -m 'not ci'), CI runs
# them (`pytest -m slow`), and so do `pytest -m ci` and `pytest -m ""`. docs/contributors.md lists the
# slowest tests and says why they are slow.
CI_FILES = (
    "test_book_chromium.py",  # Chromium
    "test_book_screens_chromium.py",  # Chromium, every kind of page at two widths
    "test_book_review_chromium.py",  # Chromium, and four books built
    "test_book_pdf.py",  # Chromium prints both editions, chapter by chapter
    "test_playground_chromium.py",  # Chromium
    "test_verify_report_screens_chromium.py",  # Chromium draws a verify report at two widths
    "test_hostile.py",  # programs that hang, flood and leave children behind
    "test_book.py",  # the whole suite's book (both editions, every link followed), more books by the command
    "test_book_editions.py",  # a book of three case files in both editions
    "test_attacks_outputs.py",  # books and exports written into hostile folders, on full disks, under signals
    "test_export.py",  # the whole suite exported, each record checked against the schema, re-imported and run
    "test_study.py",  # jpd study over a few hundred finished games, its book
    "test_compiled.py",  # the whole suite compiled and compared with the parser, concurrent writers
    "test_theorems.py",  # the compatibility theorems on generated positions (Hypothesis)
    "test_properties.py",  # random games under every ruleset (Hypothesis)
    "test_collections.py",  # collections refereed in pools, killed and resumed, on a Dask cluster
    "test_transform_suite.py",  # the reference under every board symmetry and colour swap, whole suite
)
SLOW_FILES = (
    "test_verify_gnugo.py",  # GNU Go over the whole suite
    "test_verify_leela.py",  # Leela Zero
    "test_fuzz.py",  # GNU Go and Leela Zero games
    "test_gnugo_settledness.py",  # GNU Go's opinion of every counted position
    "test_library_programs.py",  # the Go libraries' programs over their case files
    "test_pettingzoo.py",  # PettingZoo's environment over the suite
    "test_real_games.py",  # the shared collection of real games replayed
    "test_status_proofs.py",  # the status prover over every counting case
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in CI_FILES:
            item.add_marker(pytest.mark.slow)
            item.add_marker(pytest.mark.ci)
        elif item.path.name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def sigint_reaches_children():
    """A SIGINT sent to a child that the test starts stops it as Ctrl-C would, even when pytest
    was started with SIGINT ignored (a background job of a shell without job control): a child
    inherits an ignored SIGINT, and Python then installs no KeyboardInterrupt handler, so the test
    would wait out its timeouts and fail. Here pytest handles SIGINT during the test, which a child
    does not inherit."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.fixture(scope="session")
def three_file_book(tmp_path_factory) -> Path:
    """The book of book_helpers.build_studied_book, built once for the test files that read it
    (one group of SHARED_FIXTURE_GROUPS, so one worker builds it)."""

    from book_helpers import build_studied_book

    return build_studied_book(tmp_path_factory.mktemp("three-file-book") / "book")


@dataclass(frozen=True)
class ConformanceParam:
    """One test item: a planned case × ruleset, or a problem to report as a failure."""

    item: object = None  # jpdtools.run.runner.PlanItem
    context: object = None  # (presets, loader)
    problem: str = ""

    def check(self) -> None:
        if self.problem:
            pytest.fail(self.problem, pytrace=False)
        from jpdtools.run.adapters import ReferenceAdapter
        from jpdtools.run.compare import Status
        from jpdtools.run.runner import execute_item

        presets, loader = self.context
        result = execute_item(self.item, ReferenceAdapter(), presets, loader)
        where = f"{result.where}: {result.name}"
        if result.status is Status.FAIL:
            lines = [str(m) for m in result.mismatches] or [result.detail]
            pytest.fail("\n".join([where, *(f"  {line}" for line in lines)]), pytrace=False)
        if result.status is Status.ERROR:
            pytest.fail(f"{where}\n  error: {result.detail}", pytrace=False)
        if result.status is Status.SKIP:
            pytest.skip(result.detail)
        if result.status is Status.OPEN:
            pytest.xfail(f"open: {result.detail}")


def _suite_paths() -> list[Path]:
    from jpdtools.paths import conformance_dir

    value = os.environ.get(SUITE_ENV, "")
    if value:
        return [Path(p) for p in value.split(os.pathsep) if p]
    return [conformance_dir()]


def conformance_params() -> list[tuple[str, ConformanceParam]]:
    """(id, param) for every item of the suite's plan, load failures included."""
    try:
        from jpdtools.presets import load_presets
        from jpdtools.run.runner import Filters, default_loader, plan_paths

        presets = load_presets()
        loader = default_loader()
        plan = plan_paths(_suite_paths(), presets, Filters(), loader)
    except Exception as err:  # the suite cannot even be planned: one failing item says why
        return [("conformance-suite", ConformanceParam(problem=f"{type(err).__name__}: {err}"))]
    params = [(f"load-error:{Path(f.file).name}", ConformanceParam(problem=str(f))) for f in plan.failures]
    params += [
        (f"{r.case_id}[unresolved]", ConformanceParam(problem=f"{r.where}: {r.detail}")) for r in plan.errors
    ]
    params += [(i.name, ConformanceParam(i, (presets, loader))) for i in plan.items]
    return params


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "conformance_item" not in metafunc.fixturenames:
        return
    params = conformance_params()
    metafunc.parametrize("conformance_item", [p for _, p in params], ids=[name for name, _ in params])
