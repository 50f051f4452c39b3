"""``jpd review apply FILE… [--suite DIR] [--policy FILE] [--dry-run]`` and
``jpd review status [--suite DIR] [--policy FILE]``.

``apply`` merges the review files the case book exports (one per reviewer,
spec/case-format.md#format.review-file) into the case files and ``spec/question-reviews.yaml``:
each decision is its reviewer's vote, and votes reaching the quorum of ``spec/review-policy.yaml``
(#format.quorum) become the decision. It prints what it wrote, what was already recorded, the
votes on an earlier revision, and every dispute between members (recorded, and making the exit
status 1). ``status`` prints the tally of what counts — a decision on an earlier revision or under
dispute counts as proposed — and names the cases disputed between members, voting, or decided on
an earlier revision.
"""

import argparse
import json
from collections import Counter
from pathlib import Path

from jpdtools.errors import InputError, read_text_file
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.paths import conformance_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.review.anchors import spec_anchors
from jpdtools.review.apply import Plan, plan_changes, write_changes
from jpdtools.review.lint import QUESTION_REVIEWS, question_reviews
from jpdtools.review.policy import POLICY_FILE, Policy, load_policy
from jpdtools.review.questions import question_revisions
from jpdtools.review.reviewfile import load_review_file
from jpdtools.suite.compiled import CompiledLoader
from jpdtools.suite.model import REVIEW_STATUSES, QuestionReview
from jpdtools.suite.standing import EARLIER, SPLIT, VOTING, standing


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True, metavar="apply|status")
    apply = sub.add_parser("apply", help="merge reviewers' files into the case files")
    apply.add_argument("files", nargs="+", type=Path, metavar="FILE", help="review files (JSON or YAML)")
    apply.add_argument("--dry-run", action="store_true", help="say what would change; write nothing")
    status = sub.add_parser("status", help="the tally of review statuses")
    for p in (apply, status):
        p.add_argument("--suite", type=Path, metavar="DIR", help="the case files (default: conformance/)")
        p.add_argument(
            "--policy", type=Path, metavar="FILE", help=f"the quorum (default: spec/{POLICY_FILE})"
        )
        p.add_argument("--json", action="store_true", help="print the result as JSON")


def _suite(folder: Path, presets):
    """Each case file's text and cases (the cases from the compiled suite, as `jpd run` reads them)."""
    compiled = CompiledLoader()
    files = {}
    for path in sorted(folder.glob("*.yaml")):
        text = read_text_file(path)
        files[str(path)] = (text, list(compiled.load_case_file(path, presets).cases))
    return files


def run(args: argparse.Namespace) -> int:
    presets = load_presets()
    folder = args.suite or conformance_dir()
    files = _suite(folder, presets)
    spec = spec_dir()
    policy = load_policy(args.policy or spec / POLICY_FILE)
    questions = {r.anchor: r for r in question_reviews(spec, presets)}
    anchors = [a for a in spec_anchors(spec) if a.startswith("oq.")]
    asked = question_revisions(spec)
    items: dict = {("case", c.id): c for _, cases in files.values() for c in cases}
    items.update({("question", a): questions.get(a) or QuestionReview(a) for a in anchors})
    revisions = {("case", c.id): c.content_revision for _, cases in files.values() for c in cases}
    revisions.update({("question", a): asked.get(a, "") for a in anchors})
    if args.action == "status":
        return _status(items, revisions, policy, args.json)
    entries = [e for path in args.files for e in load_review_file(path).entries]
    for entry in entries:
        _check_ruleset(entry, presets)
    plan = Plan()
    changed = plan_changes(items, entries, plan, revisions, policy)
    paths = write_changes(files, changed, spec / QUESTION_REVIEWS, presets, dry_run=args.dry_run)
    written = [] if args.dry_run else paths
    if args.json:
        data = {
            "entries": len(entries),
            "files": [str(f) for f in args.files],
            "quorum": policy.quorum,
            "applied": list(plan.applied),
            "already_recorded": list(plan.unchanged),
            "below_quorum": list(plan.below),
            "earlier_revision": list(plan.earlier),
            "conflicts": list(plan.conflicts),
            "written": list(written),
            "dry_run": args.dry_run,
        }
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return FAILURE if plan.conflicts else SUCCESS
    for title, lines in (
        ("applied", plan.applied),
        ("already recorded", plan.unchanged),
        ("below the quorum", plan.below),
        ("ON AN EARLIER REVISION (recorded, not counted)", plan.earlier),
        ("CONFLICTS", plan.conflicts),
    ):
        if lines:
            print(f"{title}:")
            print("\n".join(f"  {line}" for line in lines))
    verb = "would write" if args.dry_run else "wrote"
    print(
        f"jpd review apply: {len(entries)} entries from {len(args.files)} file(s), quorum {policy.quorum}"
        f"{f' or the chair ({policy.chair})' if policy.chair else ''}: "
        f"{len(plan.applied)} applied, "
        f"{len(plan.unchanged)} already recorded, {len(plan.earlier)} on an earlier revision, "
        f"{len(plan.conflicts)} conflict(s); "
        f"{verb} {len(paths)} file(s)" + (f" ({', '.join(paths)})" if paths else "")
    )
    return FAILURE if plan.conflicts else SUCCESS


def _check_ruleset(entry, presets) -> None:
    """An entry's ruleset is one of the presets, named as the case files name it
    ({#format.review}: a ruling, vote or comment on one ruleset names a preset)."""
    if entry.ruleset and entry.ruleset not in presets.names:
        raise InputError(
            f"'ruleset' {entry.ruleset!r} is not a ruleset: a review names one of {', '.join(presets.names)}",
            entry.location,
        )


_LISTED = (
    (SPLIT, "disputed between members"),
    (VOTING, "voting, below the quorum"),
    (EARLIER, "decided on an earlier revision"),
)


def _status(items: dict, revisions: dict, policy: Policy, as_json: bool = False) -> int:
    data: dict = {"quorum": policy.quorum, "chair": policy.chair or None}
    say = (lambda _text: None) if as_json else print
    say(f"quorum: {policy.quorum}" + (f", or the chair ({policy.chair})" if policy.chair else ""))
    for target in ("case", "question"):
        mine = {k: v for k, v in items.items() if k[0] == target}
        whole = {k: standing(v, revisions[k], "", policy.quorum) for k, v in mine.items()}
        tally = Counter(s.counted for s in whole.values())
        rulings = Counter(
            standing(v, revisions[k], r.ruleset, policy.quorum).counted
            for k, v in mine.items()
            for r in v.rulings
        )
        comments = sum(len(v.comments) for v in mine.values())
        mine_data = {"total": len(mine), "statuses": {s: tally[s] for s in REVIEW_STATUSES}}
        data[f"{target}s"] = {**mine_data, "rulings": dict(sorted(rulings.items())), "comments": comments}
        shown = ", ".join(f"{tally[s]} {s}" for s in REVIEW_STATUSES)
        line = f"{target}s: {len(mine)} — {shown}"
        if rulings:
            line += "; rulings on one ruleset: " + ", ".join(f"{n} {s}" for s, n in sorted(rulings.items()))
        say(line + f"; {comments} comment(s)")
        scoped = [
            (k, r, standing(v, revisions[k], r, policy.quorum))
            for k, v in mine.items()
            for r in ("", *sorted({x.ruleset for x in v.votes if x.ruleset} | {x.ruleset for x in v.rulings}))
        ]
        for state, words in _LISTED:
            found = [(k, r, s) for k, r, s in scoped if s.state == state]
            if found:
                say(f"  {words}: {len(found)}")
                data[f"{target}s"][words] = [
                    f"{ident}{f' on {ruleset}' if ruleset else ''}: {_describe(s)}"
                    for (_, ident), ruleset, s in found
                ]
                for line in data[f"{target}s"][words]:
                    say(f"    {line}")
    if as_json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
    return SUCCESS


def _describe(s) -> str:
    if s.state == VOTING:
        status, members = s.tally()
        return f"proposed ({members} of {s.quorum} for {status}: {', '.join(v.by for v in s.current)})"
    if s.state == EARLIER:
        return (
            f"{s.record.status} by {s.record.decided_by} on revision {s.record.revision or '(none recorded)'}"
        )
    held = [f"decision {s.record.status} ({s.record.decided_by})"] if s.record else []
    return "; ".join(held + [f"{v.by}: {v.status} ({v.text!r})" for v in s.current])
