"""The ruleset presets of ``spec/rulesets.yaml``, with a located error for every mistake. {#rules.presets}

(:func:`jpdref.rules.preset` reads the same file for library users; this loader is the one that
names file, line and column.)

A ruleset may be named plainly (``jpd-2022``) or with axis overrides
(``jpd-art-2:repetition=simple-ko,cycle=no-result``).
"""

from dataclasses import dataclass
from pathlib import Path

from jpdref.rules import AXES, PRESETS_FILE, Rules, RulesError, select_ruleset

from jpdtools.errors import InputError, NothingSelected
from jpdtools.paths import spec_file
from jpdtools.yamlsrc import LocDict, load_yaml_file, location_of


@dataclass(frozen=True)
class Presets:
    """Every named ruleset, in file order."""

    rulesets: tuple[Rules, ...]

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.rulesets]

    def get(self, spec: str) -> Rules:
        """The ruleset named by ``spec`` (``NAME`` or ``NAME:axis=value,…``)."""
        return select_ruleset(self.rulesets, spec)

    def select(self, spec: str) -> list[Rules]:
        """``all``, or a comma-free list of names separated by ``+`` or spaces."""
        if spec.strip() == "all":
            return list(self.rulesets)
        names = spec.replace("+", " ").split()
        if not names:
            raise NothingSelected(f"--rules {spec!r} names no ruleset")
        return [self.get(s) for s in names]


def load_presets(path: Path | None = None) -> Presets:
    """Read and validate the presets file. Raises InputError naming file, line and column."""
    path = path or spec_file(PRESETS_FILE)
    data = load_yaml_file(path)
    where = str(path)
    if not isinstance(data, LocDict) or data.get("format") != 1:
        raise InputError("expected a mapping with 'format: 1'", location_of(data, where))
    table = data.get("rulesets")
    if not isinstance(table, LocDict) or not table:
        raise InputError("expected a 'rulesets' mapping", location_of(data, where))
    rulesets = []
    for name, entry in table.items():
        loc = table.key_location(name, where)
        if not isinstance(entry, LocDict):
            raise InputError(f"ruleset {name!r} must be a mapping", loc)
        values, sources = {}, {}
        for axis, item in entry.items():
            if axis == "title":
                continue
            item_loc = entry.key_location(axis, where)
            if axis not in AXES:
                raise InputError(f"unknown axis {axis!r} (expected one of: {', '.join(AXES)})", item_loc)
            if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)):
                raise InputError(f"axis {axis!r} must be [value, source]", item_loc)
            if not item[1].strip():
                raise InputError(f"axis {axis!r} of {name!r} cites no source", item_loc)
            values[axis], sources[axis] = item
        try:
            rulesets.append(Rules.from_mapping(name, values, str(entry.get("title", "")), sources))
        except RulesError as err:
            raise InputError(str(err), loc) from None
    return Presets(tuple(rulesets))
