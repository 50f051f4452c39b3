"""A guard that stays: malformed input fed to every ``jpd`` command, in process (issue 12).

Hypothesis mutates valid diagrams, SGF records and case files (and builds command lines from the
commands' own options) and runs them through :func:`jpdtools.cli.main`. Whatever it generates:

* no traceback — every exception is caught and turned into a one-line ``jpd: error:`` message;
* a located error — an input file that is refused is named in the message (with line and column
  where the input has them);
* a non-zero exit for what was refused — a message on stderr goes with exit status 1, 2 or 3;
* nothing written half — an export that fails leaves no OUTDIR and no temporary file behind.

Bounded (40 examples per input kind, ``JPD_FUZZ_EXAMPLES`` for more; no deadline) and
derandomized under ``CI=true`` (the ``ci`` profile of ``tests/conftest.py``), so CI runs the same
examples every time.
"""

import contextlib
import io
import os
import traceback
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jpdtools.cli import main

EXAMPLES = int(os.environ.get("JPD_FUZZ_EXAMPLES", "40"))  # more for a deeper local run
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

DIAGRAM = "5x5 W\n  A B C D E\n5 . . . . . 5\n4 . X O . . 4\n3 X O a O . 3\n2 . X O . . 2\n1 . . . . . 1\n"
SGF = "(;GM[1]FF[4]SZ[9]KM[7.5]RE[W+R]C[a \\] comment]AB[cc][dd:ee]PL[W];W[gg];B[];W[tt]TB[aa]TW[ii])"
CASE = """format: 1
cases:
  - id: fuzz.case
    title: A capture
    spec: [capture.order]
    seeds: ["000 §20"]
    board: |
      5x5 B
      . . . . .
      . . X . .
      . X O a .
      . . X . .
      . . . . .
    moves: B @a W pass
    expect:
      default: |
        1: legal captures C3
        2: legal to-move B
      japanese: |
        1: legal captures C3
        end: contest B
"""

# Characters each syntax is made of, plus a few that none of them uses.
DIAGRAM_CHARS = "XOxo.+abcz0123456789 \nABCDEx#|"
SGF_CHARS = "();[]\\:ABCWGMSZPLtaz0123456789 \n\r%é"
YAML_CHARS = "abcdefgxyz0123456789:-|[]{}#\"' \n.@&*!%\\\t"


def mutated(base: str, alphabet: str) -> st.SearchStrategy[str]:
    """``base`` with a few characters replaced, inserted or deleted, or cut short."""
    edit = st.tuples(
        st.sampled_from(("replace", "insert", "delete", "cut", "repeat")),
        st.integers(0, len(base)),
        st.text(alphabet=alphabet, min_size=1, max_size=6),
    )

    def apply(edits) -> str:
        text = base
        for kind, at, chunk in edits:
            at = min(at, len(text))
            if kind == "replace":
                text = text[:at] + chunk + text[at + len(chunk) :]
            elif kind == "insert":
                text = text[:at] + chunk + text[at:]
            elif kind == "delete":
                text = text[:at] + text[at + len(chunk) :]
            elif kind == "cut":
                text = text[:at]
            else:
                text = text[:at] + chunk * 200 + text[at:]
        return text

    return st.lists(edit, min_size=1, max_size=4).map(apply)


def run_jpd(argv: list[str]) -> tuple[int, str, str]:
    """``jpd ARGV`` in process: (exit status, stdout, stderr). An exception escaping ``main`` is
    a failure of the guard, reported with its traceback."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exit_:  # argparse: usage errors exit 2, --help exits 0
            status = exit_.code if isinstance(exit_.code, int) else 2
        except BaseException:
            raise AssertionError(f"jpd {argv!r} raised:\n{traceback.format_exc()}") from None
    return status, out.getvalue(), err.getvalue()


def check(argv: list[str], path: Path | None = None) -> tuple[int, str]:
    status, _out, err = run_jpd(argv)
    assert "Traceback" not in err, err
    if "jpd: error:" in err or "usage:" in err:
        assert status != 0, f"jpd {argv!r}: an error with exit status 0:\n{err}"
    if status == 2 and path is not None and "jpd: error:" in err:
        assert str(path) in err, f"jpd {argv!r}: the error does not name the input:\n{err}"
    return status, err


def _write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


@FUZZ
@given(text=mutated(DIAGRAM, DIAGRAM_CHARS))
def test_malformed_diagrams(text, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("diagram")
    path = _write(tmp, "position.txt", text)
    check(["play", "--rules", "all", str(path), "--moves", "B D3 W pass"], path)
    check(["count", "--rules", "chinese+japanese", str(path), "--dead", "C4"], path)


@FUZZ
@given(text=mutated(SGF, SGF_CHARS))
def test_malformed_sgf(text, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sgf")
    path = _write(tmp, "game.sgf", text)
    check(["replay", str(path), "--rules", "all"], path)
    check(["play", "--rules", "jpd-2022", str(path)], path)
    check(["count", "--rules", "tromp-taylor", str(path)], path)


@FUZZ
@given(text=mutated(CASE, YAML_CHARS))
def test_malformed_case_files(text, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("case")
    path = _write(tmp, "cases.yaml", text)
    status, _ = check(["run", str(path), "-q"])
    assert status in (0, 1, 2, 3)
    out = tmp / "export"
    status, err = check(["export", "--to", "all", str(out), str(path)])
    if status == 2:  # refused: nothing was written, not even half
        assert not out.exists(), err
    leftovers = [p.name for p in tmp.rglob("*") if p.name.startswith(".")]
    assert leftovers == [], leftovers


KO_SOURCE = Path(__file__).resolve().parents[1] / "conformance" / "ko.yaml"  # a small case file
KO = "CASES.yaml"  # in argv: replaced by a copy of KO_SOURCE in the example's own temporary folder
OPTIONS = {
    "run": ["--rules", "--tag", "--id", "--json", "--junit", "-q", "-v"],
    "play": ["--rules", "--moves", "--size", "--handicap", "--json"],
    "rules": ["--json"],
    "explain": ["--rules", "--path"],
    "lint": ["--ids", "--no-coverage-table"],
    "verify": ["--impl", "--id", "--rules", "--jobs", "--timeout", "--expected-failures", "--junit"],
    "export": ["--to", "--id", "--rules"],
    "count": ["--rules", "--dead", "--seki", "--claim", "--counters", "--moves", "--json"],
    "replay": ["--rules", "--json", "-v", "--out", "--summary"],
}
VALUES = st.sampled_from(
    ["", " ", "chinese", "all", "nosuch", "chinese:repetition=simple-ko,repetition=positional", "5x",
     "0", "-1", "99", "inf", "nan", "B Z99", "B C3 W C3", "handicap=-3", "moves=1,x", "ko.*",
     "B ko Z9", "@a", "json", "/dev/null", "%", "é", "gtp:", "jsonl:"]
)  # fmt: skip


@st.composite
def command_lines(draw) -> list[str]:
    command = draw(st.sampled_from(sorted(OPTIONS)))
    argv = [command]
    for _ in range(draw(st.integers(0, 4))):
        argv.append(draw(st.sampled_from(OPTIONS[command])))
        if draw(st.booleans()):
            argv.append(draw(VALUES))
    if command in ("run", "export", "lint", "verify"):
        argv.append(KO)  # a small file: the whole suite would make each example seconds long
    if command == "verify":
        argv += ["--id", "zz.fuzz.nothing"]  # never start a real program from the fuzzer
    if command == "explain":
        argv.append(draw(st.sampled_from(["ko.simple.001", "nosuch", ""])))
    return argv


@FUZZ
@given(argv=command_lines())
def test_command_lines(argv, tmp_path_factory, monkeypatch):
    tmp = tmp_path_factory.mktemp("argv")
    monkeypatch.chdir(tmp)  # a stray OUTDIR or --junit lands here, never in the checkout
    cases = tmp / "cases" / "ko.yaml"  # a copy: a bare --junit before it may name it as output
    cases.parent.mkdir()
    cases.write_bytes(KO_SOURCE.read_bytes())
    argv = [str(cases) if word == KO else word for word in argv]
    check(argv)
    assert cases.read_bytes() == KO_SOURCE.read_bytes(), f"jpd {argv!r} wrote over its input"
    leftovers = [p.name for p in tmp.rglob("*") if p.name.startswith(".")]
    assert leftovers == [], leftovers
