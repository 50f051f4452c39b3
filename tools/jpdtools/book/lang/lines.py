# ruff: noqa: E501 -- patterns and their Chinese kept whole, one line each
"""The lines the implementation writes about a count and a settling stage (the count's steps, the
komi, the agreement and counters, the settling lines, the reasons a count is refused), in Chinese:
one pattern per kind of line, the figures, points and codes carried over. Shared by the book's
Chinese edition and ``jpd explain|count|play --lang zh``. A line no pattern knows stays English
(:func:`line_zh` gives None; the book marks it as a fallback)."""

import re
from collections.abc import Callable

from jpdtools.book.lang.glossary import WORDS_ZH, cell_text

COLOUR = {"B": "黑", "W": "白", "black": "黑", "white": "白", "none": "无"}


def _c(word: str) -> str:
    return COLOUR.get(word, word)


def _verdict(text: str) -> str:
    from jpdtools.book.lang import ZH

    return "-" if text == "-" else cell_text(text, ZH)


MARK = {"ok": "符合", "FAIL": "不符", "open": "待定", "no claim": "未声明", "-": "-"}

AGREEMENT_PART = {
    "dead": "死子",
    "seki": "双活",
    "dame": "单官",
    "shared": "公气",
    "black owns": "归黑",
    "white owns": "归白",
    "claims": "主张",
}
COUNTER = {
    "moves": "着数（黑/白）",
    "passes": "放弃（黑/白）",
    "virtual": "虚着（黑/白）",
    "prisoners": "提子（黑/白）",
    "handicap": "让子",
    "first-pass": "先放弃者",
    "last-move": "最后一手实着",
    "settling": "实战解决中的着数",
}
CLAIM_KIND = {"ko": "单劫不粘", "one-sided": "单方权利单官"}


def _claims(text: str) -> str:
    """``B ko D3, W one-sided C5`` → ``黑 单劫不粘 D3，白 单方权利单官 C5``."""
    if text == "none":
        return "无"
    out = []
    for part in text.split(", "):
        words = part.split()
        out.append(" ".join(_c(w) if i == 0 else CLAIM_KIND.get(w, w) for i, w in enumerate(words)))
    return "，".join(out)


def _agreement(text: str) -> str:
    if text == "none":
        return "无"
    out = []
    for part in text.split("; "):
        for key, zh in sorted(AGREEMENT_PART.items(), key=lambda kv: -len(kv[0])):
            if part.startswith(key + " "):
                rest = part[len(key) + 1 :]
                out.append(f"{zh} {_claims(rest) if key == 'claims' else rest}")
                break
        else:
            return ""
    return "；".join(out)


def _counters(text: str) -> str:
    out = []
    for part in text.split("; "):
        key, _, value = part.partition(" ")
        if key not in COUNTER:
            return ""
        out.append(f"{COUNTER[key]} {_c(value)}")
    return "；".join(out)


Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]


def _rule(pattern: str, make: Callable[[re.Match[str]], str]) -> Rule:
    return re.compile(pattern + r"\Z"), make


V = r"([A-HJ-Z]\d{1,2}(?:,? [A-HJ-Z]\d{1,2})*)"  # points
N = r"(-?[\d./¼½¾]+)"  # a figure

RULES: tuple[Rule, ...] = (
    # the agreement and the counters (jpdtools.review.explanation.agreement_lines)
    _rule(r"agreement: (.+)", lambda m: f"约定：{_agreement(m[1])}" if _agreement(m[1]) else ""),
    _rule(r"counters: from play", lambda m: "计数：按对局所下"),
    _rule(
        r"counters: (.+) \(the others from play\)",
        lambda m: f"计数：{_counters(m[1])}（其余按对局所下）" if _counters(m[1]) else "",
    ),
    # the count's steps (jpdref.counting)
    _rule(
        rf"([BW]) area {N} 子, ([BW]) area {N} 子, 归本数 {N}",
        lambda m: f"{_c(m[1])}方子空 {m[2]} 子，{_c(m[3])}方子空 {m[4]} 子，归本数 {m[5]}",
    ),
    _rule(
        rf"([BW]) turns {N} empty point\(s\) into stones: both sides keep {N} empty point\(s\) and {N} shared",
        lambda m: f"{_c(m[1])}将 {m[2]} 个空点换为子：双方各留 {m[3]} 个空点，公有 {m[4]} 个",
    ),
    _rule(
        rf"([BW]): {N} A-class negative move\(s\) at {V} \(points split\)",
        lambda m: f"{_c(m[1])}：A类负着 {m[2]} 手，在 {m[3]}（其点平分）",
    ),
    _rule(
        rf"([BW]): {N} B-class negative move\(s\) at {V}",
        lambda m: f"{_c(m[1])}：B类负着 {m[2]} 手，在 {m[3]}",
    ),
    _rule(
        rf"([BW]): {N} stone\(s\) to fill back, {N} filled",
        lambda m: f"{_c(m[1])}：应回填 {m[2]} 子，已填 {m[3]} 子",
    ),
    _rule(
        rf"([BW]): {N} stone\(s\) to fill back, {N} filled, {N} do not fit",
        lambda m: f"{_c(m[1])}：应回填 {m[2]} 子，已填 {m[3]} 子，{m[4]} 子填不下",
    ),
    _rule(
        rf"([BW]): balancing the overflow, {N} filled stone\(s\) taken back",
        lambda m: f"{_c(m[1])}：为平衡溢出，取回已填的 {m[2]} 子",
    ),
    _rule(
        rf"{N} point\(s\) in seki count for nobody \(双活无目\)",
        lambda m: f"双活中的 {m[1]} 个点不归任何一方（双活无目）",
    ),
    _rule(
        rf"{N} stone\(s\) and {N} split point\(s\) divided equally, whatever the counts",
        lambda m: f"{m[1]} 子与 {m[2]} 个平分点，不论数目，双方平分",
    ),
    _rule(
        rf"back to 子空合计 \(([^)]*)\): B {N} points, W {N} points",
        lambda m: f"还原为子空合计（{m[1]}）：黑 {m[2]} 点，白 {m[3]} 点",
    ),
    _rule(
        rf"basic eye points: B {N}, W {N}; shared liberties not counted",
        lambda m: f"基本眼位：黑 {m[1]}，白 {m[2]}；公气不计",
    ),
    _rule(
        rf"equal stones: {N} each; split points {N} \(half each\)",
        lambda m: f"等子：各 {m[1]} 子；平分点 {m[2]} 个（各得一半）",
    ),
    _rule(rf"filled: B {N} stones, W {N} stones", lambda m: f"回填后：黑 {m[1]} 子，白 {m[2]} 子"),
    _rule(
        rf"komi {N} points = {N} 子: Black needs more than {N}",
        lambda m: f"贴目 {m[1]} 点 = {m[2]} 子：黑须多于 {m[3]}",
    ),
    _rule(
        rf"living stones: B {N}, W {N} \(total {N}\)", lambda m: f"活子：黑 {m[1]}，白 {m[2]}（共 {m[3]}）"
    ),
    _rule(
        rf"stones put down: B − W = {N}, of which {N} while settling \(多下不贴点\)",
        lambda m: f"所下之子：黑 − 白 = {m[1]}，其中实战解决中 {m[2]}（多下不贴点）",
    ),
    _rule(
        r"the agreement is ignored: every stone on the board counts", lambda m: "不按协商：盘上每个子都计入"
    ),
    _rule(
        r"the stones could not be equalised on the board; living stones are compared directly",
        lambda m: "盘上无法使双方子数相等；直接比较活子",
    ),
    # the komi (jpdref.counting.komi)
    _rule(rf"Black gives {N} for moving first \(([^)]*)\)", lambda m: f"黑先行贴 {m[1]}（{m[2]}）"),
    _rule(
        rf"{N} in even games \(AGA Rule (\d+), (\d+)\)", lambda m: f"分先贴 {m[1]}（AGA Rule {m[2]}，{m[3]}）"
    ),
    _rule(
        rf"{N} in even games \(AGA komi since (\d+)\)", lambda m: f"分先贴 {m[1]}（AGA {m[2]} 年起的贴目）"
    ),
    _rule(rf"{N} points, Black wins a tie \(Ing rules\)", lambda m: f"贴 {m[1]} 点，和数黑胜（应氏规则）"),
    _rule(rf"{N} whoever passed first \(([^)]*)\)", lambda m: f"不论谁先放弃，贴 {m[1]}（{m[2]}）"),
    _rule(
        rf"{N}, and {N} more: Black made the last move",
        lambda m: f"{m[1]}，另加 {m[2]}：黑下了最后一手（黑收后）",
    ),
    _rule(rf"{N}: Black passed or played virtual first", lambda m: f"{m[1]}：黑先放弃或先下虚着"),
    _rule(rf"{N}: White passed or played virtual first", lambda m: f"{m[1]}：白先放弃或先下虚着"),
    _rule(rf"{N}; Black did not make the last real move", lambda m: f"{m[1]}；最后一手实着不是黑下的"),
    _rule(rf"{N} stones = {N} points \(([^)]*)\)", lambda m: f"{m[1]} 子 = {m[2]} 点（{m[3]}）"),
    _rule(rf"a fixed komi of {N} points", lambda m: f"固定贴目 {m[1]} 点"),
    _rule(rf"handicap {N}: White gets back {N} stones", lambda m: f"让 {m[1]} 子：白还回 {m[2]} 子"),
    _rule(
        rf"handicap {N}: White moved first and last, gives {N}",
        lambda m: f"让 {m[1]} 子：白先行且收后，贴 {m[2]}",
    ),
    _rule(rf"handicap {N}: no komi", lambda m: f"让 {m[1]} 子：不贴目"),
    _rule(
        rf"handicap {N}: no komi, a tie is a draw \((OQ-\d+)\)",
        lambda m: f"让 {m[1]} 子：不贴目，和数为和棋（{m[2]}）",
    ),
    _rule(
        rf"handicap {N}: ½, and {N} for each handicap stone after the first \(AGA Rules ([^,]*), area counting\)",
        lambda m: f"让 {m[1]} 子：贴 ½，第一子之后每让一子再加 {m[2]}（AGA Rules {m[3]}，数子）",
    ),
    _rule(r"no komi", lambda m: "不贴目"),
    # the settling stage (jpdtools.review.explanation.settle_lines)
    _rule(
        r"claims upheld: (.+); rejected: (.+)",
        lambda m: f"主张成立：{_claims(m[1])}；被驳回：{_claims(m[2])}",
    ),
    _rule(
        r"upheld on a filled point: (.+?) — the claimer's stone stands on it and is counted, not the claim; "
        r"the art judgment divides all stones equally: worth nothing \(004 補棋损点损目: 收则损点损目\)",
        lambda m: (
            f"成立但该点已被填上：{_claims(m[1])}——站在该点上的是宣称方的棋子，按棋子计算，不按宣称计算；"
            "艺术版判例把全部棋子平分：一目不值（004 補棋损点损目：收则损点损目）"
        ),
    ),
    _rule(
        r"upheld on a filled point: (.+?) — the claimer's stone stands on it and is counted, not the claim; "
        r"the method counts it as that stone",
        lambda m: (
            f"成立但该点已被填上：{_claims(m[1])}——站在该点上的是宣称方的棋子，按棋子计算，不按宣称计算；计算方法把它算作那颗棋子"
        ),
    ),
    _rule(
        r"halt stones captured in the stage: (.+)",
        lambda m: f"休止时的棋子在实战中被提：{'无' if m[1] == 'none' else m[1]}",
    ),
    _rule(r"procedure (\S+)", lambda m: f"实战解决程序 {m[1]}"),
    _rule(
        r"proved: (alive|dead) (.+?)  \[(.+)\]",
        lambda m: f"证明：{'活' if m[1] == 'alive' else '死'} {m[2]}  [{MARK.get(m[3], m[3])}]",
    ),
    _rule(
        r"proved: (upheld|rejected) (.+?)  \[(.+)\]",
        lambda m: f"证明：{'成立' if m[1] == 'upheld' else '驳回'} {_claims(m[2])}  [{MARK.get(m[3], m[3])}]",
    ),
    _rule(
        r"refused: (\S+) — (.+?)  \[(.+)\]",
        lambda m: f"拒绝：{m[1]} — {message_zh(m[2]) or m[2]}  [{MARK.get(m[3], m[3])}]",
    ),
    _rule(
        r"settle (\d+): ([BW]) (\S+): expected (.+); observed (.+?)  \[(.+)\]",
        lambda m: (
            f"实战第 {m[1]} 步：{_c(m[2])} {WORDS_ZH.get(m[3], m[3]) if m[3] in ('pass', 'virtual', 'resign') else m[3]}：预期 {_verdict(m[4])}；实际 {_verdict(m[5])}  [{MARK.get(m[6], m[6])}]"
        ),
    ),
    _rule(
        r"settle-end: expected (.+); observed (.+?)  \[(.+)\]",
        lambda m: f"实战结束：预期 {_verdict(m[1])}；实际 {_verdict(m[2])}  [{MARK.get(m[3], m[3])}]",
    ),
    _rule(
        rf"settled \(the stage's real \+ virtual moves\): B {N} W {N}",
        lambda m: f"实战解决（该阶段的实着与虚着）：黑 {m[1]}，白 {m[2]}",
    ),
)

MESSAGES: tuple[Rule, ...] = (
    _rule(
        rf"claim-no-stone at {V}: no (black|white) stone is next to the point",
        lambda m: f"claim-no-stone，{m[1]}：该点旁没有{_c(m[2])}子",
    ),
    _rule(
        rf"claim-not-empty at {V}: a claim names a point holding a living stone",
        lambda m: f"claim-not-empty，{m[1]}：主张所指的点上有活子",
    ),
    _rule(
        rf"claim-not-in-rules at {V}: (\S+) has no (ko|one-sided) claim \((.+)\)",
        lambda m: f"claim-not-in-rules，{m[1]}：{m[2]} 没有{CLAIM_KIND[m[3]]}的主张（{m[4]}）",
    ),
    _rule(
        rf"claim-not-seki at {V}: a one-sided claim \(单方权利单官\) must name a point next to a seki chain",
        lambda m: f"claim-not-seki，{m[1]}：单方权利单官的主张必须指向双活棋块旁的点",
    ),
    _rule(
        rf"claim-twice at {V}: two claims name the same point",
        lambda m: f"claim-twice，{m[1]}：两项主张指向同一点",
    ),
    _rule(
        rf"dead-and-seki at {V}: a chain is marked both dead and in seki",
        lambda m: f"dead-and-seki，{m[1]}：同一棋块既标为死子又标为双活",
    ),
    _rule(
        rf"dead-in-own-area at {V}: dead stones whose freed points only their own colour borders",
        lambda m: f"dead-in-own-area，{m[1]}：标为死子，但提走后空出的点只与其本方棋子相接",
    ),
    _rule(
        rf"(dead|seki)-on-empty at {V}: the agreement marks a point with no stone",
        lambda m: f"{m[1]}-on-empty，{m[2]}：约定所标的点上没有棋子",
    ),
    _rule(r"no settling procedure for '(\S+)'", lambda m: f"{m[1]} 没有实战解决程序"),
    _rule(
        r"no-boundary-stone: (black|white) has no boundary stone for an A-class negative move",
        lambda m: f"no-boundary-stone：{_c(m[1])}没有可作A类负着的边界子",
    ),
    _rule(
        r"no-first-pass: the (\S+) komi needs a first pass or virtual move",
        lambda m: f"no-first-pass：{m[1]} 的贴目需要有先放弃或先下虚着的一方",
    ),
    _rule(
        r"no-interior-stone: (black|white) has no inside stone for a B-class negative move",
        lambda m: f"no-interior-stone：{_c(m[1])}没有可作B类负着的内部子",
    ),
    _rule(
        r"only a halted game can be settled \(this one is (\S+)\)",
        lambda m: f"只有已休止的对局才能实战解决（本局状态：{WORDS_ZH.get(m[1], m[1]).rstrip('，轮：')}）",
    ),
    _rule(
        rf"overflow: (black|white) cannot leave {N} stones off the board to balance the overflow",
        lambda m: f"overflow：{_c(m[1])}无法留 {m[2]} 子在盘外以平衡溢出",
    ),
    _rule(
        rf"override-not-mixed at {V}: only a point both colours border can be dame",
        lambda m: f"override-not-mixed，{m[1]}：只有与双方棋子都相接的点才能是单官",
    ),
    _rule(
        rf"owned-contradicts at {V}: a point agreed to be (black|white)'s in a region only (black|white) borders",
        lambda m: f"owned-contradicts，{m[1]}：约定归{_c(m[2])}的点在只与{_c(m[3])}子相接的区域中",
    ),
    _rule(
        rf"owned-twice at {V}: a point is agreed to be both sides'",
        lambda m: f"owned-twice，{m[1]}：同一点被约定为双方所有",
    ),
    _rule(
        r"the settling ended without counting: ([BW])\+ \((\S+)\)",
        lambda m: f"实战解决以不计算而结束：{_c(m[1])}胜（{WORDS_ZH.get(m[2], m[2])}）",
    ),
    _rule(r"the settling stage has not halted", lambda m: "实战解决阶段尚未休止"),
    _rule(r"under (\S+) the side to move at the halt starts", lambda m: f"{m[1]} 下由休止时轮走的一方先走"),
    _rule(
        rf"unequal-stones: after fill-back and negative moves B has {N} stones, W {N}: the counters do not account for the stones on the board",
        lambda m: f"unequal-stones：回填与负着之后黑 {m[1]} 子，白 {m[2]} 子：计数与盘上的子不符",
    ),
)


def _apply(rules: tuple[Rule, ...], text: str) -> str | None:
    for pattern, make in rules:
        m = pattern.match(text)
        if m:
            return make(m) or None
    return None


def line_zh(text: str) -> str | None:
    """The Chinese of a line the implementation writes (None: no pattern knows it)."""
    return _apply(RULES, text) or _apply(MESSAGES, text)


def message_zh(text: str) -> str | None:
    """The Chinese of a reason a count or a settling stage is refused."""
    return _apply(MESSAGES, text)
