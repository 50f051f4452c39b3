"""Every item of the suite under every transform ``jpd verify --transform`` may draw for it: the
reference's verdict, mapped back, is its verdict on the item as written
(spec/contract.md#contract.transform).

The one class of items where it is not: a count whose method takes points by their number (fill-back,
the negative moves of OQ-39, "the lowest-numbered") takes other points of the same kind under a
symmetry. Its figures carry over; only those points' reasons differ, and ``choose`` does not draw
such a transform for the item, or, when every transform offered moves them, draws one without
those points' claims.
"""

from dataclasses import replace

import pytest
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.compare import judge
from jpdtools.run.runner import case_files, default_loader, plan_paths, selection_filters
from jpdtools.run.transform import Item, choose, reference_judgement, transforms_of

FILES = [p for p in case_files([conformance_dir()]) if p.stem != "format-errors"]  # the loader's own cases
BY_NUMBER = frozenset({"equal-stones", "art", "roads", "ing-balanced"})
"""The counting methods that fill back or take negative moves (spec/counting.md)."""


def _items(path):
    presets = load_presets()
    plan = plan_paths([path], presets, selection_filters([], presets), default_loader())
    return [i for i in plan.items if i.rules is not None and i.case.setup is not None]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_transform_offered_keeps_the_reference_verdict_but_points_taken_by_number(path):
    reference = ReferenceAdapter()
    checked = 0
    for item in _items(path):
        changed = 0
        given = Item(item.case.setup, item.case.history, item.case.moves)
        offered, _ = transforms_of(item.case.setup, item.rules, item.expectation)
        plain = judge(item.expectation, reference.observe(*_parts(given), item.rules))
        for t in offered:
            checked += 1
            derived = reference_judgement(t, item.expectation, given, item.rules, reference)
            if derived.status is plain.status and derived.mismatches == plain.mismatches:
                continue
            changed += 1
            where = f"{item.name} under {t.name}: {[str(m) for m in derived.mismatches]} {derived.detail}"
            assert str(item.rules.value("counting")) in BY_NUMBER and not t.swap, where
            assert {m.where for m in derived.mismatches} == {"point"} and plain.status == "pass", where
            figures = replace(item.expectation, points=())
            assert reference_judgement(t, figures, given, item.rules, reference).status == "pass", where
        if changed:
            chosen = choose(
                "suite", item.case.id, item.ruleset, item.expectation, given, item.rules, reference
            )
            assert chosen.transform is not None, f"{item.name}: {chosen.why}"
            if changed == len(offered):  # taken without the points it moves
                assert chosen.left_out and chosen.narrow(item.expectation).points != item.expectation.points
    assert checked > 0


def _parts(item: Item):
    return item.setup, item.history, item.moves
