"""Time ``jpd book`` over the whole suite, stage by stage; print seconds (wall and CPU).

    python benchmarks/book.py [--repeat K] [--out DIR]

Stages: running the suite under every ruleset (the observations every page is computed from),
running every case of a preset under each ``Overrides:`` ruleset of the open questions, and
writing the pages. Each figure is the best of K runs (``time.perf_counter`` for wall clock,
``time.process_time`` for CPU: on a shared machine the CPU figure is the steadier one).
"""

import argparse
import tempfile
import time
from pathlib import Path

from jpdtools.book.build import make_book, write_book
from jpdtools.book.observe import observe_suite
from jpdtools.book.overrides import flips
from jpdtools.paths import conformance_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.review.overrides import OPEN_QUESTIONS, read_overrides
from jpdtools.run.runner import Filters, default_loader


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, help="write the book here (default: a temporary folder)")
    args = parser.parse_args()
    presets, loader, spec = load_presets(), default_loader(), spec_dir()
    paths = [conformance_dir()]
    best: dict[str, tuple[float, float]] = {}

    def keep(stage: str, wall: float, cpu: float) -> None:
        old = best.get(stage)
        best[stage] = (min(wall, old[0]), min(cpu, old[1])) if old else (wall, cpu)

    for _ in range(args.repeat):
        suite, wall, cpu = timed(lambda: observe_suite(paths, presets, loader, Filters()))
        keep("run the suite under every ruleset", wall, cpu)
        overrides = read_overrides(spec / OPEN_QUESTIONS, presets)
        _, wall, cpu = timed(lambda: [flips(o, suite, presets) for o in overrides])  # noqa: B023
        keep(f"run the {len(overrides)} overrides of the open questions", wall, cpu)
        book, wall, cpu = timed(lambda: make_book(paths, spec, presets, loader, Filters()))
        keep("gather everything (both runs, spec text, sources)", wall, cpu)
        with tempfile.TemporaryDirectory() as tmp:
            out = args.out or Path(tmp)
            files, wall, cpu = timed(lambda: write_book(book, out))  # noqa: B023
            keep(f"write the {files} files", wall, cpu)
    print(f"{len(book.suite.records)} cases; best of {args.repeat}:")
    for stage, (wall, cpu) in best.items():
        print(f"  {stage}: {wall:.2f} s wall, {cpu:.2f} s CPU")


if __name__ == "__main__":
    main()
