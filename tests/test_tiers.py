"""The three tiers of the tests, and the figures said about them: every test file that starts
Chromium is in the CI tier, which `pytest` leaves out and CI runs; docs/contributors.md lists the
slowest tests that benchmarks/durations.py measured, slowest first; the scheduler reads those
figures."""

import importlib.util
import json
import re
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
from scheduling import known_durations, longest_first, unit_of

from conftest import CI_FILES, SLOW_FILES, pytest_collection_modifyitems

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
BENCHMARKS = ROOT / "benchmarks"
RESULTS = BENCHMARKS / "results-tests.json"
# what starts Chromium: the driver of the tests, and a printed book (jpd book --pdf)
CHROMIUM = re.compile(r'^\s*(from|import) chromium_driver\b|"--pdf"', flags=re.M)


def _durations_module():
    spec = importlib.util.spec_from_file_location("benchmarks_durations", BENCHMARKS / "durations.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_file_that_starts_chromium_is_in_the_ci_tier():
    starting = {
        path.name
        for path in TESTS.glob("test_*.py")
        if path.name != Path(__file__).name  # this file names the pattern
        if path.name.endswith("_chromium.py") or CHROMIUM.search(path.read_text(encoding="utf-8"))
    }
    assert "test_book_chromium.py" in starting  # the search finds what it looks for
    assert sorted(starting - set(CI_FILES)) == []


def test_every_listed_file_exists_and_is_in_one_tier():
    assert sorted(name for name in CI_FILES + SLOW_FILES if not (TESTS / name).exists()) == []
    assert sorted(set(CI_FILES) & set(SLOW_FILES)) == []
    assert len(set(CI_FILES)) == len(CI_FILES) and len(set(SLOW_FILES)) == len(SLOW_FILES)


def test_pytest_leaves_out_the_ci_tier_and_ci_runs_both_tiers():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    config = pyproject["tool"]["pytest"]["ini_options"]
    assert "-m 'not ci'" in config["addopts"]
    assert {m.split(":", 1)[0] for m in config["markers"]} == {"slow", "ci"}
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pytest -m "not slow"\npytest -m slow\n' in ci  # the two together are every test


class _Item:
    def __init__(self, name: str) -> None:
        self.path = Path("tests") / name
        self.marks: list[str] = []

    def add_marker(self, mark) -> None:
        self.marks.append(mark.name)


def test_a_ci_file_is_marked_slow_and_ci_and_a_slow_file_slow():
    items = [_Item(CI_FILES[0]), _Item(SLOW_FILES[0]), _Item("test_dsl.py")]
    pytest_collection_modifyitems(SimpleNamespace(), items)
    assert [sorted(item.marks) for item in items] == [["ci", "slow"], ["slow"], []]


def test_the_table_is_made_from_the_results_file():
    durations = _durations_module()
    result = json.loads(RESULTS.read_text(encoding="utf-8"))
    assert durations.table(result) == (BENCHMARKS / "results-tests.md").read_text(encoding="utf-8")


def test_the_docs_list_the_slowest_tests_measured_slowest_first():
    """Each row of the docs' table names a test by its id, a long one shortened with … (standing
    for any text); the rows are the SHOWN slowest of benchmarks/results-tests.json, in its order."""
    doc = (ROOT / "docs" / "contributors.md").read_text(encoding="utf-8")
    section = doc.split("| test | why it is slow |", 1)[1].split("\n\n", 1)[0]
    named = re.findall(r"^\| `([^`]+)`", section, flags=re.M)
    result = json.loads(RESULTS.read_text(encoding="utf-8"))
    slowest = [t["test"] for t in result["tests"][: _durations_module().SHOWN]]
    assert len(named) == len(slowest)
    for name, test in zip(named, slowest, strict=True):
        pattern = ".*".join(re.escape(part) for part in name.split("…"))
        assert re.fullmatch(pattern, test), f"the docs name {name!r} where {test!r} is measured"


def test_the_scheduler_sends_the_longest_units_first():
    seconds = known_durations()
    assert seconds, "benchmarks/results-tests.json gives the durations"
    units = {"a": {"t1": False}, "b": {"slow": False, "t2": False}, "c": {"t3": False}}
    assert longest_first(units, {"slow": 5.0, "t3": 1.0}) == ["b", "c", "a"]
    assert longest_first(units, {}) == ["a", "b", "c"]  # nothing known: collection order
    assert known_durations(ROOT / "no-such-file.json") == {}


@pytest.mark.parametrize(
    ("nodeid", "unit"),
    [
        ("tests/test_book.py::test_x", "the book"),  # a group of SHARED_FIXTURE_GROUPS
        ("tests/test_dsl.py::test_long", "tests/test_dsl.py::test_long"),  # measured: on its own
        ("tests/test_dsl.py::test_short[a]", "tests/test_dsl.py"),  # short: with its file's
        ("tests/test_conformance.py::test_case[ko.simple.x[japanese]]", "tests/test_conformance.py::ko"),
        ("README.md::line:10,column:1", "README.md"),
    ],
)
def test_a_unit_of_work_is_a_group_a_measured_test_a_case_word_or_a_file(nodeid, unit):
    groups = {"test_book.py": "the book"}
    assert unit_of(nodeid, groups, {"tests/test_dsl.py::test_long": 3.0}) == unit
