"""Attacks through game records: a KM that is not a number is an error of that record under
``--komi record`` (never the ruleset's komi silently in its place), and a file name that is not
UTF-8 is sharded like any other (spec/counting.md#count.replay)."""

import os

import pytest
from jpdtools.cli import main

GAME = "(;GM[1]FF[4]SZ[9]{km}RU[Chinese]RE[B+R];B[cc];W[gg])"


@pytest.mark.parametrize("km", ["nan", "inf", "abc", "6,5", "", "1e308"])
@pytest.mark.parametrize("command", ["study", "replay"])
def test_an_unreadable_komi_is_an_error_of_its_record(tmp_path, capsys, km, command):
    (tmp_path / "g.sgf").write_text(GAME.format(km=f"KM[{km}]"), encoding="utf-8")
    assert main([command, "--komi", "record", "--rules", "chinese", str(tmp_path)]) == 1
    out = capsys.readouterr()
    said = out.out + out.err
    assert f"KM[{km}]" in said and (
        "komi-unreadable" in said or "not a number of points" in said or "beyond" in said
    )
    # with the ruleset's komi asked for, the record's KM is not read: no error
    assert main([command, "--rules", "chinese", str(tmp_path)]) == 0


def test_a_record_without_km_takes_the_rulesets_komi(tmp_path, capsys):
    (tmp_path / "g.sgf").write_text(GAME.format(km=""), encoding="utf-8")
    assert main(["study", "--komi", "record", "--rules", "chinese", str(tmp_path)]) == 0


def test_a_file_name_that_is_not_utf8_is_sharded(tmp_path, capsys):
    name = os.fsdecode(b"g\xff.sgf")
    (tmp_path / name).write_text(GAME.format(km="KM[7.5]"), encoding="utf-8")
    statuses = [main(["replay", str(tmp_path), "--shard", f"{k}/2"]) for k in (1, 2)]
    assert sorted(statuses) == [0, 3]  # the record in one shard, nothing in the other
    assert "Traceback" not in capsys.readouterr().err


def test_study_out_on_a_read_only_file_system_is_an_error(tmp_path, capsys, monkeypatch):
    import errno
    from pathlib import Path

    (tmp_path / "g.sgf").write_text(GAME.format(km="KM[7.5]"), encoding="utf-8")

    def refuse(self, *args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))

    monkeypatch.setattr(Path, "mkdir", refuse)
    assert main(["study", str(tmp_path / "g.sgf"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "cannot make the folder: Read-only file system" in err and "Traceback" not in err
