"""The PettingZoo program of implementations/pettingzoo against the installed environment.

Each test states what the environment does (pettingzoo/classic/go: go.py, go_base.py) and checks
that the program reports it as the JSON-lines protocol asks — including the library's bug, a drawn
game scored as a White win (reports/pettingzoo/DEVIATIONS.md, P1).
"""

import importlib.util
import io
import os

import pytest
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.run.runner import Filters, default_loader, plan_paths
from jpdtools.suite.setup import CaseAction, FinalSpec, Setup
from jpdtools.verify import implementations
from jpdtools.verify.jsonl import protocol as p
from jpdtools.verify.jsonl.adapter import JsonlAdapter, run_message
from jpdtools.verify.jsonl.serve import serve

VARIANT = "tromp-taylor:repetition=simple-ko,suicide=forbidden,cycle=draw,illegal-move=loss"
KO = Setup(
    4, 4, "B", (("B4", "B"), ("A3", "B"), ("B2", "B"), ("C4", "W"), ("B3", "W"), ("C2", "W"), ("D3", "W"))
)


def require_pettingzoo() -> None:
    if importlib.util.find_spec("pettingzoo") is None:
        message = (
            "pettingzoo is not installed (pip install -r implementations/pettingzoo/requirements.txt): "
            "the PettingZoo program is not tested"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


@pytest.fixture(scope="module")
def program():
    require_pettingzoo()
    return implementations.load_module("pettingzoo", "program.py").PettingZooProgram()


@pytest.fixture(scope="module")
def presets():
    return load_presets()


def moves(text: str) -> tuple[CaseAction, ...]:
    words = text.split()
    return tuple(
        CaseAction(c, t) if t == "pass" else CaseAction(c, "move", t)
        for c, t in zip(words[::2], words[1::2], strict=True)
    )


def talk(program, *messages: p.Message) -> list[p.Message]:
    out = io.StringIO()
    serve(program, io.StringIO("".join(p.encode(m) + "\n" for m in messages)), out, protocols=(4,))
    return [p.decode(line) for line in out.getvalue().splitlines()]


def play(program, presets, setup: Setup, text: str, final: FinalSpec | None = None):
    msg = run_message("r", setup, (), moves(text), presets.get(VARIANT), "", final)
    (answer,) = talk(program, msg)
    return answer


def test_it_declares_protocol_4_without_plain_refusal_and_counts_as_winner_and_margin(program):
    ready, *_ = talk(program, p.Start(protocol=1, protocols=(1, 2, 3, 4)))
    assert ready.protocol == 4
    supports = ready.supports
    assert "plain-refusal" not in supports.features and "turn-order" not in supports.features
    assert {"illegal-move-loss", "end-of-play", "setup-stones", "counting"} <= set(supports.features)
    assert "count-result" in supports.claims and "count" not in supports.claims
    assert supports.axes["illegal-move"] == ("loss",) and supports.max_size == 19


def test_every_illegal_action_forfeits_with_its_reason(program, presets):
    # an occupied point is outside the action mask like a ko: TerminateIllegalWrapper ends the game
    occupied = play(program, presets, Setup(5, 5, "B", (("C3", "W"),)), "B C3 W A1")
    first, second = occupied.steps
    assert (first.legal, first.effect, first.reason) == (False, "forfeit", "occupied")
    assert (second.effect, second.reason) == ("refused", "game-over")
    assert (occupied.end.phase, occupied.end.kind, occupied.end.winner) == ("ended", "illegal-move", "W")
    ko = play(program, presets, KO, "B C3 W B3")
    take, retake = ko.steps
    assert take.legal and take.captures == ("B3",)
    assert (retake.effect, retake.reason) == ("forfeit", "ko") and ko.end.winner == "B"
    corner = Setup(5, 5, "B", (("A2", "W"), ("B1", "W")))
    suicide = play(program, presets, corner, "B A1")
    assert (suicide.steps[0].effect, suicide.steps[0].reason) == ("forfeit", "suicide")


def test_the_set_up_is_played_as_moves_without_captures(program, presets):
    answer = play(program, presets, KO, "B A1")
    assert answer.initial_board == ".XO./XO.O/.XO./...."
    assert answer.steps[0].board == ".XO./XO.O/.XO./X..." and answer.steps[0].to_move == "W"


def test_two_passes_end_the_game_and_a_draw_comes_back_as_a_white_win(program, presets):
    # go_base.Position.result() is 0 for a score of 0; _encode_rewards gives [-1, 1] for it (P1)
    draw = play(program, presets, Setup(5, 5), "B pass W pass", FinalSpec())
    assert (draw.end.phase, draw.end.kind) == ("halted", "two-passes")
    assert (draw.count.winner, draw.count.margin) == ("W", 0)
    # a won game is scored right: one black stone owns the whole board under Tromp-Taylor counting
    won = play(program, presets, Setup(5, 5), "B C3 W pass B pass", FinalSpec())
    assert (won.count.winner, won.count.margin) == ("B", 25)


def test_a_position_the_game_has_not_ended_is_counted_as_it_stands(program, presets):
    # A1 reaches Black only (territory); the rest reaches both: Black 2 + 1, White 1, no komi
    setup = Setup(5, 5, "B", (("A2", "B"), ("B1", "B"), ("E5", "W")))
    answer = play(program, presets, setup, "B pass", FinalSpec())
    assert answer.end.phase == "contest"  # the end is read before the count's passes
    assert (answer.count.winner, answer.count.margin) == ("B", 2)


def test_a_set_up_ending_in_a_pass_before_a_first_pass_is_declined(program, presets):
    # White to move on an empty board: the set-up is Black's pass, and White's pass would be the second
    answer = play(program, presets, Setup(5, 5, "W"), "W pass B pass")
    assert isinstance(answer, p.Unsupported) and "two passes" in answer.reason


def test_the_suite_finds_the_draw_bug_as_one_cause():
    require_pettingzoo()
    from jpdtools.verify.causes import root_causes
    from jpdtools.verify.verification import run_serial

    presets_ = load_presets()
    ids = ("count.area.007", "count.komi.tie.001", "ko.simple.00[1-3]")
    filters = Filters(rules=(VARIANT,), variants=(presets_.get(VARIANT),), ids=ids)
    plan = plan_paths([conformance_dir()], presets_, filters, default_loader())
    with JsonlAdapter(implementations.require("pettingzoo").argv(), timeout=60.0) as adapter:
        results = list(run_serial([i for i in plan.items if i.rules is not None], adapter))
    outcomes = {vr.name: str(vr.outcome) for vr in results}
    assert outcomes[f"count.area.007[{VARIANT}]"] == "unexpected-failure"
    assert outcomes[f"count.komi.tie.001[{VARIANT}]"] == "unexpected-failure"
    assert all(o in ("pass", "skip") for n, o in outcomes.items() if n.startswith("ko.")), outcomes
    assert len(root_causes(results)) == 1  # one bug, one cause
