"""Where a character of an embedded YAML string sits in the case file. {#format.locations}

An error inside a diagram, move list, verdict text or SGF string must name the line and column
*in the YAML file*. :class:`Source` holds the raw file text and maps a (line, column) inside a
loaded string value back to the file:

* block scalars (``|``/``>``): line ``L`` of the value is file line ``value.line + L`` and
  column ``C`` is ``indent + C``, the indent being read from the raw text;
* plain and quoted scalars: the raw text is walked from the value's start, matching the value's
  characters (skipping the opening quote, escapes and folded line breaks).
"""

import re
from dataclasses import dataclass, field

from jpdtools.errors import Location

# The line breaks PyYAML counts (its marks are what LocStr.line/column come from).
_BREAK = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")
_ESCAPE_LENGTH = {"x": 4, "u": 6, "U": 10}


@dataclass(frozen=True)
class Source:
    """The raw text of one case file, for mapping positions."""

    path: str
    text: str
    lines: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", tuple(_BREAK.split(self.text)))

    def at(self, value: object, fallback: Location | None = None) -> Location:
        """The location of a loaded value (or ``fallback`` for values without one)."""
        line = getattr(value, "line", 0)
        if line:
            return Location(self.path, line, getattr(value, "column", 0))
        return fallback or Location(self.path, 1, 1)

    def locate(self, value: object, line: int, column: int) -> Location:
        """The file location of 1-based ``line``/``column`` inside the string ``value``."""
        base = self.at(value)
        if not isinstance(value, str) or not getattr(value, "line", 0):
            return base
        line, column = max(line, 1), max(column, 1)
        if not getattr(value, "block", False):
            return self._in_flow(value, base, line, column)
        if self._char(base.line, base.column) == ">":  # folded: walk from the first line
            start = base.line + 1, self._block_indent(value, base.line) + 1
            return self._in_flow(value, Location(self.path, *start), line, column, quoted=False)
        return self._in_block(value, base, line, column)

    def after_key(self, key: Location) -> Location:
        """The first character after ``key:`` on the key's line: where a value that carries no
        location of its own (a number, null) was written. ``key`` itself if none is found."""
        if not 1 <= key.line <= len(self.lines):
            return key
        raw = self.lines[key.line - 1]
        colon = raw.find(":", max(key.column - 1, 0))
        if colon < 0:
            return key
        rest = raw[colon + 1 :]
        start = colon + 1 + len(rest) - len(rest.lstrip())
        if start >= len(raw) or raw[start] == "#":
            return key
        return Location(self.path, key.line, start + 1)

    def _char(self, line: int, column: int) -> str:
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1][column - 1 : column]
        return ""

    # -- block scalars -----------------------------------------------------------------------
    def _in_block(self, value: str, base: Location, line: int, column: int) -> Location:
        indent = self._block_indent(value, base.line)
        return Location(self.path, base.line + line, indent + column)

    def _block_indent(self, value: str, first: int) -> int:
        """Leading spaces of the block's first non-blank line, minus the value's own."""
        own = next((len(s) - len(s.lstrip(" ")) for s in value.split("\n") if s.strip()), 0)
        for raw in self.lines[first:]:  # file lines after the indicator line (0-based index)
            if raw.strip():
                return max(len(raw) - len(raw.lstrip(" ")) - own, 0)
        return 0

    # -- plain and quoted scalars ------------------------------------------------------------
    def _in_flow(self, value: str, base: Location, line: int, column: int, quoted: bool = True) -> Location:
        target = _index(value, line, column)
        row, col = base.line - 1, base.column - 1  # 0-based position in self.lines
        if row >= len(self.lines):
            return base
        quote = self.lines[row][col : col + 1] if quoted else ""
        quote = quote if quote in ("'", '"') else ""
        if quote:
            col += 1
        i = 0
        while i < target and row < len(self.lines):
            raw = self.lines[row]
            if col >= len(raw):  # a line break in the raw text: a folded space or newline
                row, col = row + 1, 0
                if i < len(value) and value[i] in " \n":
                    i += 1
                continue
            r, ch = raw[col], value[i] if i < len(value) else ""
            if quote == '"' and r == "\\":
                col += _ESCAPE_LENGTH.get(raw[col + 1 : col + 2], 2)
                i += 1
            elif quote == "'" and raw[col : col + 2] == "''":
                col += 2
                i += 1
            elif r == ch:
                col += 1
                i += 1
            elif r in " \t":
                col += 1
            else:
                i += 1
        return Location(self.path, min(row, len(self.lines) - 1) + 1, col + 1)


def _index(value: str, line: int, column: int) -> int:
    """The 0-based index in ``value`` of 1-based ``line``/``column`` (lines split at \\n)."""
    parts = value.split("\n")
    line = min(line, len(parts))
    return sum(len(p) + 1 for p in parts[: line - 1]) + column - 1
