"""The CJK font the book carries: Noto Sans CJK SC (SIL Open Font License 1.1), cut down at book
time with fontTools to the characters the pages use, written as ``OUTDIR/fonts/cjk.woff2`` with the
licence beside it. Every page asks for it by name in its style sheet, so Chinese text (the seed
quotations, the Chinese edition) renders on a machine without any CJK font.

The full font comes from a package: Debian's ``fonts-noto-cjk`` (``apt-get install
fonts-noto-cjk``), or any Noto Sans/Serif CJK or SC file named by ``JPD_CJK_FONT``. Without one the
book is written all the same, and ``jpd book`` says that readers then need a CJK font of their own.

Cutting the font takes seconds (fontTools, then Brotli at its best compression), so the cut font
is kept in the user's cache folder (:mod:`jpdtools.diskcache`: an entry named by the SHA-256 of the
full font's bytes, the characters and the code that cuts, sealed with the user's secret key, and
used only when it is a whole WOFF2 file). So that books made from jipingdian's own texts ask for
the same characters, and a second book finds the first one's font, a book's font covers
:func:`own_characters` (the specification, the shipped suite, the book's own words: a book of a few
cases already shows nearly all of them, through its specification pages) as well as its pages'.
"""

import hashlib
import io
import os
import re
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
JPD_CJK_FONT), made by jpd book with fontTools to the characters of this book and of jipingdian's own texts.

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


_ASCII = re.compile(r"[\x00-\x7f]+")


def characters(texts: Iterable[str]) -> set[str]:
    """The characters beyond ASCII that ``texts`` use (ASCII is left to the reader's own fonts)."""
    used: set[str] = set()
    for text in texts:
        used.update(_ASCII.sub("", text))  # a page is mostly ASCII: dropped first, in one pass
    return used


def own_characters() -> set[str]:
    """The characters beyond ASCII of jipingdian's own texts: the specification's files, the
    shipped suite's and the book's code (its words in both editions and its page templates)."""
    from jpdtools.paths import conformance_dir, spec_dir

    roots = (spec_dir(), conformance_dir(), Path(__file__).resolve().parent)
    used: set[str] = set()
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in OWN_SUFFIXES and path.is_file():
                used |= characters((path.read_text(encoding="utf-8", errors="replace"),))
    return used


OWN_SUFFIXES = (".md", ".yaml", ".lark", ".txt", ".py", ".js", ".css")
"""The text files :func:`own_characters` reads."""

CACHE_PREFIX = "font-"
CACHE_KEEP = 8
"""Cut fonts kept in the user's cache folder (half a megabyte each); beyond that the least recently
used go."""


def cut(source: FontSource, chars: set[str], dirs=None) -> bytes:
    """:func:`subset`, kept in the user's cache folder (``dirs``, by default
    :func:`jpdtools.diskcache.cache_dirs`): a cut already made for the same full font, characters
    and code is read back instead of made again."""
    from jpdtools import diskcache

    dirs = diskcache.cache_dirs() if dirs is None else dirs
    key = cache_key(source, chars)
    name = f"{CACHE_PREFIX}{key.hex()}.entry"
    found = dirs.find(name, key, frozenset())
    if isinstance(found, bytes) and is_woff2(found):
        return found
    font = subset(source, chars)
    if dirs.store(name, font, key):
        diskcache.prune_named(dirs.write, CACHE_PREFIX, CACHE_KEEP)
    return font


def cache_key(source: FontSource, chars: set[str]) -> bytes:
    """What a cut font depends on: the full font's bytes and face, the characters, and the code
    that cuts (this module's source, fontTools' and Brotli's versions)."""
    import brotli
    import fontTools

    from jpdtools.diskcache import key_of

    digest = hashlib.sha256()
    with source.path.open("rb") as full:
        for block in iter(lambda: full.read(1 << 20), b""):
            digest.update(block)
    return key_of(
        b"cjk-font",
        digest.digest(),
        str(source.number).encode(),
        "".join(sorted(chars)).encode("utf-8", "surrogatepass"),
        Path(__file__).read_bytes(),
        fontTools.version.encode(),
        str(getattr(brotli, "__version__", "")).encode(),
    )


def is_woff2(data: bytes) -> bool:
    """Whether ``data`` is a whole WOFF2 file: its signature, and the length its header gives."""
    return len(data) >= 48 and data[:4] == b"wOF2" and int.from_bytes(data[8:12], "big") == len(data)


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
