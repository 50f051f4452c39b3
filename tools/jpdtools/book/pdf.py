"""Printing with headless Chromium (Debian's ``chromium``, :mod:`.devtools`) and joining the prints
with pypdf.

:func:`print_document` prints one page to PDF and reads back how many pages it took and where the
elements its links lead to fell (the named destinations Chromium writes); :func:`join` puts the
prints one after another into one PDF with the page labels and the outline a reader navigates by,
keeping the links inside the PDF and dropping those to the files it was printed from. A missing
pypdf is a clear error, not a traceback.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from jpdtools.book.devtools import Printer
from jpdtools.errors import InputError

PRINT_TIMEOUT = 600.0
"""Seconds Chromium may take over one step of a print (loading a chapter, printing it)."""


def pypdf():
    """The pypdf module, or an InputError saying how to install it."""
    try:
        import pypdf as module
    except ImportError:
        raise InputError("--pdf needs pypdf (pip install 'jipingdian[pdf]', or pip install pypdf)") from None
    return module


@dataclass(frozen=True)
class Printed:
    pdf: Path
    pages: int
    places: dict[str, int]  # a named destination (an id the page links to) -> its page, from 0


def print_document(printer: Printer, url: str, pdf: Path) -> Printed:
    """Print the page at ``url`` to ``pdf`` (its own ``@page`` size, margins and margin boxes; no
    header or footer of Chromium's), and read back its pages and where the elements its own links
    lead to fell (Chromium writes them as named destinations)."""
    printer.open(url)
    printer.print_to(pdf)
    reader = pypdf().PdfReader(pdf)
    places = {
        str(name).lstrip("/"): reader.get_destination_page_number(where)
        for name, where in reader.named_destinations.items()
    }
    return Printed(pdf, len(reader.pages), places)


@dataclass(frozen=True)
class Mark:
    """An entry of the joined PDF's outline: ``title`` at page ``page`` (from 0 in the joined PDF),
    under the entry before it of a lower ``level``."""

    title: str
    page: int
    level: int = 0


@dataclass(frozen=True)
class Labels:
    """Page labels, as printed at the foot: from page ``first`` (from 0) on, numbered ``roman`` or
    in digits, starting at ``start``."""

    first: int
    roman: bool
    start: int = 1


Target = Callable[[str], int | None]
"""Where a link of the printed pages leads inside the joined PDF (a page from 0), given its URI
(``#NAME`` for a named destination of its own document); None: the link is dropped."""


def join(
    parts: Sequence[Printed],
    out: Path,
    *,
    marks: Sequence[Mark] = (),
    labels: Sequence[Labels] = (),
    target: Target = lambda uri: None,
    title: str = "",
    lang: str = "",
) -> int:
    """Join ``parts`` into ``out`` one after another; returns its pages. A link to a file (``file:``)
    leads to ``target``'s page, or goes; links to the web stay."""
    module = pypdf()
    generic = module.generic
    writer = module.PdfWriter()
    for part in parts:
        writer.append(part.pdf, import_outline=False)
    total = len(writer.pages)
    for page in writer.pages:
        _relink(page, writer, target, generic)
    for i, label in enumerate(labels):
        last = labels[i + 1].first - 1 if i + 1 < len(labels) else total - 1
        if label.first <= last:
            style = "/r" if label.roman else "/D"
            writer.set_page_label(label.first, last, style=style, start=label.start)
    parents: list = []
    for mark in marks:
        del parents[mark.level :]
        parent = parents[-1] if parents else None
        item = writer.add_outline_item(title=mark.title, page_number=mark.page, parent=parent, is_open=False)
        parents.append(item)
    writer.add_metadata({"/Title": title} if title else {})
    if lang:
        writer._root_object[generic.NameObject("/Lang")] = generic.TextStringObject(lang)
    writer.page_mode = "/UseOutlines"
    try:
        with out.open("wb") as stream:
            writer.write(stream)
    except OSError as err:
        raise InputError(f"cannot write {out}: {err.strerror or err}") from None
    return total


def _relink(page, writer, target: Target, generic) -> None:
    """Keep a page's web links, turn its file links and its links to named destinations into links
    to pages of the joined PDF (or drop them)."""
    annots = page.get("/Annots")
    if annots is None:
        return
    kept = generic.ArrayObject()
    for ref in annots.get_object():
        annot = ref.get_object()
        action = annot.get("/A")
        action = action.get_object() if action is not None else {}
        named = annot.get("/Dest", action.get("/D") if action.get("/S") == "/GoTo" else None)
        # a name, or a text string naming a destination; else a URI
        uri = "#" + str(named).lstrip("/") if isinstance(named, str) else str(action.get("/URI", ""))
        if not uri.startswith(("file:", "#")):
            kept.append(ref)
            continue
        where = target(uri)
        if where is None:
            continue
        if "/Dest" in annot:
            del annot["/Dest"]
        annot[generic.NameObject("/A")] = generic.DictionaryObject(
            {
                generic.NameObject("/S"): generic.NameObject("/GoTo"),
                generic.NameObject("/D"): generic.ArrayObject(
                    [writer.pages[where].indirect_reference, generic.NameObject("/Fit")]
                ),
            }
        )
        kept.append(ref)
    page[generic.NameObject("/Annots")] = kept
