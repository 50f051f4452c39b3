"""Plain-text tables for the terminal (no dependencies).

A table is as wide as its content, unless a width is given (:func:`terminal_width`: the
terminal's, when standard output is one and ``--wide`` is not asked for): then the widest columns
are cut, each cell that no longer fits ending in "…". Piped output is never cut, so what other
programs parse stays whole.
"""

import os
import sys
import unicodedata

MIN_COLUMN = 8  # a column is never cut narrower than this


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def _cut(text: str, width: int) -> str:
    if _width(text) <= width:
        return text
    out = ""
    for ch in text:
        if _width(out + ch) > width - 1:
            break
        out += ch
    return out + "…"


def terminal_width(wide: bool = False) -> int | None:
    """The width to fit a table into: the terminal's columns when standard output is a terminal
    (and ``wide`` is not asked for), else None (no limit)."""
    if wide or not sys.stdout.isatty():
        return None
    return terminal_columns(fallback=100)


def terminal_columns(fallback: int) -> int:
    """The columns :func:`shutil.get_terminal_size` gives (``$COLUMNS``, else the terminal's, else
    ``fallback``), without importing shutil, which imports the compressors (start-up time; the
    help of every ``jpd`` command is laid out with it too, see :class:`jpdtools.cli.HelpFormatter`)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or fallback


def wrap(lines: list[str], width: int | None) -> list[str]:
    """``lines`` with every line longer than ``width`` wrapped at spaces, its continuation
    indented as the line is (None: unchanged). Lines without spaces (boards) are left whole."""
    if width is None:
        return lines
    import textwrap

    out: list[str] = []
    for line in lines:
        if _width(line) <= width or " " not in line.strip():
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out += textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent + "  ") or [line]
    return out


def _fit(widths: list[int], limit: int) -> list[int]:
    widths = list(widths)
    while sum(widths) + 2 * (len(widths) - 1) > limit:
        widest = max(range(len(widths)), key=lambda i: widths[i])
        if widths[widest] <= MIN_COLUMN:
            break
        widths[widest] -= 1
    return widths


def render(headers: list[str], rows: list[list[str]], width: int | None = None) -> str:
    """A left-aligned table with a rule under the header; wide (CJK) characters count double.
    With ``width``, the widest columns are cut until the table fits (cut cells end in "…")."""
    cols = [headers, *rows]
    widths = [max(_width(str(r[i])) for r in cols) for i in range(len(headers))]
    if width is not None:
        widths = _fit(widths, width)

    def line(cells) -> str:
        return "  ".join(_pad(_cut(str(c), w), w) for c, w in zip(cells, widths, strict=True)).rstrip()

    lines = [line(headers), "  ".join("-" * w for w in widths)]
    lines += [line(r) for r in rows]
    return "\n".join(lines)
