"""Progress of the commands that run for seconds (jpd lint, jpd export): a bar per stage on a
terminal's standard error, nothing on a pipe; the stages report every item they handle."""

import io

from jpdtools.export.layout import write_export
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.progress import Stages
from jpdtools.review.lint import reference_runs
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.runner import Filters, default_loader, load_files, plan_paths

PRESETS = load_presets()


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_per_stage_on_a_terminal_and_nothing_on_a_pipe():
    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        progress = Stages("jpd lint", stream=stream)
        progress("proving statuses", 1, 2)
        progress("proving statuses", 2, 2)
        progress("playing the suite", 5, 10)
        progress.close()
    assert "jpd lint: proving statuses" in terminal.getvalue()
    assert "jpd lint: playing the suite" in terminal.getvalue()
    assert pipe.getvalue() == ""


def test_export_reports_each_item_of_each_form(tmp_path):
    plan = plan_paths([conformance_dir()], PRESETS, Filters(ids=("ko.simple.00[1-3]",)), default_loader())
    seen: dict[str, list[tuple[int, int]]] = {}
    write_export(
        list(plan.items),
        tmp_path / "out",
        ("json", "sgf", "gtp"),
        lambda f, d, t: seen.setdefault(f, []).append((d, t)),
    )
    played = sum(1 for i in plan.items if i.rules is not None)
    assert seen["sgf"][-1] == (played, played) and len(seen["sgf"]) == played
    assert seen["gtp"][-1] == (played, played) and seen["json"] == [(len(plan.items), len(plan.items))]


def test_lint_reports_each_item_it_plays():
    (path,) = [p for p in sorted(conformance_dir().glob("*.yaml")) if p.name == "ko.yaml"]
    files, _ = load_files([path], PRESETS, default_loader())
    ticks: list[tuple[int, int]] = []
    runs = reference_runs(
        files, PRESETS, ReferenceAdapter(), default_loader(), lambda d, t: ticks.append((d, t))
    )
    assert ticks and ticks[-1][0] == ticks[-1][1] == len([r for r in runs if r[0] is not None])
