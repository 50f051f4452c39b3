"""Characters a reader cannot see: control characters, bidirectional overrides and isolates,
zero-width and other format characters (Unicode categories Cc and Cf), line and paragraph
separators (Zl, Zp).

In a name, a ruleset or any one-line field they hide what a text says (``U+202E`` shows
``evil.yaml`` as ``lmay.live``; a newline in a reviewer's name breaks the YAML it is written
into); in a case's text they would reach every page of the book. No Go rule text needs them: the
only ones a text may hold are the line break and the tab of a multi-line text.
"""

import unicodedata

_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


def hidden_character(text: str, multiline: bool = False) -> str:
    """The first character of ``text`` a reader cannot see, described (``U+202E RIGHT-TO-LEFT
    OVERRIDE at character 4``), or "" when there is none. ``multiline``: line breaks and tabs
    are allowed."""
    for n, ch in enumerate(text, 1):
        if multiline and ch in "\n\t":
            continue
        if unicodedata.category(ch) in _CATEGORIES:
            name = unicodedata.name(ch, "a control character")
            return f"U+{ord(ch):04X} {name} at character {n}"
    return ""
