"""Files are written whole or not at all (jpdtools.atomic), exports replace whole or refuse.

The full-disk tests run ``jpd`` in a child process whose file-size limit (RLIMIT_FSIZE, with
SIGXFSZ ignored) makes a write fail part way with EFBIG, the way a full disk fails with ENOSPC.
"""

import errno
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from jpdtools import atomic
from jpdtools.cli import main
from jpdtools.errors import InputError
from jpdtools.paths import conformance_dir

KO = str(conformance_dir() / "ko.yaml")


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.rglob("*") if p.name.startswith("."))


def test_write_text_replaces_the_file(tmp_path):
    path = tmp_path / "sub" / "report.json"
    atomic.write_text(path, "first")
    atomic.write_text(path, "second")
    assert path.read_text(encoding="utf-8") == "second"
    atomic.write_bytes(path, b"\x00third")
    assert path.read_bytes() == b"\x00third"
    assert _leftovers(tmp_path) == []


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "report.json"
    path.write_text("old, complete", encoding="utf-8")

    def full_disk(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "fsync", full_disk)
    with pytest.raises(InputError) as err:
        atomic.write_text(path, "new " * 1000)
    assert str(path) in str(err.value) and "No space left" in str(err.value)
    assert path.read_text(encoding="utf-8") == "old, complete"
    assert _leftovers(tmp_path) == []


def test_an_exception_inside_the_block_keeps_the_old_file(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt), atomic.replacing(path) as f:
        f.write("half")
        raise KeyboardInterrupt
    assert path.read_text(encoding="utf-8") == "old"
    assert _leftovers(tmp_path) == []


def test_the_new_file_gets_the_usual_permissions(tmp_path):
    path = tmp_path / "x.txt"
    atomic.write_text(path, "x")
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


# -- a full disk, really: a child process with a file-size limit ---------------------------------


def _limited(limit: int):
    def preexec() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return preexec


def _jpd_limited(args: list[str], limit: int, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "jpdtools.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        preexec_fn=_limited(limit),
        timeout=300,
    )


def test_run_junit_on_a_full_disk_keeps_the_old_file(tmp_path):
    junit = tmp_path / "junit.xml"
    junit.write_text("<old/>", encoding="utf-8")
    done = _jpd_limited(["run", KO, "--rules", "chinese", "-q", "--junit", str(junit)], 2000, tmp_path)
    assert done.returncode == 2, done.stderr
    assert "cannot write" in done.stderr and str(junit) in done.stderr
    assert junit.read_text(encoding="utf-8") == "<old/>"
    assert _leftovers(tmp_path) == []


def test_export_on_a_full_disk_keeps_the_earlier_export(tmp_path):
    out = tmp_path / "out"
    assert main(["export", "--to", "json", str(out), KO, "--rules", "chinese"]) == 0
    before = (out / "cases.jsonl").read_text(encoding="utf-8")
    done = _jpd_limited(["export", "--to", "all", str(out), KO], 3000, tmp_path)
    assert done.returncode == 2, done.stderr
    assert "cannot write the export" in done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["cases.jsonl"]
    assert (out / "cases.jsonl").read_text(encoding="utf-8") == before


def test_export_into_a_new_directory_on_a_full_disk_leaves_nothing(tmp_path):
    out = tmp_path / "new"
    done = _jpd_limited(["export", "--to", "json", str(out), KO], 3000, tmp_path)
    assert done.returncode == 2, done.stderr
    assert not out.exists()


# -- exports replace whole, or refuse ------------------------------------------------------------


def test_an_export_replaces_an_earlier_export_whole(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["export", "--to", "all", str(out), KO, "--rules", "chinese"]) == 0
    assert {p.name for p in out.iterdir()} == {"cases.jsonl", "sgf", "gtp"}
    assert main(["export", "--to", "sgf", str(out), KO, "--rules", "aga"]) == 0
    assert {p.name for p in out.iterdir()} == {"sgf"}
    rulesets = {p.stem for p in (out / "sgf").rglob("*.sgf")}
    assert rulesets == {"aga"}  # nothing of the earlier export is left
    assert "written to " + str(out / "sgf") in capsys.readouterr().out


def test_an_export_into_a_directory_holding_other_files_is_refused(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["export", "--to", "json", str(tmp_path), KO]) == 2
    err = capsys.readouterr().err
    assert "notes.txt" in err and str(tmp_path) in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_an_empty_outdir_is_an_error_not_the_current_directory(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["export", "--to", "json", "", KO]) == 2
    assert "OUTDIR is empty" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_run_says_so_in_every_report():
    """JSON ``summary.ok`` is false and JUnit carries an error: CI never reads a partial run as a
    pass (``jpd run`` writes the reports of what ran, then exits 130)."""
    import json
    import xml.etree.ElementTree as ET

    from jpdtools.run import report
    from jpdtools.run.runner import RunResult

    run = RunResult("jpdref", (), interrupted=True)
    assert not run.ok
    assert json.loads(report.format_json(run))["summary"]["ok"] is False
    root = ET.fromstring(report.format_junit(run))
    assert root.get("errors") == "1"
    assert root.find("testsuite[@name='interrupted']/testcase/error").get("type") == "interrupted"
