"""The 19×19 variants of the play-phase cases (conformance/board19.yaml) and the lint rule that
every play clause is pinned on 19×19.

Each committed variant must be exactly :func:`jpdtools.suite.enlarge.enlarge` of its source case
(its verdicts are the source's, as its author derived them from the rule text); `jpd run` checks
that the reference reaches them on the larger board too.
"""

from pathlib import Path

import pytest
from jpdtools.paths import conformance_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.review.lint import check_large_board, covered_anchors, large_board_coverage, spec_anchors
from jpdtools.run.runner import case_files, default_loader, load_files
from jpdtools.suite.enlarge import can_enlarge, enlarge, enlarged_rows
from jpdtools.suite.model import CaseFile
from jpdtools.suite.writer import dump_case_file

BOARD19 = "board19.yaml"


@pytest.fixture(scope="module")
def suite():
    files, failures = load_files(case_files([conformance_dir()]), load_presets(), default_loader())
    assert not failures, failures
    return files


def _text(case) -> str:
    return dump_case_file(CaseFile("x.yaml", 1, "", (case,)))


def test_every_variant_is_its_source_enlarged(suite):
    by_id = {c.id: c for f in suite for c in f.cases}
    (large,) = [f for f in suite if Path(f.path).name == BOARD19]
    assert len(large.cases) >= 24
    for case in large.cases:
        source = by_id[case.id.removeprefix("b19.")]
        assert can_enlarge(source)
        assert _text(case) == _text(enlarge(source, case.id)), case.id


def test_rows_grow_into_the_lower_left_corner():
    assert enlarged_rows("XO/.X", 2, 2, 4) == "..../..../XO../.X.."
    with pytest.raises(ValueError):
        enlarged_rows("XO/.X", 3, 2, 4)


def test_lint_requires_every_play_clause_on_19x19(suite):
    anchors = spec_anchors(spec_dir())
    clauses = covered_anchors(anchors)
    rows = large_board_coverage(suite, clauses)
    assert all(ids for _, ids in rows), [c for c, ids in rows if not ids]
    assert not check_large_board(rows, anchors, spec_dir())
    without = [f for f in suite if Path(f.path).name not in (BOARD19, "full19.yaml")]  # the 19x19 files
    problems = check_large_board(large_board_coverage(without, clauses), anchors, spec_dir())
    assert problems and all("19x19" in p.message and p.location.path.endswith("play.md") for p in problems)
