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
from jpdref.counting.numbers import num
from jpdref.game import EndKind, Phase
from jpdref.rules import Rules

from jpdtools.errors import InputError
from jpdtools.records.charset import decode_sgf
from jpdtools.records.gamerecord import (
    Marks,
    MarksError,
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
    "record-marks",
    "record-two-passes",
    "unfinished",
)
MAX_LISTED_REFUSALS = 100
"""The refused moves a verdict lists (the first ones; ``refused_total`` counts them all): a record
of 260,000 refused moves gives a verdict line of kilobytes, not of tens of megabytes."""
NO_MARKS = "no count: the record does not say which stones are dead"


def ending(replay: Replay, rec: GameRecord, marks: Marks | None = None) -> str:
    """How the game ended under the replay's ruleset: the engine first, then RE, then the record's
    own end where it is counted (marks, two passes), else unfinished."""
    outcome = replay.game.outcome
    if outcome is not None:
        return "refused-move" if outcome.kind is EndKind.ILLEGAL_MOVE else str(outcome.kind)
    result = record_result(rec)
    if result.ended_without_count:
        return result.kind
    if marks is not None and marks.present:
        return "record-marks"
    if ends_with_two_passes(rec):
        return "record-two-passes"
    return "unfinished"


def record_agreement(rec: GameRecord, marks: Marks, replay: Replay) -> tuple[Agreement | None, str | None]:
    """The agreement the record carries (spec/counting.md#count.replay), or None and why there is
    no count. Raises MarksError where the marks contradict the replayed board."""
    result = record_result(rec)
    if result.ended_without_count:
        return None, f"no count: the game ended by {result.kind} ({result.text})"
    if replay.game.phase is Phase.ENDED:
        return None, f"no count: the game ended ({replay.game.outcome.describe()})"
    if marks.present:
        game = replay.game
        return marks.agreement(game.geometry, tuple(game.board.color), rec.path), None
    if ends_with_two_passes(rec):
        return Agreement(), None
    return None, NO_MARKS


KOMI_BOUND = 1000
"""The largest komi, in points, a record's KM may give (spec/counting.md#count.replay): beyond any
board's 625 points, so a larger KM is a damaged record, never a komi to count with."""


def record_komi(rec: GameRecord) -> Fraction | None:
    """The record's KM as a number of points, or None when it has no KM; a KM that is not a
    finite number (``KM[abc]``, ``KM[nan]``, ``KM[6,5]``, ``KM[]``) is an InputError
    (``komi-unreadable``) and one beyond ±:data:`KOMI_BOUND` too (``komi-range``): never the
    ruleset's komi in its place."""
    if rec.komi is None:
        return None
    text = rec.komi.strip()
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError, OverflowError):
        raise InputError(
            f"KM[{text}] is not a number of points: the record's komi cannot be read", code="komi-unreadable"
        ) from None
    if abs(value) > KOMI_BOUND:
        raise InputError(
            f"KM[{text}] is beyond the ±{KOMI_BOUND} points a komi may be: not counted with it",
            code="komi-range",
        )
    return value


def with_record_komi(rules: Rules, rec: GameRecord) -> tuple[Rules, str]:
    """``rules`` with the record's komi (the variant NAME:komi=KM), and which komi that is."""
    km = record_komi(rec)
    if km is None:
        return rules, "rules"
    return rules.with_values({"komi": num(km)}, name=rules.name), "record"


def figure(x: Fraction) -> int | float:
    """A count's figure for JSON: an int, or a float (every figure is a multiple of ¼: exact)."""
    return x.numerator if x.denominator == 1 else float(x)


def verdict(key: str, rules: Rules, rec: GameRecord, marks: Marks, komi: str = "rules") -> dict:
    """The verdict on ``rec`` under ``rules``: how it ended, what was refused, the count.
    ``komi`` is ``rules`` (each ruleset's own) or ``record`` (the record's KM, where it has one)."""
    komi_source = "rules"
    if komi == "record":
        rules, komi_source = with_record_komi(rules, rec)
    replay = replay_record(rules, rec)
    result = record_result(rec)
    count = count_error = None
    try:
        agreement, no_count = record_agreement(rec, marks, replay)
    except MarksError as err:
        agreement, no_count = None, None
        count_error = {"code": err.code, "message": str(err)}
    if agreement is not None:
        try:
            c = count_for(rules, FinalPosition.from_game(replay.game, agreement))
        except CountingError as err:
            count_error = {"code": err.code, "message": str(err)}
        else:
            count = {
                "winner": c.winner,
                "margin": figure(c.margin),
                "komi": figure(c.komi.points),
                "method": str(c.method),
                "komi_source": komi_source,
            }
    return {
        "record": key,
        "rules": rules.name,
        "board": f"{rec.width}x{rec.height}",
        "moves": len(rec.moves),
        "actions": replay.actions,
        "ending": ending(replay, rec, marks),
        "stopped_at": replay.stopped_at,
        "refused": [
            {
                "action": f.number,
                "color": f.action.color.letter,
                "vertex": f.vertex,
                "reason": f.reason,
                "effect": f.effect,
            }
            for f in replay.refusals[:MAX_LISTED_REFUSALS]
        ],
        "refused_total": len(replay.refusals),
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


def parse_record(key: str, data: bytes) -> tuple[GameRecord, Marks]:
    """A record's main line and its territory marks, from its bytes (in the charset of its ``CA``).
    Raises InputError (or ValueError) for a record that cannot be read."""
    text = decode_sgf(data, key)
    rec = parse_sgf_text(text, key, locations=False)
    marks = read_marks(text, key, rec.width, rec.height) if ("TB" in text or "TW" in text) else Marks()
    return rec, marks


def referee_record(key: str, data: bytes, rulesets: Sequence[Rules], komi: str = "rules") -> list[dict]:
    """The verdicts on one record under each of ``rulesets``, or a one-item list with its error."""
    try:
        rec, marks = parse_record(key, data)
        return [verdict(key, rules, rec, marks, komi) for rules in rulesets]
    except InputError as err:
        return [record_error(key, err.code, str(err))]
    except (ValueError, RecursionError, MemoryError) as err:  # the engine's set-up errors and the like
        return [record_error(key, type(err).__name__, f"{key}: {err}")]
