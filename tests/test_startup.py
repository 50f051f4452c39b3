"""What the quick commands import: their start-up is most of what a user waits for, so each
imports what its one job uses and nothing else (benchmarks/run.py times ``jpd play``).

Each command runs twice in a fresh process with its own cache folder: the first run fills the
cache (the parsed presets, the compiled case files), the second is the one a user meets, and its
``sys.modules`` is what is checked.
"""

import ast
import json
import os
import subprocess
import sys

import pytest

# Never on the way of a command that prints a table of one position or one case: the grammar's
# parser (Lark), PyYAML, the distribution's metadata, JSON (only --json prints it), the lint, the
# book and the proofs.
NEVER = (
    "lark",
    "yaml",
    "importlib.metadata",
    "email",
    "json",
    "jpdtools.review.lint",
    "jpdtools.book.build",
    "jpdtools.proof",
)

PLAY = {
    "jpdref",
    "jpdref.board",
    "jpdref.coords",
    "jpdref.game",
    "jpdref.handicap",
    "jpdref.history",
    "jpdref.reasons",
    "jpdref.rules",
    "jpdref.specfiles",
    "jpdref.stones",
    "jpdref.zobrist",
    "jpdtools",
    "jpdtools.cli",
    "jpdtools.commands",
    "jpdtools.commands.options",
    "jpdtools.commands.play",
    "jpdtools.diskcache",
    "jpdtools.errors",
    "jpdtools.exitcodes",
    "jpdtools.paths",
    "jpdtools.presets",
    "jpdtools.run",
    "jpdtools.run.adapters",
    "jpdtools.run.features",
    "jpdtools.suite",
    "jpdtools.suite.dsl",
    "jpdtools.suite.quickparse",
    "jpdtools.suite.setup",
    "jpdtools.suite.syntax",
    "jpdtools.table",
}
"""Every module of jpdref and jpdtools that ``jpd play --size`` imports: the engine, the presets,
the move-list parser, the reference adapter, the table — not the case model, the runner, the
suite's loader or its selection."""

_PROBE = """
import sys
from jpdtools.cli import main
code = main(sys.argv[1:])
sys.stdout.write("\\n" + repr((code, sorted(sys.modules))) + "\\n")
"""


def imported(tmp_path, *argv: str, stdin: str | None = None) -> set[str]:
    """The modules a second run of ``jpd ARGV`` has imported when it returns (the first run fills
    a cache folder of its own)."""
    env = {**os.environ, "JPD_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("JPD_CACHE", None)
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", _PROBE, *argv], input=stdin, capture_output=True, text=True, env=env
        )
        assert out.returncode == 0, out.stderr
    code, modules = ast.literal_eval(out.stdout.splitlines()[-1])
    assert code == 0, out.stdout
    return set(modules)


def ours(modules: set[str]) -> set[str]:
    return {m for m in modules if m.split(".")[0] in ("jpdref", "jpdtools")}


def never(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in NEVER))


def test_jpd_play_imports_the_engine_the_presets_and_the_adapter_only(tmp_path):
    modules = imported(tmp_path, "play", "--size", "19", "--rules", "chinese", "--moves", "B D4")
    assert ours(modules) == PLAY
    assert never(modules) == []
    assert "shutil" not in modules  # argparse's help formatter and the table's width import it


def test_jpd_play_of_a_diagram_imports_no_more_than_of_a_size(tmp_path):
    diagram = "5x5 B\n. . . . .\n. X O . .\nX a X O .\n. X O . .\n. . . . .\n"
    modules = imported(tmp_path, "play", "-", "--moves", "B @a W pass", stdin=diagram)
    assert ours(modules) - PLAY == {"jpdtools.records", "jpdtools.records.charset", "jpdtools.records.sgf"}
    assert never(modules) == []


@pytest.mark.parametrize("argv", [["rules"], ["rules", "japanese"]])
def test_jpd_rules_imports_the_presets_and_the_table_only(tmp_path, argv):
    modules = imported(tmp_path, *argv)
    assert {m for m in ours(modules) if m.startswith("jpdtools")} == {
        "jpdtools",
        "jpdtools.cli",
        "jpdtools.commands",
        "jpdtools.commands.rules",
        "jpdtools.diskcache",
        "jpdtools.errors",
        "jpdtools.exitcodes",
        "jpdtools.paths",
        "jpdtools.presets",
        "jpdtools.table",
    }
    assert never(modules) == []


def test_jpd_count_of_a_diagram_imports_no_case_model_and_no_runner(tmp_path):
    diagram = tmp_path / "final.txt"
    diagram.write_text("5x5 B\n. X O . .\nX X O . .\n. X O O .\nX X O . .\n. X O . .\n", encoding="utf-8")
    modules = imported(tmp_path, "count", str(diagram), "--rules", "chinese")
    assert never(modules) == []
    assert not {"jpdtools.suite.model", "jpdtools.run.runner", "jpdtools.suite.loader"} & modules


def test_jpd_explain_of_one_case_imports_no_lint_and_no_parser(tmp_path):
    modules = imported(tmp_path, "explain", "ko.simple.001", "--rules", "chinese")
    assert never(modules) == []
    assert not {"jpdtools.book.lang.output", "jpdtools.suite.writer", "difflib"} & modules


def test_the_json_of_jpd_play_is_still_printed(tmp_path):
    argv = ["play", "--size", "9", "--rules", "chinese", "--moves", "B E5", "--json"]
    out = subprocess.run([sys.executable, "-m", "jpdtools.cli", *argv], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["steps"][0]["legal"] is True


def test_jpd_explain_loads_only_the_files_naming_the_case():
    from jpdtools.commands.explain import naming
    from jpdtools.paths import conformance_dir
    from jpdtools.run.runner import case_files

    every = case_files([conformance_dir()])
    chosen = naming([conformance_dir()], "ko.simple.001")
    assert chosen == [p for p in every if b"ko.simple.001" in p.read_bytes()]
    assert conformance_dir() / "ko.yaml" in chosen and len(chosen) < len(every)


def test_jpd_explain_of_a_mistyped_id_still_names_the_close_ids_of_every_file(capsys):
    from jpdtools.cli import main

    assert main(["explain", "ko.simple.00"]) == 2
    assert "did you mean ko.simple.001, ko.simple.002, ko.simple.003?" in capsys.readouterr().err
