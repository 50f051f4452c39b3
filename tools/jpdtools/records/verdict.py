"""One record refereed under one ruleset, as a verdict: a plain JSON object. {#count.replay}

:func:`referee_record` reads a record's bytes (in the charset of its ``CA``), replays its main
line under every ruleset given (records/gamerecord.py) and returns one verdict per ruleset, or
one record error when the record cannot be read. Nothing here raises for a bad record: a
collection of real records gets a verdict or an error for each, never a crashed run.
"""

from collections.abc import Sequence
from fractions import Fraction

from jpdref.counting import Agreement, CountingError, FinalPosition
from jpdref.counting.dispatch import count_for
from jpdref.game import EndKind, Phase
from jpdref.rules import Rules

from jpdtools.errors import InputError
from jpdtools.records.charset import decode_sgf
from jpdtools.records.gamerecord import (
    Marks,
    Replay,
    ends_with_two_passes,
    read_marks,
    record_result,
    replay_record,
)
from jpdtools.records.sgf import GameRecord, parse_sgf_text

ENDINGS = (
    "two-passes",
    "four-virtual",
    "two-virtual",
    "cycle",
    "refused-move",
    "resignation",
    "time",
    "forfeit",
    "unfinished",
)
NO_MARKS = "no count: the record does not say which stones are dead"


def ending(replay: Replay, rec: GameRecord) -> str:
    """How the game ended under the replay's ruleset: the engine first, then RE, else unfinished."""
    outcome = replay.game.outcome
    if outcome is not None:
        return "refused-move" if outcome.kind is EndKind.ILLEGAL_MOVE else str(outcome.kind)
    result = record_result(rec)
    if result.ended_without_count:
        return result.kind
    return "unfinished"


def dead_stones(rec: GameRecord, marks: Marks, replay: Replay) -> tuple[frozenset[int] | None, str | None]:
    """The dead stones the record shows (spec/counting.md#count.replay), or None and why there
    is no count."""
    result = record_result(rec)
    if result.ended_without_count:
        return None, f"no count: the game ended by {result.kind} ({result.text})"
    if replay.game.phase is Phase.ENDED:
        return None, f"no count: the game ended ({replay.game.outcome.describe()})"
    if marks.present:
        return marks.dead_stones(tuple(replay.game.board.color)), None
    if ends_with_two_passes(rec):
        return frozenset(), None
    return None, NO_MARKS


def figure(x: Fraction) -> int | float:
    """A count's figure for JSON: an int, or a float (every figure is a multiple of ¼: exact)."""
    return x.numerator if x.denominator == 1 else float(x)


def verdict(key: str, rules: Rules, rec: GameRecord, marks: Marks) -> dict:
    """The verdict on ``rec`` under ``rules``: how it ended, what was refused, the count."""
    replay = replay_record(rules, rec)
    result = record_result(rec)
    count = count_error = None
    dead, no_count = dead_stones(rec, marks, replay)
    if dead is not None:
        try:
            c = count_for(rules, FinalPosition.from_game(replay.game, Agreement(dead=dead)))
        except CountingError as err:
            count_error = {"code": err.code, "message": str(err)}
        else:
            count = {
                "winner": c.winner,
                "margin": figure(c.margin),
                "komi": figure(c.komi.points),
                "method": str(c.method),
            }
    return {
        "record": key,
        "rules": rules.name,
        "board": f"{rec.width}x{rec.height}",
        "moves": len(rec.moves),
        "actions": replay.actions,
        "ending": ending(replay, rec),
        "stopped_at": replay.stopped_at,
        "refused": [
            {
                "action": f.number,
                "color": f.action.color.letter,
                "vertex": f.vertex,
                "reason": f.reason,
                "effect": f.effect,
            }
            for f in replay.refusals
        ],
        "re": {
            "kind": result.kind,
            "winner": result.winner.letter if result.winner else None,
            "text": result.text,
        },
        "count": count,
        "count_error": count_error,
        "no_count": no_count,
    }


def record_error(key: str, code: str, message: str) -> dict:
    """The one line for a record that could not be read (it stands for every ruleset)."""
    return {"record": key, "rules": None, "error": {"code": code or "input", "message": message}}


def referee_record(key: str, data: bytes, rulesets: Sequence[Rules]) -> list[dict]:
    """The verdicts on one record under each of ``rulesets``, or a one-item list with its error."""
    try:
        text = decode_sgf(data, key)
        rec = parse_sgf_text(text, key, locations=False)
        marks = read_marks(text, key, rec.width, rec.height) if ("TB" in text or "TW" in text) else Marks()
        return [verdict(key, rules, rec, marks) for rules in rulesets]
    except InputError as err:
        return [record_error(key, err.code, str(err))]
    except (ValueError, RecursionError, MemoryError) as err:  # the engine's set-up errors and the like
        return [record_error(key, type(err).__name__, f"{key}: {err}")]
