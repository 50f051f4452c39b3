"""``jpd review apply``: the reviewers' files merged into the case files and
``spec/question-reviews.yaml`` ({#format.review-file}, {#format.quorum}).

Each decision of a review file (accept, dispute, reject; on a case, a question, or one ruleset's
verdicts of either) becomes its reviewer's *vote*, on the revision the reviewer read
({#format.revision}); a member's later vote on the same thing replaces their earlier one. When the
votes on the current revision reach the committee's quorum (:mod:`.policy`) and nothing on that
revision says otherwise, they become the decision record (status, decision, decided, decided-by,
revision; a ``rulings:`` entry for one ruleset). Nothing is overwritten silently: members who vote
differently are a dispute between members — both votes recorded, listed as conflicts. A comment is
added unless the same comment is there already. The case files are edited as text at the positions
the YAML loader reports: only the review keys of a changed case are rewritten (at the end of its
entry), every other line — comments, layout, other cases — stays byte for byte.

Every edit is proven before anything is written: the new text is loaded again and must give the
very cases (or question reviews) intended — the changed ones with their new review keys, every
other one as it was. An edit that would read back otherwise (a block scalar's ``#`` lines, an
anchor another case aliases, a case in flow style) is an error naming the file and the case, and
then no file is written: all files are written or none (:func:`jpdtools.atomic.write_all`). A
case file that is a symbolic link is written through the link.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from jpdtools import atomic
from jpdtools.errors import InputError, Location, read_text_file
from jpdtools.presets import Presets
from jpdtools.review.policy import Policy
from jpdtools.review.reviewfile import STATUS_OF, Entry
from jpdtools.suite.loader import load_case_text, load_question_reviews
from jpdtools.suite.model import Case, Comment, QuestionReview, Ruling, Vote
from jpdtools.suite.revision import REVIEW_KEYS
from jpdtools.suite.standing import DECIDED, SPLIT, VOTING, Record, standing
from jpdtools.suite.writer import review_lines
from jpdtools.yamlsrc import LocDict, LocList, load_yaml_text


@dataclass
class Plan:
    """What ``apply`` did, one line each."""

    applied: list[str] = field(default_factory=list)  # votes, decisions and comments written
    unchanged: list[str] = field(default_factory=list)  # already recorded exactly so
    conflicts: list[str] = field(default_factory=list)  # disputes between members; decisions not applied
    earlier: list[str] = field(default_factory=list)  # votes recorded on an earlier revision (not counted)
    below: list[str] = field(default_factory=list)  # where votes stand below the quorum


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


def _vote(item, vote: Vote, scope: str, plan: Plan, said: str = ""):
    """``item`` with ``vote`` in place of its member's earlier vote on the same scope."""
    if vote in item.votes:
        plan.unchanged.append(f"{scope}: {vote.status} by {vote.by} already recorded")
        return item
    kept = tuple(v for v in item.votes if (v.by, v.ruleset) != (vote.by, vote.ruleset))
    plan.applied.append(f"{scope}: {vote.by} votes {vote.status}{said}")
    return replace(item, votes=(*kept, vote))


def _with_record(item, ruleset: str, record: Record):
    if ruleset:
        ruling = Ruling(
            ruleset, record.status, record.decision, record.decided, record.decided_by, record.revision
        )
        others = tuple(r for r in item.rulings if r.ruleset != ruleset)
        return replace(item, rulings=(*others, ruling))
    return replace(
        item,
        status=record.status,
        decision=record.decision,
        decided=record.decided,
        decided_by=record.decided_by,
        revision=record.revision,
    )


def new_decision(item, current: str, ruleset: str, policy: Policy) -> Record | None:
    """The decision the votes on the current revision make (a quorum alike, or the chair, and
    nothing on that revision against them), when the item does not stand decided already."""
    now = standing(item, current, ruleset, policy.quorum)
    if now.state in (DECIDED, SPLIT):
        return None
    status, _ = now.tally()
    if not status:
        return None
    voters = [v for v in sorted(now.current, key=lambda v: (v.date, v.by))]
    if not policy.decides({v.by for v in voters}):
        return None
    texts = list(dict.fromkeys(v.text for v in voters))
    return Record(
        status,
        "\n\n".join(texts),
        max(v.date for v in voters),
        ", ".join(dict.fromkeys(v.by for v in voters)),
        current,
    )


def _comment(item, entry: Entry, plan: Plan):
    new = Comment(entry.reviewer, entry.date, entry.text, entry.ruleset)
    if new in item.comments:
        plan.unchanged.append(f"{entry.scope}: {entry.reviewer}'s comment already recorded")
        return item
    plan.applied.append(f"{entry.scope}: comment by {entry.reviewer}")
    return replace(item, comments=(*item.comments, new))


def _positions(votes: Sequence[Vote]) -> str:
    return "; ".join(f"{v.by}: {v.status} ({v.text!r})" for v in votes)


def _decide(item, entries: Sequence[Entry], current: str, policy: Policy, plan: Plan):
    """``item`` with the votes of ``entries`` (one per member, one scope), and the decision they
    make when they reach the quorum."""
    scope, ruleset = entries[0].scope, entries[0].ruleset
    for e in entries:
        revision = e.revision or current
        said = "" if e.revision else " (the file names no revision: taken as the current one)"
        vote = Vote(e.reviewer, STATUS_OF[e.action], e.date, revision, e.text, e.ruleset)
        item = _vote(item, vote, scope, plan, said)
        if revision != current:
            plan.earlier.append(
                f"{scope}: {e.reviewer}'s vote is on revision {revision}, the current one is {current}: "
                "recorded, not counted (read the page again)"
            )
    record = new_decision(item, current, ruleset, policy)
    if record is not None:
        plan.applied.append(f"{scope}: {record.status}, decided by {record.decided_by} (revision {current})")
        return _with_record(item, ruleset, record)
    now = standing(item, current, ruleset, policy.quorum)
    if now.state == SPLIT:
        held = f"the decision records {now.record.status} ({now.record.decided_by}); " if now.record else ""
        plan.conflicts.append(
            f"{scope}: disputed between members — {held}{_positions(now.current)}; no decision applied"
        )
    elif now.state == VOTING:
        status, members = now.tally()
        plan.below.append(f"{scope}: stays proposed ({members} of {policy.quorum} for {status})")
    return item


def plan_changes(
    items: dict[tuple[str, str], object],
    entries: Sequence[Entry],
    plan: Plan,
    revisions: dict[tuple[str, str], str],
    policy: Policy,
) -> dict:
    """The new review of every (target, id) of ``items`` that ``entries`` change; ``revisions``
    gives each item's current revision."""
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
        current = changed.get(where, items[where])
        mine = [by_reviewer[r] for r in sorted(by_reviewer)]
        changed[where] = _decide(current, mine, revisions.get(where, ""), policy, plan)
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


def _content_end(lines: list[str], start: int, stop: int, comments: bool = True) -> int:
    """The index after the last line of [start, stop) that is neither blank nor (``comments``) a
    comment."""
    end = stop
    while end > start and (
        not lines[end - 1].strip() or (comments and lines[end - 1].lstrip().startswith("#"))
    ):
        end -= 1
    return end


def _edit_case(
    lines: list[str], item: LocDict, stop: int, case: Case, path: str, comments: bool
) -> list[str]:
    """``lines`` with the review keys of the case entry ``item`` (ending before line ``stop``)
    replaced by those of ``case``; ``comments``: trailing comment lines belong after the new keys."""
    lines = list(lines)
    if lines[item.line - 1][item.column - 1 : item.column] == "{":
        raise InputError(
            f"case {case.id!r} is written in flow style; edit its review keys by hand",
            Location(path, item.line, item.column),
        )
    end = _content_end(lines, item.line - 1, stop, comments)
    keys = sorted((k.line - 1, str(k)) for k in item if getattr(k, "line", 0))
    spans = []
    for i, (line, key) in enumerate(keys):
        if key in REVIEW_KEYS:
            nxt = keys[i + 1][0] if i + 1 < len(keys) else end
            spans.append((line, _content_end(lines, line, nxt, comments)))
    indent = " " * (item.column - 1)
    newline = "\r\n" if lines[item.line - 1].endswith("\r\n") else "\n"
    block = [f"{ln}{newline}" for ln in review_lines(case, indent)]
    edits = [(a, b, []) for a, b in spans] + [(end, end, block)]
    for a, b, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        if a > 0 and a == len(lines) and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        lines[a:b] = new
    return lines


def _reads_back(text: str, path: str, presets: Presets, expected: dict[str, Case]) -> str:
    """ "" when ``text`` loads as the cases ``expected`` (by id, in order), else what differs."""
    try:
        found = load_case_text(text, path, presets).cases
    except InputError as err:
        return f"the file would no longer load ({err.message})"
    if [c.id for c in found] != list(expected):
        return "the file would hold other cases"
    for case in found:
        if case != expected[case.id]:
            return f"case {case.id!r} would read back otherwise"
    return ""


def rewrite_case_file(text: str, path: str, changed: dict[str, Case], presets: Presets) -> str:
    """``text`` with the review keys of every case in ``changed`` replaced by its new ones, proven
    by loading it again: every case reads back as intended (InputError naming the case if not)."""
    now = {c.id: c for c in load_case_text(text, path, presets).cases}
    for ident, case in changed.items():
        lines = text.splitlines(keepends=True)
        items = _case_items(text, path)
        starts = [item.line - 1 for item in items] + [len(lines)]
        n = next(i for i, item in enumerate(items) if str(item.get("id")) == ident)
        wanted = {**now, ident: case}
        why = ""
        for comments in (True, False):  # trailing '#' lines: comments, else a block scalar's lines
            candidate = "".join(_edit_case(lines, items[n], starts[n + 1], case, path, comments))
            why = _reads_back(candidate, path, presets, wanted)
            if not why:
                break
        if why:
            raise InputError(
                f"cannot write the review keys of case {ident!r} in place: {why}; edit them by hand",
                Location(path, items[n].line, items[n].column),
            )
        text, now = candidate, wanted
    return text


def question_reviews_text(text: str, path: str, changed: dict[str, QuestionReview], presets: Presets) -> str:
    """The question-reviews file with the reviews of ``changed`` written in: a question already
    there has its entry replaced in place, a new one is added after the last; every other line
    (comments included) stays. Proven by loading it again, as case files are."""
    if not text.strip():
        text = "format: 1\nquestions: {}\n"
    before = {r.anchor: r for r in load_question_reviews(text, path, presets)}
    data = load_yaml_text(text, path)
    questions = data.get("questions") if isinstance(data, LocDict) else None
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    if not isinstance(questions, LocDict) or not questions:  # ``questions: {}`` or empty
        if isinstance(data, LocDict) and "questions" in data:
            n = data.key_location("questions", path).line - 1
            lines[n] = "questions:\n"  # the line of ``questions: {}``
            at = n + 1
        else:
            lines.append("questions:\n")
            at = len(lines)
        block = []
        for anchor in sorted(changed, key=lambda a: int(a.split(".")[1])):
            block += [f"  {anchor}:\n", *(f"{ln}\n" for ln in review_lines(changed[anchor], "    ", True))]
        lines[at:at] = block
    else:
        keys = sorted((k.line - 1, str(k), k.column) for k in questions if getattr(k, "line", 0))
        parent_end = _content_end(lines, keys[-1][0], len(lines))
        for anchor in sorted(changed, key=lambda a: int(a.split(".")[1]), reverse=True):
            where = [i for i, k in enumerate(keys) if k[1] == anchor]
            indent = " " * (keys[0][2] - 1)
            block = [
                f"{indent}{anchor}:\n",
                *(f"{ln}\n" for ln in review_lines(changed[anchor], indent + "  ", True)),
            ]
            if where:
                i = where[0]
                stop = keys[i + 1][0] if i + 1 < len(keys) else parent_end
                lines[keys[i][0] : _content_end(lines, keys[i][0], stop)] = block
            else:
                lines[parent_end:parent_end] = block
    new = "".join(lines)
    wanted = {**before, **changed}
    try:
        after = {r.anchor: r for r in load_question_reviews(new, path, presets)}
    except InputError as err:
        raise InputError(
            f"cannot write the question reviews in place: the file would no longer load ({err.message})",
            Location(path),
        ) from None
    if after != wanted:
        raise InputError(
            "cannot write the question reviews in place: the file would read back otherwise", Location(path)
        )
    return new


def write_changes(
    case_files: dict[str, tuple[str, list[Case]]],
    changed: dict,
    question_path: Path | None,
    presets: Presets,
    dry_run: bool = False,
) -> list[str]:
    """Write every changed case file (and the question file), all or none: every new text is
    made and proven first; returns the paths written (or, ``dry_run``, that would be)."""
    out: list[tuple[Path, str]] = []
    for path, (text, cases) in case_files.items():
        mine = {c.id: changed[("case", c.id)] for c in cases if ("case", c.id) in changed}
        if mine:
            out.append((Path(path), rewrite_case_file(text, path, mine, presets)))
    new_questions = {k[1]: v for k, v in changed.items() if k[0] == "question"}
    if new_questions and question_path is not None:
        text = read_text_file(question_path) if question_path.is_file() else ""
        out.append((question_path, question_reviews_text(text, str(question_path), new_questions, presets)))
    if not dry_run:
        atomic.write_all(out)
    return [str(path) for path, _ in out]
