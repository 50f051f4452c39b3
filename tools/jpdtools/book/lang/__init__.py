"""The book's interface strings, one catalogue per language (:mod:`.en`, :mod:`.zh`), and the
glossary of the verdict vocabulary (:mod:`.glossary`).

A page is written once, in English, with every interface string marked by its key
(``<span data-t="KEY">…</span>``, :func:`tr`); the book ships each catalogue as a script
(``lang/zh.js``), and ``book.js`` swaps the marked strings and sets ``<html lang>`` when the
reader switches language (kept in ``localStorage``). Seed quotations are never marked: they stay
as the seeds wrote them. Anything built on the book (the playground) uses the same catalogues.
"""

import json
from html import escape

from jpdtools.book.lang import en, zh

LANGUAGES = {"en": en.STRINGS, "zh-Hans": zh.STRINGS}
"""Every language the book speaks: its ``lang`` code and its catalogue (the same keys in each)."""


def text(key: str, lang: str = "en") -> str:
    """The string ``key`` in ``lang`` (KeyError when the catalogue lacks it: a test catches it)."""
    return LANGUAGES[lang][key]


def tr(key: str) -> str:
    """The English string ``key`` as HTML, marked so the switch can render it in another language."""
    return f'<span data-t="{escape(key, quote=True)}">{escape(text(key))}</span>'


def missing() -> dict[str, list[str]]:
    """Per language, the keys another catalogue has and it lacks."""
    keys = set().union(*LANGUAGES.values())
    return {lang: sorted(keys - set(s)) for lang, s in LANGUAGES.items() if keys - set(s)}


def catalogue_js(lang: str) -> str:
    """The catalogue of ``lang`` as a script for ``book.js`` (``window.JPD_STRINGS[lang]``)."""
    data = json.dumps(LANGUAGES[lang], ensure_ascii=False, sort_keys=True)
    head = "window.JPD_STRINGS = window.JPD_STRINGS || {};\n"
    return f"{head}window.JPD_STRINGS[{json.dumps(lang)}] = {data};\n"
