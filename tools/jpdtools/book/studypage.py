"""The research table of ``jpd study``: the agreement matrix at a glance, the causes of every
difference with one example game each, drawn with the book's one board renderer.

Two forms. :func:`study_page` is self-contained (its style inline, no script, nothing fetched), in
English and 简体中文 side by side, since ``jpd study --out`` writes it to be read on its own.
:func:`study_index` and :func:`cause_page` are the same table as pages of the book (``jpd book
--study FILE``), each in its edition's language: ``study/index.html`` and one page per cause with
the theorem it comes from and its example game. Every text goes through ``esc``.
"""

from jpdtools.book.lang import EN, Language
from jpdtools.book.page import clause_href, esc, link, page, table
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
CAUSE_FILES = {
    "komi": "komi",
    "收后": "last-move",
    "passes": "passes",
    "seki": "seki",
    "basic eye points": "basic-eye-points",
    "no agreement": "no-agreement",
    "fill-back overflow": "fill-back-overflow",
    "refusal": "refusal",
    "unexplained": "unexplained",
}
"""The file of each cause's page in ``study/`` (ASCII names for what the table calls them)."""
CAUSE_SOURCES = {
    "komi": "count.komi",
    "收后": "count.theorems",
    "passes": "count.theorems",
    "seki": "count.theorems",
    "basic eye points": "count.theorems",
    "no agreement": "count.theorems",
    "fill-back overflow": "count.fill-back",
    "refusal": "count.replay",
    "unexplained": "count.theorems",
}
"""The clause each cause is read off (spec/counting.md)."""

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


# -- the study as pages of the book -----------------------------------------------------------


def _cause_name(cause: str, lang: Language) -> str:
    return esc(CAUSE_ZH.get(cause, cause)) if lang.code == "zh" else esc(cause)


def cause_href(cause: str) -> str:
    return f"{CAUSE_FILES.get(cause, 'cause')}.html"


def _book_matrix(result: dict, key: str, lang: Language) -> str:
    names = list(result["rulesets"])
    pairs = {(p["a"], p["b"]): p for p in result["pairs"]}
    rows = []
    for a in names:
        cells = [esc(a)]
        for b in names:
            p = pairs.get((a, b)) or pairs.get((b, a))
            if a == b or not p:
                cells.append('<span class="diag">–</span>')
                continue
            same, both = p[key], p["both"]
            cls = "all" if same == both else "most" if same * 10 >= both * 9 else "few"
            title = lang.s("study.cell", same=same, both=both)
            cells.append(
                f'<span class="{cls}" title="{esc(title)}">{100 * same // both if both else 0}%</span>'
            )
        rows.append(cells)
    head = ["", *(f'<span class="vert">{esc(n)}</span>' for n in names)]
    return '<div class="scroll">' + table(head, rows, "matrix study") + "</div>"


def _totals(result: dict) -> dict[str, int]:
    causes: dict[str, int] = {}
    for p in result["pairs"]:
        for k, v in p["causes"].items():
            causes[k] = causes.get(k, 0) + v
    return causes


def study_index(result: dict, lang: Language = EN) -> str:
    """``study/index.html`` of an edition: the matrices, the causes (each linked to its page),
    the record's own score."""
    root = "../"
    unexplained = len(result["unexplained"])
    cause_rows = [
        (link(cause_href(k), CAUSE_ZH.get(k, k) if lang.code == "zh" else k), str(v))
        for k, v in _totals(result).items()
    ]
    engine = result["engine_score"]
    engine_rows = [
        (esc(d["record"]), esc(d["ruleset"]), esc(d["re"]), esc(d["jpd"]), esc(d["cause"]))
        for d in engine["differ"]
    ]
    theorems = link(clause_href("count.theorems", root), "count.theorems")
    body = [
        f"<h1>{lang.t('study.title')}</h1>",
        "<p>"
        + lang.t(
            "study.summary", records=result["records"], komi=result["komi_source"], unexplained=unexplained
        )
        + "</p>",
        f"<h2>{lang.t('study.same-winner')}</h2>",
        _book_matrix(result, "same_winner", lang),
        f"<h2>{lang.t('study.same-margin')}</h2>",
        _book_matrix(result, "same_margin", lang),
        f"<h2>{lang.t('study.causes')}</h2>",
        f"<p>{lang.h('study.causes.intro', theorems=theorems)}</p>",
        table([lang.t("study.col.cause"), lang.t("study.col.games")], cause_rows),
        f"<h2>{lang.t('study.engine')}</h2>",
        f"<p>{lang.t('study.engine.equal', equal=engine['equal'], compared=engine['compared'])}</p>",
        '<div class="scroll">'
        + table(
            [
                lang.t(k)
                for k in (
                    "study.col.record",
                    "col.ruleset",
                    "study.col.re",
                    "study.col.jpd",
                    "study.col.cause",
                )
            ],
            engine_rows,
        )
        + "</div>",
    ]
    return page(lang, lang.s("study.title"), "".join(body), "study/index.html")


def cause_page(result: dict, cause: str, lang: Language = EN) -> str:
    """``study/CAUSE.html``: the pairs of rulesets whose games differ by this cause, the clause it
    is read off, and its example game drawn under both rulesets."""
    root = "../"
    anchor = CAUSE_SOURCES.get(cause, "count.theorems")
    pairs = [
        (esc(p["a"]), esc(p["b"]), str(p["both"]), str(p["causes"][cause]))
        for p in result["pairs"]
        if cause in p["causes"]
    ]
    d = result["examples"].get(cause)
    example = ""
    if d is not None:
        boards = []
        for name, winner, margin, komi, rows in zip(
            (d["a"], d["b"]), d["winner"], d["margin"], d["komi"], d["boards"], strict=True
        ):
            said = lang.t("study.example.count", ruleset=name, winner=winner, margin=margin, komi=komi)
            drawn = _board(rows, f"{d['record']} — {name}")
            boards.append(f'<figure class="ex">{drawn}<figcaption>{said}</figcaption></figure>')
        shares = ", ".join(f"{_cause_name(k, lang)} {esc(v)}" for k, v in d["causes"].items())
        example = (
            f"<h2>{lang.t('study.example')}</h2>"
            f"<p>{lang.t('study.example.record', record=d['record'], a=d['a'], b=d['b'])} {shares}</p>"
            f'<div class="overview">{"".join(boards)}</div>'
        )
    body = [
        f"<h1>{_cause_name(cause, lang)}</h1>",
        f"<p>{lang.h('study.cause.source', clause=link(clause_href(anchor, root), anchor))}</p>",
        f"<h2>{lang.t('study.cause.pairs')}</h2>",
        table(
            [
                lang.t("study.col.a"),
                lang.t("study.col.b"),
                lang.t("study.col.both"),
                lang.t("study.col.differ"),
            ],
            pairs,
        ),
        example,
        f"<p>{link('index.html', lang.s('study.back'))}</p>",
    ]
    title = CAUSE_ZH.get(cause, cause) if lang.code == "zh" else cause
    return page(lang, title, "".join(body), f"study/{cause_href(cause)}")


def study_pages(result: dict, lang: Language = EN):
    """(path inside the edition, text) of the study's pages."""
    yield "study/index.html", study_index(result, lang)
    for cause in _totals(result) | result["examples"]:
        yield f"study/{cause_href(cause)}", cause_page(result, cause, lang)
