"""How long each test takes: the figures behind the list of slowest tests in docs/contributors.md,
and the order in which tests/scheduling.py sends the tests to pytest-xdist's workers.

```
python benchmarks/durations.py [--out DIR] [PYTEST ARGS...]
```

Runs the three commands a contributor and CI run (RUNS): the quick tier (`pytest -m "not slow"`),
`pytest` (the quick and slow tiers: everything but the tests marked `ci`), and the CI tier
(`pytest -m ci`), each timed in wall-clock and CPU seconds (user + system, children included), and
records every test's seconds (set-up, call and tear-down; a shared fixture's cost falls on the first
test of its group that builds it) with its tier: quick, slow (run by `pytest` but not by the quick
tier) or ci. Writes `results-tests.json` (each test of at least MIN_SECONDS, slowest first, with its
tier; the three commands' times; the machine, its load, the commit) and `results-tests.md` (the
commands' times and the SHOWN slowest tests). Run on a quiet machine.
"""

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIN_SECONDS = 0.2  # shorter tests are not recorded (the scheduler counts them as instant)
SHOWN = 20
# (tier of the tests it adds, the command's -m, as the docs write the command); None: pyproject's -m
RUNS = (("quick", "not slow", 'pytest -m "not slow"'), ("slow", None, "pytest"), ("ci", "ci", "pytest -m ci"))


class Recorder:
    """A pytest plugin (loaded with -p in the controller): sums the phases of each test and writes
    {test id: seconds} where JPD_DURATIONS says when the session ends."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report) -> None:
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration

    def pytest_sessionfinish(self, session) -> None:
        if hasattr(session.config, "workerinput"):
            return  # a worker: the controller receives every report
        Path(os.environ["JPD_DURATIONS"]).write_text(json.dumps(self.seconds), encoding="utf-8")


def pytest_configure(config) -> None:
    if os.environ.get("JPD_DURATIONS"):
        config.pluginmanager.register(Recorder(), "jpd-durations")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_tier(marker: str | None, extra: list[str]) -> tuple[dict[str, float], float, float]:
    """(seconds of each test, wall seconds, CPU seconds) of `pytest -m MARKER` (of `pytest` when
    MARKER is None)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "durations.json"
        env = {**os.environ, "JPD_DURATIONS": str(out)}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "benchmarks"), env.get("PYTHONPATH")) if p)
        cpu, start = _children_cpu(), time.monotonic()
        select = [] if marker is None else ["-m", marker]
        command = [sys.executable, "-m", "pytest", "-p", "durations", *select, *extra]
        done = subprocess.run(command, cwd=ROOT, env=env)
        wall, cpu = time.monotonic() - start, _children_cpu() - cpu
        if done.returncode not in (0, 1) or not out.exists():
            raise SystemExit(f"{' '.join(command[2:])} ended with exit code {done.returncode}")
        return json.loads(out.read_text(encoding="utf-8")), wall, cpu


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip()


def table(result: dict) -> str:
    runs = result["runs"]
    lines = [
        "| command | tests | wall s | CPU s |",
        "|---|---:|---:|---:|",
        *(f"| `{r['command']}` | {r['tests']:,} | {r['wall']:.0f} | {r['cpu']:.0f} |" for r in runs),
        "",
        f"The {SHOWN} slowest tests (set-up, call and tear-down):",
        "",
        "| # | test | tier | s |",
        "|---:|---|---|---:|",
        *(
            f"| {i} | `{t['test']}` | {t['tier']} | {t['seconds']:.1f} |"
            for i, t in enumerate(result["tests"][:SHOWN], 1)
        ),
        "",
        f"{result['machine']}; load average {result['load'][0]:.2f} before, {result['load'][1]:.2f} after; "
        f"commit {result['commit']}. Written by `python benchmarks/durations.py`.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks", help="folder of the results")
    args, extra = parser.parse_known_args(argv)
    load_before = os.getloadavg()[0]
    runs, tests, recorded = [], [], set()
    for tier, marker, command in RUNS:
        seconds, wall, cpu = run_tier(marker, extra)
        runs.append({"command": command, "tests": len(seconds), "wall": round(wall, 1), "cpu": round(cpu, 1)})
        tests += [
            {"test": t, "tier": tier, "seconds": round(s, 2)}
            for t, s in seconds.items()
            if s >= MIN_SECONDS and t not in recorded
        ]
        recorded |= set(seconds)
    tests.sort(key=lambda t: -t["seconds"])
    result = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "commit": _commit(),
        "machine": f"{os.cpu_count()} cores, {platform.platform()}, Python {platform.python_version()}",
        "load": [load_before, os.getloadavg()[0]],
        "runs": runs,
        "tests": tests,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results-tests.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    (args.out / "results-tests.md").write_text(table(result), encoding="utf-8")
    print(table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
