"""Unit tests of the adapter, comparator, runner, reports and ``jpd run`` (hand-built cases)."""

import json
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from jpdtools.cli import main
from jpdtools.commands import run as run_command
from jpdtools.errors import InputError, Location
from jpdtools.exitcodes import ERROR, FAILURE, SUCCESS
from jpdtools.presets import Presets, load_presets
from jpdtools.run import report
from jpdtools.run.adapters import Capabilities, Observation, ReferenceAdapter, StepObservation
from jpdtools.run.compare import Mismatch, Status, judge
from jpdtools.run.runner import (
    LOADER_SUITE,
    Filters,
    SuiteLoader,
    make_plan,
    parse_rules_option,
    plan_paths,
    run_plan,
)
from jpdtools.suite.model import Case, CaseFile, Claim, EndVerdict, Expectation, LoadErrorSpec, StepVerdict
from jpdtools.suite.setup import CaseAction, Setup

# -- hand-built cases --------------------------------------------------------------------------

KO_ROWS = (".XO..", "XO.O.", ".XO..", ".....", ".....")


def setup_of(rows: tuple[str, ...], to_move: str = "B") -> Setup:
    h, w = len(rows), len(rows[0])
    stones = tuple(
        (f"{'ABCDEFGHJ'[x]}{h - y}", "B" if c == "X" else "W")
        for y, row in enumerate(rows)
        for x, c in enumerate(row)
        if c in "XO"
    )
    return Setup(w, h, to_move, stones)


def moves(*pairs: str) -> tuple[CaseAction, ...]:
    out = []
    for text in pairs:
        color, target = text.split()
        if target in ("pass", "virtual", "resign"):
            out.append(CaseAction(color, target))
        else:
            out.append(CaseAction(color, "move", target))
    return tuple(out)


def verdict(step: int, *alternatives: tuple[Claim, ...]) -> StepVerdict:
    return StepVerdict(step, tuple(alternatives))


def expectation(selector: str, *steps: StepVerdict, end: EndVerdict | None = None) -> Expectation:
    return Expectation(selector, tuple(steps), end)


LEGAL = Claim("legal")


def ko_case(case_id: str = "ko.simple.recapture", **changes) -> Case:
    """B C4 takes the ko, W B4 retakes at once."""
    case = Case(
        id=case_id,
        title="The immediate recapture of a ko",
        spec=("rep.simple-ko",),
        seeds=("J1989 Art. 6",),
        tags=("ko",),
        setup=setup_of(KO_ROWS),
        moves=moves("B C4", "W B4"),
        expectations=(
            expectation(
                "japanese",
                verdict(1, (LEGAL, Claim("captures", ("B4",)))),
                verdict(2, (Claim("forfeit", ("ko",)),)),
                end=EndVerdict("ended", ("illegal-move", "B")),
            ),
            expectation(
                "jpd-art-2008",
                verdict(1, (LEGAL,)),
                verdict(2, (Claim("forfeit", ("ko",)),)),  # 001 第十五条 3 (OQ-9)
                end=EndVerdict("ended", ("illegal-move", "B")),
            ),
            expectation("default", verdict(2, (Claim("illegal", ("superko",)),))),
        ),
        location=Location("conformance/ko.yaml", 4, 5),
    )
    return replace(case, **changes)


def fake_resolve(case: Case, presets: Presets):
    by_selector = {e.selector: e for e in case.expectations}
    names = case.rules or tuple(presets.names)
    out = []
    for name in names:
        exp = by_selector.get(name) or by_selector.get("default")
        if exp is None:
            raise InputError(f"no verdict for {name}", case.location)
        out.append((presets.get(name), exp))
    return out


def fake_check_error_case(case: Case, presets: Presets) -> tuple[bool, str]:
    spec = case.load_error
    assert spec is not None
    return spec.code == "schema", f"failed with schema at {spec.line}:{spec.column}"


@pytest.fixture(scope="module")
def presets() -> Presets:
    full = load_presets()
    return Presets(tuple(full.get(n) for n in ("jpd-2022", "jpd-art-2008", "chinese", "japanese")))


def fake_loader(files: dict[str, CaseFile] | None = None) -> SuiteLoader:
    def load(path: Path, presets: Presets) -> CaseFile:
        if path.name.startswith("bad"):
            raise InputError("expected a mapping", Location(str(path), 3, 7))
        return (files or {})[path.name]

    return SuiteLoader(load, fake_resolve, fake_check_error_case)


def one_file(*cases: Case, path: str = "conformance/ko.yaml") -> CaseFile:
    return CaseFile(path, 1, "test", cases)


class LimitedAdapter(ReferenceAdapter):
    """The reference engine pretending to know only some rulesets."""

    name = "limited"

    def __init__(self, names: set[str]) -> None:
        self.names = frozenset(names)

    def capabilities(self) -> Capabilities:
        return Capabilities(rulesets=self.names)


def run_cases(presets, *cases, filters=None, adapter=None):
    filters = filters or Filters()
    loader = fake_loader()
    plan = make_plan([one_file(*cases)], presets, filters, loader)
    return run_plan(plan, adapter or ReferenceAdapter(), presets, loader)


def outcome(run, case_id: str, ruleset: str) -> Status:
    return next(r.status for r in run.results if (r.case_id, r.ruleset) == (case_id, ruleset))


# -- the reference adapter ---------------------------------------------------------------------


def test_reference_adapter_observes_captures_board_and_end(presets):
    obs = ReferenceAdapter().observe(setup_of(KO_ROWS), (), moves("B C4", "W B4"), presets.get("japanese"))
    assert obs.error is None
    first, second = obs.steps
    assert (first.legal, first.effect, first.captures, first.to_move) == (
        True,
        "played",
        ("B4",),
        "W",
    )
    assert first.board.split("/")[1] == "X.XO."
    assert (second.legal, second.effect, second.reason) == (False, "forfeit", "ko")
    assert obs.end is not None and (obs.end.phase, obs.end.kind, obs.end.winner) == (
        "ended",
        "illegal-move",
        "B",
    )


def test_refused_history_action_is_a_case_error(presets):
    obs = ReferenceAdapter().observe(setup_of(KO_ROWS), moves("W A1"), moves("B A2"), presets.get("chinese"))
    assert obs.error and "history action 1" in obs.error and "out-of-turn" in obs.error


def test_impossible_setup_is_a_case_error(presets):
    setup = setup_of(("XO", "O."))
    obs = ReferenceAdapter().observe(setup, (), (), presets.get("chinese"))
    assert obs.error and "set-up" in obs.error


def test_markers_resolve_to_vertices(presets):
    setup = replace(setup_of(KO_ROWS), markers=(("a", "C4"),))
    obs = ReferenceAdapter().observe(setup, (), (CaseAction("B", "move", "@a"),), presets.get("chinese"))
    assert obs.steps[0].captures == ("B4",)


# -- the comparator ----------------------------------------------------------------------------


def step_obs(**changes) -> StepObservation:
    base = StepObservation("B C3", True, "played", None, (), (), "W", "...")
    return replace(base, **changes)


def test_judge_pass_and_typed_mismatch():
    obs = Observation("...", (step_obs(),))
    assert judge(expectation("d", verdict(1, (LEGAL,))), obs).status is Status.PASS
    bad = judge(expectation("d", verdict(1, (Claim("illegal", ("ko",)),))), obs)
    assert bad.status is Status.FAIL
    assert bad.mismatches == (Mismatch(1, Claim("illegal", ("ko",)), Claim("legal")),)
    assert str(bad.mismatches[0]) == "step 1: expected illegal ko, observed legal"


def test_illegal_matches_any_effect_but_void_pass_does_not():
    obs = Observation("...", (step_obs(legal=False, effect="void-pass", reason="superko"),))
    assert judge(expectation("d", verdict(1, (Claim("illegal", ("superko",)),))), obs).status == "pass"
    wrong = judge(expectation("d", verdict(1, (Claim("forfeit", ("superko",)),))), obs)
    assert wrong.mismatches[0].observed == Claim("void-pass", ("superko",))


def test_captures_compare_as_sets_and_board_normalises_plus():
    obs = Observation("...", (step_obs(captures=("C10", "C9"), board="X.O/..."),))
    exp = expectation("d", verdict(1, (Claim("captures", ("C9", "C10")), Claim("board", ("X+O/+++",)))))
    assert judge(exp, obs).status is Status.PASS


def test_either_verdict_is_open_not_pass():
    obs = Observation("...", (step_obs(legal=False, effect="refused", reason="superko"),))
    either = verdict(1, (LEGAL,), (Claim("illegal", ("superko",)),))
    judged = judge(expectation("d", either), obs)
    assert judged.status is Status.OPEN and judged.open_steps == (1,)
    neither = verdict(1, (LEGAL,), (Claim("illegal", ("ko",)),))
    failed = judge(expectation("d", neither), obs)
    assert failed.status is Status.FAIL
    assert str(failed.mismatches[0]) == ("step 1: expected legal | illegal ko, observed illegal superko")


def test_end_verdict_and_missing_step():
    obs = Observation("...", (step_obs(),), None)
    judged = judge(expectation("d", verdict(3, (LEGAL,)), end=EndVerdict("contest", ("W",))), obs)
    assert [m.where for m in judged.mismatches] == ["step 3", "end"]
    assert all(m.observed is None for m in judged.mismatches)


def test_observation_error_is_an_error():
    assert judge(expectation("d"), Observation("", error="boom")).status is Status.ERROR


# -- the runner --------------------------------------------------------------------------------


def test_case_runs_under_every_ruleset(presets):
    run = run_cases(presets, ko_case())
    assert [r.ruleset for r in run.results] == presets.names
    assert {r.status for r in run.results} == {Status.PASS}
    assert run.ok


def test_intentionally_failing_case_is_a_failure(presets):
    wrong = ko_case(
        expectations=(expectation("default", verdict(2, (LEGAL,))),),
    )
    run = run_cases(presets, wrong)
    assert not run.ok
    assert {r.status for r in run.results} == {Status.FAIL}
    assert run.results[0].mismatches[0].expected == LEGAL


def test_unsupported_ruleset_is_skipped_never_passed(presets):
    run = run_cases(presets, ko_case(), adapter=LimitedAdapter({"japanese"}))
    assert outcome(run, "ko.simple.recapture", "japanese") is Status.PASS
    assert outcome(run, "ko.simple.recapture", "chinese") is Status.SKIP
    assert run.ok


def test_filters_by_rules_tag_and_id(presets):
    cases = (ko_case(), ko_case("ko.other", tags=("other",)), ko_case("suicide.x", tags=()))
    run = run_cases(presets, *cases, filters=Filters(rules=("japanese",)))
    assert {r.ruleset for r in run.results} == {"japanese"}
    run = run_cases(presets, *cases, filters=Filters(tags=("other",)))
    assert {r.case_id for r in run.results} == {"ko.other"}
    run = run_cases(presets, *cases, filters=Filters(ids=("ko.*",)))
    assert {r.case_id for r in run.results} == {"ko.simple.recapture", "ko.other"}


def test_rules_option(presets):
    assert parse_rules_option(["all"], presets) == ()
    assert parse_rules_option(["japanese,chinese", "japanese"], presets) == ("japanese", "chinese")
    with pytest.raises(InputError, match="did you mean"):
        parse_rules_option(["japanse"], presets)


def test_error_case_runs_once_not_per_ruleset(presets):
    good = Case("format.error.x", "t", ("format.errors",), (), load_error=LoadErrorSpec("", "schema", 1, 1))
    bad = replace(good, id="format.error.y", load_error=LoadErrorSpec("", "bad-id", 1, 1))
    run = run_cases(presets, good, bad)
    assert [(r.case_id, r.ruleset, r.status) for r in run.results] == [
        ("format.error.x", LOADER_SUITE, Status.PASS),
        ("format.error.y", LOADER_SUITE, Status.FAIL),
    ]


def test_unresolvable_case_is_an_error_not_a_crash(presets):
    case = ko_case(expectations=(expectation("japanese"),))
    run = run_cases(presets, case)
    assert [r.status for r in run.results] == [Status.ERROR]


class CrashingAdapter(ReferenceAdapter):
    """Crashes (or is interrupted) on the ruleset named ``when``."""

    name = "crashing"

    def __init__(self, when: str, error: BaseException) -> None:
        self.when, self.error = when, error

    def observe(self, setup, history, moves, rules):
        if rules.name == self.when:
            raise self.error
        return super().observe(setup, history, moves, rules)


def test_adapter_crash_is_an_error_result(presets):
    run = run_cases(presets, ko_case(), adapter=CrashingAdapter("chinese", RuntimeError("boom")))
    assert outcome(run, "ko.simple.recapture", "chinese") is Status.ERROR
    assert outcome(run, "ko.simple.recapture", "japanese") is Status.PASS
    assert "RuntimeError: boom" in next(r.detail for r in run.results if r.ruleset == "chinese")


def test_interrupt_keeps_the_results_so_far(presets):
    run = run_cases(presets, ko_case(), adapter=CrashingAdapter("chinese", KeyboardInterrupt()))
    assert run.interrupted
    assert [r.ruleset for r in run.results] == ["jpd-2022", "jpd-art-2008"]
    assert "interrupted" in report.summary_line(run)


def test_bad_file_is_reported_and_others_still_run(presets, tmp_path):
    (tmp_path / "bad.yaml").write_text("x")
    (tmp_path / "ko.yaml").write_text("x")
    loader = fake_loader({"ko.yaml": one_file(ko_case())})
    plan = plan_paths([tmp_path], presets, Filters(), loader)
    assert len(plan.items) == len(presets.names)
    (failure,) = plan.failures
    assert str(failure).endswith("bad.yaml:3:7: expected a mapping")
    run = run_plan(plan, ReferenceAdapter(), presets, loader)
    assert not run.ok and len(run.results) == len(presets.names)


def test_duplicate_ids_across_files_are_load_failures(presets, tmp_path):
    (tmp_path / "a.yaml").write_text("x")
    (tmp_path / "b.yaml").write_text("x")
    files = {
        "a.yaml": one_file(ko_case(), path="a.yaml"),
        "b.yaml": one_file(ko_case(), path="b.yaml"),
    }
    plan = plan_paths([tmp_path], presets, Filters(), fake_loader(files))
    assert [f.code for f in plan.failures] == ["duplicate-id"]


# -- reports -----------------------------------------------------------------------------------


@pytest.fixture
def mixed_run(presets):
    either = verdict(2, (Claim("illegal", ("ko",)),), (Claim("illegal", ("superko",)),))
    cases = (
        ko_case(),
        ko_case("ko.wrong", expectations=(expectation("default", verdict(2, (LEGAL,))),)),
        ko_case("ko.open", expectations=(expectation("default", either),), open=("OQ-3",)),
    )
    return run_cases(presets, *cases, adapter=LimitedAdapter({"jpd-2022", "chinese", "japanese"}))


def test_json_shape(mixed_run):
    data = json.loads(report.format_json(mixed_run, ["jpd-2022"]))
    assert data["format"] == 1 and data["adapter"] == "limited"
    assert set(data) >= {"format", "results", "summary", "load_errors"}
    first = data["results"][0]
    assert set(first) >= {"case", "ruleset", "outcome", "mismatches", "file", "line"}
    summary = data["summary"]
    assert summary["total"] == 12 and summary["ok"] is False
    assert (summary["pass"], summary["fail"], summary["open"], summary["skip"]) == (3, 3, 3, 3)
    assert next(iter(summary["by_ruleset"])) == "jpd-2022"
    wrong = next(r for r in data["results"] if r["case"] == "ko.wrong")
    assert wrong["mismatches"][0] == {
        "where": "step 2",
        "step": 2,
        "expected": "legal",
        "observed": "illegal superko",
    }
    opened = next(r for r in data["results"] if r["case"] == "ko.open" and r["outcome"] == "open")
    assert "OQ-3" in opened["detail"]


def test_junit_is_well_formed(mixed_run):
    root = ET.fromstring(report.format_junit(mixed_run))
    assert root.tag == "testsuites"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"jpd-2022", "jpd-art-2008", "chinese", "japanese"}
    chinese = suites["chinese"]
    assert (chinese.get("tests"), chinese.get("failures"), chinese.get("skipped")) == (
        "3",
        "1",
        "1",
    )
    failure = chinese.find("testcase[@name='ko.wrong']/failure")
    assert failure is not None and "expected legal" in failure.get("message")
    assert chinese.find("testcase[@name='ko.open']/skipped").get("type") == "open"
    assert suites["jpd-art-2008"].find("testcase/skipped").get("type") == "skip"


def test_text_report_lists_failures(mixed_run):
    text = report.format_text(mixed_run)
    assert "FAILURES" in text and "ko.wrong[chinese]" in text
    assert "step 2: expected legal, observed illegal superko" in text
    assert text.splitlines()[-1].endswith("FAILED [limited]")


def test_progress_on_a_pipe_only_for_many_items(mixed_run):
    import io

    stream = io.StringIO()
    progress = report.Progress(stream, total=3)
    for n, r in enumerate(mixed_run.results[:3], 1):
        progress(n, 3, r)
    assert stream.getvalue() == ""
    many = report.Progress(stream, total=report.MANY_ITEMS)
    many(report.MANY_ITEMS, report.MANY_ITEMS, mixed_run.results[0])
    assert stream.getvalue().startswith(f"[{report.MANY_ITEMS}/{report.MANY_ITEMS}]")


# -- jpd run -----------------------------------------------------------------------------------


@pytest.fixture
def suite_dir(tmp_path, monkeypatch, presets):
    files = {
        "ko.yaml": one_file(ko_case(), path=str(tmp_path / "ko.yaml")),
        "wrong.yaml": one_file(
            ko_case("ko.wrong", expectations=(expectation("default", verdict(2, (LEGAL,))),)),
            path=str(tmp_path / "wrong.yaml"),
        ),
    }
    for name in [*files, "bad.yaml"]:
        (tmp_path / name).write_text("x")
    monkeypatch.setattr(run_command, "default_loader", lambda: fake_loader(files))
    monkeypatch.setattr(run_command, "load_presets", lambda: presets)
    return tmp_path


def test_run_exit_codes(suite_dir, capsys):
    assert main(["run", str(suite_dir / "ko.yaml"), "-q"]) == SUCCESS
    assert main(["run", str(suite_dir / "wrong.yaml"), "-q"]) == FAILURE
    assert main(["run", str(suite_dir / "bad.yaml"), "-q"]) == FAILURE
    assert main(["run", str(suite_dir / "ko.yaml"), "--rules", "nope"]) == ERROR
    assert main(["run", str(suite_dir / "missing.yaml")]) == ERROR
    err = capsys.readouterr().err
    assert "jpd: error:" in err and "Traceback" not in err


def test_run_json_and_junit(suite_dir, capsys, tmp_path_factory):
    junit = tmp_path_factory.mktemp("reports") / "out.xml"  # not inside the suite: refused there
    code = main(["run", str(suite_dir), "--json", "--junit", str(junit), "--id", "ko.*"])
    assert code == FAILURE  # ko.wrong fails and bad.yaml cannot be loaded
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["fail"] == 4 and data["summary"]["load_errors"] == 1
    assert data["load_errors"][0]["line"] == 3 and data["load_errors"][0]["column"] == 7
    ET.parse(junit)


def test_run_filters_from_the_command_line(suite_dir, capsys):
    code = main(["run", str(suite_dir / "ko.yaml"), "--json", "--rules", "japanese", "--tag", "ko"])
    assert code == SUCCESS
    data = json.loads(capsys.readouterr().out)
    assert [(r["case"], r["ruleset"]) for r in data["results"]] == [("ko.simple.recapture", "japanese")]


# -- jpd lint ----------------------------------------------------------------------------------

PLAY_MD = """# Play {#play}

## Real moves {#play.move}

## Simple ko {#rep.simple-ko}

A pass is a turn {#turn.pass} too.

## Reasons {#play.reasons}
"""


@pytest.fixture
def spec_tmp(tmp_path) -> Path:
    (tmp_path / "play.md").write_text(PLAY_MD, encoding="utf-8")
    return tmp_path


def lint_cases(presets, spec_dir, ids_path, *cases, **options):
    from jpdtools.review import lint

    loader = fake_loader()
    files = [one_file(*cases)]
    return lint.lint(files, [], presets, spec_dir, ids_path, ReferenceAdapter(), loader, **options)


def test_spec_anchors_with_headings(spec_tmp):
    from jpdtools.review.lint import spec_anchors

    anchors = spec_anchors(spec_tmp)
    assert anchors["rep.simple-ko"].heading == "Simple ko"
    assert anchors["rep.simple-ko"].line == 5
    assert anchors["turn.pass"].heading.startswith("A pass is a turn")


def test_seed_citations():
    from jpdtools.review.lint import seed_ok

    good = ["000 §22", "002 §21–23", "001 第八条", "003 四虚终局", "J1989 Art. 12", "AGA Rule 9"]
    good += ["Tromp-Taylor rule 6", "Chinese rules Art. 5", "KataGo", "SGF FF[4]"]
    assert all(map(seed_ok, good))
    assert not any(map(seed_ok, ["005 §1", "000", "Ingenious rules", "blah", "00 §2"]))


def test_lint_ids_anchors_seeds_and_coverage(presets, spec_tmp, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("ko.simple.recapture\nko.gone  # retired\nko.lost\nBad_Id\n")
    cases = (
        ko_case(),
        ko_case("Bad_Id", spec=("rep.nope",), seeds=("blah",)),
        ko_case("ko.gone"),
    )
    report = lint_cases(presets, spec_tmp, ids, *cases)
    checks = sorted(p.check for p in report.problems)
    messages = "\n".join(map(str, report.problems))
    assert "'Bad_Id' is not [a-z0-9]" in messages
    assert "'ko.lost' of ids.txt is gone" in messages
    assert "'ko.gone' was retired" in messages
    assert "'rep.nope' does not exist" in messages
    assert "citation 'blah'" in messages
    assert "'play.move' is cited by no case" in messages and "turn.pass" in messages
    # rep.simple-ko: legal (step 1) and illegal (step 2) both covered; none of the clauses is
    # pinned on 19x19 in this small suite (the ko case is 5x5), which is a coverage problem each
    assert "'rep.simple-ko': no citing case" not in messages
    assert "'rep.simple-ko' is cited by no 19x19 case" in messages
    assert checks.count("coverage") == 2 + len(rows_19 := report.large_board) and rows_19
    rows = {r.anchor: r for r in report.coverage}
    assert rows["rep.simple-ko"].ok and "play.reasons" not in rows
    assert not report.ok


def test_lint_new_ids_and_update(presets, spec_tmp, tmp_path):
    from jpdtools.review.lint import append_ids, read_ids

    ids = tmp_path / "ids.txt"
    report = lint_cases(presets, spec_tmp, ids, ko_case())
    assert report.new_ids == ("ko.simple.recapture",)
    assert any("does not exist" in p.message for p in report.problems)
    ids.write_text("# header only\n")
    report = lint_cases(presets, spec_tmp, ids, ko_case())
    assert any("'ko.simple.recapture' is not in" in p.message for p in report.problems)
    accepted = lint_cases(presets, spec_tmp, ids, ko_case(), accept_new_ids=True)
    assert not any(p.check == "stability" for p in accepted.problems)
    append_ids(ids, accepted.new_ids)
    assert read_ids(ids).ids == ("ko.simple.recapture",)
    assert ids.read_text().startswith("# header only\n")
    assert lint_cases(presets, spec_tmp, ids, ko_case()).new_ids == ()


def test_partial_suite_does_not_report_gone_ids(presets, spec_tmp, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("ko.simple.recapture\nother.case\n")
    report = lint_cases(presets, spec_tmp, ids, ko_case(), whole_suite=False)
    assert not any("gone" in p.message for p in report.problems)


# -- with the real loader: case files as written ------------------------------------------------

KO_YAML = """\
format: 1
cases:
  - id: ko.simple.recapture
    title: Retaking a ko at once is refused
    spec: [rep.simple-ko]
    seeds: [J1989 Art. 6]
    board: |
      5x5 B
      . X O . .
      X O a O .
      . X O . .
      . . . . .
      . . . . .
    moves: B @a W B4
    expect:
      japanese: |
        1: legal captures B4
        2: forfeit ko
        end: ended illegal-move B
      repetition=simple-ko: |
        2: illegal ko
      default: |
        2: illegal superko
"""


@pytest.fixture
def real_suite(tmp_path) -> Path:
    (tmp_path / "ko.yaml").write_text(KO_YAML, encoding="utf-8")
    (tmp_path / "bad.yaml").write_text("format: 1\ncases: [", encoding="utf-8")
    return tmp_path


def test_real_run_reports_bad_file_and_runs_the_rest(real_suite, capsys):
    assert main(["run", str(real_suite), "--json"]) == FAILURE
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["pass"] == len(load_presets().names)
    (failure,) = data["load_errors"]
    assert failure["file"].endswith("bad.yaml") and failure["code"] == "yaml-syntax"
    assert main(["run", str(real_suite / "ko.yaml"), "-q"]) == SUCCESS


def test_real_explain(real_suite, capsys):
    assert main(["explain", "ko.simple.recapture", "--path", str(real_suite / "ko.yaml")]) == 0
    out = capsys.readouterr().out
    assert "step 2: W B4" in out and "decided by rep.simple-ko" in out
    assert "repetition=simple-ko" in out and "J1989 Art. 6" in out
    assert "  5 . X O . . 5" in out  # the initial diagram, with coordinates
    assert main(["explain", "ko.simple", "--path", str(real_suite / "ko.yaml")]) == ERROR
    assert "did you mean ko.simple.recapture" in capsys.readouterr().err


def test_pytest_items_include_load_failures(real_suite, monkeypatch):
    import conftest

    monkeypatch.setenv(conftest.SUITE_ENV, str(real_suite))
    params = dict(conftest.conformance_params())
    assert "ko.simple.recapture[japanese]" in params
    bad = params["load-error:bad.yaml"]
    assert bad.problem.startswith(str(real_suite / "bad.yaml") + ":")
    with pytest.raises(pytest.fail.Exception, match=r"bad\.yaml"):
        bad.check()
    params["ko.simple.recapture[japanese]"].check()  # passes: no exception


# -- counting: the count observation and typed count claims ------------------------------------
def _count_case_setup(**final):
    from jpdtools.suite.setup import CaseAgreement, CaseCounters, FinalSpec

    rows = (".XO.", "OXO.", ".XO.", ".XO.")
    agreement = CaseAgreement(dead=("A3",))
    counters = CaseCounters(moves=(4, 5), first_pass="B", last_move="W")
    return replace(setup_of(rows), final=FinalSpec(final.get("agreement", agreement), counters))


def _count_expect(text: str) -> Expectation:
    from jpdtools.suite.dsl import Dsl

    v = Dsl().parse_verdicts(text, lambda line, column: Location("t", line, column))
    return Expectation("default", v.steps, v.end, v.text, count=v.count, points=v.points)


def test_reference_adapter_counts_by_the_rulesets_method():
    from fractions import Fraction

    full = load_presets()
    setup = _count_case_setup()
    obs = ReferenceAdapter().observe(setup, (), (), full.get("chinese"))
    c = obs.count
    assert c is not None and c.error is None
    assert (c.method, c.winner, c.margin, c.black, c.white, c.unit) == (
        "area",
        "W",
        Fraction(-15, 2),
        Fraction(8),
        Fraction(8),
        "子",
    )
    assert ("A3", "B", "territory") in c.points
    tt = ReferenceAdapter().observe(setup, (), (), full.get("tromp-taylor")).count
    assert ("A3", "W", "stone") in tt.points and tt.margin == -5
    # no counting claims, no agreement: the reference adapter does not count
    assert ReferenceAdapter().observe(replace(setup, final=None), (), (), full.get("chinese")).count is None


def test_a_refused_count_is_observed_as_its_code():
    full = load_presets()
    obs = ReferenceAdapter().observe(
        _count_case_setup(), (), (), full.get("jpd-a").with_values({"komi": "a-version"})
    )
    assert obs.count.error is None  # first-pass B is given
    setup = _count_case_setup()
    setup = replace(
        setup, final=replace(setup.final, counters=replace(setup.final.counters, first_pass="none"))
    )
    obs = ReferenceAdapter().observe(setup, (), (), full.get("jpd-a"))
    assert obs.count.error == "no-first-pass" and "no-first-pass" in obs.count.message
    assert judge(_count_expect("count: error no-first-pass"), obs).status is Status.PASS


def test_count_claims_are_typed():
    full = load_presets()
    obs = ReferenceAdapter().observe(_count_case_setup(), (), (), full.get("chinese"))
    # 7.50 and -7.5 are numbers, not strings: "-7.50" matches; figures and unit only when given
    for text in (
        "count: winner W margin -7.50",
        "count: winner W margin -7.5 black 8.0 white 8",
        "count: winner W margin -7.5 unit stones",
        "point: A3 A4 B territory\npoint: B2 B stone",
    ):
        assert judge(_count_expect(text), obs).status is Status.PASS, text
    bad = judge(_count_expect("count: winner W margin -7 black 8 white 9\npoint: A3 W stone"), obs)
    assert bad.status is Status.FAIL
    labels = [(m.label, str(m)) for m in bad.mismatches]
    assert labels[0][0] == "count" and "observed count winner W margin -7.5 black 8 white 8" in labels[0][1]
    assert labels[1] == ("point", "point: expected point A3 W stone, observed point A3 B territory")
    wrong = judge(_count_expect("count: error overflow"), obs)
    assert wrong.status is Status.FAIL and "observed count winner W margin -7.5" in str(wrong.mismatches[0])


def test_count_either_is_open_and_no_count_is_a_skip():
    full = load_presets()
    obs = ReferenceAdapter().observe(_count_case_setup(), (), (), full.get("chinese"))
    either = judge(_count_expect("count: winner B margin 1 | winner W margin -7.5"), obs)
    assert either.status is Status.OPEN and "count" in either.detail
    uncounted = replace(obs, count=None)
    assert judge(_count_expect("count: winner W margin -7.5"), uncounted).status is Status.SKIP
    # a failing step claim still fails when the program did not count
    failing = replace(_count_expect("count: winner W margin -7.5"), end=EndVerdict("halted", ("two-passes",)))
    assert judge(failing, uncounted).status is Status.FAIL


def test_count_coverage_is_computed_and_enforced_only_on_request(presets, tmp_path):
    from jpdtools.paths import spec_dir
    from jpdtools.review import lint

    anchors = lint.spec_anchors(spec_dir())
    case = replace(ko_case("count.t"), spec=("count.area",))
    rows = dict(lint.count_coverage([one_file(case)], anchors))
    assert rows["count.area"] == ("count.t",) and rows["count.komi"] == ()
    problems = lint.check_count_coverage(list(rows.items()), anchors, spec_dir())
    flagged = {p.message.split("'")[1] for p in problems}
    assert "count.komi" in flagged and "count.area" not in flagged
    assert all(p.check == "coverage" and p.location.path.endswith("counting.md") for p in problems)


# -- settling by play: the settling observation and typed settling claims ----------------------
INVADER = (".XO..", ".XOO.", ".XOXO", ".XO..", ".XO..")


def _settle_setup(settle_moves: tuple[CaseAction, ...], first=None, stones=("D3",)):
    from jpdtools.suite.setup import CaseCounters, FinalSpec, SettleSpec

    spec = SettleSpec(moves=settle_moves, first=first, stones=stones)
    return replace(setup_of(INVADER), final=FinalSpec(counters=CaseCounters(), settle=spec))


def _settle_expect(text: str) -> Expectation:
    from jpdtools.suite.dsl import Dsl

    v = Dsl().parse_verdicts(text, lambda line, column: Location("t", line, column))
    return Expectation("default", v.steps, v.end, v.text, count=v.count, points=v.points, settle=v.settle)


def test_reference_adapter_settles_by_the_rulesets_procedure():
    from fractions import Fraction

    full = load_presets()
    halt = moves("B pass", "W pass")
    setup = _settle_setup(moves("W D2", "B pass", "W pass"), first="W")
    obs = ReferenceAdapter().observe(setup, (), halt, full.get("jpd-art-2008"))
    s = obs.settling
    assert s is not None and s.error is None and s.procedure == "jpd-art-2008"
    assert [st.captures for st in s.steps] == [("D3",), (), ()] and s.steps[0].to_move == "B"
    assert (s.end.phase, s.end.kind, s.settled) == ("halted", "two-passes", (0, 1))
    assert s.captured == ("D3",) and "C3" in s.standing
    # counted on the halt board with D3 proved dead: 4 − 8 − 6.5
    assert (obs.count.margin, obs.count.black, obs.count.white) == (Fraction(-21, 2), 4, 8)
    assert obs.end.phase == "halted"  # the game itself is not changed
    text = "settle 1: legal captures D3\nsettle-end: halted two-passes\nsettled: B 0 W 1\nproved: dead D3"
    assert judge(_settle_expect(text), obs).status is Status.PASS
    # the continuations refuse another first mover; a ruleset without a procedure refuses
    refused = ReferenceAdapter().observe(setup, (), halt, full.get("jpd-art-2"))
    assert (refused.settling.error, refused.count.error) == ("first-mover", "first-mover")
    none = ReferenceAdapter().observe(setup, (), halt, full.get("chinese"))
    assert none.settling.error == "no-procedure"
    assert judge(_settle_expect("settle: error no-procedure"), none).status is Status.PASS
    # an unfinished stage: observed, and the count refused
    short = ReferenceAdapter().observe(_settle_setup(moves("W D2"), "W"), (), halt, full.get("jpd-art-2008"))
    assert short.settling.end.phase == "contest" and short.count.error == "unfinished"


def test_settling_claims_are_typed_and_located():
    full = load_presets()
    halt = moves("B pass", "W pass")
    setup = _settle_setup(moves("B D2", "W virtual", "B virtual"))
    obs = ReferenceAdapter().observe(setup, (), halt, full.get("jpd-art-2"))
    good = "settle 3: legal to-move B\nsettle-end: halted two-virtual\nsettled: B 2 W 2\nproved: alive D3"
    assert judge(_settle_expect(good), obs).status is Status.PASS
    bad = judge(
        _settle_expect(
            "settle 1: illegal ko\nsettle-end: halted two-passes\nsettled: B 2 W 1\nproved: dead D3 A1"
        ),
        obs,
    )
    assert bad.status is Status.FAIL
    assert [str(m) for m in bad.mismatches] == [
        "settle 1: expected illegal ko, observed legal",
        "settle-end: expected halted two-passes, observed halted two-virtual",
        "settled: expected settled: B 2 W 1, observed settled: B 2 W 2",
        "proved: expected proved: dead D3 A1, observed proved: alive D3, empty A1",
    ]
    refused = judge(_settle_expect("settle: error not-halted\nsettled: B 2 W 2"), obs)
    assert [m.label for m in refused.mismatches] == ["settle"]
    # either-verdicts on settling steps are open, and a program that does not settle is skipped
    either = judge(_settle_expect("settle 1: illegal ko | legal"), obs)
    assert either.status is Status.OPEN and "settling step 1" in either.detail
    unsettled = judge(_settle_expect("settled: B 2 W 2"), replace(obs, settling=None))
    assert unsettled.status is Status.SKIP and "settle" in unsettled.detail
