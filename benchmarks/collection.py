"""Referee a collection in one ``jpd replay`` call; compare with the old loop of one call per file.

    python benchmarks/collection.py [DIR] [--jobs N] [--sample K] [--repeat R]

Three figures, each the best of R runs (wall clock, ``time.perf_counter``, the whole process
from start to exit, parsing included):

* ``jpd replay DIR --rules all --jobs N``: every record under every ruleset in one call;
* ``jpd replay DIR --rules chinese --jobs N``: games/s for one ruleset; and the sustained rate
  (the target is 1,000/s with two jobs on a two-core machine): the same call over S copies of
  the collection, (S − 1) × records / (its time − the single call's time), which leaves out the
  fixed cost of starting the process and loading the rulesets;
* the old way, ``jpd replay FILE --rules all`` once per file, timed on the first K files and
  scaled to the collection (one process per record; a loop over 300 files takes minutes).

It also prints the CPU time per record of one process (``--jobs 1``, in process, parsing
included) as games/s per core — the figure to size a cluster with — and the machine's load
average before and after, since the machine is shared. DIR defaults to ``../shared/data/games``.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jpdtools.paths import shared_games_dir
from jpdtools.presets import load_presets
from jpdtools.records.sources import find_sources, read_records
from jpdtools.records.verdict import referee_record


def wall(command: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def cpu_per_record(directory: Path, rules: str) -> tuple[float, int]:
    """CPU seconds per record of one process refereeing every record (reading and parsing
    included), best of 3; and the number of records."""
    rulesets = load_presets().select(rules)
    records = [r for r in read_records(find_sources([str(directory)])) if hasattr(r, "data")]
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for r in records:
            referee_record(r.key, r.data, rulesets)
        best = min(best, time.process_time() - start)
    return best / len(records), len(records)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", nargs="?", type=Path, help="a folder of SGF records")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--sample", type=int, default=20, metavar="K", help="files for the old loop")
    parser.add_argument("--repeat", type=int, default=3, metavar="R", help="best of R runs (default 3)")
    parser.add_argument("--copies", type=int, default=10, metavar="S", help="copies for the sustained rate")
    args = parser.parse_args(argv)
    directory = args.dir or shared_games_dir()
    files = sorted(directory.glob("*.sgf"))
    if not files:
        print(f"no records in {directory}", file=sys.stderr)
        return 2
    n, presets = len(files), load_presets()
    jpd = [sys.executable, "-m", "jpdtools.cli", "replay"]
    print(f"{n} records in {directory}; {len(presets.rulesets)} rulesets; {os.cpu_count()} cores; "
          f"load average {os.getloadavg()[0]:.2f}")  # fmt: skip
    one_all = wall([*jpd, str(directory), "--rules", "all", "--jobs", str(args.jobs)], args.repeat)
    one_chinese = wall([*jpd, str(directory), "--rules", "chinese", "--jobs", str(args.jobs)], args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.copies):
            shutil.copytree(directory, Path(tmp) / f"copy{k}")
        copies = wall([*jpd, tmp, "--rules", "chinese", "--jobs", str(args.jobs)], args.repeat)
    sustained = (args.copies - 1) * n / (copies - one_chinese)
    sample = files[: args.sample]
    start = time.perf_counter()
    for f in sample:
        subprocess.run([*jpd, str(f), "--rules", "all"], check=False, stdout=subprocess.DEVNULL)
    old = (time.perf_counter() - start) / len(sample) * n
    cpu_chinese, _ = cpu_per_record(directory, "chinese")
    cpu_all, _ = cpu_per_record(directory, "all")
    print(f"one call, --rules all, --jobs {args.jobs}:     {one_all:6.2f} s  {n / one_all:7.0f} games/s  "
          f"({n * len(presets.rulesets) / one_all:.0f} verdicts/s)")  # fmt: skip
    print(
        f"one call, --rules chinese, --jobs {args.jobs}: {one_chinese:6.2f} s  {n / one_chinese:7.0f} games/s"
    )
    print(f"  over {args.copies} copies ({args.copies * n} records): {copies:6.2f} s; "
          f"sustained {sustained:7.0f} games/s")  # fmt: skip
    print(f"old loop, one call per file, --rules all: {old:6.2f} s  {n / old:7.0f} games/s "
          f"(timed on {len(sample)} files, scaled)")  # fmt: skip
    print(f"ratio (old loop / one call, --rules all): {old / one_all:.1f}x")
    print(f"per core (CPU time, in process): chinese {1 / cpu_chinese:.0f} games/s "
          f"({cpu_chinese * 1e3:.2f} ms/record); all {len(presets.rulesets)} rulesets "
          f"{1 / cpu_all:.0f} records/s ({cpu_all * 1e3:.2f} ms/record)")  # fmt: skip
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
