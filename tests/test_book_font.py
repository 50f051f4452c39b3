"""The book's CJK font cut once and kept in the user's cache folder (jpdtools.book.font.cut): read
back for the same font, characters and code, made again for anything else, and believed only when
sealed with the user's secret key and whole."""

import os

import pytest
from jpdtools import diskcache
from jpdtools.book import font as book_font
from jpdtools.book.font import CACHE_KEEP, CACHE_PREFIX, FontSource, cache_key, cut, find_source, is_woff2

CHARS = set("计枰点")


@pytest.fixture
def real_source() -> FontSource:
    found = find_source()
    if found is None:
        pytest.skip("no Noto CJK font here (apt-get install fonts-noto-cjk)")
    return found


@pytest.fixture
def dirs(tmp_path) -> diskcache.CacheDirs:
    folder = tmp_path / "cache"
    secret = diskcache.secret_key(folder)
    assert secret is not None
    return diskcache.CacheDirs((folder,), folder, secret)


def _woff2(chars) -> bytes:
    """A stand-in for a cut font (a whole WOFF2 file by its header), one for each character set."""
    body = "".join(sorted(chars)).encode()
    return b"wOF2" + b"\0" * 4 + (48 + len(body)).to_bytes(4, "big") + b"\0" * 36 + body


@pytest.fixture
def cuts(monkeypatch) -> list:
    """The character sets :func:`jpdtools.book.font.subset` is asked to cut, in order (cut by the
    stand-in: what is checked here is the cache around it)."""
    made: list = []

    def counted(source, chars):
        made.append(frozenset(chars))
        return _woff2(chars)

    monkeypatch.setattr(book_font, "subset", counted)
    return made


@pytest.fixture
def source(tmp_path) -> FontSource:
    """A full font by its bytes (all the cache reads of it)."""
    path = tmp_path / "full.ttc"
    path.write_bytes(b"a full font")
    return FontSource(path, 2)


def _entry(dirs, source, chars=CHARS):
    return dirs.write / f"{CACHE_PREFIX}{cache_key(source, chars).hex()}.entry"


def test_a_second_cut_of_the_same_characters_is_read_back(source, dirs, cuts):
    first = cut(source, CHARS, dirs)
    assert first == _woff2(CHARS) and _entry(dirs, source).is_file()
    assert cut(source, CHARS, dirs) == first
    assert cuts == [frozenset(CHARS)]
    other = cut(source, CHARS | {"棋"}, dirs)
    assert other == _woff2(CHARS | {"棋"}) and cuts == [frozenset(CHARS), frozenset(CHARS | {"棋"})]
    assert cut(source, CHARS, diskcache.CacheDirs()) == first and len(cuts) == 3  # no cache: cut


def test_the_cut_is_the_real_subset_whether_made_or_read_back(real_source, dirs):
    made = cut(real_source, CHARS, dirs)
    assert is_woff2(made) and made == book_font.subset(real_source, CHARS)
    assert cut(real_source, CHARS, dirs) == made


@pytest.mark.parametrize("secret", ["none", "another"])
def test_an_entry_not_sealed_with_the_users_key_is_not_believed(source, dirs, cuts, secret):
    """A program under test can write the user's cache folder and knows the key (a public hash):
    its font, sealed with the plain digest or another key, is made again and overwritten."""
    key = cache_key(source, CHARS)
    planted = b"wOF2" + b"\0" * 4 + (52).to_bytes(4, "big") + b"\0" * 40
    assert is_woff2(planted)
    forged = diskcache.encode(planted, key, secret=None if secret == "none" else os.urandom(32))
    _entry(dirs, source).write_bytes(forged)
    made = cut(source, CHARS, dirs)
    assert made != planted and is_woff2(made) and cuts == [frozenset(CHARS)]
    assert cut(source, CHARS, dirs) == made and len(cuts) == 1


@pytest.mark.parametrize(
    "payload",
    [b"not a font", b"wOF2" + b"\0" * 60, "计枰点", None],
    ids=["text", "wrong-length", "not-bytes", "none"],
)
def test_a_sealed_entry_that_is_not_a_whole_woff2_font_is_made_again(source, dirs, cuts, payload):
    key = cache_key(source, CHARS)
    _entry(dirs, source).write_bytes(diskcache.encode(payload, key, secret=dirs.secret))
    made = cut(source, CHARS, dirs)
    assert is_woff2(made) and made != payload and cuts == [frozenset(CHARS)]


def test_a_truncated_entry_is_made_again(source, dirs, cuts):
    whole = cut(source, CHARS, dirs)
    entry = _entry(dirs, source)
    entry.write_bytes(entry.read_bytes()[:-10])
    assert cut(source, CHARS, dirs) == whole and len(cuts) == 2


def test_the_key_follows_the_font_file_its_face_and_the_characters(tmp_path):
    a, b = tmp_path / "a.ttc", tmp_path / "b.ttc"
    a.write_bytes(b"one font")
    b.write_bytes(b"one font")
    assert cache_key(FontSource(a, 0), CHARS) == cache_key(FontSource(b, 0), CHARS)
    keys = {
        cache_key(FontSource(a, 0), CHARS),
        cache_key(FontSource(a, 2), CHARS),
        cache_key(FontSource(a, 0), CHARS | {"棋"}),
        cache_key(FontSource(a, 0), set()),
    }
    b.write_bytes(b"one font, another version")
    keys.add(cache_key(FontSource(b, 0), CHARS))
    assert len(keys) == 5


def test_the_cache_keeps_a_few_fonts_and_nothing_else_is_removed(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    for n in range(CACHE_KEEP + 3):
        entry = folder / f"{CACHE_PREFIX}{n:064x}.entry"
        entry.write_bytes(b"x")
        os.utime(entry, (1000 + n, 1000 + n))
    others = [folder / f"{'a' * 64}.entry", folder / "font-notes.txt"]
    for other in others:
        other.write_bytes(b"y")
        os.utime(other, (1, 1))
    diskcache.prune_named(folder, CACHE_PREFIX, CACHE_KEEP)
    fonts = sorted(p.name for p in folder.glob(f"{CACHE_PREFIX}*.entry"))
    assert fonts == [f"{CACHE_PREFIX}{n:064x}.entry" for n in range(3, CACHE_KEEP + 3)]
    assert all(other.exists() for other in others)


def test_is_woff2_reads_the_signature_and_the_length():
    whole = b"wOF2" + b"\0" * 4 + (48).to_bytes(4, "big") + b"\0" * 36
    assert is_woff2(whole)
    assert not is_woff2(whole[:-1]) and not is_woff2(whole + b"\0")
    assert not is_woff2(b"wOFF" + whole[4:]) and not is_woff2(b"")
