"""The ruleset pages: every axis value with the source it cites (open questions linked), and where
the ruleset's verdicts differ from the others'."""

import re

from jpdref.rules import AXES

from jpdtools.book.context import Book
from jpdtools.book.page import code, esc, link, page, question_href, ruleset_href, slug, table

OQ_RE = re.compile(r"OQ-(\d+)")


def source_html(book: Book, text: str, root: str) -> str:
    """A source text, escaped, with each ``OQ-n`` a link to its page."""
    out, last = [], 0
    for m in OQ_RE.finditer(text):
        out.append(esc(text[last : m.start()]))
        anchor = f"oq.{m.group(1)}"
        out.append(
            link(question_href(anchor, root), m.group()) if anchor in book.spec.sections else esc(m.group())
        )
        last = m.end()
    out.append(esc(text[last:]))
    return "".join(out)


def ruleset_page(book: Book, name: str, differ: dict[tuple[str, str], list[str]]) -> str:
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
        f"<h1>{code(name)} — {esc(rules.title)}</h1>",
        f"<p>{applies} case(s) apply to it. <code>jpd rules {esc(name)}</code> prints the same table.</p>",
        table(["axis", "value", "source"], rows, "axes"),
        "<h2>Cases with a different verdict under another ruleset</h2>",
        table(["ruleset", "cases"], others),
    ]
    if alt:
        body += [
            "<h2>Other readings of open questions, as overrides</h2>",
            table(["open question", "ruleset", "cases flipped"], alt),
        ]
    return page(f"{name} — {rules.title}", "".join(body), root)


def pair_name(a: str, b: str) -> str:
    """The file name (without .html) of the page listing the cases ``a`` and ``b`` differ on."""
    x, y = sorted((a, b))
    return f"{slug(x)}--{slug(y)}"


def ruleset_index(book: Book) -> str:
    root = "../"
    head = ["ruleset", *(code(a) for a in AXES)]
    rows = [
        (link(ruleset_href(r.name, root), r.name), *(esc(v) for v in r.values().values()))
        for r in book.presets.rulesets
    ]
    body = "<h1>Rulesets</h1><p>Every preset of <code>spec/rulesets.yaml</code> as values on the axes.</p>"
    return page("Rulesets", body + '<div class="scroll">' + table(head, rows, "axes") + "</div>", root)
