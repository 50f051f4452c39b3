"""The tally of skips printed at the end of pytest (tests/skips.py): one line per cause."""

from collections import Counter
from types import SimpleNamespace

from skips import summary_lines, tally


def _skipped(reason: str):
    return SimpleNamespace(longrepr=("tests/test_x.py", 3, f"Skipped: {reason}"))


def test_one_line_per_cause_most_frequent_first():
    reports = [_skipped("GNU Go is not installed")] * 3 + [_skipped("needs  npm ci\n in implementations/wgo")]
    lines = summary_lines(tally(reports))
    assert lines[0] == "    3 skipped: GNU Go is not installed"
    assert lines[1] == "    1 skipped: needs npm ci in implementations/wgo"
    assert "docs/contributors.md" in lines[-1] and len(lines) == 3


def test_many_causes_are_summed_and_none_prints_nothing():
    lines = summary_lines(Counter({f"cause {i}": 1 for i in range(20)}))
    assert lines[-2] == "    5 skipped for 5 other cause(s)"
    assert summary_lines(Counter()) == []
