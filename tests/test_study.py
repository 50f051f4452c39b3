"""``jpd study``: the compatibility claims measured on the committed corpus of finished games
(benchmarks/corpus/, GNU Go self-play to two passes, dead stones and territory marked), and the
corpus generator itself, run for real against GNU Go.

The claim the table makes — every difference between two rulesets' counts of one game is made
of the compatibility theorems' terms (spec/counting.md#count.theorems) — must hold on the sample:
no ``unexplained`` row. jpd's Chinese and Japanese counts must equal GNU Go's own score (RE) on
every game, except where the difference is classified (GNU Go's area score leaves seki eyes out).
"""

import json
import os
import shutil
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from jpdtools.book.samplestudy import study_of
from jpdtools.book.studypage import study_page
from jpdtools.cli import main
from jpdtools.commands import book as book_command
from jpdtools.paths import sample_corpus
from jpdtools.presets import load_presets
from jpdtools.records.sources import find_sources, read_records
from jpdtools.records.study import Counted, _terms, compare

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "benchmarks" / "corpus" / "gnugo-sample.tar.xz"
GNUGO = shutil.which("gnugo") or "/usr/games/gnugo"


def _study(capsys, *args: str) -> tuple[int, dict]:
    status = main(["study", str(SAMPLE), "--json", *args])
    return status, json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def sample_study():
    """The study a book of the whole suite carries (jpdtools/book/samplestudy.py: the shipped
    sample, every preset, each game's komi), run once, with what it told its progress."""
    told = []
    result = study_of(SAMPLE, load_presets(), lambda *step: told.append(step))
    return result, told


@pytest.fixture(scope="module")
def by_record_komi(sample_study):
    return sample_study[0]


def test_the_sample_is_a_few_hundred_finished_games(by_record_komi):
    assert by_record_komi["records"] >= 200 and by_record_komi["unreadable"] == []
    # every game ends with two passes and carries marks: counted under every ruleset
    assert all(r["counted"] == by_record_komi["records"] for r in by_record_komi["rulesets"].values())


def test_every_difference_between_rulesets_is_explained_by_the_theorems(by_record_komi):
    assert by_record_komi["unexplained"] == []
    causes = {c for p in by_record_komi["pairs"] for c in p["causes"]}
    assert {"收后", "basic eye points", "no agreement"} <= causes
    assert "komi" not in causes  # one komi, the record's, for every ruleset


def test_jpd_counts_equal_the_engines_own_score_or_the_difference_is_classified(by_record_komi):
    engine = by_record_komi["engine_score"]
    assert engine["compared"] == by_record_komi["records"]
    assert all(d["cause"] != "unexplained" for d in engine["differ"])
    assert engine["equal"] >= engine["compared"] - len(engine["differ"])
    assert all(d["ruleset"] == "chinese" and "seki" in d["cause"] for d in engine["differ"])


def test_with_each_rulesets_own_komi_the_komi_is_a_cause(capsys):
    status, result = _study(capsys, "--rules", "chinese+japanese+jpd-a")
    assert status == 0 and result["komi_source"] == "rules"
    causes = {c for p in result["pairs"] for c in p["causes"]}
    assert "komi" in causes and result["unexplained"] == []
    engine = result["engine_score"]
    assert all(d["cause"] != "unexplained" for d in engine["differ"])


def _counted(name, winner, margin, komi, before, terms=(), area=Fraction(0), refusals=0):
    return Counted(
        name,
        winner,
        Fraction(margin),
        Fraction(komi),
        Fraction(before),
        area,
        terms,
        "",
        refusals,
        Fraction(0),
    )


def test_a_difference_the_terms_do_not_make_up_is_unexplained():
    # T4: art with 6.5 and area with 7.5 agree when Black made the last move (the terms cancel).
    art = _counted("art", "B", "0.5", "6.5", 7, (("收后", Fraction(-1)),))
    assert compare(art, _counted("area", "B", "0.5", "7.5", 8), "g") is None
    area = _counted("area", "B", "1.5", "6.5", 8)
    diff = compare(art, area, "g")
    assert diff is not None and dict(diff.causes) == {"收后": -1} and not diff.winner_differs
    wrong = _counted("art", "W", "-1.5", "6.5", 5, (("收后", Fraction(-1)),))
    diff = compare(wrong, area, "g")
    assert dict(diff.causes) == {"收后": -1, "unexplained": -2} and diff.winner_differs
    komi = compare(_counted("a", "B", "1.5", "6.5", 8), _counted("b", "W", "-0.5", "8.5", 8), "g")
    assert dict(komi.causes) == {"komi": 2}


def test_an_overflow_is_read_from_the_count_not_its_steps():
    from dataclasses import replace

    from jpdref.counting.equal_stones import count_art
    from test_counting import overflow

    fp = overflow()  # Black owes 4 stones, 2 fit: 2 overflow (tests/test_counting.py)
    count = count_art(fp, 0)
    assert count.overflow == (2, 0) and "fill-back overflow" in _terms(fp, Fraction(0), count)
    silent = replace(count, steps=())  # no word of it in the steps: still an overflow
    assert "fill-back overflow" in _terms(fp, Fraction(0), silent)
    worded = replace(count, overflow=(0, 0), steps=("overflow",))  # the word alone is not one
    assert "fill-back overflow" not in _terms(fp, Fraction(0), worded)


def test_an_empty_selection_is_nothing_selected(tmp_path, capsys):
    assert main(["study", str(tmp_path)]) == 3
    assert "no game record in" in capsys.readouterr().err


def test_a_komi_beyond_the_bound_is_a_record_error_not_the_rulesets_komi(tmp_path, capsys):
    # spec/counting.md#count.replay: a KM is at most 1000 points either way
    game = "(;FF[4]GM[1]SZ[5]KM[{}]RU[Chinese];B[cc];W[];B[])"
    (tmp_path / "far.sgf").write_text(game.format("1000.5"), encoding="utf-8")
    (tmp_path / "edge.sgf").write_text(game.format("-1000"), encoding="utf-8")
    status = main(["study", str(tmp_path), "--komi", "record", "--rules", "chinese", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert status == 1 and result["records"] == 1  # the edge of the bound is a komi
    (error,) = result["record_errors"]
    assert (
        error["record"].endswith("far.sgf")
        and error["code"] == "komi-range"
        and "KM[1000.5]" in error["message"]
    )
    # each ruleset's own komi: the record's KM is not read, nothing to refuse
    status = main(["study", str(tmp_path), "--rules", "chinese", "--json"])
    assert status == 0 and json.loads(capsys.readouterr().out)["record_errors"] == []
    # jpd replay: the same record error, that record alone
    status = main(["replay", str(tmp_path), "--komi", "record", "--rules", "chinese"])
    out = capsys.readouterr().out
    assert status == 1 and "1 record errors" in out and "KM[1000.5] is beyond the ±1000 points" in out


def test_different_boards_are_a_refusal_not_a_theorem():
    a = _counted("x", "B", 3, 0, 3, area=Fraction(3), refusals=1)
    b = _counted("y", "W", -1, 0, -1, area=Fraction(-1))
    assert dict(compare(a, b, "g").causes) == {"refusal": 4}


def test_the_page_shows_the_matrix_and_escapes_record_names(by_record_komi):
    result = dict(by_record_komi, komi_source="record")
    first = next(iter(result["examples"].values()))
    result["examples"] = {"收后": dict(first, record="<script>alert(1)</script>")}
    html = study_page(result)
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    assert html.count("<table>") >= 4 and "same winner" in html.lower() and "全兼容" in html


def test_jpd_study_writes_json_and_a_page(tmp_path, capsys):
    out = tmp_path / "study"
    assert (
        main(["study", str(SAMPLE), "--rules", "chinese+japanese", "--komi", "record", "--out", str(out)])
        == 0
    )
    capsys.readouterr()
    data = json.loads((out / "study.json").read_text(encoding="utf-8"))
    assert data["records"] >= 200 and (out / "index.html").read_text(encoding="utf-8").startswith(
        "<!DOCTYPE html>"
    )
    # the study is a section of the book, in both editions: the table and a page per cause
    book = tmp_path / "book"
    status = main(["book", "-o", str(book), "--id", "ko.simple.001", "--study", str(out / "study.json")])
    captured = capsys.readouterr()
    assert status == 0 and "jpd book: running" in captured.err and "jpd book: writing" in captured.err
    causes = {c for p in data["pairs"] for c in p["causes"]}
    assert causes and "收后" in causes
    for edition in ("en", "zh"):
        index = (book / edition / "study" / "index.html").read_text(encoding="utf-8")
        assert 'href="last-move.html"' in index and index.count('<table class="matrix study">') == 2
        cause = (book / edition / "study" / "last-move.html").read_text(encoding="utf-8")
        assert "count.theorems" in cause and cause.count("<svg") >= 2  # the example under both rulesets
        differences = (book / edition / "differences" / "index.html").read_text(encoding="utf-8")
        assert 'href="../study/index.html"' in differences
    zh = (book / "zh" / "study" / "index.html").read_text(encoding="utf-8")
    assert "全兼容的实测" in zh and "胜负相同" in zh
    # a file that is not a study is bad input
    (tmp_path / "other.json").write_text('{"records": 3}', encoding="utf-8")
    assert (
        main(["book", "-o", str(book), "--id", "ko.simple.001", "--study", str(tmp_path / "other.json")]) == 2
    )
    assert "not a study.json of jpd study (no rulesets" in capsys.readouterr().err


def test_a_book_of_the_whole_suite_studies_the_shipped_sample(tmp_path, capsys, monkeypatch, sample_study):
    """``jpd book`` of a whole suite (here --suite DIR) runs the study on the shipped sample with
    every preset and each game's komi, saying so while it runs, and carries it in both editions,
    the index leading to it; a selection of the suite or --no-study leaves it out."""
    result, told = sample_study
    calls = []

    def study_once(path, presets, progress=None):
        # the sample's study is run once in this module (the fixture, the same function on the
        # same sample): the command's call gets its result and its progress again
        calls.append((path, presets.names))
        for step in told:
            progress(*step)
        return result

    monkeypatch.setattr(book_command, "study_of", study_once)
    suite = tmp_path / "suite"
    suite.mkdir()
    shutil.copy(REPO / "conformance" / "counting-examples.yaml", suite)
    book = tmp_path / "book"
    assert main(["book", "-o", str(book), "--suite", str(suite)]) == 0
    assert "jpd book: studying" in capsys.readouterr().err
    assert calls == [(sample_corpus(), load_presets().names)] and sample_corpus() == SAMPLE
    records = len(list(read_records(find_sources([str(SAMPLE)]))))
    for edition in ("en", "zh"):
        study = (book / edition / "study" / "index.html").read_text(encoding="utf-8")
        assert study.count('<table class="matrix study">') == 2
        index = (book / edition / "index.html").read_text(encoding="utf-8")
        assert 'href="study/index.html"' in index and f"{records} " in index
    matrix = (book / "en" / "study" / "index.html").read_text(encoding="utf-8")
    assert all(f">{name}<" in matrix for name in load_presets().names)  # every preset
    for extra in (["--no-study"], ["--id", "count.example.*"]):
        assert main(["book", "-o", str(book), "--suite", str(suite), *extra]) == 0
        assert not (book / "en" / "study").exists() and "studying" not in capsys.readouterr().err
    assert len(calls) == 1
    (tmp_path / "s.json").write_text("{}", encoding="utf-8")
    assert main(["book", "-o", str(book), "--study", str(tmp_path / "s.json"), "--no-study"]) == 2
    assert "contradict" in capsys.readouterr().err


@pytest.mark.skipif(
    not Path(GNUGO).exists() and not os.environ.get("CI"), reason="GNU Go is not installed (CI installs it)"
)
def test_the_generator_plays_a_finished_game_that_jpd_counts_as_gnu_go_does(tmp_path, capsys):
    sys.path.insert(0, str(REPO / "benchmarks" / "corpus"))
    try:
        import generate
    finally:
        sys.path.pop(0)
    assert generate.draw_plan(2026, 5, [9], [1]) == generate.draw_plan(2026, 5, [9], [1])  # reproducible
    assert (
        generate.main([str(tmp_path), "--games", "1", "--sizes", "9", "--levels", "1", "--engine", GNUGO])
        == 0
    )
    (record,) = tmp_path.glob("*.sgf")
    text = record.read_text(encoding="utf-8")
    moves = text.replace("\n", "")
    assert "RE[" in text and ("TB[" in text or "TW[" in text)
    assert all(node[1:3] == "[]" for node in moves.split(";")[-2:])  # the last two moves are passes
    capsys.readouterr()
    status = main(["study", str(tmp_path), "--komi", "record", "--json", "--rules", "chinese+japanese"])
    result = json.loads(capsys.readouterr().out)
    engine = result["engine_score"]
    assert status == 0 and engine["compared"] == 1
    assert engine["equal"] == 1 or "seki" in engine["differ"][0]["cause"]
