"""The page shell of the case book: escaping, relative links, the navigation bar.

Every page is a static file reached from ``file://``: links are relative (``root`` is the way
back to the book's top, ``""`` or ``"../"``), the style sheet and the filter script are files of
the book, nothing is fetched from elsewhere. Every text that reaches a page goes through
:func:`esc`; attributes are always double-quoted.
"""

import re
from collections.abc import Iterable
from html import escape

from jpdtools.book.lang import tr

NAV = (
    ("index.html", "nav.cases"),
    ("clauses/index.html", "nav.clauses"),
    ("seeds/index.html", "nav.seeds"),
    ("questions/index.html", "nav.questions"),
    ("rulesets/index.html", "nav.rulesets"),
    ("differences/index.html", "nav.differences"),
    ("glossary.html", "nav.glossary"),
)
SCRIPTS = ("lang/en.js", "lang/zh-Hans.js", "lang.js", "review.js")  # on every page

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def esc(text: object) -> str:
    """Any value as HTML text (quotes escaped too, so it is safe in attributes)."""
    return escape(str(text), quote=True)


def slug(name: str) -> str:
    """A file name for ``name``: ASCII letters, digits, ``.``, ``-``, ``_``; anything else as
    ``_XXXX`` (its code point), so distinct names get distinct files."""
    return _UNSAFE.sub(lambda m: f"_{ord(m.group()):x}", name) or "_"


def link(href: str, text: object, cls: str = "") -> str:
    attr = f' class="{esc(cls)}"' if cls else ""
    return f'<a href="{esc(href)}"{attr}>{esc(text)}</a>'


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


def ul(items: Iterable[str], cls: str = "") -> str:
    rows = "".join(f"<li>{i}</li>" for i in items)
    attr = f' class="{esc(cls)}"' if cls else ""
    return f"<ul{attr}>{rows}</ul>" if rows else "<p>None.</p>"


def table(head: Iterable[str], rows: Iterable[Iterable[str]], cls: str = "") -> str:
    """A table whose cells are HTML already (escape their text before)."""
    attr = f' class="{esc(cls)}"' if cls else ""
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table{attr}><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def paragraphs(text: str) -> str:
    """Plain text (a case's note) as escaped paragraphs, split at blank lines."""
    blocks = [b.strip() for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]
    return "".join(f"<p>{esc(' '.join(b.split()))}</p>" for b in blocks)


def page(title: str, body: str, root: str, script: bool = False) -> str:
    """A whole page: ``root`` leads back to the book's top (``""`` or ``"../"``). Its interface
    strings are marked (:func:`jpdtools.book.lang.tr`); the switch renders them in Chinese."""
    nav = " ".join(f'<a href="{esc(root + href)}">{tr(key)}</a>' for href, key in NAV)
    switch = (
        f'<button type="button" id="lang-switch" class="lang" hidden lang="zh-Hans">{esc("中文")}</button>'
    )
    js = f'<script src="{root}book.js" defer></script>' if script else ""
    js += "".join(f'<script src="{root}{name}"></script>' for name in SCRIPTS)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)} — jipingdian case book</title>"
        f'<link rel="stylesheet" href="{root}style.css">{js}</head>\n'
        f'<body><nav class="top">{nav}{switch}</nav>\n<main>\n{body}\n</main>\n'
        f"<footer>{tr('footer')}</footer></body></html>\n"
    )
