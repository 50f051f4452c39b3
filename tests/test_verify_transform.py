"""Items given under board symmetries and colour swap: the second pass of a plain ``jpd verify``, and
``--transform SEED`` (spec/contract.md#contract.transform, tools/jpdtools/run/transform.py)."""

import io
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from jpdref.coords import Geometry
from jpdref.rules import preset
from jpdtools.cli import main
from jpdtools.errors import InputError, Location
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.runner import default_loader, plan_paths, selection_filters
from jpdtools.run.transform import (
    IDENTITY,
    RECTANGLE_SYMMETRIES,
    SYMMETRIES,
    Item,
    Symmetry,
    Transform,
    choose,
    observation_back,
    parse_transform,
    seeded_order,
    transform_item,
    transforms_of,
)
from jpdtools.suite.model import Expectation
from jpdtools.suite.setup import CaseAction, Setup
from jpdtools.verify.verification import DEFAULT_TRANSFORM_SEED, SAMPLE_ONE_IN, parse_expected_failures

CHEATER = Path(__file__).with_name("cheating_program.py")
REFERENCE = Path(__file__).with_name("reference_program.py")
CAPTURES = conformance_dir() / "captures.yaml"
KO = conformance_dir() / "ko.yaml"
NOTHING = Expectation("", (), None)
RECORD = shlex.quote("import json, sys; print(json.dumps([sys.argv[1:], sys.stdin.read()]))")


def verify(capsys, *args: str) -> tuple[int, dict]:
    status = main(["verify", "--json", *args])
    return status, json.loads(capsys.readouterr().out)


def every_transform(width: int, height: int) -> list[Transform]:
    names = (IDENTITY, *(SYMMETRIES if width == height else RECTANGLE_SYMMETRIES))
    return [Transform(n, swap) for n in names for swap in (False, True)]


@pytest.mark.parametrize("size", [(5, 5), (9, 9), (7, 4), (2, 6)])
def test_each_symmetry_is_undone_by_its_inverse_and_moves_every_point(size):
    width, height = size
    source = Geometry(width, height)
    for t in every_transform(width, height):
        sym = t.of(Setup(width, height))
        images = [sym.point(p) for p in range(source.area)]
        assert sorted(images) == list(range(sym.target.area))  # a bijection onto the target board
        back = sym.inverse()
        assert all(back.point(sym.point(p)) == p for p in range(source.area)), t.name
        assert parse_transform(t.name) == t


def test_the_symmetries_are_the_ones_named():
    sym = Symmetry("rotate-90", 5, 5)  # a quarter turn clockwise: the upper left goes to the upper right
    assert sym.vertex("A5") == "E5" and sym.vertex("E5") == "E1"
    assert Symmetry("mirror", 5, 5).vertex("A2") == "E2"
    assert Symmetry("flip", 5, 5).vertex("A2") == "A4"
    assert Symmetry("transpose", 5, 5).vertex("B5") == "A4"
    assert Symmetry("antitranspose", 5, 5).vertex("A5") == "E1"
    assert (
        Symmetry("rotate-180", 7, 4).board("X....../......./......./......O")
        == "O....../......./......./......X"
    )
    with pytest.raises(ValueError, match="not a transform"):
        parse_transform("rotate-45")


def test_a_rectangle_is_offered_only_what_keeps_its_shape_and_counts_never_swap_colours():
    rules = preset("chinese")
    offered, note = transforms_of(Setup(7, 4), rules, NOTHING)
    assert {t.name for t in offered} == {"rotate-180", "mirror", "flip", "colours"} | {
        f"{n}+colours" for n in ("rotate-180", "mirror", "flip")
    }
    assert "7x4" in note
    from jpdtools.suite.setup import FinalSpec

    counted, note = transforms_of(Setup(5, 5, final=FinalSpec()), rules, NOTHING)
    assert len(counted) == 7 and not any(t.swap for t in counted) and "komi is White's" in note
    aga, note = transforms_of(Setup(5, 5), preset("aga"), NOTHING)
    assert not any(t.swap for t in aga) and "White passes last" in note


def test_a_fixed_handicap_is_offered_only_the_symmetries_that_keep_its_points():
    japanese = preset("japanese")  # handicap: fixed
    three, note = transforms_of(Setup(19, 19, handicap=3), japanese, NOTHING)
    assert [t.name for t in three] == ["transpose"]  # Q16 D4 Q4 only onto themselves about A19–T1
    assert "Black's" in note
    free = preset("chinese")  # handicap: free: the stones are moves, and move with the board
    assert len(transforms_of(Setup(19, 19, handicap=3), free, NOTHING)[0]) == 7
    item = Item(Setup(19, 19, handicap=3), (), ())
    moved = transform_item(three[0], item)
    reference = ReferenceAdapter()
    assert (
        reference.observe(moved.setup, (), (), japanese).initial_board
        == reference.observe(item.setup, (), (), japanese).initial_board
    )


def test_the_reference_observed_under_any_transform_maps_back_to_its_observation():
    """A capture, a ko refusal and a pass (captures, boards, side to move, end state, colours)."""
    setup = Setup(5, 5, "B", (("A1", "B"), ("B2", "B"), ("B1", "W"), ("C2", "W"), ("D1", "W")))
    moves = tuple(
        CaseAction(c, k, v)
        for c, k, v in (("B", "move", "C1"), ("W", "move", "B1"), ("W", "pass", None), ("B", "move", "E5"))
    )
    item = Item(setup, (), moves)
    rules = preset("japanese")
    reference = ReferenceAdapter()
    plain = reference.observe(setup, (), moves, rules)
    assert plain.steps[0].captures == ("B1",) and plain.steps[1].reason == "ko"
    for t in every_transform(5, 5):
        moved = transform_item(t, item)
        assert observation_back(t, setup, reference.observe(moved.setup, (), moved.moves, rules)) == plain, (
            t.name
        )


def test_the_draw_is_the_seeds_and_skips_what_no_transform_keeps():
    offered = tuple(every_transform(9, 9)[2:])
    assert seeded_order("s", "ko.simple.001", "chinese", offered) == seeded_order(
        "s", "ko.simple.001", "chinese", offered
    )
    orders = {seeded_order(seed, "ko.simple.001", "chinese", offered)[0] for seed in map(str, range(40))}
    assert len(orders) > 5  # the seed decides
    presets = load_presets()
    plan = plan_paths([KO], presets, selection_filters([], presets), default_loader())
    item = next(i for i in plan.items if i.rules is not None)
    given = Item(item.case.setup, item.case.history, item.case.moves)
    a = choose("a", item.case.id, item.ruleset, item.expectation, given, item.rules)
    assert a == choose("a", item.case.id, item.ruleset, item.expectation, given, item.rules)
    assert a.transform is not None and a.transform.symmetry in (IDENTITY, *SYMMETRIES)


@pytest.mark.slow  # a whole case file verified twice
def test_a_program_answering_from_the_positions_it_knows_fails_a_plain_verify(capsys):
    """The cheating program knows captures.yaml's positions as they are written and plays no Go:
    it passes them all as written, and a plain ``jpd verify`` fails it on the sample its second
    pass gives transformed; ``--transform SEED`` fails it on nearly every item."""
    program = "jsonl:" + shlex.join([sys.executable, str(CHEATER), "by-position", str(CAPTURES)])
    status, written = verify(capsys, "--impl", program, "--no-transform", str(CAPTURES))
    assert status == 0 and written["summary"]["pass"] == written["summary"]["total"] > 300
    assert written["transform_seed"] is None and {r["transform"] for r in written["results"]} == {None}
    status, plain = verify(capsys, "--impl", program, str(CAPTURES))
    assert status == 1
    moved = plain["summary"]["transformed"]
    assert moved["unexpected-failure"] > 0.9 * moved["total"] > 0.9 * written["summary"]["total"] / 5
    as_written = [r for r in plain["results"] if r["transform"] is None]
    assert [r["outcome"] for r in as_written] == ["pass"] * written["summary"]["total"]
    assert plain["transform_seed"] == DEFAULT_TRANSFORM_SEED and plain["transform_one_in"] == SAMPLE_ONE_IN
    status, moved = verify(capsys, "--impl", program, "--transform", "t1", str(CAPTURES))
    assert status == 1
    summary = moved["summary"]
    assert summary["unexpected-failure"] > 0.9 * summary["total"]
    assert moved["transform_seed"] == "t1" and moved["transform_one_in"] == 1
    assert all(r["transform"] not in (None, IDENTITY) for r in moved["results"])


@pytest.mark.slow  # a whole case file verified, a sample played again
def test_a_plain_verify_gives_a_sample_of_the_items_played_again_each_a_row_naming_its_transform(
    capsys, tmp_path
):
    """The reference stays OK; the sample is the items played whose draw falls in one in
    SAMPLE_ONE_IN, after the rows as written, the same on every run and with -j 2; the text, JSON and
    HTML reports say which items were given transformed."""
    program = "jsonl:" + shlex.join([sys.executable, str(REFERENCE)])
    status, report = verify(capsys, "--impl", program, str(KO), str(CAPTURES))
    assert status == 0
    rows = report["results"]
    written = [r for r in rows if r["transform"] is None]
    moved = [r for r in rows if r["transform"] is not None]
    assert rows == written + moved and len(written) == report["summary"]["total"] - len(moved)
    assert 0.15 * len(written) < len(moved) < 0.35 * len(written)
    assert {(r["case"], r["ruleset"]) for r in moved} <= {(r["case"], r["ruleset"]) for r in written}
    assert all(r["outcome"] == "pass" for r in rows)
    assert report["summary"]["transformed"]["total"] == len(moved) == report["summary"]["transformed"]["pass"]
    assert len({r["transform"] for r in moved}) > 5
    again = verify(capsys, "--impl", program, "-j", "2", str(KO), str(CAPTURES))[1]
    pairs = [(r["case"], r["ruleset"], r["transform"]) for r in again["results"]]
    assert pairs == [(r["case"], r["ruleset"], r["transform"]) for r in rows]
    html = tmp_path / "report.html"
    assert main(["verify", "--impl", program, "--html", str(html), str(KO)]) == 0
    out = capsys.readouterr().out
    assert "TRANSFORMED" in out and f"one in {SAMPLE_ONE_IN} of the items played" in out
    assert "of which transformed" in out and "given again transformed" in out
    assert f"one in {SAMPLE_ONE_IN} of the items played" in html.read_text(encoding="utf-8")
    with pytest.raises(SystemExit) as exited:  # one or the other
        main(["verify", "--impl", program, "--no-transform", "--transform", "x", str(KO)])
    assert exited.value.code == 2


def test_an_expected_failure_line_may_name_the_transform_of_a_row():
    """``case[ruleset]@GLOB`` names the rows given under a transform GLOB matches (``identity``: as
    written); a line without it names every row of its items; a GLOB naming no transform is an
    error naming the line."""
    listed = parse_expected_failures(
        "count.territory.009[chinese]@mirror\nko.simple.001[*]@identity\nko.simple.002\nsk.*[*]@*+colours\n",
        "x.txt",
        ["chinese", "japanese"],
    )
    assert listed.match("count.territory.009", "chinese", "mirror") == "count.territory.009[chinese]@mirror"
    assert listed.match("count.territory.009", "chinese") is None
    assert listed.match("count.territory.009", "chinese", "rotate-90") is None
    assert listed.match("ko.simple.001", "japanese") == "ko.simple.001[*]@identity"
    assert listed.match("ko.simple.001", "japanese", "flip") is None
    assert listed.match("ko.simple.002", "japanese", "flip") == "ko.simple.002"
    assert listed.match("sk.x", "ing", "flip+colours") and not listed.match("sk.x", "ing", "flip")
    for bad, column in (("ko.simple.001@rotate-45", 15), ("ko.simple.001[*]@", 18)):
        with pytest.raises(InputError, match="names no transform") as err:
            parse_expected_failures(bad, "x.txt")
        assert err.value.location == Location("x.txt", 1, column)
    with pytest.raises(InputError, match="expected case-id"):
        parse_expected_failures("@mirror", "x.txt")


@pytest.mark.slow  # a whole case file verified under a transform
def test_a_row_given_transformed_is_excused_only_by_a_line_that_names_it(capsys, tmp_path):
    """A program failing ko.simple.001 only when it is given transformed: unexpected, until a line
    names the transformed row; a line naming the item as written (@identity) leaves it unexpected."""
    program = "jsonl:" + shlex.join([sys.executable, str(CHEATER), "by-position", str(KO)])
    args = ["--impl", program, "--id", "ko.simple.001", "--transform", "t1", str(KO)]
    status, report = verify(capsys, *args)
    failing = [r for r in report["results"] if r["outcome"] == "unexpected-failure"]
    assert status == 1 and failing
    row = failing[0]
    listed = tmp_path / "expected.txt"
    listed.write_text(f"{row['case']}[{row['ruleset']}]@identity\n", encoding="utf-8")
    status, report = verify(capsys, *args, "--expected-failures", str(listed))
    assert status == 1
    outcomes = {r["outcome"] for r in report["results"] if r["ruleset"] == row["ruleset"]}
    assert outcomes == {"unexpected-failure"}
    listed.write_text(f"{row['case']}[{row['ruleset']}]@{row['transform']}\n", encoding="utf-8")
    status, report = verify(capsys, *args, "--expected-failures", str(listed))
    (excused,) = [r for r in report["results"] if r["ruleset"] == row["ruleset"]]
    assert excused["outcome"] == "expected-failure"
    assert excused["expected_failure"] == f"{row['case']}[{row['ruleset']}]@{row['transform']}"


@pytest.mark.slow  # a whole case file verified under a transform
def test_the_reference_passes_every_item_transformed_and_each_row_names_its_transform(capsys, tmp_path):
    program = "jsonl:" + shlex.join([sys.executable, str(REFERENCE)])
    status, report = verify(capsys, "--impl", program, "--transform", "t2", str(KO), str(CAPTURES))
    assert status == 0 and report["summary"]["skip"] == 0
    names = {r["transform"] for r in report["results"]}
    assert "colours" in names and any(n.endswith("+colours") for n in names) and "rotate-90" in names
    again = verify(capsys, "--impl", program, "--transform", "t2", "-j", "2", str(KO), str(CAPTURES))[1]
    assert [r["transform"] for r in again["results"]] == [r["transform"] for r in report["results"]]


def test_the_reproduce_line_replays_the_transformed_item(capsys, monkeypatch):
    """A wrong program's failures: each ``reproduce`` line gives ``jpd play`` the item as the program
    was given it (the reference's play of the transformed item, step by step)."""
    program = "jsonl:" + shlex.join([sys.executable, str(CHEATER), "wrong"])
    status, report = verify(
        capsys, "--impl", program, "--transform", "t3", "--id", "capture.single.*", str(CAPTURES)
    )
    assert status == 1
    presets = load_presets()
    plan = plan_paths([CAPTURES], presets, selection_filters([], presets), default_loader())
    items = {i.name: i for i in plan.items}
    rows = [r for r in report["results"] if r["transform"] != IDENTITY][:6]
    assert len({r["transform"] for r in rows}) > 1
    for row in rows:
        item = items[f"{row['case']}[{row['ruleset']}]"]
        moved = transform_item(parse_transform(row["transform"]), Item(item.case.setup, (), item.case.moves))
        expected = ReferenceAdapter().observe(moved.setup, (), moved.moves, item.rules)
        # the shell runs the line as written; `jpd play` is run here, on the words and input it got
        line = row["reproduce"].replace("jpd play", f"{shlex.quote(sys.executable)} -c {RECORD}", 1)
        shell = subprocess.run(
            ["bash", "-c", line],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=True,
        )
        words, given = json.loads(shell.stdout)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(given.encode())))
        assert main(["play", "--json", *words]) == 0
        out = capsys.readouterr().out
        (observed,) = json.loads(out) if out.startswith("[") else [json.loads(out)]
        steps = [(s["action"], s["effect"], tuple(s["captures"])) for s in observed["steps"]]
        assert steps == [(s.action, s.effect, s.captures) for s in expected.steps], row["reproduce"]


@pytest.mark.slow  # sgfmill over the whole suite, three times
def test_sgfmill_stays_ok_under_transforms_and_fails_the_same_items(capsys):
    """A real library: its bundled expected-failure list holds under transforms, and what it gets
    wrong does not depend on the orientation or the colours (no deviation found under two seeds)."""
    pytest.importorskip("sgfmill")
    status, plain = verify(capsys, "--impl", "sgfmill", "--no-transform", "-q")
    assert status == 0
    failing = {(r["case"], r["ruleset"]) for r in plain["results"] if r["outcome"] == "expected-failure"}
    for seed in ("t4", "t5"):
        status, moved = verify(capsys, "--impl", "sgfmill", "--transform", seed, "-q")
        assert status == 0, moved["summary"]
        assert {
            (r["case"], r["ruleset"]) for r in moved["results"] if r["outcome"] == "expected-failure"
        } == failing
        played = [r for r in moved["results"] if r["outcome"] != "skip"]
        assert len(played) == plain["summary"]["played"] and all(r["transform"] for r in played)


def test_the_text_and_html_reports_say_under_which_transform_an_item_was_given(capsys, tmp_path):
    program = "jsonl:" + shlex.join([sys.executable, str(CHEATER), "wrong"])
    html = tmp_path / "report.html"
    args = [
        "verify",
        "--impl",
        program,
        "--transform",
        "t6",
        "--id",
        "ko.simple.001",
        "--html",
        str(html),
        str(KO),
    ]
    assert main(args) == 1
    out = capsys.readouterr()
    assert "note: --transform t6" in out.out + out.err
    assert "given under " in out.out and "reproduce: printf" in out.out
    page = html.read_text(encoding="utf-8")
    assert "--transform t6</code>" in page and "given under <code>" in page
    assert page.count('<svg class="board"') >= 3  # the failing row drawn, on the case's own board


def test_a_count_that_picks_points_by_number_is_compared_without_the_points_every_transform_moves():
    """count.territory.001 under jpd-2022 fills back on the lowest-numbered points of a 7x5 board:
    each of its three symmetries fills others. It is given under one of them all the same, its
    figures compared and the claims on the points that move left out (and named)."""
    presets = load_presets()
    path = conformance_dir() / "count-territory.yaml"
    plan = plan_paths(
        [path],
        presets,
        selection_filters(["jpd-2022"], presets, ids=("count.territory.001",)),
        default_loader(),
    )
    (item,) = plan.items
    given = Item(item.case.setup, item.case.history, item.case.moves)
    chosen = choose("t7", item.case.id, item.ruleset, item.expectation, given, item.rules)
    assert chosen.transform is not None and chosen.left_out
    assert "changes under" in chosen.note and "by number" in chosen.dropped[0]
    narrowed = chosen.narrow(item.expectation)
    assert narrowed.count == item.expectation.count and len(narrowed.points) <= len(item.expectation.points)
    kept = {v for line in narrowed.points for v in line.vertices}
    assert not kept & set(chosen.left_out) and narrowed.points != item.expectation.points
