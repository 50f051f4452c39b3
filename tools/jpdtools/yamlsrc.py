"""Safe YAML loading that remembers where every value came from.

Mappings load as :class:`LocDict`, sequences as :class:`LocList`, strings as :class:`LocStr`;
each knows its 1-based line and column in the file (``.line``, ``.column``), so errors about a
value can point at it. Only the safe YAML subset is accepted (``yaml.SafeLoader``).

PyYAML is imported on the first parse, not with this module: unpickling a compiled case file
(jpdtools/suite/compiled.py) needs the classes below, not the parser.
"""

import functools
from pathlib import Path

from jpdtools.errors import InputError, Location, read_text_file


class LocStr(str):
    line: int = 0
    column: int = 0
    block: bool = False  # a literal/folded block scalar: its text starts on the next line


class LocDict(dict):
    line: int = 0
    column: int = 0

    def key_location(self, key: str, path: str) -> Location:
        for k in self:
            if k == key and isinstance(k, LocStr):
                return Location(path, k.line, k.column)
        return Location(path, self.line, self.column)


class LocList(list):
    line: int = 0
    column: int = 0


def _mark(obj, node):
    obj.line = node.start_mark.line + 1
    obj.column = node.start_mark.column + 1
    return obj


def _str(loader, node):
    s = _mark(LocStr(loader.construct_scalar(node)), node)
    s.block = node.style in ("|", ">")
    return s


def _map(loader, node):
    d = _mark(LocDict(), node)
    yield d
    seen: set = set()
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str | int | float | bool | type(None)):
            raise InputError(
                "a mapping key must be a plain value",
                Location(loader.name, key_node.start_mark.line + 1, key_node.start_mark.column + 1),
            )
        if key in seen:
            raise InputError(
                f"duplicate key {key!r}",
                Location(loader.name, key_node.start_mark.line + 1, key_node.start_mark.column + 1),
            )
        seen.add(key)
        d[key] = loader.construct_object(value_node, deep=True)


def _seq(loader, node):
    lst = _mark(LocList(), node)
    yield lst
    lst.extend(loader.construct_sequence(node, deep=True))


@functools.cache
def _loader_class():
    import yaml

    class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml when PyYAML has it: 5x faster
        pass

    Loader.add_constructor("tag:yaml.org,2002:str", _str)
    Loader.add_constructor("tag:yaml.org,2002:map", _map)
    Loader.add_constructor("tag:yaml.org,2002:seq", _seq)
    return Loader


def load_yaml_text(text: str, path: str):
    """Parse YAML ``text`` (from ``path``, for messages). Raises InputError with a location."""
    import yaml

    try:
        loader = _loader_class()(text)
    except yaml.reader.ReaderError as err:
        line, column = _position(text, err.position)
        raise InputError(f"YAML error: {err.reason}", Location(path, line, column)) from None
    loader.name = path
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path, 1, 1)
        problem = err.problem or err.context or "invalid YAML"
        raise InputError(f"YAML syntax error: {problem}", where) from None
    except yaml.reader.ReaderError as err:
        line, column = _position(text, err.position)
        raise InputError(f"YAML error: {err.reason}", Location(path, line, column)) from None
    except yaml.YAMLError as err:
        raise InputError(f"YAML error: {err}", Location(path, 1, 1)) from None
    finally:
        loader.dispose()


def load_yaml_file(path: Path):
    return load_yaml_text(read_text_file(path), str(path))


def location_of(value, path: str) -> Location:
    return Location(path, getattr(value, "line", 0), getattr(value, "column", 0))


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
