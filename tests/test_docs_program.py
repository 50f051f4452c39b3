"""A program written only from the protocol documentation passes first time (issue 21, done-when):
examples/board_program.py, standard library only, declaring its rule features (protocol 3)."""

import json
import shlex
import sys
from pathlib import Path

from jpdtools.cli import main

PROGRAM = [sys.executable, str(Path(__file__).resolve().parents[1] / "examples" / "board_program.py")]
SHAPE = "japanese:illegal-move=refuse+jpd-art-2008:illegal-move=refuse"  # the library shape


def impl(*flags: str) -> str:
    return "jsonl:" + shlex.join([*PROGRAM, *flags])


def test_a_program_written_from_the_docs_passes_what_it_declares(capsys):
    assert main(["verify", "--impl", impl(), "--rules", SHAPE, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert summary["unexpected-failure"] == summary["error"] == 0 and summary["ok"]
    assert summary["played"] >= 80  # ko, suicide, captures, occupied, off-board, set-up stones
    causes = summary["skipped_by_cause"]
    assert any(cause.startswith("lacks feature") for cause in causes)


def test_its_ko_bug_is_caught_by_verify_and_by_fuzz(tmp_path, capsys):
    assert main(["verify", "--impl", impl("--forget-ko"), "--rules", SHAPE, "--json"]) == 1
    causes = json.loads(capsys.readouterr().out)["root_causes"]
    assert causes[0]["expected"] == "illegal ko" and causes[0]["clause"] == "rep.simple-ko"
    out = tmp_path / "fuzz"
    argv = ["fuzz", "--impl", impl("--forget-ko"), "--rules", "japanese:illegal-move=refuse"]
    argv += ["--out", str(out)]
    assert main([*argv, "--seconds", "60", "-q"]) == 1
    (found,) = out.iterdir()
    assert "illegal ko" in found.read_text(encoding="utf-8")


def test_fuzz_finds_nothing_in_the_correct_program(tmp_path, capsys):
    argv = ["fuzz", "--impl", impl(), "--rules", "japanese:illegal-move=refuse", "--games", "12"]
    assert main([*argv, "--out", str(tmp_path / "fuzz"), "-q"]) == 0, capsys.readouterr()
