"""Reports of a run: a text summary, JSON and JUnit XML, plus a progress line.

JSON shape (``"format": 1``; keys are stable, new keys may be added)::

    {
      "format": 1,
      "adapter": "jpdref",
      "suite": {"distribution": "jipingdian", "version": "0.1.0", "sha256": "3f0c…", "files": 22},
      "interrupted": false,
      "results": [
        {"case": "ko.simple.recapture", "ruleset": "japanese",
         "outcome": "pass" | "fail" | "open" | "skip" | "error",
         "mismatches": [{"where": "step 2", "step": 2, "expected": "illegal ko",
                         "observed": "legal"}],
         "detail": "", "file": "conformance/ko.yaml", "line": 12,
         "review": "accepted" | "proposed" | "disputed"}
      ],
      "load_errors": [
        {"file": "...", "line": 3, "column": 5, "code": "schema", "message": "..."}
      ],
      "summary": {
        "total": 10, "pass": 7, "fail": 1, "open": 1, "skip": 1, "error": 0,
        "load_errors": 0, "ok": false,
        "by_ruleset": {"japanese": {"pass": 3, "fail": 1, "open": 0, "skip": 0, "error": 0}},
        "review": {"proposed": 2}
      }
    }

``where`` is ``step N``, ``end`` or ``load`` (error cases, ruleset ``loader``); ``step`` is null
unless it is a step; ``observed`` is null when the step was never reached. ``review`` is the
case's review status (spec/case-format.md#format.review); ``summary.review`` counts the cases of
the run that are not accepted yet, per status (only statuses present). ``suite`` says which
suite ran (:mod:`jpdtools.suite.identity`; null when unknown). ``ok`` is false
when anything failed or errored or a file could not be loaded — the exit status of ``jpd run``.

In JUnit XML each ruleset is a ``testsuite`` and each case a ``testcase``; a failure is a
``failure`` element, an error an ``error`` element, and both skips and open verdicts are
``skipped`` elements (``type="skip"`` / ``type="open"``): an open verdict is never a pass. Each
``testsuite`` carries the suite's identity as ``properties`` (``jipingdian.version``,
``suite.sha256``, ``suite.files``).
"""

import json
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from typing import TextIO

from jpdtools import table
from jpdtools.run.compare import STATUSES, CaseResult, Status
from jpdtools.run.runner import LOADER_SUITE, LoadFailure, RunResult
from jpdtools.suite.identity import SuiteIdentity
from jpdtools.suite.model import REVIEW_STATUSES

ACCEPTED = "accepted"

JSON_FORMAT = 1


# -- counting ----------------------------------------------------------------------------------


def counts(results: Iterable[CaseResult]) -> dict[str, int]:
    tally = dict.fromkeys((str(s) for s in STATUSES), 0)
    for r in results:
        tally[str(r.status)] += 1
    return tally


def by_ruleset(results: Sequence[CaseResult], order: Sequence[str] = ()) -> dict[str, dict[str, int]]:
    """Counts per ruleset, rulesets in ``order`` first, then in order of first appearance."""
    names = [n for n in order if any(r.ruleset == n for r in results)]
    names += [r.ruleset for r in results if r.ruleset not in names]
    names = list(dict.fromkeys(names))
    return {n: counts(r for r in results if r.ruleset == n) for n in names}


def under_review(results: Iterable[CaseResult]) -> dict[str, int]:
    """How many distinct cases of the run are not accepted, per review status (only those present)."""
    cases: dict[str, str] = {}
    for r in results:
        cases.setdefault(r.case_id, r.review)
    found = {s: sum(1 for v in cases.values() if v == s) for s in REVIEW_STATUSES if s != ACCEPTED}
    return {s: n for s, n in found.items() if n}


# -- text --------------------------------------------------------------------------------------


def _load_failure_lines(failures: Sequence[LoadFailure]) -> list[str]:
    return [f"  {f}" for f in failures]


def _result_lines(results: Sequence[CaseResult], status: Status) -> list[str]:
    lines = []
    for r in results:
        if r.status is not status:
            continue
        tag = f"  [{r.review}]" if r.review != ACCEPTED else ""
        lines.append(f"  {r.name}  {r.where}{tag}")
        lines.extend(f"    {m}" for m in r.mismatches)
        if r.detail and not r.mismatches:
            lines.append(f"    {r.detail}")
    return lines


def table_rows(
    per_ruleset: dict[str, dict[str, int]], order: Sequence[str]
) -> list[tuple[str, dict[str, int]]]:
    """The rows of a summary table: one per ruleset of ``order`` (the presets and the rulesets
    asked for); the variants only cases name (``rules: [aga:komi=0]``), each with an item or two,
    added up in one row; the cases about malformed files (ruleset ``loader``) in a row of their
    own, last, named as what they are."""
    rows: list[tuple[str, dict[str, int]]] = []
    folded: dict[str, dict[str, int]] = {}
    for name, tally in per_ruleset.items():
        if name == LOADER_SUITE:
            continue
        if ":" in name and name not in order:
            folded[name] = tally
        else:
            rows.append((name, tally))
    if folded:
        summed = {k: sum(t[k] for t in folded.values()) for k in next(iter(folded.values()))}
        rows.append((f"variants named by cases ({len(folded)})", summed))
    if LOADER_SUITE in per_ruleset:
        rows.append(("cases of malformed files", per_ruleset[LOADER_SUITE]))
    return rows


def summary_table(results: Sequence[CaseResult], order: Sequence[str] = (), width: int | None = None) -> str:
    """One row per ruleset (:func:`table_rows`): pass/fail/open/skip/error counts, then a total
    row; fitted to ``width`` when given."""
    headers = ["ruleset", *(str(s) for s in STATUSES)]
    rows = [
        [name, *(str(c[str(s)]) for s in STATUSES)]
        for name, c in table_rows(by_ruleset(results, order), order)
    ]
    total = counts(results)
    rows.append(["total", *(str(total[str(s)]) for s in STATUSES)])
    return table.render(headers, rows, width)


def format_text(
    run: RunResult,
    order: Sequence[str] = (),
    verbose: bool = False,
    quiet: bool = False,
    width: int | None = None,
) -> str:
    """The summary table, then failures, errors and load errors, then one summary line.

    ``quiet`` leaves out the table; ``verbose`` also lists open and skipped items.
    """
    results = list(run.results)
    out = [] if quiet else [summary_table(results, order, width)]
    sections = [("FAILURES", Status.FAIL), ("ERRORS", Status.ERROR)]
    if verbose:
        sections += [("OPEN", Status.OPEN), ("SKIPPED", Status.SKIP)]
    for title, status in sections:
        lines = _result_lines(results, status)
        if lines:
            out += ["", title, *lines]
    if run.failures:
        out += ["", "LOAD ERRORS", *_load_failure_lines(run.failures)]
    out += ["", *suite_lines(run.suite, quiet), summary_line(run)]
    return "\n".join(out).lstrip("\n")


def suite_lines(suite: SuiteIdentity | None, quiet: bool = False) -> list[str]:
    """The line that says which suite ran (none when quiet or unknown)."""
    return [] if quiet or suite is None else [suite.describe()]


def summary_line(run: RunResult) -> str:
    c = counts(run.results)
    parts = [
        f"{c['pass']} passed",
        f"{c['fail']} failed",
        f"{c['open']} open",
        f"{c['skip']} skipped",
        f"{c['error']} errors",
    ]
    if run.failures:
        parts.append(f"{len(run.failures)} file(s) not loaded")
    review = under_review(run.results)
    if review:
        parts.append("under review: " + ", ".join(f"{n} {s}" for s, n in review.items()) + " case(s)")
    verdict = "OK" if run.ok else "FAILED"
    if run.interrupted:
        verdict += " (interrupted: partial results)"
    return f"{', '.join(parts)} — {verdict} [{run.adapter}]"


# -- JSON --------------------------------------------------------------------------------------


def result_json(r: CaseResult) -> dict:
    return {
        "case": r.case_id,
        "ruleset": r.ruleset,
        "outcome": str(r.status),
        "mismatches": [m.to_json() for m in r.mismatches],
        "detail": r.detail,
        "file": r.file,
        "line": r.line,
        "review": r.review,
    }


def failure_json(f: LoadFailure) -> dict:
    loc = f.location
    return {
        "file": f.file,
        "line": loc.line if loc else 0,
        "column": loc.column if loc else 0,
        "code": f.code,
        "message": f.message,
    }


def to_json(run: RunResult, order: Sequence[str] = ()) -> dict:
    results = list(run.results)
    summary = {"total": len(results), **counts(results)}
    summary["load_errors"] = len(run.failures)
    summary["ok"] = run.ok
    summary["by_ruleset"] = by_ruleset(results, order)
    summary["review"] = under_review(results)
    return {
        "format": JSON_FORMAT,
        "adapter": run.adapter,
        "suite": run.suite.to_json() if run.suite else None,
        "interrupted": run.interrupted,
        "results": [result_json(r) for r in results],
        "load_errors": [failure_json(f) for f in run.failures],
        "summary": summary,
    }


def format_json(run: RunResult, order: Sequence[str] = ()) -> str:
    return json.dumps(to_json(run, order), ensure_ascii=False, indent=2)


# -- JUnit XML ---------------------------------------------------------------------------------


def _testcase(parent: ET.Element, r: CaseResult) -> None:
    case = ET.SubElement(
        parent,
        "testcase",
        classname=f"jpd.{r.ruleset}",
        name=r.case_id,
        file=r.file,
        line=str(r.line),
        time="0",
    )
    if r.status is Status.FAIL:
        text = "\n".join(str(m) for m in r.mismatches) or r.detail
        first = str(r.mismatches[0]) if r.mismatches else r.detail
        ET.SubElement(case, "failure", message=first, type="mismatch").text = text
    elif r.status is Status.ERROR:
        ET.SubElement(case, "error", message=r.detail, type="error").text = r.detail
    elif r.status is Status.SKIP:
        ET.SubElement(case, "skipped", message=r.detail, type="skip")
    elif r.status is Status.OPEN:
        ET.SubElement(case, "skipped", message=f"open: {r.detail}", type="open")


def suite_properties(parent: ET.Element, suite: SuiteIdentity | None) -> None:
    """The suite's identity as JUnit ``properties`` of a ``testsuite``."""
    if suite is None:
        return
    properties = ET.SubElement(parent, "properties")
    values = {
        "jipingdian.version": suite.version,
        "suite.sha256": suite.sha256,
        "suite.files": str(suite.files),
    }
    for name, value in values.items():
        ET.SubElement(properties, "property", name=name, value=value)


def _suite_attrs(name: str, c: dict[str, int], tests: int) -> dict[str, str]:
    return {
        "name": name,
        "tests": str(tests),
        "failures": str(c.get("fail", 0)),
        "errors": str(c.get("error", 0)),
        "skipped": str(c.get("skip", 0) + c.get("open", 0)),
        "time": "0",
    }


def to_junit(run: RunResult, order: Sequence[str] = ()) -> ET.Element:
    results = list(run.results)
    total = counts(results)
    root = ET.Element("testsuites", _suite_attrs("jpd", total, len(results)))
    root.set("errors", str(total["error"] + len(run.failures)))
    root.set("tests", str(len(results) + len(run.failures)))
    for name, c in by_ruleset(results, order).items():
        suite = ET.SubElement(root, "testsuite", _suite_attrs(name, c, sum(c.values())))
        suite_properties(suite, run.suite)
        for r in results:
            if r.ruleset == name:
                _testcase(suite, r)
    if run.failures:
        attrs = _suite_attrs("load", {"error": len(run.failures)}, len(run.failures))
        suite = ET.SubElement(root, "testsuite", attrs)
        for f in run.failures:
            loc = f.location
            case = ET.SubElement(
                suite,
                "testcase",
                classname="jpd.load",
                name=f.file,
                file=f.file,
                line=str(loc.line if loc else 0),
                time="0",
            )
            ET.SubElement(case, "error", message=str(f), type=f.code or "load").text = str(f)
    if run.interrupted:  # a partial run says so in JUnit too: CI must not read it as a pass
        what = f"interrupted: {len(results)} items ran (partial results)"
        suite = ET.SubElement(root, "testsuite", _suite_attrs("interrupted", {"error": 1}, 1))
        case = ET.SubElement(suite, "testcase", classname="jpd.run", name="interrupted", time="0")
        ET.SubElement(case, "error", message=what, type="interrupted").text = what
        root.set("errors", str(int(root.get("errors", "0")) + 1))
        root.set("tests", str(int(root.get("tests", "0")) + 1))
    return root


def format_junit(run: RunResult, order: Sequence[str] = ()) -> str:
    root = to_junit(run, order)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# -- progress ----------------------------------------------------------------------------------

MANY_ITEMS = 200


class Progress:
    """A progress line: rewritten in place on a terminal; on a pipe, a line every 10 %."""

    def __init__(self, stream: TextIO | None = None, total: int = 0, enabled: bool = True):
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled and (self.tty or total >= MANY_ITEMS)
        self.bad = 0
        self.expected = 0  # failures a verify run expected (its expected-failure list), apart
        self.shown = False

    def __call__(self, n: int, total: int, result: CaseResult, expected: bool = False) -> None:
        """One more result; ``expected``: a failure the run expected, counted apart."""
        if result.status in (Status.FAIL, Status.ERROR):
            if expected:
                self.expected += 1
            else:
                self.bad += 1
        if not self.enabled:
            return
        listed = f", {self.expected} expected failing" if self.expected else ""
        text = (
            f"[{n}/{total}] {self.bad} {'unexpected ' if self.expected else ''}failing{listed}  {result.name}"
        )
        if self.tty:
            self.stream.write("\r\x1b[K" + text[:100])
            self.shown = True
        elif n == total or n % max(1, total // 10) == 0:
            self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty and self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False
