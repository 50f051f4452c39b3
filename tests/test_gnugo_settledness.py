"""GNU Go's second opinion on the counted positions (spec/counting.md#count.status (6)): a chain
the count leaves alive that GNU Go calls dead, with either side to move, fails lint unless
explained, warns while the diagram is listed as being redrawn, and GNU Go's answers are kept
between runs. GNU Go really runs here (.ci/run installs it)."""

import pytest
from jpdtools.cli import main
from jpdtools.presets import load_presets
from jpdtools.suite.loader import load_case_text
from jpdtools.verify import status_opinion
from jpdtools.verify.implementations import binary_of
from jpdtools.verify.status_opinion import opinions, unsettled

PRESETS = load_presets()

pytestmark = pytest.mark.skipif(binary_of("gnugo") is None, reason="GNU Go is not installed")

# Black's A4-A2 is a straight three with no eye yet: W A3 first kills A1 B1-B4. Black 5 stones and
# 3 points, White 4 stones and 4 points: 8 - 8 - 7.5 under Chinese area counting.
CASE = """
format: 1
cases:
  - id: test.{name}
    title: a 4x4 wall
    spec: [count.status]
    seeds: ["J1989 Art. 7"]
    rules: [chinese]
    board: |
      4x4
      . X O .
      {row3} X O .
      . X O .
      X X O .
    moves: ""
    expect:
      chinese: |
        count: winner W margin {margin}
"""

STRAIGHT_THREE = {"name": "straight-three", "row3": ".", "margin": "-7.5"}
# Black A3 makes two eyes (A4, A2): 6 stones and 2 points, 8 - 8 - 7.5 again.
TWO_EYES = {"name": "two-eyes", "row3": "X", "margin": "-7.5"}


def cases(*which):
    text = "format: 1\ncases:\n" + "".join(CASE.format(**w).split("cases:\n", 1)[1] for w in which)
    return load_case_text(text, "t.yaml", PRESETS).cases


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("JPD_PROOF_CACHE", str(tmp_path / "cache"))


def test_a_counted_chain_gnugo_kills_with_white_to_move_is_not_settled():
    found = opinions(cases(STRAIGHT_THREE, TWO_EYES), PRESETS, {})
    three, eyes = found
    assert three.counted and three.unsettled_chains == (("A1", "B1", "B2", "B3", "B4"),)
    # GNU Go finds it only with White to move: the second engine is what sees it
    assert three.gnugo_dead == () and "A1" in three.gnugo_dead_white_first
    assert eyes.unsettled_chains == ()
    assert unsettled(found, {}) == [three]
    assert unsettled(found, {"test.straight-three": "why GNU Go is wrong"}) == []
    text = status_opinion.report(found, {}, {"test.straight-three": "W A3 kills"})
    assert "| test.straight-three | 4x4 | A1 B1 B2 B3 B4 | White |" in text
    assert "NOT SETTLED, being redrawn: W A3 kills" in text


def test_gnugos_answers_are_kept_and_a_planted_answer_is_not_believed(tmp_path, monkeypatch):
    first = opinions(cases(STRAIGHT_THREE), PRESETS, {})
    kept = sorted((tmp_path / "cache" / "gnugo-opinions").glob("*.json"))
    assert len(kept) == 2  # Black to move, White to move

    def no_engine(self, to_move):
        raise AssertionError("GNU Go was started")

    with monkeypatch.context() as m:
        m.setattr(status_opinion._Engines, "client", no_engine)
        assert opinions(cases(STRAIGHT_THREE), PRESETS, {}) == first
    for path in kept:  # an answer planted without the folder's key (no dead stones) is not believed
        path.write_bytes(b"0" * 64 + b"\n" + b'{"dead": [], "seki": []}')
    assert opinions(cases(STRAIGHT_THREE), PRESETS, {}) == first


def lint(tmp_path, capsys, explained: str = "", redrawn: str = "") -> tuple[int, str]:
    case_file = tmp_path / "t.yaml"
    case_file.write_text(CASE.format(**STRAIGHT_THREE), encoding="utf-8")
    (tmp_path / "explained.yaml").write_text(explained, encoding="utf-8")
    (tmp_path / "redrawn.yaml").write_text(redrawn, encoding="utf-8")
    status = main(
        [
            "lint",
            "--gnugo-opinion",
            str(tmp_path / "opinion.md"),
            "--gnugo-explanations",
            str(tmp_path / "explained.yaml"),
            "--gnugo-redrawing",
            str(tmp_path / "redrawn.yaml"),
            str(case_file),
        ]
    )
    out = capsys.readouterr()
    return status, out.out + out.err


def test_lint_fails_on_a_counted_position_gnugo_does_not_read_as_settled(tmp_path, capsys):
    status, text = lint(tmp_path, capsys)
    assert status == 1
    assert "test.straight-three: GNU Go calls A1 B1 B2 B3 B4 dead" in text and "[settledness]" in text
    # the project's own prover finds the same capture, and no explanation of GNU Go's answer or
    # being-redrawn entry silences it: only GNU Go's message goes
    prover = "test.straight-three: B A1 (+4), counted alive, is captured by W A3"
    assert prover in text
    status, text = lint(tmp_path, capsys, explained="test.straight-three: a proof that Black lives\n")
    assert status == 1 and "GNU Go calls" not in text and prover in text
    status, text = lint(tmp_path, capsys, redrawn="test.straight-three: W A3 kills\n")
    assert status == 1 and "warning: test.straight-three: GNU Go calls" in text and prover in text
    status, text = lint(tmp_path, capsys, redrawn="test.straight-three: W A3 kills\ntest.gone: x\n")
    assert "test.gone is listed in" in text and "drop it" in text
