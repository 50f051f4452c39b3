# ruff: noqa: E501 -- strings and scripts are kept whole, one line each
"""The verdict vocabulary of the book, in English and Chinese: every word a verdict cell, an end
cell or a count cell uses (the grammar's words, spec/case.lark), and what it means; and each
ruleset's own name for the refusal the grammar calls ``superko`` (jpd-2022's 禁倒退, 000 §22, is
not 000 §22's 禁全同). The glossary page lists them; every verdict cell links to the entry of its
first word; the Chinese edition and ``jpd explain --lang zh`` write a cell in these terms."""

import re
from dataclasses import dataclass
from html import escape

from jpdtools.book.lang import EN, Language


@dataclass(frozen=True)
class Term:
    key: str  # the anchor of the entry: "superko", "ended-illegal-move"
    words: str  # as a cell writes it: "superko", "ended illegal-move B"
    en: str
    zh_words: str
    zh: str


TERMS = (
    Term("legal", "legal", "The action is played as asked.", "合法", "这一着按所下的那样成立。"),
    Term(
        "illegal",
        "illegal REASON",
        "The action is refused for REASON; the same player is still to move, nothing changes.",
        "非法（原因）",
        "这一着因所列原因被拒绝；仍由同一方下，局面不变。",
    ),
    Term(
        "void-pass",
        "void-pass REASON",
        "The action is not played and counts as a pass by that player (the rules turn the illegal move into a pass).",
        "无效着（视为放弃）",
        "这一着不成立，按该方放弃一次处理（规则把非法着手当作放弃）。",
    ),
    Term(
        "forfeit",
        "forfeit REASON",
        "The action breaks the rule, and the player who made it loses the game at once.",
        "判负",
        "这一着违反规则，下这一着的一方立即被判负。",
    ),
    Term(
        "captures",
        "captures V…",
        "Stones of the opponent taken off the board (their points).",
        "提子",
        "被提走的对方棋子（所在的点）。",
    ),
    Term(
        "self-captures",
        "self-captures V…",
        "The player's own stones taken off by the move: a suicide the rules allow.",
        "自提",
        "这一着使己方棋子被提走：规则允许的自尽。",
    ),
    Term("to-move", "to-move B|W", "Who is to move after the step.", "轮走方", "这一步之后轮到哪一方下。"),
    Term("occupied", "occupied", "The point already holds a stone.", "已有棋子", "该点上已经有子。"),
    Term("off-board", "off-board", "The point is not on the board.", "盘外", "该点不在棋盘上。"),
    Term("out-of-turn", "out-of-turn", "It is the other player's turn.", "不是轮走方", "此时应由对方下。"),
    Term("game-over", "game-over", "The game has already ended.", "对局已结束", "对局已经结束，不能再下。"),
    Term(
        "pass-not-allowed",
        "pass-not-allowed",
        "These rules have no pass.",
        "不许放弃",
        "该规则不允许放弃着子。",
    ),
    Term(
        "virtual-not-allowed",
        "virtual-not-allowed",
        "These rules have no virtual move.",
        "不许虚着",
        "该规则没有虚着。",
    ),
    Term(
        "suicide",
        "suicide",
        "The move would leave its own chain without liberties, capturing nothing.",
        "自尽",
        "这一着使己方棋块无气，且没有提掉对方棋子。",
    ),
    Term(
        "ko",
        "ko",
        "The move retakes a ko at once (simple ko).",
        "劫（立即回提）",
        "立即回提一个劫（单劫规则）。",
    ),
    Term(
        "superko",
        "superko",
        "The move would bring back an earlier position; which positions count is the ruleset's own rule, under its own name (the table of refusals below: jpd-2022's 禁倒退 is not 禁全同).",
        "超级劫（各规则自有其名）",
        "这一着会使以前出现过的棋形再次出现；哪些棋形算数、此禁叫什么，由各规则自己规定（见下面的拒绝用语表：jpd-2022 的禁倒退不是禁全同）。",
    ),
    Term(
        "handicap-placement",
        "handicap-placement",
        "A handicap stone placed where the rules do not allow.",
        "让子摆放不合规",
        "让子摆放在规则不允许的位置。",
    ),
    Term(
        "contest",
        "contest B|W",
        "Play goes on; the colour is who is to move.",
        "对局进行中",
        "对局仍在进行；颜色表示轮到哪一方。",
    ),
    Term(
        "halted",
        "halted two-passes|four-virtual|two-virtual",
        "Play has halted, and how.",
        "休止",
        "对局已休止，以及休止的方式（两弃、四虚等）。",
    ),
    Term(
        "ended-resignation",
        "ended resignation B|W",
        "The colour resigned: the other wins.",
        "认输终局",
        "所列一方认输，另一方胜。",
    ),
    Term(
        "ended-illegal-move",
        "ended illegal-move B|W",
        "The game ended because the colour made an illegal move and lost by it (a forfeit).",
        "违规判负终局",
        "所列一方下了非法着手而被判负，对局终止。",
    ),
    Term(
        "ended-cycle",
        "ended cycle draw|no-result",
        "The game ended in a cycle, ruled a draw or no result.",
        "循环终局",
        "对局因循环而终止，判和棋或无胜负。",
    ),
    Term(
        "margin",
        "W by 0.5 points = 0.25 子",
        "A count: the winner and the margin in points (点), and where the method counts in another unit the same margin in it (area counting against the 归本数: 1 子 = 2 points).",
        "胜负与差额",
        "计算结果：胜方与以点计的差额；若该方法另有计量单位，再给出同一差额按该单位的数值（数子法对归本数：1 子 = 2 点）。",
    ),
    Term(
        "unit-点",
        "点",
        "A point of the board, the unit of the 计枰点 rules.",
        "点",
        "枰点，计枰点规则的计量单位。",
    ),
    Term(
        "unit-目",
        "目",
        "A point of territory, the unit of territory counting.",
        "目",
        "目，计目法的计量单位。",
    ),
    Term(
        "unit-子",
        "子",
        "A stone (or its point), the unit of stone counting; 1 子 = 2 目 between two sides.",
        "子",
        "子，数子法的计量单位；双方之间 1 子相当于 2 目。",
    ),
    Term("unit-路", "路", "A road point, the unit of jhz-2022.", "路", "路点，等子比路法的计量单位。"),
)

RULESET_NAMES_ZH = {
    "jpd-2022": "计枰点规则科学计目法（2022）",
    "jpd-art-2008": "计枰点大规则艺术版（2008）",
    "jhz-2022": "计活子规则等子比路法（2022）",
    "jpd-a": "计枰点规则 A 版",
    "jpd-b": "计枰点规则 B 版",
    "jpd-art-2": "计枰点规则艺术版（其二）",
    "chinese": "中国围棋竞赛规则（2002）",
    "japanese": "日本围棋规约（1989）",
    "ing": "应氏围棋规则（1996）",
    "aga": "美国围棋协会规则",
    "wmsg-2008": "2008 世界智力运动会围棋规则",
    "tromp-taylor": "Tromp-Taylor 规则",
}
"""Every preset's name in Chinese (the English title is the preset's own, spec/rulesets.yaml)."""


def term_for(cell: str) -> str:
    """The glossary entry a verdict cell's text leads to (its first word, ``ended X`` as one)."""
    words = cell.split()
    if not words:
        return ""
    if words[0] == "ended" and len(words) > 1:
        return f"ended-{words[1]}"
    if words[0] in ("B", "W", "draw"):
        return "margin"
    known = {t.key for t in TERMS}
    return words[0] if words[0] in known else ""


@dataclass(frozen=True)
class Refusal:
    """A ruleset's own name for a refusal by repetition, and the seed or rule that gives it."""

    zh: str
    en: str
    source: str


REFUSALS = {
    "jpd-2022": Refusal("禁倒退", "no retreat (禁倒退)", "000 §22"),
    "jhz-2022": Refusal("禁止全局棋形再现", "no global position again", "002 §21"),
    "jpd-a": Refusal("禁全同（全局棋形）", "禁全同 on global positions", "003"),
    "jpd-b": Refusal("禁全同（全局棋形）", "禁全同 on global positions", "003"),
    "jpd-art-2": Refusal("禁全同", "禁全同 (positional)", "004 第四条"),
    "chinese": Refusal("禁止全局同形再现", "no global repetition", "Chinese rules Art. 6"),
    "ing": Refusal("同形再现（近似应氏劫规）", "repetition (Ing's ko rules approximated)", "OQ-11"),
    "aga": Refusal("同形再现（同一方轮走）", "repetition with the same player to move", "AGA Rule 6"),
    "wmsg-2008": Refusal("禁止全局同形再现", "no global repetition", "WMSG 2008 §1.4"),
    "tromp-taylor": Refusal("禁止全局同形再现", "no global repetition", "Tromp-Taylor rule 6"),
}
"""Each preset's own term for a ``superko`` refusal (the seeds' words where they give them: 000 §22
禁倒退; 004 第四条 禁全同; 003 禁全同 with its 全局棋形; 002 §21 不得使同一个全局棋形再次出现)."""

BY_AXIS = {
    "no-retreat": Refusal("禁倒退", "no retreat (禁倒退)", "000 §22"),
    "positional": Refusal("禁全同", "禁全同 (positional)", "positional"),
    "situational": Refusal("禁还原", "禁还原 (situational)", "situational"),
    "simple-ko": Refusal("劫（不得立即回提）", "simple ko", "simple-ko"),
}
"""The term by the repetition axis alone, for a ruleset that is not a preset (an override): the
name of the axis value's clause (spec/zh/play.md: rep.positional 禁全同, rep.situational 禁还原,
rep.no-retreat 禁倒退)."""

REPETITION = {
    "jpd-2022": "no-retreat",
    "jhz-2022": "positional",
    "jpd-a": "positional",
    "jpd-b": "positional",
    "jpd-art-2": "positional",
    "chinese": "positional",
    "ing": "positional",
    "aga": "situational",
    "wmsg-2008": "positional",
    "tromp-taylor": "positional",
}


def refusal(rules) -> Refusal | None:
    """The name of a ``superko`` refusal under ``rules`` (a preset's own; else its axis's)."""
    if rules is None:
        return None
    axis = rules.values().get("repetition")
    if rules.name in REFUSALS and REPETITION.get(rules.name) == axis:
        return REFUSALS[rules.name]
    return BY_AXIS.get(axis)


WORDS_ZH = {
    "legal": "合法",
    "illegal": "非法：",
    "void-pass": "无效（作放弃）：",
    "forfeit": "判负：",
    "captures": "提",
    "self-captures": "自提",
    "none": "无",
    "to-move": "轮",
    "B": "黑",
    "W": "白",
    "occupied": "已有子",
    "off-board": "盘外",
    "out-of-turn": "不轮走",
    "game-over": "对局已结束",
    "pass-not-allowed": "不许放弃",
    "virtual-not-allowed": "不许虚着",
    "suicide": "自尽",
    "ko": "劫",
    "handicap-placement": "让子摆放不合规",
    "contest": "对局中，轮",
    "handicap": "摆让子，轮",
    "halted": "休止：",
    "two-passes": "两弃",
    "four-virtual": "四虚",
    "two-virtual": "两虚",
    "ended": "终局：",
    "resignation": "认输",
    "illegal-move": "违规",
    "cycle": "循环",
    "draw": "和棋",
    "no-result": "无胜负",
    "|": "或",
    "pass": "放弃",
    "virtual": "虚着",
    "resign": "认输",
    "error": "错误",
    "(any": "（任何",
    "reason)": "原因）",
    "not": "未",
    "reached": "走到",
    "settled:": "实战：",
    "end": "结局：",
    "count": "计算：",
    "refused": "拒绝计算",
    "(ended)": "（已终局）",
    "(unfinished)": "（对局未结束）",
}
"""Each word of the grammar (spec/case.lark) as the Chinese edition writes it; coordinates,
numbers and codes stay as they are."""


def cell_text(text: str, lang: Language = EN, rules=None) -> str:
    """A verdict cell's text (the grammar's words) in ``lang``: under ``rules`` a ``superko``
    refusal is named as that ruleset names it."""
    if lang.code == "en":
        return text
    text = re.sub(r"\bended (illegal-move|resignation) ([BW])\b", lambda m: f"ended {m[2]} {m[1]}", text)
    text = text.replace("not reached", "未走到")
    out = []
    for token in text.split():
        word = token.rstrip(";,")
        tail = token[len(word) :].replace(";", "；").replace(",", "，")
        if word == "superko":
            named = refusal(rules)
            out.append((named.zh if named else "超级劫") + tail)
        else:
            out.append(WORDS_ZH.get(word, word) + tail)
    joined = " ".join(out)
    for tight in ("： ", "， ", "（ ", " ）", "； "):
        joined = joined.replace(tight, tight.strip())
    for colour in ("黑 ", "白 "):
        joined = joined.replace(f"：{colour}", f"：{colour.strip()}")
    joined = joined.replace("：；", "；").replace("：，", "，").removesuffix("：")
    return joined.replace("轮 ", "轮")


def cell_html(text: str, lang: Language = EN, rules=None) -> str:
    return escape(cell_text(text, lang, rules))
