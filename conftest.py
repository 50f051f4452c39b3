"""The checkout's pytest configuration for what is not under tests/: the shell examples of
README.md and docs/*.md, collected as tests by Sybil (tests/doc_examples.py says how they run;
without Sybil, which the test extra installs, they are not collected), and the tally of what
skipped, and why, printed at the end (tests/skips.py); and bytecode caches written."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "tests"))

from skips import write_summary

try:
    from sybil import Sybil
    from sybil.parsers.markdown import CodeBlockParser
except ImportError:  # pragma: no cover - the test extra brings Sybil
    Sybil = None

# Bytecode caches (__pycache__/, which .gitignore leaves out) are written even when the environment
# says not to (PYTHONDONTWRITEBYTECODE, as on this project's machines and CI): pytest caches a test
# module as its assertion rewriting compiled it only where bytecode is written, and without that
# cache every xdist worker of every run compiles every test module again (seconds each).
sys.dont_write_bytecode = False

if Sybil is not None:
    from doc_examples import run_console, run_sh

    pytest_collect_file = Sybil(
        parsers=[CodeBlockParser("sh", run_sh), CodeBlockParser("console", run_console)],
        patterns=["README.md", "docs/*.md"],
    ).pytest()


# Examples that run the mutants or drive a program over a whole suite: slow, like the tests of
# tests/conftest.py's SLOW_FILES (`pytest -m "not slow"` leaves them out). Examples that build a book
# or run a study: `ci` as well, like its CI_FILES (`pytest` leaves them out; CI runs them).
SLOW_EXAMPLES = ("mutate.py", "jpd verify", "jpd fuzz")
CI_EXAMPLES = ("jpd book", "jpd study")


def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        example = getattr(item, "example", None)
        if example is None:
            continue
        text = str(example.parsed)
        if any(word in text for word in CI_EXAMPLES):
            item.add_marker("slow")
            item.add_marker("ci")
        elif any(word in text for word in SLOW_EXAMPLES):
            item.add_marker("slow")


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    write_summary(terminalreporter)
