"""The ruleset pages: every axis value with the source it cites (open questions linked), and where
the ruleset's verdicts differ from the others'."""

import re

from jpdref.rules import AXES

from jpdtools.book.context import Book
from jpdtools.book.lang import FALLBACK_CLASS
from jpdtools.book.lang.glossary import RULESET_NAMES_ZH
from jpdtools.book.lang.sources import SOURCES_ZH
from jpdtools.book.page import code, esc, link, page, question_href, ruleset_href, slug, table

OQ_RE = re.compile(r"OQ-(\d+)")


def source_html(book: Book, text: str, root: str) -> str:
    """A source text, escaped, with each ``OQ-n`` a link to its page; in Chinese where the
    project renders it (:mod:`jpdtools.book.lang.sources`), else the English, marked."""
    translated = SOURCES_ZH.get(text) if book.lang.code != "en" else None
    text = translated or text
    out, last = [], 0
    for m in OQ_RE.finditer(text):
        out.append(esc(text[last : m.start()]))
        anchor = f"oq.{m.group(1)}"
        out.append(
            link(question_href(anchor, root), m.group()) if anchor in book.spec.sections else esc(m.group())
        )
        last = m.end()
    out.append(esc(text[last:]))
    html = "".join(out)
    if book.lang.code != "en" and not translated:  # spec/rulesets.yaml's sources are English
        return f'<span class="{FALLBACK_CLASS}" lang="en">{html}</span>'
    return html


def ruleset_title(book: Book, name: str) -> str:
    """A preset's title as HTML: its own in English, its Chinese name in Chinese."""
    if book.lang.code == "en":
        return esc(book.presets.get(name).title)
    return esc(RULESET_NAMES_ZH.get(name) or book.presets.get(name).title)


def ruleset_page(book: Book, name: str, differ: dict[tuple[str, str], list[str]]) -> str:
    lang = book.lang
    root = "../"
    rules = book.presets.get(name)
    rows = [
        (code(axis), code(value), source_html(book, rules.source(axis), root))
        for axis, value in rules.values().items()
    ]
    applies = sum(1 for r in book.suite.records if name in r.rulesets)
    others = [
        (
            link(ruleset_href(o, root), o),
            link(f"{root}differences/{pair_name(name, o)}.html", str(len(differ[key]))),
        )
        for o in book.presets.names
        if o != name and (key := tuple(sorted((name, o)))) in differ
    ]
    overrides = [o for o in book.overrides if o.base == name]
    alt = [
        (
            link(question_href(o.question, root) + f"#{o.rules}", o.question),
            code(o.rules),
            str(len(book.flips.get(o.rules, ()))),
        )
        for o in overrides
    ]
    body = [
        f"<h1>{code(name)} — {ruleset_title(book, name)}</h1>",
        f"<p>{lang.h('ruleset.applies', n=str(applies), command=code(f'jpd rules {name}'))}</p>",
        table([lang.t("col.axis"), lang.t("col.value"), lang.t("col.source")], rows, "axes"),
        f"<h2>{lang.t('ruleset.differ')}</h2>",
        table([lang.t("col.ruleset"), lang.t("col.cases")], others),
    ]
    if alt:
        body += [
            f"<h2>{lang.t('ruleset.overrides')}</h2>",
            table([lang.t("col.question"), lang.t("col.ruleset"), lang.t("col.flipped")], alt),
        ]
    title = RULESET_NAMES_ZH.get(name) if lang.code != "en" else None
    return page(lang, f"{name} — {title or rules.title}", "".join(body), f"rulesets/{slug(name)}.html")


def pair_name(a: str, b: str) -> str:
    """The file name (without .html) of the page listing the cases ``a`` and ``b`` differ on."""
    x, y = sorted((a, b))
    return f"{slug(x)}--{slug(y)}"


def ruleset_index(book: Book) -> str:
    lang = book.lang
    root = "../"
    head = [lang.t("col.ruleset"), *(code(a) for a in AXES)]
    rows = [
        (link(ruleset_href(r.name, root), r.name), *(code(v) for v in r.values().values()))
        for r in book.presets.rulesets
    ]
    intro = lang.h("ruleset.index.intro", file=code("spec/rulesets.yaml"))
    body = f"<h1>{lang.t('nav.rulesets')}</h1><p>{intro}</p>"
    body += '<div class="scroll">' + table(head, rows, "axes") + "</div>"
    return page(lang, lang.s("nav.rulesets"), body, "rulesets/index.html")
