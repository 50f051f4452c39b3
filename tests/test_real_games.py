"""Every move of 300 real 19x19 games is accepted under every preset, but for explained exceptions.

The records are in ``../shared/data/games`` (not part of the project). Without them the test
skips, except under CI (``CI=true``), where their absence is a failure.

How a record is replayed under a preset (``jpdtools.records.gamerecord``, as ``jpd replay`` does):

* where one colour moves twice in a row, the other colour's missing pass is put in
  (:meth:`GameRecord.alternating`); under a preset without passes (jpd-a, jpd-b) every pass is
  a virtual move instead;
* a handicap game (HA ≥ 2 with the handicap stones in AB) starts with the preset's own handicap
  procedure when that puts the stones where the record has them (free placement: Black places
  the AB stones one by one; fixed placement: only if AB holds the traditional points), and with
  the AB stones as set-up stones otherwise.
"""

import os
from pathlib import Path

import pytest
from jpdref.game import Effect, Game, Phase, Step
from jpdref.reasons import Reason
from jpdref.rules import Rules
from jpdref.stones import BLACK
from jpdtools.paths import shared_games_dir
from jpdtools.presets import load_presets
from jpdtools.records.gamerecord import record_actions, start_game
from jpdtools.records.sgf import GameRecord, read_sgf

PRESETS = load_presets().rulesets

KNOWN_REFUSALS: dict[tuple[str, str, int], tuple[Reason, str]] = {
    # (preset, record, move number in the alternating replay) -> (reason, why it is right)
}
"""Moves of the records that a preset rightly refuses: real rule differences, each explained."""


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    directory = shared_games_dir()
    files = sorted(directory.glob("*.sgf")) if directory.is_dir() else []
    if not files:
        message = f"no game records in {directory} (the shared data directory is absent)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}; under CI the real-game test must run")
        pytest.skip(message)
    return [read_sgf(f) for f in files]


def replay(rules: Rules, rec: GameRecord) -> list[tuple[int, Step]]:
    """The refused actions of ``rec`` under ``rules`` as (move number, step)."""
    game, placements = start_game(rules, rec)
    for action in placements:
        step = game.play(action)
        assert step.legal, f"{rec.path}: handicap stone refused: {step}"
    refused = []
    for n, action in enumerate(record_actions(rules, rec), 1):
        step = game.play(action)
        if not step.legal or step.effect is not Effect.PLAYED:
            refused.append((n, step))
    return refused


@pytest.mark.parametrize("rules", PRESETS, ids=[r.name for r in PRESETS])
def test_every_move_of_every_real_game_is_accepted(rules: Rules, records: list[GameRecord]):
    found: dict[tuple[str, str, int], Reason] = {}
    report = []
    for rec in records:
        for n, step in replay(rules, rec):
            name = Path(rec.path).name
            assert step.reason is not None
            found[(rules.name, name, n)] = step.reason
            report.append(
                f"{name} move {n} ({step.action.kind} {step.action.color.letter}): "
                f"{step.reason} -> {step.effect}"
            )
    expected = {k: reason for k, (reason, _) in KNOWN_REFUSALS.items() if k[0] == rules.name}
    assert found == expected, f"{rules.name}: refused moves:\n" + "\n".join(report)


@pytest.fixture(scope="module")
def tromp_taylor(records: list[GameRecord]) -> list[tuple[GameRecord, list[Step], Game]]:
    """Each record replayed under tromp-taylor (a permissive preset): the steps of its moves and
    the game after them (the two tests below read one replay)."""
    rules = load_presets().get("tromp-taylor")
    out = []
    for rec in records:
        game, placements = start_game(rules, rec)
        for action in placements:
            game.play(action)
        out.append((rec, [game.play(action) for action in record_actions(rules, rec)], game))
    return out


def test_halted_games_stop_only_at_the_end(tromp_taylor):
    """A record replayed under a permissive preset never halts or ends before its last move."""
    for rec, steps, game in tromp_taylor:
        for n, step in enumerate(steps, 1):
            if step.outcome is not None:
                assert n == len(steps), f"{rec.path}: play stopped at move {n}: {step.outcome}"
        assert game.phase in (Phase.CONTEST, Phase.HALTED)


def test_final_positions_agree_with_sgfmill(tromp_taylor):
    """The board after the last move is sgfmill's (an independent implementation of captures)."""
    boards = pytest.importorskip("sgfmill.boards")
    for rec, _, game in tromp_taylor:
        theirs = boards.Board(rec.width)
        rows = rec.height - 1
        black = [(rows - p // rec.width, p % rec.width) for p, c in rec.setup.items() if c is BLACK]
        white = [(rows - p // rec.width, p % rec.width) for p, c in rec.setup.items() if c != BLACK]
        theirs.apply_setup(black, white, [])
        for color, p in rec.moves:
            if p is not None:
                theirs.play(rows - p // rec.width, p % rec.width, color.letter.lower())
        expected = [0] * (rec.width * rec.height)
        for colour, (row, col) in theirs.list_occupied_points():
            expected[(rows - row) * rec.width + col] = 1 if colour == "b" else 2
        assert game.board.color == expected, f"{rec.path}: final position differs from sgfmill's"
