"""How pytest-xdist hands the tests to its workers (tests/conftest.py installs it for `--dist load`).

A unit of work (unit_of) is one of: the tests of one SHARED_FIXTURE_GROUPS group (conftest.py),
which share an expensive fixture and so go to one worker; a test measured as long enough to be
listed in benchmarks/results-tests.json; the conformance items of the case ids that begin with the
same word (thousands of items of milliseconds each); or the other, short, tests of one file (sent one
by one, short tests cost the controller and the workers a round trip each). Units are sent longest
first, by the durations of benchmarks/results-tests.json (a unit not listed there counts as
instant), so that no long test starts when the other worker is nearly done and both finish together.

xdist's own LoadScopeScheduling, which this extends, keeps every unit a worker has finished and
counts them all again after each test, and finds each test's index by a linear search: on a suite of
thousands of tests that alone costs the controller seconds. Here a finished unit is forgotten and
indices are looked up in a table.
"""

import json
from collections.abc import Callable
from pathlib import Path

from xdist.scheduler import LoadScopeScheduling

DURATIONS = Path(__file__).resolve().parents[1] / "benchmarks" / "results-tests.json"


def known_durations(path: Path = DURATIONS) -> dict[str, float]:
    """Test id → seconds (setup, call and teardown), as benchmarks/durations.py last measured them;
    empty when the file is absent or unreadable (then the units go in collection order)."""
    try:
        tests = json.loads(path.read_text(encoding="utf-8"))["tests"]
        return {str(t["test"]): float(t["seconds"]) for t in tests}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def unit_of(nodeid: str, groups: dict[str, str], seconds: dict[str, float]) -> str:
    """The unit of work of the test NODEID: its file's group of GROUPS (file name → group), the test
    itself when SECONDS knows its duration, its conformance case's first word, or its file."""
    path = nodeid.split("::", 1)[0]
    name = path.rsplit("/", 1)[-1]
    if name in groups:
        return groups[name]
    if nodeid in seconds:
        return nodeid
    if name == "test_conformance.py" and "[" in nodeid:
        case = nodeid.split("[", 1)[1]
        return f"{path}::{case.split('.', 1)[0]}"
    return path


def longest_first(units: dict[str, dict[str, bool]], seconds: dict[str, float]) -> list[str]:
    """The units' names, the longest first; units of equal length stay in collection order."""
    cost = {name: sum(seconds.get(test, 0.0) for test in tests) for name, tests in units.items()}
    return sorted(units, key=lambda name: -cost[name])


class LongestFirstScheduling(LoadScopeScheduling):
    """xdist's `--dist load` over units of work: scope_of names a test's unit, seconds gives
    the known durations."""

    def __init__(self, config, log, scope_of: Callable[[str], str], seconds: dict[str, float]) -> None:
        super().__init__(config, log)
        self._scope_of = scope_of
        self._seconds = seconds
        self._index: dict[object, dict[str, int]] = {}

    def _split_scope(self, nodeid: str) -> str:
        return self._scope_of(nodeid)

    def schedule(self) -> None:
        """xdist's first distribution (idle workers shut down, each worker two units), on a
        queue of units sorted longest first; later calls (a worker restarted) are xdist's."""
        if self.collection is not None or not self.collection_is_completed:
            super().schedule()
            return
        if not self._check_nodes_have_same_collection():
            self.log("**Different tests collected, aborting run**")
            return
        self.collection = list(next(iter(self.registered_collections.values())))
        units: dict[str, dict[str, bool]] = {}
        for nodeid in self.collection:
            units.setdefault(self._split_scope(nodeid), {})[nodeid] = False
        for name in longest_first(units, self._seconds):
            self.workqueue[name] = units[name]
        for node in self.nodes[len(self.workqueue) :]:
            self.assigned_work.pop(node)
            node.shutdown()
        for node in self.nodes:
            self._assign_work_unit(node)
        for node in self.nodes:
            self._reschedule(node)
        if not self.workqueue:
            for node in self.nodes:
                node.shutdown()

    def mark_test_complete(self, node, item_index: int, duration: float = 0) -> None:
        nodeid = self.registered_collections[node][item_index]
        scope = self._split_scope(nodeid)
        unit = self.assigned_work[node][scope]
        unit[nodeid] = True
        if all(unit.values()):
            del self.assigned_work[node][scope]  # finished: no longer counted as pending
        self._reschedule(node)

    def _assign_work_unit(self, node) -> None:
        scope, unit = self.workqueue.popitem(last=False)
        self.assigned_work.setdefault(node, {})[scope] = unit
        if node not in self._index:
            self._index[node] = {t: i for i, t in enumerate(self.registered_collections[node])}
        node.send_runtest_some([self._index[node][t] for t, done in unit.items() if not done])
