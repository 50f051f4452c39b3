"""Honest defaults of jpd verify (issue 21.6): a bundled profile's own expected failures, an
engine that cannot start, a run that played nothing."""

import json
import sys

import pytest
from jpdtools.cli import main
from jpdtools.paths import bundled_expected_failures
from jpdtools.verify.implementations import binary_of

needs_gnugo = pytest.mark.skipif(binary_of("gnugo") is None, reason="GNU Go is not installed")


def first_listed(profile: str) -> str:
    """The case id of the first entry of a bundled list (a known failure of that profile)."""
    path = bundled_expected_failures(profile)
    assert path is not None, f"reports/{profile}/expected-failures.txt"
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            return entry.partition("[")[0]
    raise AssertionError(f"{path} lists nothing")


@needs_gnugo
def test_gnugo_passes_with_the_list_its_profile_carries(capsys):
    case = first_listed("gnugo")
    assert main(["verify", "--impl", "gnugo", "--id", case, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["expected-failure"] >= 1
    assert any("the list the gnugo profile carries" in n for n in report["notes"])
    # overridable: without it, the same items are unexpected failures
    assert main(["verify", "--impl", "gnugo", "--id", case, "--no-expected-failures", "-q"]) == 1
    assert "unexpected-failure" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("impl", "says"),
    [
        ("gtp:/no/such/engine --mode gtp", "cannot start the engine: '/no/such/engine' does not exist"),
        ("jsonl:no-such-program-anywhere", "'no-such-program-anywhere' does not exist on the PATH"),
        (f"jsonl:{sys.executable} -c 'raise SystemExit(3)'", "cannot start the program"),
    ],
)
def test_an_engine_that_cannot_start_is_one_error_and_exit_2(impl, says, capsys):
    assert main(["verify", "--impl", impl, "-q"]) == 2
    captured = capsys.readouterr()
    assert says in captured.err and captured.err.count("jpd: error:") == 1
    assert "pass," not in captured.out  # nothing ran


def test_a_run_that_played_nothing_is_not_ok(capsys):
    # sgfmill allows suicide only: under chinese and japanese every item is skipped
    assert main(["verify", "--impl", "sgfmill", "--rules", "chinese+japanese", "-q"]) == 1
    out = capsys.readouterr().out
    assert "played 0 of" in out and "FAILED: the implementation played nothing" in out
