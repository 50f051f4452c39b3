"""``jpd verify --impl SPEC [PATHS…]``: run the conformance suite against a third-party implementation.

SPEC is ``gtp:COMMAND …`` (any GTP engine), ``jsonl:COMMAND …`` (a program speaking the JSON-lines
protocol) or the NAME of a folder of ``implementations/`` (``gnugo``, ``sgfmill``, …:
:mod:`jpdtools.verify.implementations`).
Results stream: with ``--report-dir`` each result is appended to ``results.jsonl`` as it comes,
and an interrupted run still writes its reports with the results it has.

Exit status: 0 when nothing failed or passed unexpectedly and nothing errored (skips and open
items are not failures, and not passes either), 1 otherwise, 2 for bad input, 130 when interrupted
(Ctrl-C or SIGTERM: every report written then says so, and no engine process is left running).
"""

import argparse
import contextlib
import functools
import json
import math
import signal
import sys
import time
from dataclasses import replace
from pathlib import Path

from jpdtools import atomic, colour, table
from jpdtools.book.failures import illustrator
from jpdtools.commands.options import suite_paths
from jpdtools.commands.selecting import (
    add_selection_arguments,
    describe_selection,
    ruleset_order,
    selected_plan,
    selected_suite,
)
from jpdtools.errors import InputError, NothingSelected
from jpdtools.exitcodes import ERROR, FAILURE, INTERRUPTED, SUCCESS
from jpdtools.outputs import Output, check_outputs
from jpdtools.paths import bundled_expected_failures, spec_dir
from jpdtools.presets import Presets, load_presets
from jpdtools.review.anchors import spec_anchors
from jpdtools.run import report
from jpdtools.run.runner import default_loader, parse_rules_option
from jpdtools.verify import verification as verify
from jpdtools.verify.process import MAX_TIMEOUT, Orphans
from jpdtools.verify.report import Timing, VerifyRun, format_json, format_junit, format_text, result_json
from jpdtools.verify.report_html import format_html

MIN_PLAYED = 1.0  # percent of the plan: a program declining all but a few items checked nothing
MAX_EXCUSED = 50.0  # percent of the cases loaded an expected-failure list may name


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_selection_arguments(parser)
    parser.add_argument(
        "--impl",
        required=True,
        metavar="SPEC",
        help="gtp:COMMAND | jsonl:COMMAND | an implementation of implementations/: "
        "gnugo, sgfmill, openspiel, dlgo, pettingzoo, sabaki, godash, tenuki, wgo, goban",
    )
    parser.add_argument(
        "--expected-failures",
        type=Path,
        metavar="FILE",
        help="the implementer's list of known failures: case-id[ruleset] globs, one per line, "
        "case-id[ruleset]@TRANSFORM for rows given transformed only (default for a bundled profile: "
        "the list it carries, reports/NAME/expected-failures.txt)",
    )
    parser.add_argument(
        "--no-expected-failures",
        action="store_true",
        help="use no expected-failure list, not even a bundled profile's",
    )
    parser.add_argument(
        "--min-played",
        type=float,
        default=MIN_PLAYED,
        metavar="PERCENT",
        help=f"FAILED when the program plays under this share of the planned items (default {MIN_PLAYED:g})",
    )
    parser.add_argument(
        "--max-excused",
        type=float,
        default=MAX_EXCUSED,
        metavar="PERCENT",
        help="FAILED when the expected-failure list names over this share of the cases loaded "
        f"(default {MAX_EXCUSED:g})",
    )
    parser.add_argument(
        "--allow-no-pass",
        action="store_true",
        help="a run in which no item passed may be OK (without it, it is FAILED)",
    )
    parser.add_argument(
        "--engine-rules",
        metavar="R[,R…]",
        help="the rulesets a GTP engine claims to play (default: compared against all of them)",
    )
    transform = parser.add_mutually_exclusive_group()
    transform.add_argument(
        "--transform",
        metavar="SEED",
        help="give the program every item under a symmetry of the board and, where the rules allow, "
        "a swap of colours, drawn per item from SEED (any word: the same seed, the same draw), in "
        "place of the item as written; its answers are mapped back before they are judged "
        f"(default: a second pass gives one in {verify.SAMPLE_ONE_IN} of the items played under the "
        f"transforms seed {verify.DEFAULT_TRANSFORM_SEED!r} draws; spec/contract.md#contract.transform)",
    )
    transform.add_argument(
        "--no-transform",
        action="store_true",
        help="no second pass: give the program every item only as written",
    )
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="worker processes (default 1)")
    parser.add_argument(
        "--timeout", type=float, default=10.0, metavar="SECONDS", help="per command/request (default 10)"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--junit", type=Path, metavar="FILE", help="also write JUnit XML here")
    parser.add_argument("--html", type=Path, metavar="FILE", help="also write the HTML report here")
    parser.add_argument(
        "--report-dir",
        "-o",
        "--out",
        type=Path,
        metavar="DIR",
        help="write results.jsonl (streamed), report.json, report.xml and report.html here",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress line and no table")
    parser.add_argument("--verbose", "-v", action="store_true", help="also list expected failures and skips")


def _check(args: argparse.Namespace) -> None:
    if args.jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {args.jobs}")
    if not (args.timeout > 0 and math.isfinite(args.timeout)):
        raise InputError(f"--timeout must be a positive, finite number of seconds, got {args.timeout:g}")
    for flag, value in (("--min-played", args.min_played), ("--max-excused", args.max_excused)):
        if not 0 <= value <= 100:
            raise InputError(f"{flag} is a percentage from 0 to 100, got {value:g}")
    if args.timeout > MAX_TIMEOUT:
        raise InputError(f"--timeout {args.timeout:g}: at most {MAX_TIMEOUT:,} seconds (a day)")


def _check_outputs(args: argparse.Namespace) -> None:
    """No report is written over the suite, the expected-failure list or a file of another kind
    (jpdtools/outputs.py), checked before any program starts."""
    outputs = [Output("--junit", args.junit, "junit"), Output("--html", args.html, "html")]
    if args.report_dir is not None:
        d = args.report_dir
        outputs += [
            Output("--report-dir", d, "dir"),
            Output("--report-dir", d / "results.jsonl", "jsonl"),
            Output("--report-dir", d / "report.json", "json"),
            Output("--report-dir", d / "report.xml", "junit"),
            Output("--report-dir", d / "report.html", "html"),
        ]
    inputs = [*suite_paths(args), *([args.expected_failures] if args.expected_failures else [])]
    check_outputs(outputs, inputs)


def _engine_rules(args: argparse.Namespace, names: list[str]) -> frozenset[str] | None:
    if args.engine_rules is None:
        return None
    wanted = [n.strip() for n in args.engine_rules.split(",")]
    unknown = [n for n in wanted if n not in names]
    if unknown or not all(wanted):
        bad = ", ".join(repr(n) for n in unknown) or "an empty name"
        raise InputError(f"--engine-rules: {bad} is not a preset (known: {', '.join(names)})")
    return frozenset(wanted)


def _transforming(args: argparse.Namespace) -> verify.Transforming | None:
    """``--transform SEED`` (every item, in one pass), ``--no-transform`` (None), else the second
    pass of a sample drawn from the default seed."""
    if args.no_transform:
        return None
    if args.transform is None:
        return verify.Transforming(verify.DEFAULT_TRANSFORM_SEED, args.impl, verify.SAMPLE_ONE_IN)
    seed = args.transform
    if not seed or not seed.isprintable() or any(c.isspace() for c in seed) or len(seed) > 64:
        raise InputError(f"--transform {seed!r}: a seed is up to 64 visible characters without spaces")
    return verify.Transforming(seed, args.impl)


def _notes(args: argparse.Namespace, names: list[str]) -> tuple[str, ...]:
    if args.engine_rules is None and args.impl.startswith("gtp:"):
        return (
            f"a GTP engine plays its own rules: it is compared against all {len(names)} rulesets; "
            "say which it plays with --engine-rules R[,R…] (e.g. --engine-rules chinese)",
        )
    return ()


def _expected_list(args: argparse.Namespace) -> tuple[Path | None, str]:
    """The expected-failure list to use, and a note saying so when it is a bundled profile's:
    ``--expected-failures FILE``, else none with ``--no-expected-failures``, else the list the
    bundled profile carries (``gnugo``, ``sgfmill``, …: :func:`jpdtools.paths.bundled_expected_failures`)."""
    if args.expected_failures is not None:
        if args.no_expected_failures:
            raise InputError("give --expected-failures FILE or --no-expected-failures, not both")
        return args.expected_failures, ""
    if args.no_expected_failures or ":" in args.impl:
        return None, ""
    bundled = bundled_expected_failures(args.impl)
    if bundled is None:
        return None, ""
    explained = bundled.with_name("DEVIATIONS.md")
    where = (
        f"in {explained}"
        if explained.is_file()  # a checkout; an installed wheel carries the list only
        else f"in reports/{args.impl}/DEVIATIONS.md of the jipingdian repository"
    )
    note = (
        f"expected failures: the list the {args.impl} profile carries, {bundled} (each entry explained "
        f"{where}; --expected-failures FILE or --no-expected-failures to change)"
    )
    return bundled, note


class _Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: stop, close the engines, write what ran, say so."""


def _on_sigterm(signum, frame) -> None:
    raise _Terminated


def _names_variant(name: str, presets: Presets) -> bool:
    """Whether an expected-failure line's ruleset part names a variant of a preset
    (``aga:pass=allowed``): a list may excuse items of a variant the run does not plan."""
    if ":" not in name or any(c in name for c in "*?["):
        return False
    try:
        parse_rules_option([name], presets)
    except InputError:
        return False
    return True


def run(args: argparse.Namespace) -> int:
    _check(args)
    _check_outputs(args)
    presets = load_presets()
    engine_rules = _engine_rules(args, presets.names)
    loader = default_loader()  # the selection first: a selection error starts no engine
    plan = selected_plan(args, presets, loader)
    names = [*presets.names, *sorted({i.ruleset for i in plan.items} - set(presets.names))]
    listed, listed_note = _expected_list(args)
    notes = _notes(args, presets.names) + plan.notes()
    notes += (listed_note,) if listed_note else ()
    expected = verify.load_expected_failures(
        listed, names, functools.partial(_names_variant, presets=presets)
    )
    unplanned = sorted({r for _, r, _, _ in expected.patterns if _names_variant(r, presets)} - set(names))
    if unplanned:
        notes += (
            f"the expected-failure list names variants this run does not plan ({', '.join(unplanned)}): "
            "its lines excuse nothing unless --rules asks for them",
        )
    suite = selected_suite(args)
    items = [i for i in plan.items if i.rules is not None]  # error cases test jpd's loader, not the impl
    if engine_rules is not None:  # a GTP engine asked about its own rules only: nothing else planned
        items = [i for i in items if i.ruleset.partition(":")[0] in engine_rules]
    if not items and not plan.failures:
        selection = describe_selection(args, suite_paths(args))
        raise NothingSelected(f"nothing selected: no case to ask a program about matches {selection}")
    transforming = _transforming(args)
    if transforming is not None and not transforming.sampled:
        notes += (
            f"--transform {transforming.seed}: each item is given under a symmetry of the board (and "
            "colours swapped where the rules allow) drawn from this seed; the same seed replays the draw",
        )
    opener = functools.partial(verify.open_impl, engine_rules=engine_rules)
    adapter = opener(args.impl, args.timeout)
    try:
        verify.started(adapter, args.impl, items[0].rules if items else None)  # cannot start: exit 2
    except InputError:
        verify.close_impl(adapter)
        raise
    name = adapter.name
    if notes and not (args.quiet or args.json):
        for note in notes:
            print(f"jpd verify: note: {note}", file=sys.stderr)
    stream = _open_stream(args.report_dir)
    progress = report.Progress(sys.stderr, len(items), enabled=not (args.quiet or args.json))
    collected: list[verify.VerifyResult] = []
    planned = len(items)
    interrupted = False
    began = time.perf_counter()
    orphans = Orphans()
    previous = signal.signal(signal.SIGTERM, _on_sigterm)

    def given(plan, offset: int, under: verify.Transforming | None):
        """The results of one pass over ``plan`` (indices after ``offset``), streamed and shown."""
        if args.jobs == 1:
            results = verify.run_serial(plan, adapter, under)
        else:
            verify.close_impl(adapter)
            results = verify.run_parallel(plan, args.impl, args.timeout, args.jobs, opener, under)
        for vr in results:
            vr = verify.with_outcome(replace(vr, index=vr.index + offset), expected)
            if offset and verify.given_nothing(vr):
                continue  # no transform keeps this item's verdict: it is not given a second time
            collected.append(vr)
            done = len(collected)
            progress(done, planned, vr.result, vr.outcome is verify.Outcome.EXPECTED_FAILURE)
            if stream is not None:
                stream.write(json.dumps(result_json(vr), ensure_ascii=False) + "\n")
                stream.flush()

    try:
        sampled = transforming is not None and transforming.sampled
        given(items, 0, None if sampled else transforming)
        if sampled:
            assert transforming is not None
            second = [items[i] for i in verify.transform_sample(collected, transforming)]
            planned += len(second)
            given(second, len(items), transforming)
            planned = len(collected)  # an item no transform keeps is not given again
    except KeyboardInterrupt:
        interrupted = True
    finally:
        with _signals_held():  # the engines are closed and the reports written, whatever comes
            progress.finish()
            verify.close_impl(adapter)
            if stream is not None:
                stream.close()
            orphans.clear()
            signal.signal(signal.SIGTERM, previous)
    wall = time.perf_counter() - began
    collected.sort(key=lambda r: r.index)
    matched = {r.expected_failure for r in collected if r.expected_failure}
    timing = Timing(wall, sum(r.seconds for r in collected), sum(r.engine_seconds for r in collected))
    outcome = VerifyRun(
        name,
        args.impl,
        tuple(collected),
        plan.failures,
        interrupted,
        args.jobs,
        timing,
        tuple(expected.unused(matched)) if not interrupted else (),
        planned=planned,
        notes=notes,
        suite=suite,
        min_played=args.min_played,
        max_excused=args.max_excused,
        excused=(expected.named(plan.case_ids), len(plan.case_ids)),
        allow_no_pass=args.allow_no_pass,
        transform_seed=transforming.seed if transforming is not None else None,
        transform_one_in=transforming.one_in if transforming is not None else None,
    )
    order = ruleset_order(args, presets)
    with _signals_held():
        if args.json:
            print(format_json(outcome, order))
        else:
            text = format_text(outcome, order, args.verbose, args.quiet, table.terminal_width(args.wide))
            print(colour.verdict_line(text, outcome.ok and not interrupted, sys.stdout))
        status = _write_reports(args, outcome, order, items)
    if status:
        return status
    if interrupted:
        return INTERRUPTED
    return SUCCESS if outcome.ok else FAILURE


@contextlib.contextmanager
def _signals_held():
    """Ignore SIGINT and SIGTERM while engines are closed and reports written (a second Ctrl-C
    must not leave a half-written report or a running engine)."""
    held = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in held.items():
            signal.signal(sig, handler)


def _open_stream(directory: Path | None):
    if directory is None:
        return None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        return (directory / "results.jsonl").open("w", encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot write to {directory}: {err.strerror or err}") from None


def _write_reports(args: argparse.Namespace, run: VerifyRun, order: list[str], items) -> int:
    targets: list[tuple[Path, str]] = []
    if args.junit:
        targets.append((args.junit, format_junit(run, order)))
    if args.html or args.report_dir:
        # the failing items illustrated with the case book's boards, clauses and commands
        html = format_html(run, order, illustrator(items, args.impl, spec_anchors(spec_dir())))
    if args.html:
        targets.append((args.html, html))
    if args.report_dir:
        targets += [
            (args.report_dir / "report.json", format_json(run, order) + "\n"),
            (args.report_dir / "report.xml", format_junit(run, order)),
            (args.report_dir / "report.html", html),
        ]
    for path, text in targets:
        try:
            atomic.write_text(path, text)  # whole or not at all (a full disk leaves no half report)
        except InputError as err:
            print(f"jpd: error: {err}", file=sys.stderr)
            return ERROR
    return SUCCESS
