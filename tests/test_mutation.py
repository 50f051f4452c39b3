"""The mutation harness of ``benchmarks/mutate.py``: its mutants, its patching, its committed lists.

The campaign itself (hundreds of ``jpd run``) is too slow for the tests; CI runs its smoke check
(``python benchmarks/mutate.py --smoke``). Here: that mutants are found in every module, that a
patched function really behaves mutated (in a forked child, so this process is unchanged), and
that every entry of ``equivalent.txt`` and ``smoke.txt`` names a mutant that exists.
"""

import functools
import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load_harness():
    spec = importlib.util.spec_from_file_location("mutate", ROOT / "benchmarks" / "mutate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutate"] = module
    spec.loader.exec_module(module)
    return module


mutate = _load_harness()


@functools.cache
def population() -> tuple:
    """Every mutant, found once, by the first test that asks (not while collecting)."""
    return tuple(mutate.enumerate_mutants())


@functools.cache
def by_key() -> dict:
    return {m.key: m for m in population()}


def test_every_module_with_code_has_mutants_and_every_operator_is_used():
    files = {m.file for m in population()}
    for rel, _ in mutate.module_files():
        source = (ROOT / rel).read_text(encoding="utf-8")
        if "def " in source:
            assert rel in files, rel
    assert {m.operator for m in population()} == set(mutate.OPERATORS)
    assert len(by_key()) == len(population()), "mutant keys must be unique"


def test_the_sample_covers_every_module_and_is_reproducible():
    first = mutate.sample(population(), 500, 14)
    assert [m.key for m in first] == [m.key for m in mutate.sample(population(), 500, 14)]
    assert {m.file for m in first} == {m.file for m in population()}
    assert len(first) >= 500


def _in_child(check) -> int:
    """Run ``check`` in a forked child; its exit status (0: it held)."""
    pid = os.fork()
    if pid == 0:
        try:
            os._exit(0 if check() else 1)
        except BaseException:
            os._exit(2)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def test_a_patched_method_behaves_mutated_in_every_module_that_imported_it():
    from jpdref.stones import BLACK, WHITE

    (m,) = [
        m
        for m in population()
        if m.scope == "Color.opponent" and m.operator == "colour" and m.before == "Color.WHITE"
    ]

    def mutated() -> bool:
        mutate.patch(m)
        from jpdref.game import Game  # a module that imported Color uses the mutated property

        return BLACK.opponent is BLACK and Game.__module__ == "jpdref.game"

    assert _in_child(mutated) == 0
    assert BLACK.opponent is WHITE  # this process is unchanged


def test_a_patched_module_constant_is_rebound_where_it_was_imported():
    (m,) = [m for m in population() if m.file.endswith("handicap.py") and m.before == "9" and m.top_level]

    def mutated() -> bool:
        mutate.patch(m)
        import jpdref.handicap as handicap

        return handicap.MAX_HANDICAP == 10

    assert _in_child(mutated) == 0


@pytest.mark.parametrize("name", ["equivalent.txt", "smoke.txt"])
def test_committed_lists_name_existing_mutants(name):
    path = ROOT / "benchmarks" / "mutants" / name
    if name == "equivalent.txt":
        keys = list(mutate.load_equivalents(path))
    else:
        lines = path.read_text(encoding="utf-8").splitlines()
        keys = [k for k in lines if k.strip() and not k.startswith("#")]
    assert keys, f"{name} is empty"
    # An edit of refimpl/jpdref makes some entries stale (the harness lists them); most must
    # still name a mutant, or the keys are not being written the way the harness spells them.
    stale = [k for k in keys if k not in by_key()]
    assert len(stale) <= len(keys) // 5, f"{name}: entries that name no mutant: {stale}"


def test_a_survivors_listing_gives_its_keys_and_names_existing_mutants():
    """survivors.txt (read by --recheck): status<TAB>key lines under the header; its keys name mutants."""
    listing = "survived\ta.py::f::delete: x() => pass\n\nnot-reached\ta.py::g::const: 1 => 2\n"
    text = mutate.SURVIVORS_HEADER + listing
    assert mutate.survivor_keys(text) == ["a.py::f::delete: x() => pass", "a.py::g::const: 1 => 2"]
    keys = mutate.survivor_keys(mutate.SURVIVORS.read_text(encoding="utf-8"))
    stale = [k for k in keys if k not in by_key()]
    assert len(stale) <= len(keys) // 5, f"survivors.txt: entries that name no mutant: {stale}"


def test_a_mutant_runs_the_items_that_execute_its_lines():
    """Coverage.items: the items whose unmutated run executed one of the mutant's lines, in order."""
    (m,) = [
        m
        for m in population()
        if m.scope == "Color.opponent" and m.operator == "colour" and m.before == "Color.WHITE"
    ]
    path = str(ROOT / m.file)
    cov = mutate.Coverage(
        set(), {(path, m.line): [7, 2], (path, m.line + 50): [5], ("other.py", m.line): [9]}
    )
    assert cov.items(m) == [2, 7]
    assert cov.running == {(path, m.line), (path, m.line + 50), ("other.py", m.line)}
