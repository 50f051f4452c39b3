"""The ruleset presets of ``spec/rulesets.yaml``, with a located error for every mistake. {#rules.presets}

(:func:`jpdref.rules.preset` reads the same file for library users; this loader is the one that
names file, line and column.)

A ruleset may be named plainly (``jpd-2022``) or with axis overrides
(``jpd-art-2:repetition=simple-ko,cycle=no-result``).

**The ruleset selection** (``--rules`` of every command: spec/contract.md#contract.rulesets) is
one syntax, :func:`parse_selection`::

    selection := "all" | ruleset { ("+" | " ") ruleset }        (--rules may be repeated)
    ruleset   := NAME [ ":" axis=value { "," axis=value } ]

``+`` (or a space, or another ``--rules``) separates rulesets; ``,`` separates the overrides of one
ruleset. Lists and overrides cannot collide: a comma-separated part without ``=`` cannot be an
override, so it names the next ruleset — the older spelling ``japanese,chinese`` still means
``japanese+chinese``, and ``japanese:komi=0,chinese`` means ``japanese:komi=0+chinese``. Every
error names the part at fault and the whole value.
"""

import functools
from dataclasses import dataclass
from pathlib import Path

from jpdref import rules as rules_module
from jpdref.rules import AXES, PRESETS_FILE, Rules, RulesError, select_ruleset

from jpdtools import diskcache
from jpdtools.diskcache import CacheDirs
from jpdtools.errors import InputError, NothingSelected, read_bytes, text_of
from jpdtools.paths import spec_file


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

    def select(self, spec: str, option: str = "--rules") -> list[Rules]:
        """The rulesets ``spec`` selects (:func:`parse_selection`; ``all``: every preset)."""
        chosen = parse_selection([spec], self, option)
        return list(self.rulesets) if chosen is None else list(chosen)


def ruleset_specs(value: str) -> list[str]:
    """The ruleset specs of one ``--rules`` value, as written (``NAME`` or ``NAME:a=v,…``)."""
    specs: list[str] = []
    for word in value.replace("+", " ").split():
        for part in word.split(","):
            if not part:
                continue
            if "=" in part and specs and ":" in specs[-1] and ":" not in part:
                specs[-1] += "," + part  # another override of the ruleset before
            else:
                specs.append(part)
    return specs


def parse_selection(values: list[str] | tuple[str, ...], presets: Presets, option: str = "--rules"):
    """The rulesets ``values`` (the ``--rules`` values, in order) select, without repeats; None
    for ``all``. Raises InputError naming the offending part, NothingSelected for an empty value."""
    chosen: list[Rules] = []
    for value in values:
        specs = ruleset_specs(value)
        if not specs:
            raise NothingSelected(f"{option} {value!r} names no ruleset")
        for spec in specs:
            if spec == "all":
                if len(values) > 1 or len(specs) > 1:
                    raise InputError(f"{option} {value!r}: 'all' cannot be combined with other rulesets")
                return None
            if spec.startswith(":") or spec.endswith(":"):
                raise InputError(f"{option} {value!r}: {spec!r} is not NAME or NAME:axis=value,…")
            if "=" in spec and ":" not in spec:
                raise InputError(
                    f"{option} {value!r}: {spec!r} is an override with no ruleset before it "
                    f"(write NAME:{spec})"
                )
            try:
                rules = presets.get(spec)
            except RulesError as err:
                raise InputError(f"{option} {value!r}: in {spec!r}: {err}") from None
            if rules.name not in [r.name for r in chosen]:
                chosen.append(rules)
    return tuple(chosen)


FORMAT = b"jipingdian parsed presets, format 1\n"
"""The format of a cached presets entry; part of its key."""


def load_presets(path: Path | None = None, dirs: CacheDirs | None = None) -> Presets:
    """Read and validate the presets file. Raises InputError naming file, line and column.

    The parsed presets are kept on disk (:mod:`jpdtools.diskcache`, keyed by the file's bytes and
    the code that parses them), so a command that does not need PyYAML does not import it.
    """
    path = path or spec_file(PRESETS_FILE)
    data = read_bytes(path)
    key = diskcache.key_of(FORMAT, diskcache.code_digest().encode(), data)
    dirs = diskcache.cache_dirs() if dirs is None else dirs
    name = key.hex() + ".entry"
    found = dirs.find(name, key, _allowed())
    if isinstance(found, Presets) and all(isinstance(r, Rules) for r in found.rulesets):
        return found
    presets = parse_presets_text(text_of(data, path), str(path))
    dirs.store(name, presets, key)
    return presets


@functools.cache
def _allowed() -> frozenset[tuple[str, str]]:
    """The classes a cached Presets value is made of: Presets and jpdref.rules' own."""
    module = rules_module.__name__
    names = [n for n, v in vars(rules_module).items() if isinstance(v, type) and v.__module__ == module]
    return diskcache.allowed_classes((__name__, ("Presets",)), (module, names))


def parse_presets_text(text: str, where: str) -> Presets:
    """The presets of a presets file's text (``where`` names it in messages)."""
    from jpdtools.yamlsrc import LocDict, load_yaml_text, location_of  # PyYAML: only to parse

    data = load_yaml_text(text, where)
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
            values[str(axis)], sources[str(axis)] = str(item[0]), str(item[1])
        try:
            rulesets.append(Rules.from_mapping(str(name), values, str(entry.get("title", "")), sources))
        except RulesError as err:
            raise InputError(str(err), loc) from None
    return Presets(tuple(rulesets))
