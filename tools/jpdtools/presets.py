"""Loading the ruleset presets of ``spec/rulesets.yaml``. {#rules.presets}

A ruleset may be named plainly (``jpd-2022``) or with axis overrides
(``jpd-art-2:repetition=simple-ko,cycle=no-result``).
"""

import difflib
from dataclasses import dataclass
from pathlib import Path

from jpdref.rules import AXES, Rules, RulesError

from jpdtools.errors import InputError
from jpdtools.paths import spec_dir
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
        name, _, overrides = spec.strip().partition(":")
        for rules in self.rulesets:
            if rules.name == name:
                break
        else:
            close = difflib.get_close_matches(name, self.names, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise RulesError(f"unknown ruleset {name!r}{hint}; known: {', '.join(self.names)}")
        if not overrides:
            return rules
        changes: dict[str, str] = {}
        for item in overrides.split(","):
            axis, eq, value = item.partition("=")
            if not eq:
                raise RulesError(f"override {item!r} is not of the form axis=value")
            axis = axis.strip()
            if axis not in AXES:
                raise RulesError(f"unknown axis {axis!r} (expected one of: {', '.join(AXES)})")
            changes[axis] = value.strip()
        return rules.with_values(changes, name=spec.strip())

    def select(self, spec: str) -> list[Rules]:
        """``all``, or a comma-free list of names separated by ``+`` or spaces."""
        if spec.strip() == "all":
            return list(self.rulesets)
        return [self.get(s) for s in spec.replace("+", " ").split()]


def load_presets(path: Path | None = None) -> Presets:
    """Read and validate the presets file. Raises InputError naming file, line and column."""
    path = path or spec_dir() / "rulesets.yaml"
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
