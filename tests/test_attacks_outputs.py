"""``jpd book`` and ``jpd export`` writing where a careless or hostile user points them (issue 25,
part B; issue 22, point 7).

What must hold: an empty selection is exit 3 with nothing written; OUTDIR is new, empty or an
earlier output of the same command (anything else is refused, untouched); a rebuild replaces the
old output whole (no stale page); nothing is written through a symbolic link, out of OUTDIR; a
full disk, a read-only file system or a signal leaves the earlier output as it was, no staging
folder, no traceback; hostile case text is shown as text, never run.
"""

import errno
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from jpdtools.cli import main
from jpdtools.paths import conformance_dir

KO = str(conformance_dir() / "ko.yaml")
ONE = ("--id", "ko.simple.001")
OTHER = ("--id", "ko.simple.002")


def _jpd(args: list[str], limit: int | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    def preexec() -> None:
        if limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "jpdtools.cli", *args],
        capture_output=True,
        text=True,
        preexec_fn=preexec,
        timeout=timeout,
    )


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*"))


# -- the book ------------------------------------------------------------------------------------
def test_a_book_of_no_case_is_exit_3_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "book"
    assert main(["book", str(out), KO, "--tag", "nosuchtag"]) == 3
    assert "--tag 'nosuchtag'" in capsys.readouterr().err
    assert not out.exists()


def test_a_book_into_an_unrelated_folder_is_refused(tmp_path, capsys):
    (tmp_path / "thesis.tex").write_text("mine", encoding="utf-8")
    assert main(["book", str(tmp_path), KO, *ONE]) == 2
    assert "thesis.tex" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["thesis.tex"]


def test_a_rebuild_replaces_the_book_whole(tmp_path):
    out = tmp_path / "book"
    assert main(["book", str(out), KO, *ONE]) == 0
    assert (out / "en" / "cases" / "ko.simple.001.html").is_file()
    assert main(["book", str(out), KO, *OTHER]) == 0
    cases = sorted(p.name for p in (out / "en" / "cases").iterdir())
    assert cases == ["ko.simple.002.html"]  # no stale page of the earlier book
    assert _hidden(out) == []


@pytest.mark.parametrize("entry", ["index.html", "en", "book.pdf"])
def test_a_link_in_outdir_is_refused_and_nothing_outside_is_written(tmp_path, capsys, entry):
    out, outside = tmp_path / "book", tmp_path / "outside"
    assert main(["book", str(out), KO, *ONE]) == 0
    outside.mkdir()
    (outside / "precious.txt").write_text("mine", encoding="utf-8")
    target = outside if entry == "en" else outside / "precious.txt"
    victim = out / entry
    if victim.is_dir():
        import shutil

        shutil.rmtree(victim)
    elif victim.exists():
        victim.unlink()
    victim.symlink_to(target)
    assert main(["book", str(out), KO, *OTHER]) == 2
    assert f"OUTDIR/{entry} is a symbolic link" in capsys.readouterr().err
    assert _tree(outside) == {"precious.txt": b"mine"}


def test_a_dangling_link_as_outdir_or_in_it_is_a_clear_error(tmp_path, capsys):
    dangling = tmp_path / "nowhere-link"
    dangling.symlink_to(tmp_path / "nowhere")
    assert main(["book", str(dangling), KO, *ONE]) == 2
    assert "broken symbolic link" in capsys.readouterr().err
    out = tmp_path / "book"
    out.mkdir()
    (out / "style.css").symlink_to(tmp_path / "nowhere.css")
    assert main(["book", str(out), KO, *ONE]) == 2
    assert "OUTDIR/style.css is a symbolic link" in capsys.readouterr().err
    assert not (tmp_path / "nowhere.css").exists()


def test_a_book_on_a_full_disk_keeps_the_earlier_book(tmp_path):
    out = tmp_path / "book"
    assert main(["book", str(out), KO, *ONE]) == 0
    before = _tree(out)
    done = _jpd(["book", str(out), KO, *OTHER], limit=3000)
    assert done.returncode == 2, done.stderr
    assert "cannot write the book" in done.stderr and "Traceback" not in done.stderr
    assert _tree(out) == before and _hidden(out) == []


def test_a_book_on_a_read_only_file_system_is_a_clear_error(tmp_path, capsys, monkeypatch):
    def read_only(*_args, **_kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(os, "mkdir", read_only)
    assert main(["book", str(tmp_path / "book"), KO, *ONE]) == 2
    assert "Read-only file system" in capsys.readouterr().err


def test_hostile_case_text_is_shown_as_text(tmp_path):
    cases = tmp_path / "hostile.yaml"
    title = (
        '<script>alert(1)</script> <a href="javascript:alert(2)">x</a> '
        "<svg onload=alert(3)><script>alert(4)</script></svg> \u202eevil\u202c zero\u200bwidth"
    )
    cases.write_text(
        f"""format: 1
topic: hostile text
cases:
  - id: hostile.text.001
    title: '{title}'
    spec: [play.move]
    seeds: ["000 §20"]
    rules: [chinese]
    size: 5
    moves: B C3
    note: '<img src=x onerror=alert(5)> javascript:alert(6)'
    expect:
      default: |
        1: legal
""",
        encoding="utf-8",
    )
    out = tmp_path / "book"
    assert main(["book", str(out), str(cases)]) in (0, 1)
    page = (out / "en" / "cases" / "hostile.text.001.html").read_text(encoding="utf-8")
    for raw in ("<script>alert", "<svg onload", "<img src=x", 'href="javascript:', "onerror=alert(5)>"):
        assert raw not in page, raw
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    for other in out.rglob("*.html"):  # wherever the case is listed (index, clause, seed pages)
        text = other.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "<svg onload" not in text and "<img src=x" not in text
        assert not re.search(r"""(href|src)\s*=\s*["']?\s*javascript:""", text, re.I), other


# -- the export ------------------------------------------------------------------------------------
def test_an_export_over_one_whose_sgf_is_a_link_is_refused_and_keeps_it(tmp_path, capsys):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    assert main(["export", "--to", "all", str(out), KO, "--rules", "chinese"]) == 0
    (out / "sgf").rename(elsewhere)
    (out / "sgf").symlink_to(elsewhere)
    before, kept = _tree(out), _tree(elsewhere)
    assert main(["export", "--to", "all", str(out), KO, "--rules", "aga"]) == 2
    assert "OUTDIR/sgf is a symbolic link" in capsys.readouterr().err
    assert _tree(out) == before and _tree(elsewhere) == kept


def test_a_staging_folder_left_by_a_killed_export_is_removed_by_the_next(tmp_path):
    out = tmp_path / "out"
    assert main(["export", "--to", "json", str(out), KO]) == 0
    stale = out / ".jpd-export-999999999-dead"
    (stale / "sgf").mkdir(parents=True)
    assert main(["export", "--to", "json", str(out), KO]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["cases.jsonl"]


@pytest.mark.usefixtures("sigint_reaches_children")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_during_an_export_leaves_the_earlier_export_and_no_staging(tmp_path, signum):
    out = tmp_path / "out"
    assert main(["export", "--to", "json", str(out), KO]) == 0
    before = _tree(out)
    argv = [sys.executable, "-m", "jpdtools.cli", "export", "--to", "all", str(out)]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        staging = [p for p in out.iterdir() if p.name.startswith(".jpd-export-")]
        if staging and any(staging[0].rglob("*.sgf")):
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the export ended before the signal"
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert _tree(out) == before and _hidden(out) == []


# -- no command writes over its inputs (jpdtools/outputs.py) ---------------------------------------
@pytest.fixture
def suite_copy(tmp_path) -> Path:
    cases = tmp_path / "suite" / "ko.yaml"
    cases.parent.mkdir()
    cases.write_text(Path(KO).read_text(encoding="utf-8"), encoding="utf-8")
    return cases


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "{cases}", "--junit", "{cases}"],
        ["run", "--suite", "{suite}", "--junit", "{suite}/report.xml"],
        ["verify", "--impl", "gnugo", "{cases}", "--junit", "{cases}"],
        ["verify", "--impl", "gnugo", "{cases}", "--html", "{cases}"],
        ["verify", "--impl", "gnugo", "{cases}", "--report-dir", "{cases}"],
        ["verify", "--impl", "gnugo", "--suite", "{suite}", "--report-dir", "{suite}/reports"],
        ["export", "--to", "json", "-o", "{cases}", "{cases}"],
        ["export", "--to", "json", "-o", "{suite}/export", "--suite", "{suite}"],
        ["export", "--to", "json", "--out", "{tmp}", "{cases}"],
        ["book", "-o", "{cases}", "{cases}"],
        ["book", "--out", "{tmp}", "{cases}"],
        ["lint", "{cases}", "--gnugo-opinion", "{cases}"],
    ],
)
def test_no_output_is_written_over_an_input(argv, tmp_path, suite_copy, capsys):
    before = suite_copy.read_bytes()
    where = {"cases": str(suite_copy), "suite": str(suite_copy.parent), "tmp": str(tmp_path)}
    argv = [word.format(**where) for word in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("jpd: error: ") and str(tmp_path) in err and err.count("\n") == 1, err
    assert suite_copy.read_bytes() == before
    assert sorted(p.name for p in suite_copy.parent.iterdir()) == ["ko.yaml"]


@pytest.mark.parametrize("option", ["--junit", "--html"])
def test_a_report_is_not_written_over_a_file_of_another_kind(option, tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("# mine\n", encoding="utf-8")
    argv = ["run", KO, *ONE, "--junit", str(readme)] if option == "--junit" else [
        "verify", "--impl", "gnugo", KO, *ONE, "--html", str(readme)
    ]  # fmt: skip
    assert main(argv) == 2
    assert "not an earlier" in capsys.readouterr().err
    assert readme.read_text(encoding="utf-8") == "# mine\n"


def test_an_earlier_report_is_replaced(tmp_path):
    junit = tmp_path / "run.xml"
    assert main(["run", KO, *ONE, "-q", "--junit", str(junit)]) == 0
    first = junit.read_text(encoding="utf-8")
    assert main(["run", KO, *OTHER, "-q", "--junit", str(junit)]) == 0
    assert junit.read_text(encoding="utf-8") != first


def test_nothing_is_written_into_the_suite_jpd_reads(capsys):
    target = conformance_dir() / "nosuch-out.xml"
    assert main(["run", KO, *ONE, "--junit", str(target)]) == 2
    assert "the suite or the specification" in capsys.readouterr().err
    assert not target.exists()
