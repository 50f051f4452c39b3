"""How the book shows where a case or open question stands ({#format.review}): the status badge,
the decision record, the rulings on single rulesets and the reviewers' comments.

A status is shown only as far as it is backed: ``accepted``, ``disputed`` or ``rejected`` without a
decision record (``jpd lint`` reports it) is shown as ``proposed``, with a note saying what the
file claims — no page says "accepted" where nobody decided.
"""

from jpdtools.book.lang import tr
from jpdtools.book.page import esc, paragraphs


def shown_status(item) -> str:
    """The status a page shows for a case or question review (``proposed`` unless decided)."""
    if item.status != "proposed" and item.decision and item.decided_by:
        return item.status
    return "proposed"


def badge(status: str) -> str:
    return f'<span class="status {esc(status)}">{tr("status." + status)}</span>'


def _record(status: str, decision: str, decided: str, by: str) -> str:
    who = f" — {esc(by)}, {esc(decided)}" if by or decided else ""
    return f"<p>{badge(status)}{who}</p>{paragraphs(decision)}"


def decision_html(item, ruleset_label=esc) -> str:
    """The decision, the rulings and the comments of ``item`` (a case or a question review)."""
    out = [f"<h2>{tr('review.title')}</h2>"]
    shown = shown_status(item)
    if shown == "proposed":
        out.append(f"<p>{badge('proposed')} {tr('review.none')}</p>")
        if item.status != "proposed":
            out.append(
                f'<p class="bad">The file says {esc(item.status)!s}, but records no complete decision '
                "(who, when, what): shown as proposed.</p>"
            )
    else:
        out.append(_record(shown, item.decision, item.decided, item.decided_by))
    for r in item.rulings:
        out.append(
            f"<h3>{tr('review.on')} {ruleset_label(r.ruleset)}</h3>"
            + _record(r.status, r.decision, r.decided, r.decided_by)
        )
    if item.comments:
        out.append(f'<h3>{tr("review.comments")}</h3><ul class="comments">')
        for c in item.comments:
            on = f" on {ruleset_label(c.ruleset)}" if c.ruleset else ""
            out.append(f"<li><b>{esc(c.by)}</b>, {esc(c.date)}{on}: {esc(c.text)}</li>")
        out.append("</ul>")
    return "".join(out)


def ruling_of(item, ruleset: str):
    return next((r for r in item.rulings if r.ruleset == ruleset), None)
