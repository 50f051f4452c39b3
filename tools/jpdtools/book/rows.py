"""The list of cases as every kind of page shows it: a table row per case, with the attributes
the index's filters read."""

from jpdtools.book.casepage import case_title, review_status
from jpdtools.book.page import case_href, code, esc, ident


def case_row(book, record, root: str, extra: str = "") -> str:
    lang = book.lang
    case = record.case
    status = review_status(case)
    zh = " ".join(t for t in (getattr(case, "zh_title", None), getattr(case, "zh_note", None)) if t)
    attrs = {
        "data-status": status,
        "data-tags": " ".join(case.tags),
        "data-clauses": " ".join(a for a in case.spec if not a.startswith("oq.")),
        "data-questions": " ".join(a for a in case.spec if a.startswith("oq.")),
        "data-seeds": "|".join(case.seeds),
        "data-rulesets": " ".join(record.rulesets),
        "data-text": " ".join((case.id, case.title, case.note, zh, " ".join(case.tags))).lower(),
    }
    attr = "".join(f' {k}="{esc(v)}"' for k, v in attrs.items())
    tags = ", ".join(code(t) for t in case.tags)
    return (
        f'<tr class="case"{attr}><td>{ident(case_href(case.id, root), case.id)}</td>'
        f"<td>{case_title(book, case)}</td>"
        f'<td><span class="status {esc(status)}">{lang.t("status." + status)}</span></td>'
        f"<td>{tags}</td>{extra}</tr>"
    )


def case_rows(book, records, root: str, table_id: str = "") -> str:
    lang = book.lang
    if not records:
        return f"<p>{lang.t('none')}</p>"
    ident = f' id="{esc(table_id)}"' if table_id else ""
    rows = "".join(case_row(book, r, root) for r in records)
    head = "".join(f"<th>{lang.t(k)}</th>" for k in ("col.case", "col.title", "col.status", "col.tags"))
    return f'<table class="cases"{ident}><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
