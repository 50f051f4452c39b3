"""The one board renderer of the case book and the verify report: a position as inline SVG.

A :class:`Picture` is plain values — board rows as the observations carry them (top row first,
``/``-separated; ``X``/``O`` stones, ``x``/``o`` stones agreed dead, ``.`` empty), GTP vertices
for the marks — and :func:`board_svg` turns it into one ``<svg>`` element: the grid with GTP
coordinates (column letters without ``I``, rows counted from the bottom, as case files name
vertices), the stones, the last move ringed, stones captured by it drawn as crossed ghosts, the
case's marker letters, each side's virtual stones counted beside the board, and, for a counted
position, each point's owner as a small square with the reason in its tooltip.

Every text that reaches the SVG is escaped; nothing here reads files or knows about cases.
"""

from dataclasses import dataclass
from html import escape

from jpdref.coords import GTP_COLUMNS

from jpdtools.book.lang import EN, Language

CELL = 24
MARGIN = 22
SIDE_PANEL = 74
STONE_R = 10.5

OWNER_FILL = {"B": "#111", "W": "#fff"}


@dataclass(frozen=True)
class Picture:
    """What to draw. ``rows``: the board; ``last``: the vertex of the move just played;
    ``captured``: ((vertex, colour B|W), …) stones the last action removed; ``markers``:
    ((letter, vertex), …); ``virtual``: (Black's, White's) virtual stones, None to leave the
    counter out; ``owners``: ((vertex, owner B|W|none, why), …) of a counted board; ``label``:
    the accessible name of the picture; ``refused``: where a refused move was tried (crossed out
    on an empty point; where a program placed the stone anyway, the stone is ringed as played)."""

    rows: str
    last: str | None = None
    captured: tuple[tuple[str, str], ...] = ()
    markers: tuple[tuple[str, str], ...] = ()
    virtual: tuple[int, int] | None = None
    owners: tuple[tuple[str, str, str], ...] = ()
    label: str = ""
    refused: str | None = None  # the vertex of a move that was refused (a no-entry sign)
    numbers: tuple[tuple[str, int], ...] = ()  # (vertex, step number) on the stones there; the last per point

    @property
    def crossed(self) -> bool:
        """Whether a stone is drawn dead (crossed): a caption speaks of dead stones only then."""
        return any(ch in "xo" for ch in self.rows)


def grid_of(rows: str) -> list[str]:
    return [r for r in rows.split("/")] if rows else []


def _xy(vertex: str, height: int) -> tuple[int, int] | None:
    """(column, row from the top) of a GTP vertex, or None if it is not one."""
    v = vertex.strip().upper()
    if len(v) < 2 or v[0] not in GTP_COLUMNS or not v[1:].isdigit():
        return None
    return GTP_COLUMNS.index(v[0]), height - int(v[1:])


def _centre(x: int, y: int) -> tuple[float, float]:
    return MARGIN + CELL / 2 + x * CELL, MARGIN + CELL / 2 + y * CELL


def _coordinates(width: int, height: int) -> list[str]:
    out = ['<g class="coords" font-size="10" fill="#555" text-anchor="middle">']
    for x in range(width):
        cx, _ = _centre(x, 0)
        letter = GTP_COLUMNS[x]
        out.append(f'<text x="{cx:g}" y="{MARGIN - 8}">{letter}</text>')
        out.append(f'<text x="{cx:g}" y="{MARGIN + height * CELL + 15}">{letter}</text>')
    for y in range(height):
        _, cy = _centre(0, y)
        n = height - y
        out.append(f'<text x="{MARGIN / 2:g}" y="{cy + 3.5:g}">{n}</text>')
        out.append(f'<text x="{MARGIN + width * CELL + MARGIN / 2:g}" y="{cy + 3.5:g}">{n}</text>')
    out.append("</g>")
    return out


def _lines(width: int, height: int) -> list[str]:
    x0, y0 = _centre(0, 0)
    x1, y1 = _centre(width - 1, height - 1)
    parts = [f"M{x0:g} {cy:g}H{x1:g}" for cy in (_centre(0, y)[1] for y in range(height))]
    parts += [f"M{cx:g} {y0:g}V{y1:g}" for cx in (_centre(x, 0)[0] for x in range(width))]
    return [f'<path class="grid" d="{"".join(parts)}" stroke="#5a4a2a" stroke-width="1" fill="none"/>']


def _stone(x: int, y: int, colour: str, cls: str, title: str) -> str:
    cx, cy = _centre(x, y)
    fill, stroke = ("#111", "#000") if colour == "B" else ("#fafafa", "#222")
    return (
        f'<circle class="{cls}" cx="{cx:g}" cy="{cy:g}" r="{STONE_R}" fill="{fill}" stroke="{stroke}">'
        f"<title>{escape(title)}</title></circle>"
    )


def _dead_cross(x: int, y: int, colour: str) -> str:
    cx, cy = _centre(x, y)
    d = 5
    ink = "#fff" if colour == "B" else "#111"
    return (
        f'<path class="dead" d="M{cx - d:g} {cy - d:g}L{cx + d:g} {cy + d:g}M{cx + d:g} {cy - d:g}'
        f'L{cx - d:g} {cy + d:g}" stroke="{ink}" stroke-width="2"/>'
    )


def _ghost(x: int, y: int, colour: str, vertex: str, lang: Language) -> str:
    """A stone this step captured: in its own colour, faded, with the capture mark (a red ×)."""
    cx, cy = _centre(x, y)
    d = 4
    fill, stroke = ("#111", "#000") if colour == "B" else ("#fafafa", "#222")
    title = lang.s(f"svg.captured.{colour}", vertex=vertex)
    return (
        f'<g class="captured" data-colour="{colour}">'
        f"<title>{escape(title)}</title>"
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{STONE_R}" fill="{fill}" fill-opacity="0.45" '
        f'stroke="{stroke}" stroke-opacity="0.6"/>'
        f'<path d="M{cx - d:g} {cy - d:g}L{cx + d:g} {cy + d:g}M{cx + d:g} {cy - d:g}L{cx - d:g} {cy + d:g}"'
        f' stroke="#e0301e" stroke-width="2.5"/></g>'
    )


def _star_points(width: int, height: int) -> list[str]:
    """The star points (星) of the usual boards: the 4-4 points and the centre from 13×13 up,
    the 3-3 points and the centre from 9×9 up (square boards only)."""
    if width != height or width < 9:
        return []
    d = 3 if width >= 13 else 2
    far = width - 1 - d
    points = {(d, d), (d, far), (far, d), (far, far)}
    if width % 2:
        mid = width // 2
        points.add((mid, mid))
        if width >= 15:
            points |= {(d, mid), (far, mid), (mid, d), (mid, far)}
    out = []
    for x, y in sorted(points):
        cx, cy = _centre(x, y)
        out.append(f'<circle class="star" cx="{cx:g}" cy="{cy:g}" r="2.6" fill="#5a4a2a"/>')
    return out


def _last(x: int, y: int, colour: str | None, vertex: str) -> str:
    cx, cy = _centre(x, y)
    ink = "#e74c3c" if colour is None else ("#fff" if colour == "B" else "#111")
    return (
        f'<circle class="last" cx="{cx:g}" cy="{cy:g}" r="4.5" fill="none" stroke="{ink}" '
        f'stroke-width="2"><title>{escape(vertex)}: the last move</title></circle>'
    )


def _refused(x: int, y: int, vertex: str, lang: Language) -> str:
    """A refused move: a "no entry" sign (circle and bar) where it was tried — not a stone."""
    cx, cy = _centre(x, y)
    d = 6
    return (
        f'<g class="refused"><title>{escape(lang.s("svg.refused", vertex=vertex))}</title>'
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{STONE_R - 1}" fill="#fff" fill-opacity="0.6" stroke="#d35400" '
        f'stroke-width="2.5"/><path d="M{cx - d:g} {cy + d:g}L{cx + d:g} {cy - d:g}" stroke="#d35400" '
        'stroke-width="2.5"/></g>'
    )


def _marker(x: int, y: int, letter: str, stone: str) -> str:
    cx, cy = _centre(x, y)
    ink = "#fff" if stone in "Xx" else "#1a5fb4"
    back = (
        ""
        if stone in "XxOo"
        else (f'<rect x="{cx - 7:g}" y="{cy - 7:g}" width="14" height="14" fill="#e8c988"/>')
    )
    return (
        f'<g class="marker">{back}<text x="{cx:g}" y="{cy + 4.5:g}" font-size="13" font-weight="bold" '
        f'text-anchor="middle" fill="{ink}">{escape(letter)}</text></g>'
    )


def _owner_mark(x: int, y: int, owner: str, why: str, vertex: str, stone: str, lang: Language) -> str:
    cx, cy = _centre(x, y)
    title = f"{vertex}: {lang.word_text('owner.', owner)} — {lang.word_text('why.', why)}"
    if why in ("negative-a", "negative-b"):  # 负着: a stone taken off as a negative move, not a dead one
        kind = "A" if why == "negative-a" else "B"
        return (
            f'<g class="owner negative" data-owner="{escape(owner)}" data-why="{escape(why)}">'
            f"<title>{escape(title)} ({escape(lang.s('svg.negative', kind=kind))})</title>"
            f'<rect x="{cx - 6:g}" y="{cy - 6:g}" width="12" height="12" fill="#fff" stroke="#1a5fb4" '
            f'stroke-width="1.5" transform="rotate(45 {cx:g} {cy:g})"/>'
            f'<text x="{cx:g}" y="{cy + 3.5:g}" font-size="9" text-anchor="middle" fill="#1a5fb4">'
            f"{kind}</text></g>"
        )
    if owner not in OWNER_FILL:
        d = 3.5
        return (
            f'<g class="owner" data-owner="none" data-why="{escape(why)}"><title>{escape(title)}</title>'
            f'<path d="M{cx - d:g} {cy:g}H{cx + d:g}" stroke="#c0392b" stroke-width="2"/></g>'
        )
    s = 9 if stone == "." else 7
    stroke = "#888" if owner == "B" else "#111"
    return (
        f'<rect class="owner" data-owner="{owner}" data-why="{escape(why)}" x="{cx - s / 2:g}" '
        f'y="{cy - s / 2:g}" width="{s}" height="{s}" fill="{OWNER_FILL[owner]}" stroke="{stroke}">'
        f"<title>{escape(title)}</title></rect>"
    )


def _virtual_panel(virtual: tuple[int, int], width: int, lang: Language) -> list[str]:
    x = MARGIN * 2 + width * CELL + 8
    said = escape(lang.s("svg.virtual"))
    out = [f'<g class="virtual" font-size="12" fill="#222"><text x="{x}" y="{MARGIN + 4}">{said}</text>']
    for i, (colour, n) in enumerate((("B", virtual[0]), ("W", virtual[1]))):
        cy = MARGIN + 22 + i * 26
        fill = "#111" if colour == "B" else "#fafafa"
        title = lang.s(f"svg.virtual.{colour}", n=n)
        out.append(
            f'<g data-colour="{colour}" data-count="{n}"><title>{escape(title)}</title>'
            f'<circle cx="{x + 9}" cy="{cy}" r="8" fill="{fill}" stroke="#222"/>'
            f'<text x="{x + 22}" y="{cy + 4}">× {n}</text></g>'
        )
    out.append("</g>")
    return out


def board_svg(picture: Picture, lang: Language = EN) -> str:
    """The picture as one ``<svg class="board">`` element (no XML declaration: it goes inline)."""
    grid = grid_of(picture.rows)
    height = len(grid)
    width = max((len(r) for r in grid), default=0)
    side = SIDE_PANEL if picture.virtual is not None else 0
    w, h = MARGIN * 2 + width * CELL + side, MARGIN * 2 + height * CELL
    label = picture.label or lang.s("svg.board", width=width, height=height)
    out = [
        f'<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
        f'height="{h}" role="img" aria-label="{escape(label)}" data-size="{width}x{height}" '
        'font-family="sans-serif">',
        f"<title>{escape(label)}</title>",
        f'<rect class="wood" x="{MARGIN}" y="{MARGIN}" width="{width * CELL}" height="{height * CELL}" '
        'fill="#e8c988"/>',
        *_lines(width, height),
        *_star_points(width, height),
        *_coordinates(width, height),
    ]
    stone_at: dict[tuple[int, int], str] = {}
    for y, row in enumerate(grid):
        for x, ch in enumerate(row):
            stone_at[(x, y)] = ch
            if ch in "XxOo":
                colour = "B" if ch in "Xx" else "W"
                vertex = f"{GTP_COLUMNS[x]}{height - y}"
                dead = ch.islower()
                name = lang.s(f"svg.stone.{colour}" + (".dead" if dead else ""))
                out.append(_stone(x, y, colour, "stone dead" if dead else "stone", f"{vertex}: {name}"))
                if dead:
                    out.append(_dead_cross(x, y, colour))
    for vertex, colour in picture.captured:
        xy = _xy(vertex, height)
        if xy is not None and stone_at.get(xy, ".") == ".":
            out.append(_ghost(*xy, colour, vertex, lang))
    for vertex, owner, why in picture.owners:
        xy = _xy(vertex, height)
        if xy is not None and why != "stone":
            out.append(_owner_mark(*xy, owner, why, vertex, stone_at.get(xy, "."), lang))
    for letter, vertex in picture.markers:
        xy = _xy(vertex, height)
        if xy is not None:
            out.append(_marker(*xy, letter, stone_at.get(xy, ".")))
    numbered = dict(picture.numbers)  # a point played again shows its last number (the stone there)
    for vertex, n in numbered.items():
        xy = _xy(vertex, height)
        if xy is not None and stone_at.get(xy, ".") in "XO":
            cx, cy = _centre(*xy)
            ink = "#fff" if stone_at[xy] == "X" else "#111"
            out.append(
                f'<text class="move-number" x="{cx:g}" y="{cy + 4:g}" font-size="11" font-weight="bold" '
                f'text-anchor="middle" fill="{ink}">{n}</text>'
            )
    if picture.last and picture.last not in numbered:
        xy = _xy(picture.last, height)
        if xy is not None:
            ch = stone_at.get(xy, ".")
            out.append(_last(*xy, "B" if ch in "Xx" else "W" if ch in "Oo" else None, picture.last))
    if picture.refused:
        xy = _xy(picture.refused, height)
        if xy is not None and stone_at.get(xy, ".") == ".":
            out.append(_refused(*xy, picture.refused, lang))
        elif xy is not None and not picture.last:  # "refused", yet a stone stands there: ring it
            ch = stone_at[xy]
            out.append(_last(*xy, "B" if ch in "Xx" else "W", picture.refused))
    if picture.virtual is not None:
        out += _virtual_panel(picture.virtual, width, lang)
    out.append("</svg>")
    return "".join(out)


LEGEND = ("last", "numbers", "captured", "refused", "dead", "negative", "owner")  # legend.KEY


def legend(picture: Picture, lang: Language = EN) -> str:
    """The marks this board uses, said in words (for below the board: always visible, in print too)."""
    grid = grid_of(picture.rows)
    used = {
        "last": bool(picture.last) and picture.last not in dict(picture.numbers),
        "numbers": bool(picture.numbers),
        "captured": bool(picture.captured),
        "refused": bool(picture.refused),
        "dead": any(ch in "xo" for row in grid for ch in row),
        "negative": any(why in ("negative-a", "negative-b") for _, _, why in picture.owners),
        "owner": any(why != "stone" for _, _, why in picture.owners),
    }
    items = [lang.s("legend." + key) for key in LEGEND if used[key]]
    return f'<span class="board-legend">{escape(lang.s("list.semi").join(items))}</span>' if items else ""
