"""The GTP client, adapter and `jpd verify` against a fake engine that hangs, crashes and garbles.

No test asserts on time: timeouts are short only so that the hang tests end quickly.
"""

import json
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from jpdtools.cli import main
from jpdtools.presets import load_presets
from jpdtools.run.compare import Status
from jpdtools.run.runner import Filters, default_loader, plan_paths
from jpdtools.suite.model import (
    Claim,
    CountClaim,
    CountVerdict,
    EndVerdict,
    Expectation,
    PointVerdict,
    StepVerdict,
)
from jpdtools.suite.setup import CaseAction
from jpdtools.verify import verification as verify
from jpdtools.verify.gtp import limits, profiles, score
from jpdtools.verify.gtp.adapter import GtpAdapter
from jpdtools.verify.gtp.client import EngineCrashed, EngineTimeout, GarbledReply, GtpClient, parse_reply

FAKE = Path(__file__).with_name("fake_gtp_engine.py")
TIMEOUT = 0.5  # short, so a hang test ends quickly; never asserted on

CASES = """\
format: 1
topic: fake engine checks
cases:
{cases}
"""

CASE = """\
  - id: fake.{name}
    title: A case for the fake engine ({name})
    spec: [play.move]
    seeds: ["test"]
    rules: [tromp-taylor]
    size: 5
    moves: B C3 W {vertex}
    expect:
      default: |
        1: legal captures none to-move W
        2: legal to-move B board ...../...../..X../...../.....
        end: contest B
"""


def fake_command(*flags: str) -> list[str]:
    return [sys.executable, str(FAKE), *flags]


def write_cases(tmp_path: Path, names_vertices: list[tuple[str, str]]) -> Path:
    text = CASES.format(cases="".join(CASE.format(name=n, vertex=v) for n, v in names_vertices))
    path = tmp_path / "fake.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def plan_items(path: Path):
    plan = plan_paths([path], load_presets(), Filters(), default_loader())
    assert not plan.failures, plan.failures
    return [i for i in plan.items if i.rules is not None]


# -- parsing -----------------------------------------------------------------------------------


def test_parse_reply_success_failure_and_ids():
    assert parse_reply("=7 C3 D4", 7).text == "C3 D4"
    assert parse_reply("= ", None).ok
    failure = parse_reply("?3 illegal move", 3)
    assert not failure.ok and failure.text == "illegal move"
    assert parse_reply("=2\n A B\n 1 . .", 2).text.startswith("A B")


@pytest.mark.parametrize("raw", ["garbage", "", "=8 ok", "!1 what"])
def test_parse_reply_garbled(raw):
    with pytest.raises(GarbledReply):
        parse_reply(raw, 1)


# -- the client --------------------------------------------------------------------------------


def test_client_normal_replies():
    with GtpClient(fake_command(), TIMEOUT) as client:
        assert client.send("name").text == "fake"
        assert client.send("play black C3").ok
        assert not client.send("play white C3").ok
        assert client.send("list_stones black").text == "C3"
        assert not client.send("frobnicate").ok


def test_client_hang_is_a_timeout_and_the_client_restarts():
    client = GtpClient(fake_command("--hang", "A1"), TIMEOUT)
    try:
        assert client.send("name").ok
        with pytest.raises(EngineTimeout):
            client.send("play black A1")
        assert not client.alive
        assert client.send("name").text == "fake"  # a fresh process
    finally:
        client.close()


def test_client_crash_names_the_exit_status():
    client = GtpClient(fake_command("--crash", "B2"), TIMEOUT)
    try:
        with pytest.raises(EngineCrashed) as err:
            client.send("play black B2")
        assert "exit status 3" in str(err.value)
        assert not client.alive
        client.restart()
        assert client.send("name").ok
    finally:
        client.close()


def test_client_garbled_and_wrong_id_replies():
    client = GtpClient(fake_command("--garble", "C3", "--wrong-id", "D4"), TIMEOUT)
    try:
        with pytest.raises(GarbledReply):
            client.send("play black C3")
        with pytest.raises(GarbledReply, match="reply id 999"):
            client.send("play black D4")
    finally:
        client.close()


def test_client_cannot_start_a_missing_program(tmp_path):
    client = GtpClient([str(tmp_path / "no-such-engine")], TIMEOUT)
    with pytest.raises(EngineCrashed, match="cannot start"):
        client.send("name")


def test_client_rejects_multi_line_commands():
    with pytest.raises(ValueError):
        GtpClient(fake_command(), TIMEOUT).send("name\nquit")


# -- the adapter and the verify run ------------------------------------------------------------

MISBEHAVING = [
    ("normal1", "D4"),
    ("hang", "A1"),
    ("normal2", "D4"),
    ("crash", "B2"),
    ("garble", "C1"),
    ("normal3", "E5"),
]


def misbehaving_adapter() -> GtpAdapter:
    command = fake_command("--hang", "A1", "--crash", "B2", "--garble", "C1")
    return GtpAdapter(profiles.generic(command), TIMEOUT)


def test_run_survives_hang_crash_and_garble(tmp_path):
    items = plan_items(write_cases(tmp_path, MISBEHAVING))
    adapter = misbehaving_adapter()
    try:
        results = {r.result.case_id: r for r in verify.run_serial(items, adapter)}
    finally:
        adapter.close()
    assert {k: r.result.status for k, r in results.items()} == {
        "fake.normal1": Status.FAIL,  # the fake engine's board differs: W D4 is on it
        "fake.hang": Status.ERROR,
        "fake.normal2": Status.FAIL,
        "fake.crash": Status.ERROR,
        "fake.garble": Status.ERROR,
        "fake.normal3": Status.FAIL,
    }
    assert "EngineTimeout" in results["fake.hang"].result.detail
    assert "EngineCrashed" in results["fake.crash"].result.detail
    assert "GarbledReply" in results["fake.garble"].result.detail
    # a failing normal case failed on the board claim only: the engine was back after each error
    for name in ("fake.normal2", "fake.normal3"):
        assert [m.expected.kind for m in results[name].result.mismatches] == ["board"]
    assert adapter.restarts == 3


def test_parallel_run_gives_the_same_statuses(tmp_path):
    path = write_cases(tmp_path, MISBEHAVING)
    items = plan_items(path)
    spec = "gtp:" + " ".join(fake_command("--hang", "A1", "--crash", "B2", "--garble", "C1"))
    results = sorted(verify.run_parallel(items, spec, TIMEOUT, 2), key=lambda r: r.index)
    statuses = [str(r.result.status) for r in results]
    assert statuses == ["fail", "error", "fail", "error", "error", "fail"]


def test_referee_refuses_out_of_turn_and_reads_captures(tmp_path):
    adapter = GtpAdapter(profiles.generic(fake_command()), TIMEOUT)
    item = plan_items(write_cases(tmp_path, [("x", "C3")]))[0]
    moves = (CaseAction("B", "move", "C3"), CaseAction("B", "move", "D4"), CaseAction("W", "move", "C3"))
    try:
        obs = adapter.observe(item.case.setup, (), moves, item.rules)
    finally:
        adapter.close()
    assert [(s.legal, s.reason) for s in obs.steps] == [
        (True, None),
        (False, "out-of-turn"),
        (False, "occupied"),
    ]
    assert obs.end is not None and obs.end.to_move == "W"


def test_an_engine_without_is_legal_is_tested_with_play(tmp_path):
    """The engine does not list ``is_legal``: ``play`` is the test, and its refusal is observed."""
    adapter = GtpAdapter(profiles.generic(fake_command("--no-is-legal")), TIMEOUT)
    item = plan_items(write_cases(tmp_path, [("x", "C3")]))[0]
    moves = (CaseAction("B", "move", "C3"), CaseAction("W", "move", "C3"), CaseAction("W", "move", "D4"))
    try:
        obs = adapter.observe(item.case.setup, (), moves, item.rules)
    finally:
        adapter.close()
    assert obs.error is None
    assert [(s.legal, s.reason) for s in obs.steps] == [(True, None), (False, "occupied"), (True, None)]


def test_a_plain_gtp_engine_is_compared_on_what_it_decides(tmp_path):
    """No list_commands, is_legal or list_stones: ``play`` is the legality test, the referee keeps
    the board, and the board claims are limited (listed, never compared, never errors)."""
    path = write_cases(tmp_path, [("x", "D4"), ("y", "C3")])
    adapter = GtpAdapter(profiles.generic(fake_command("--plain")), TIMEOUT)
    try:
        results = {r.result.case_id: r for r in verify.run_serial(plan_items(path), adapter)}
    finally:
        adapter.close()
    # x: both moves legal, the board claims not compared; y: W C3 is refused as occupied
    assert results["fake.x"].result.status is Status.PASS
    assert any("board" in d and "list_stones" in d for d in results["fake.x"].limited)
    assert any("captures none" in d for d in results["fake.x"].limited)
    assert results["fake.y"].result.status is Status.FAIL
    assert str(results["fake.y"].result.mismatches[0].expected) == "legal"
    assert any(line.startswith("> ") and "play white C3" in line for line in results["fake.y"].transcript)
    assert any(line.startswith("< ?") for line in results["fake.y"].transcript)


def test_a_refused_board_size_is_a_skip_with_the_reason(tmp_path):
    adapter = GtpAdapter(profiles.generic(fake_command("--refuse-size", "5")), TIMEOUT)
    try:
        (result,) = verify.run_serial(plan_items(write_cases(tmp_path, [("x", "D4")])), adapter)
    finally:
        adapter.close()
    assert result.result.status is Status.SKIP
    assert "refuses board size 5" in result.result.detail and "unacceptable size" in result.result.detail


def test_engine_rules_narrow_the_plan_and_their_absence_is_said(tmp_path, capsys):
    path = tmp_path / "fake.yaml"
    path.write_text(
        write_cases(tmp_path, [("x", "D4")]).read_text().replace("[tromp-taylor]", "[chinese, aga]")
    )
    impl = "gtp:" + " ".join(fake_command())
    out = tmp_path / "out"
    main(["verify", "--impl", impl, str(path), "--engine-rules", "chinese", "--report-dir", str(out)])
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    outcomes = {r["ruleset"]: (r["outcome"], r["detail"]) for r in report["results"]}
    assert "aga" not in outcomes  # not planned: the engine plays chinese only (nor in the table)
    assert outcomes["chinese"][0] != "skip" and report["notes"] == []
    main(["verify", "--impl", impl, str(path), "--report-dir", str(out)])
    assert "--engine-rules" in capsys.readouterr().err
    assert "--engine-rules" in json.loads((out / "report.json").read_text(encoding="utf-8"))["notes"][0]
    assert main(["verify", "--impl", impl, str(path), "--engine-rules", "chinese,nosuch"]) == 2
    assert "'nosuch' is not a preset" in capsys.readouterr().err


# -- outcomes, expected failures, limits -------------------------------------------------------


def test_expected_failure_patterns_and_outcomes():
    listed = verify.parse_expected_failures("# comment\nko.simple.00[12][japanese]\nsk.*  # all\n", "x.txt")
    assert listed.match("ko.simple.001", "japanese") == "ko.simple.00[12][japanese]"
    assert listed.match("ko.simple.001", "chinese") is None
    assert listed.match("sk.multi.001", "ing") == "sk.*"
    assert verify.outcome_of(Status.FAIL, True) is verify.Outcome.EXPECTED_FAILURE
    assert verify.outcome_of(Status.FAIL, False) is verify.Outcome.UNEXPECTED_FAILURE
    assert verify.outcome_of(Status.PASS, True) is verify.Outcome.UNEXPECTED_PASS
    assert verify.outcome_of(Status.SKIP, True) is verify.Outcome.SKIP  # a skip is never a pass
    assert verify.outcome_of(Status.ERROR, True) is verify.Outcome.ERROR
    assert verify.outcome_of(Status.OPEN, False) is verify.Outcome.OPEN


def test_bad_expected_failure_line_names_the_line():
    with pytest.raises(verify.InputError, match=r"x\.txt:2:1"):
        verify.parse_expected_failures("ok.case\nbad case\n", "x.txt")


def test_limit_drops_only_referee_claims():
    steps = (
        StepVerdict(1, ((Claim("illegal", ("out-of-turn",)), Claim("to-move", ("W",))),)),
        StepVerdict(2, ((Claim("legal"),),)),
        StepVerdict(3, ((Claim("illegal", ("game-over",)),),)),
    )
    expectation = Expectation("default", steps, EndVerdict("halted", ("two-passes",)))
    moves = (CaseAction("B", "pass"), CaseAction("W", "pass"), CaseAction("B", "move", "C3"))
    limited = limits.limit(expectation, moves)
    assert [v.step for v in limited.expectation.steps] == [2]
    assert limited.expectation.end is None
    assert len(limited.dropped) == 3
    only_referee = Expectation("default", steps[:1], None)
    assert limits.limit(only_referee, moves).empty


# -- the command -------------------------------------------------------------------------------


def test_verify_command_streams_and_writes_reports(tmp_path, capsys):
    path = write_cases(tmp_path, MISBEHAVING)
    out = tmp_path / "out"
    impl = "gtp:" + " ".join(fake_command("--hang", "A1", "--crash", "B2", "--garble", "C1"))
    status = main(
        ["verify", "--impl", impl, str(path), "--timeout", str(TIMEOUT), "-q", "--report-dir", str(out)]
    )
    assert status == 1
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(MISBEHAVING)
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["summary"]["error"] == 3 and report["summary"]["unexpected-failure"] == 3
    assert "<html" in (out / "report.html").read_text(encoding="utf-8")
    assert "<testsuites" in (out / "report.xml").read_text(encoding="utf-8")
    assert "3 error" in capsys.readouterr().out


def test_verify_command_bad_impl_is_exit_2(capsys):
    assert main(["verify", "--impl", "nonsense"]) == 2
    assert "jpd: error: --impl 'nonsense'" in capsys.readouterr().err


def test_malformed_observation_is_an_error_not_a_traceback(tmp_path):
    from jpdtools.run.adapters import Capabilities, Observation, StepObservation

    class Sloppy:
        name = "sloppy"

        def capabilities(self):
            return Capabilities()

        def observe(self, setup, history, moves, rules):
            step = StepObservation("B C3", True, "played", None, (), (), None, "")  # to_move missing
            return Observation("", (step,))

    item = plan_items(write_cases(tmp_path, [("x", "D4")]))[0]
    result = verify.verify_item(item, Sloppy())
    assert result.outcome is verify.Outcome.ERROR
    assert "malformed observation" in result.result.detail


# -- the count: komi, final_score, limits ------------------------------------------------------

COUNT_CASES = """\
format: 1
topic: fake engine counts
cases:
  - id: fake.count.empty
    title: An empty 3x3 board counted through final_score
    spec: [count.area]
    seeds: ["test"]
    rules: [chinese, japanese, aga, wmsg-2008, tromp-taylor]
    board: |
      3x3
      . . .
      . . .
      . . .
    moves: ""
    expect:
      chinese: |
        count: winner W margin -7.5 black 4.5 white 4.5 unit 子
        point: B2 none dame
      japanese: |
        count: winner W margin -6.5 black 0 white 0 unit 目
      aga: |
        count: winner W margin -7.5
      wmsg-2008: |
        count: error no-first-pass
      tromp-taylor: |
        count: winner draw margin 0 black 0 white 0
  - id: fake.count.dead
    title: A dead stone cannot be told through GTP
    spec: [count.area]
    seeds: ["test"]
    rules: [chinese]
    board: |
      3x3
      . . .
      . x .
      . . .
    moves: ""
    expect:
      chinese: |
        count: winner W margin -7.5
  - id: fake.count.prisoners
    title: Prisoners set by the case are the engine's own count under Japanese rules
    spec: [count.japanese]
    seeds: ["test"]
    rules: [chinese, japanese]
    board: |
      3x3
      . . .
      . . .
      . . .
    moves: ""
    counters:
      prisoners: [1, 0]
    expect:
      chinese: |
        count: winner W margin -7.5
      japanese: |
        count: winner W margin -5.5
"""


def counting_adapter(score: str) -> GtpAdapter:
    profile = profiles.GtpProfile(
        name="fake-counter",
        command=tuple(fake_command("--score", score)),
        max_size=19,
        counted=frozenset({"area", "japanese"}),
    )
    return GtpAdapter(profile, TIMEOUT)


def count_results(tmp_path: Path, score: str) -> dict[tuple[str, str], verify.VerifyResult]:
    path = tmp_path / "count.yaml"
    path.write_text(COUNT_CASES, encoding="utf-8")
    adapter = counting_adapter(score)
    try:
        return {(r.result.case_id, r.result.ruleset): r for r in verify.run_serial(plan_items(path), adapter)}
    finally:
        adapter.close()


def test_final_score_reply_is_winner_and_margin():
    assert score.parse_score("B+3.5") == ("B", Fraction(7, 2))
    assert score.parse_score("W+0.5") == ("W", Fraction(-1, 2))
    assert score.parse_score(" 0 ") == ("draw", Fraction(0))
    assert score.parse_score("W+12") == ("W", Fraction(-12))


@pytest.mark.parametrize("text", ["", "B+", "X+1.5", "W+0.0", "B+3.5 extra", "jigo", "B+-1"])
def test_garbled_final_score_reply(text):
    with pytest.raises(GarbledReply):
        score.parse_score(text)


def test_score_seed_follows_what_gnugo_does_not_cache_on():
    seed = score.score_seed("7.5", "B", (0, 0), 3)
    assert seed == score.score_seed("7.5", "B", (0, 0), 3)
    assert seed != score.score_seed("5.5", "B", (0, 0), 3)  # the same board with another komi
    assert seed != score.score_seed("7.5", "B", (1, 0), 3)
    assert score.score_seed("7.5", "B", (0, 0), 0) == score.score_seed("7.5", "W", (0, 0), 0)


def test_count_is_asked_with_the_rulesets_komi(tmp_path):
    # the fake engine answers W+<komi>: an even board, so the margin is minus the komi sent
    results = count_results(tmp_path, "W+{komi}")
    status = {key: r.result.status for key, r in results.items()}
    assert status[("fake.count.empty", "chinese")] is Status.PASS  # komi 7.5 (chinese-3.75)
    assert status[("fake.count.empty", "japanese")] is Status.PASS  # komi 6.5
    assert status[("fake.count.empty", "aga")] is Status.PASS  # komi 7.5 (aga-7.5)
    assert status[("fake.count.prisoners", "chinese")] is Status.PASS
    chinese = results[("fake.count.empty", "chinese")]
    assert any("figures and unit" in line for line in chinese.limited)
    assert any(line.startswith("point: B2") for line in chinese.limited)
    count = chinese.result.observation.count
    assert (count.winner, count.margin, count.black, count.unit) == ("W", Fraction(-15, 2), None, None)
    # not asked: the komi rule's refusal, an unsupported method, a dead stone, given prisoners
    for key, why in [
        (("fake.count.empty", "wmsg-2008"), "harness's decision"),
        (("fake.count.empty", "tromp-taylor"), "tromp-taylor counting method"),
        (("fake.count.dead", "chinese"), "dead stones"),
        (("fake.count.prisoners", "japanese"), "prisoners"),
    ]:
        assert status[key] is Status.SKIP, key
        assert any(why in line for line in results[key].limited), results[key].limited


def test_a_wrong_count_fails_and_a_garbled_one_is_an_error(tmp_path):
    wrong = count_results(tmp_path, "B+3.5")[("fake.count.empty", "chinese")]
    assert wrong.result.status is Status.FAIL
    assert [str(m) for m in wrong.result.mismatches] == [
        "count: expected count winner W margin -7.5, observed count winner B margin 3.5"
    ]
    garbled = count_results(tmp_path, "banana")[("fake.count.empty", "japanese")]
    assert garbled.result.status is Status.ERROR
    assert "GarbledReply" in garbled.result.detail and "banana" in garbled.result.detail


def test_limit_count_keeps_winner_and_margin_only():
    claim = CountClaim("result", "B", Fraction(3, 2), Fraction(10), Fraction(8), "子")
    expectation = Expectation(
        "default", (), None, count=CountVerdict((claim,)), points=(PointVerdict(("A1",), "B", "territory"),)
    )
    kept = limits.limit_count(expectation, None)
    assert kept.expectation.count.alternatives == (CountClaim("result", "B", Fraction(3, 2)),)
    assert kept.expectation.points == () and len(kept.dropped) == 2 and not kept.empty
    refused = limits.limit_count(expectation, "the agreement marks seki")
    assert refused.empty and all("seki" in line for line in refused.dropped)
    error = replace(expectation, count=CountVerdict((CountClaim("error", code="no-first-pass"),)))
    assert limits.limit_count(error, None).empty
