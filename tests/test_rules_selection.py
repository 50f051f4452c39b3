"""One ruleset-selection syntax for every command (spec/contract.md#contract.rulesets)."""

import json
import shlex
import sys
from pathlib import Path

import pytest
from jpdtools.cli import main
from jpdtools.errors import InputError, NothingSelected
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets, parse_selection, ruleset_specs
from jpdtools.run.runner import default_loader, plan_paths, selection_filters

PRESETS = load_presets()
PROGRAM = Path(__file__).with_name("reference_program.py")


def names(*values: str) -> list[str] | None:
    chosen = parse_selection(values, PRESETS)
    return None if chosen is None else [r.name for r in chosen]


def test_lists_and_overrides_cannot_collide():
    assert names("japanese:illegal-move=refuse,komi=0+chinese") == [
        "japanese:illegal-move=refuse,komi=0",
        "chinese",
    ]
    assert names("wmsg-2008:repetition=simple-ko,cycle=draw") == ["wmsg-2008:repetition=simple-ko,cycle=draw"]
    assert names("japanese+chinese", "japanese") == ["japanese", "chinese"]
    assert names("all") is None


def test_the_older_spellings_still_work_where_unambiguous():
    assert names("japanese,chinese") == names("japanese chinese") == ["japanese", "chinese"]
    assert names("japanese:komi=0,chinese") == ["japanese:komi=0", "chinese"]
    assert ruleset_specs("aga:komi=0,counting=japanese,ing") == ["aga:komi=0,counting=japanese", "ing"]


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("japanes", "in 'japanes': unknown ruleset 'japanes' (did you mean 'japanese'?)"),
        ("japanese:komi", "override 'komi' is not of the form axis=value"),
        ("japanese,komi=0", "'komi=0' is an override with no ruleset before it (write NAME:komi=0)"),
        ("japanese:colour=red", "unknown axis 'colour'"),
        ("wmsg-2008:repetition=simple-ko", "cycle is draw or no-result exactly when repetition is simple-ko"),
        ("japanese:", "'japanese:' is not NAME or NAME:axis=value"),
        ("all+chinese", "'all' cannot be combined"),
        ("japanese:komi=0,komi=7", "axis 'komi' given twice"),
    ],
)
def test_every_error_names_the_part_at_fault(value, says):
    with pytest.raises(InputError) as err:
        parse_selection([value], PRESETS)
    assert says in err.value.message and repr(value) in err.value.message
    assert str(err.value.message).startswith(f"--rules {value!r}")


def test_an_empty_selection_selects_nothing():
    with pytest.raises(NothingSelected):
        parse_selection(["+"], PRESETS)


def test_a_variant_takes_the_verdict_of_the_rulesets_agreeing_on_the_cases_depends():
    filters = selection_filters(
        ["japanese:illegal-move=refuse"], PRESETS, ids=("ko.simple.001", "handicap.free.010")
    )
    plan = plan_paths([conformance_dir()], PRESETS, filters, default_loader())
    (item,) = plan.items  # handicap.free.010 does not apply to japanese: not planned for its variant
    assert item.ruleset == "japanese:illegal-move=refuse"
    assert item.rules.value("illegal-move") == "refuse"
    # ko.simple.001 depends on repetition and illegal-move: its repetition=simple-ko text, not japanese's
    assert [str(v) for v in item.expectation.steps] == ["1: legal captures C4", "2: illegal ko to-move W"]
    assert item.features == {"setup-stones", "illegal-move-refuse"}


def test_a_case_whose_verdicts_do_not_decide_a_variant_is_left_out_and_counted():
    filters = selection_filters(["tromp-taylor:komi=7"], PRESETS)
    plan = plan_paths([conformance_dir()], PRESETS, filters, default_loader())
    assert plan.undetermined and all(name == "tromp-taylor:komi=7" for _, name in plan.undetermined)
    assert "not planned, no verdict for the ruleset (tromp-taylor:komi=7: " in plan.undetermined_note()


def impl(*flags: str) -> str:
    return "jsonl:" + shlex.join([sys.executable, str(PROGRAM), *flags])


def test_verify_compares_a_variant_with_exactly_its_values(capsys, tmp_path):
    argv = ["verify", "--rules", "japanese:illegal-move=refuse", "--id", "ko.simple.*", "--json"]
    assert main([*argv, "--impl", impl()]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {r["ruleset"] for r in report["results"]} == {"japanese:illegal-move=refuse"}
    assert report["summary"]["pass"] >= 3
    # a program that plays the preset and ignores the override forfeits where it must refuse
    assert main([*argv, "--impl", impl("--bug", "preset-only")]) == 1
    failed = [
        r for r in json.loads(capsys.readouterr().out)["results"] if r["outcome"] == "unexpected-failure"
    ]
    expected = {(m["expected"], m["observed"]) for r in failed for m in r["mismatches"]}
    assert ("contest W", "ended illegal-move B") in expected
    listed = tmp_path / "expected.txt"
    listed.write_text("ko.simple.*[japanese:illegal-move=refuse]\n", encoding="utf-8")
    status = main([*argv, "--impl", impl("--bug", "preset-only"), "--expected-failures", str(listed)])
    assert status == 0 and json.loads(capsys.readouterr().out)["summary"]["expected-failure"] == len(failed)


def test_play_count_and_fuzz_read_the_same_syntax(capsys, tmp_path):
    board = tmp_path / "ko.txt"
    board.write_text("5x5 B\n. . . . .\n. X O . .\nX O . O .\n. X O . .\n. . . . .\n", encoding="utf-8")
    rules = "japanese:illegal-move=refuse+chinese,tromp-taylor"
    assert main(["play", "--rules", rules, str(board), "--moves", "B C3 W B3", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert [p["rules"] for p in played] == ["japanese:illegal-move=refuse", "chinese", "tromp-taylor"]
    assert main(["count", "--rules", "japanese,chinese:komi=0", str(board)]) == 0
    assert "chinese:komi=0" in capsys.readouterr().out
    assert main(["fuzz", "--impl", impl(), "--rules", "japanese+chinese"]) == 2
    assert "fuzzing plays one ruleset, not 2" in capsys.readouterr().err
