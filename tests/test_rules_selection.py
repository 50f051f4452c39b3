"""One ruleset-selection syntax for every command (spec/contract.md#contract.rulesets)."""

import json
import shlex
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from jpdref.rules import AXES, RulesError, axis_choices
from jpdtools.cli import main
from jpdtools.errors import InputError, NothingSelected
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets, parse_selection, ruleset_specs
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.oracle import DERIVED
from jpdtools.run.runner import (
    Filters,
    default_loader,
    load_files,
    make_plan,
    plan_paths,
    run_plan,
    selection_filters,
)

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


def test_a_variant_plans_every_case_its_preset_plans():
    loader = default_loader()
    preset = plan_paths([conformance_dir()], PRESETS, selection_filters(["japanese"], PRESETS), loader)
    filters = selection_filters(["japanese:illegal-move=refuse"], PRESETS)
    variant = plan_paths([conformance_dir()], PRESETS, filters, loader)
    assert not variant.undetermined
    assert [i.case.id for i in variant.items] == [i.case.id for i in preset.items]


def test_a_variant_no_case_text_decides_takes_the_references_verdicts():
    # rep.false-life.immediate has texts for simple ko with loss and for void-pass, none for
    # simple ko with plain refusal: the reference under the variant refuses the ko recapture
    filters = selection_filters(["japanese:illegal-move=refuse"], PRESETS, ids=("rep.false-life.immediate",))
    (item,) = plan_paths([conformance_dir()], PRESETS, filters, default_loader()).items
    assert item.expectation.selector == DERIVED
    assert [str(v) for v in item.expectation.steps] == ["1: illegal ko"]
    assert str(item.expectation.end) == "end: contest B"


def test_a_derived_step_claims_no_side_to_move_once_play_has_ended():
    # b19.illegal.ko.001's default text refuses the retake "to-move W"; under the loss policy the
    # reference forfeits it and the game is over: whose turn it is then means nothing (jsonl.v4)
    variant = "tromp-taylor:repetition=simple-ko,suicide=forbidden,cycle=draw,illegal-move=loss"
    filters = selection_filters([variant], PRESETS, ids=("b19.illegal.ko.001",))
    (item,) = plan_paths([conformance_dir()], PRESETS, filters, default_loader()).items
    assert item.expectation.selector == DERIVED
    assert [str(v) for v in item.expectation.steps][:2] == ["1: legal captures B4", "2: forfeit ko"]
    assert str(item.expectation.end) == "end: ended illegal-move B"


def test_a_case_text_the_reference_contradicts_is_reported_and_the_item_held_to_the_reference(tmp_path):
    # the text for simple ko claims a forfeit for every simple-ko ruleset, with its depends naming
    # repetition only: under japanese:illegal-move=refuse the reference refuses without a forfeit
    (tmp_path / "ko.yaml").write_text(
        """format: 1
topic: a depends too short
cases:
  - id: ko.short-depends
    title: A ko recapture
    spec: [rep.simple-ko]
    seeds: ["J1989 Art. 6"]
    depends: [repetition]
    rules: [japanese, chinese]
    board: |
      5x5 B
      . . . . .
      . X O . .
      X O . O .
      . X O . .
      . . . . .
    history: B C3
    moves: W B3
    expect:
      japanese: |
        1: forfeit ko
      default: |
        1: illegal superko
""",
        encoding="utf-8",
    )
    filters = selection_filters(["japanese:illegal-move=refuse"], PRESETS)
    plan = plan_paths([tmp_path], PRESETS, filters, default_loader())
    ((case_id, ruleset, what),) = plan.contradicted
    assert (case_id, ruleset) == ("ko.short-depends", "japanese:illegal-move=refuse")
    assert "disagrees with the reference: step 1: expected forfeit ko, observed illegal ko" in what
    (item,) = [i for i in plan.items if i.ruleset == ruleset]
    assert [str(v) for v in item.expectation.steps] == ["1: illegal ko"]
    assert "ko.short-depends" in plan.contradicted_note()


AXIS_VALUES = {axis: axis_choices(axis) for axis in AXES if axis != "komi"} | {
    "komi": ["0", "7", "chinese-3.75"]
}


@st.composite
def variants(draw):
    base = draw(st.sampled_from(PRESETS.rulesets))
    axes = draw(st.lists(st.sampled_from(sorted(AXIS_VALUES)), min_size=1, max_size=4, unique=True))
    overrides = {a: draw(st.sampled_from(AXIS_VALUES[a])) for a in axes}
    overrides = {a: v for a, v in overrides.items() if str(base.value(a)) != v}
    assume(overrides)
    try:
        return base.with_values(overrides)
    except RulesError:
        assume(False)


SUITE_FILES = None


def suite_files():
    global SUITE_FILES
    if SUITE_FILES is None:
        SUITE_FILES = load_files([conformance_dir()], PRESETS, default_loader())[0]
    return SUITE_FILES


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants())
def test_the_reference_passes_the_whole_suite_under_every_legal_variant(variant):
    loader = default_loader()
    filters = Filters(rules=(variant.name,), variants=(variant,))
    plan = make_plan(suite_files(), PRESETS, filters, loader)
    run = run_plan(plan, ReferenceAdapter(), PRESETS, loader)
    bad = [
        f"{r.name}: {r.detail or '; '.join(map(str, r.mismatches))}"
        for r in run.results
        if r.status in ("fail", "error")
    ]
    assert not bad, bad
    assert len(plan.items) > 0


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
    assert status == 1  # every item it played excused, none passed: not OK unless said
    assert json.loads(capsys.readouterr().out)["summary"]["shortfall"].startswith("no item passed")
    argv.append("--allow-no-pass")
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
    out = tmp_path / "findings"
    argv = ["fuzz", "--impl", impl(), "--rules", "japanese+chinese", "--games", "2", "-q", "-o", str(out)]
    assert main(argv) == 0  # several rulesets share the budget, in turn
    assert "2 games under japanese+chinese" in capsys.readouterr().out
