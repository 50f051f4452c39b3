"""Replay 19x19 game records through jpdref and through sgfmill; print moves per second.

    python benchmarks/replay.py [DIR] [--rules NAME] [--generate N] [--repeat K] [--profile]

jpdref checks every move in full (occupied, suicide, and the ruleset's repetition rule: by
default ``chinese``, positional superko with suicide forbidden); sgfmill's ``Board.play`` checks
neither ko nor superko. Both replay the same moves from the same parsed records, with the
records parsed and the moves converted outside the timed region; each figure is the best of K
runs (``time.perf_counter``). DIR defaults to ``../shared/data/games`` beside the checkout;
with no records there, N random legal games are generated with jpdref (fixed seed).
"""

import argparse
import cProfile
import importlib.util
import pstats
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from jpdref.coords import Geometry
from jpdref.game import Action, Effect, Game, Phase
from jpdref.rules import IllegalMove, Rules
from jpdref.stones import BLACK, Color
from jpdtools.paths import shared_games_dir
from jpdtools.presets import load_presets
from jpdtools.records.sgf import GameRecord, SgfError, read_sgf

SIZE = 19
TARGET_RATIO = 1.5


@dataclass(frozen=True)
class Workload:
    """Games converted ahead of time for both replayers."""

    records: tuple[GameRecord, ...]
    ours: tuple[tuple[dict[int, Color], Color, tuple[Action, ...]], ...]
    sgfmill: tuple[tuple[tuple[tuple[tuple[int, int], str], ...], tuple[tuple[int, int, str], ...]], ...]
    moves: int  # moves replayed per run (passes included for jpdref; sgfmill skips them)


def load_records(directory: Path) -> list[GameRecord]:
    records = []
    for path in sorted(directory.glob("*.sgf")):
        try:
            rec = read_sgf(path)
        except SgfError as err:
            print(f"skipped: {err}", file=sys.stderr)
            continue
        if (rec.width, rec.height) == (SIZE, SIZE):
            records.append(rec)
    return records


def generate(count: int, rules: Rules, seed: int = 20240601, max_moves: int = 250) -> list:
    """``count`` random legal games (uniform over empty points; passes only when stuck)."""
    rng = random.Random(seed)
    rules = rules.with_values({"illegal-move": IllegalMove.REFUSE.value}, name="generate")
    geometry = Geometry(SIZE, SIZE)
    records = []
    for _ in range(count):
        game = Game.new(rules, geometry)
        moves: list[tuple[Color, int | None]] = []
        while len(moves) < max_moves and game.phase is Phase.CONTEST:
            empty = [p for p, c in enumerate(game.board.color) if not c]
            rng.shuffle(empty)
            color = game.to_move
            for p in empty[:20]:
                if game.play(Action.move(color, p)).effect is Effect.PLAYED:
                    moves.append((color, p))
                    break
            else:
                game.play(Action.pass_(color))
                moves.append((color, None))
        records.append(GameRecord(SIZE, SIZE, moves=tuple(moves), path=f"random-{len(records)}"))
    return records


def prepare(records: list[GameRecord]) -> Workload:
    ours, theirs, total = [], [], 0
    for rec in records:
        actions = tuple(Action.pass_(c) if p is None else Action.move(c, p) for c, p in rec.alternating())
        ours.append((rec.setup, rec.first_to_move, actions))
        setup = tuple(
            ((SIZE - 1 - p // SIZE, p % SIZE), "b" if c is BLACK else "w") for p, c in rec.setup.items()
        )
        plays = tuple(
            (SIZE - 1 - p // SIZE, p % SIZE, "b" if c is BLACK else "w")
            for c, p in rec.alternating()
            if p is not None
        )
        theirs.append((setup, plays))
        total += len(actions)
    return Workload(tuple(records), tuple(ours), tuple(theirs), total)


def replay_ours(work: Workload, rules: Rules) -> int:
    """Replay every game; returns the number of refused moves (0 for legal records)."""
    geometry = Geometry(SIZE, SIZE)
    refused = 0
    for stones, to_move, actions in work.ours:
        game = Game.new(rules, geometry, stones=stones, to_move=to_move)
        play = game.play
        for action in actions:
            if not play(action).legal:
                refused += 1
    return refused


def replay_sgfmill(work: Workload, _rules: Rules) -> int:
    from sgfmill.boards import Board  # checked in main()

    for setup, plays in work.sgfmill:
        board = Board(SIZE)
        if setup:
            board.apply_setup([p for p, c in setup if c == "b"], [p for p, c in setup if c == "w"], [])
        play = board.play
        for row, col, colour in plays:
            play(row, col, colour)
    return 0


def best_of(fn: Callable[[Workload, Rules], int], work: Workload, rules: Rules, k: int) -> float:
    best = float("inf")
    for _ in range(k):
        start = time.perf_counter()
        fn(work, rules)
        best = min(best, time.perf_counter() - start)
    return best


def first_refusals(work: Workload, rules: Rules, limit: int = 5) -> list[str]:
    """Where the records break ``rules`` (game, move number, reason), for the report."""
    found = []
    geometry = Geometry(SIZE, SIZE)
    for rec, (stones, to_move, actions) in zip(work.records, work.ours, strict=True):
        game = Game.new(rules, geometry, stones=stones, to_move=to_move)
        for n, action in enumerate(actions, 1):
            step = game.play(action)
            if not step.legal:
                found.append(f"{rec.path} move {n}: {step.reason} ({step.effect})")
                if len(found) >= limit:
                    return found
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", nargs="?", type=Path, help="directory of .sgf records")
    parser.add_argument("--rules", default="chinese", help="ruleset preset (default: chinese)")
    parser.add_argument(
        "--generate",
        type=int,
        default=100,
        metavar="N",
        help="random games to generate when there are no records (default 100)",
    )
    parser.add_argument("--repeat", type=int, default=5, metavar="K", help="best of K runs (default 5)")
    parser.add_argument("--profile", action="store_true", help="cProfile one jpdref run")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("sgfmill") is None:
        print("sgfmill is not installed: pip install -e '.[test]'", file=sys.stderr)
        return 2
    rules = load_presets().get(args.rules)
    directory = args.dir or shared_games_dir()
    records = load_records(directory) if directory.is_dir() else []
    if records:
        source = f"{len(records)} records from {directory}"
    else:
        records = generate(args.generate, rules)
        source = f"{len(records)} random games (no records in {directory})"
    work = prepare(records)
    print(f"{source}; {work.moves} moves; rules {rules.name}; best of {args.repeat}")
    for line in first_refusals(work, rules):
        print(f"  refused: {line}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(replay_ours, work, rules)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    ours = best_of(replay_ours, work, rules, args.repeat)
    theirs = best_of(replay_sgfmill, work, rules, args.repeat)
    ratio = theirs / ours
    print(f"jpdref  : {work.moves / ours:10.0f} moves/s ({ours:.3f} s)")
    print(f"sgfmill : {work.moves / theirs:10.0f} moves/s ({theirs:.3f} s)")
    verdict = "meets" if ratio >= TARGET_RATIO else "below"
    print(f"ratio   : {ratio:.2f}x ({verdict} the {TARGET_RATIO}x target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
