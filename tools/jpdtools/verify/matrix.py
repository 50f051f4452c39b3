"""The compatibility matrix: every verified implementation × ruleset and × clause, on one page.

Input: the verify reports ``reports/<name>/report.json`` (``jpd verify --report-dir``) and, beside
each, the ``expected-failures.txt`` it was run with. Each item of a report lands in one cell of
the implementation's row — its ruleset's column, and the row of every clause its case cites — as a
pass, a failure or a skip. A failure is counted under its **root cause**: for an expected failure,
the class of the expected-failure list its pattern stands under (``# W1. …`` — the classes of
DEVIATIONS.md); else the verify report's own grouping (``root_causes``: the first divergent step,
expected and got, the clause); else its first mismatch, vertices and boards left out. A skip is
counted under its reason, in the harness's words (a missing feature, an axis value, the
program's own ``unsupported``).

The page is static HTML (no scripts): :func:`render`. ``jpd matrix`` writes it.
"""

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from urllib.parse import quote

from jpdtools.errors import InputError, Location, read_text_file

_CLASS = re.compile(r"^#\s*([A-Z][A-Za-z]*\d+[a-z]?)\.\s*(.*)$")
_VERTEX = re.compile(r"\b[A-HJ-Z]\d{1,2}\b")
_BOARD = re.compile(r"[.XO]+(?:/[.XO]+)+")
_TRANSFORM = re.compile(r"[a-z0-9+-]{1,40}")
FAILED = ("unexpected-failure", "expected-failure", "unexpected-pass", "error")
OUTCOMES = ("pass", *FAILED, "open", "skip")


@dataclass(frozen=True)
class Tally:
    """The items of one cell: passes, failures by root cause, skips by reason."""

    passed: int = 0
    failed: tuple[tuple[str, int], ...] = ()
    skipped: tuple[tuple[str, int], ...] = ()
    unexpected: int = 0  # failures not on the expected-failure list, unexpected passes, errors

    @property
    def failures(self) -> int:
        return sum(n for _, n in self.failed)

    @property
    def skips(self) -> int:
        return sum(n for _, n in self.skipped)

    @property
    def state(self) -> str:
        """``empty``, ``skip`` (nothing played), ``pass``, ``known`` (only listed failures) or ``fail``."""
        if not (self.passed or self.failed or self.skipped):
            return "empty"
        if self.unexpected:
            return "fail"
        if self.failed:
            return "known"
        return "pass" if self.passed else "skip"


@dataclass(frozen=True)
class Item:
    """One case × ruleset result as the matrix sees it."""

    case: str
    ruleset: str
    clauses: tuple[str, ...]
    outcome: str
    cause: str  # the root cause (failures), the reason (skips), "" (passes)


@dataclass(frozen=True)
class Implementation:
    name: str  # the report folder's name
    label: str  # what the program calls itself ("goban 8.3.64")
    items: tuple[Item, ...]
    partial: str = ""  # why the report is not of a whole run (interrupted, files not loaded), or ""


def expected_classes(path: Path) -> dict[str, str]:
    """Pattern → the class comment it stands under (``"W1. Repeating.ALL checks nothing"``: the
    comment's first sentence, continuation lines included); empty when it stands under none."""
    out: dict[str, str] = {}
    current, open_comment = "", False
    if not path.is_file():
        return out
    for line in read_text_file(path, "the expected-failure list").splitlines():
        text = line.strip()
        found = _CLASS.match(text)
        if found:
            current, open_comment = f"{found.group(1)}. {found.group(2)}", True
        elif text.startswith("#") and open_comment and len(text) > 1:
            current += " " + text.lstrip("# ")
        elif text and not text.startswith("#"):
            out[text] = _sentence(current)
            open_comment = False
        else:
            open_comment = False
    return out


def _sentence(text: str, limit: int = 160) -> str:
    """The first sentence of a class comment (after its ``W1.`` code), at most ``limit`` characters."""
    code, _, rest = text.partition(". ")
    end = re.search(r"[.;](\s|$)", rest)
    first = rest[: end.start()] if end else rest
    if len(first) > limit:
        first = first[:limit].rsplit(" ", 1)[0] + "…"
    return f"{code}. {first}" if rest else text


def first_mismatch(mismatches: Sequence[dict]) -> str:
    """The first divergent step of an item, vertices and boards left out (``step: expected → got``)."""
    if not mismatches:
        return "no mismatch recorded"
    steps = [m for m in mismatches if m.get("step") is not None]
    if steps:
        first = min(m["step"] for m in steps)
        chosen = [m for m in steps if m["step"] == first]
    else:
        chosen = [mismatches[0]]

    def plain(text: str | None) -> str:
        return _VERTEX.sub("·", _BOARD.sub("(board)", text or "nothing"))

    return "; ".join(f"expected {plain(m['expected'])}, got {plain(m['observed'])}" for m in chosen)


def report_causes(data: dict) -> dict[str, str]:
    """Item (``case[ruleset]``) → its root cause as the verify report groups it (``root_causes``
    and ``expected_root_causes``: the first divergent step, what was expected and got, the clause)."""
    out: dict[str, str] = {}
    groups = [g for key in ("root_causes", "expected_root_causes") for g in _list(data.get(key))]
    for group in groups:
        if not isinstance(group, dict) or not isinstance(group.get("items") or [], list):
            continue
        clauses = group.get("clauses") or ([group["clause"]] if group.get("clause") else [])
        clause = f" ({', '.join(map(str, clauses))})" if clauses else ""
        where, expected, got = group.get("where", "step"), group.get("expected"), group.get("observed")
        text = f"{where}: expected {expected}, got {got}{clause}"
        for item in group.get("items") or ():
            out.setdefault(str(item), text)
    return out


def _cause(result: dict, classes: dict[str, str], label: str, grouped: dict[str, str]) -> str:
    outcome = result["outcome"]
    if outcome == "pass":
        return ""
    if outcome in ("skip", "open"):
        detail = result.get("detail") or outcome
        for prefix in (f"{label}: ", f"{result.get('impl', '')}: "):
            if prefix.strip(": ") and detail.startswith(prefix):
                detail = detail[len(prefix) :]
        return detail
    if outcome == "error":
        return "error: " + (result.get("detail") or "")[:120]
    listed = result.get("expected_failure")
    if listed and classes.get(listed):
        return classes[listed]
    name = f"{result['case']}[{result['ruleset']}]"
    name += f"@{result['transform']}" if result.get("transform") else ""
    if name in grouped:
        return grouped[name]
    return first_mismatch(result.get("mismatches") or [])


def _list(value) -> list:
    return value if isinstance(value, list) else []


def load(report_dir: Path) -> Implementation:
    """One implementation from its report folder (``report.json`` + ``expected-failures.txt``).
    A report that is not a verify report, a result without its case, ruleset or outcome, and an
    item listed twice are InputErrors naming the file and the result."""
    path = report_dir / "report.json"
    text = read_text_file(path, "the verify report")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"not JSON ({err.msg})", Location(str(path), err.lineno, err.colno)) from None
    except RecursionError:
        raise InputError("nested too deeply to be a verify report", Location(str(path))) from None
    if (
        not isinstance(data, dict)
        or data.get("kind") != "verify"
        or not isinstance(data.get("results"), list)
    ):
        kind = data.get("kind") if isinstance(data, dict) else type(data).__name__
        raise InputError(f"not a jpd verify report (kind {kind!r})", Location(str(path)))
    results = [_result(r, n, path) for n, r in enumerate(data["results"])]
    first: dict[tuple[str, str, str], int] = {}
    for n, r in enumerate(results):
        key = (r["case"], r["ruleset"], r["transform"])
        if key in first:
            under = f"@{key[2]}" if key[2] else ""
            raise InputError(
                f"results[{n}]: {key[0]}[{key[1]}]{under} is listed twice (first as results[{first[key]}]): "
                "a report lists each item once (and once under each transform)",
                Location(str(path)),
            )
        first[key] = n
    classes = expected_classes(report_dir / "expected-failures.txt")
    label = str(data.get("implementation") or report_dir.name)
    grouped = report_causes(data)
    items = tuple(
        Item(r["case"], r["ruleset"], r["clauses"], r["outcome"], _cause(r, classes, label, grouped))
        for r in results
    )
    return Implementation(report_dir.name, label, items, _partial(data, len(results)))


def _result(r: object, n: int, path: Path) -> dict:
    """Result ``n`` of a report, checked: a case, a ruleset and an outcome (strings), clauses."""
    where = Location(str(path))
    if not isinstance(r, dict):
        raise InputError(f"results[{n}] is not an object", where)
    for key in ("case", "ruleset", "outcome"):
        if not isinstance(r.get(key), str) or not r[key]:
            raise InputError(f"results[{n}] has no {key!r} (a string)", where)
    if r["outcome"] not in OUTCOMES:
        raise InputError(f"results[{n}]: outcome {r['outcome']!r} is not one of {', '.join(OUTCOMES)}", where)
    clauses = _list(r.get("clauses"))
    if not all(isinstance(c, str) for c in clauses):
        raise InputError(f"results[{n}]: 'clauses' must be a list of strings", where)
    out = {k: v for k, v in r.items() if k in ("case", "ruleset", "outcome", "expected_failure", "detail")}
    out["detail"] = str(r.get("detail") or "")
    out["expected_failure"] = (
        r.get("expected_failure") if isinstance(r.get("expected_failure"), str) else None
    )
    out["mismatches"] = [m for m in _list(r.get("mismatches")) if isinstance(m, dict)]
    out["clauses"] = tuple(clauses)
    transform = r.get("transform")
    if transform is not None and not (isinstance(transform, str) and _TRANSFORM.fullmatch(transform)):
        raise InputError(f"results[{n}]: transform {transform!r} is not a transform's name", where)
    out["transform"] = transform or ""
    return out


def _partial(data: dict, ran: int) -> str:
    """Why the report is not that of a whole run, in words, or "": an interrupted run, case files
    that did not load, fewer results than items planned."""
    summary = data.get("summary") if isinstance(data.get("summary"), dict) else {}
    planned = summary.get("planned")
    why = []
    if data.get("interrupted"):
        why.append("interrupted")
    if isinstance(planned, int) and planned != ran:
        why.append(f"{ran} of {planned} planned items ran")
    not_loaded = len(_list(data.get("load_errors")))
    if not_loaded:
        why.append(f"{not_loaded} case file{'s' if not_loaded > 1 else ''} of the suite did not load")
    return "; ".join(why)


def discover(reports: Path) -> list[Path]:
    """The report folders under ``reports`` (each with a ``report.json``), by name."""
    if not reports.is_dir():
        raise InputError(f"{reports}: no such folder of verify reports")
    found = sorted(p.parent for p in reports.glob("*/report.json"))
    if not found:
        raise InputError(f"{reports}: no */report.json (write them with jpd verify --report-dir)")
    return found


def tally(items: Iterable[Item]) -> Tally:
    passed = unexpected = 0
    failed: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    for item in items:
        if item.outcome == "pass":
            passed += 1
        elif item.outcome in FAILED:
            failed[item.cause] += 1
            unexpected += item.outcome != "expected-failure"
        else:
            skipped[item.cause] += 1
    return Tally(passed, tuple(failed.most_common()), tuple(skipped.most_common()), unexpected)


def by_ruleset(impl: Implementation, named: Iterable[str] | None = None) -> dict[str, Tally]:
    """The cells of one implementation by ruleset; with ``named`` (the columns), every other
    ruleset's items are counted under :data:`VARIANTS`."""
    if named is None:
        names = sorted({i.ruleset for i in impl.items})
        return {name: tally(i for i in impl.items if i.ruleset == name) for name in names}
    keep = set(named)
    columns_of = {i.ruleset: _column_of(i.ruleset, keep) for i in impl.items}
    return {c: tally(i for i in impl.items if columns_of[i.ruleset] == c) for c in set(columns_of.values())}


def by_clause(impl: Implementation) -> dict[str, Tally]:
    names = sorted({c for i in impl.items for c in i.clauses})
    return {name: tally(i for i in impl.items if name in i.clauses) for name in names}


# -- the page ------------------------------------------------------------------------------------

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:96em;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.15em .4em;vertical-align:top}
th{background:#f6f6f6;font-weight:600}td.n{text-align:left;white-space:nowrap}
td.c{text-align:center;font:12px/1.3 ui-monospace,monospace;white-space:nowrap;min-width:4.5em}
.pass{background:#d9f0d9}.known{background:#fff0c2}.fail{background:#f7c9c9}.skip{background:#ececec;color:#777}
.empty{background:#fff;color:#ccc}.partial{background:#f7c9c9;font-weight:600}
.legend span{display:inline-block;padding:0 .6em;margin-right:.4em;border:1px solid #ccc}
th.v{writing-mode:vertical-rl;transform:rotate(180deg);text-align:left;font-weight:500;white-space:nowrap}
ul{margin:.2em 0 .6em}li{margin:.1em 0}code{font:12px/1.3 ui-monospace,monospace}.count{color:#555}
details{margin:.3em 0}summary{cursor:pointer}
"""

LEGEND = (
    ("pass", "every played item passes"),
    ("known", "failures, every one a listed root cause (expected-failures.txt, DEVIATIONS.md)"),
    ("fail", "an unexpected failure or error"),
    ("skip", "nothing played: every item skipped (a feature or axis value the program lacks)"),
    ("empty", "· not run under this ruleset"),
    ("partial", "a partial report: the run was interrupted or some of the suite did not load"),
)


def _title(t: Tally) -> str:
    lines = [f"{t.passed} pass"]
    lines += [f"{n} fail: {cause}" for cause, n in t.failed]
    lines += [f"{n} skip: {cause}" for cause, n in t.skipped]
    return escape("\n".join(lines), quote=True)


def _cell(t: Tally) -> str:
    if t.state == "empty":
        return '<td class="c empty">·</td>'
    text = f"{t.passed}✓ {t.failures}✗" if (t.passed or t.failed) else f"{t.skips} skip"
    return f'<td class="c {t.state}" title="{_title(t)}">{text}</td>'


def _wrapped(ruleset: str) -> str:
    """A variant's name broken after its ``:`` and each ``,`` (the headers are vertical)."""
    return "<br>".join(escape(part) for part in re.split(r"(?<=[:,])", ruleset))


def _ruleset_table(impls: Sequence[Implementation], rulesets: Sequence[str]) -> str:
    head = "".join(f'<th class="v">{_wrapped(r)}</th>' for r in rulesets)
    rows = []
    for impl in impls:
        cells = by_ruleset(impl, rulesets)
        tds = "".join(_cell(cells.get(r, Tally())) for r in rulesets)
        href, label = _href(impl.name, "report.html"), escape(impl.label)
        link = f'<a href="{href}" title="{label}">{escape(impl.name)}</a>'
        if impl.partial:
            link += f' <span class="partial" title="{escape(impl.partial)}">partial</span>'
        rows.append(f'<tr><td class="n">{link}</td>{_cell(tally(impl.items))}{tds}</tr>')
    return (
        f'<table><tr><th>implementation</th><th class="v">all rulesets</th>{head}</tr>{"".join(rows)}</table>'
    )


def _clause_table(impls: Sequence[Implementation]) -> str:
    tables = [by_clause(impl) for impl in impls]
    clauses = sorted({c for t in tables for c in t})
    head = "".join(f'<th class="v">{escape(i.name)}</th>' for i in impls)
    rows = []
    for clause in clauses:
        tds = "".join(_cell(t.get(clause, Tally())) for t in tables)
        rows.append(f'<tr><td class="n"><code>{escape(clause)}</code></td>{tds}</tr>')
    return f"<table><tr><th>clause</th>{head}</tr>{''.join(rows)}</table>"


def _href(folder: str, name: str) -> str:
    """A link to ``name`` in a report folder: relative, every character of the folder's name that
    could make it a scheme (``javascript:``) or another path percent-encoded."""
    return escape(f"./{quote(folder, safe='')}/{name}", quote=True)


def _causes(impl: Implementation) -> str:
    whole = tally(impl.items)
    fails = "".join(f'<li><span class="count">{n}</span> {escape(c)}</li>' for c, n in whole.failed)
    skips = "".join(f'<li><span class="count">{n}</span> {escape(c)}</li>' for c, n in whole.skipped)
    links = (
        f'<a href="{_href(impl.name, "report.html")}">report</a> · '
        f'<a href="{_href(impl.name, "DEVIATIONS.md")}">DEVIATIONS.md</a>'
    )
    name = escape(impl.name)
    parts = [f'<h3 id="{name}">{name} <small>— {escape(impl.label)} ({links})</small></h3>']
    if impl.partial:
        parts.append(f'<p><span class="partial">A partial report</span>: {escape(impl.partial)}.</p>')
    parts.append(f"<p>{whole.passed} pass, {whole.failures} fail, {whole.skips} skipped.</p>")
    if fails:
        parts.append(f"<p>Failures by root cause:</p><ul>{fails}</ul>")
    if skips:
        parts.append(f"<details><summary>Skips by reason</summary><ul>{skips}</ul></details>")
    return "".join(parts)


VARIANTS = "other variants"
"""The column of the rulesets a few cases define for themselves (``aga:komi=0``): see :func:`columns`."""


def columns(impls: Sequence[Implementation], ruleset_order: Sequence[str], least: int = 10) -> list[str]:
    """The ruleset columns: the presets (in ``ruleset_order``), then each variant (``NAME:axis=value``)
    that some implementation was run under (at least ``least`` items), then :data:`VARIANTS` for the
    variants single cases define."""
    counts = Counter((impl.name, i.ruleset) for impl in impls for i in impl.items)
    seen = {r for _, r in counts}
    presets = [r for r in ruleset_order if r in seen]
    rest = sorted(seen - set(presets))
    wide = [r for r in rest if any(counts[(impl.name, r)] >= least for impl in impls)]
    return presets + wide + ([VARIANTS] if len(wide) < len(rest) else [])


def _column_of(ruleset: str, named: set[str]) -> str:
    return ruleset if ruleset in named else VARIANTS


def render(impls: Sequence[Implementation], ruleset_order: Sequence[str] = ()) -> str:
    """The matrix page. ``ruleset_order``: the presets' order (variants follow)."""
    rulesets = columns(impls, ruleset_order)
    legend = "".join(f'<span class="{k}">{escape(v)}</span>' for k, v in LEGEND)
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        "<title>jipingdian — compatibility matrix</title>"
        f"<style>{STYLE}</style></head><body>"
        "<h1>Compatibility matrix: Go rule implementations against the jipingdian suite</h1>"
        "<p>Each cell counts the case × ruleset items of one implementation, as written and, for a "
        "sample of them, given again under a symmetry of the board or a swap of colours: passes (✓) "
        "and failures (✗); hover a cell for its failures by root cause and its skips by reason. "
        "Every implementation is run by <code>jpd verify</code> through its bundled adapter "
        "(<code>.ci/run</code>); its report and DEVIATIONS.md explain each root cause.</p>"
        f'<p class="legend">{legend}</p>'
        f"<h2>By ruleset</h2>{_ruleset_table(impls, rulesets)}"
        f"<h2>Root causes and skips</h2>{''.join(_causes(i) for i in impls)}"
        f"<h2>By clause of the specification</h2>{_clause_table(impls)}"
        "</body></html>\n"
    )
