"""`jpd fuzz`: seeded random games, compared with the reference, shrunk to a proposed case.

The two bugs of issue 9 are found on their own: Leela Zero's missing ko check (the real engine,
through GTP) and a JSON-lines program that allows multi-stone suicide (the reference behind the
protocol with that one bug, tests/reference_program.py). Each shrunk case loads under `jpd run`
(the reference passes it) and fails under `jpd verify` the way the fuzzer saw. `--seconds` bounds
each search; no test asserts on time.
"""

import json
import os
import random
import shlex
import sys
from pathlib import Path

import pytest
from jpdref.rules import preset
from jpdtools.cli import main
from jpdtools.suite.model import CaseFile
from jpdtools.suite.writer import dump_case_file
from jpdtools.verify import fuzz
from jpdtools.verify.implementations import load_module
from jpdtools.verify.verification import close_impl, open_impl

TINY = load_module("leela-zero", "tiny_network.py")
leelaz_binary, leelaz_command, write_network = TINY.leelaz_binary, TINY.leelaz_command, TINY.write_network

PROGRAM = Path(__file__).with_name("reference_program.py")


def reference_impl(*flags: str) -> str:
    return "jsonl:" + shlex.join([sys.executable, str(PROGRAM), *flags])


def test_games_are_reproducible_from_their_seed():
    rules = preset("chinese")
    one = fuzz.random_game(rules, 9, random.Random(7), 80)
    assert one == fuzz.random_game(rules, 9, random.Random(7), 80)
    assert one != fuzz.random_game(rules, 9, random.Random(8), 80)


def test_the_exact_reference_finds_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    status = main(
        ["fuzz", "--impl", reference_impl(), "--rules", "chinese", "--games", "4", "--out", str(out)]
    )
    assert status == 0, capsys.readouterr()
    assert not out.exists() or not list(out.iterdir())


def test_fuzz_finds_a_planted_count_bug(tmp_path, capsys):
    # every step agrees; the program counts without komi: found at the first game that halts
    out = tmp_path / "out"
    impl = reference_impl("--bug", "no-komi")
    argv = ["fuzz", "--impl", impl, "--rules", "chinese", "--size", "5", "--games", "300", "--out", str(out)]
    status = main([*argv, "--seconds", "60", "-q"])
    printed = capsys.readouterr().out
    assert status == 1, printed
    (case,) = out.iterdir()
    text = case.read_text(encoding="utf-8")
    assert "end: halted two-passes" in text and "count: winner" in text and "spec: [count.area]" in text
    # shrunk as a step finding is: the shortest tail that still halts and miscounts (two passes)
    (shrunk,) = [line.split("moves:")[1].split() for line in text.splitlines() if "moves:" in line]
    assert len(shrunk) // 2 == 2, text  # two actions (a colour and an action each)
    assert "(5x5, 2 actions)" not in text  # of a longer game (the note gives its length)
    assert main(["run", str(out), "-q"]) == 0  # the reference's verdicts: the case passes it


def test_fuzz_compares_no_side_to_move_once_the_game_is_over():
    rules = preset("japanese")
    # a forfeited ko recapture ends the game: the last step claims no to-move, the end is claimed
    setup = fuzz.Setup(
        5, 5, "B", (("B4", "B"), ("A3", "B"), ("B2", "B"), ("C4", "W"), ("B3", "W"), ("C2", "W"), ("D3", "W"))
    )
    moves = (fuzz.CaseAction("B", "move", "C3"), fuzz.CaseAction("W", "move", "B3"))
    expectation = fuzz.reference_expectation(fuzz.Trial(setup, moves), rules)
    last = expectation.steps[-1].alternatives[0]
    assert [c.kind for c in last] == ["forfeit", "board"]
    assert str(expectation.end) == "end: ended illegal-move B"


def test_a_program_that_accepts_every_action_is_found(tmp_path, capsys):
    """It declares only ``legal`` (issue 25: a check that could not fail)."""
    out = tmp_path / "out"
    impl = "jsonl:" + shlex.join([sys.executable, str(Path(__file__).with_name("legal_only_program.py"))])
    argv = ["fuzz", "--impl", impl, "--rules", "japanese", "--games", "20", "--keep-going", "--out", str(out)]
    status = main([*argv, "--seconds", "60", "-q"])
    printed = capsys.readouterr().out
    assert status == 1, printed
    texts = [f.read_text(encoding="utf-8") for f in out.iterdir()]
    assert len(texts) >= 2 and any("forfeit suicide" in t for t in texts), printed
    assert any("spec: [rep.simple-ko]" in t or "spec: [play.move]" in t for t in texts), printed


def test_a_jsonl_program_allowing_multi_stone_suicide_is_caught_and_shrunk(tmp_path, capsys):
    out = tmp_path / "out"
    impl = reference_impl("--bug", "multi-suicide")
    status = main(["fuzz", "--impl", impl, "--rules", "chinese", "--seconds", "60", "--out", str(out), "-q"])
    printed = capsys.readouterr().out
    assert status == 1, printed
    (case_file,) = out.iterdir()
    text = case_file.read_text(encoding="utf-8")
    assert "status: proposed" in text and "spec: [capture.suicide]" in text
    assert "void-pass suicide" in text
    # the shrunk case: one move, a suicide of more than one stone
    assert text.count("moves:") == 1 and len(text.split("moves:")[1].splitlines()[0].split()) == 2
    assert main(["run", str(case_file)]) == 0  # the reference agrees with its own verdicts
    capsys.readouterr()
    assert main(["verify", "--impl", impl, str(case_file), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    (result,) = report["results"]
    assert result["outcome"] == "unexpected-failure"
    assert (
        result["mismatches"][0]["expected"] == "void-pass suicide"
        and result["mismatches"][0]["observed"] == "legal"
    )


@pytest.fixture(scope="module")
def leelaz(tmp_path_factory):
    binary = leelaz_binary()
    if binary is None:
        message = "Leela Zero is not installed (apt-get install leela-zero): the fuzz test did not run"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    network = write_network(tmp_path_factory.mktemp("leela") / "network.txt")
    return "gtp:" + shlex.join(leelaz_command(network, binary))


def test_leela_zeros_missing_ko_check_is_found_and_shrunk(leelaz, tmp_path, capsys):
    rules = preset("chinese")
    adapter = open_impl(leelaz, 10.0, frozenset({"chinese"}))
    try:
        found = None
        for event in fuzz.fuzz(adapter, rules, (9, 19), seed=1, seconds=60, keep_going=True):
            assert event.kind != "error", event.text
            if event.kind == "finding" and event.finding is not None and event.finding.kind == "ko":
                found = event.finding
                break
    finally:
        close_impl(adapter)
    assert found is not None, "no ko finding within 60 s"
    assert len(found.shrunk.moves) == 2  # the capture and the immediate retake
    case = fuzz.finding_case(found, rules, leelaz)
    path = tmp_path / f"{case.id}.yaml"
    path.write_text(dump_case_file(CaseFile(str(path), 1, "fuzz", (case,))), encoding="utf-8")
    assert main(["run", str(path)]) == 0
    capsys.readouterr()
    assert main(["verify", "--impl", leelaz, "--engine-rules", "chinese", str(path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    (result,) = report["results"]
    assert [(m["step"], m["expected"], m["observed"]) for m in result["mismatches"]][:1] == [
        (2, "void-pass superko", "legal")
    ]
