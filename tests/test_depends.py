"""A case's ``depends`` lists every axis its verdicts rest on (jpd lint's ``depends`` check).

The axes are derived from the clauses deciding what the reference did (jpdtools.run.depends):
a list that leaves one out would hand a variant agreeing on the rest the text of a ruleset whose
rules differ (spec/contract.md#contract.variants).
"""

import pytest
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.review.depends import resting_axes
from jpdtools.review.lint import check_depends, reference_runs
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.runner import Filters, default_loader, load_files, plan_paths
from jpdtools.suite.loader import load_case_file

PRESETS = load_presets()


def item(case_id: str, ruleset: str):
    filters = Filters(rules=(ruleset,), ids=(case_id,))
    (found,) = plan_paths([conformance_dir()], PRESETS, filters, default_loader()).items
    case = found.case
    observation = ReferenceAdapter().observe(case.setup, case.history, case.moves, found.rules)
    return resting_axes(case, found.expectation, observation, found.rules)


def test_every_case_that_lists_depends_lists_the_axes_its_verdicts_rest_on():
    files, failures = load_files(sorted(conformance_dir().glob("*.yaml")), PRESETS, default_loader())
    assert not failures
    problems = check_depends(reference_runs(files, PRESETS, ReferenceAdapter(), default_loader()))
    assert not problems, "\n".join(str(p) for p in problems[:10])


@pytest.mark.parametrize(
    ("case_id", "ruleset", "axes"),
    [
        # a ko recapture forfeited under simple ko: the ko rule, the policy, and the end it makes
        ("illegal.ko.001", "japanese", {"repetition", "illegal-move"}),
        # a second move in a row lost (out-of-turn: loss); the refusals after it rest on that end,
        # not on how play halts
        ("board.turn.twice.loss", "chinese", {"out-of-turn"}),
        # a count rests on the counting, the komi and every step that made the position (passes)
        ("count.equal-stones.018", "japanese", {"counting", "komi", "pass", "halt"}),
    ],
)
def test_the_axes_are_those_the_deciding_clauses_read(case_id, ruleset, axes):
    assert item(case_id, ruleset) == axes


def test_lint_names_the_axes_a_short_depends_leaves_out(tmp_path):
    case = tmp_path / "halt.yaml"
    case.write_text(
        "format: 1\ntopic: test\ncases:\n  - id: t.halt.001\n    title: t\n    spec: [end.two-passes]\n"
        "    seeds: ['000 §26']\n    rules: [tromp-taylor]\n    depends: [counting]\n    board: |\n"
        "      3x3 B\n      . . .\n      . . .\n      . . .\n    moves: B pass W pass\n    expect:\n"
        "      default: |\n        end: halted two-passes\n",
        encoding="utf-8",
    )
    files = [load_case_file(case, PRESETS)]
    (problem,) = check_depends(reference_runs(files, PRESETS, ReferenceAdapter(), default_loader()))
    assert problem.check == "depends"
    assert "t.halt.001: its verdicts rest on clauses reading halt (under tromp-taylor)" in str(problem)
    assert "leaves out: add halt" in str(problem)
