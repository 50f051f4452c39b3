"""The JSON-lines protocol, its adapter, and the bundled library programs (sgfmill, OpenSpiel).

The adapter is driven against ``tests/fake_jsonl_program.py``, which hangs, crashes and writes
garbage on request: every misbehaviour must become an error for that one item while the run goes
on. The OpenSpiel tests skip with a message where open-spiel is not installed, and fail in CI.
"""

import importlib.util
import io
import itertools
import json
import os
import shlex
import sys
from dataclasses import fields
from pathlib import Path

import pytest
from jpdref.rules import axis_names
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.run.adapters import Observation
from jpdtools.run.compare import Status
from jpdtools.run.runner import Filters, default_loader, plan_paths, run_plan
from jpdtools.suite.setup import CaseAction, Setup
from jpdtools.verify import implementations
from jpdtools.verify.jsonl import protocol as p
from jpdtools.verify.jsonl.adapter import JsonlAdapter, JsonlError, run_message, step_observation
from jpdtools.verify.jsonl.serve import serve

FAKE = [sys.executable, str(Path(__file__).with_name("fake_jsonl_program.py"))]
TIMEOUT = 20.0  # generous: only the hang tests use a short one, and they assert no durations
HAS_SKIP = any(f.name == "skip" for f in fields(Observation))


@pytest.fixture(scope="module")
def presets():
    return load_presets()


def moves(text: str) -> tuple[CaseAction, ...]:
    words = text.split()
    out = []
    for color, target in zip(words[::2], words[1::2], strict=True):
        if target in ("pass", "virtual", "resign"):
            out.append(CaseAction(color, target))
        else:
            out.append(CaseAction(color, "move", target))
    return tuple(out)


# -- protocol ----------------------------------------------------------------------------------

MESSAGES = [
    p.Start(),
    p.Ready("x", "1.0", p.Supports(("chinese",), {"suicide": ("forbidden",)}, 19, ("legal", "board"))),
    p.Ready("y", "2"),
    p.Run(
        "r1",
        "chinese",
        {"suicide": "forbidden"},
        5,
        5,
        "W",
        0,
        (("C3", "B"), ("D4", "W")),
        (p.Act("B", "pass"),),
        (p.Act("W", "move", "C4"), p.Act("B", "virtual")),
        "ko.x",
    ),
    p.Result(
        "r1", (p.Step(True, "played", None, ("C3",), (), "B", "X./.O"), p.Step()), p.End("contest", "B")
    ),
    p.Result("r2", (), None, ".X/O."),
    p.Error("r1", "boom"),
    p.Error(None, "bad start"),
    p.Unsupported("r1", "too big"),
    p.Stop(),
]


@pytest.mark.parametrize("msg", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_message_round_trips(msg):
    line = p.encode(msg)
    assert "\n" not in line
    assert p.decode(line) == msg


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"type": "hello"}', "unknown message type"),
        ('{"protocol": 1}', "missing key 'type'"),
        ('{"type": "start", "protocol": true}', "'protocol' must be an integer"),
        ('{"type": "result", "id": "r", "steps": [{"legal": 1}]}', "'legal' must be a boolean"),
        ('{"type": "result", "id": "r", "steps": [{"reason": "bad-shape"}]}', "'reason'"),
        ('{"type": "result", "id": "r", "steps": [{"captures": ["I5"]}]}', "not a GTP vertex"),
        ('{"type": "result", "id": "r", "steps": [{"board": "XY/.."}]}', "board rows"),
        ('{"type": "result", "id": "r", "steps": [], "end": {"phase": "over"}}', "'phase'"),
        (
            '{"type": "ready", "protocol": 1, "name": "x", "version": "1", "supports": {"claims": ["moo"]}}',
            "claims",
        ),
        (
            '{"type": "run", "id": "r", "ruleset": "x", "rules": {}, "width": 5, "height": 5, '
            '"moves": [{"color": "B", "action": "pass", "vertex": "C3"}]}',
            "names no vertex",
        ),
    ],
)
def test_decode_rejects_malformed_lines_with_a_reason(line, says):
    with pytest.raises(p.ProtocolError, match=None) as err:
        p.decode(line)
    assert says in str(err.value)


def test_decode_ignores_unknown_keys_and_normalises_values():
    msg = p.decode(
        '{"type": "result", "id": "r", "extra": 1, "steps": [{"captures": ["d4", "c3", "c3"], '
        '"board": "x+/.o", "legal": true, "new": 2}]}'
    )
    assert msg == p.Result("r", (p.Step(legal=True, captures=("C3", "D4"), board="X./.O"),))


def test_run_message_is_fully_expanded(presets):
    setup = Setup(5, 5, "W", (("C3", "B"), ("d4", "W")), (("a", "B2"),))
    msg = run_message(
        "r7", setup, moves("B C2"), (CaseAction("W", "move", "@a"),), presets.get("japanese"), "c"
    )
    assert msg.rules["repetition"] == "simple-ko" and set(msg.rules) == set(axis_names())
    assert msg.stones == (("C3", "B"), ("D4", "W"))
    assert msg.moves == (p.Act("W", "move", "B2"),)
    assert json.loads(p.encode(msg))["stones"] == {"B": ["C3"], "W": ["D4"]}


def test_undeclared_claims_get_placeholders_of_the_right_types():
    step = p.Step(False, None, "ko", ("C3",), (), "B", "X")
    seen = step_observation("B C3", step, frozenset({"legal", "board"}))
    assert (seen.legal, seen.effect, seen.reason, seen.captures, seen.to_move, seen.board) == (
        False,
        "refused",
        None,
        (),
        "?",
        "X",
    )
    assert step_observation("B C3", step, frozenset()).effect == "?"


# -- the adapter against a misbehaving program --------------------------------------------------


def observe(adapter, width: int, presets, text: str = "B C1 W D1"):
    return adapter.observe(Setup(width, width), (), moves(text), presets.get("chinese"))


def test_handshake_declares_capabilities_and_name(presets):
    with JsonlAdapter(FAKE, timeout=TIMEOUT) as adapter:
        caps = adapter.capabilities()
        assert caps.rulesets == frozenset({"chinese", "japanese"}) and caps.max_size == 11
        assert adapter.name == "fake 0.1"
        seen = observe(adapter, 9, presets)
    assert seen.error is None and len(seen.steps) == 2
    assert seen.steps[0].board.startswith("........./") and seen.steps[1].to_move == "B"
    assert seen.steps[0].self_captures == () and seen.steps[0].reason is None  # not declared
    assert seen.end.phase == "contest"


@pytest.mark.parametrize(
    ("width", "says"),
    [
        (2, "no answer within"),
        (3, "exited with status 3"),
        (4, "garbled answer"),
        (5, "expected the result of"),
        (6, "cannot set up"),
        (8, "1 steps answered for 2 moves"),
        (10, "declared 'board' (null at step 1) but did not report it"),
    ],
)
def test_a_misbehaving_run_is_an_error_and_the_next_run_works(width, says, presets):
    timeout = 0.5 if width == 2 else TIMEOUT
    with JsonlAdapter(FAKE, timeout=timeout) as adapter:
        adapter.capabilities()
        bad = observe(adapter, width, presets)
        good = observe(adapter, 9, presets)
    assert bad.error is not None and says in bad.error
    assert good.error is None and len(good.steps) == 2


def test_a_declined_run_is_a_skip_never_a_pass(presets):
    with JsonlAdapter(FAKE, timeout=TIMEOUT) as adapter:
        seen = observe(adapter, 7, presets)
    told = seen.skip if HAS_SKIP else seen.error  # type: ignore[attr-defined]
    assert told and "width 7 is odd" in told


@pytest.mark.parametrize(
    ("mode", "says"),
    [
        ("exit", "exited with status 4"),
        ("garbled", "not JSON"),
        ("error", "no engine here"),
        ("old", "protocol 1"),
        ("hang", "no answer within"),
    ],
)
def test_a_failed_start_makes_every_item_an_error(mode, says, presets):
    # a program hanging at the start never answers: the shortest wait tells the same
    adapter = JsonlAdapter([*FAKE, "--start", mode], timeout=0.2 if mode == "hang" else TIMEOUT)
    with adapter:
        with pytest.raises(JsonlError, match=None) as err:
            adapter.capabilities()
        assert says in str(err.value)
        seen = observe(adapter, 9, presets)
    assert seen.error and says in seen.error


def test_a_missing_program_is_an_error_not_a_crash(presets):
    with JsonlAdapter(["/nonexistent/jsonl-program"], timeout=TIMEOUT) as adapter:
        seen = observe(adapter, 9, presets)
    assert seen.error and "cannot launch" in seen.error


CRASH_SUITE = (("first", 9), ("crash", 3), ("last", 9))


def test_a_run_survives_a_crashing_program(presets, tmp_path):
    """The runner keeps every result: the crash is one error, the items around it still run."""
    suite = tmp_path / "suite.yaml"
    case = "  - id: t.{}\n    title: t\n    spec: [board.points]\n    seeds: []\n    rules: [chinese]\n"
    case += "    size: {}\n    moves: B A1\n    expect:\n      default: '1: legal'\n"
    suite.write_text("format: 1\ncases:\n" + "".join(case.format(*c) for c in CRASH_SUITE), encoding="utf-8")
    presets_ = load_presets()
    loader = default_loader()
    plan = plan_paths([suite], presets_, Filters(), loader)
    with JsonlAdapter(FAKE, timeout=TIMEOUT) as adapter:
        run = run_plan(plan, adapter, presets_, loader)
    assert [(r.case_id, r.status) for r in run.results] == [
        ("t.first", Status.PASS),
        ("t.crash", Status.ERROR),
        ("t.last", Status.PASS),
    ]


# -- the sgfmill program ------------------------------------------------------------------------


def talk(program, *messages: p.Message) -> list[p.Message]:
    out = io.StringIO()
    serve(program, io.StringIO("".join(p.encode(m) + "\n" for m in messages)), out)
    return [p.decode(line) for line in out.getvalue().splitlines()]


def test_sgfmill_program_reports_captures_self_captures_and_occupied(presets):
    SgfmillProgram = implementations.load_module("sgfmill", "program.py").SgfmillProgram

    setup = Setup(3, 3, "B", (("A2", "B"), ("B1", "B"), ("A3", "W"), ("B2", "W"), ("C1", "W")))
    run = run_message("r", setup, (), moves("B A1 W C3 W B2"), presets.get("tromp-taylor"))
    ready, result = talk(SgfmillProgram(), p.Start(), run, p.Stop())
    assert ready.supports.axes == {"suicide": ("allowed",)}
    assert "to-move" not in ready.supports.claims and "end" not in ready.supports.claims
    first, second, third = result.steps
    assert first.self_captures == ("A1", "A2", "B1") and first.legal is None and first.board == "O../.O./..O"
    assert second.captures == () and second.board == "O.O/.O./..O"
    assert (third.legal, third.reason) == (False, "occupied")


def test_sgfmill_program_declines_what_it_cannot_set_up(presets):
    SgfmillProgram = implementations.load_module("sgfmill", "program.py").SgfmillProgram

    odd = run_message("a", Setup(5, 3), (), (), presets.get("tromp-taylor"))
    fixed = run_message("b", Setup(9, 9, handicap=2), (), (), presets.get("japanese"))
    answers = talk(SgfmillProgram(), odd, fixed)
    assert [type(a) for a in answers] == [p.Unsupported, p.Unsupported]


def test_a_program_answers_bad_lines_and_unknown_versions_with_errors():
    SgfmillProgram = implementations.load_module("sgfmill", "program.py").SgfmillProgram

    out = io.StringIO()
    serve(SgfmillProgram(), io.StringIO('nonsense\n{"type": "start", "protocol": 9}\n'), out)
    first, second = (p.decode(line) for line in out.getvalue().splitlines())
    assert isinstance(first, p.Error) and "bad message" in first.message
    assert isinstance(second, p.Error) and "protocol 9" in second.message


def verify(profile: str, ids: tuple[str, ...], rules: tuple[str, ...]):
    """Verify a bundled profile through ``jpdtools.verify.verification`` (``jpd verify``, with limits)."""
    from jpdtools.verify.verification import run_serial

    presets_ = load_presets()
    plan = plan_paths([conformance_dir()], presets_, Filters(rules=rules, ids=ids), default_loader())
    items = [i for i in plan.items if i.rules is not None]
    with JsonlAdapter(implementations.require(profile).argv(), timeout=60.0) as adapter:
        return {vr.name: vr for vr in run_serial(items, adapter)}


def test_limit_drops_undeclared_claims_and_whole_either_verdicts():
    from jpdtools.suite.model import Claim, EndVerdict, Expectation, StepVerdict
    from jpdtools.verify.jsonl.adapter import limit

    expectation = Expectation(
        "default",
        (
            StepVerdict(1, ((Claim("legal"), Claim("captures", ("C3",)), Claim("to-move", ("W",))),)),
            StepVerdict(2, ((Claim("illegal", ("ko",)),), (Claim("legal"),))),
            StepVerdict(3, ((Claim("illegal", ("ko",)),),)),
        ),
        EndVerdict("contest", ("B",)),
    )
    limited = limit(expectation, frozenset({"legal", "captures"}))
    # step 3's refusal is still compared, without its reason; step 2's either would be vacuous
    assert [str(v) for v in limited.expectation.steps] == ["1: legal captures C3", "3: illegal"]
    assert limited.expectation.end is None and not limited.empty
    assert limited.dropped == (
        "1: to-move W",
        "2: illegal ko | legal",
        "3: illegal ko (its reason is not reported: compared as illegal (any reason))",
        "end: contest B",
    )
    assert limit(expectation, frozenset({"board"})).empty


def test_an_either_verdict_keeps_what_can_still_fail_without_reasons():
    from jpdtools.suite.model import Claim, Expectation, StepVerdict
    from jpdtools.verify.jsonl.adapter import limit

    legal_a1 = (Claim("legal"), Claim("captures", ("A1",)))
    either = StepVerdict(1, ((Claim("void-pass", ("superko",)),), legal_a1))
    refusals = StepVerdict(2, ((Claim("illegal", ("ko",)),), (Claim("illegal", ("superko",)),)))
    limited = limit(Expectation("default", (either, refusals), None), frozenset({"legal"}))
    assert [str(v) for v in limited.expectation.steps] == ["1: void-pass | legal", "2: illegal"]


LEGAL_ONLY = [sys.executable, str(Path(__file__).with_name("legal_only_program.py"))]


def test_every_refusal_of_the_suite_is_held_against_a_program_that_reports_only_legality():
    """The check that could not fail (issue 25): without ``reason``, refusals were dropped whole,
    so a program calling everything legal passed. Every refusal of every item must stay."""
    from jpdtools.verify.jsonl.adapter import limit

    plan = plan_paths([conformance_dir()], load_presets(), Filters(), default_loader())
    refusals = 0
    for item in plan.items:
        if item.rules is None:
            continue
        held = {v.step: v for v in limit(item.expectation, frozenset({"legal"})).expectation.steps}
        for verdict in item.expectation.steps:
            kind = verdict.alternatives[0][0].kind
            if verdict.is_open or kind not in ("illegal", "void-pass", "forfeit"):
                continue
            refusals += 1
            assert [c.kind for c in held[verdict.step].alternatives[0]] == [kind], item.name
    assert refusals > 2000


def test_a_program_that_accepts_every_action_fails_verify_on_ko_suicide_and_occupied(capsys):
    from jpdtools.cli import main

    status = main(["verify", "--impl", "jsonl:" + shlex.join(LEGAL_ONLY), "--rules", "japanese", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1 and report["summary"]["ok"] is False
    failed = [r for r in report["results"] if r["outcome"] == "unexpected-failure"]
    assert len(failed) > 150
    clauses = {c for r in failed for c in r["clauses"]}
    assert {"play.move", "capture.suicide", "rep.simple-ko", "rep.positional", "turn.order"} <= clauses
    first = {m["expected"] for r in failed for m in r["mismatches"][:1]}
    assert {"illegal (any reason)", "forfeit (any reason)"} <= first
    assert all(m["observed"] == "legal" for r in failed for m in r["mismatches"])


def test_sgfmill_profile_end_to_end():
    results = verify(
        "sgfmill", ("capture.single.*", "capture.chain.*", "ko.simple.001"), ("tromp-taylor", "chinese")
    )
    outcomes = {name: str(vr.outcome) for name, vr in results.items()}
    assert all(o == "skip" for n, o in outcomes.items() if n.endswith("[chinese]"))  # suicide=forbidden
    passes = [n for n, o in outcomes.items() if o == "pass"]
    assert any(n.startswith("capture.") for n in passes)
    assert results["capture.single.001[tromp-taylor]"].limited  # its legality claims are not compared
    assert not any(o == "error" for o in outcomes.values())


# -- the OpenSpiel program ----------------------------------------------------------------------


def require_openspiel() -> None:
    if importlib.util.find_spec("pyspiel") is None:
        message = "open-spiel is not installed (pip install open-spiel): the OpenSpiel program is not tested"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


@pytest.fixture(scope="module")
def openspiel():
    require_openspiel()
    OpenSpielProgram = implementations.load_module("openspiel", "program.py").OpenSpielProgram

    return OpenSpielProgram()


def play(program, presets, setup: Setup, text: str, rules: str = "jpd-art-2008") -> p.Result:
    (answer,) = talk(program, run_message("r", setup, (), moves(text), presets.get(rules)))
    assert isinstance(answer, p.Result), answer
    return answer


KO = Setup(
    4, 4, "B", (("B4", "B"), ("A3", "B"), ("B2", "B"), ("C4", "W"), ("B3", "W"), ("C2", "W"), ("D3", "W"))
)


def test_openspiel_refuses_a_ko_recapture_with_reason_ko(openspiel, presets):
    result = play(openspiel, presets, KO, "B C3 W B3 W A1", "jpd-art-2008:illegal-move=refuse")
    first, second, third = result.steps
    assert first.legal and first.captures == ("B3",) and first.to_move == "W"
    assert (second.legal, second.reason) == (False, "ko")
    assert (third.legal, third.reason) == (True, None)


def test_openspiel_refuses_suicide_and_occupied(openspiel, presets):
    corner = Setup(3, 3, "B", (("A2", "W"), ("B1", "W"), ("B3", "B")))
    result = play(openspiel, presets, corner, "B A1 B B3 W B3", "jpd-art-2008:illegal-move=refuse")
    assert [(s.legal, s.reason) for s in result.steps] == [
        (False, "suicide"),
        (False, "occupied"),
        (False, "out-of-turn"),
    ]


def test_openspiel_program_applies_the_loss_policy(openspiel, presets):
    """jpd-art-2008 forfeits a ko recapture (001 第十五条 3, OQ-9): the wrapper applies the policy."""
    result = play(openspiel, presets, KO, "B C3 W B3 W A1")
    assert [(s.legal, s.effect, s.reason) for s in result.steps] == [
        (True, "played", None),
        (False, "forfeit", "ko"),
        (False, "refused", "game-over"),
    ]
    assert (result.end.phase, result.end.kind, result.end.result, result.end.winner) == (
        "ended",
        "illegal-move",
        "win",
        "B",
    )


DOUBLE_KO = Setup(
    7,
    7,
    "B",
    (("A7", "B"), ("C7", "B"), ("A6", "W"), ("B6", "B"), ("A2", "B"), ("B2", "W"), ("A1", "W"), ("C1", "W")),
)


def test_openspiel_accepts_a_whole_board_repetition_and_ends_the_game_drawn(openspiel, presets):
    """OpenSpiel has no superko ban: a move that brings back an earlier board stands, and ends the game."""
    result = play(openspiel, presets, DOUBLE_KO, "B B1 W B7 B pass W A1 B A7 W pass")
    assert [s.captures for s in result.steps[:5]] == [("A1",), ("A7",), (), ("B1",), ("B7",)]
    assert (
        result.steps[4].legal
        and result.steps[4].board == "X.X..../OX...../......./......./......./XO...../O.O...."
    )
    assert (result.steps[5].legal, result.steps[5].reason) == (False, "game-over")
    assert (result.end.phase, result.end.kind, result.end.result) == ("ended", "cycle", "draw")


def test_openspiel_two_passes_halt_and_its_third_handicap_stone_goes_upper_left(openspiel, presets):
    halted = play(openspiel, presets, Setup(5, 5), "B pass W pass")
    assert (halted.end.phase, halted.end.kind) == ("halted", "two-passes")
    three = play(openspiel, presets, Setup(19, 19, handicap=3), "W A1", rules="japanese")
    rows = three.steps[0].board.split("/")
    assert rows[3][3] == "X" and rows[15][15] == "."  # D16 taken, Q4 (the traditional third) not


def test_openspiel_set_up_sequence_never_passes_twice_in_a_row():
    require_openspiel()
    setup_sequence = implementations.load_module("openspiel", "program.py").setup_sequence

    for black in range(4):
        for white in range(4):
            for to_move in "BW":
                plays = setup_sequence(
                    [(0, i) for i in range(black)], [(1, i) for i in range(white)], to_move
                )
                assert all(a[1] or b[1] for a, b in itertools.pairwise(plays))
                assert [c for c, _ in plays] == ["BW"[i % 2] for i in range(len(plays))]
                assert ("BW"[len(plays) % 2]) == to_move
                assert sum(1 for _, q in plays if q) == black + white


def test_openspiel_profile_end_to_end():
    require_openspiel()
    results = verify("openspiel", ("ko.simple.00[1-5]", "suicide.single.*"), ("jpd-art-2008", "chinese"))
    outcomes = {name: str(vr.outcome) for name, vr in results.items()}
    assert all(o == "skip" for n, o in outcomes.items() if n.endswith("[chinese]"))
    played = {n: o for n, o in outcomes.items() if n.endswith("[jpd-art-2008]") and o != "skip"}
    assert played and all(o == "pass" for o in played.values()), played
    assert not any(vr.limited for vr in results.values())  # it declares every claim


# -- protocol 4 ---------------------------------------------------------------------------------


def test_protocol_4_declares_board_sizes_count_results_and_reason_sets():
    line = json.dumps(
        {
            "type": "ready",
            "protocol": 4,
            "name": "env",
            "version": "1",
            "supports": {"sizes": [19, 9, 13], "claims": ["legal", "reason", "end", "count-result"]},
        }
    )
    ready = p.decode(line)
    assert ready.supports.sizes == (9, 13, 19) and "count-result" in ready.supports.claims
    with pytest.raises(p.ProtocolError, match="need protocol 4"):
        p.decode(line.replace('"protocol": 4', '"protocol": 3'))
    from jpdtools.run.adapters import Capabilities

    caps = Capabilities(sizes=frozenset({9, 13, 19}))
    rules = load_presets().get("chinese")
    assert caps.unsupported(rules, Setup(5, 5)) == "board 5x5 is not among the sizes it plays (9, 13, 19)"
    assert caps.unsupported(rules, Setup(9, 9)) is None
    step = p.decode(
        json.dumps(
            {
                "type": "result",
                "id": "r1",
                "initial_board": None,
                "steps": [
                    {
                        "legal": False,
                        "effect": "refused",
                        "reason": "occupied",
                        "reasons": ["out-of-turn", "occupied"],
                    }
                ],
                "end": None,
            }
        )
    ).steps[0]
    seen = step_observation("W C3", step, frozenset({"legal", "reason"}))
    from jpdtools.run.compare import claim_holds
    from jpdtools.suite.model import Claim

    # the spec's precedence says out-of-turn; a program naming both true reasons is not wrong
    assert claim_holds(Claim("illegal", ("out-of-turn",)), seen)
    assert claim_holds(Claim("illegal", ("occupied",)), seen)
    assert not claim_holds(Claim("illegal", ("ko",)), seen)


def test_a_count_result_program_is_held_to_winner_and_margin_only():
    from fractions import Fraction

    from jpdtools.suite.model import CountClaim, CountVerdict, Expectation
    from jpdtools.verify.jsonl.adapter import limit

    count = CountVerdict((CountClaim("result", "B", Fraction(7, 2), Fraction(184), Fraction(177), "子"),))
    held = limit(Expectation("default", (), None, count=count), frozenset({"legal", "count-result"}))
    (claim,) = held.expectation.count.alternatives
    assert (claim.winner, claim.margin, claim.black, claim.white, claim.unit) == (
        "B",
        Fraction(7, 2),
        None,
        None,
        None,
    )
    assert "compared as winner and margin only" in held.dropped[0]


def test_a_garbled_answer_is_quoted_and_every_exchange_is_in_the_transcript(presets):
    with JsonlAdapter(FAKE, timeout=TIMEOUT) as adapter:
        adapter.capabilities()
        bad = observe(adapter, 4, presets)
        adapter.take_transcript()
        good = observe(adapter, 9, presets)
        transcript = adapter.take_transcript()
    assert "garbled answer: '" in bad.error
    assert good.error is None
    assert transcript[0].startswith('> {"type":"run"') and '"type":"result"' in transcript[-1].replace(
        " ", ""
    )


def test_a_crash_loop_of_a_jsonl_program_is_bounded(presets):
    from jpdtools.verify.jsonl.adapter import CRASH_LOOP

    with JsonlAdapter(FAKE, timeout=TIMEOUT) as adapter:
        adapter.capabilities()
        errors = [observe(adapter, 3, presets).error for _ in range(CRASH_LOOP + 2)]
    assert all(errors) and adapter.restarts == CRASH_LOOP  # no launch after the bound
    assert errors[-1].startswith(f"not run: the program failed {CRASH_LOOP} items in a row")
