"""The summary table of jpd run and jpd verify: a row per ruleset asked for, the variants only
cases name added up in one row, the cases about malformed files named as such (not as a ruleset)."""

from jpdtools.cli import main
from jpdtools.run.report import table_rows
from jpdtools.run.runner import LOADER_SUITE


def test_variants_only_cases_name_are_added_up_and_the_loader_is_no_ruleset():
    per_ruleset = {
        "japanese": {"pass": 5, "fail": 1},
        "aga:komi=0": {"pass": 2, "fail": 0},
        "ing:komi=7": {"pass": 1, "fail": 1},
        "japanese:illegal-move=refuse": {"pass": 3, "fail": 0},
        LOADER_SUITE: {"pass": 4, "fail": 0},
    }
    rows = table_rows(per_ruleset, ["japanese", "japanese:illegal-move=refuse"])
    assert rows == [
        ("japanese", {"pass": 5, "fail": 1}),
        ("japanese:illegal-move=refuse", {"pass": 3, "fail": 0}),  # asked for: a row of its own
        ("variants named by cases (2)", {"pass": 3, "fail": 1}),
        ("cases of malformed files", {"pass": 4, "fail": 0}),
    ]


def test_jpd_run_shows_the_presets_then_the_folded_rows(capsys):
    assert main(["run"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    names = [
        line.split("  ")[0]
        for line in lines[2 : lines.index(next(x for x in lines if x.startswith("total")))]
    ]
    assert names[:3] == ["jpd-2022", "jpd-art-2008", "jhz-2022"]
    assert not any(name == LOADER_SUITE or ":" in name for name in names), names
    assert any(name.startswith("variants named by cases (") for name in names)
    assert "cases of malformed files" in names
