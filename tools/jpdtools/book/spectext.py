"""The text of the specification as HTML: every anchored section, and every document whole.

Markdown is parsed by ``markdown-it`` (CommonMark with tables; raw HTML in the source is shown as
text, never passed through). A section is the heading carrying ``{#anchor}`` and everything up to
the next heading of the same or a higher level; an anchor written in running text stands for the
block around it. Links are rewritten for the book: ``#anchor`` and ``file.md#anchor`` lead to the
page of that clause or open question when the book has one, else into the document's own page;
``file.md`` leads to the document's page; other relative targets (``rulesets.yaml``) lead to the
ruleset index or become plain text; absolute web links are kept.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_inline.state_inline import Delimiter, StateInline
from markdown_it.token import Token

from jpdtools.review.anchors import ANCHOR_RE

LinkFn = Callable[[str, str, str], str | None]  # (document, anchor or "", root) -> href or None


@dataclass(frozen=True)
class Section:
    anchor: str
    file: str  # the document, e.g. "play.md"
    line: int  # 1-based line of the anchor
    level: int  # heading level; 0 for an anchor in running text
    heading: str  # the heading text without its anchor (or the first words of the block)
    tokens: tuple[Token, ...]  # the section's body


def _cjk(char: str) -> bool:
    """A Han character or a CJK / full-width punctuation mark (``。``, ``：``, ``（``)."""
    return (
        "\u3001" <= char <= "\u303f"
        or "\u3400" <= char <= "\u9fff"
        or "\uf900" <= char <= "\ufaff"
        or "\uff01" <= char <= "\uffef"
    )


def _punctuation(char: str) -> bool:
    return isMdAsciiPunct(ord(char)) or isPunctChar(char)


def _emphasis(state: StateInline, silent: bool) -> bool:
    """CommonMark's ``*``/``_`` delimiter runs, made CJK-friendly: a run may open before
    punctuation and close after it where a CJK character or punctuation mark is beside it, so
    ``**出处。**000 §22`` and ``则**“棋形”**`` are bold (CommonMark's flanking rules, written for
    spaced languages, leave those runs as text)."""
    start, marker = state.pos, state.src[state.pos]
    if silent or marker not in ("_", "*"):
        return False
    end = start
    while end < state.posMax and state.src[end] == marker:
        end += 1
    last = state.src[start - 1] if start > 0 else " "
    following = state.src[end] if end < state.posMax else " "
    last_punct, next_punct = _punctuation(last), _punctuation(following)
    last_space, next_space = isWhiteSpace(ord(last)), isWhiteSpace(ord(following))
    cjk = _cjk(last) or _cjk(following)
    left = not next_space and (not next_punct or last_space or last_punct or cjk)
    right = not last_space and (not last_punct or next_space or next_punct or cjk)
    in_word = marker == "*"
    can_open = left and (in_word or not right or last_punct)
    can_close = right and (in_word or not left or next_punct)
    for _ in range(end - start):
        token = state.push("text", "", 0)
        token.content = marker
        state.delimiters.append(
            Delimiter(ord(marker), end - start, len(state.tokens) - 1, -1, can_open, can_close)
        )
    state.pos = end
    return True


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.inline.ruler.at("emphasis", _emphasis)
    return md


def _inline_text(token: Token) -> str:
    return ANCHOR_RE.sub("", token.content).strip()


def _strip_anchors(tokens: list[Token]) -> None:
    for t in tokens:
        if t.type == "inline" and t.children:
            for child in t.children:
                if child.type == "text" and ANCHOR_RE.search(child.content):
                    child.content = ANCHOR_RE.sub("", child.content).rstrip()


@dataclass(frozen=True)
class Document:
    name: str  # "play.md"
    title: str
    tokens: tuple[Token, ...]


class SpecText:
    """The spec documents of ``spec_dir``, parsed once; sections by anchor, rendered per page."""

    def __init__(self, spec_dir: Path, texts: dict[str, str] | None = None):
        """The documents ``spec_dir/*.md``, or (``texts``) the given ones: name -> Markdown."""
        self._md = _parser()
        self.documents: dict[str, Document] = {}
        self.sections: dict[str, Section] = {}
        if texts is None:
            texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(spec_dir.glob("*.md"))}
        for name, text in texts.items():
            path = Path(name)
            tokens = self._md.parse(text)
            self._index(path.name, tokens)
            _strip_anchors(tokens)
            title = next(
                (_inline_text(tokens[i + 1]) for i, t in enumerate(tokens) if t.type == "heading_open"),
                path.stem,
            )
            self.documents[path.name] = Document(path.name, title, tuple(tokens))

    def _index(self, name: str, tokens: list[Token]) -> None:
        headings = [i for i, t in enumerate(tokens) if t.type == "heading_open"]
        for i in headings:
            inline = tokens[i + 1]
            level = int(tokens[i].tag[1])
            end = next(
                (j for j in headings if j > i and int(tokens[j].tag[1]) <= level),
                len(tokens),
            )
            line = (tokens[i].map or [0])[0] + 1
            found = ANCHOR_RE.findall(inline.content)
            if found:
                tokens[i].attrSet("id", found[0])
            for match in ANCHOR_RE.finditer(inline.content):
                if match.group(1) not in self.sections or self.sections[match.group(1)].level == 0:
                    body = tuple(tokens[i + 3 : end])
                    self.sections[match.group(1)] = Section(
                        match.group(1), name, line, level, _inline_text(inline), body
                    )
        for i, t in enumerate(tokens):
            if t.type != "inline" or (t.level == 0 and tokens[i - 1].type == "heading_open"):
                continue
            for match in ANCHOR_RE.finditer(t.content):
                if match.group(1) in self.sections:
                    continue
                start = i - 1
                while start > 0 and tokens[start].level > 0:
                    start -= 1
                stop = i + 1
                while stop < len(tokens) and tokens[stop].level > 0:
                    stop += 1
                line = (tokens[start].map or [0])[0] + 1
                words = " ".join(_inline_text(t).split()[:8])
                self.sections[match.group(1)] = Section(
                    match.group(1), name, line, 0, words, tuple(tokens[start : stop + 1])
                )

    def render(self, tokens: tuple[Token, ...], document: str, root: str, link: LinkFn) -> str:
        """``tokens`` (of ``document``) as HTML, links rewritten by ``link``."""
        copies = [_relinked(t, document, root, link) for t in tokens]
        return self._md.renderer.render(copies, self._md.options, {})

    def document_html(self, name: str, root: str, link: LinkFn) -> str:
        return self.render(self.documents[name].tokens, name, root, link)

    def section_html(self, anchor: str, root: str, link: LinkFn) -> str:
        s = self.sections[anchor]
        return self.render(s.tokens, s.file, root, link)


def _relinked(token: Token, document: str, root: str, link: LinkFn) -> Token:
    if not token.children:
        return token
    children: list[Token] = []
    dropped: list[bool] = []  # per open link: whether its close must go too
    for child in token.children:
        if child.type == "link_open":
            new = _link(child, document, root, link)
            dropped.append(new is None)
            if new is not None:
                children.append(new)
        elif child.type == "link_close":
            if not (dropped and dropped.pop()):
                children.append(child)
        else:
            children.append(child)
    return token.copy(children=children)


def _link(token: Token, document: str, root: str, link: LinkFn) -> Token | None:
    href = str(token.attrs.get("href", ""))
    if href.startswith(("http://", "https://")):
        return token.copy(attrs={**token.attrs, "rel": "noopener"})
    file, _, anchor = href.partition("#")
    target = link(file or document, anchor, root)
    return None if target is None else token.copy(attrs={**token.attrs, "href": target})
