"""``jpd replay PATH…`` over a collection: the options and the run (records/collections.py does
the work; spec/counting.md#count.replay, "Refereeing a collection")."""

import argparse
import sys
from pathlib import Path

from jpdtools import atomic
from jpdtools.errors import InputError
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.presets import load_presets
from jpdtools.records.collections import (
    Plan,
    Shard,
    VerdictFile,
    default_jobs,
    read_lines,
    referee_collection,
)
from jpdtools.records.sources import find_sources
from jpdtools.records.summary import Tally, dumps, render

_OPTIONS = ("out", "summary", "resume", "jobs", "shard", "merge", "dask")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("collections")
    group.add_argument(
        "--out", type=output_file, metavar="FILE", help="write the verdicts as JSON Lines, as they come"
    )
    group.add_argument("--resume", action="store_true", help="skip the verdicts --out already holds, append")
    group.add_argument("--summary", type=output_file, metavar="FILE", help="write the summary as JSON")
    group.add_argument(
        "--jobs", type=int, metavar="N", help=f"worker processes (default: the core count, {default_jobs()})"
    )
    group.add_argument("--shard", metavar="K/N", help="referee only shard K of N (split by record key)")
    group.add_argument("--merge", action="store_true", help="PATHs are --out files of shards: sum them up")
    group.add_argument("--dask", metavar="ADDRESS", help="run the shards on a Dask cluster (the dask extra)")


def output_file(text: str) -> Path:
    """An output file named on the command line: not empty, not a folder (argparse names the option)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty file name")
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file")
    return path


def wanted(args) -> bool:
    """Whether the arguments ask for a collection rather than one record move by move."""
    if len(args.paths) != 1 or any(getattr(args, o) not in (None, False) for o in _OPTIONS):
        return True
    path = Path(args.paths[0])
    return not (path.is_file() and path.suffix.lower() == ".sgf")


def run(args) -> int:
    presets = load_presets()
    order = presets.names
    tally = Tally()
    if args.merge:
        for path in args.paths:
            tally.extend(read_lines(Path(path)))
        return _finish(args, tally, order)
    _check(args)
    rulesets = tuple(presets.select(args.rules))
    out = VerdictFile(args.out) if args.out else None
    done: set[tuple[str, str | None]] = set()
    if out is not None and args.resume:
        for line in out.resume():
            tally.add(line)
            done.add((line["record"], line["rules"]))
    if out is not None:
        try:
            out.open(append=args.resume)
        except OSError as err:
            raise InputError(f"--out {args.out}: cannot write: {err.strerror or err}") from err

    def sink(lines: list[dict]) -> None:
        if out is not None:
            out.write(lines)
        tally.extend(lines)
        bar.update(len({line["record"] for line in lines}))

    try:
        if args.dask:
            from jpdtools.records.cluster import referee_on_dask

            bar = _progress(None, "shard records")
            for lines in referee_on_dask(args.dask, args.paths, args.rules, args.komi):
                sink(lines)
        else:
            shard = Shard.parse(args.shard) if args.shard else None
            plan = Plan(tuple(find_sources(args.paths)), rulesets, shard, frozenset(done), args.komi)
            bar = _progress(plan.known_total(), "records")
            referee_collection(plan, sink, args.jobs or default_jobs())
    finally:
        if out is not None:
            out.close()
    bar.close()
    return _finish(args, tally, order)


def _check(args) -> None:
    if args.resume and args.out is None:
        raise InputError("--resume needs --out FILE (the output to resume)")
    if args.dask and (args.shard or args.resume):
        raise InputError("--dask makes its own shards: it takes neither --shard nor --resume")
    if args.jobs is not None and args.jobs < 1:
        raise InputError(f"--jobs {args.jobs}: expected at least 1")


def _progress(total: int | None, unit: str):
    """A progress bar with rate and ETA on stderr, when stderr is a terminal."""
    from tqdm import tqdm

    return tqdm(total=total, unit=unit.split()[-1][:-1], disable=not sys.stderr.isatty(), file=sys.stderr)


def _finish(args, tally: Tally, order: list[str]) -> int:
    summary = tally.summary()
    if args.summary:
        atomic.write_text(args.summary, dumps(summary))
    print(render(summary, order))
    failed = summary["record_errors"] or any(r["refused_moves"] for r in summary["rulesets"].values())
    return FAILURE if failed else SUCCESS
