"""Helpers of the case-book tests: building a book, walking its links."""

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from jpdtools.book.build import build
from jpdtools.paths import spec_dir
from jpdtools.presets import load_presets
from jpdtools.run.runner import Filters, default_loader


def build_book(out: Path, paths: list[Path], filters: Filters | None = None, pdf: bool = False):
    loader = default_loader()
    return build(out, paths, spec_dir(), load_presets(), loader, filters or Filters(), pdf=pdf)


@dataclass
class PageLinks(HTMLParser):
    """The ids a page defines and the local links (href, src) it makes."""

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


def broken_links(root: Path) -> tuple[int, list[str]]:
    """(local links checked, the broken ones as 'page: link') over every page under ``root``."""
    pages = {}
    for path in sorted(root.rglob("*.html")):
        parser = PageLinks()
        parser.feed(path.read_text(encoding="utf-8"))
        pages[path.resolve()] = parser
    checked, broken = 0, []
    for path, parser in pages.items():
        for href in parser.links:
            parts = urlsplit(href)
            if parts.scheme or href.startswith("//"):
                continue
            checked += 1
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if not target.is_file():
                broken.append(f"{path.relative_to(root.resolve())}: {href}")
            elif parts.fragment and target in pages and unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{path.relative_to(root.resolve())}: {href} (no such id)")
    return checked, broken
