"""The book's languages: one catalogue of interface strings per language (:mod:`.en`, :mod:`.zh`)
and the glossary of the verdict vocabulary (:mod:`.glossary`).

The book is written twice, at build time, from the same page functions: ``OUTDIR/en/…`` and
``OUTDIR/zh/…`` with the same relative paths. A page function reads its language from the book it
is given (``book.lang``, a :class:`Language`) and takes every string a reader sees from the
catalogue (:meth:`Language.t`); no script swaps strings. A text the project has not translated yet
(a case's title without a ``zh`` text, a clause without a Chinese rendering) is shown in English in
the Chinese edition and marked (:meth:`Language.fallback`), so that a reader sees it is English and
the measurement (``benchmarks/zh_share.py``) counts it. Anything else built on the book (the
playground, ``jpd explain --lang zh``) uses the same catalogues.
"""

from dataclasses import dataclass
from html import escape

from jpdtools.book.lang import en, zh

CATALOGUES = {"en": en.STRINGS, "zh": zh.STRINGS}
"""Every language the book speaks, by the name of its edition's folder (the same keys in each)."""

FALLBACK_CLASS = "fallback"
"""The class of an English text shown in the Chinese edition for want of a translation."""


@dataclass(frozen=True)
class Language:
    code: str  # the edition's folder and the CLI's --lang: "en", "zh"
    html: str  # the BCP 47 tag of <html lang>, hreflang: "en", "zh-Hans"
    name: str  # the language's name in itself, as the switch shows it

    @property
    def strings(self) -> dict[str, str]:
        return CATALOGUES[self.code]

    def s(self, key: str, **values: object) -> str:
        """The plain text of ``key`` (KeyError when the catalogue lacks it: a test catches it),
        with ``{name}`` fields filled from ``values``."""
        text = self.strings[key]
        return text.format(**values) if values else text

    def t(self, key: str, **values: object) -> str:
        """The text of ``key`` as HTML; ``values`` are escaped (pass HTML through :meth:`h`)."""
        text = escape(self.strings[key])
        return text.format(**{k: escape(str(v)) for k, v in values.items()}) if values else text

    def h(self, key: str, **html: str) -> str:
        """The text of ``key`` as HTML with ``{name}`` fields filled by HTML already escaped
        (links, code): the catalogue decides where they stand in the sentence."""
        text = escape(self.strings[key])
        return text.format(**html) if html else text

    def word(self, prefix: str, value: str) -> str:
        """A value the implementation names (a counting method, a reason a point is owned) as
        HTML: the catalogue's ``prefix + value`` where it has one, else the value itself, marked
        (a value added to the implementation is shown, not a KeyError; a test lists the suite's)."""
        key = prefix + value
        return (
            self.t(key)
            if key in self.strings
            else f'<span class="{FALLBACK_CLASS}" lang="en">{escape(value)}</span>'
        )

    def word_text(self, prefix: str, value: str) -> str:
        """:meth:`word` as plain text."""
        return self.strings.get(prefix + value, value)

    def fallback(self, text: object) -> str:
        """An English text (a case's title, a note) as HTML: as it is in the English edition;
        marked as English in another (``<span class="fallback" lang="en">``)."""
        shown = escape(str(text), quote=True)
        if self.code == "en" or not str(text).strip():
            return shown
        return f'<span class="{FALLBACK_CLASS}" lang="en">{shown}</span>'

    def either(self, english: str, translated: str | None) -> str:
        """``translated`` (escaped) in this language when there is one, else the English, marked."""
        if self.code != "en" and translated:
            return escape(translated, quote=True)
        return self.fallback(english)


EN = Language("en", "en", "English")
ZH = Language("zh", "zh-Hans", "中文")
EDITIONS = (EN, ZH)
LANGUAGES = {lang.code: lang for lang in EDITIONS}


def language(code: str) -> Language:
    """The language of ``code`` (``en``, ``zh``; ``zh-Hans`` too)."""
    for lang in EDITIONS:
        if code in (lang.code, lang.html):
            return lang
    raise KeyError(code)


def missing() -> dict[str, list[str]]:
    """Per language, the keys another catalogue has and it lacks."""
    keys = set().union(*CATALOGUES.values())
    return {code: sorted(keys - set(s)) for code, s in CATALOGUES.items() if keys - set(s)}
