"""The two tiers of the tests, and the figures said about them: every test file that starts Chromium
is in the slow tier; docs/contributors.md lists the slowest tests that benchmarks/durations.py
measured, slowest first; the scheduler reads those figures."""

import importlib.util
import json
import re
from pathlib import Path

from scheduling import known_durations, longest_first

from conftest import SLOW_FILES

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


def test_every_file_that_starts_chromium_is_slow():
    starting = {
        path.name
        for path in TESTS.glob("test_*.py")
        if path.name != Path(__file__).name  # this file names the pattern
        if path.name.endswith("_chromium.py") or CHROMIUM.search(path.read_text(encoding="utf-8"))
    }
    assert "test_book_chromium.py" in starting  # the search finds what it looks for
    assert sorted(starting - set(SLOW_FILES)) == []


def test_every_slow_file_exists():
    assert sorted(name for name in SLOW_FILES if not (TESTS / name).exists()) == []


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
