"""The page shell of the case book: escaping, relative links, the navigation bar.

Every page is a static file reached from ``file://``: links are relative (``root`` is the way
back to the book's top, ``""`` or ``"../"``), the style sheet and the filter script are files of
the book, nothing is fetched from elsewhere. Every text that reaches a page goes through
:func:`esc`; attributes are always double-quoted.
"""

import functools
import re
from collections.abc import Iterable
from html import escape

from jpdtools.book.lang import EDITIONS, Language
from jpdtools.hidden import made_visible

NAV = (
    ("index.html", "nav.cases"),
    ("clauses/index.html", "nav.clauses"),
    ("seeds/index.html", "nav.seeds"),
    ("questions/index.html", "nav.questions"),
    ("rulesets/index.html", "nav.rulesets"),
    ("differences/index.html", "nav.differences"),
    ("glossary.html", "nav.glossary"),
    ("playground.html", "nav.playground"),
)
SCRIPTS = ("review.js",)  # on every page

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def esc(text: object) -> str:
    """Any value as HTML text (quotes escaped too, so it is safe in attributes); a character a
    reader cannot see (a bidirectional override, a zero-width space) shown as its code point."""
    return _escaped(text if type(text) is str else str(text))


@functools.lru_cache(maxsize=1 << 16)
def _escaped(text: str) -> str:
    """:func:`esc` of a string, remembered: a book escapes the same names, ids and verdicts
    millions of times."""
    return escape(made_visible(text), quote=True)


def slug(name: str) -> str:
    """A file name for ``name``: ASCII letters, digits, ``.``, ``-``, ``_``; anything else as
    ``_XXXX`` (its code point), so distinct names get distinct files."""
    return _UNSAFE.sub(lambda m: f"_{ord(m.group()):x}", name) or "_"


def link(href: str, text: object, cls: str = "") -> str:
    attr = f' class="{esc(cls)}"' if cls else ""
    return f'<a href="{esc(href)}"{attr}>{esc(text)}</a>'


def ident(href: str, text: object) -> str:
    """A link whose text is an identifier (a case id, an anchor, an article's label): not to be
    translated, and not language to measure."""
    return f'<a href="{esc(href)}" translate="no">{esc(text)}</a>'


def case_href(case_id: str, root: str) -> str:
    return f"{root}cases/{slug(case_id)}.html"


def clause_href(anchor: str, root: str) -> str:
    return f"{root}clauses/{slug(anchor)}.html"


def question_href(anchor: str, root: str) -> str:
    return f"{root}questions/{slug(anchor)}.html"


def ruleset_href(name: str, root: str) -> str:
    return f"{root}rulesets/{slug(name)}.html"


def seed_href(key: str, root: str) -> str:
    return f"{root}seeds/{slug(key)}.html"


def code(text: object) -> str:
    return f"<code>{esc(text)}</code>"


HAN = re.compile(r"[\u3400-\u9fff]")


def quote(text: str, lang, cls: str = "", tag: str = "blockquote") -> str:
    """A quotation as its source wrote it, marked with its language: Chinese where it is (the
    seeds, the Chinese rules' own words), English where a public source is quoted in English
    (in the Chinese edition also marked as text without a Chinese rendering)."""
    if len(HAN.findall(text)) * 2 >= len(re.findall(r"[A-Za-z]", text)):  # Chinese, or mostly
        attr = f' class="{esc(cls)}"' if cls else ""
        return f'<{tag}{attr} lang="zh-Hans">{esc(text)}</{tag}>'
    classes = " ".join(c for c in (cls, "fallback" if lang.code != "en" else "") if c)
    attr = f' class="{classes}"' if classes else ""
    return f'<{tag}{attr} lang="en">{esc(text)}</{tag}>'


def ul(items: Iterable[str], cls: str = "", none: str = "<p>–</p>") -> str:
    """A list of HTML items; ``none`` (HTML) when there are none (``lang.t("none")``)."""
    rows = "".join(f"<li>{i}</li>" for i in items)
    attr = f' class="{esc(cls)}"' if cls else ""
    return f"<ul{attr}>{rows}</ul>" if rows else none


def table(head: Iterable[str], rows: Iterable[Iterable[str]], cls: str = "") -> str:
    """A table whose cells are HTML already (escape their text before)."""
    attr = f' class="{esc(cls)}"' if cls else ""
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table{attr}><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def paragraphs(text: str) -> str:
    """Plain text (a case's note) as escaped paragraphs, split at blank lines; back-quoted words
    as code."""
    blocks = [b.strip() for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]
    return "".join(f"<p>{inline_code(esc(' '.join(b.split())))}</p>" for b in blocks)


_BACKQUOTED = re.compile(r"`([^`]+)`")


def inline_code(html: str) -> str:
    """Back-quoted words of escaped text (a note's ``ko``, a heading's module name) as code, as the
    case files and the spec's Markdown mean them."""
    return _BACKQUOTED.sub(lambda m: f"<code>{m.group(1)}</code>", html)


def unquoted(text: str) -> str:
    """Plain text with its back-quotes dropped (a page's ``<title>``, where no code can be shown)."""
    return _BACKQUOTED.sub(lambda m: m.group(1), text)


def root_of(here: str) -> str:
    """The way back to the edition's top from the page at ``here`` (``""``, ``"../"``)."""
    return "../" * here.count("/")


def twin_href(here: str, lang: Language) -> str:
    """The link from the page at ``here`` to the same page in the edition of ``lang``."""
    return f"{root_of(here)}../{lang.code}/{here}"


def page(lang: Language, title: str, body: str, here: str, script: bool = False) -> str:
    """A whole page of the edition of ``lang``, at ``here`` inside it (``cases/x.html``): its
    links to its twins in the other editions (``<link rel="alternate" hreflang>`` and the visible
    switch), the navigation, the footer. Every string in it is ``lang``'s."""
    root = root_of(here)
    nav = " ".join(f'<a href="{esc(root + href)}">{lang.t(key)}</a>' for href, key in NAV)
    others = [other for other in EDITIONS if other != lang]
    switch = "".join(
        f'<a class="lang" href="{esc(twin_href(here, o))}" hreflang="{o.html}" lang="{o.html}" '
        f'title="{esc(o.s("lang.switch.title"))}">{esc(o.name)}</a>'
        for o in others
    )
    alternates = "".join(
        f'<link rel="alternate" hreflang="{o.html}" href="{esc(twin_href(here, o))}">' for o in EDITIONS
    )
    js = f'<script src="{root}book.js" defer></script>' if script else ""
    js += "".join(f'<script src="{root}{name}"></script>' for name in SCRIPTS)
    return (
        f'<!DOCTYPE html>\n<html lang="{lang.html}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)} — {lang.t('book.title')}</title>{alternates}"
        f'<link rel="stylesheet" href="{root}style.css">{js}</head>\n'
        f'<body><nav class="top">{nav}{switch}</nav>\n<main>\n{body}\n</main>\n'
        f"<footer>{lang.t('footer')}</footer></body></html>\n"
    )
