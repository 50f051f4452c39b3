"""Honest defaults of jpd verify: a bundled profile's own expected failures, an engine that cannot
start (exit 2, quoting what it said), a bounded crash loop, a run that played nothing."""

import json
import sys

import pytest
from jpdtools.cli import main
from jpdtools.paths import bundled_expected_failures, conformance_dir
from jpdtools.verify.implementations import binary_of

needs_gnugo = pytest.mark.skipif(binary_of("gnugo") is None, reason="GNU Go is not installed")
KO = conformance_dir() / "ko.yaml"  # a run's verdict on its items: one case file will do


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
    assert main(["verify", "--impl", impl, "-q", str(KO)]) == 2
    captured = capsys.readouterr()
    assert says in captured.err and captured.err.count("jpd: error:") == 1
    assert "pass," not in captured.out  # nothing ran


def test_a_run_that_played_nothing_is_not_ok(capsys):
    # sgfmill allows suicide only: under chinese and japanese every item is skipped
    assert main(["verify", "--impl", "sgfmill", "--rules", "chinese+japanese", "-q", str(KO)]) == 1
    out = capsys.readouterr().out
    assert "played 0 of" in out and "FAILED: the implementation played nothing" in out


def test_a_gtp_engine_that_cannot_start_stops_the_run_at_once_quoting_what_it_said(capsys):
    # Leela Zero without its weights prints why on standard output and exits 1
    engine = "gtp:sh -c 'echo A network weights file is required to use the program.; exit 1'"
    assert main(["verify", "--impl", engine, "--id", "ko.*", "--engine-rules", "chinese"]) == 2
    captured = capsys.readouterr()
    assert "cannot start the engine" in captured.err
    assert "A network weights file is required" in captured.err
    assert len(captured.err.splitlines()) < 5 and "EngineCrashed" not in captured.out


def test_a_jsonl_program_that_dies_at_start_gets_exit_2_and_its_stderr(capsys):
    program = f"jsonl:{sys.executable} -c 'import sys; sys.exit(\"this program needs libfoo\")'"
    assert main(["verify", "--impl", program, "--id", "ko.*"]) == 2
    err = capsys.readouterr().err
    assert "cannot start the program" in err and "this program needs libfoo" in err


def test_a_crash_loop_is_bounded():
    from jpdtools.presets import load_presets
    from jpdtools.suite.setup import Setup
    from jpdtools.verify.gtp.adapter import CRASH_LOOP, GtpAdapter
    from jpdtools.verify.gtp.profiles import generic

    # an engine that answers list_commands and dies at the next command
    script = "read a; printf '=1 \\n\\n'; read b; exit 1"
    adapter = GtpAdapter(generic(["sh", "-c", script]), timeout=5.0)
    rules = load_presets().get("chinese")
    try:
        errors = [adapter.observe(Setup(5, 5), (), (), rules).error for _ in range(CRASH_LOOP + 3)]
    finally:
        adapter.close()
    assert all(errors)
    assert adapter.restarts == CRASH_LOOP  # no process started after the bound
    assert errors[-1].startswith(f"not run: the engine failed {CRASH_LOOP} items in a row")


@needs_gnugo
def test_engine_rules_narrow_the_plan_and_the_table(capsys):
    assert main(["verify", "--impl", "gnugo", "--engine-rules", "chinese", "--id", "ko.*", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert results and {r["ruleset"] for r in results} == {"chinese"}


def test_progress_counts_unexpected_and_expected_failures_apart(tmp_path):
    import io

    from jpdtools.run.compare import CaseResult, Status
    from jpdtools.run.report import Progress

    stream = io.StringIO()
    progress = Progress(stream, 200)
    failed = CaseResult("a", "chinese", Status.FAIL)
    for n in range(1, 201):
        progress(n, 200, failed, expected=n > 10)
    assert (
        stream.getvalue().splitlines()[-1].startswith("[200/200] 10 unexpected failing, 190 expected failing")
    )


def test_an_installed_profile_list_names_no_file_the_installation_lacks(monkeypatch, tmp_path):
    import argparse

    from jpdtools.commands import verify as command

    listed = tmp_path / "_data" / "expected" / "sabaki.txt"  # as a wheel carries it: no DEVIATIONS.md
    listed.parent.mkdir(parents=True)
    listed.write_text("# none\n", encoding="utf-8")
    monkeypatch.setattr(command, "bundled_expected_failures", lambda name: listed)
    args = argparse.Namespace(impl="sabaki", expected_failures=None, no_expected_failures=False)
    path, note = command._expected_list(args)
    assert path == listed and "reports/sabaki/DEVIATIONS.md of the jipingdian repository" in note
    assert str(tmp_path / "_data" / "expected" / "DEVIATIONS.md") not in note
