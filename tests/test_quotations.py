"""Quotations honest: a public source's rule is shown in its own words only where a seed records
them (the Chinese rules as 004 gives them), else as this project's words, labelled so — the English
in the English edition, the project's Chinese rendering in the Chinese one; never an English text
marked as Chinese. Seeds are quoted as written and carry no rendering."""

import re
from pathlib import Path

import pytest
from jpdtools.book.lang import EN, ZH
from jpdtools.book.quotes import rule_html
from jpdtools.book.seeds import SeedArticle, SeedSentence
from jpdtools.errors import InputError
from jpdtools.paths import spec_dir
from jpdtools.review.sources import SOURCES_FILE, load_sources, pinpoint
from jpdtools.review.traceability import check_renderings

HAN = re.compile(r"[\u3400-\u9fff]")
MARKED = re.compile(r'<(\w+)[^>]*lang="zh-Hans"[^>]*>(.*?)</\1>')


def _han_majority(html: str) -> bool:
    for _tag, text in MARKED.findall(html):
        if len(HAN.findall(text)) * 2 < len(re.findall(r"[A-Za-z]", text)):
            return False
    return True


def test_every_public_rule_has_chinese_and_its_wording_names_a_seed_sentence():
    table = load_sources(spec_dir() / SOURCES_FILE)
    assert check_renderings(table) == []
    public = [(a, s) for src in table.sources if not src.is_seed for a in src.articles for s in a.sentences]
    assert len(public) >= 40 and all(s.zh for _, s in public)
    worded = {a.id: s.wording for a, s in public if s.wording}
    assert worded["Chinese rules Art. 5"] == "004 Chinese summary 提子/3"
    [pin] = pinpoint(table, worded["Chinese rules Art. 5"])
    assert "禁着点" in pin.sentence.quote
    assert all(not HAN.search(s.quote) or len(HAN.findall(s.quote)) < 12 for _, s in public)  # English


def test_a_seed_takes_no_rendering(tmp_path: Path):
    text = (spec_dir() / SOURCES_FILE).read_text(encoding="utf-8")
    changed = text.replace(
        '        quote: "2、棋盘上的361个枰点，永远都是地。"\n',
        '        quote: "2、棋盘上的361个枰点，永远都是地。"\n        zh: "重写"\n',
        1,
    )
    assert changed != text
    path = tmp_path / "sources.yaml"
    path.write_text(changed, encoding="utf-8")
    with pytest.raises(InputError, match="quoted as written"):
        load_sources(path)


PUBLIC = SeedArticle("AGA", "AGA Rules", "AGA Rule 7", "A pass is always legal.")
PASS = SeedSentence("", "A pass is always legal.", ("turn.pass",), zh="放弃总是合法的。")
CHINESE = SeedArticle(
    "Chinese rules", "中国围棋竞赛规则", "Chinese rules Art. 5", "A point … is forbidden (禁着点)."
)
WORDED = SeedSentence(
    "",
    "A point … is forbidden (禁着点).",
    zh="……是禁着点。",
    wording="这个点叫做“禁着点”",
    wording_id="004 Chinese summary 提子/3",
)
SEED = SeedArticle("000", "000", "000 §2", "棋盘上的361个枰点，永远都是地。")


@pytest.mark.parametrize("tag", ["blockquote", "span"])
def test_a_public_rule_in_each_edition(tag):
    en = rule_html(PUBLIC, PASS, EN, tag=tag)
    assert 'lang="en"' in en and "this project" in en and "zh-Hans" not in en
    zh = rule_html(PUBLIC, PASS, ZH, tag=tag)
    assert "放弃总是合法的。" in zh and "本项目译述" in zh and "A pass" not in zh and _han_majority(zh)
    worded = rule_html(CHINESE, WORDED, ZH, tag=tag)
    assert (
        "这个点叫做“禁着点”" in worded and "004 Chinese summary 提子/3" in worded and "本项目" not in worded
    )
    worded_en = rule_html(CHINESE, WORDED, EN, tag=tag)
    assert "禁着点”" in worded_en and "this project" in worded_en and _han_majority(worded_en)


def test_a_seed_is_quoted_as_written():
    html = rule_html(SEED, SeedSentence("", SEED.quote), ZH)
    assert html == '<blockquote lang="zh-Hans">棋盘上的361个枰点，永远都是地。</blockquote>'
