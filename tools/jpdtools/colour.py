"""Colour on a terminal only: never in a pipe or a file, never when ``NO_COLOR`` is set
(https://no-color.org) or the terminal is ``dumb``. What other programs parse is never coloured,
since they read a pipe."""

import os
from typing import TextIO

_CODES = {"red": "31", "green": "32", "yellow": "33", "bold": "1"}


def wanted(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal that may be written in colour."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def paint(text: str, style: str, stream: TextIO) -> str:
    """``text`` in ``style`` (red, green, yellow, bold) when :func:`wanted` for ``stream``."""
    if not text or not wanted(stream):
        return text
    return f"\033[{_CODES[style]}m{text}\033[0m"


def verdict_line(text: str, ok: bool, stream: TextIO) -> str:
    """A report whose last line is its verdict: that line green when ``ok``, else red."""
    head, _, last = text.rpartition("\n")
    painted = paint(last, "green" if ok else "red", stream)
    return f"{head}\n{painted}" if head else painted
