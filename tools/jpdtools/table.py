"""Plain-text tables for the terminal (no colour, no dependencies)."""

import unicodedata


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def render(headers: list[str], rows: list[list[str]]) -> str:
    """A left-aligned table with a rule under the header; wide (CJK) characters count double."""
    cols = [headers, *rows]
    widths = [max(_width(str(r[i])) for r in cols) for i in range(len(headers))]
    lines = ["  ".join(_pad(str(h), w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(_pad(str(c), w) for c, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(lines)
