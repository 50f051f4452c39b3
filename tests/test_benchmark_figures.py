"""The speed figures the docs quote are the ones benchmarks/run.py wrote: docs/researchers.md
holds benchmarks/results.md verbatim between its markers, and that table is the one run.py makes
from benchmarks/results.json."""

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


def _run_module():
    sys.path.insert(0, str(BENCHMARKS))  # run.py imports its neighbour replay.py
    try:
        spec = importlib.util.spec_from_file_location("benchmarks_run", BENCHMARKS / "run.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_the_table_is_made_from_the_results_file():
    run = _run_module()
    results = json.loads((BENCHMARKS / "results.json").read_text(encoding="utf-8"))
    assert run.table(results) == (BENCHMARKS / "results.md").read_text(encoding="utf-8")


def test_the_docs_quote_the_table_as_written():
    run = _run_module()
    doc = (ROOT / run.QUOTED_IN).read_text(encoding="utf-8")
    table = (BENCHMARKS / "results.md").read_text(encoding="utf-8")
    assert run.quote(doc, table) == doc, f"{run.QUOTED_IN} does not quote benchmarks/results.md as written"
    assert table in doc


def test_quoting_replaces_only_what_is_between_the_markers():
    run = _run_module()
    doc = f"before\n{run.BEGIN}\nold table\n{run.END}\nafter\n"
    assert run.quote(doc, "| a |\n") == f"before\n{run.BEGIN}\n| a |\n{run.END}\nafter\n"
