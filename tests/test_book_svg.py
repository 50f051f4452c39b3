"""The SVG board renderer of the case book and the verify report."""

import xml.etree.ElementTree as ET

from jpdtools.book.svg import Picture, board_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(picture: Picture) -> ET.Element:
    return ET.fromstring(board_svg(picture))


def texts(svg: ET.Element, cls: str) -> list[str]:
    group = next(g for g in svg.iter(f"{NS}g") if g.get("class") == cls)
    return [t.text for t in group.iter(f"{NS}text")]


def test_stones_and_gtp_coordinates():
    # 9 columns: the letters skip I, rows are counted from the bottom
    svg = parse(Picture("X......../........O" + "/........." * 7))
    coords = texts(svg, "coords")
    assert coords[:18:2] == list("ABCDEFGHJ")
    assert "9" in coords and "1" in coords
    stones = [c for c in svg.iter(f"{NS}circle") if c.get("class") == "stone"]
    assert [c.find(f"{NS}title").text for c in stones] == ["A9: black stone", "J8: white stone"]
    assert svg.get("data-size") == "9x9"


def test_last_move_captured_refused_and_markers():
    svg = parse(
        Picture(
            "...../..X../.X.X./..X../.....",
            last="C4",
            captured=(("C3", "W"),),
            refused="E1",
            markers=(("a", "A1"),),
        )
    )
    # the board is 5 rows high: C4 is the second row from the top; the ghost stands where C3 was
    last = next(c for c in svg.iter(f"{NS}circle") if c.get("class") == "last")
    assert "C4" in last.find(f"{NS}title").text
    classes = [g.get("class") for g in svg.iter(f"{NS}g")]
    assert "captured" in classes and "refused" in classes and "marker" in classes
    ghost = next(g for g in svg.iter(f"{NS}g") if g.get("class") == "captured")
    assert ghost.find(f"{NS}title").text.startswith("C3: white stone captured")


def test_a_ghost_is_not_drawn_over_a_stone():
    svg = parse(Picture("X./..", captured=(("A2", "W"),)))
    assert "captured" not in [g.get("class") for g in svg.iter(f"{NS}g")]


def test_a_point_played_twice_shows_only_its_last_number():
    # count.art.001's proof line: W C9 (2) is captured by B C8 (3), and W C9 (4) stands there again
    svg = parse(Picture("XXO../XXX..", numbers=(("C2", 2), ("C1", 3), ("C2", 4))))
    numbers = [
        (t.get("x"), t.get("y"), t.text) for t in svg.iter(f"{NS}text") if t.get("class") == "move-number"
    ]
    assert [n for _, _, n in numbers] == ["4", "3"]
    assert len({(x, y) for x, y, _ in numbers}) == 2


def test_virtual_stones_are_counted_beside_the_board():
    svg = parse(Picture("../..", virtual=(2, 1)))
    panel = [g for g in svg.iter(f"{NS}g") if g.get("data-colour")]
    assert [(g.get("data-colour"), g.get("data-count")) for g in panel] == [("B", "2"), ("W", "1")]
    assert parse(Picture("../..")).find(f".//{NS}g[@class='virtual']") is None


def test_ownership_marks_with_reasons():
    owners = (("A1", "B", "territory"), ("B1", "none", "dame"), ("A2", "W", "stone"))
    svg = parse(Picture("O./..", owners=owners))
    marks = [e for e in svg.iter() if e.get("class") == "owner"]
    assert [(m.get("data-owner"), m.get("data-why")) for m in marks] == [("B", "territory"), ("none", "dame")]


def test_dead_stones_are_crossed():
    svg = parse(Picture("x./.O"))
    assert [c.get("class") for c in svg.iter(f"{NS}circle")] == ["stone dead", "stone"]
    assert any(p.get("class") == "dead" for p in svg.iter(f"{NS}path"))


def test_every_text_is_escaped():
    text = board_svg(Picture("..", label='<script>alert(1)</script>"', markers=(("<", "A1"),)))
    assert "<script>" not in text
    ET.fromstring(text)  # still well-formed


def test_a_refused_move_whose_stone_stands_is_ringed_not_crossed():
    # a program that ignores the turn order placed the stone the rules refuse
    svg = parse(Picture("..O/...", refused="C2"))
    assert "refused" not in [g.get("class") for g in svg.iter(f"{NS}g")]
    assert [c.get("class") for c in svg.iter(f"{NS}circle")] == ["stone", "last"]
