"""Attacks by what a command reads: every input file goes through one bounded reader (a FIFO
with no writer, a link to ``/dev/zero``, a folder, a file over the limit: each an exit-2 error
naming it, nothing hangs or fills memory), and a character a reader cannot see (a bidi override,
a zero-width space) in a case file is a lint problem and is shown, never acting, in the book."""

import os
import re
import resource
import subprocess
import sys
import textwrap
import unicodedata

import pytest
from jpdtools.book.page import esc
from jpdtools.cli import main
from jpdtools.errors import InputError, TooLarge, read_bytes, read_text_file
from jpdtools.hidden import hidden_character, made_visible

KO = "conformance/ko.yaml"


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))  # 1 GiB: /dev/zero read whole fails fast


def jpd(*args: str, cwd) -> subprocess.CompletedProcess:
    """``jpd ARGS`` in a process of its own: a read that blocks is a timeout, not a hung test."""
    code = "import sys; from jpdtools.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limited,
    )


@pytest.fixture(params=["fifo", "zero", "folder"])
def unreadable(request, tmp_path):
    path = tmp_path / "input"
    if request.param == "fifo":
        os.mkfifo(path)
        return path, "a named pipe (FIFO)"
    if request.param == "zero":
        path.symlink_to("/dev/zero")
        return path, "a character device"
    path.mkdir()
    return path, "a folder"


def test_the_reader_refuses_what_is_not_a_file_without_blocking(unreadable):
    path, kind = unreadable
    with pytest.raises(InputError, match=re.escape(f"it is {kind}, not a file")):
        read_bytes(path, "the list")


def test_the_reader_reads_at_most_its_limit(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("x" * 11, encoding="utf-8")
    assert read_text_file(path, limit=11) == "x" * 11
    with pytest.raises(TooLarge, match="larger than 10 bytes"):
        read_bytes(path, "the list", limit=10)


def test_an_expected_failure_list_that_is_no_file_is_an_error(unreadable, tmp_path):
    path, kind = unreadable
    program = textwrap.dedent("import time; time.sleep(60)")
    (tmp_path / "p.py").write_text(program, encoding="utf-8")
    done = jpd(
        "verify",
        "--impl",
        f"jsonl:{sys.executable} {tmp_path / 'p.py'}",
        "--expected-failures",
        str(path),
        KO,
        cwd=os.getcwd(),
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert f"{path}: cannot read the expected-failure list: it is {kind}" in done.stderr


def test_a_review_file_or_a_report_that_is_no_file_is_an_error(unreadable, tmp_path):
    path, kind = unreadable
    suite = tmp_path / "suite"
    suite.mkdir()
    done = jpd("review", "apply", str(path), "--suite", str(suite), "--dry-run", cwd=os.getcwd())
    assert done.returncode == 2 and f"cannot read review file: it is {kind}" in done.stderr
    reports = tmp_path / "reports"
    (reports / "prog").mkdir(parents=True)
    (reports / "prog" / "report.json").symlink_to(path)
    done = jpd("matrix", str(reports), cwd=os.getcwd())
    assert done.returncode == 2 and f"cannot read the verify report: it is {kind}" in done.stderr


CASE = """\
format: 1
cases:
  - id: rv.one.001
    title: "one {hidden} two"
    spec: [play.move]
    seeds: ["000 §13"]
    size: 5
    moves: B C3
    expect:
      default: "1: legal"
"""


@pytest.mark.parametrize(
    ("hidden", "name"),
    [
        ("\u202e", "RIGHT-TO-LEFT OVERRIDE"),
        ("\u200b", "ZERO WIDTH SPACE"),
        ("\u2067", "RIGHT-TO-LEFT ISOLATE"),
    ],
)
def test_a_hidden_character_in_a_case_file_is_a_lint_problem(tmp_path, capsys, hidden, name):
    path = tmp_path / "t.yaml"
    path.write_text(CASE.format(hidden=hidden), encoding="utf-8")
    assert main(["lint", str(path)]) == 1
    out = capsys.readouterr().out
    assert (
        f"{path}:4:17: U+{ord(hidden):04X} {name}: a character a reader cannot see [hidden-character]" in out
    )


def test_the_book_shows_a_hidden_character_as_its_code_point():
    assert esc("one \u202e<two>") == "one ⟦U+202E⟧&lt;two&gt;"
    assert made_visible("a\nb\tc\u200bd") == "a\nb\tc⟦U+200B⟧d"
    assert made_visible("计枰点 ·") == "计枰点 ·"
    assert hidden_character("ok\nno", multiline=False) == "U+000A a control character at character 3"


def test_every_code_point_is_shown_as_the_categories_say():
    every = "".join(chr(code) for code in range(sys.maxunicode + 1) if not 0xD800 <= code <= 0xDFFF)

    def shown(ch: str) -> str:
        hidden = ch not in "\n\t" and unicodedata.category(ch) in {"Cc", "Cf", "Zl", "Zp"}
        return f"⟦U+{ord(ch):04X}⟧" if hidden else ch

    one_by_one = "".join(shown(ch) for ch in every)
    assert made_visible(every) == one_by_one
    assert made_visible("a\u2028b\u2029c\x00") == "a⟦U+2028⟧b⟦U+2029⟧c⟦U+0000⟧"


@pytest.mark.slow  # builds a book
def test_a_built_book_holds_no_hidden_character(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(CASE.format(hidden="\u202e"), encoding="utf-8")
    assert main(["book", "--out", str(tmp_path / "book"), str(path)]) == 0
    pages = [p for p in (tmp_path / "book").rglob("*") if p.suffix in (".html", ".json", ".svg")]
    texts = [p.read_text(encoding="utf-8") for p in pages]
    assert not [p for p, t in zip(pages, texts, strict=True) if "\u202e" in t]
    assert any("one ⟦U+202E⟧ two" in t for t in texts)


def test_an_id_register_that_is_not_text_is_an_error_naming_it(tmp_path):
    from jpdtools.review.lint import read_ids

    path = tmp_path / "ids.txt"
    path.write_bytes(b"ko.simple.001\n\xff\xfe\n")
    with pytest.raises(InputError, match="not UTF-8"):
        read_ids(path)
