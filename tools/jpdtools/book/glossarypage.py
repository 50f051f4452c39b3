"""The glossary page: the verdict vocabulary and the rulesets' names, in English and Chinese."""

from jpdtools.book.context import Book
from jpdtools.book.lang import tr
from jpdtools.book.lang.glossary import RULESET_NAMES_ZH, TERMS
from jpdtools.book.page import code, esc, link, page, ruleset_href, table


def glossary_page(book: Book) -> str:
    root = ""
    rows = [
        (
            f'<span id="{esc(t.key)}">{code(t.words)}</span><br>'
            f'<span lang="zh-Hans">{esc(t.zh_words)}</span>',
            f'{esc(t.en)}<br><span lang="zh-Hans">{esc(t.zh)}</span>',
        )
        for t in TERMS
    ]
    names = [
        (
            link(ruleset_href(n, root), n),
            esc(book.presets.get(n).title),
            f'<span lang="zh-Hans">{esc(RULESET_NAMES_ZH.get(n, n))}</span>',
        )
        for n in book.presets.names
    ]
    body = (
        f"<h1>{tr('glossary.title')}</h1><p>{tr('glossary.intro')}</p>"
        + table([tr("glossary.term"), tr("glossary.meaning")], rows, "glossary")
        + f"<h2>{tr('nav.rulesets')}</h2>"
        + table(["", "English", "中文"], names, "glossary")
    )
    return page("Glossary", body, root)
