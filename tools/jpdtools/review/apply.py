"""``jpd review apply``: the reviewers' files merged into the case files and
``spec/question-reviews.yaml`` ({#format.review-file}).

A decision (accept, dispute, reject) on a case, a question, or one ruleset's verdicts of either,
becomes its review record (status, decision, decided, decided-by; a ``rulings:`` entry for one
ruleset). Nothing is overwritten silently: reviewers who decide the same thing differently, or a
decision where the file already records a different one, are *conflicts* — listed, and not
applied. A comment is added unless the same comment is there already. The case files are edited
as text at the positions the YAML loader reports: only the review keys of a changed case are
rewritten (at the end of its entry), every other line — comments, layout, other cases — stays
byte for byte.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from jpdtools import atomic
from jpdtools.errors import InputError, Location, read_text_file
from jpdtools.review.reviewfile import STATUS_OF, Entry
from jpdtools.suite.model import Case, Comment, QuestionReview, Ruling
from jpdtools.suite.writer import review_lines
from jpdtools.yamlsrc import LocDict, LocList, load_yaml_text

REVIEW_KEYS = ("status", "decision", "decided", "decided-by", "rulings", "comments")


@dataclass(frozen=True)
class Outcome:
    applied: tuple[str, ...] = ()  # what was written, one line each
    unchanged: tuple[str, ...] = ()  # already recorded exactly so
    conflicts: tuple[str, ...] = ()  # not applied, and why
    files: tuple[str, ...] = ()  # the files rewritten


@dataclass
class _Plan:
    applied: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)


def _by_key(entries: Iterable[Entry]) -> tuple[dict, list[Entry]]:
    """Decisions grouped by what they decide; comments apart. One reviewer's later entry on the
    same thing replaces their earlier one (the book keeps one per scope)."""
    decisions: dict[tuple, dict[str, Entry]] = {}
    comments = []
    for e in entries:
        if e.action == "comment":
            comments.append(e)
        else:
            decisions.setdefault(e.key, {})[e.reviewer] = e
    return decisions, comments


def _decide(item, entry: Entry, plan: _Plan):
    """``item`` (a Case or a QuestionReview) with ``entry``'s decision, or unchanged (a conflict
    or nothing new, recorded in ``plan``)."""
    status = STATUS_OF[entry.action]
    if entry.ruleset:
        old = next((r for r in item.rulings if r.ruleset == entry.ruleset), None)
        new = Ruling(entry.ruleset, status, entry.text, entry.date, entry.reviewer)
        if old == new:
            plan.unchanged.append(f"{entry.scope}: {status} by {entry.reviewer} already recorded")
            return item
        if old is not None:
            plan.conflicts.append(
                f"{entry.scope}: {entry.reviewer} says {status}, but {old.decided_by} recorded {old.status} "
                f"on {old.decided} ({old.decision!r}); not overwritten"
            )
            return item
        plan.applied.append(f"{entry.scope}: {status} by {entry.reviewer}")
        return replace(item, rulings=(*item.rulings, new))
    same = (item.status, item.decision, item.decided, item.decided_by) == (
        status,
        entry.text,
        entry.date,
        entry.reviewer,
    )
    if same:
        plan.unchanged.append(f"{entry.scope}: {status} by {entry.reviewer} already recorded")
        return item
    if item.status != "proposed" or item.decision:
        plan.conflicts.append(
            f"{entry.scope}: {entry.reviewer} says {status}, but the file records {item.status}"
            f"{f' by {item.decided_by}' if item.decided_by else ''}"
            f"{f' on {item.decided}' if item.decided else ''}; not overwritten"
        )
        return item
    plan.applied.append(f"{entry.scope}: {status} by {entry.reviewer}")
    return replace(item, status=status, decision=entry.text, decided=entry.date, decided_by=entry.reviewer)


def _comment(item, entry: Entry, plan: _Plan):
    new = Comment(entry.reviewer, entry.date, entry.text, entry.ruleset)
    if new in item.comments:
        plan.unchanged.append(f"{entry.scope}: {entry.reviewer}'s comment already recorded")
        return item
    plan.applied.append(f"{entry.scope}: comment by {entry.reviewer}")
    return replace(item, comments=(*item.comments, new))


def _agreed(by_reviewer: dict[str, Entry], plan: _Plan) -> Entry | None:
    """One decision from every reviewer's on the same thing: theirs if one reviewer, the shared
    one (every name, every reason) if all decide alike, else None (a conflict, listed)."""
    entries = [by_reviewer[r] for r in sorted(by_reviewer)]
    if len(entries) == 1:
        return entries[0]
    if len({e.action for e in entries}) > 1:
        said = "; ".join(f"{e.reviewer}: {e.action} ({e.text!r})" for e in entries)
        plan.conflicts.append(f"{entries[0].scope}: the reviewers differ — {said}; none applied")
        return None
    texts = list(dict.fromkeys(e.text for e in entries))
    return replace(
        entries[0],
        reviewer=", ".join(e.reviewer for e in entries),
        text="\n\n".join(texts),
        date=max(e.date for e in entries),
    )


def plan_changes(items: dict[tuple[str, str], object], entries: Sequence[Entry], plan: _Plan) -> dict:
    """The new review of every (target, id) of ``items`` that ``entries`` change."""
    decisions, comments = _by_key(entries)
    changed: dict = {}
    for key, by_reviewer in decisions.items():
        target, ident, _ruleset = key
        where = (target, ident)
        if where not in items:
            plan.conflicts.append(
                f"{target} {ident}: not in the suite; {len(by_reviewer)} decision(s) not applied"
            )
            continue
        entry = _agreed(by_reviewer, plan)
        if entry is None:
            continue
        current = changed.get(where, items[where])
        changed[where] = _decide(current, entry, plan)
    for entry in comments:
        where = (entry.target, entry.id)
        if where not in items:
            plan.conflicts.append(f"{entry.target} {entry.id}: not in the suite; a comment not applied")
            continue
        current = changed.get(where, items[where])
        changed[where] = _comment(current, entry, plan)
    return {k: v for k, v in changed.items() if v != items[k]}


# -- editing the case files as text --------------------------------------------------------------


def _case_items(text: str, path: str) -> list[LocDict]:
    data = load_yaml_text(text, path)
    cases = data.get("cases") if isinstance(data, LocDict) else None
    if not isinstance(cases, LocList):
        raise InputError("a case file needs 'cases'", Location(path, 1, 1))
    return list(cases)


def _content_end(lines: list[str], start: int, stop: int) -> int:
    """The index after the last line of [start, stop) that is neither blank nor a comment."""
    end = stop
    while end > start and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return end


def rewrite_case_file(text: str, path: str, changed: dict[str, Case]) -> str:
    """``text`` with the review keys of every case in ``changed`` replaced by its new ones."""
    lines = text.splitlines(keepends=True)
    items = _case_items(text, path)
    starts = [item.line - 1 for item in items] + [len(lines)]
    edits = []  # (first line, end line, replacement lines), applied bottom-up
    for n, item in enumerate(items):
        case = changed.get(str(item.get("id")))
        if case is None:
            continue
        if lines[item.line - 1][item.column - 1 : item.column] == "{":
            raise InputError(
                f"case {case.id!r} is written in flow style; edit its review keys by hand",
                Location(path, item.line, item.column),
            )
        end = _content_end(lines, item.line - 1, starts[n + 1])
        keys = sorted((k.line - 1, str(k)) for k in item if getattr(k, "line", 0))
        spans = []
        for i, (line, key) in enumerate(keys):
            if key in REVIEW_KEYS:
                nxt = keys[i + 1][0] if i + 1 < len(keys) else end
                spans.append((line, _content_end(lines, line, nxt)))
        indent = " " * (item.column - 1)
        newline = "\r\n" if lines[item.line - 1].endswith("\r\n") else "\n"
        block = [f"{ln}{newline}" for ln in review_lines(case, indent)]
        for a, b in sorted(spans, reverse=True):
            edits.append((a, b, []))
        edits.append((end, end, block))
    for a, b, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        if a > 0 and a == len(lines) and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        lines[a:b] = new
    return "".join(lines)


def question_reviews_text(header: str, reviews: Iterable[QuestionReview]) -> str:
    """The question-reviews file: its header comment lines kept, ``questions:`` written anew."""
    out = [line for line in header.splitlines() if line.startswith("#")]
    out.append("format: 1")
    ordered = sorted(reviews, key=lambda r: int(r.anchor.split(".")[1]))
    if not ordered:
        return "\n".join([*out, "questions: {}"]) + "\n"
    out.append("questions:")
    for r in ordered:
        out.append(f"  {r.anchor}:")
        out.extend(review_lines(r, "    ", explicit_status=True))
    return "\n".join(out) + "\n"


def write_changes(
    case_files: dict[str, tuple[str, list[Case]]],
    changed: dict,
    question_path: Path | None,
    questions: dict[str, QuestionReview],
) -> list[str]:
    """Write every changed case file (and the question file); returns the paths written."""
    written = []
    for path, (text, cases) in case_files.items():
        mine = {c.id: changed[("case", c.id)] for c in cases if ("case", c.id) in changed}
        if mine:
            atomic.write_text(Path(path), rewrite_case_file(text, path, mine))
            written.append(path)
    new_questions = {k[1]: v for k, v in changed.items() if k[0] == "question"}
    if new_questions and question_path is not None:
        header = read_text_file(question_path) if question_path.is_file() else ""
        merged = {**questions, **new_questions}
        atomic.write_text(question_path, question_reviews_text(header, merged.values()))
        written.append(str(question_path))
    return written
