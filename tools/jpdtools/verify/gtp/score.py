"""The count through GTP: the komi the ruleset gives, then ``final_score``. {#count.komi}

For an item whose count the engine can be asked (:func:`jpdtools.verify.gtp.limits.count_refusal`), the
referee works out after the last step the komi the ruleset gives this game —
:func:`jpdref.counting.komi.decide_komi` on the counters the referee kept (moves, passes, who
passed first, who made the last real move, handicap, prisoners) with the case's ``counters:`` put
in their place — sends ``komi``, and asks ``final_score SEED``. The reply ``B+3.5``, ``W+0.5`` or
``0`` becomes the winner and Black's margin of a :class:`CountObservation`; it has no figures and
no points (``final_score`` gives neither).

GNU Go caches its last ``final_score`` by board and seed only — not by komi, captures, or who
plays first when it finishes the game (the side after the last ``play``, Black when none was
sent) — so the seed is derived from exactly those (:func:`score_seed`): the same board with
another komi is scored again, and an item always gets the same seed whatever ran before it.
A komi ``final_score`` cannot print exactly (it prints one decimal: 3.25) is not sent; the count
is then not asked.
"""

import re
import zlib
from fractions import Fraction

from jpdref.counting import CountingError, decide_komi
from jpdref.counting.dispatch import komi_of
from jpdref.game import Counters
from jpdref.rules import Rules

from jpdtools.run.adapters import CountObservation
from jpdtools.run.reference_count import counters_of
from jpdtools.suite.model import decimal_text
from jpdtools.suite.setup import FinalSpec
from jpdtools.verify.gtp.client import GarbledReply, GtpClient

SCORE = re.compile(r"([BW])\+(\d+(?:\.\d+)?)")


def parse_score(text: str) -> tuple[str, Fraction]:
    """A ``final_score`` reply as (winner, Black's margin): ``B+3.5`` → (B, 3.5), ``W+0.5`` →
    (W, -0.5), ``0`` → (draw, 0). Raises GarbledReply for anything else."""
    words = text.split()
    if words == ["0"]:
        return "draw", Fraction(0)
    match = SCORE.fullmatch(words[0]) if len(words) == 1 else None
    if match is None or Fraction(match.group(2)) == 0:
        raise GarbledReply(f"final_score answered {text!r} (expected B+N, W+N or 0)")
    lead = Fraction(match.group(2))
    return (match.group(1), lead) if match.group(1) == "B" else ("W", -lead)


def score_seed(komi: str, to_move: str, prisoners: tuple[int, int], actions: int) -> int:
    """The ``final_score`` seed for this komi, side to move, prisoners and number of actions
    played (none: GNU Go lets Black start), as the module text explains."""
    key = f"{komi} {to_move if actions else '-'} {prisoners[0]} {prisoners[1]}"
    return zlib.crc32(key.encode("ascii")) & 0x7FFFFFFF


def ask_count(
    client: GtpClient, counters: Counters, to_move: str, final: FinalSpec, rules: Rules
) -> CountObservation | None:
    """``komi`` then ``final_score``; None when the komi cannot be sent exactly.

    A komi rule that refuses the game (``no-first-pass``) is observed as that refusal.
    """
    method = str(rules.value("counting"))
    game = counters_of(counters, final.counters)
    try:
        decision = decide_komi(komi_of(rules), game)
    except CountingError as err:
        return CountObservation(method=method, error=err.code, message=f"komi: {err}")
    if (decision.points * 10).denominator != 1:
        return None
    komi = decimal_text(decision.points)
    reply = client.send(f"komi {komi}")
    if not reply.ok:
        raise GarbledReply(f"komi {komi} failed: {reply.text}")
    # GNU Go keeps reading results across games: without this, the score of a position can
    # depend on which items the same engine process scored before (seen with --jobs 2).
    client.send("clear_cache")  # an engine without the command answers '?': harmless
    held = (counters.prisoners.get("B", 0), counters.prisoners.get("W", 0))
    seed = score_seed(komi, to_move, held, sum(counters.moves.values()))
    reply = client.send(f"final_score {seed}")
    if not reply.ok:
        raise GarbledReply(f"final_score failed: {reply.text}")
    winner, margin = parse_score(reply.text)
    if winner == "draw" and decision.black_wins_ties:
        winner = "B"
    return CountObservation(method=method, winner=winner, margin=margin, komi=decision.reason)
