"""Attacks on GNU Go's second opinion (``jpd lint --gnugo-opinion``): an opinion not had is never
taken for one. A GNU Go that exits at once, answers ``?`` or garbage to ``final_status_list``, or
hangs on it gives no opinion, lint says so and is not OK; the whole opinion has a time limit."""

import sys
import textwrap
import time

import pytest
from jpdtools.cli import main
from jpdtools.presets import load_presets
from jpdtools.suite.loader import load_case_text
from jpdtools.verify import implementations, status_opinion
from jpdtools.verify.status_opinion import opinions

PRESETS = load_presets()

CASES = """
format: 1
cases:
  - id: test.dead-stone
    title: a white stone in Black's corner
    spec: [count.status]
    seeds: ["J1989 Art. 7"]
    rules: [japanese]
    board: |
      5x5
      o . X . .
      . X X . .
      X X . . .
      . . . . .
      . . . . .
    moves: ""
    expect:
      japanese: |
        count: winner W margin -6.5
  - id: test.dead-stone-2
    title: the same corner, one point further
    spec: [count.status]
    seeds: ["J1989 Art. 7"]
    rules: [japanese]
    board: |
      6x6
      o . X . . .
      . X X . . .
      X X . . . .
      . . . . . .
      . . . . . .
      . . . . . .
    moves: ""
    expect:
      japanese: |
        count: winner W margin -6.5
"""

# A GNU Go in name only: a GTP engine accepting the set-up, then MODE on final_status_list.
FAKE = textwrap.dedent(
    """
    import sys, time
    mode = sys.argv[1]
    if mode == "exit":
        sys.exit(0)
    for line in sys.stdin:
        words = line.split()
        cid, name = words[0], words[1]
        if name == "final_status_list":
            if mode == "hang":
                time.sleep(3600)
            reply = {"refuse": "? unknown command", "garbage": "= Z99 Q", "agree": "= A5"}[mode]
            if words[2] == "seki" and mode == "agree":
                reply = "="
            sys.stdout.write(reply[0] + cid + reply[1:] + "\\n\\n")
        elif name == "quit":
            sys.stdout.write("=" + cid + "\\n\\n")
            sys.stdout.flush()
            break
        else:
            sys.stdout.write("=" + cid + "\\n\\n")
        sys.stdout.flush()
    """
)


def fake_gnugo(tmp_path, mode: str) -> str:
    script = tmp_path / "fake_gnugo.py"
    script.write_text(FAKE, encoding="utf-8")
    runner = tmp_path / f"gnugo-{mode}"
    runner.write_text(f"#!/bin/sh\nexec {sys.executable} {script} {mode}\n", encoding="utf-8")
    runner.chmod(0o755)
    return str(runner)


def cases():
    return load_case_text(CASES, "t.yaml", PRESETS).cases


def test_an_engine_that_answers_gives_an_opinion(tmp_path):
    found = opinions(cases()[:1], PRESETS, {}, fake_gnugo(tmp_path, "agree"))
    assert [(o.gnugo_dead, o.missing) for o in found] == [(("A5",), False)]


@pytest.mark.parametrize(
    ("mode", "why"),
    [
        ("exit", "GNU Go failed"),
        ("refuse", "with ? 'unknown command'"),
        ("garbage", "with 'Z99 Q'"),
    ],
)
def test_no_opinion_is_not_an_opinion_of_no_dead_stones(tmp_path, mode, why):
    found = opinions(cases(), PRESETS, {}, fake_gnugo(tmp_path, mode))
    assert all(o.missing and o.gnugo_dead == () for o in found)
    assert why in found[0].skipped
    assert status_opinion.missing(found) == found
    assert not any(o.disagrees for o in found)  # not a disagreement either: nothing was had


def test_a_hanging_engine_is_bounded_by_the_time_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(status_opinion, "COMMAND_SECONDS", 30.0)
    began = time.monotonic()
    found = opinions(cases(), PRESETS, {}, fake_gnugo(tmp_path, "hang"), budget=0.5)
    assert time.monotonic() - began < 30  # the budget, not the per-command limit, ended it
    assert all(o.missing for o in found)
    assert "time limit (0.5 s) ran out" in found[-1].skipped


def test_lint_is_not_ok_without_the_opinion_it_was_asked_for(tmp_path, monkeypatch, capsys):
    case_file = tmp_path / "t.yaml"
    case_file.write_text(CASES, encoding="utf-8")
    monkeypatch.setattr(implementations, "binary_of", lambda name: fake_gnugo(tmp_path, "exit"))
    out = tmp_path / "opinion.md"
    status = main(
        [
            "lint",
            "--gnugo-opinion",
            str(out),
            "--gnugo-explanations",
            str(tmp_path / "none.yaml"),
            str(case_file),
        ]
    )
    text = capsys.readouterr()
    assert status == 1
    assert "GNU Go gave no opinion on 2 of 2 case(s)" in text.out + text.err


@pytest.mark.parametrize("content", ["- a\n- b\n", "a: [\n", "a: 1\n"])
def test_bad_explanations_are_an_error_naming_the_file(tmp_path, monkeypatch, capsys, content):
    case_file = tmp_path / "t.yaml"
    case_file.write_text(CASES, encoding="utf-8")
    explained = tmp_path / "explanations.yaml"
    explained.write_text(content, encoding="utf-8")
    monkeypatch.setattr(implementations, "binary_of", lambda name: fake_gnugo(tmp_path, "agree"))
    argv = ["lint", "--gnugo-opinion", str(tmp_path / "o.md"), "--gnugo-explanations", str(explained)]
    assert main([*argv, str(case_file)]) == 2
    err = capsys.readouterr().err
    assert str(explained) in err and "Traceback" not in err
