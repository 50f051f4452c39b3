"""``jpd study PATH…``: the compatibility claims measured on finished games.

Referees every record of a collection (files, folders, globs, archives, as ``jpd replay``) under
every ruleset selected, with the record's own agreement (spec/counting.md#count.replay) and, with
``--komi record``, the record's komi; then prints the research table: per pair of rulesets the
games counted under both, how many name the same winner and the same margin, and every
disagreement's causes by the compatibility theorems (records/study.py). ``--out DIR`` writes
``study.json`` and a page, ``index.html``, with the matrix and one example game per cause drawn
as boards. Exit status 1 if a difference is unexplained or a record could not be read, 3 if the
paths hold no game record at all.
"""

import argparse
import json
import sys
from pathlib import Path

from jpdtools import atomic, table
from jpdtools.commands.options import add_rules_argument, rules_value
from jpdtools.commands.recordopts import add_komi_argument
from jpdtools.errors import InputError, NothingSelected
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.outputs import Output, check_outputs
from jpdtools.presets import load_presets
from jpdtools.records.sources import RecordData, SourceError, find_sources, read_records
from jpdtools.records.study import study


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (__doc__ or "").split("\n\n", 1)[1]
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help="SGF files, folders, globs, .tar.gz/.zip archives"
    )
    add_rules_argument(parser)
    add_komi_argument(parser)
    parser.add_argument(
        "-o", "--out", type=Path, metavar="DIR", help="write study.json and index.html into DIR"
    )
    parser.add_argument("--json", action="store_true", help="print the table as JSON")


def run(args) -> int:
    if args.out is not None:
        out = args.out
        files = [Output("--out", out, "dir"), Output("--out", out / "study.json", "json")]
        check_outputs([*files, Output("--out", out / "index.html", "html")], args.paths)
    rulesets = tuple(load_presets().select(rules_value(args.rules)))
    errors: list[str] = []

    def items():
        for item in read_records(find_sources(args.paths)):
            bar.update(1)
            if isinstance(item, SourceError):
                errors.append(f"{item.key}: {item.message}")
                continue
            assert isinstance(item, RecordData)
            yield item.key, item.data

    from tqdm import tqdm  # a progress bar with rate on a terminal (the study takes seconds)

    quiet = args.quiet or args.json or not sys.stderr.isatty()
    with tqdm(unit="record", disable=quiet, file=sys.stderr) as bar:
        result = study(items(), rulesets, args.komi).as_json()
    if not (result["records"] or result["record_errors"] or errors):
        raise NothingSelected(f"no game record in {' '.join(map(str, args.paths))}: nothing to study")
    result["komi_source"] = args.komi
    result["source_errors"] = errors
    if args.out is not None:
        write(args.out, result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print(render(result))
    bad = result["unexplained"] or result["unreadable"] or result["record_errors"] or errors
    return FAILURE if bad else SUCCESS


def write(out: Path, result: dict) -> None:
    from jpdtools.book.studypage import study_page

    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:  # a read-only file system, no permission: said, not a traceback
        raise InputError(f"--out {out}: cannot make the folder: {err.strerror or err}") from None
    atomic.write_text(out / "study.json", json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    atomic.write_text(out / "index.html", study_page(result))


def render(result: dict) -> str:
    """The table as text: the counted games, then one line per pair of rulesets that differ."""
    lines = [f"{result['records']} records; komi: {result['komi_source']}"]
    rows = [
        [name, str(r["counted"]), " ".join(f"{k} {v}" for k, v in r["winners"].items())]
        for name, r in result["rulesets"].items()
    ]
    lines.append(table.render(["ruleset", "counted", "winners"], rows))
    pairs = [p for p in result["pairs"] if p["same_margin"] != p["both"]]
    rows = [
        [p["a"], p["b"], str(p["both"]), str(p["same_winner"]), str(p["same_margin"]),
         ", ".join(f"{k} {v}" for k, v in p["causes"].items())]
        for p in pairs
    ]  # fmt: skip
    lines.append("")
    lines.append(table.render(["a", "b", "both", "same winner", "same margin", "causes (games)"], rows))
    engine = result["engine_score"]
    if engine["compared"]:
        lines.append("")
        same = f"{engine['equal']} of {engine['compared']} equal"
        lines.append(f"the record's own score (RE, under its RU) against jpd: {same}")
        for d in engine["differ"]:
            lines.append(f"  {d['record']} {d['ruleset']}: RE {d['re']}, jpd {d['jpd']} — {d['cause']}")
    unread = [f"  {key}: not a readable SGF record" for key in result["unreadable"]]
    unread += [f"  {e['record']}: {e['code']}: {e['message']}" for e in result.get("record_errors", ())]
    unread += [f"  {message}" for message in result.get("source_errors", ())]
    if unread:
        lines += ["", "not read:", *unread]
    unexplained = result["unexplained"]
    lines.append("")
    lines.append(f"unexplained differences: {len(unexplained)}")
    for d in unexplained[:20]:
        lines.append(f"  {d['record']}: {d['a']} {d['margin'][0]} vs {d['b']} {d['margin'][1]} {d['causes']}")
    return "\n".join(lines)
