"""How Chinese the Chinese edition of the book is: on one page of each kind, the share of the
visible strings that are Chinese (identifiers, ids and coordinates left out; see
jpdtools/book/visible.py for what counts).

    python benchmarks/zh_share.py [BOOKDIR] [--examples N]

BOOKDIR is a built book (``jpd book BOOKDIR``); without it the whole suite's book is built in a
temporary folder first. Prints, per page, the Chinese, mixed and English strings, how many of the
English are marked fallbacks (text not yet translated), and the share; ``--examples`` lists the
first English and mixed strings of each page.
"""

import argparse
import sys
import tempfile
from pathlib import Path

from jpdtools.book.visible import MEASURED, tally
from jpdtools.paths import conformance_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.run.runner import Filters, default_loader


def measure(book: Path) -> list[tuple[str, str, object]]:
    """(kind of page, path, Tally) for every measured page of ``book``'s Chinese edition."""
    names = load_presets().names
    out = []
    for kind, path in MEASURED:
        page = book / "zh" / path
        out.append((kind, path, tally(page.read_text(encoding="utf-8"), names)))
    return out


def report(rows, examples: int = 0) -> str:
    lines = [f"{'page':<20} {'zh':>5} {'mixed':>5} {'en':>5} {'of en: fallback':>15} {'share':>6}"]
    total = [0, 0, 0, 0]
    for kind, path, t in rows:
        lines.append(
            f"{kind:<20} {t.chinese:>5} {t.mixed:>5} {t.english:>5} {t.fallback:>15} {t.share:>6.1%}  {path}"
        )
        total = [a + b for a, b in zip(total, (t.chinese, t.mixed, t.english, t.fallback), strict=True)]
        for kind_ in ("english", "mixed")[: 2 if examples else 0]:
            for text in t.examples.get(kind_, [])[:examples]:
                lines.append(f"    {kind_}: {text[:100]}")
    counted = sum(total[:3])
    share = total[0] / counted if counted else 1.0
    lines.append(f"{'all eight':<20} {total[0]:>5} {total[1]:>5} {total[2]:>5} {total[3]:>15} {share:>6.1%}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", nargs="?", type=Path, help="a built book (default: build one)")
    parser.add_argument("--examples", type=int, default=0, metavar="N", help="list N strings per page")
    args = parser.parse_args(argv)
    if args.book is not None:
        print(report(measure(args.book), args.examples))
        return 0
    from jpdtools.book.build import build

    with tempfile.TemporaryDirectory(prefix="jpd-zh-share-") as tmp:
        out = Path(tmp) / "book"
        build(out, [conformance_dir()], spec_dir(), load_presets(), default_loader(), Filters())
        print(report(measure(out), args.examples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
