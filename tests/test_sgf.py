"""The SGF reader: main line, set-up, passes, escapes, compressed lists, errors with locations."""

import pytest
from jpdref.coords import Geometry
from jpdref.stones import BLACK, WHITE
from jpdtools.errors import InputError
from jpdtools.records.sgf import GameRecord, SgfError, parse_sgf_text, read_sgf

G19 = Geometry(19, 19)


def parse(text: str) -> GameRecord:
    return parse_sgf_text(text, "t.sgf")


def test_root_properties_and_moves():
    rec = parse("(;FF[4]GM[1]SZ[19]KM[7.5]HA[0]RU[Chinese]RE[W+R]\n;B[pd];W[dp]\n;B[tt];W[])")
    assert (rec.width, rec.height) == (19, 19)
    assert (rec.komi, rec.ruleset, rec.result, rec.handicap) == ("7.5", "Chinese", "W+R", 0)
    assert rec.moves == (
        (BLACK, G19.from_sgf("pd")),
        (WHITE, G19.from_sgf("dp")),
        (BLACK, None),
        (WHITE, None),
    )
    assert rec.setup == {} and rec.to_move is None and rec.first_to_move is BLACK
    assert rec.path == "t.sgf"


def test_defaults_without_root_properties():
    rec = parse("(;B[aa])")
    assert (rec.width, rec.height, rec.komi, rec.ruleset, rec.result) == (19, 19, None, None, None)


def test_tt_is_a_point_on_larger_boards_and_size_pairs():
    rec = parse("(;SZ[21];B[tt])")
    assert rec.moves == ((BLACK, 19 * 21 + 19),)
    rec = parse("(;SZ[5:3];B[ec];W[])")
    assert (rec.width, rec.height) == (5, 3)
    assert rec.moves == ((BLACK, 2 * 5 + 4), (WHITE, None))


def test_main_line_is_the_first_variation():
    rec = parse("(;SZ[5];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[cc]C[x]))")
    g = Geometry(5, 5)
    assert [p for _, p in rec.moves] == [g.from_sgf(v) for v in ("aa", "bb", "cc", "dd")]


def test_only_the_first_game_of_a_collection():
    rec = parse("(;SZ[5];B[aa])(;SZ[7];B[bb])")
    assert rec.width == 5 and len(rec.moves) == 1


def test_setup_compressed_lists_ae_and_pl():
    rec = parse("(;SZ[4]AB[aa:bb][dd]AW[ca:cb];AE[ab]PL[W];W[ad])")
    g = Geometry(4, 4)
    assert rec.setup == {
        g.from_sgf("aa"): BLACK,
        g.from_sgf("ba"): BLACK,
        g.from_sgf("bb"): BLACK,
        g.from_sgf("dd"): BLACK,
        g.from_sgf("ca"): WHITE,
        g.from_sgf("cb"): WHITE,
    }
    assert rec.to_move is WHITE and rec.first_to_move is WHITE


def test_compressed_list_corners_in_any_order():
    assert parse("(;SZ[3]AB[cc:aa])").setup == parse("(;SZ[3]AB[aa:cc])").setup


def test_handicap_setup_in_second_node():
    rec = parse("(;SZ[19]HA[2]KM[0.5];AB[pd][dp];W[pp])")
    assert rec.handicap == 2 and len(rec.setup) == 2 and rec.first_to_move is WHITE


def test_escapes_soft_breaks_and_whitespace():
    rec = parse("(\n ; RE [B+R\\]x\\\\] \n RU[Jap\\\nanese] GN[a(b);c]\n ; B [aa] )")
    assert rec.result == "B+R]x\\" and rec.ruleset == "Japanese"
    assert rec.moves == ((BLACK, 0),)


def test_ff3_lowercase_identifiers_and_leading_junk():
    rec = parse("junk [x] (;AddBlack[aa]SiZe[3];Black[bb])")
    assert rec.width == 3 and rec.setup == {0: BLACK} and rec.moves == ((BLACK, 4),)


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("", 1, 1, "no game tree"),
        ("(;B[aa]", 1, 8, "not closed"),
        ("(;B[aa];W[zz])", 1, 10, "off the 19x19"),
        ("(;SZ[5]\n;B[aa](;W[bb])(;W[cc]);B[dd])", 2, 23, "node after a variation"),
        ("(;FF[4]\nGM[2])", 2, 3, "not a game of Go"),
        ("(;B[aa]W)", 1, 9, "no value"),
        ("(;B[aa][bb])", 1, 8, "one value"),
        ("(;B[aa]W[bb])", 1, 8, "two moves"),
        ("(;B[aa];AW[cc])", 1, 9, "after the first move is not supported"),
        ("(;B[a\\]a])", 1, 4, "not an SGF point"),
        ("(;B[aa])", None, None, None),
        ("(;C[x]C[y])", 1, 7, "twice"),
        ("(;SZ[1])", 1, 5, "not supported"),
        ("(;SZ[x])", 1, 5, "not a board size"),
        ("(;AB[aa][aa])", 1, 9, "twice"),
        ("(;PL[X])", 1, 5, "not a colour"),
        ("(;HA[two])", 1, 5, "number of stones"),
        ("(;B[aa]\n  (;W[bb]) (;W[cc];B[ \\]))", 2, 21, "value not closed"),
        ("(;B[aa]()", 1, 9, "empty game tree"),
        ("(;B[aa]#)", 1, 8, "unexpected character"),
        ("([x];B[aa])", 1, 1, "no game tree"),
        ("(;1B[aa])", 1, 3, "unexpected character"),
    ],
)
def test_errors_name_line_and_column(text, line, column, words):
    if words is None:
        parse(text)
        return
    with pytest.raises(SgfError) as info:
        parse(text)
    err = info.value
    codes = {"off the 19x19": "unknown-vertex", "not supported": "board-size"}
    expected_code = codes.get(words, "sgf-syntax")
    assert isinstance(err, InputError) and err.code == expected_code
    assert words in err.message
    assert (err.location.path, err.location.line, err.location.column) == ("t.sgf", line, column)
    assert str(err).startswith(f"t.sgf:{line}:{column}: ")


def test_read_sgf(tmp_path):
    f = tmp_path / "g.sgf"
    f.write_text("(;SZ[9]KM[6.5];B[ee])", encoding="utf-8")
    rec = read_sgf(f)
    assert rec.width == 9 and rec.moves == ((BLACK, 40),) and rec.path == str(f)
    with pytest.raises(SgfError, match="cannot read"):
        read_sgf(tmp_path / "missing.sgf")


def test_record_is_frozen():
    rec = parse("(;B[aa])")
    with pytest.raises(AttributeError):
        rec.width = 9  # type: ignore[misc]


def test_a_long_game_is_read_whole():
    """A 304-move 19x19 record: every move read, in order (speed is benchmarks/collection.py's, not a
    test's)."""
    pairs = [(a, b) for a in "abcdefghijklmnopqrs" for b in "abcdefgh"]
    body = "".join(f";B[{a}{b}];W[{b}{a}]" for a, b in pairs)
    rec = parse(f"(;FF[4]GM[1]SZ[19]KM[7.5]{body})")
    assert len(rec.moves) == 2 * 19 * 8
    assert rec.moves[0] == parse(f"(;SZ[19];B[{pairs[0][0]}{pairs[0][1]}])").moves[0]
    assert rec.moves[-1] == parse(f"(;SZ[19];W[{pairs[-1][1]}{pairs[-1][0]}])").moves[0]


def test_alternating_puts_in_the_missing_passes():
    rec = parse("(;SZ[5];B[aa];B[bb];W[cc];W[dd];B[ee])")
    assert rec.alternating() == (
        (BLACK, 0),
        (WHITE, None),
        (BLACK, 6),
        (WHITE, 12),
        (BLACK, None),
        (WHITE, 18),
        (BLACK, 24),
    )
    rec = parse("(;SZ[5]PL[W];B[aa])")
    assert rec.alternating() == ((WHITE, None), (BLACK, 0))


def test_setup_and_move_in_one_node():
    assert parse("(;SZ[3]B[bb]AW[aa])").setup == {0: WHITE}
    assert parse("(;SZ[3]B[bb]AW[aa])").moves == ((BLACK, 4),)


# -- hardening (issue 12): linear and small, a size limit, nothing after the game tree ----------


def test_a_long_comment_costs_memory_linear_in_its_size():
    """A value is scanned with str.find, not a per-character regex alternation (which held about
    230 bytes of memory per input byte)."""
    import tracemalloc

    comment = "x" * 200_000 + "\\]" * 50_000
    text = f"(;SZ[9]C[{comment}];B[aa])"
    tracemalloc.start()
    try:
        rec = parse(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert rec.moves == ((BLACK, 0),)
    assert peak < 4 * len(text), f"peak {peak:,} bytes for {len(text):,} characters"


def test_escaped_brackets_and_backslash_runs_end_values_where_they_should():
    rec = parse("(;C[a\\\\\\]b\\\\]RE[W+\\\\];B[aa])")  # C = a\]b\ ; RE = W+\
    assert rec.result == "W+\\" and rec.moves == ((BLACK, 0),)


def test_a_file_over_the_size_limit_is_refused_naming_it(tmp_path):
    from jpdtools.records.sgf import MAX_SGF_BYTES

    big = tmp_path / "big.sgf"
    with big.open("wb") as f:
        f.write(b"(;C[")
        f.truncate(MAX_SGF_BYTES + 10)
    with pytest.raises(SgfError) as info:
        read_sgf(big)
    assert str(big) in str(info.value) and "16,777,216 bytes" in str(info.value)
    with pytest.raises(SgfError, match="at most"):
        parse("(;C[" + "x" * MAX_SGF_BYTES + "])")


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("(;B[aa]) junk", 10, "after the game tree"),
        ("(;B[aa]);", 9, "after the game tree"),
        ("(;B[aa]))", 9, "after the game tree"),
        ("(;B[aa])(;W[bb]", 16, "not closed"),
        ("(;B[aa]) (;W[bb]#)", 17, "unexpected character"),
    ],
)
def test_text_after_the_game_tree_is_an_error(text, column, words):
    with pytest.raises(SgfError) as info:
        parse(text)
    assert words in info.value.message and info.value.location.column == column


def test_a_gb2312_record_reads_the_same_in_every_command(tmp_path):
    from jpdtools.records.sgf import read_sgf_file_text

    path = tmp_path / "gb.sgf"
    path.write_bytes("(;CA[gb2312]SZ[9]PB[黑棋]C[评论];B[ee])".encode("gb2312"))
    assert "评论" in read_sgf_file_text(path)
    assert read_sgf(path).moves == ((BLACK, 40),)


def test_a_collection_does_not_read_a_record_over_the_size_limit(tmp_path):
    from jpdtools.records.sgf import MAX_SGF_BYTES
    from jpdtools.records.sources import SourceError, find_sources, read_records

    (tmp_path / "ok.sgf").write_text("(;SZ[9];B[ee])", encoding="utf-8")
    with (tmp_path / "big.sgf").open("wb") as f:
        f.truncate(MAX_SGF_BYTES + 1)
    found = {getattr(r, "key", ""): r for r in read_records(find_sources([str(tmp_path)]))}
    big = found[str(tmp_path / "big.sgf")]
    assert isinstance(big, SourceError) and big.code == "too-large"
    assert not isinstance(found[str(tmp_path / "ok.sgf")], SourceError)


def test_move_nodes_read_in_one_step_read_as_any_other_node():
    """The reader takes a plain move node (``;B[pd]``) in one step; the same moves with a comment
    in every node (read property by property) and without locations give the same record."""
    body = ";B[pd] ;W[dd]\n;B[];W[tt](;B[aa];W[bb])(;B[cc])"
    plain = parse_sgf_text(f"(;SZ[19]{body})", "g.sgf")
    commented = parse_sgf_text(f"(;SZ[19]{body.replace(']', ']C[x]')})", "g.sgf")
    quick = parse_sgf_text(f"(;SZ[19]{body})", "g.sgf", locations=False)
    assert plain.moves == commented.moves == quick.moves
    assert [m[1] for m in plain.moves] == [3 * 19 + 15, 3 * 19 + 3, None, None, 0, 20]
    assert [(loc.line, loc.column) for loc in plain.move_locations][:4] == [(1, 11), (1, 18), (2, 3), (2, 7)]
    assert quick.move_locations == ()
    with pytest.raises(SgfError, match="a node after a variation"):
        parse_sgf_text("(;SZ[9](;B[aa]);W[bb])", "g.sgf")


def test_the_library_converts_sgf_points_both_ways_and_refuses_what_is_not_one():
    """jpdref's own SGF coordinates (Geometry.from_sgf/to_sgf, for library users and the exports):
    ``aa`` is the top-left corner, the first letter the column; anything else is a CoordinateError."""
    from jpdref.coords import CoordinateError

    g = Geometry(5, 3)
    assert g.from_sgf("aa") == 0 and g.from_sgf("ba") == 1 and g.from_sgf("ab") == 5
    assert [g.to_sgf(p) for p in (0, 1, 5, 14)] == ["aa", "ba", "ab", "ec"]
    assert all(g.from_sgf(g.to_sgf(p)) == p for p in range(g.area))
    for text in ("1a", "a1", "abc", "a", "", "fa", "ad"):
        with pytest.raises(CoordinateError):
            g.from_sgf(text)
