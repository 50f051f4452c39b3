"""Bad input gets a clear, located error that shows no internals (issue 12, items 9–12)."""

import pytest
from jpdtools.cli import COMMANDS, GROUPS, main
from jpdtools.errors import InputError, Location
from jpdtools.paths import conformance_dir
from jpdtools.suite import quickparse
from jpdtools.suite.dsl import Dsl
from jpdtools.suite.grammar import Grammar


def _place(line: int, column: int) -> Location:
    return Location("d.txt", line, column)


# -- item 9: a huge diagram is refused by its size, before it is parsed --------------------------


def test_a_1000_by_1000_diagram_is_refused_by_size_before_parsing(monkeypatch):
    dsl = Dsl()
    parsed = []
    # parsing it took 12 s: neither the hand-written parser nor the grammar may see it
    monkeypatch.setattr(quickparse, "diagram", lambda *a: parsed.append(a))
    monkeypatch.setattr(Grammar, "raw_diagram", lambda *a: parsed.append(a))
    text = "\n".join(" ".join("." * 1000) for _ in range(1000))
    with pytest.raises(InputError) as info:
        dsl.parse_diagram(text, _place)
    assert info.value.code == "board-size" and "width 1000 is not 2..25" in info.value.message
    assert (info.value.location.line, info.value.location.column) == (1, 1)
    assert parsed == []


def test_a_tall_narrow_diagram_is_refused_by_height_at_its_first_point():
    text = "\n".join(f"{n} . . . ." for n in range(3000, 0, -1))
    with pytest.raises(InputError) as info:
        Dsl().parse_diagram(text, _place)
    assert "height 3000 is not 2..25" in info.value.message
    assert (info.value.location.line, info.value.location.column) == (1, 6)


# -- item 12: messages without internals ---------------------------------------------------------


def test_a_repeated_marker_is_named_as_written():
    with pytest.raises(InputError) as info:
        Dsl().parse_diagram("3x3\n. a .\n. . .\n. a .", _place)
    assert info.value.message == "board diagram: marker 'a' appears twice"
    assert "Token" not in str(info.value)


def test_a_huge_step_number_is_reported_as_written(capsys, tmp_path):
    case = tmp_path / "c.yaml"
    case.write_text(
        "format: 1\ncases:\n  - id: x\n    title: t\n    spec: [capture.order]\n"
        '    seeds: ["000 §20"]\n    size: 5\n    moves: B C3\n    expect:\n'
        "      default: |\n        99999999999999999999: legal\n",
        encoding="utf-8",
    )
    assert main(["run", str(case)]) == 1
    out = capsys.readouterr().out
    assert f"{case}:11:9: step 99999999999999999999 is not 1..1" in out


def test_a_move_off_the_board_is_located_in_moves(capsys):
    assert main(["play", "--rules", "chinese", "--size", "5", "--moves", "B C3 W Z99"]) == 2
    assert "--moves:1:8: vertex 'Z99' is off the 5x5 board" in capsys.readouterr().err


def test_a_device_is_not_called_a_missing_file(capsys):
    assert main(["run", "/dev/null"]) == 2
    err = capsys.readouterr().err
    assert "not a case file or folder: /dev/null" in err and "no such file" not in err


# -- item 10: one validation of counters ---------------------------------------------------------


@pytest.mark.parametrize(
    ("counters", "words"),
    [
        ("handicap=-3", "'handicap' is 0 or 2..24"),
        ("handicap=99", "'handicap' is 0 or 2..24"),
        ("prisoners=12345678901234567891,0", "0..1,000,000"),
        ("moves=1", "a pair"),
        ("last-move=X", "B, W or none"),
    ],
)
def test_count_counters_are_checked_as_a_case_files_are(counters, words, capsys, tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("5x5\n. . . . .\n. X . O .\n. . . . .\n. X . O .\n. . . . .\n", encoding="utf-8")
    assert main(["count", "--rules", "chinese", str(board), "--counters", counters]) == 2
    assert words in capsys.readouterr().err


# -- item 11: ambiguous command lines are errors -------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--rules", "chinese:repetition=simple-ko,repetition=positional", "--size", "5"], "given twice"),
        (["--rules", "chinese", "--size", "5x"], "is not N or WxH"),
        (["--rules", "chinese", "--size", "30"], "2..25"),
    ],
)
def test_play_refuses_what_it_used_to_guess(argv, words, capsys):
    assert main(["play", *argv]) == 2
    assert words in capsys.readouterr().err


def test_a_position_file_and_size_together_are_refused(capsys, tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("3x3\n. . .\n. X .\n. . .\n", encoding="utf-8")
    assert main(["play", "--rules", "chinese", str(board), "--size", "9"]) == 2
    assert "either a position file or --size" in capsys.readouterr().err


def test_play_reads_a_gb2312_record_as_replay_and_count_do(capsys, tmp_path):
    game = tmp_path / "gb.sgf"
    game.write_bytes("(;CA[gb2312]SZ[9]PB[黑棋]C[评论];B[ee])".encode("gb2312"))
    assert main(["play", "--rules", "chinese", str(game), "--moves", "W C3"]) == 0
    assert main(["count", "--rules", "chinese", str(game)]) == 0
    capsys.readouterr()


# -- one grammar for every command ------------------------------------------------------------------
def test_jpd_without_a_command_is_a_usage_error(capsys):
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "usage: jpd COMMAND" in err and "jpd: error: name a command" in err


def test_jpd_help_lists_every_command_in_groups(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert sorted(n for names in GROUPS.values() for n in names) == sorted(COMMANDS)
    assert all(f"{title}:" in out for title in GROUPS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_examples_quiet_and_verbose(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "examples:\n  jpd " + command in out
    assert "-q" in out and "-v" in out and "``" not in out


def test_count_dead_on_an_empty_point_is_an_error(tmp_path, capsys):
    board = tmp_path / "b.txt"
    board.write_text("3x3\n. X .\nX X .\n. . .\n", encoding="utf-8")
    assert main(["count", str(board), "--dead", "A1", "--rules", "chinese"]) == 2
    assert "--dead A1: no stone on A1" in capsys.readouterr().err


def test_the_old_outdir_argument_still_works_with_a_note(tmp_path, capsys):
    out = tmp_path / "export"
    assert (
        main(
            ["export", "--to", "json", str(out), str(conformance_dir() / "ko.yaml"), "--id", "ko.simple.001"]
        )
        == 0
    )
    assert "deprecated: write -o/--out" in capsys.readouterr().err
    assert (out / "cases.jsonl").is_file()


@pytest.mark.parametrize(
    "argv",
    [
        ["explain", "ko.simple.001", "--rules", "chinese"],
        ["lint", str(conformance_dir() / "ko.yaml"), "--no-coverage-table"],
        ["rules", "chinese"],
        ["trace", "ko.simple.001"],
        ["review", "status"],
    ],
)
def test_every_command_that_prints_a_result_prints_json(argv, capsys):
    import json

    assert main([*argv, "--json"]) in (0, 1)
    json.loads(capsys.readouterr().out)


def test_export_and_matrix_say_what_they_wrote_as_json(tmp_path, capsys):
    import json

    out = tmp_path / "export"
    cases = str(conformance_dir() / "ko.yaml")
    assert main(["export", "--to", "json", "-o", str(out), cases, "--id", "ko.simple.001", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["forms"][0]["form"] == "json" and data["forms"][0]["written"] > 0


def test_long_text_is_wrapped_to_a_width_and_boards_are_not():
    from jpdtools import table

    note = "  " + "word " * 40
    wrapped = table.wrap([note, "X" * 200], 50)
    assert all(len(line) <= 50 for line in wrapped[:-1]) and wrapped[-1] == "X" * 200
    assert all(line.startswith("  ") for line in wrapped[:-1])
    assert table.wrap([note], None) == [note]
