"""The glossary page: the verdict vocabulary and the rulesets' names, in the edition's language
with the other beside it, and each ruleset's own name for a refusal by repetition."""

from jpdtools.book.context import Book
from jpdtools.book.lang.glossary import RULESET_NAMES_ZH, TERMS, refusal
from jpdtools.book.page import code, esc, link, page, ruleset_href, table


def glossary_page(book: Book) -> str:
    lang = book.lang
    root = ""
    zh = lang.code != "en"
    rows = [
        (
            f'<span id="{esc(t.key)}">{code(t.words)}</span><br>'
            f'<span lang="zh-Hans">{esc(t.zh_words)}</span>',
            f'<span lang="zh-Hans">{esc(t.zh)}</span>' if zh else esc(t.en),
        )
        for t in TERMS
    ]
    names = [
        (
            link(ruleset_href(n, root), n),
            f'<span lang="zh-Hans">{esc(RULESET_NAMES_ZH.get(n, n))}</span>',
            f'<span lang="en">{esc(book.presets.get(n).title)}</span>',
        )
        for n in book.presets.names
    ]
    refusals = []
    for n in book.presets.names:
        named = refusal(book.presets.get(n))
        if named is not None:
            refusals.append(
                (
                    link(ruleset_href(n, root), n),
                    f'<span lang="zh-Hans">{esc(named.zh)}</span>',
                    f'<span lang="en">{esc(named.en)}</span>',
                    code(named.source),
                )
            )
    body = (
        f"<h1>{lang.t('glossary.title')}</h1><p>{lang.t('glossary.intro')}</p>"
        + table([lang.t("glossary.term"), lang.t("glossary.meaning")], rows, "glossary")
        + f'<h2 id="refusals">{lang.t("glossary.refusals")}</h2><p>{lang.t("glossary.refusals.intro")}</p>'
        + table(
            [lang.t("col.ruleset"), "中文", '<span lang="en">English</span>', lang.t("col.source")],
            refusals,
            "glossary",
        )
        + f"<h2>{lang.t('nav.rulesets')}</h2>"
        + table([lang.t("col.ruleset"), "中文", '<span lang="en">English</span>'], names, "glossary")
    )
    return page(lang, lang.s("nav.glossary"), body, "glossary.html")
