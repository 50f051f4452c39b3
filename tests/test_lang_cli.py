"""``jpd explain|count|play --lang zh``: the commands' text in Chinese from the book's catalogues
and glossary (each ruleset's own term for a refusal by repetition), the English unchanged."""

from jpdtools.cli import main

DIAGRAM = "5x5 B\n. X O . .\n. X O . .\n. X O . .\n. X O . .\n. X O . .\n"


def run(capsys, *argv) -> str:
    main(list(argv))
    return capsys.readouterr().out


def test_explain_in_chinese_names_each_rulesets_refusal(capsys):
    en = run(capsys, "explain", "ko.simple.001")
    assert en == run(capsys, "explain", "ko.simple.001", "--lang", "en")
    zh = run(capsys, "explain", "ko.simple.001", "--lang", "zh")
    assert "在棋盘中央立即回提单子劫" in zh.splitlines()[0]  # the case's own Chinese title
    assert "初始局面：7x7，黑先走" in zh and "第 2 步：白 C4" in zh
    after = zh.split("第 2 步：白 C4", 1)[1]
    jpd = after.split("\n  jpd-2022:\n", 1)[1].split("\n", 1)[0]
    assert "非法：禁倒退 轮白" in jpd and "[符合]" in jpd  # 000 §22, not 全局同形再现
    assert "expected" not in zh and "observed" not in zh


def test_count_and_play_in_chinese(capsys, tmp_path):
    diagram = tmp_path / "p.txt"
    diagram.write_text(DIAGRAM, encoding="utf-8")
    zh = run(capsys, "count", str(diagram), "--rules", "chinese", "--lang", "zh")
    assert "规则集" in zh and "数子法" in zh and "黑方子空 10 子，白方子空 15 子" in zh
    assert "差额：-12.5 点（白多 12.5）；胜方 白" in zh
    play = run(
        capsys,
        "play",
        "--size",
        "5",
        "--moves",
        "B C3 W pass B pass",
        "--rules",
        "jpd-2022+chinese",
        "--lang",
        "zh",
    )
    assert "5x5，黑先走" in play and "白 放弃" in play and "休止（两弃）：待计算" in play
    assert "halted" not in play


def test_an_upheld_claim_on_a_filled_point_says_why_it_is_worth_nothing(capsys):
    # spec/counting.md#count.settling: under jpd-art-2 the claimer's stone on its one-sided point
    # upholds the claim and is counted as a stone, shared by the equal division (004 補棋损点损目)
    en = run(capsys, "explain", "settle.art-2.one-sided.filled")
    assert "proved: upheld B one-sided C5  [ok]" in en
    assert "upheld on a filled point: B one-sided C5 — the claimer's stone stands on it" in en
    assert "worth nothing (004 補棋损点损目: 收则损点损目)" in en
    zh = run(capsys, "explain", "settle.art-2.one-sided.filled", "--lang", "zh")
    assert (
        "成立但该点已被填上：黑 单方权利单官 C5" in zh and "一目不值（004 補棋损点损目：收则损点损目）" in zh
    )
    assert "upheld on a filled point" not in zh
    # the independent test of jpd-art-2008 restores the halt board: nothing is filled there
    assert "filled point" not in run(capsys, "explain", "settle.one-sided.001")


def test_explain_in_chinese_heads_each_clause_with_its_chinese_twin(capsys):
    zh = run(capsys, "explain", "ko.simple.001", "--lang", "zh")
    assert "  rep.no-retreat  禁倒退  (spec/zh/play.md:" in zh
    assert "  oq.9  OQ-9：" in zh and "(spec/zh/open-questions.md:" in zh
    assert "依据：rep.no-retreat — 禁倒退；repetition=no-retreat" in zh
    assert "repetition：000 §22 禁倒退；不得以颗子自尽回应颗子自尽" in zh  # the ruleset's source
    assert "No retreat" not in zh and "Simple ko" not in zh and "the ban on" not in zh
    owned = run(capsys, "explain", "count.territory.owned.002", "--lang", "zh")
    assert "  count.agreement.owned  空点的确认归属  (spec/zh/counting.md:" in owned  # in running text
    en = run(capsys, "explain", "ko.simple.001")
    assert "  rep.no-retreat  No retreat  (spec/play.md:" in en


def test_a_refusal_by_repetition_without_a_preset_is_named_by_its_clause():
    from jpdtools.book.lang import ZH
    from jpdtools.book.lang.glossary import TERMS, cell_text
    from jpdtools.presets import load_presets

    presets = load_presets()
    said = {
        name: cell_text("illegal superko", ZH, presets.get(name))
        for name in ("chinese:illegal-move=refuse", "aga:illegal-move=refuse")
    }
    assert said == {"chinese:illegal-move=refuse": "非法：禁全同", "aga:illegal-move=refuse": "非法：禁还原"}
    assert cell_text("illegal superko", ZH) == "非法：超级劫"  # no ruleset: the spec's generic word
    [superko] = [t for t in TERMS if t.key == "superko"]
    assert superko.zh_words.startswith("超级劫") and "全局同形" not in superko.zh_words
