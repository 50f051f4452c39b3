"""``jpd replay`` collections attacked as a careless or hostile user would (issue 25, part B).

Each test is one attack from the issue and what must hold: a clear error (exit 2, nothing
written) or a clean skip, nothing an input or an earlier output holds destroyed, every record
counted exactly once, no traceback. The expected figures come from the records built here
(spec/counting.md#count.replay, "Refereeing a collection"), not from the implementation's output.
"""

import io
import json
import os
import struct
import subprocess
import sys
import tarfile
import zipfile
import zlib
from pathlib import Path

import pytest
from jpdtools.cli import main
from jpdtools.records import sources

ONE = ("--rules", "chinese", "--jobs", "1")  # one ruleset, one process: the quickest run
GAME = b"(;GM[1]FF[4]SZ[5]RE[B+R];B[cc];W[dd])"


def _game(n: int) -> bytes:
    """A distinct small record (5x5, n-th point for Black's first move)."""
    letters = "abcde"
    return f"(;GM[1]FF[4]SZ[5]C[{n}];B[{letters[n % 5]}{letters[n // 5 % 5]}])".encode()


@pytest.fixture
def six(tmp_path) -> Path:
    folder = tmp_path / "six"
    folder.mkdir()
    for n in range(6):
        (folder / f"g{n}.sgf").write_bytes(_game(n))
    return folder


def _run(*args: str) -> int:
    try:
        return main(["replay", *args])
    except SystemExit as stop:  # argparse
        return stop.code


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _keys(path: Path) -> list[tuple[str, str | None]]:
    return [(x["record"], x["rules"]) for x in _lines(path)]


# -- 1. data destroyed ---------------------------------------------------------------------------
def test_out_naming_an_input_record_is_refused(six, capsys):
    record = six / "g3.sgf"
    before = record.read_bytes()
    assert _run(str(six), *ONE, "--out", str(record)) == 2
    assert "is one of the inputs" in capsys.readouterr().err
    assert record.read_bytes() == before


def test_out_naming_an_input_archive_or_merge_input_is_refused(six, tmp_path, capsys):
    archive = tmp_path / "set.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("a.sgf", GAME)
    before = archive.read_bytes()
    assert _run(str(archive), "--jobs", "1", "--summary", str(archive)) == 2
    assert archive.read_bytes() == before
    out = tmp_path / "out.jsonl"
    assert _run(str(six), *ONE, "--out", str(out)) == 0
    written = out.read_bytes()
    assert _run("--merge", str(out), "--out", str(tmp_path / "." / "out.jsonl")) == 2
    assert _run("--merge", str(out), "--summary", str(out)) == 2
    assert out.read_bytes() == written
    assert "is one of the inputs" in capsys.readouterr().err


def test_out_and_summary_naming_one_file_is_refused(six, tmp_path, capsys):
    out = tmp_path / "both.json"
    other_spelling = f"{tmp_path}/../{tmp_path.name}/both.json"
    assert _run(str(six), "--jobs", "1", "--out", str(out), "--summary", other_spelling) == 2
    assert "name the same file" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    "content",
    [
        b"my notes, not verdicts\nsecond line\n",
        b"no newline at all",
        b"\x00\x01\xff\xfe binary \x89PNG\r\n\x1a\n",
        b'{"a": 1}\n',
        b'{"record": "x.sgf", "rules": "chinese"}\n',  # a verdict line missing its fields
    ],
)
def test_resume_on_a_file_that_is_not_a_verdict_file_changes_nothing(six, tmp_path, capsys, content):
    out = tmp_path / "precious.txt"
    out.write_bytes(content)
    assert _run(str(six), *ONE, "--out", str(out), "--resume") == 2
    err = capsys.readouterr().err
    assert f"{out}:" in err and "Traceback" not in err
    assert out.read_bytes() == content


def test_resume_after_a_kill_in_the_first_line(six, tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_bytes(b'{"record": "si')
    assert _run(str(six), *ONE, "--out", str(out), "--resume") == 0
    assert len(_lines(out)) == 6


# -- 2. counted twice or wrong ---------------------------------------------------------------------
def test_resume_with_the_folder_named_another_way_counts_each_record_once(six, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(six.parent)
    out, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    assert _run("six/g0.sgf", "./six/g1.sgf", *ONE, "--out", str(out)) == 0
    assert len(_lines(out)) == 2
    assert _run(str(six.resolve()), *ONE, "--out", str(out), "--resume",
                "--summary", str(summary)) == 0  # fmt: skip
    assert len(_lines(out)) == 6
    assert json.loads(summary.read_text())["records"] == 6
    # Everything done: a resume through a link to the folder referees nothing more.
    (tmp_path / "link").symlink_to(six)
    assert _run(str(tmp_path / "link"), *ONE, "--out", str(out), "--resume") == 0
    assert len(_lines(out)) == 6


def test_resume_under_other_rulesets_is_refused_and_a_wider_selection_adds(six, tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    assert _run(str(six), "--rules", "chinese+japanese", "--jobs", "1", "--out", str(out)) == 0
    before = out.read_bytes()
    assert _run(str(six), *ONE, "--out", str(out), "--resume") == 2
    assert "japanese" in capsys.readouterr().err and out.read_bytes() == before
    assert (
        _run(str(six), "--rules", "chinese+japanese+jpd-a", "--jobs", "1", "--out", str(out), "--resume") == 0
    )
    keys = _keys(out)
    assert len(keys) == len(set(keys)) == 18


@pytest.mark.parametrize(
    "drop",
    ["ending", "refused", "re", "count", "stopped_at"],
)
def test_a_verdict_line_missing_a_field_is_a_located_error(six, tmp_path, capsys, drop):
    out = tmp_path / "out.jsonl"
    _run(str(six), *ONE, "--out", str(out))
    lines = _lines(out)
    del lines[2][drop]
    out.write_text("".join(json.dumps(x) + "\n" for x in lines))
    before = out.read_bytes()
    assert _run(str(six), *ONE, "--out", str(out), "--resume") == 2
    assert f"{out}:3:1: no '{drop}'" in capsys.readouterr().err
    assert out.read_bytes() == before
    assert _run("--merge", str(out)) == 2
    assert f"{out}:3:1: no '{drop}'" in capsys.readouterr().err


def test_a_record_error_line_missing_its_message_is_a_located_error(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"record": "a.sgf", "rules": null, "error": {"code": "x"}}\n')
    assert _run("--merge", str(bad)) == 2
    assert "bad.jsonl:1:1: error: no 'message'" in capsys.readouterr().err


def _tgz(path: Path, members: dict[str, bytes]) -> None:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def test_a_tar_gz_whose_crc_fails_is_one_error_not_refereed(tmp_path):
    archive = tmp_path / "set.tar.gz"
    _tgz(archive, {f"g{n}.sgf": _game(n) for n in range(3)})
    data = bytearray(archive.read_bytes())
    data[-8:-4] = struct.pack("<I", (zlib.crc32(b"") ^ 0xDEADBEEF) & 0xFFFFFFFF)  # the gzip trailer's CRC
    archive.write_bytes(bytes(data))
    out = tmp_path / "out.jsonl"
    assert _run(str(archive), *ONE, "--out", str(out)) == 1
    lines = _lines(out)
    assert [(x["record"], x["rules"]) for x in lines] == [(str(archive), None)]
    assert "corrupt" in lines[0]["error"]["message"]


def test_two_archive_members_of_one_name_are_two_records(tmp_path):
    zipped, tarred = tmp_path / "dup.zip", tmp_path / "dup.tar"
    with zipfile.ZipFile(zipped, "w") as z, pytest.warns(UserWarning, match="Duplicate name"):
        z.writestr("a.sgf", _game(1))
        z.writestr("a.sgf", _game(2))
    with tarfile.open(tarred, "w") as tar:
        for n in (1, 2):
            info = tarfile.TarInfo("a.sgf")
            info.size = len(_game(n))
            tar.addfile(info, io.BytesIO(_game(n)))
    for archive in (zipped, tarred):
        out = tmp_path / f"{archive.name}.jsonl"
        assert _run(str(archive), *ONE, "--out", str(out)) == 0
        lines = _lines(out)
        assert [x["record"] for x in lines] == [f"{archive}!a.sgf", f"{archive}!a.sgf#2"]
        assert lines[0]["refused"] == lines[1]["refused"] == []  # each its own game: B at B1, then C1
        assert {x["moves"] for x in lines} == {1}


def test_merge_with_out_writes_each_verdict_once(six, tmp_path):
    parts = []
    for k in (1, 2):
        part = tmp_path / f"part{k}.jsonl"
        _run(str(six), *ONE, "--shard", f"{k}/2", "--out", str(part))
        parts.append(part)
    merged, once, twice = tmp_path / "merged.jsonl", tmp_path / "once.json", tmp_path / "twice.json"
    again = str(parts[0])
    assert _run("--merge", *map(str, parts), again, "--out", str(merged), "--summary", str(twice)) == 0
    keys = _keys(merged)
    assert len(keys) == len(set(keys)) == 6  # the same shard given twice counts once
    assert _run(str(six), *ONE, "--summary", str(once)) == 0
    assert once.read_bytes() == twice.read_bytes()


def test_merging_different_verdicts_on_one_record_is_refused(six, tmp_path, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _run(str(six), *ONE, "--out", str(a))
    lines = _lines(a)
    lines[0]["moves"] += 1  # as if another version of the record had been refereed
    b.write_text(json.dumps(lines[0]) + "\n")
    assert _run("--merge", str(a), str(b)) == 2
    expected = f"{b}: a second, different verdict on {lines[0]['record']} under chinese"
    assert expected in capsys.readouterr().err


# -- 3. one bad member, odd names and values ----------------------------------------------------------
def test_undecodable_file_names_get_verdicts_and_resume(tmp_path):
    folder = tmp_path / "names"
    folder.mkdir()
    raw = os.fsencode(folder) + b"/M\xfcller-\xff.sgf"
    with open(raw, "wb") as f:
        f.write(GAME)
    (folder / "plain.sgf").write_bytes(_game(4))
    out, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    command = [sys.executable, "-m", "jpdtools.cli", "replay", str(folder), *ONE]
    done = subprocess.run(
        [*command, "--out", str(out), "--summary", str(summary)], capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    out.read_bytes().decode("utf-8")  # still UTF-8
    keys = [x["record"] for x in _lines(out)]
    assert os.fsencode(keys[0]) == raw  # the name reads back to the file's bytes
    json.loads(summary.read_text(encoding="utf-8"))
    again = subprocess.run([*command, "--out", str(out), "--resume"], capture_output=True, timeout=60)
    assert again.returncode == 0 and len(_lines(out)) == 2


def _zip_patch(path: Path, member: int, local: dict[int, bytes], central: dict[int, bytes]) -> None:
    """Overwrite bytes of the ``member``-th local header and central directory entry (offsets
    from each header's signature)."""
    data = bytearray(path.read_bytes())
    for signature, patches in ((b"PK\x03\x04", local), (b"PK\x01\x02", central)):
        at = -1
        for _ in range(member + 1):
            at = data.index(signature, at + 1)
        for offset, value in patches.items():
            data[at + offset : at + offset + len(value)] = value
    path.write_bytes(bytes(data))


def _zip_of(path: Path, count: int, method: int = zipfile.ZIP_STORED) -> None:
    with zipfile.ZipFile(path, "w", compression=method) as z:
        for n in range(count):
            z.writestr(f"g{n:02d}.sgf", _game(n))


@pytest.mark.parametrize(
    "attack, local, central, expected",
    [
        ("crc", {14: b"\0\0\0\0"}, {16: b"\0\0\0\0"}, "Bad CRC-32"),
        ("encrypted", {6: b"\x01\x00"}, {8: b"\x01\x00"}, "encrypted"),
        ("imploded", {8: b"\x06\x00"}, {10: b"\x06\x00"}, "compression"),
    ],
)
def test_a_zip_member_that_cannot_be_read_loses_only_itself(tmp_path, attack, local, central, expected):
    archive = tmp_path / f"{attack}.zip"
    _zip_of(archive, 21)
    _zip_patch(archive, 0, local, central)
    out = tmp_path / "out.jsonl"
    assert _run(str(archive), *ONE, "--out", str(out)) == 1
    lines = _lines(out)
    errors = [x for x in lines if x["rules"] is None]
    assert [x["record"] for x in errors] == [f"{archive}!g00.sgf"]
    assert expected.lower() in errors[0]["error"]["message"].lower()
    assert len(lines) == 21  # the 20 good members refereed


def test_a_zip_name_flagged_utf8_that_is_not_is_one_archive_error(tmp_path, six):
    archive = tmp_path / "names.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("é.sgf", GAME)  # written as UTF-8 C3 A9, flagged
    data = archive.read_bytes().replace("é".encode(), b"\xff\xfe")
    archive.write_bytes(data)
    out = tmp_path / "out.jsonl"
    assert _run(str(archive), str(six), *ONE, "--out", str(out)) == 1
    lines = _lines(out)
    assert lines[0]["record"] == str(archive) and "flagged UTF-8" in lines[0]["error"]["message"]
    assert len(lines) == 1 + 6


def test_a_corrupt_tar_xz_is_one_archive_error(tmp_path, six):
    archive = tmp_path / "set.tar.xz"
    with tarfile.open(archive, "w:xz") as tar:
        for n in range(3):
            info = tarfile.TarInfo(f"g{n}.sgf")
            info.size = len(_game(n))
            tar.addfile(info, io.BytesIO(_game(n)))
    data = bytearray(archive.read_bytes())
    data[len(data) // 2] ^= 0xFF
    archive.write_bytes(bytes(data))
    out = tmp_path / "out.jsonl"
    assert _run(str(archive), str(six), *ONE, "--out", str(out)) == 1
    lines = _lines(out)
    assert lines[0]["record"] == str(archive) and "corrupt" in lines[0]["error"]["message"]
    assert len(lines) == 1 + 6


@pytest.mark.parametrize("codec", ["hex", "base64", "rot13", "zlib", "undefined", "idna"])
def test_a_ca_that_is_not_a_text_encoding_is_a_record_error(tmp_path, capsys, codec):
    folder = tmp_path / "ca"
    folder.mkdir()
    (folder / "a.sgf").write_bytes(f"(;GM[1]CA[{codec}]SZ[9];B[ee])".encode())
    (folder / "b.sgf").write_bytes(GAME)
    out = tmp_path / "out.jsonl"
    assert _run(str(folder), *ONE, "--out", str(out)) == 1
    lines = _lines(out)
    assert lines[0]["error"]["code"] == "sgf-charset" and f"CA[{codec}]" in lines[0]["error"]["message"]
    assert lines[1]["rules"] == "chinese"
    assert main(["replay", str(folder / "a.sgf"), "--rules", "chinese"]) == 2
    assert f"CA[{codec}]" in capsys.readouterr().err


@pytest.mark.parametrize(
    "value, message",
    [
        ("²/³", "is not K/N in digits 0-9"),
        ("٣/٤", "is not K/N in digits 0-9"),
        ("0/0", "K must be between 1 and N"),
        ("3/2", "K must be between 1 and N"),
        ("1/99999999999", "N is at most"),
        ("1/", "is not K/N"),
        ("-1/2", "is not K/N"),
    ],
)
def test_absurd_shards_are_usage_errors(six, capsys, value, message):
    assert _run(str(six), "--jobs", "1", f"--shard={value}") == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("value", ["0", "-1", "99999999999", "1000000"])
def test_absurd_job_counts_are_usage_errors(six, capsys, value):
    assert _run(str(six), "--jobs", value) == 2
    assert f"--jobs {value}: expected 1 to" in capsys.readouterr().err


# -- 4 and 6. what a folder or an archive may hold -------------------------------------------------------
def _run_bounded(args: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
    """A run in its own process, killed if it outlasts ``timeout`` (the attack is a hang)."""
    command = [sys.executable, "-m", "jpdtools.cli", "replay", *args, "--rules", "chinese", "--jobs", "1"]
    return subprocess.run(command, capture_output=True, timeout=timeout, text=True)


def test_pipes_devices_and_link_loops_are_skipped_or_errors_never_a_hang(tmp_path):
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "good.sgf").write_bytes(GAME)
    os.mkfifo(folder / "pipe.sgf")
    (folder / "zero.sgf").symlink_to("/dev/zero")
    (folder / "loop").symlink_to(folder)
    (folder / "dangling.sgf").symlink_to(tmp_path / "nowhere.sgf")
    out = tmp_path / "folder.jsonl"
    done = _run_bounded([str(folder), "--out", str(out)], timeout=30)
    assert done.returncode == 0, done.stderr
    assert [Path(x["record"]).name for x in _lines(out)] == ["good.sgf"]  # a folder's odd entries: skipped
    out = tmp_path / "glob.jsonl"
    done = _run_bounded([f"{folder}/**/*.sgf", "--out", str(out)], timeout=30)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    errors = {Path(x["record"]).name: x["error"]["message"] for x in _lines(out) if x["rules"] is None}
    assert "a pipe" in errors["pipe.sgf"] and "a character device" in errors["zero.sgf"]
    assert set(errors) <= {"pipe.sgf", "zero.sgf", "dangling.sgf"}
    done = _run_bounded([str(folder / "pipe.sgf")], timeout=30)
    assert done.returncode == 1 and "a pipe, not a record file" in done.stdout


def test_a_file_reached_twice_is_one_record(six, tmp_path):
    os.link(six / "g1.sgf", six / "hard.sgf")
    (six / "soft.sgf").symlink_to(six / "g2.sgf")
    out = tmp_path / "out.jsonl"
    assert _run(str(six), str(six / "g3.sgf"), *ONE, "--out", str(out)) == 0
    assert len(_lines(out)) == 6


def test_archive_member_names_are_keys_never_paths_written(tmp_path):
    archive, zipped = tmp_path / "evil.tar", tmp_path / "evil.zip"
    names = ["../../escape.sgf", "/etc/absolute.sgf", "ok/../../x.sgf"]
    with tarfile.open(archive, "w") as tar:
        for name in names:
            info = tarfile.TarInfo(name)
            info.size = len(GAME)
            tar.addfile(info, io.BytesIO(GAME))
        link = tarfile.TarInfo("link.sgf")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
        hard = tarfile.TarInfo("hard.sgf")
        hard.type, hard.linkname = tarfile.LNKTYPE, "../../escape.sgf"
        tar.addfile(hard)
    with zipfile.ZipFile(zipped, "w") as z:
        for name in names:
            z.writestr(name, GAME)
        info = zipfile.ZipInfo("zlink.sgf")
        info.external_attr = 0o120777 << 16
        z.writestr(info, "/etc/passwd")
    before = sorted(p for p in tmp_path.parent.rglob("*"))
    out = tmp_path / "out.jsonl"
    assert _run(str(archive), str(zipped), *ONE, "--out", str(out)) == 0
    members = [x["record"].split("!", 1)[1] for x in _lines(out)]
    assert sorted(members) == sorted(names * 2)  # the links are skipped
    after = sorted(p for p in tmp_path.parent.rglob("*"))
    assert set(after) - set(before) == {out}


def test_archive_bombs_are_one_error_before_anything_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "MAX_ARCHIVE_BYTES", 1 << 20)  # the 4 GiB bound, scaled down
    big = b"\0" * (3 << 20)
    tgz, zipped = tmp_path / "bomb.tar.gz", tmp_path / "bomb.zip"
    _tgz(tgz, {"a.sgf": GAME, "padding.bin": big})
    with zipfile.ZipFile(zipped, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("a.sgf", GAME)
        for n in range(3):
            z.writestr(f"pad{n}.sgf", big[: 1 << 19])
    assert tgz.stat().st_size < 100_000 and zipped.stat().st_size < 100_000
    out = tmp_path / "out.jsonl"
    assert _run(str(tgz), str(zipped), *ONE, "--out", str(out)) == 1
    lines = _lines(out)
    assert [x["record"] for x in lines] == [str(tgz), str(zipped)]
    assert all("at most 1,048,576 bytes of one archive" in x["error"]["message"] for x in lines)


def test_nested_archives_are_not_opened(tmp_path):
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("inner.sgf", GAME)
    outer = tmp_path / "outer.zip"
    with zipfile.ZipFile(outer, "w") as z:
        z.writestr("inner.zip", inner.getvalue())
        z.writestr("top.sgf", GAME)
    out = tmp_path / "out.jsonl"
    assert _run(str(outer), *ONE, "--out", str(out)) == 0
    assert [x["record"] for x in _lines(out)] == [f"{outer}!top.sgf"]


@pytest.mark.slow
def test_ten_thousand_tiny_files(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(10_000):
        (folder / f"{n:05d}.sgf").write_bytes(b"(;GM[1]SZ[5];B[cc])")
    out, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    two_jobs = ("--rules", "chinese", "--jobs", "2")
    assert _run(str(folder), *two_jobs, "--out", str(out), "--summary", str(summary)) == 0
    assert json.loads(summary.read_text())["records"] == 10_000
    assert len(set(_keys(out))) == 10_000


def test_a_record_with_100k_variations(tmp_path):
    record = tmp_path / "wide.sgf"
    record.write_bytes(b"(;GM[1]SZ[9];B[ee]" + b"(;W[cc];B[gg])" * 100_000 + b")")
    out = tmp_path / "out.jsonl"
    assert _run(str(record), str(record), *ONE, "--out", str(out)) == 0
    (line,) = _lines(out)
    assert line["moves"] == 3


def test_a_record_of_many_refused_moves_gives_a_bounded_line(tmp_path):
    """B C3, then 5,000 times W C3 (occupied) and a B pass. Under chinese the refused W C3 is a
    void pass, so with B's pass at action 3 play halts (two passes): the W C3 at 2 and all the
    9,998 actions after 3 are refused — 9,999 of 10,001."""
    record = tmp_path / "refusals.sgf"
    record.write_bytes(b"(;GM[1]SZ[5];B[cc]" + b";W[cc];B[]" * 5_000 + b")")
    out, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    assert _run(str(record), *ONE, "--out", str(out), "--summary", str(summary)) == 1
    assert out.stat().st_size < 40_000
    (line,) = _lines(out)
    assert len(line["refused"]) == 100 and line["refused_total"] == 9_999
    assert line["refused"][0]["reason"] == "occupied"
    data = json.loads(summary.read_text())["rulesets"]["chinese"]
    assert data["refused_moves"] == 9_999 and data["games_with_refusals"] == 1


def test_out_on_a_full_disk_is_a_clear_error_and_resumes(six, tmp_path):
    """A child process whose file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored) makes --out fail part
    way with EFBIG, as a full disk fails with ENOSPC."""
    import resource
    import signal

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1500, 1500))

    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "jpdtools.cli", "replay", str(six), *ONE, "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, preexec_fn=limited, timeout=60)
    assert done.returncode == 2, done.stderr
    assert f"{out}: --out: cannot write" in done.stderr and "Traceback" not in done.stderr
    assert _run(str(six), *ONE, "--out", str(out), "--resume") == 0
    keys = _keys(out)
    assert len(keys) == len(set(keys)) == 6
