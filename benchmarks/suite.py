"""How long ``jpd run`` takes on the whole suite, and loading the suite, next to an earlier state.

    python benchmarks/suite.py [--runs N] [--before REV]

Side by side in one run, alternating: ``jpd run -q`` over the default suite from this checkout and
from ``REV`` (default: the commit before the compiled suite, exported with ``git archive`` to a
temporary folder and run with the same interpreter through ``PYTHONPATH``), N fresh processes each
(default 7), median and fastest wall and CPU time (user + system of the child, which a busy
machine disturbs least). Then, in this process: loading every case file through the compiled
suite (entries present), and through the parser (what every run did before). The load average is
printed, since the machine is shared.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "fc04670^"
RUN = ["-m", "jpdtools.cli", "run", "-q"]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def once(env: dict[str, str], cwd: Path) -> tuple[float, float]:
    start, start_cpu = time.perf_counter(), _cpu()
    subprocess.run([sys.executable, *RUN], env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start, _cpu() - start_cpu


def describe(label: str, samples: list[tuple[float, float]]) -> str:
    wall, cpu = [s[0] for s in samples], [s[1] for s in samples]
    return (
        f"{label:10} wall: median {statistics.median(wall):6.2f} s, fastest {min(wall):6.2f} s   "
        f"CPU: median {statistics.median(cpu):6.2f} s, fastest {min(cpu):6.2f} s"
    )


def in_process() -> tuple[float, float, int]:
    """Seconds to load every case file from the compiled suite and by parsing, and the file count."""
    from jpdtools.paths import conformance_dir
    from jpdtools.presets import load_presets
    from jpdtools.run.runner import default_loader, load_files, parsing_loader

    presets, suite = load_presets(), [conformance_dir()]
    load_files(suite, presets, default_loader())  # entries written if missing
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        files, _ = load_files(suite, presets, default_loader())
        best = min(best, time.perf_counter() - start)
    start = time.perf_counter()
    load_files(suite, presets, parsing_loader())
    return best, time.perf_counter() - start, len(files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--before", default=BEFORE, help=f"the revision to compare with (default {BEFORE})")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "before"
        old.mkdir()
        git = ["git", "-C", str(ROOT), "archive", args.before]
        archive = subprocess.run(git, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        path = os.pathsep.join(str(old / p) for p in ("tools", "refimpl"))
        envs = {
            "now": ({**os.environ, "PYTHONPATH": ""}, ROOT),
            "before": ({**os.environ, "PYTHONPATH": path, "JPD_ROOT": str(old)}, old),
        }
        for env, cwd in envs.values():  # warm: entries, Lark's grammar cache
            once(env, cwd)
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in envs}
        for _ in range(args.runs):
            for name, (env, cwd) in envs.items():
                samples[name].append(once(env, cwd))
    for name, runs in samples.items():
        print(describe(f"jpd run {name}", runs))
    cached, parsed, files = in_process()
    print(f"loading {files} case files: compiled suite {cached * 1e3:.0f} ms, parsing {parsed * 1e3:.0f} ms")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
