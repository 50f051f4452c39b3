"""``jpd explain|count|play --lang zh``: the commands' text in Chinese, from the same catalogues
and glossary as the book. Each command writes its lines as it always does; :func:`text_zh` then
renders each line (the key words of a heading, a verdict in the ruleset's own terms, the
implementation's lines by :mod:`.lines`), and :func:`cell_zh` a table's heads and cells.
Identifiers, coordinates, boards and figures stay as they are; a line nothing here knows is left
in English."""

import re

from jpdtools.book.lang import ZH
from jpdtools.book.lang.glossary import WORDS_ZH, cell_text
from jpdtools.book.lang.lines import MARK, line_zh, message_zh
from jpdtools.book.lang.sources import SOURCES_ZH

HEADS = {
    "file": "文件",
    "status": "审议状态",
    "spec": "条款",
    "seeds": "原始条文",
    "tags": "标签",
    "note": "说明",
    "depends": "取决于的规则轴",
    "open": "待定",
    "board after": "这一步之后的棋盘",
    "end": "终局",
    "verdicts": "判定",
    "count": "计算",
    "settling": "实战解决",
    "history": "各步之前的着手",
    "ruleset": "规则集",
    "method": "计算方法",
    "unit": "单位",
    "black": "黑",
    "white": "白",
    "komi": "贴目",
    "margin": "差额",
    "winner": "胜方",
    "step": "步",
    "action": "着手",
    "verdict": "判定",
    "effect": "效果",
    "stones removed": "提走的子",
    "refused actions": "被拒绝的着手",
}
STATUS = {"proposed": "待审", "accepted": "已通过", "disputed": "有异议", "rejected": "已否决"}
OUTCOME = {"pass": "通过", "fail": "不符", "open": "待定", "skip": "不适用", "error": "出错"}
COUNT_WORDS = {
    "winner": "胜方",
    "margin": "差额",
    "black": "黑",
    "white": "白",
    "unit": "单位",
    "B": "黑",
    "W": "白",
}
PARTS = {
    "stones": "棋子",
    "territory": "围空",
    "seki eyes": "双活的眼",
    "one-sided liberties": "单方气点",
    "claimed": "主张所得",
    "half of shared and dame": "公气与单官的一半",
    "half of dame": "单官的一半",
    "empty reaching only black": "只通向黑子的空点",
    "empty reaching only white": "只通向白子的空点",
    "dead stones": "死子",
    "prisoners": "提子",
    "half of split points": "平分点的一半",
    "roads": "路",
}
METHODS = {
    "area": "数子法",
    "japanese": "日韩计目法",
    "tromp-taylor": "Tromp-Taylor 计盘面",
    "equal-stones": "等子比空",
    "equal-empty": "等空比子",
    "ing": "应氏填满计点",
    "ing-balanced": "应氏填满计点（004 第六项变体）",
    "art": "等子比目",
    "roads": "等子比路",
}

_NAMES = re.compile(r"[a-z][a-z0-9-]*(?::[\w=,.+-]+)?(?:, [a-z][a-z0-9-]*(?::[\w=,.+-]+)?)*")


def _action(text: str) -> str:
    return " ".join(
        WORDS_ZH.get(w, w) if w in ("B", "W", "pass", "virtual", "resign") else w for w in text.split()
    )


def _verdicts(rest: str, rules=None) -> str | None:
    """``expected X; observed Y  [mark]`` with X and Y in the glossary's terms."""
    m = re.fullmatch(r"expected (.+); observed (.+?)  \[(.+)\]", rest)
    if m is None:
        return None

    def said(text: str) -> str:
        if text.startswith("winner "):
            return " ".join(COUNT_WORDS.get(w, w) for w in text.split())
        return "-" if text == "-" else cell_text(text, ZH, rules)

    return f"预期 {said(m[1])}；实际 {said(m[2])}  [{MARK.get(m[3], m[3])}]"


def _figures(side: str, rest: str) -> str | None:
    m = re.fullmatch(r"(-?[\d.]+) (\S+)(?: \((.*)\))?", rest)
    if m is None:
        return None
    parts = ""
    if m[3]:
        items = []
        for part in re.split(r", | \+ ", m[3]):
            name, _, value = part.rpartition(" ")
            items.append(f"{PARTS.get(name, name)} {value}")
        parts = "（" + "，".join(items) + "）"
    return f"{COUNT_WORDS.get(side.lower(), side)}：{m[1]} {m[2]}{parts}"


def _sources(text: str) -> str | None:
    """``axis: SOURCE`` (``NAME: axis: SOURCE; axis: SOURCE`` for one ruleset of several) with
    each source as the book's Chinese renders it; None unless every source has a rendering."""
    m = re.fullmatch(rf"(?:({_NAMES.pattern}): )?([a-z][a-z-]*: .+)", text)
    if m is None:
        return None
    said = []
    for part in re.split(r"; (?=[a-z][a-z-]*: )", m[2]):
        axis, _, source = part.partition(": ")
        if source not in SOURCES_ZH:
            return None
        said.append(f"{axis}：{SOURCES_ZH[source]}")
    return (f"{m[1]}：" if m[1] else "") + "；".join(said)


def line_cli_zh(line: str, rules=None) -> str:
    """One line of a command's text in Chinese (as it is where nothing here knows it); ``rules``:
    the ruleset the line speaks of, whose own term names a refusal by repetition."""
    body = line.lstrip(" ")
    pad = line[: len(line) - len(body)]
    if not body:
        return line
    said = line_zh(body)
    if said is not None:
        return pad + said
    verdict = _verdicts(body, rules)
    if verdict is not None:
        return pad + verdict
    m = re.fullmatch(r"initial position: (\d+x\d+), ([BW]) to move(.*)", body)
    if m:
        return f"{pad}初始局面：{m[1]}，{WORDS_ZH[m[2]]}先走{m[3]}"
    m = re.fullmatch(r"(\d+x\d+), ([BW]) to move", body)
    if m:
        return f"{pad}{m[1]}，{WORDS_ZH[m[2]]}先走"
    m = re.fullmatch(r"step (\d+): (.+)", body)
    if m:
        return f"{pad}第 {m[1]} 步：{_action(m[2])}"
    m = re.fullmatch(r"decided by (.+)", body)
    if m:
        return f"{pad}依据：" + m[1].replace("; then ", "；其次 ").replace("; ", "；")
    said = _sources(body)
    if said is not None:
        return pad + said
    m = re.fullmatch(r"method (\S+), unit (\S+); komi: (.+)", body)
    if m:
        return f"{pad}计算方法：{METHODS.get(m[1], m[1])}，单位：{m[2]}；贴目：{line_zh(m[3]) or m[3]}"
    m = re.fullmatch(r"(black|white|Black|White): (.+)", body)
    if m and _figures(m[1], m[2]):
        return pad + _figures(m[1], m[2])
    m = re.fullmatch(r"counted board \(X O stones, b w owned empty points, - split or nobody's\):", body)
    if m:
        return f"{pad}计算时的棋盘（X O 棋子，b w 归属的空点，- 平分或无归属）："
    m = re.fullmatch(r"komi: (-?[\d.]+) points — (.+)", body)
    if m:
        return f"{pad}贴目：{m[1]} 点 — {line_zh(m[2]) or m[2]}"
    m = re.fullmatch(r"margin: (-?[\d.]+) points \((?:(Black|White) by ([\d.]+)|even)\); winner (\S+)", body)
    if m:
        lead = f"{COUNT_WORDS[m[2].lower()]}多 {m[3]}" if m[2] else "相等"
        return f"{pad}差额：{m[1]} 点（{lead}）；胜方 {COUNT_WORDS.get(m[4], m[4])}"
    m = re.fullmatch(r"no count: (.+)", body)
    if m:
        return f"{pad}不予计算：{message_zh(m[1]) or m[1]}"
    m = re.fullmatch(r"([a-z][\w:=,.+-]*): (\S+), komi (\S+)", body)
    if m and m[2] in METHODS:
        return f"{pad}{m[1]}：{METHODS[m[2]]}，贴目 {m[3]}"
    m = re.fullmatch(r"status: (\S+)", body)
    if m:
        return f"{pad}审议状态：{STATUS.get(m[1], m[1])}"
    m = re.fullmatch(r"([a-z][a-z ]*):(?: (.*))?", body)
    if m and m[1] in HEADS:
        return f"{pad}{HEADS[m[1]]}：{m[2] or ''}".rstrip()
    m = re.fullmatch(rf"({_NAMES.pattern}): (pass|fail|open|skip|error)", body)
    if m:
        return f"{pad}{m[1]}：{OUTCOME[m[2]]}"
    m = re.fullmatch(rf"({_NAMES.pattern}): (expected .+)", body)
    if m and _verdicts(m[2], rules):
        return f"{pad}{m[1]}：{_verdicts(m[2], rules)}"
    return line


def text_zh(text: str, presets=None) -> str:
    """A command's whole text, line by line, in Chinese; with ``presets``, the verdicts under a
    group of rulesets (``jpd-2022, chinese:``) in the terms of the group's first ruleset."""
    out, rules = [], None
    for line in text.split("\n"):
        group = re.fullmatch(rf"\s*({_NAMES.pattern}):(?: expected .*)?", line)
        if group and presets is not None:
            first = group[1].split(", ")[0]
            rules = presets.get(first) if first in presets.names else None
        out.append(line_cli_zh(line, rules))
    return "\n".join(out)


def cell_zh(text: str) -> str:
    """A table's head or cell in Chinese."""
    if text in HEADS:
        return HEADS[text]
    if text in METHODS:
        return METHODS[text]
    m = re.fullmatch(r"halted \((\S+)\): to count", text)
    if m:
        return f"休止（{WORDS_ZH.get(m[1], m[1])}）：待计算"
    m = re.fullmatch(r"(contest|handicap), ([BW]) to move", text)
    if m:
        return f"{'对局中' if m[1] == 'contest' else '摆让子'}，轮{WORDS_ZH[m[2]]}"
    m = re.fullmatch(r"ok(?: x(.*?))?(?: self-x(.*))?", text)
    if m:
        said = "合法"
        said += f" 提 {m[1]}" if m[1] else ""
        return said + (f" 自提 {m[2]}" if m[2] else "")
    m = re.fullmatch(r"(\S+) \((void: pass|loses)\)", text)
    if m:
        return f"{cell_text(m[1], ZH)}（{'作放弃' if m[2] == 'void: pass' else '判负'}）"
    return cell_text(text, ZH)
