"""Characters a reader cannot see: control characters, bidirectional overrides and isolates,
zero-width and other format characters (Unicode categories Cc and Cf), line and paragraph
separators (Zl, Zp).

In a name, a ruleset or any one-line field they hide what a text says (``U+202E`` shows
``evil.yaml`` as ``lmay.live``; a newline in a reviewer's name breaks the YAML it is written
into); in a case's text they would reach every page of the book. No Go rule text needs them: the
only ones a text may hold are the line break and the tab of a multi-line text.
"""

import functools
import re
import sys
import unicodedata

_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
_ALLOWED_IN_TEXT = "\n\t"


def find_hidden(text: str, multiline: bool = False) -> tuple[int, str] | None:
    """The index and description (``U+202E RIGHT-TO-LEFT OVERRIDE``) of the first character of
    ``text`` a reader cannot see, or None. ``multiline``: line breaks and tabs are allowed."""
    for n, ch in enumerate(text):
        if multiline and ch in "\n\t":
            continue
        if unicodedata.category(ch) in _CATEGORIES:
            return n, f"U+{ord(ch):04X} {unicodedata.name(ch, 'a control character')}"
    return None


def hidden_character(text: str, multiline: bool = False) -> str:
    """:func:`find_hidden` in words (``U+202E RIGHT-TO-LEFT OVERRIDE at character 4``), or ""."""
    found = find_hidden(text, multiline)
    return f"{found[1]} at character {found[0] + 1}" if found else ""


@functools.cache
def hidden_in_text() -> re.Pattern[str]:
    """One character of the categories above but a line break or a tab, as a regular expression
    (its class is read from :mod:`unicodedata`, so it is the same set :func:`find_hidden` tests)."""
    ranges: list[tuple[int, int]] = []
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        if ch in _ALLOWED_IN_TEXT or unicodedata.category(ch) not in _CATEGORIES:
            continue
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges) + "]")


def made_visible(text: str) -> str:
    """``text`` with every character a reader cannot see (but line breaks and tabs) written as
    its code point, ``⟦U+202E⟧``: what a page shows of a text that holds one."""
    if text.isprintable():  # the usual case, at C speed: no control or format character
        return text
    if text.replace("\n", "").replace("\t", "").isprintable():  # a multi-line text: as fast
        return text
    return hidden_in_text().sub(lambda m: f"⟦U+{ord(m.group()):04X}⟧", text)
