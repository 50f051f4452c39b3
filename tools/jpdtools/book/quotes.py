"""How the book shows the text of a sources-table sentence: a seed's as the seed wrote it, a public
source's rule honestly — its own words where a seed records them (the Chinese rules as 004 gives
them), else this project's words, labelled so: the English in the English edition, the project's
Chinese rendering in the Chinese one. A public rule is never shown as a quotation of its source
when it is the project's own wording, and never an English text marked as Chinese."""

from jpdtools.book.page import esc, quote
from jpdtools.book.seeds import SeedArticle, SeedSentence


def rule_html(
    article: SeedArticle, sentence: SeedSentence, lang, cls: str = "", tag: str = "blockquote"
) -> str:
    """The sentence's text as HTML (``tag`` ``span`` inline, ``blockquote`` as a block)."""
    if not article.public:
        return quote(sentence.quote, lang, cls, tag)
    note_tag = "span" if tag == "span" else "p"
    parts = []
    attr = f' class="{esc(cls)}"' if cls else ""
    if sentence.wording:
        parts.append(f'<{tag}{attr} lang="zh-Hans">{esc(sentence.wording)}</{tag}>')
        parts.append(
            f'<{note_tag} class="legend"> {lang.t("seed.wording", seed=sentence.wording_id)} </{note_tag}>'
        )
    elif lang.code != "en" and sentence.zh:
        parts.append(f'<{tag}{attr} lang="zh-Hans">{esc(sentence.zh)}</{tag}>')
        parts.append(f'<{note_tag} class="legend"> {lang.t("seed.rendering")}</{note_tag}>')
    if lang.code == "en" or not (sentence.wording or sentence.zh):
        parts.append(quote(sentence.quote, lang, cls, tag))
        parts.append(f'<{note_tag} class="legend"> {lang.t("seed.own-words")}</{note_tag}>')
    return "".join(parts)
