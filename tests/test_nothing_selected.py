"""Selecting nothing is an error with its own exit status, naming the selector (issue 12, item 3).

It used to report success: ``jpd run --id nosuch`` ran nothing and said OK, ``jpd export --id
nosuch`` wrote an empty file, ``jpd play --rules ''`` printed nothing and exited 0.
"""

import pytest
from jpdtools.cli import main
from jpdtools.exitcodes import NOTHING_SELECTED


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["run", "--id", "nosuch"], "--id 'nosuch'"),
        (["run", "--tag", "nosuch"], "--tag 'nosuch'"),
        (["run", "--id", "ko.*", "--tag", "nosuch"], "--id 'ko.*' --tag 'nosuch'"),
        (["run", "--rules", ","], "--rules ','"),
        (["run", "--rules", ""], "--rules ''"),
        (["verify", "--impl", "sgfmill", "--id", "nosuch"], "--id 'nosuch'"),
        (["verify", "--impl", "sgfmill", "--id", "format.error.*"], "--id 'format.error.*'"),
        (["play", "--rules", "", "--size", "5"], "--rules ''"),
    ],
)
def test_selecting_nothing_is_an_error_naming_the_selector(argv, named, capsys):
    assert main(argv) == NOTHING_SELECTED
    err = capsys.readouterr().err
    assert named in err and "jpd: error:" in err


def test_count_and_replay_with_no_ruleset_are_errors(tmp_path, capsys):
    board = tmp_path / "b.txt"
    board.write_text("3x3\n. . .\n. X .\n. . .\n", encoding="utf-8")
    game = tmp_path / "g.sgf"
    game.write_text("(;SZ[5];B[cc])", encoding="utf-8")
    assert main(["count", "--rules", " ", str(board)]) == NOTHING_SELECTED
    assert main(["replay", str(game), "--rules", "+"]) == NOTHING_SELECTED
    err = capsys.readouterr().err
    assert "--rules ' '" in err and "--rules '+'" in err


def test_an_export_selecting_nothing_writes_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["export", "--to", "json", str(out), "--id", "nosuch"]) == NOTHING_SELECTED
    assert "--id 'nosuch'" in capsys.readouterr().err
    assert not out.exists()


def test_verify_selecting_nothing_starts_no_engine(tmp_path, capsys):
    marker = tmp_path / "started"
    argv = ["verify", "--impl", f"gtp:touch {marker}", "--id", "nosuch", "--timeout", "2"]
    assert main(argv) == NOTHING_SELECTED
    assert not marker.exists()


def test_the_exit_status_is_its_own():
    from jpdtools import exitcodes

    codes = [v for k, v in vars(exitcodes).items() if k.isupper()]
    assert codes.count(NOTHING_SELECTED) == 1 and NOTHING_SELECTED not in (0, 1, 2)


@pytest.mark.parametrize("command", ["study", "replay", "lint"])
def test_a_folder_with_nothing_to_read_is_no_success(command, tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main([command, str(empty)]) == NOTHING_SELECTED
    assert str(empty) in capsys.readouterr().err
