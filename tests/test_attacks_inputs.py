"""Inputs too large to load, and absurd time limits (issue 25, part B, "unbounded").

A case file over MAX_CASE_FILE_BYTES is one located error, read no further (a 50 MB file of
small cases took over 4 GB to load); ``--timeout`` beyond a day is a usage error for ``jpd
verify`` and ``jpd fuzz`` (1e10 s overflowed the timers).
"""

import pytest
from jpdtools.cli import main
from jpdtools.errors import MAX_CASE_FILE_BYTES

CASE = """  - id: big.{n}
    title: A move
    spec: [play.move]
    seeds: ["000 §20"]
    rules: [chinese]
    size: 5
    moves: B C3
    expect:
      default: "1: legal"
"""


def test_a_case_file_over_the_limit_is_one_located_error(tmp_path, capsys):
    big = tmp_path / "big.yaml"
    with big.open("w", encoding="utf-8") as f:
        f.write("format: 1\ntopic: too many\ncases:\n")
        n = 0
        while f.tell() <= MAX_CASE_FILE_BYTES:
            f.write(CASE.format(n=n))
            n += 1
    assert main(["run", str(big), "-q"]) in (1, 2)
    captured = capsys.readouterr()
    err = captured.err + captured.out
    assert f"{big}: larger than {MAX_CASE_FILE_BYTES:,} bytes" in err


def test_a_case_file_just_under_the_limit_loads(tmp_path):
    small = tmp_path / "ok.yaml"
    small.write_text("format: 1\ntopic: fine\ncases:\n" + CASE.format(n=0), encoding="utf-8")
    assert main(["run", str(small), "-q"]) == 0


@pytest.mark.parametrize("command", ["verify", "fuzz"])
@pytest.mark.parametrize("value", ["1e10", "86401"])
def test_a_timeout_beyond_a_day_is_a_usage_error(capsys, command, value):
    extra = ["--rules", "chinese", "--games", "1"] if command == "fuzz" else ["--id", "ko.simple.001"]
    assert main([command, "--impl", "gnugo", "--timeout", value, *extra]) == 2
    assert "at most 86,400 seconds" in capsys.readouterr().err
