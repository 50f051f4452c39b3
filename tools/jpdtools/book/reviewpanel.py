"""The reviewer's panel of a case or open-question page ({#format.review-file}): accept, dispute,
reject or comment — on the whole or on one ruleset's verdicts — kept in the browser
(``localStorage``) by ``book.js`` and exported as one review file for ``jpd review apply``.
Without scripts the panel stays hidden (the page reads whole)."""

from jpdtools.book.lang import EN, Language
from jpdtools.book.page import esc

ACTIONS = ("accept", "dispute", "reject", "comment")


def review_panel(target: str, ident: str, rulesets, lang: Language = EN, revision: str = "") -> str:
    """The panel; ``revision`` (spec/case-format.md#format.revision) goes into every exported vote,
    so that a vote records what the reviewer read."""
    tr = lang.t
    whole = tr("review.scope.whole" if target == "case" else "review.scope.question")
    options = f'<option value="">{whole}</option>' + "".join(
        f'<option value="{esc(r)}" translate="no">{esc(r)}</option>' for r in rulesets
    )
    radios = "".join(
        f'<label><input type="radio" name="rv-action" value="{a}"{" checked" if a == "accept" else ""}> '
        f"{tr(f'review.action.{a}')}</label> "
        for a in ACTIONS
    )
    return (
        f'<section class="review-panel" id="review-panel" data-target="{esc(target)}" '
        f'data-id="{esc(ident)}" data-revision="{esc(revision)}" data-need-name="{tr("review.need-name")}" '
        f'data-need-text="{tr("review.need-text")}" hidden>'
        f'<h2>{tr("review.panel")}</h2><p class="legend">{tr("review.panel.help")}</p>'
        f'<p><label>{tr("review.name")} <input id="rv-name" autocomplete="name"></label> '
        f'<label>{tr("review.scope")} <select id="rv-scope">{options}</select></label></p>'
        f"<p>{tr('review.action')}{tr('colon')}{radios}</p>"
        f'<p><label>{tr("review.text")}<br><textarea id="rv-text" rows="3" cols="70"></textarea></label></p>'
        f'<p><button type="button" id="rv-record">{tr("review.record")}</button> '
        f'<span id="rv-error" class="bad" hidden></span></p>'
        f'<h3>{tr("review.recorded")}</h3><ul id="rv-list"></ul>'
        f'<p><button type="button" id="rv-export">{tr("review.export")}</button> '
        f'<button type="button" id="rv-clear">{tr("review.clear")}</button></p></section>'
    )
