"""The pages of the specification's text: one per clause (its text, the seed articles it rests on,
the cases citing it), an index of them, and each spec document whole."""

from jpdtools.book.context import Book
from jpdtools.book.page import case_href, clause_href, code, esc, link, page, seed_href, slug, table, ul
from jpdtools.book.rows import case_rows


def clause_anchors(book: Book) -> list[str]:
    """Every anchored section of the spec but the open questions (those have their own pages)."""
    return [a for a in book.spec.sections if not a.startswith("oq.")]


def citing(book: Book) -> dict[str, list]:
    out: dict[str, list] = {}
    for record in book.suite.records:
        for anchor in record.case.spec:
            out.setdefault(anchor, []).append(record)
    return out


def _decides(book: Book, places: dict[str, dict[str, list[str]]], root: str) -> str:
    """The cases where the clause decides a step or the ending, with where and under which rulesets."""
    everywhere = set(book.presets.names)
    rows = []
    for case_id, where in places.items():
        parts = []
        for at, rulesets in where.items():
            under = "every ruleset" if set(rulesets) >= everywhere else ", ".join(rulesets)
            parts.append(f"{esc(at)} ({esc(under)})")
        rows.append((link(case_href(case_id, root), case_id), "; ".join(parts)))
    return table(["case", "where it decides, and under which rulesets"], rows) if rows else "<p>None.</p>"


def _chinese(book: Book, anchor: str) -> str:
    """The clause in Chinese (its section of spec/zh/), with the revision of the English it renders."""
    if book.zh_spec is None or anchor not in book.zh_spec.sections:
        return ""
    s = book.zh_spec.sections[anchor]
    source = book.zh_sources.get(anchor, "")
    current = book.zh_revisions.get(anchor, "")
    stale = (
        ""
        if source == current
        else f'<p class="bad">英文条款已修改（现为 {esc(current)}），译文尚未更新。</p>'
    )
    return (
        f'<section class="spec zh-clause" lang="zh-Hans"><h2>中文</h2><h3>{esc(s.heading)}</h3>'
        f"{book.zh_spec.section_html(anchor, '../', book.spec_link)}{stale}"
        f'<p class="legend">译自英文条款修订版 {code(source)}</p></section>'
    )


def clause_page(book: Book, anchor: str, cited: list, decides: dict | None = None) -> str:
    root = "../"
    s = book.spec.sections[anchor]
    fragment = f"#{anchor}" if s.level else ""
    doc = link(f"{root}spec/{slug(s.file)}.html{fragment}", f"spec/{s.file}, line {s.line}")
    articles = [a for a in book.seeds.articles if anchor in a.clauses]
    seeds = [link(seed_href(a.id, root), a.id) + (f" — {esc(a.quote)}" if a.quote else "") for a in articles]
    body = [
        f"<h1>{code(anchor)} — {esc(s.heading)}</h1><p>{doc}</p>",
        f'<div class="spec">{book.spec.section_html(anchor, root, book.spec_link)}</div>',
        _chinese(book, anchor),
        "<h2>Seed and source articles it implements</h2>",
        ul(seeds) if seeds else "<p>None listed in <code>spec/sources.yaml</code>.</p>",
        f"<h2>Cases citing it ({len(cited)})</h2>",
        case_rows(cited, root),
        f"<h2>Cases where it decides a step or the ending, as run ({len(decides or {})})</h2>",
        _decides(book, decides or {}, root),
    ]
    return page(f"{anchor} — {s.heading}", "".join(body), root)


def clause_index(book: Book, cited: dict[str, list]) -> str:
    root = "../"
    out = ["<h1>Clauses</h1><p>Every anchored section of the specification, with the cases citing it.</p>"]
    by_doc: dict[str, list[str]] = {}
    for anchor in clause_anchors(book):
        by_doc.setdefault(book.spec.sections[anchor].file, []).append(anchor)
    for doc, anchors in by_doc.items():
        title = book.spec.documents[doc].title
        out.append(f"<h2>{link(f'{root}spec/{slug(doc)}.html', doc)} — {esc(title)}</h2>")
        rows = [
            (link(clause_href(a, root), a), esc(book.spec.sections[a].heading), str(len(cited.get(a, []))))
            for a in anchors
        ]
        out.append(table(["clause", "heading", "cases"], rows))
    return page("Clauses", "".join(out), root)


def document_page(book: Book, name: str) -> str:
    root = "../"
    html = book.spec.document_html(name, root, book.spec_link)
    return page(f"spec/{name}", f'<p class="crumb">spec/{esc(name)}</p><div class="spec">{html}</div>', root)
