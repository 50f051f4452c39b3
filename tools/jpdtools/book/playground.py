"""The book's rules playground: a page where the reference implementation itself runs, under Pyodide.

Each edition has ``playground.html``; the files it loads are shared by both, in ``OUTDIR/playground/``:

* ``pyodide/`` — the runtime, copied from the npm package ``pyodide`` pinned in
  ``playground/package.json`` (``npm ci --prefix playground``); nothing is fetched from elsewhere;
* ``jpd.zip`` — the Python the page runs: ``jpdref`` whole and the few ``jpdtools`` modules that
  need nothing else (:data:`SHIPPED`), with :mod:`jpdtools.book.playengine` as the entry point;
* ``presets.json`` — ``spec/rulesets.yaml``'s presets as JSON (the page has no PyYAML);
* ``playground.js``, ``playground.css`` — the page's script and style.

The page loads the runtime only when it is opened (the rest of the book stays light), saying how
far it is. A browser runs it from a web server, not from ``file://``: the page says so. Without
Pyodide installed the book is built all the same and its playground page says how to add it.
"""

import io
import json
import os
import zipfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from jpdtools.book import svg
from jpdtools.book.context import Book
from jpdtools.book.page import clause_href, page, slug
from jpdtools.paths import checkout_root

PYODIDE_ENV = "JPD_PYODIDE"
"""A folder holding the npm package ``pyodide`` (its ``pyodide.mjs``), instead of the checkout's."""
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What the page loads of the package (the rest — consoles, type declarations, maps — stays out)."""
HERE = "playground.html"
FOLDER = "playground"  # in OUTDIR, shared by the editions

SHIPPED = (
    "jpdtools/__init__.py",
    "jpdtools/errors.py",
    "jpdtools/book/__init__.py",
    "jpdtools/book/playengine.py",
    "jpdtools/book/svg.py",
    "jpdtools/book/lang/__init__.py",
    "jpdtools/book/lang/en.py",
    "jpdtools/book/lang/glossary.py",
    "jpdtools/book/lang/zh.py",
    "jpdtools/review/__init__.py",
    "jpdtools/review/deciding.py",
    "jpdtools/run/__init__.py",
    "jpdtools/run/adapters.py",
    "jpdtools/run/compare.py",
    "jpdtools/run/features.py",
    "jpdtools/run/reference_count.py",
    "jpdtools/records/__init__.py",
    "jpdtools/records/charset.py",
    "jpdtools/records/sgf.py",
    "jpdtools/suite/__init__.py",
    "jpdtools/suite/dsl.py",
    "jpdtools/suite/model.py",
    "jpdtools/suite/quickparse.py",
    "jpdtools/suite/setup.py",
    "jpdtools/suite/sgfsetup.py",
    "jpdtools/suite/syntax.py",
)
"""The ``jpdtools`` modules the page runs (besides all of ``jpdref``), relative to ``tools/``."""


class PyodideMissing(LookupError):
    """The npm package ``pyodide`` is not installed where the book looks for it."""


def find_pyodide() -> Path | None:
    """The folder of the npm package ``pyodide``: ``$JPD_PYODIDE``, else the checkout's
    ``playground/node_modules/pyodide``; None when neither holds every file the page loads."""
    override = os.environ.get(PYODIDE_ENV)
    root = checkout_root()
    candidates = [Path(override)] if override else []
    if root is not None:
        candidates.append(root / "playground" / "node_modules" / "pyodide")
    for folder in candidates:
        if all((folder / name).is_file() for name in PYODIDE_FILES):
            return folder
    return None


MISSING_MESSAGE = (
    "the book's playground has no Pyodide (npm ci --prefix playground in the checkout, or "
    f"{PYODIDE_ENV}=the folder of the npm package pyodide): its page says how to add it"
)


# -- the files ----------------------------------------------------------------------------------
def _package_dir(name: str) -> Path:
    return Path(resources.files(name).joinpath("__init__.py")).parent  # type: ignore[arg-type]


def shipped_sources() -> list[tuple[str, Path]]:
    """(path inside the zip, file) of every Python file the page runs."""
    jpdref = _package_dir("jpdref")
    tools = _package_dir("jpdtools").parent
    out = [
        (f"jpdref/{p.relative_to(jpdref).as_posix()}", p)
        for p in sorted(jpdref.rglob("*.py"))
        if "_data" not in p.relative_to(jpdref).parts
    ]
    out += [(name, tools / name) for name in SHIPPED]
    return out


def sources_zip() -> bytes:
    """The shipped sources as one zip (fixed dates: the same sources make the same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, path in shipped_sources():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    return buffer.getvalue()


def presets_json(book: Book) -> str:
    """The presets as JSON: name, title, each axis's value and source (``spec/rulesets.yaml``'s
    content, for :class:`jpdtools.book.playengine.Engine`)."""
    presets = [
        {"name": r.name, "title": r.title, "values": r.values(), "sources": dict(r.sources)}
        for r in book.presets.rulesets
    ]
    return json.dumps({"format": 1, "presets": presets}, ensure_ascii=False, indent=1) + "\n"


def asset(name: str) -> bytes:
    return resources.files("jpdtools.book").joinpath(name).read_bytes()


def shared_files(book: Book, pyodide: Path) -> Iterator[tuple[str, bytes]]:
    """(path inside OUTDIR, content) of the files both editions' playground pages load."""
    for name in PYODIDE_FILES:
        yield f"{FOLDER}/pyodide/{name}", (pyodide / name).read_bytes()
    yield f"{FOLDER}/jpd.zip", sources_zip()
    yield f"{FOLDER}/presets.json", presets_json(book).encode()
    yield f"{FOLDER}/playground.js", asset("playground.js")
    yield f"{FOLDER}/playground.css", asset("playground.css")


# -- the page -----------------------------------------------------------------------------------
def _heading(book: Book, anchor: str) -> str:
    """A clause's heading as plain text in the edition's language (the English where none)."""
    section = book.spec.sections.get(anchor)
    english = book.anchors[anchor].heading if anchor in book.anchors else section.heading if section else ""
    return (book.zh_heading(anchor) if book.lang.code != "en" else None) or english


def seed_of_clause(articles) -> dict[str, str]:
    """For each clause, a seed sentence resting on it (the citation a proposed case starts from),
    from the seed articles of the book (:attr:`jpdtools.book.seeds.SeedTable.articles`)."""
    out: dict[str, str] = {}
    for article in articles:
        if not article.listed:
            continue
        for s in article.sentences:
            if s.non_normative:
                continue
            citation = f"{article.id}/{s.label}" if s.label else article.id
            for anchor in s.clauses:
                out.setdefault(anchor, citation)
    return out


def page_data(book: Book) -> dict:
    """What the page needs besides the engine: the edition's strings, every clause's heading and
    page, the ruleset pages, a seed sentence per clause."""
    lang = book.lang
    root = ""
    clauses = {
        anchor: {"h": _heading(book, anchor), "href": clause_href(anchor, root)}
        for anchor in book.spec.sections
        if not anchor.startswith("oq.")
    }
    strings = {k: v for k, v in lang.strings.items() if k.startswith(("pg.", "reason.", "effect."))}
    return {
        "lang": lang.code,
        "strings": strings,
        "clauses": clauses,
        "rulesets": {name: f"rulesets/{slug(name)}.html" for name in book.presets.names},
        "seeds": seed_of_clause(book.seeds.articles),
        "cell": svg.CELL,
        "margin": svg.MARGIN,
    }


def playground_page(book: Book, built: bool) -> str:
    """The edition's playground page; ``built``: whether the book carries Pyodide."""
    lang = book.lang
    if not built:
        body = f'<h1>{lang.t("pg.title")}</h1><p class="pg-missing">{lang.t("pg.not-built")}</p>'
        return page(lang, lang.s("pg.title"), body, HERE)
    data = json.dumps(page_data(book), ensure_ascii=False).replace("</", "<\\/")
    body = (
        f'<link rel="stylesheet" href="../{FOLDER}/playground.css">'
        f'<h1>{lang.t("pg.title")}</h1><p class="pg-intro">{lang.t("pg.intro")}</p>'
        f'<div id="pg-loading" role="status"><progress id="pg-progress" max="4" value="0"></progress> '
        f'<span id="pg-stage">{lang.t("pg.load.start")}</span></div>'
        f'<noscript><p class="pg-missing">{lang.t("pg.noscript")}</p></noscript>'
        '<div id="pg" hidden></div>'
        f'<script type="application/json" id="pg-data">{data}</script>'
        f'<script type="module" src="../{FOLDER}/playground.js"></script>'
    )
    return page(lang, lang.s("pg.title"), body, HERE)
