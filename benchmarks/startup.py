"""How long ``jpd play`` takes from start to exit: the interactive start-up.

    python benchmarks/startup.py [--runs N]

Runs ``jpd play --size 19 --rules chinese --moves "B D4"`` N times (default 20) in fresh
processes (``python -m jpdtools.cli``, so no console-script wrapper is timed) and prints the
fastest and the median wall time and CPU time (user + system, of the child process: the figure
that a busy machine disturbs least), next to a bare ``python -c pass`` for the interpreter's own
start. The machine is shared: the load average is printed too. Lark's parser cache is warmed by
one run first (it is a file in the temp folder that every later start reads).
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

PLAY = ["-m", "jpdtools.cli", "play", "--size", "19", "--rules", "chinese", "--moves", "B D4"]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def times(args: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each run."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), _cpu()
        subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL)
        wall.append(time.perf_counter() - start)
        cpu.append(_cpu() - start_cpu)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}")
    times(PLAY, 1)
    for label, command in (("python -c pass", ["-c", "pass"]), ("jpd play", PLAY)):
        wall, cpu = times(command, args.runs)
        ms = {name: (min(t) * 1e3, statistics.median(t) * 1e3) for name, t in (("wall", wall), ("CPU", cpu))}
        parts = [f"{k}: fastest {a:6.1f} ms, median {b:6.1f} ms" for k, (a, b) in ms.items()]
        print(f"{label:15}", "   ".join(parts))
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
