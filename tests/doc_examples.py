"""The shell examples of README.md and docs/*.md, run as tests (collected by Sybil, see the
checkout's conftest.py).

Two kinds of fenced block are run, each in a fresh temporary folder that links the checkout's
``examples/``, ``conformance/``, ``spec/``, ``reports/`` and ``benchmarks/`` (so an example reads
them by the paths a reader types from the clone's root, and whatever it writes, ``out/…``, stays
out of the checkout):

* ``sh``: every command (a line, with its ``\\`` continuations) must exit 0 or 1 — 1 is a check
  that failed, the legitimate end of a verification; 2 (bad input), 3 (nothing selected) or a
  traceback is a broken example;
* ``console``: ``$ COMMAND`` lines each followed by the output shown; the command's standard
  output must be that text (trailing spaces aside). A line ``…`` in the shown output stands for
  any number of lines.

A block right after an HTML comment ``<!-- not run: REASON -->`` is a template, not run: it names
a placeholder (``games/``, ``/path/to/engine``), installs something, or runs the tests themselves.

An example that needs what the machine may not have (GNU Go, Chromium, the Node programs'
packages) is skipped, naming it, when it is missing — and fails under ``CI=true``, where it is
provisioned.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINKED = ("examples", "conformance", "spec", "reports", "benchmarks", "tests")
TIMEOUT = 600
NEEDS = {  # a word in the example → what it needs, and whether that is here
    "gnugo": (
        "GNU Go (apt-get install gnugo)",
        lambda: shutil.which("gnugo") or Path("/usr/games/gnugo").exists(),
    ),
    "--pdf": ("Chromium (apt-get install chromium)", lambda: shutil.which("chromium")),
}


def _commands(text: str) -> list[str]:
    """The commands of a block: lines joined at a trailing backslash; blank lines and comment
    lines left out."""
    out: list[str] = []
    pending = ""
    for line in text.splitlines():
        if pending:
            pending += "\n" + line
        elif line.strip() and not line.lstrip().startswith("#"):
            pending = line
        else:
            continue
        if not pending.endswith("\\"):
            out.append(pending)
            pending = ""
    if pending:
        out.append(pending)
    return out


def _needs(text: str) -> None:
    for word, (what, present) in NEEDS.items():
        if word in text and not present():
            if os.environ.get("CI") == "true":
                pytest.fail(f"this example needs {what}, which CI provisions")
            pytest.skip(f"needs {what}")


def _sandbox() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="jpd-doc-"))
    for name in LINKED:
        (folder / name).symlink_to(ROOT / name)
    return folder


def _run(command: str, where: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    bin_dir = str(Path(sys.executable).parent)  # jpd and python3 of this environment first
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "refimpl"), str(ROOT / "tools"), env.get("PYTHONPATH", "")]
    )
    env.pop("COLUMNS", None)
    env["NO_COLOR"] = "1"
    return subprocess.run(
        ["bash", "-c", command], cwd=where, env=env, capture_output=True, text=True, timeout=TIMEOUT
    )


def _check_status(command: str, done: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in done.stderr, f"$ {command}\n{done.stderr}"
    assert done.returncode in (0, 1), (
        f"$ {command}\nexit status {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    )


NOT_RUN = re.compile(r"<!-- not run: [^>]+ -->\s*$")


def _not_run(example) -> bool:
    """Whether the block follows a ``<!-- not run: REASON -->`` comment."""
    return NOT_RUN.search(example.document.text[: example.start]) is not None


def run_sh(example) -> None:
    text = example.parsed
    if _not_run(example):
        return
    _needs(text)
    where = _sandbox()
    try:
        for command in _commands(text):
            _check_status(command, _run(command, where))
    finally:
        shutil.rmtree(where, ignore_errors=True)


def _matches(shown: list[str], got: list[str]) -> bool:
    pattern = "\n".join(".*?" if line.strip() == "…" else re.escape(line) for line in shown)
    pattern = pattern.replace("\n.*?\n", "(?:\n.*?)?\n")
    return re.fullmatch(pattern, "\n".join(got), re.DOTALL) is not None


def run_console(example) -> None:
    text = example.parsed
    if _not_run(example):
        return
    _needs(text)
    steps: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps and steps[-1][0].endswith("\\") and not steps[-1][1]:
            steps[-1] = (steps[-1][0] + "\n" + line, [])
        elif steps:
            steps[-1][1].append(line.rstrip())
    where = _sandbox()
    try:
        for command, shown in steps:
            done = _run(command, where)
            _check_status(command, done)
            got = [line.rstrip() for line in done.stdout.rstrip("\n").splitlines()]
            while shown and not shown[-1]:
                shown.pop()
            assert _matches(shown, got), (
                f"$ {command}\nshown:\n" + "\n".join(shown) + "\n\ngot:\n" + "\n".join(got)
            )
    finally:
        shutil.rmtree(where, ignore_errors=True)
