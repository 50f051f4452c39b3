"""How long ``jpd play`` takes from start to exit: the interactive start-up.

    python benchmarks/startup.py [--runs N]

Runs ``jpd play --size 19 --rules chinese --moves "B D4"`` N times (default 20) in fresh
processes (``python -m jpdtools.cli``, so no console-script wrapper is timed) and prints the
fastest and the median wall time and CPU time (user + system, of the child process: the figure
that a busy machine disturbs least), next to a bare ``python -c pass`` for the interpreter's own
start. The machine is shared: the load average is printed too. Lark's parser cache and the
parsed presets are warmed by one run first (files in the user's cache folder that every later
start reads). With ``--before REV`` the same command from that revision (exported with ``git
archive``, run with the same interpreter through ``PYTHONPATH``) alternates with this checkout's,
so both see the same load.
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

PLAY = ["-m", "jpdtools.cli", "play", "--size", "19", "--rules", "chinese", "--moves", "B D4"]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def times(args: list[str], runs: int, env: dict[str, str] | None = None) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each run."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), _cpu()
        subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL, env=env)
        wall.append(time.perf_counter() - start)
        cpu.append(_cpu() - start_cpu)
    return wall, cpu


def describe(label: str, wall: list[float], cpu: list[float]) -> str:
    ms = {name: (min(t) * 1e3, statistics.median(t) * 1e3) for name, t in (("wall", wall), ("CPU", cpu))}
    parts = [f"{k}: fastest {a:6.1f} ms, median {b:6.1f} ms" for k, (a, b) in ms.items()]
    return f"{label:15} " + "   ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--before", metavar="REV", help="also time this revision, alternating")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        envs = {"jpd play": {**os.environ, "PYTHONPATH": ""}}
        if args.before:
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", args.before], capture_output=True, check=True
            )
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
            path = os.pathsep.join(str(Path(tmp) / p) for p in ("tools", "refimpl"))
            envs[f"before {args.before}"] = {**os.environ, "PYTHONPATH": path, "JPD_ROOT": tmp}
        for env in envs.values():
            times(PLAY, 1, env)
        print(describe("python -c pass", *times(["-c", "pass"], args.runs)))
        samples = {label: ([], []) for label in envs}
        for _ in range(args.runs):
            for label, env in envs.items():
                wall, cpu = times(PLAY, 1, env)
                samples[label][0].extend(wall)
                samples[label][1].extend(cpu)
        for label, (wall, cpu) in samples.items():
            print(describe(label, wall, cpu))
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
