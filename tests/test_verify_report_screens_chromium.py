"""The HTML report of ``jpd verify`` read on a phone and on a desktop: loaded in headless Chromium at
390 and 1400 px, the page scrolls only up and down (a wide table scrolls inside its own box), and on
the narrow screen the root-cause table is a list of cards, each value under its column's name.
Screenshots go to $TEST_ARTEFACTS (test-artefacts/) to be looked at. Skipped when Chromium is
missing — except in CI (``CI=true``), where that fails.
"""

import base64
import os
from pathlib import Path

from chromium_driver import Browser, chromium_or_skip
from jpdtools.cli import main

ARTEFACTS = Path(os.environ.get("TEST_ARTEFACTS", Path(__file__).resolve().parent.parent / "test-artefacts"))

LAYOUT = """(() => {
  const view = document.documentElement.clientWidth;
  const row = document.querySelector('table.causes tr:not(.head)');
  const cell = row && row.querySelector('td[data-label="where"]');
  return [document.documentElement.scrollWidth, view, row && getComputedStyle(row).display,
          cell && getComputedStyle(cell, '::before').content];
})()"""


def test_the_report_fits_a_phone_and_its_root_causes_read_as_cards(tmp_path):
    # sgfmill over the whole suite, its known failures not excused: every failing item is listed
    # (a summary naming the case file's path, 19x19 boards) and the root causes are many
    report = tmp_path / "report.html"
    argv = ["verify", "--impl", "sgfmill", "--html", str(report), "-q", "--no-expected-failures"]
    assert main(argv) == 1
    browser = Browser(chromium_or_skip())
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    seen = {}
    try:
        for width in (390, 1400):
            browser.resize(width, 900)
            browser.open(report)
            seen[width] = browser.evaluate(LAYOUT)
            data = browser.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)["data"]
            (ARTEFACTS / f"verify-report-{width}.png").write_bytes(base64.b64decode(data))
    finally:
        browser.close()
    for width, (scroll, view, _, _) in seen.items():
        assert scroll <= view, (width, scroll, view)
    assert seen[390][2:] == ["block", '"where: "']  # a card, each value named
    assert seen[1400][2:] == ["table-row", "none"]  # a table row under the column heads
