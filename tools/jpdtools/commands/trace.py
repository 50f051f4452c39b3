"""``jpd trace ARTICLE|CLAUSE|CASE-ID [--json]``: the chain seed article → clauses → cases, and back.

An ARTICLE is any citation the table ``spec/sources.yaml`` resolves (``"000 §22"``,
``"000 §13–14"``, ``"003 四虚终局"``, ``"J1989 Art. 6"``): for each article named, its quotation,
the clauses implementing it with the cases citing each, and the cases and clauses citing the
article. A CLAUSE anchor (``rep.no-retreat``) prints the articles it implements, its Sources
line and its cases; a CASE-ID what each of its citations names and its clauses' articles.

Exit status 0, or 2 when the query names nothing (or a file cannot be read).
"""

import argparse
import json
from pathlib import Path

from jpdtools.exitcodes import SUCCESS
from jpdtools.paths import conformance_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.review.anchors import spec_anchors
from jpdtools.review.sources import SOURCES_FILE, clause_sources, load_sources
from jpdtools.review.trace import ArticleTrace, ClauseInfo, ClauseTrace, Suite, to_json, trace
from jpdtools.run.runner import default_loader, load_files

SHOWN = 8  # case ids shown per list in the text form (all of them with --json)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "query", metavar="ARTICLE|CLAUSE|CASE-ID", help='e.g. "000 §22", rep.no-retreat, board.occupied.001'
    )
    parser.add_argument("--json", action="store_true", help="print the trace as JSON (every case id)")
    parser.add_argument(
        "--suite", type=Path, metavar="DIR", help="the case files to trace through (default: conformance/)"
    )


def run(args: argparse.Namespace) -> int:
    folder = spec_dir()
    table = load_sources(folder / SOURCES_FILE)
    files, _failures = load_files([args.suite or conformance_dir()], load_presets(), default_loader())
    anchors = {a.name: ClauseInfo(a.name, a.heading, a.file, a.line) for a in spec_anchors(folder).values()}
    result = trace(args.query, Suite.of(table, anchors, clause_sources(folder, table), files))
    if args.json:
        print(json.dumps(to_json(result), ensure_ascii=False, indent=2))
    elif result.kind == "article":
        print("\n\n".join("\n".join(_article_lines(a)) for a in result.articles))
    elif result.kind == "clause":
        print("\n".join(_clause_lines(result.clauses[0])))
    elif result.case is not None:
        c = result.case
        lines = [f"{c.case_id} — {c.title}", f"file: {c.file}"]
        if c.status != "accepted":
            lines.append(f"status: {c.status}")
        lines.append("seeds:")
        lines += [f"  {s}  → {', '.join(ids) or '(unresolved)'}" for s, ids in c.citations]
        for clause in c.clauses:
            lines += ["", *_clause_lines(clause, cases=False)]
        print("\n".join(lines))
    return SUCCESS


def _ids(ids: tuple[str, ...]) -> str:
    if not ids:
        return "none"
    more = f" (+{len(ids) - SHOWN} more)" if len(ids) > SHOWN else ""
    return ", ".join(ids[:SHOWN]) + more


def _where(info: ClauseInfo) -> str:
    return f"spec/{info.file}:{info.line}" if info.file else "(not in spec/*.md)"


def _article_lines(t: ArticleTrace) -> list[str]:
    a = t.article
    if t.sentence is not None:  # the query named one sentence: it, and what rests on it
        lines = [f"{a.sentence_id(t.sentence)}  ({t.title})", f"  “{t.sentence.quote}”"]
        if t.sentence.non_normative:
            lines.append(f"  non-normative: {t.sentence.non_normative}")
    else:
        lines = [f"{a.id}  ({t.title})", f"  “{a.quote}”"]
        if a.non_normative:
            lines.append(f"  non-normative: {a.non_normative}")
    for link in t.clauses:
        c = link.clause
        lines.append(f"  → {c.anchor}  {c.heading}  {_where(c)}")
        lines.append(f"      cases ({len(link.cases)}): {_ids(link.cases)}")
    lines.append(f"  cited by clauses: {', '.join(t.cited_by_clauses) or 'none'}")
    lines.append(f"  cited by cases ({len(t.cited_by_cases)}): {_ids(t.cited_by_cases)}")
    return lines


def _clause_lines(t: ClauseTrace, cases: bool = True) -> list[str]:
    c = t.clause
    lines = [f"{c.anchor}  {c.heading}  {_where(c)}"]
    for a in t.articles:
        lines.append(f"  ← {a.id}  “{a.quote}”")
    if not t.articles:
        lines.append("  ← no article of spec/sources.yaml maps to it")
    if t.sources_line:
        lines.append(f"  Sources: {t.sources_line}")
    if cases:
        lines.append(f"  cases ({len(t.cases)}): {_ids(t.cases)}")
    return lines
