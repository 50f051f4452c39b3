"""``jpd replay PATH…`` over a collection: the options and the run (records/collections.py does
the work; spec/counting.md#count.replay, "Refereeing a collection")."""

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path

from jpdtools import atomic
from jpdtools.commands.options import rules_value
from jpdtools.errors import InputError, Location, NothingSelected
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.outputs import Output, check_outputs
from jpdtools.presets import load_presets
from jpdtools.records.collections import Plan, Shard, default_jobs, referee_collection
from jpdtools.records.sources import find_sources, identity
from jpdtools.records.summary import ConflictingVerdict, Tally, dumps, render
from jpdtools.records.verdictfile import VerdictFile, json_line, read_lines

MAX_JOBS_PER_CORE = 4
_OPTIONS = ("out", "summary", "resume", "jobs", "shard", "merge", "dask")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("collections")
    group.add_argument(
        "-o", "--out", type=output_file, metavar="FILE", help="write the verdicts as JSON Lines, as they come"
    )
    group.add_argument("--resume", action="store_true", help="skip the verdicts --out already holds, append")
    group.add_argument("--summary", type=output_file, metavar="FILE", help="write the summary as JSON")
    group.add_argument(
        "-j",
        "--jobs",
        type=int,
        metavar="N",
        help=f"worker processes (default: the core count, {default_jobs()})",
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
    if args.merge:
        return _merge(args, order)
    _check(args)
    rulesets = tuple(presets.select(rules_value(args.rules)))
    sources = tuple(find_sources(args.paths)) if not args.dask else ()
    _check_outputs(args, [Path(s.path) for s in sources])
    tally = Tally()
    out = VerdictFile(args.out) if args.out else None
    done: set[tuple[str, str | None]] = set()
    if out is not None and args.resume:
        lines = out.resume()
        _check_resumed(args.out, lines, {r.name for r in rulesets}, args.komi)
        tally.extend(lines)
        done.update((identity(line["record"]), line["rules"]) for line in lines)
    if out is not None:
        try:
            args.out.parent.mkdir(parents=True, exist_ok=True)
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
            for lines in referee_on_dask(args.dask, args.paths, rules_value(args.rules), args.komi):
                sink(lines)
        else:
            shard = Shard.parse(args.shard) if args.shard else None
            plan = Plan(sources, rulesets, shard, frozenset(done), args.komi)
            bar = _progress(plan.known_total(), "records")
            referee_collection(plan, sink, jobs_wanted(args.jobs))
    finally:
        if out is not None:
            out.close()
    bar.close()
    return _finish(args, tally, order)


def _merge(args, order: list[str]) -> int:
    """``--merge``: the outputs of shards summed up (a verdict in two of them counts once);
    with ``--out``, their verdicts written as one output, each once."""
    inputs = [Path(p) for p in args.paths]
    _check_outputs(args, inputs)
    tally = Tally()
    with ExitStack() as stack:
        out = stack.enter_context(atomic.replacing(args.out)) if args.out else None
        for path in inputs:
            known = len(tally.seen)
            try:
                for line in read_lines(path):
                    before = len(tally.seen)
                    tally.add(line)
                    if out is not None and len(tally.seen) > before:
                        out.write(json_line(line))
            except ConflictingVerdict as err:
                message = f"{err} (the inputs are outputs of different runs)"
                raise InputError(message, Location(str(path))) from None
            if len(tally.seen) == known:
                print(f"jpd: warning: {path}: no verdict that the other inputs do not hold", file=sys.stderr)
    return _finish(args, tally, order)


def _check_outputs(args, inputs: list[Path]) -> None:
    """``--out`` and ``--summary`` are two files, neither of them an input nor a file of another
    kind (jpdtools/outputs.py): a run never writes over what it reads (checked before anything
    is written)."""
    outputs = [Output("--out", args.out, "jsonl"), Output("--summary", args.summary, "json")]
    check_outputs(outputs, inputs)


def _check_resumed(path: Path, lines: list[dict], selected: set[str], komi: str) -> None:
    """An output resumed under other rulesets, or counted with the records' komi and resumed
    with the rulesets', would mix two selections in one summary."""
    if komi != "record" and any((line.get("count") or {}).get("komi_source") == "record" for line in lines):
        message = f"--resume: {path} was counted with --komi record: resume so, or write a new --out"
        raise InputError(message, Location(str(path)))
    other = sorted({line["rules"] for line in lines if line["rules"] is not None} - selected)
    if other:
        shown = ", ".join(other[:5]) + (", …" if len(other) > 5 else "")
        raise InputError(
            f"--resume: {path} holds verdicts under rulesets --rules does not select now ({shown}): "
            "resume with the --rules of the run that wrote it, or write a new --out",
            Location(str(path)),
        )


def jobs_wanted(jobs: int | None) -> int:
    """The worker processes to start: ``--jobs`` (checked by :func:`_check`), else the core count."""
    return jobs or default_jobs()


def _check(args) -> None:
    if args.resume and args.out is None:
        raise InputError("--resume needs --out FILE (the output to resume)")
    if args.dask and (args.shard or args.resume):
        raise InputError("--dask makes its own shards: it takes neither --shard nor --resume")
    if args.jobs is not None and not 1 <= args.jobs <= max_jobs():
        raise InputError(f"--jobs {args.jobs}: expected 1 to {max_jobs()} ({MAX_JOBS_PER_CORE} per core)")


def max_jobs() -> int:
    return max(MAX_JOBS_PER_CORE * default_jobs(), 8)


def _progress(total: int | None, unit: str):
    """A progress bar with rate and ETA on stderr, when stderr is a terminal."""
    from tqdm import tqdm

    return tqdm(total=total, unit=unit.split()[-1][:-1], disable=not sys.stderr.isatty(), file=sys.stderr)


def _finish(args, tally: Tally, order: list[str]) -> int:
    summary = tally.summary()
    if not summary["records"]:
        raise NothingSelected(f"no game record in {', '.join(args.paths)}")
    if args.summary:
        atomic.write_text(args.summary, dumps(summary))
    print(render(summary, order))
    failed = summary["record_errors"] or any(r["refused_moves"] for r in summary["rulesets"].values())
    return FAILURE if failed else SUCCESS
