"""The CJK font the book carries: Noto Sans CJK SC (SIL Open Font License 1.1), cut down at book
time with fontTools to the characters the pages use, written as ``OUTDIR/fonts/cjk.woff2`` with the
licence beside it. Every page asks for it by name in its style sheet, so Chinese text (the seed
quotations, the Chinese edition) renders on a machine without any CJK font.

The full font comes from a package: Debian's ``fonts-noto-cjk`` (``apt-get install
fonts-noto-cjk``), or any Noto Sans/Serif CJK or SC file named by ``JPD_CJK_FONT``. Without one the
book is written all the same, and ``jpd book`` says that readers then need a CJK font of their own.
"""

import io
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

FONT_FILE = "fonts/cjk.woff2"
LICENCE_FILE = "fonts/LICENSE-OFL.txt"
FAMILY = "JPD Noto Sans SC"
CANDIDATES = (
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/noto/NotoSansSC-Regular.ttf"),
)
ENV = "JPD_CJK_FONT"

LICENCE = """The font fonts/cjk.woff2 is a subset of Noto Sans CJK SC (or the Noto CJK font named by
JPD_CJK_FONT), made by jpd book with fontTools to the characters of this book.

Copyright 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name 'Source'.
Noto is a trademark of Google Inc.

This Font Software is licensed under the SIL Open Font License, Version 1.1.
The license is available with a FAQ at: https://openfontlicense.org
"""


@dataclass(frozen=True)
class FontSource:
    path: Path
    number: int  # the font's index inside a collection (.ttc), 0 otherwise


def find_source(environ=os.environ) -> FontSource | None:
    """The full CJK font to cut the book's from: ``JPD_CJK_FONT``, else Debian's Noto CJK."""
    named = environ.get(ENV)
    paths = [Path(named)] if named else list(CANDIDATES)
    for path in paths:
        if path.is_file():
            return FontSource(path, _simplified_chinese(path))
    return None


def _simplified_chinese(path: Path) -> int:
    """The index of the Simplified Chinese face in a collection (Noto CJK: JP, KR, SC, TC, HK)."""
    if path.suffix.lower() != ".ttc":
        return 0
    from fontTools.ttLib import TTCollection

    collection = TTCollection(str(path), lazy=True)
    for n, font in enumerate(collection.fonts):
        name = font["name"].getDebugName(1) or ""
        if name.endswith(" SC"):
            return n
    return 0


def characters(texts: Iterable[str]) -> set[str]:
    """The characters beyond ASCII that ``texts`` use (ASCII is left to the reader's own fonts)."""
    used: set[str] = set()
    for text in texts:
        used.update(text)
    return {ch for ch in used if ord(ch) > 0x7F}


def subset(source: FontSource, chars: set[str]) -> bytes:
    """The font of ``source`` cut down to ``chars``, as WOFF2."""
    from fontTools import subset as ft_subset

    options = ft_subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.font_number = source.number
    # loaded and saved as pyftsubset does: the bounding boxes and the timestamp are the full
    # font's (not measured again over every glyph), so the same characters give the same bytes
    font = ft_subset.load_font(str(source.path), options)
    subsetter = ft_subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in chars))
    subsetter.subset(font)
    out = io.BytesIO()
    ft_subset.save_font(font, out, options)
    return out.getvalue()


CJK_RANGES = "U+2E80-2FFF,U+3000-303F,U+3100-9FFF,U+F900-FAFF,U+FE30-FE4F,U+FF00-FFEF"
"""What the font is asked for: CJK characters and punctuation (Latin stays in the reader's fonts)."""


def font_face(root: str) -> str:
    """The ``@font-face`` rule of a style sheet ``root`` away from the book's top (``"../"``).
    The family comes first in every font list, limited to the CJK ranges: a browser then takes
    the book's font for every Chinese character (listed after ``system-ui`` it may not: Chromium
    sends some runs straight to the system's fallback, which without CJK fonts draws boxes)."""
    return (
        f'@font-face{{font-family:"{FAMILY}";src:url("{root}{FONT_FILE}") format("woff2");'
        f"font-display:swap;unicode-range:{CJK_RANGES}}}"
    )
