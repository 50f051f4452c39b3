"""The research table of ``jpd study`` as one static page: the agreement matrix at a glance, the
causes of every difference with one example game each, drawn with the book's one board renderer.

Self-contained (its style inline, no script, nothing fetched), in English and 简体中文 side by
side, since it is read on its own as often as inside a book. Every text goes through ``esc``.
"""

from jpdtools.book.page import esc
from jpdtools.book.svg import Picture, board_svg

CAUSE_ZH = {
    "komi": "贴目不同",
    "收后": "收后（最后一手实着）",
    "passes": "对局中的放弃、虚着与让子",
    "seki": "双活的眼与单方气点",
    "basic eye points": "基本眼位（等子比路）",
    "no agreement": "不按协商（Tromp-Taylor 计盘面）",
    "fill-back overflow": "回填溢出",
    "refusal": "拒绝的着手（盘面不同）",
    "unexplained": "无法解释",
}

_STYLE = """
body{font-family:system-ui,"Noto Sans CJK SC",sans-serif;margin:1.5rem;max-width:1400px;color:#111}
table{border-collapse:collapse;margin:.8rem 0}
td,th{border:1px solid #bbb;padding:.25rem .45rem;text-align:center;font-size:.85rem}
th.r{text-align:left}
td.all{background:#d8f0d8} td.most{background:#f3f0c8} td.few{background:#f6d3cf}
.ex{display:inline-block;vertical-align:top;margin:.5rem 1rem .5rem 0}
.ex svg{max-width:320px;height:auto}
.zh{color:#444}
"""


def _cell(same: int, both: int) -> str:
    if not both:
        return "<td>—</td>"
    cls = "all" if same == both else "most" if same * 10 >= both * 9 else "few"
    return f'<td class="{cls}" title="{same} of {both}">{100 * same // both}%</td>'


def _matrix(result: dict, key: str) -> str:
    names = list(result["rulesets"])
    pairs = {(p["a"], p["b"]): p for p in result["pairs"]}
    head = "<tr><th></th>" + "".join(f"<th>{esc(n)}</th>" for n in names) + "</tr>"
    rows = []
    for a in names:
        cells = []
        for b in names:
            p = pairs.get((a, b)) or pairs.get((b, a))
            cells.append("<td>·</td>" if a == b else _cell(p[key], p["both"]) if p else "<td>—</td>")
        rows.append(f'<tr><th class="r">{esc(a)}</th>{"".join(cells)}</tr>')
    return f"<table>{head}{''.join(rows)}</table>"


def _board(rows: str, label: str) -> str:
    board = "/".join(row.replace("b", ".").replace("w", ".").replace("-", ".") for row in rows.split("/"))
    return board_svg(Picture(rows=board, label=label))


def _example(cause: str, d: dict) -> str:
    parts = []
    for name, winner, margin, komi, rows in zip(
        (d["a"], d["b"]), d["winner"], d["margin"], d["komi"], d["boards"], strict=True
    ):
        label = f"{d['record']} under {name}"
        parts.append(
            f'<div class="ex"><div>{esc(name)}: {esc(winner)} {esc(margin)} (komi {esc(komi)})</div>'
            f"{_board(rows, label)}</div>"
        )
    shares = ", ".join(f"{esc(k)} {esc(v)}" for k, v in d["causes"].items())
    return (
        f'<h3>{esc(cause)} <span class="zh">{esc(CAUSE_ZH.get(cause, ""))}</span></h3>'
        f"<p>{esc(d['record'])}: {esc(d['a'])} against {esc(d['b'])} — {shares}</p>{''.join(parts)}"
    )


def study_page(result: dict) -> str:
    """The page for a ``jpd study`` result (its JSON form)."""
    causes = {}
    for p in result["pairs"]:
        for k, v in p["causes"].items():
            causes[k] = causes.get(k, 0) + v
    cause_rows = "".join(
        f'<tr><th class="r">{esc(k)}</th><td>{esc(CAUSE_ZH.get(k, ""))}</td><td>{v}</td></tr>'
        for k, v in causes.items()
    )
    engine = result["engine_score"]
    engine_rows = "".join(
        f"<tr><td>{esc(d['record'])}</td><td>{esc(d['ruleset'])}</td><td>{esc(d['re'])}</td>"
        f"<td>{esc(d['jpd'])}</td><td>{esc(d['cause'])}</td></tr>"
        for d in engine["differ"]
    )
    examples = "".join(_example(cause, d) for cause, d in result["examples"].items())
    unexplained = len(result["unexplained"])
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>jpd study — the compatibility claims measured</title>
<style>{_STYLE}</style></head><body>
<h1>The compatibility claims measured on finished games
<span class="zh" lang="zh-Hans">全兼容的实测</span></h1>
<p>{result["records"]} records; komi: {esc(result["komi_source"])}; unexplained differences: {unexplained}.
<span class="zh" lang="zh-Hans">棋谱 {result["records"]} 局；无法解释的差异：{unexplained}。</span></p>
<h2>Same winner <span class="zh" lang="zh-Hans">胜负相同</span></h2>
{_matrix(result, "same_winner")}
<h2>Same margin <span class="zh" lang="zh-Hans">胜负与差数都相同</span></h2>
{_matrix(result, "same_margin")}
<h2>Causes of the differences <span class="zh" lang="zh-Hans">差异的原因</span></h2>
<p>Each difference between two rulesets' counts of one game, by the compatibility theorems
(spec/counting.md#count.theorems); a game counts once per pair and cause.</p>
<table><tr><th>cause</th><th>原因</th><th>pairs × games</th></tr>{cause_rows}</table>
<h2>The record's own score <span class="zh" lang="zh-Hans">棋谱自带的结果</span></h2>
<p>{engine["equal"]} of {engine["compared"]} equal to jpd's count under the record's rules.</p>
<table><tr><th>record</th><th>ruleset</th><th>RE</th><th>jpd</th><th>cause</th></tr>{engine_rows}</table>
<h2>One example per cause <span class="zh" lang="zh-Hans">每种原因一例</span></h2>
{examples}
</body></html>
"""
