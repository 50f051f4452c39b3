"""How the book shows where a case or open question stands ({#format.review}): the status badge,
the decision record, the members' votes, the rulings on single rulesets and the reviewers' comments.

A status is shown only as far as it is backed: ``accepted``, ``disputed`` or ``rejected`` without a
decision record (``jpd lint`` reports it) is shown as ``proposed``, with a note saying what the
file claims — no page says "accepted" where nobody decided. A decision taken on an earlier revision
of the case, or disputed between members, is shown with its record and counts as proposed
({#format.revision}, {#format.quorum}); votes below the quorum say how far they got.
"""

from jpdtools.book.lang import EN, Language
from jpdtools.book.page import esc, paragraphs
from jpdtools.suite.standing import EARLIER, SPLIT, UNBACKED, VOTING, Standing, standing


def shown_status(item, current: str, quorum: int = 1) -> str:
    """The status a page shows and counts for a case or question review: a decision on the
    current revision that no member's vote disputes, else ``proposed``."""
    return standing(item, current, "", quorum).counted


def badge(status: str, lang: Language = EN) -> str:
    return f'<span class="status {esc(status)}">{lang.t("status." + status)}</span>'


def standing_badge(st: Standing, lang: Language = EN) -> str:
    """The badge, and what keeps the item proposed: *1 of 2 for accepted*, *decided on an
    earlier revision*, *disputed between members*."""
    out = badge(st.counted, lang)
    if st.state == VOTING:
        status, members = st.tally()
        said = lang.t("review.quorum", n=members, quorum=st.quorum, status=lang.s("status." + status))
        out += f' <small class="quorum">({said})</small>'
    elif st.state == EARLIER:
        out += f' <small class="stale">({lang.t("review.earlier")})</small>'
    elif st.state == SPLIT:
        out += f' <small class="bad">({lang.t("review.split")})</small>'
    return out


def _record(status: str, decision: str, decided: str, by: str, lang: Language) -> str:
    who = f" — {esc(by)}, {esc(decided)}" if by or decided else ""
    said = paragraphs(decision)
    if lang.code != "en" and said:  # a committee's words are quoted as written
        said = f'<div class="quoted">{said}</div>'
    return f"<p>{badge(status, lang)}{who}</p>{said}"


def _votes(st: Standing, lang: Language) -> str:
    if not (st.current or st.earlier):
        return ""
    rows = [
        f"<li><b>{esc(v.by)}</b>, {esc(v.date)}: {badge(v.status, lang)} {esc(v.text)}"
        + (
            f' <small class="stale">({lang.t("review.vote.earlier", revision=v.revision)})</small>'
            if stale
            else ""
        )
        + "</li>"
        for stale, votes in ((False, st.current), (True, st.earlier))
        for v in votes
    ]
    return f'<h4>{lang.t("review.votes")}</h4><ul class="votes">{"".join(rows)}</ul>'


def _scope_html(st: Standing, current: str, lang: Language) -> str:
    """The record, what it counts for, and the votes of one scope (the whole, or a ruleset)."""
    out = []
    if st.state == SPLIT:
        out.append(f'<p class="bad"><b>{lang.t("review.split")}</b>: {lang.t("review.split.long")}</p>')
    if st.record is not None:
        r = st.record
        out.append(_record(r.status, r.decision, r.decided, r.decided_by, lang))
        if st.state == EARLIER:
            said = lang.t("review.earlier.long", then=r.revision or "–", now=current)
            out.append(f'<p class="stale"><b>{lang.t("review.earlier")}</b>: {said}</p>')
    return "".join(out) + _votes(st, lang)


def decision_html(item, current: str, quorum: int = 1, ruleset_label=esc, lang: Language = EN) -> str:
    """The decision, the votes, the rulings and the comments of ``item`` (a case or a question
    review), read against its current revision ``current``."""
    out = [f"<h2>{lang.t('review.title')}</h2>"]
    whole = standing(item, current, "", quorum)
    revision = lang.t("review.revision", revision=current)
    out.append(f"<p>{standing_badge(whole, lang)} <small>{revision}</small></p>")
    if whole.record is None and whole.state != SPLIT:
        out.append(f"<p>{lang.t('review.none')}</p>")
    if whole.state == UNBACKED:
        out.append(f'<p class="bad">{lang.t("review.unbacked", status=item.status)}</p>')
    out.append(_scope_html(whole, current, lang))
    scoped = sorted({r.ruleset for r in item.rulings} | {v.ruleset for v in item.votes if v.ruleset})
    for ruleset in scoped:
        st = standing(item, current, ruleset, quorum)
        out.append(f"<h3>{lang.t('review.on')} {ruleset_label(ruleset)} — {standing_badge(st, lang)}</h3>")
        out.append(_scope_html(st, current, lang))
    if item.comments:
        out.append(f'<h3>{lang.t("review.comments")}</h3><ul class="comments">')
        for c in item.comments:
            on = f" {lang.h('review.comment-on', ruleset=ruleset_label(c.ruleset))}" if c.ruleset else ""
            out.append(f"<li><b>{esc(c.by)}</b>, {esc(c.date)}{on}: {esc(c.text)}</li>")
        out.append("</ul>")
    return "".join(out)


def ruling_of(item, ruleset: str):
    return next((r for r in item.rulings if r.ruleset == ruleset), None)
