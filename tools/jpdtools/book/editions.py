"""The book's front door (``OUTDIR/index.html``): one short page in every language, leading to
each edition's index (``en/index.html``, ``zh/index.html``). Static, no script."""

from html import escape

from jpdtools.book.lang import EDITIONS


def front_door() -> str:
    links = "".join(
        f'<li lang="{lang.html}"><a href="{lang.code}/index.html" hreflang="{lang.html}">'
        f"{escape(lang.s('book.title'))}</a> — {escape(lang.s('front.read-in'))}</li>"
        for lang in EDITIONS
    )
    playgrounds = "".join(
        f'<li lang="{lang.html}"><a href="{lang.code}/playground.html" hreflang="{lang.html}">'
        f"{escape(lang.s('pg.title'))}</a> — {escape(lang.s('pg.front'))}</li>"
        for lang in EDITIONS
    )
    alternates = "".join(
        f'<link rel="alternate" hreflang="{lang.html}" href="{lang.code}/index.html">' for lang in EDITIONS
    )
    title = " · ".join(escape(lang.s("book.title")) for lang in EDITIONS)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title>{alternates}<link rel="stylesheet" href="en/style.css"></head>\n'
        f'<body><main><h1>{title}</h1><ul class="editions">{links}</ul>'
        f'<ul class="editions playgrounds">{playgrounds}</ul></main></body></html>\n'
    )
