"""Every benchmark side by side with its yardstick, in one run; writes the figures the docs quote.

    python benchmarks/run.py [--runs N] [--games DIR] [--out DIR]

Writes ``results.json`` (every figure, with the machine, its load before and after, the Python
and the commit) and ``results.md`` (the table the docs include) into ``--out`` (default: this
folder; there, the table quoted in docs/researchers.md is rewritten too). Each figure is a
median of N fresh runs (default 7); pairs are timed alternately, so both sides see the same load.
Every run is timed twice: wall-clock seconds, and CPU seconds (user +
system, of the process and its children), which a busy machine disturbs far less; the table shows
CPU time, the file has both. Start-up is timed with bytecode caches written (a warm-up run first,
``PYTHONDONTWRITEBYTECODE`` removed), as a user's installation has them.

* ``start-up``: ``jpd play --size 19 --rules chinese --moves "B D4"`` against a bare Python that
  imports sgfmill's board (target: ≤ 100 ms);
* ``suite``: ``jpd run -q`` over the whole suite (target: ≤ 1.0 s);
* ``replay``: every 19×19 record of DIR (default ``../shared/data/games``; else 100 generated
  games) replayed move by move through jpdref (every move checked, positional superko under
  ``chinese``) and through sgfmill's ``Board.play`` (no ko check) — and OpenSpiel's C++ Go where
  ``pyspiel`` is installed (target: jpdref ≥ 1.5× sgfmill);
* ``collection``: ``jpd replay DIR --rules chinese --jobs 2`` against an sgfmill loop that parses
  and plays every record in one process.
"""

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import replay
from jpdtools.paths import shared_games_dir
from jpdtools.presets import load_presets

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PLAY = ["-m", "jpdtools.cli", "play", "--size", "19", "--rules", "chinese", "--moves", "B D4"]
REPLAY = ["-m", "jpdtools.cli", "replay"]
SGFMILL_START = ["-c", "import sgfmill.boards"]
SGFMILL_LOOP = """
import sys
from pathlib import Path
from sgfmill import boards, sgf, sgf_moves
for path in sorted(Path(sys.argv[1]).glob("*.sgf")):
    try:
        game = sgf.Sgf_game.from_bytes(path.read_bytes())
        board, plays = sgf_moves.get_setup_and_moves(game)
    except ValueError:
        continue
    for colour, move in plays:
        if move is not None:
            board.play(*move, colour)
"""


QUOTED_IN = "docs/researchers.md"
"""The page that quotes the table: between :data:`BEGIN` and :data:`END`, rewritten by every run
that writes into this folder (tests/test_benchmark_figures.py checks the quote)."""
BEGIN = "<!-- benchmarks/results.md, written by benchmarks/run.py: -->"
END = "<!-- end of benchmarks/results.md -->"


def quote(doc: str, table: str) -> str:
    """``doc`` with the text between its markers replaced by ``table``."""
    start = doc.index(BEGIN) + len(BEGIN)
    end = doc.index(END, start)
    return doc[:start] + "\n" + table + doc[end:]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    paths = [str(ROOT / "refimpl"), str(ROOT / "tools"), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    return env


Timing = tuple[float, float]
"""(wall seconds, CPU seconds) of one run."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _process(args: list[str]) -> Callable[[], Timing]:
    """A function that runs ``python ARGS`` in a fresh process and returns its wall and CPU seconds."""
    env = _env()

    def once() -> Timing:
        start, cpu = time.perf_counter(), _children_cpu()
        subprocess.run([sys.executable, *args], env=env, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start, _children_cpu() - cpu

    return once


def alternate(runs: int, **sides: Callable[[], Timing]) -> dict[str, dict[str, float]]:
    """The median wall and CPU seconds of each side (``{"wall": {side: s}, "cpu": {side: s}}``),
    the sides run in turn ``runs`` times (after one warm-up)."""
    samples: dict[str, list[Timing]] = {name: [] for name in sides}
    for fn in sides.values():
        fn()
    for _ in range(runs):
        for name, fn in sides.items():
            samples[name].append(fn())
    return {
        kind: {name: statistics.median(t[i] for t in s) for name, s in samples.items()}
        for i, kind in enumerate(("wall", "cpu"))
    }


def _in_process(fn, work, rules) -> Callable[[], Timing]:
    def once() -> Timing:
        start, cpu = time.perf_counter(), time.process_time()
        fn(work, rules)
        return time.perf_counter() - start, time.process_time() - cpu

    return once


def _openspiel_replay():
    """OpenSpiel's Go replaying the same moves, or None where pyspiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("go", {"board_size": replay.SIZE, "komi": 7.5})
    size = replay.SIZE

    def play(work, _rules) -> int:
        for _setup, plays in work.sgfmill:
            state = game.new_initial_state()
            for row, col, _colour in plays:
                state.apply_action((size - 1 - row) * size + col)
        return 0

    return play


def bench_replay(directory: Path, runs: int) -> dict:
    rules = load_presets().get("chinese")
    records = replay.load_records(directory) if directory.is_dir() else []
    source = f"{len(records)} records"
    if not records:
        records = replay.generate(100, rules)
        source = f"{len(records)} generated games"
    work = replay.prepare(records)
    sides = {
        "jpdref": _in_process(replay.replay_ours, work, rules),
        "sgfmill": _in_process(replay.replay_sgfmill, work, rules),
    }
    openspiel = _openspiel_replay()
    if openspiel is not None and not any(rec.setup for rec in records):
        sides["openspiel"] = _in_process(openspiel, work, rules)
    medians = alternate(runs, **sides)
    rates = {name: work.moves / s for name, s in medians["cpu"].items()}
    out = {"workload": f"{source}, {work.moves} moves", "moves_per_cpu_second": rates}
    out["moves_per_second"] = {name: work.moves / s for name, s in medians["wall"].items()}
    out["ratio_to_sgfmill"] = rates["jpdref"] / rates["sgfmill"]
    out["target"] = "jpdref ≥ 1.5× sgfmill"
    return out


def bench_collection(directory: Path, runs: int) -> dict | None:
    files = sorted(directory.glob("*.sgf")) if directory.is_dir() else []
    if not files:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as loop:
        loop.write(SGFMILL_LOOP)
    try:
        medians = alternate(
            runs,
            jpd=_process(
                ["-m", "jpdtools.cli", "replay", str(directory), "--rules", "chinese", "-j", "2", "-q"]
            ),
            sgfmill=_process([loop.name, str(directory)]),
        )
    finally:
        os.unlink(loop.name)
    rates = {name: len(files) / s for name, s in medians["wall"].items()}
    return {
        "workload": f"{len(files)} records, whole processes (parsing included)",
        "games_per_second": rates,
        "ratio_to_sgfmill": rates["jpd"] / rates["sgfmill"],
        "games_per_cpu_second": {name: len(files) / s for name, s in medians["cpu"].items()},
    }


def table(results: dict) -> str:
    """The Markdown table of the figures (the docs include this file)."""
    r = results["benchmarks"]
    start, suite, rep = r["start-up"]["cpu"], r["suite"]["cpu"], r["replay"]
    rates = rep["moves_per_cpu_second"]
    yardstick = f"sgfmill {rates['sgfmill']:,.0f} ({rep['ratio_to_sgfmill']:.2f}×)"
    if "openspiel" in rates:
        yardstick += f"; OpenSpiel (C++) {rates['openspiel']:,.0f}"
    rows = [
        ("`jpd play` start-up (19×19, one move)", f"{start['jpd play'] * 1e3:.0f} ms",
         f"bare Python importing sgfmill: {start['python + sgfmill'] * 1e3:.0f} ms", "≤ 100 ms"),
        ("`jpd run` (whole suite)", f"{suite['jpd run']:.2f} s", "", "≤ 1.0 s"),
        ("replay, moves per CPU second", f"{rates['jpdref']:,.0f}", yardstick, "≥ 1.5× sgfmill"),
    ]  # fmt: skip
    if r.get("collection"):
        col = r["collection"]
        rows.append(("`jpd replay --jobs 2`, games/s", f"{col['games_per_second']['jpd']:,.0f}",
                     f"sgfmill parse-and-play loop {col['games_per_second']['sgfmill']:,.0f} "
                     f"({col['ratio_to_sgfmill']:.2f}×)", ""))  # fmt: skip
    m = results["machine"]
    lines = [
        "| benchmark | jipingdian | yardstick | target |",
        "|---|---|---|---|",
        *(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows),
        "",
        f"Medians of {results['runs']} runs, CPU time (user + system) except the games/s of "
        f"`jpd replay --jobs 2` (wall clock); {m['cores']} cores, {m['platform']}, Python {m['python']}; "
        f"load average {m['load_before']:.2f} before, {m['load_after']:.2f} after; replay workload: "
        f"{rep['workload']}. Written by `python benchmarks/run.py`.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, metavar="N", help="median of N runs (default 7)")
    parser.add_argument("--games", type=Path, help="a folder of SGF records (default ../shared/data/games)")
    parser.add_argument("--out", type=Path, default=HERE, help="where results.json/.md go (default: here)")
    args = parser.parse_args(argv)
    directory = args.games or shared_games_dir()
    load_before = os.getloadavg()[0]
    benchmarks = {
        "start-up": alternate(
            args.runs, **{"jpd play": _process(PLAY), "python + sgfmill": _process(SGFMILL_START)}
        ),
        "suite": alternate(args.runs, **{"jpd run": _process(["-m", "jpdtools.cli", "run", "-q"])}),
        "replay": bench_replay(directory, args.runs),
        "collection": bench_collection(directory, args.runs),
    }
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    results = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "commit": commit.stdout.strip() or None,
        "runs": args.runs,
        "machine": {
            "platform": platform.platform(terse=True),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "load_before": load_before,
            "load_after": os.getloadavg()[0],
        },
        "benchmarks": benchmarks,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    (args.out / "results.md").write_text(table(results), encoding="utf-8")
    if args.out.resolve() == HERE:  # the committed figures: the docs quote them
        doc = ROOT / QUOTED_IN
        doc.write_text(quote(doc.read_text(encoding="utf-8"), table(results)), encoding="utf-8")
    print(table(results), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
