"""The list of cases as every kind of page shows it: a table row per case, with the attributes
the index's filters read."""

from jpdtools.book.casepage import review_status
from jpdtools.book.page import case_href, esc, link


def case_row(record, root: str, extra: str = "") -> str:
    case = record.case
    status = review_status(case)
    attrs = {
        "data-status": status,
        "data-tags": " ".join(case.tags),
        "data-clauses": " ".join(a for a in case.spec if not a.startswith("oq.")),
        "data-questions": " ".join(a for a in case.spec if a.startswith("oq.")),
        "data-seeds": "|".join(case.seeds),
        "data-rulesets": " ".join(record.rulesets),
        "data-text": " ".join((case.id, case.title, case.note, " ".join(case.tags))).lower(),
    }
    attr = "".join(f' {k}="{esc(v)}"' for k, v in attrs.items())
    return (
        f'<tr class="case"{attr}><td>{link(case_href(case.id, root), case.id)}</td><td>{esc(case.title)}</td>'
        f'<td><span class="status {esc(status)}">{esc(status)}</span></td>'
        f"<td>{esc(', '.join(case.tags))}</td>{extra}</tr>"
    )


def case_rows(records, root: str, table_id: str = "") -> str:
    if not records:
        return "<p>None.</p>"
    ident = f' id="{esc(table_id)}"' if table_id else ""
    rows = "".join(case_row(r, root) for r in records)
    return (
        f'<table class="cases"{ident}><thead><tr><th>case</th><th>title</th><th>status</th><th>tags</th>'
        f"</tr></thead><tbody>{rows}</tbody></table>"
    )
