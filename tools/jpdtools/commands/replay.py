"""``jpd replay PATH…``: referee game records from start to end; count them where they can be.
{#count.replay}

Every move of the record's main line is played through the reference engine under each ruleset
(a missing pass is put in where one colour moves twice; under a ruleset without passes a pass is
a virtual move). The command prints the moves the engine refused (every move with ``-v``), how the
game ended, and the count where the record allows one (spec/counting.md#count.replay):

* the record's ``RE`` says resignation, time or forfeit: no count;
* the record has ``TB``/``TW`` territory marks (on the last node that has any): a stone on a point
  marked as the other colour's territory is dead, every other stone alive (the record's agreement);
* else the record ends with two passes: every stone on the board is alive (count as is);
* else no count: the record does not say which stones are dead.

Territory marks on empty points are the record's agreed owners, and a one-colour region a
territory-marking record leaves unmarked is a seki eye (spec/counting.md#count.replay, rule 2).
No other SGF property (``MA``, ``DD``, ``CR``, ``TR``, ``SQ``) is read as a dead mark. Each ruleset
counts with its own komi unless ``--komi record`` asks for the record's ``KM``. Exit status 1 if a
move was refused.

With several records (files, folders, globs, .tar.gz/.zip archives) it referees a collection:
one verdict per record × ruleset, streamed to ``--out`` as JSON Lines, a summary at the end
(``--summary FILE`` as JSON). ``--resume`` skips what ``--out`` already holds; ``--shard K/N``
referees one deterministic part; ``--merge`` sums the outputs of shards; ``--dask ADDRESS`` runs
the shards on a Dask cluster. Exit status 1 if a move was refused or a record could not be read.
"""

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

from jpdref.counting import Count, CountingError, FinalPosition
from jpdref.counting.dispatch import count_for
from jpdref.counting.explanation import num
from jpdref.game import Phase
from jpdref.rules import Rules

from jpdtools import table
from jpdtools.commands import replay_collection as collection
from jpdtools.commands.count import Row, explanation, row_json
from jpdtools.commands.options import add_rules_argument, rules_value
from jpdtools.commands.recordopts import add_komi_argument
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.presets import load_presets
from jpdtools.records.gamerecord import (
    Marks,
    MarksError,
    Replay,
    ends_with_two_passes,
    read_marks,
    record_result,
    replay_record,
)
from jpdtools.records.sgf import GameRecord, parse_sgf_text, read_sgf_file_text
from jpdtools.records.verdict import record_agreement, with_record_komi


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (__doc__ or "").split("\n\n", 1)[1]
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="SGF files, folders, globs, .tar.gz/.zip archives (or, with --merge, outputs)",
    )
    add_rules_argument(parser)
    parser.add_argument("-v", "--verbose", action="store_true", help="list every move, not only refusals")
    parser.add_argument("--json", action="store_true", help="print JSON (one record)")
    add_komi_argument(parser)
    collection.add_arguments(parser)


@dataclass(frozen=True)
class Refereed:
    """One ruleset's verdict on the record."""

    replay: Replay
    ended: str
    row: Row
    no_count: str | None = None


def ending(replay: Replay, rec: GameRecord) -> str:
    """How the game ended, as the engine and the record's RE say."""
    game, result = replay.game, record_result(rec)
    parts = []
    if game.outcome is not None:
        parts.append(f"the engine: {game.phase} ({game.outcome.describe()})")
    if replay.stopped_at is not None:
        parts.append(f"play stopped at action {replay.stopped_at} of {replay.actions}")
    if ends_with_two_passes(rec):
        parts.append("the record ends with two passes")
    if result.kind in ("resignation", "time", "forfeit"):
        parts.append(f"{result.text}: {result.winner.letter} wins by {result.kind}")
    elif result.kind != "none":
        parts.append(f"RE[{result.text}]")
    if game.phase is Phase.CONTEST and not ends_with_two_passes(rec) and not result.ended_without_count:
        parts.insert(0, "the record simply ends")
    return "; ".join(parts)


def referee(rules: Rules, rec: GameRecord, marks: Marks, komi: str = "rules") -> Refereed:
    if komi == "record":
        rules, _ = with_record_komi(rules, rec)
    replay = replay_record(rules, rec)
    result = record_result(rec)
    ended = ended_winner = None
    if result.ended_without_count and result.winner is not None:
        ended, ended_winner = f"{result.kind} ({result.text})", result.winner.letter
    count, error = None, None
    try:
        agreement, no_count = record_agreement(rec, marks, replay)
    except MarksError as err:
        agreement, no_count = None, f"no count: {err}"
    if agreement is not None:
        fp = FinalPosition.from_game(replay.game, agreement)
        try:
            count = count_for(rules, fp)
        except CountingError as err:
            error = err
    row = Row(rules, count, error, ended, ended_winner, replay.refusals)
    return Refereed(replay, ending(replay, rec), row, no_count)


def _count_text(r: Refereed) -> str:
    c: Count | None = r.row.count
    if c is not None:
        return f"{c.winner} {num(c.margin)} ({c.method}, komi {num(c.komi.points)})"
    if r.row.error is not None:
        return f"refused: {r.row.error.code}"
    return r.no_count or "no count"


def run(args) -> int:
    if collection.wanted(args):
        return collection.run(args)
    return run_one(args, Path(args.paths[0]))


def run_one(args, path: Path) -> int:
    """One record, move by move."""
    text = read_sgf_file_text(path)
    rec = parse_sgf_text(text, str(path))
    marks = read_marks(text, str(path), rec.width, rec.height)
    results = [
        referee(rules, rec, marks, args.komi) for rules in load_presets().select(rules_value(args.rules))
    ]
    refused = any(r.replay.refusals for r in results)
    if args.json:
        data = []
        for r in results:
            item = row_json(r.row)
            item.update(actions=r.replay.actions, ended=r.ended, no_count=r.no_count)
            data.append(item)
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return FAILURE if refused else SUCCESS
    print(f"{path}: {rec.width}x{rec.height}, {len(rec.moves)} moves, RE[{rec.result or ''}]")
    if marks.present:
        print(f"territory marks: TB {len(marks.black)} points, TW {len(marks.white)} points")
    for r in results:
        if args.verbose:
            _print_moves(r)
        for f in r.replay.refusals:
            print(f"{r.replay.rules.name}: {f.describe()}")
    headers = ["ruleset", "actions", "refused", "ended", "count"]
    rows = [
        [r.replay.rules.name, str(r.replay.actions), str(len(r.replay.refusals)), r.ended, _count_text(r)]
        for r in results
    ]
    print(table.render(headers, rows, table.terminal_width(args.wide)))
    if len(results) == 1 and results[0].row.count is not None:
        print("\n" + explanation(results[0].row))
    return FAILURE if refused else SUCCESS


def _print_moves(r: Refereed) -> None:
    refused = {f.number for f in r.replay.refusals}
    g = r.replay.game.geometry
    for n, action in enumerate(r.replay.sequence, 1):
        where = g.to_gtp(action.point) if action.point is not None else str(action.kind)
        mark = "  (refused)" if n in refused else ""
        print(f"{r.replay.rules.name}: {n}. {action.color.letter} {where}{mark}")
