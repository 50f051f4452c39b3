"""Hostile programs under `jpd verify`: the harness always ends, its counts and reports are true,
and nothing it started is left running (issue 12, items 4-6).

Each test runs `jpd verify` as a real process against tests/hostile_engine.py, which records the
pid of every process it starts. The subprocess timeout is a hang detector, not a speed assertion:
a working harness ends within a few seconds of `--timeout` per item.
"""

import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

HOSTILE = Path(__file__).with_name("hostile_engine.py")
HANG_GUARD = 120  # seconds: a run still going after this is a hung harness
# --timeout for a program that never answers: every item waits it out, so it is short (the harness
# takes fractions of a second as they are).
SHORT = "0.3"

CASES = """\
format: 1
topic: hostile engine checks
cases:
""" + "".join(
    f"""\
  - id: hostile.{n}
    title: One move on an empty board ({vertex})
    spec: [play.move]
    seeds: ["test"]
    rules: [chinese]
    size: 5
    moves: B {vertex}
    expect:
      default: |
        1: legal
"""
    for n, vertex in enumerate(["C3", "D4", "B2"], 1)
)
ITEMS = 3


def impl(protocol: str, mode: str, pidfile: Path) -> str:
    return f"{protocol}:{sys.executable} {HOSTILE} {protocol} {mode} {pidfile}"


def verify_argv(tmp_path: Path, protocol: str, mode: str, *extra: str) -> list[str]:
    cases = tmp_path / "hostile.yaml"
    cases.write_text(CASES, encoding="utf-8")
    argv = [sys.executable, "-m", "jpdtools.cli", "verify", "--impl", impl(protocol, mode, tmp_path / "pids")]
    argv += [str(cases), "--report-dir", str(tmp_path / "out"), "-q", *extra]
    if protocol == "gtp":
        argv += ["--engine-rules", "chinese"]
    return argv


def alive(pid: int) -> str | None:
    """The process state letter if ``pid`` still exists (a zombie is ``Z``), else None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0].decode()
    except OSError:
        return None


def assert_nothing_left(pidfile: Path, more: tuple[int, ...] = ()) -> None:
    pids = [int(p) for p in pidfile.read_text(encoding="ascii").split()] if pidfile.exists() else []
    deadline = time.monotonic() + 5  # the kernel may take a moment to remove a killed process
    while True:
        left = {pid: alive(pid) for pid in (*pids, *more) if alive(pid) is not None}
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert not left, f"processes left behind (pid: state): {left}"


def reports(out: Path) -> tuple[dict, list[str], ET.Element]:
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    junit = ET.fromstring((out / "report.xml").read_text(encoding="utf-8"))
    return report, lines, junit


MODES = ["hang", "fork", "escape", "crash", "garbage", "flood", "slow-start", "no-newline"]
MODES += ["daemon-exit", "close-stdout", "huge-lines"]  # issue 25


@pytest.mark.parametrize("protocol", ["gtp", "jsonl"])
@pytest.mark.parametrize("mode", MODES)
def test_a_hostile_program_is_an_error_per_item_and_leaves_nothing(tmp_path, protocol, mode):
    argv = verify_argv(tmp_path, protocol, mode, "--timeout", SHORT)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 1, done.stderr
    report, lines, junit = reports(tmp_path / "out")
    summary = report["summary"]
    assert (summary["total"], summary["planned"], summary["error"], summary["pass"]) == (
        ITEMS,
        ITEMS,
        ITEMS,
        0,
    )
    assert summary["ok"] is False and report["interrupted"] is False
    assert len(lines) == ITEMS
    assert junit.get("errors") == str(ITEMS) and junit.get("tests") == str(ITEMS)
    if mode in ("slow-start", "hang"):  # --timeout bounds the first command after a start too
        details = [json.loads(line)["detail"] for line in lines]
        assert all(f"within {SHORT} s" in d or f"within {SHORT}s" in d for d in details), details
    assert_nothing_left(tmp_path / "pids")


@pytest.mark.parametrize("protocol", ["gtp", "jsonl"])
@pytest.mark.parametrize("mode", ["chatty", "ignore-term"])
def test_a_verbose_or_stubborn_program_that_answers_passes(tmp_path, protocol, mode):
    done = subprocess.run(
        verify_argv(tmp_path, protocol, mode, "--timeout", "2"),
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report, lines, _ = reports(tmp_path / "out")
    assert (report["summary"]["pass"], report["summary"]["ok"], len(lines)) == (ITEMS, True, ITEMS)
    assert_nothing_left(tmp_path / "pids")


@pytest.mark.parametrize("protocol", ["gtp", "jsonl"])
def test_two_jobs_against_a_forking_program_leave_nothing(tmp_path, protocol):
    argv = verify_argv(tmp_path, protocol, "escape", "--timeout", SHORT, "--jobs", "2")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 1, done.stderr
    report, _, _ = reports(tmp_path / "out")
    assert (report["summary"]["error"], report["summary"]["total"]) == (ITEMS, ITEMS)
    assert_nothing_left(tmp_path / "pids")


def children(pid: int) -> tuple[int, ...]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    if int(stat.read().rsplit(b")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except OSError:
                pass
    return tuple(found)


@pytest.mark.usefixtures("sigint_reaches_children")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("protocol", ["gtp", "jsonl"])
def test_an_interrupted_run_says_so_everywhere_and_leaves_nothing(tmp_path, protocol, signum):
    argv = verify_argv(tmp_path, protocol, "fork", "--timeout", "60", "--jobs", "2")
    argv += ["--junit", str(tmp_path / "junit.xml")]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pidfile = tmp_path / "pids"
    deadline = time.monotonic() + HANG_GUARD
    # both workers have started an engine, and each engine its child, and the engines hang
    while not (pidfile.exists() and len(pidfile.read_text(encoding="ascii").split()) >= 4):
        assert time.monotonic() < deadline and proc.poll() is None, "the engines never started"
        time.sleep(0.05)
    workers = children(proc.pid)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=HANG_GUARD)
    assert proc.returncode == 130, err
    assert "INTERRUPTED" in out
    report, _, junit = reports(tmp_path / "out")
    assert report["interrupted"] is True and report["summary"]["ok"] is False
    assert report["summary"]["planned"] == ITEMS
    for tree in (junit, ET.parse(tmp_path / "junit.xml").getroot()):
        interrupted = [e for e in tree.iter("error") if e.get("type") == "interrupted"]
        assert interrupted and "interrupted" in interrupted[0].get("message")
        assert int(tree.get("errors")) >= 1
    assert_nothing_left(pidfile, workers)


def test_timeout_must_be_finite(tmp_path):
    for value in ("inf", "nan", "-1", "0", "1e10"):
        done = subprocess.run(
            verify_argv(tmp_path, "gtp", "hang", "--timeout", value),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, (value, done.stderr)
        assert "Traceback" not in done.stderr and "--timeout" in done.stderr


# -- jpd fuzz against the same programs (issue 25) ------------------------------------------------
def fuzz_argv(tmp_path: Path, protocol: str, mode: str, *extra: str) -> list[str]:
    argv = [sys.executable, "-m", "jpdtools.cli", "fuzz", "--impl", impl(protocol, mode, tmp_path / "pids")]
    return [*argv, "--rules", "chinese", "--size", "5", "--out", str(tmp_path / "findings"), "-q", *extra]


@pytest.mark.parametrize("protocol", ["gtp", "jsonl"])
@pytest.mark.parametrize("mode", ["hang", "escape", "daemon-exit", "close-stdout", "huge-lines", "garbage"])
def test_fuzz_against_a_hostile_program_ends_and_leaves_nothing(tmp_path, protocol, mode):
    argv = fuzz_argv(tmp_path, protocol, mode, "--timeout", SHORT, "--games", "3", "--seconds", "20")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 1, done.stdout + done.stderr  # the program errored on every game
    assert "Traceback" not in done.stderr
    assert_nothing_left(tmp_path / "pids")


@pytest.mark.parametrize("protocol", ["jsonl"])  # the GTP one takes no pass: fuzz cannot set up a game
def test_fuzz_against_plausible_nonsense_finds_it_within_its_bounds(tmp_path, protocol):
    argv = fuzz_argv(tmp_path, protocol, "nonsense", "--timeout", "2", "--games", "5", "--seconds", "30")
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "shrunk in" in done.stdout and list((tmp_path / "findings").glob("*.yaml"))
    assert time.monotonic() - started < 90
    assert_nothing_left(tmp_path / "pids")


@pytest.mark.parametrize("protocol", ["gtp", "jsonl"])
def test_verify_against_plausible_nonsense_fails_every_item(tmp_path, protocol):
    done = subprocess.run(
        verify_argv(tmp_path, protocol, "nonsense", "--timeout", "2"),
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    report, _, _ = reports(tmp_path / "out")
    assert (report["summary"]["pass"], report["summary"]["total"]) == (0, ITEMS)
    assert_nothing_left(tmp_path / "pids")


@pytest.mark.usefixtures("sigint_reaches_children")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("protocol", ["gtp", "jsonl"])
def test_a_signal_stops_fuzz_and_its_engine(tmp_path, protocol, signum):
    argv = fuzz_argv(tmp_path, protocol, "fork", "--timeout", "60", "--games", "5")
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pidfile = tmp_path / "pids"
    deadline = time.monotonic() + HANG_GUARD
    while not (pidfile.exists() and len(pidfile.read_text(encoding="ascii").split()) >= 2):
        assert time.monotonic() < deadline and proc.poll() is None, "the engine never started"
        time.sleep(0.05)
    time.sleep(0.3)  # the engine is hanging on its first move
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=HANG_GUARD)
    assert proc.returncode == 130, err
    assert "INTERRUPTED" in out and "Traceback" not in err
    assert_nothing_left(pidfile)
