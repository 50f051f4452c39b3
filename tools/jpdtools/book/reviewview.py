"""How the book shows where a case or open question stands ({#format.review}): the status badge,
the decision record, the rulings on single rulesets and the reviewers' comments.

A status is shown only as far as it is backed: ``accepted``, ``disputed`` or ``rejected`` without a
decision record (``jpd lint`` reports it) is shown as ``proposed``, with a note saying what the
file claims — no page says "accepted" where nobody decided.
"""

from jpdtools.book.lang import EN, Language
from jpdtools.book.page import esc, paragraphs


def shown_status(item) -> str:
    """The status a page shows for a case or question review (``proposed`` unless decided)."""
    if item.status != "proposed" and item.decision and item.decided_by:
        return item.status
    return "proposed"


def badge(status: str, lang: Language = EN) -> str:
    return f'<span class="status {esc(status)}">{lang.t("status." + status)}</span>'


def _record(status: str, decision: str, decided: str, by: str, lang: Language) -> str:
    who = f" — {esc(by)}, {esc(decided)}" if by or decided else ""
    said = paragraphs(decision)
    if lang.code != "en" and said:  # a committee's words are quoted as written
        said = f'<div class="quoted">{said}</div>'
    return f"<p>{badge(status, lang)}{who}</p>{said}"


def decision_html(item, ruleset_label=esc, lang: Language = EN) -> str:
    """The decision, the rulings and the comments of ``item`` (a case or a question review)."""
    out = [f"<h2>{lang.t('review.title')}</h2>"]
    shown = shown_status(item)
    if shown == "proposed":
        out.append(f"<p>{badge('proposed', lang)} {lang.t('review.none')}</p>")
        if item.status != "proposed":
            out.append(f'<p class="bad">{lang.t("review.unbacked", status=item.status)}</p>')
    else:
        out.append(_record(shown, item.decision, item.decided, item.decided_by, lang))
    for r in item.rulings:
        out.append(
            f"<h3>{lang.t('review.on')} {ruleset_label(r.ruleset)}</h3>"
            + _record(r.status, r.decision, r.decided, r.decided_by, lang)
        )
    if item.comments:
        out.append(f'<h3>{lang.t("review.comments")}</h3><ul class="comments">')
        for c in item.comments:
            on = f" {lang.h('review.comment-on', ruleset=ruleset_label(c.ruleset))}" if c.ruleset else ""
            out.append(f"<li><b>{esc(c.by)}</b>, {esc(c.date)}{on}: {esc(c.text)}</li>")
        out.append("</ul>")
    return "".join(out)


def ruling_of(item, ruleset: str):
    return next((r for r in item.rulings if r.ruleset == ruleset), None)
