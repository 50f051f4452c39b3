"""What skipped, and why: one line per cause at the end of pytest.

A test skips when the machine lacks something it needs (GNU Go, Chromium, the Node libraries,
Dask, dlgo, the seed texts beside the clone). The tally names each cause once with the number of
tests it skipped, so a missing package is one line rather than forty ``s`` characters;
docs/contributors.md ("What the tests need") says how to provide each.
"""

import re
from collections import Counter

SHOWN = 15  # causes listed; the rest are summed in one line
WHERE = "docs/contributors.md, 'What the tests need', says how to provide each"


def _reason(report) -> str:
    longrepr = report.longrepr
    text = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    text = text.removeprefix("Skipped: ").strip()
    return re.sub(r"\s+", " ", text) or "(no reason given)"


def tally(reports) -> Counter:
    """The skipped reports' reasons, counted (a skip outside the call phase counts once too)."""
    return Counter(_reason(r) for r in reports)


def summary_lines(causes: Counter) -> list[str]:
    if not causes:
        return []
    lines = [f"{n:5} skipped: {reason}" for reason, n in causes.most_common(SHOWN)]
    rest = causes.most_common()[SHOWN:]
    if rest:
        lines.append(f"{sum(n for _, n in rest):5} skipped for {len(rest)} other cause(s)")
    lines.append(f"      ({WHERE})")
    return lines


def write_summary(terminalreporter) -> None:
    lines = summary_lines(tally(terminalreporter.stats.get("skipped", [])))
    if not lines:
        return
    terminalreporter.write_sep("-", "what skipped, and why")
    for line in lines:
        terminalreporter.write_line(line)
