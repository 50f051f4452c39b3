"""Helpers of the case-book tests: building a book, walking its links."""

import functools
import html
import os
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from jpdtools.book.build import build
from jpdtools.paths import conformance_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.records.sources import find_sources, read_records
from jpdtools.records.study import study
from jpdtools.run.runner import Filters, default_loader

SAMPLE = Path(__file__).resolve().parents[1] / "benchmarks" / "corpus" / "gnugo-sample.tar.xz"
THREE_FILES = ("ko.yaml", "count-area.yaml", "settling.yaml")


def build_book(out: Path, paths: list[Path], filters: Filters | None = None, pdf: bool = False, studied=None):
    loader = default_loader()
    return build(out, paths, spec_dir(), load_presets(), loader, filters or Filters(), studied, pdf=pdf)


def build_studied_book(out: Path) -> Path:
    """Both editions of a book of three case files (ko, counting by area, settling) with a study of
    the shipped sample of finished games under three rulesets: every kind of page the book writes."""
    presets = load_presets()
    rulesets = [presets.get(n) for n in ("chinese", "japanese", "jpd-2022")]
    items = ((r.key, r.data) for r in read_records(find_sources([str(SAMPLE)])))
    result = study(items, rulesets, "record").as_json() | {"komi_source": "record", "source_errors": []}
    build_book(out, [conformance_dir() / f for f in THREE_FILES], studied=result)
    return out


@dataclass
class PageLinks(HTMLParser):
    """The ids a page defines and the local links (href, src) it makes (the standard library's
    parser: :func:`page_links` gives the same, faster, on the book's pages)."""

    ids: set = field(default_factory=set)
    links: list = field(default_factory=list)

    def __post_init__(self):
        super().__init__()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key) is not None:
                self.links.append(a[key])


# What HTMLParser reads as a start tag and its attributes, as regular expressions: the text of a
# script, a style sheet or a comment holds no tags. tests/test_book.py checks on a built book that
# both read the same ids and links from every page.
_RAW_TEXT = re.compile(r"(<(script|style)\b(?:[^>'\"]|'[^']*'|\"[^\"]*\")*>).*?(</\2\s*>)", re.S | re.I)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_TAG = re.compile(
    r"<[a-zA-Z][^\t\n\r\f />\x00]*((?:\s|/(?!>))*)([^>'\"]*(?:(?:'[^']*'|\"[^\"]*\")[^>'\"]*)*)>"
)
_ATTR = re.compile(
    r"""((?<=['"\s/])[^\s/>][^\s/=>]*)(\s*=+\s*('[^']*'|"[^"]*"|(?!['"])[^>\s]*))?(?:\s|/(?!>))*"""
)


# An attribute named id, href or src with a value: a tag without one defines no id and makes no
# link, and is not read further (most of a page's tags are a board's stones and lines).
_WANTED = re.compile(r"""(?<=['"\s/])(?:id|href|src)\s*=""", re.I)


def page_links(text: str) -> tuple[set[str], list[str]]:
    """The ids a page defines and the links (href, src) it makes, as :class:`PageLinks` reads them."""
    text = _COMMENT.sub("", _RAW_TEXT.sub(r"\1\3", text))
    ids: set[str] = set()
    links: list[str] = []
    wanted, attribute = _WANTED.search, _ATTR.match
    for before, attributes in _TAG.findall(text):
        # (the substrings first: cheaper than the expression, and most tags have none of them)
        if "=" not in attributes:
            continue
        if not ("id" in (low := attributes.lower()) or "href" in low or "src" in low):
            continue
        # the attributes with the character before them, which _ATTR's look-behind reads
        if wanted(attributes := before[-1:] + attributes) is None:
            continue
        at, end = len(before[-1:]), len(attributes)
        found: dict[str, str | None] = {}
        while at < end and (attr := attribute(attributes, at)) is not None and attr.end() > at:
            found[attr.group(1).lower()] = attr.group(3)
            at = attr.end()
        for key in ("id", "href", "src"):
            value = found.get(key)
            if value is None:
                continue
            if value[:1] == value[-1:] and value[:1] in "'\"":
                value = value[1:-1]
            value = html.unescape(value)
            if key == "id":
                if value:
                    ids.add(value)
            else:
                links.append(value)
    return ids, links


def broken_links(root: Path) -> tuple[int, list[str]]:
    """(local links checked, the broken ones as 'page: link') over every page under ``root``."""
    # paths as strings (os.path): pathlib's objects, made for each of the many links, cost more
    # than the walk itself
    top = str(root.resolve())
    pages = {
        str(path.resolve()): page_links(path.read_text(encoding="utf-8"))
        for path in sorted(root.rglob("*.html"))
    }
    is_file = functools.cache(os.path.isfile)

    @functools.cache  # the pages of a folder link to the same few pages, style sheets and scripts
    def target_of(folder: str, link: str) -> str:
        return os.path.normpath(os.path.join(folder, unquote(link)))

    checked, broken = 0, []
    for path, (_, links) in pages.items():
        folder = os.path.dirname(path)
        page = os.path.relpath(path, top)
        for href in links:
            parts = urlsplit(href)
            if parts.scheme or href.startswith("//"):
                continue
            checked += 1
            # the book has no symbolic links: a link's target is its path made normal
            target = target_of(folder, parts.path) if parts.path else path
            if not is_file(target):
                broken.append(f"{page}: {href}")
            elif parts.fragment and target in pages and unquote(parts.fragment) not in pages[target][0]:
                broken.append(f"{page}: {href} (no such id)")
    return checked, broken
