"""What a reader sees of a book page, string by string, and in which language: the measure of
how Chinese the Chinese edition is (``benchmarks/zh_share.py``; a test runs it).

A *visible string* is a text node of the page's body as a browser shows it (the head, scripts,
styles, an SVG's tooltip ``<title>`` and attribute values are not shown; a ``<code>`` element is
an identifier). Left out as not language at all: identifiers and ids (case ids, clause anchors,
preset names, file names, commands, seed citations such as ``000 §22`` or ``OQ-9``), coordinates
(``C4``), numbers and marks; so is an element marked ``translate="no"`` (an identifier shown as
text, a tag in a filter) and the switch naming the other edition. What is left of a string is
*Chinese* (Han characters, no Latin word), *mixed* (both) or *English* (Latin words only). A
string inside an element marked as a fallback (``class="fallback"``: English shown for want of a
translation) is counted as English and also reported apart, so the measure says how much of the
rest is untranslated text rather than interface.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser

from jpdtools.book.lang import FALLBACK_CLASS

HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
IDENTIFIERS = (
    re.compile(r"\b(?:spec|conformance|tools|reports)/[\w./-]+"),  # paths
    re.compile(r"\b[\w.-]*\w\.(?:md|yaml|yml|html|lark|json|py|sgf)\b"),  # file names
    # ids, anchors, overrides: ko.simple.001, rep.no-retreat, chinese:repetition=simple-ko
    re.compile(r"\b[a-z][a-z0-9]*(?:[.:][a-z0-9][a-z0-9_-]*)+(?:[:=,][\w.=,+-]+)*"),
    re.compile(r"\b[a-z]+(?:-[a-z0-9]+)+\b"),  # hyphenated names: tromp-taylor, no-retreat, count-area
    re.compile(r"\bjpd(?: [a-z]+)?\b"),  # the command and its subcommand
    # citations of the public rules: J1989 Art. 14, AGA Rule 6, WMSG 2008 §1.4, Tromp-Taylor rule 9
    re.compile(
        r"\b(?:J1989|AGA|WMSG(?: 2008)?|Tromp-Taylor|Ing)(?: [Rr]ules?)? (?:Arts?\.|[Rr]ules?|§) ?[\d.–-]+"
    ),
    re.compile(r"\bOQ-\d+\b"),
    re.compile(r"\b[0-9a-f]{12}\b"),  # a revision
    re.compile(r"\b(?:J1989|WMSG|AGA|Ing|Tromp-Taylor)\b"),  # rule sets' own abbreviations
    re.compile(r"\b[A-HJ-Z]\d{1,2}\b"),  # coordinates
    re.compile(r"\b[BW]\b"),  # colours as the grammar writes them
)


@dataclass
class Tally:
    chinese: int = 0
    mixed: int = 0
    english: int = 0
    fallback: int = 0  # of english: marked as untranslated text
    examples: dict[str, list[str]] = field(default_factory=dict)  # kind -> a few strings

    @property
    def counted(self) -> int:
        return self.chinese + self.mixed + self.english

    @property
    def share(self) -> float:
        """The share of the counted strings that are Chinese (1.0 for a page with none)."""
        return self.chinese / self.counted if self.counted else 1.0

    def add(self, kind: str, text: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        shown = self.examples.setdefault(kind, [])
        if len(shown) < 12:
            shown.append(text)


def kind_of(text: str, names: Iterable[str] = ()) -> str | None:
    """``chinese``, ``mixed``, ``english``, or None for a string that is no language (identifiers,
    ids, coordinates, numbers, marks). ``names``: further identifiers (the presets' names)."""
    rest = text
    for pattern in IDENTIFIERS:
        rest = pattern.sub(" ", rest)
    for name in sorted(names, key=len, reverse=True):
        rest = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", rest)
    han = bool(HAN.search(rest))
    latin = bool(LATIN_WORD.search(rest))
    if han and latin:
        return "mixed"
    if han:
        return "chinese"
    if latin:
        return "english"
    return None


SKIPPED = frozenset({"script", "style", "head", "title", "code", "pre"})


class _Strings(HTMLParser):
    SKIP = SKIPPED

    def __init__(self, skip: frozenset[str] = frozenset()):
        super().__init__(convert_charrefs=True)
        self.skip = skip
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, skipped, fallback)
        self.strings: list[tuple[str, bool]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        skipped = (
            tag in self.SKIP
            or a.get("translate") == "no"  # an identifier (a tag, a seed citation in a filter)
            or "lang" in (a.get("class") or "").split()  # the switch: the other language's name
            or bool(self.skip & set((a.get("class") or "").split()))
            or (self.stack and self.stack[-1][1])
        )
        classes = (a.get("class") or "").split()
        fallback = (
            FALLBACK_CLASS in classes
            or a.get("lang") == "en"  # English on purpose: a glossary's English column, a quotation
            or (self.stack and self.stack[-1][2])
        )
        if tag in ("br", "img", "input", "meta", "link", "hr", "wbr", "circle", "rect", "path"):
            return  # void elements (and SVG shapes written as such)
        self.stack.append((tag, bool(skipped), bool(fallback)))

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        text = " ".join(data.split())
        if not text or (self.stack and self.stack[-1][1]):
            return
        if not self.stack:
            return
        self.strings.append((text, self.stack[-1][2]))


def visible_strings(html: str, skip: Iterable[str] = ()) -> list[tuple[str, bool]]:
    """(text, marked as English: a fallback or ``lang="en"``) of every visible string of
    ``html``'s body; ``skip``: classes of elements left out."""
    parser = _Strings(frozenset(skip))
    parser.feed(html)
    parser.close()
    return parser.strings


def tally(html: str, names: Iterable[str] = ()) -> Tally:
    out = Tally()
    names = tuple(names)
    for text, fallback in visible_strings(html):
        kind = kind_of(text, names)
        if kind is None:
            continue
        out.add(kind, text)
        if kind == "english" and fallback:
            out.fallback += 1
    return out


MEASURED = (
    ("the index", "index.html"),
    ("a play case", "cases/ko.simple.001.html"),
    ("a counting case", "cases/count.area.001.html"),
    ("a clause", "clauses/rep.no-retreat.html"),
    ("an open question", "questions/oq.9.html"),
    ("a ruleset", "rulesets/jpd-2022.html"),
    ("a difference page", "differences/chinese--japanese.html"),
    ("a seed page", "seeds/000_20_a722.html"),
)
"""The pages the Chinese edition is measured on (inside ``OUTDIR/zh/``): one of each kind."""
