"""``jpd review apply FILE… [--suite DIR] [--dry-run]`` and ``jpd review status [--suite DIR]``.

``apply`` merges the review files the case book exports (one per reviewer,
spec/case-format.md#format.review-file) into the case files and ``spec/question-reviews.yaml``:
it prints what it wrote, what was already recorded, and every conflict (reviewers who differ, or a
decision the file already records differently) — a conflict is not applied, and makes the exit
status 1. ``status`` prints the tally of review statuses, rulings and comments.
"""

import argparse
from collections import Counter
from pathlib import Path

from jpdtools.errors import read_text_file
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.paths import conformance_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.review.apply import _Plan, plan_changes, write_changes
from jpdtools.review.lint import QUESTION_REVIEWS, question_reviews, spec_anchors
from jpdtools.review.reviewfile import load_review_file
from jpdtools.suite.loader import load_case_text
from jpdtools.suite.model import REVIEW_STATUSES, QuestionReview


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True, metavar="apply|status")
    apply = sub.add_parser("apply", help="merge reviewers' files into the case files")
    apply.add_argument("files", nargs="+", type=Path, metavar="FILE", help="review files (JSON or YAML)")
    apply.add_argument("--dry-run", action="store_true", help="say what would change; write nothing")
    status = sub.add_parser("status", help="the tally of review statuses")
    for p in (apply, status):
        p.add_argument("--suite", type=Path, metavar="DIR", help="the case files (default: conformance/)")


def _suite(folder: Path, presets):
    files = {}
    for path in sorted(folder.glob("*.yaml")):
        text = read_text_file(path)
        files[str(path)] = (text, list(load_case_text(text, str(path), presets).cases))
    return files


def run(args: argparse.Namespace) -> int:
    presets = load_presets()
    folder = args.suite or conformance_dir()
    files = _suite(folder, presets)
    spec = spec_dir()
    questions = {r.anchor: r for r in question_reviews(spec, presets)}
    anchors = [a for a in spec_anchors(spec) if a.startswith("oq.")]
    items: dict = {("case", c.id): c for _, cases in files.values() for c in cases}
    items.update({("question", a): questions.get(a) or QuestionReview(a) for a in anchors})
    if args.action == "status":
        return _status(items)
    entries = [e for path in args.files for e in load_review_file(path).entries]
    plan = _Plan()
    changed = plan_changes(items, entries, plan)
    written = [] if args.dry_run else write_changes(files, changed, spec / QUESTION_REVIEWS, questions)
    for title, lines in (
        ("applied", plan.applied),
        ("already recorded", plan.unchanged),
        ("CONFLICTS (not applied)", plan.conflicts),
    ):
        if lines:
            print(f"{title}:")
            print("\n".join(f"  {line}" for line in lines))
    verb = "would write" if args.dry_run else "wrote"
    print(
        f"jpd review apply: {len(entries)} entries from {len(args.files)} file(s): "
        f"{len(plan.applied)} applied, "
        f"{len(plan.unchanged)} already recorded, {len(plan.conflicts)} conflict(s); "
        f"{verb} {len(written) if not args.dry_run else len({k for k in changed})} file(s)"
        + (f" ({', '.join(written)})" if written else "")
    )
    return FAILURE if plan.conflicts else SUCCESS


def _status(items: dict) -> int:
    for target in ("case", "question"):
        mine = [v for (t, _), v in items.items() if t == target]
        tally = Counter(v.status if v.status == "proposed" or v.decided_by else "proposed" for v in mine)
        rulings = Counter(r.status for v in mine for r in v.rulings)
        comments = sum(len(v.comments) for v in mine)
        shown = ", ".join(f"{tally[s]} {s}" for s in REVIEW_STATUSES)
        line = f"{target}s: {len(mine)} — {shown}"
        if rulings:
            line += "; rulings on one ruleset: " + ", ".join(f"{n} {s}" for s, n in sorted(rulings.items()))
        print(line + f"; {comments} comment(s)")
    return SUCCESS
