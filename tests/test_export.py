"""The exports (``jpd export``): JSON Lines + schema, the re-import round trip, SGF, GTP scripts."""

import itertools
import json
import os
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from jpdref.coords import Geometry
from jpdtools.cli import main
from jpdtools.errors import InputError
from jpdtools.exitcodes import FAILURE, SUCCESS
from jpdtools.export.gtp import GtpScript, gtp_script, setup_plays
from jpdtools.export.jsonl import fixed_points, record
from jpdtools.export.layout import JSONL_NAME, NOT_EXPORTED_NAME, file_name, write_export
from jpdtools.export.reimport import item_from_record, parse_records, read_plan
from jpdtools.export.sgf import escape, sgf_text
from jpdtools.paths import conformance_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.records.sgf import parse_sgf_text
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.runner import Filters, default_loader, plan_paths, run_plan
from jpdtools.suite.setup import Setup

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is needed to validate the export schema")


# -- the whole suite, exported once ------------------------------------------------------------
@pytest.fixture(scope="module")
def suite():
    presets = load_presets()
    loader = default_loader()
    plan = plan_paths([conformance_dir()], presets, Filters(), loader)
    assert not plan.failures and not plan.errors
    return presets, loader, plan


@pytest.fixture(scope="module")
def exported(suite, tmp_path_factory):
    _, _, plan = suite
    outdir = tmp_path_factory.mktemp("export")
    written = {w.form: w for w in write_export(list(plan.items), outdir, ("json", "sgf", "gtp"))}
    return outdir, written


def _records(outdir: Path) -> list[dict]:
    lines = (outdir / JSONL_NAME).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


# -- JSON Lines ----------------------------------------------------------------------------------
def _schema() -> dict:
    schema = json.loads((spec_dir() / "export.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


# The keywords under which a subschema's verdict on a value depends on more than the two (the
# annotations of its neighbours, the dynamic scope): with none of them in the schema, a value that
# once passed a subschema passes it again wherever it stands.
_CONTEXTUAL = {"unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$dynamicAnchor", "$recursiveRef"}


def _keywords(node) -> set[str]:
    if isinstance(node, dict):
        return set(node).union(*(_keywords(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_keywords(v) for v in node))
    return set()


def _remembering_validator(schema: dict):
    """A Draft 2020-12 validator of ``schema`` that validates each object or array under a given
    subschema once: the exported records repeat the same moves, steps, claims and rulesets
    thousands of times, and jsonschema spends its time walking them. A value that failed is walked
    again (its errors are reported in full); only what passed is remembered, by its canonical JSON,
    which tells apart every two values that a validator could tell apart."""
    assert not _keywords(schema) & _CONTEXTUAL, "the schema's verdicts now depend on context"
    passed: set[tuple[int, str]] = set()
    kept: dict[int, dict] = {}  # the subschemas remembered by id, kept alive so no id is reused

    class Remembering:
        def __init__(self, validator):
            self._validator = validator

        def __getattr__(self, name):
            return getattr(self._validator, name)

        def descend(self, instance, schema, **kwargs):
            if not isinstance(instance, dict | list) or not isinstance(schema, dict):
                yield from self._validator.descend(instance, schema, **kwargs)
                return
            key = (id(kept.setdefault(id(schema), schema)), json.dumps(instance, sort_keys=True))
            if key in passed:
                return
            errors = list(self._validator.descend(instance, schema, **kwargs))
            if not errors:
                passed.add(key)
            yield from errors

    def remembering(keyword):
        def check(validator, value, instance, schema):
            yield from keyword(Remembering(validator), value, instance, schema)

        return check

    base = jsonschema.Draft202012Validator
    keywords = {name: remembering(base.VALIDATORS[name]) for name in ("properties", "items")}
    return jsonschema.validators.extend(base, keywords)(schema)


def test_every_record_validates_against_the_schema(suite, exported):
    _, _, plan = suite
    outdir, written = exported
    validator = _remembering_validator(_schema())
    records = _records(outdir)
    assert len(records) == len(plan.items) == written["json"].count
    bad = []
    for data in records:
        if validator.is_valid(data):
            continue
        error = jsonschema.exceptions.best_match(validator.iter_errors(data))
        if error is not None:
            bad.append(f"{data.get('id')}[{data.get('ruleset', {}).get('name')}]: {error.message[:200]}")
    assert not bad, "\n".join(bad[:10])


def test_the_schema_rejects_what_is_not_a_record(exported):
    outdir, _ = exported
    schema = _schema()
    validator = jsonschema.Draft202012Validator(schema)
    remembering = _remembering_validator(schema)
    records = _records(outdir)
    first = next(r for r in records if r["kind"] == "case")
    assert all(remembering.is_valid(r) for r in [*records[:200], first])  # what it remembers
    broken = [
        {**first, "extra": 1},
        {**first, "to_move": "X"},
        {**first, "moves": [{"color": "B", "kind": "move", "vertex": None}]},
        {**first, "moves": [*first["moves"], {"color": "B", "kind": "move", "vertex": "A26"}]},
        {**first, "ruleset": {**first["ruleset"], "axes": {**first["ruleset"]["axes"], "komi": "7,5"}}},
        {**first, "expect": {**first["expect"], "steps": [{"step": 1, "open": False, "alternatives": [[]]}]}},
        {k: v for k, v in first.items() if k != "ruleset"},
    ]
    for data in broken:
        errors = [(e.message, list(e.absolute_path)) for e in validator.iter_errors(data)]
        assert errors, data
        assert [(e.message, list(e.absolute_path)) for e in remembering.iter_errors(data)] == errors, data
        assert not remembering.is_valid(data), data


def test_a_record_is_fully_expanded(exported):
    outdir, _ = exported
    by_name = {(r["id"], r.get("ruleset", {}).get("name")): r for r in _records(outdir)}
    ko = by_name[("ko.simple.001", "chinese")]
    assert ko["source"] == {"file": "conformance/ko.yaml", "line": 5, "column": 9}
    assert ko["ruleset"]["axes"]["illegal-move"] == "void-pass"
    assert ko["board"] == {"width": 7, "height": 7} and ko["to_move"] == "B"
    assert {"vertex": "C4", "color": "W"} in ko["setup"]
    assert ko["moves"] == [
        {"color": "B", "kind": "move", "vertex": "D4"},
        {"color": "W", "kind": "move", "vertex": "C4"},
    ]
    step2 = ko["expect"]["steps"][1]
    assert step2["alternatives"][0][0] == {"kind": "void-pass", "args": ["superko"]}
    assert ko["expect"]["end"] == {"state": "contest", "args": ["B"]}
    assert ko["expect"]["selector"] == "illegal-move=void-pass"
    opened = [r for r in by_name.values() if r["kind"] == "case" and r["expect"]["open"]]
    assert opened and all(r["expect"]["open_questions"] for r in opened)
    fixed = by_name[("handicap.fixed9.002", "japanese")]
    assert fixed["handicap"] == 2 and fixed["handicap_points"] == ["G7", "C3"]
    errors = [r for r in by_name.values() if r["kind"] == "load-error"]
    assert errors and all({"file", "code", "line", "column"} == set(r["load_error"]) for r in errors)


# -- re-import: the round trip ------------------------------------------------------------------
def _verdicts(run) -> list[tuple]:
    return [
        (r.case_id, r.ruleset, r.status, r.mismatches, r.detail, r.line, r.observation) for r in run.results
    ]


def test_reimport_and_run_gives_identical_verdicts(suite, exported):
    presets, loader, plan = suite
    outdir, _ = exported
    direct = run_plan(plan, ReferenceAdapter(), presets, loader)
    again = run_plan(read_plan(outdir / JSONL_NAME), ReferenceAdapter(), presets, loader)
    assert len(again.results) == len(direct.results) == len(plan.items)
    differ = [(a, b) for a, b in zip(_verdicts(direct), _verdicts(again), strict=True) if a != b]
    assert not differ, differ[:3]
    assert direct.ok and again.ok


def test_reimported_items_equal_the_planned_ones(suite, exported):
    _, _, plan = suite
    outdir, _ = exported
    for planned, back in zip(plan.items, read_plan(outdir / JSONL_NAME).items, strict=True):
        if planned.case.setup is not None:  # the set-up as written (diagram, SGF) is not exported
            assert back.case.setup == replace(planned.case.setup, source="size", text="")
        assert (back.case.history, back.case.moves) == (planned.case.history, planned.case.moves)
        assert back.expectation == planned.expectation
        assert back.case.load_error == planned.case.load_error
        if planned.rules is not None:
            assert back.rules == replace(planned.rules, title="")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "a record is a JSON object"),
        ('{"kind": "case"}', "'source': missing"),
    ],
)
def test_a_bad_record_is_an_input_error_with_its_line(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text('\n{"x": 1}\n'.replace('{"x": 1}', line), encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_plan(path)
    assert message in str(info.value) and ":2:" in str(info.value)


def test_a_record_with_a_bad_ruleset_names_the_field(suite):
    _, _, plan = suite
    data = record(next(i for i in plan.items if i.rules is not None))
    data["ruleset"]["axes"]["suicide"] = "sometimes"
    [(parsed, where)] = parse_records(json.dumps(data), "x.jsonl")
    with pytest.raises(InputError, match=r"ruleset\.axes"):
        item_from_record(parsed, where)


# -- SGF -----------------------------------------------------------------------------------------
def _sgf_items(plan):
    return [i for i in plan.items if i.rules is not None]


def _expected_setup(item) -> dict[str, str]:
    stones = dict(item.case.setup.stones)
    stones.update(dict.fromkeys(fixed_points(item.case.setup, item.rules), "B"))
    return stones


def _expected_moves(item) -> list[tuple[str, str | None]]:
    actions = [a for a in (*item.case.history, *item.case.moves) if a.kind != "resign"]
    return [(a.color, a.vertex if a.kind == "move" else None) for a in actions]


def test_every_sgf_reads_back_with_our_reader(suite, exported):
    _, _, plan = suite
    outdir, written = exported
    items = _sgf_items(plan)
    assert written["sgf"].count == len(items) and not written["sgf"].problems
    for item in items:
        path = outdir / "sgf" / item.case.id / f"{file_name(item.ruleset)}.sgf"
        game = parse_sgf_text(path.read_text(encoding="utf-8"), str(path))
        setup = item.case.setup
        g = Geometry(game.width, game.height)
        assert (game.width, game.height) == (setup.width, setup.height), path
        assert {g.to_gtp(p): c.letter for p, c in game.setup.items()} == _expected_setup(item), path
        moves = [(c.letter, None if p is None else g.to_gtp(p)) for c, p in game.moves]
        assert moves == _expected_moves(item), path
        assert game.ruleset == item.ruleset and game.komi == "0"
        assert game.first_to_move.letter == ("W" if fixed_points(setup, item.rules) else setup.to_move)


def test_every_sgf_opens_in_sgfmill(suite, exported):
    from sgfmill import sgf, sgf_grammar

    _, _, plan = suite
    outdir, _ = exported
    square = 0
    for item in _sgf_items(plan):
        data = (outdir / "sgf" / item.case.id / f"{file_name(item.ruleset)}.sgf").read_bytes()
        setup = item.case.setup
        if setup.width != setup.height:  # sgfmill knows only square boards: check the syntax
            sgf_grammar.parse_sgf_game(data)
            with pytest.raises(ValueError, match="SZ"):
                sgf.Sgf_game.from_bytes(data)
            continue
        square += 1
        game = sgf.Sgf_game.from_bytes(data)
        assert game.get_size() == setup.width
        root = game.get_root()
        black, white, _ = root.get_setup_stones()
        size = setup.width
        as_gtp = {
            (r, c): "ABCDEFGHJKLMNOPQRSTUVWXYZ"[c] + str(r + 1) for r in range(size) for c in range(size)
        }
        stones = {as_gtp[p]: "B" for p in black} | {as_gtp[p]: "W" for p in white}
        assert stones == _expected_setup(item)
        moves = [n.get_move() for n in game.get_main_sequence()[1:]]
        got = [(c.upper(), None if p is None else as_gtp[p]) for c, p in moves if c is not None]
        assert got == _expected_moves(item)
        assert item.case.id in root.get("C") and item.case.title in root.get("C")
        assert root.get("RU") == item.ruleset
    assert square > 0


def test_sgf_comments_carry_the_expectations(suite):
    _, _, plan = suite
    item = next(i for i in plan.items if i.case.id == "ko.simple.001" and i.ruleset == "japanese")
    text = sgf_text(item)
    assert "RE[B+F]" in text and "RU[japanese]" in text and "KM[0]" in text
    assert "expected:\n1: legal captures C4\n2: forfeit ko\nend: ended illegal-move B" in text
    assert "step 2: W C4\nexpected: forfeit ko" in text
    virtual = next(i for i in plan.items if any(a.kind == "virtual" for a in i.case.moves))
    assert "virtual move" in sgf_text(virtual)
    assert escape("a]b\\c") == "a\\]b\\\\c"


# -- GTP -----------------------------------------------------------------------------------------
_NUMBERED = re.compile(r"^(\d+) (\S+)")
_COMMANDS = {"boardsize", "clear_board", "komi", "play", "is_legal", "color", "captures", "fixed_handicap"}


def check_regression_file(text: str) -> int:
    """GNU Go's regress.awk: every numbered command has its ``#?`` on the next line, numbers
    increase, every ``#?`` follows a numbered command. Returns the number of judged commands."""
    lines = text.splitlines()
    last, judged = 0, 0
    for n, line in enumerate(lines):
        if line.startswith("#?"):
            assert n > 0 and _NUMBERED.match(lines[n - 1]), f"line {n + 1}: #? not after a numbered command"
            assert re.fullmatch(r"#\? \[[^\]]*\]&?", line), f"line {n + 1}: {line!r}"
            continue
        if line.startswith("#") or not line.strip():
            continue
        m = _NUMBERED.match(line)
        command = m.group(2) if m else line.split()[0]
        assert command in _COMMANDS, f"line {n + 1}: unexpected command {line!r}"
        if m:
            assert int(m.group(1)) > last, f"line {n + 1}: numbers must increase"
            last = int(m.group(1))
            judged += 1
            assert n + 1 < len(lines) and lines[n + 1].startswith("#? "), f"line {n + 1}: no #? after it"
    return judged


def test_every_gtp_script_is_well_formed(suite, exported):
    _, _, plan = suite
    outdir, written = exported
    gtp = written["gtp"]
    assert not gtp.problems
    files = sorted((outdir / "gtp").glob("*.tst"))
    assert len(files) == gtp.count > 0
    assert gtp.count + len(gtp.not_exported) == len(_sgf_items(plan))
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert check_regression_file(text) > 0 or "not expressed" in text, path
        head = text.splitlines()[0]
        case_id, ruleset = path.name[: -len(".tst")].rsplit(".", 1)
        named = head.split(f"case {case_id} under ruleset ", 1)[1].split(" ", 1)[0]
        assert file_name(named) == ruleset, head  # a variant (aga:komi=0) is named safely
        assert "GNU Go flags this ruleset needs: --komi 0" in text
    listing = (outdir / "gtp" / NOT_EXPORTED_NAME).read_text(encoding="utf-8")
    assert "no-retreat" in listing and "accepted virtual move" in listing and "boardsize" in listing
    assert "cannot be rebuilt" not in listing


def _script(plan, case_id: str, ruleset: str) -> GtpScript:
    item = next(i for i in plan.items if i.case.id == case_id and i.ruleset == ruleset)
    return gtp_script(item)


def test_gtp_scripts_play_the_illegal_move_policy(suite):
    _, _, plan = suite
    chinese = _script(plan, "ko.simple.001", "chinese").text
    assert "--positional-superko" in chinese
    assert "is_legal W C4\n#? [0]\n" in chinese and "play W C4\n#? [illegal move]\n" in chinese
    assert chinese.rstrip().endswith("play W pass")  # void-pass: the refused move is W's pass
    assert "to-move B" in chinese.split("boardsize")[0]  # listed as not expressed
    japanese = _script(plan, "ko.simple.001", "japanese").text
    assert "--positional-superko" not in japanese and "play W pass" not in japanese
    assert "color C4\n#? [empty]" in japanese and "captures black\n#? [1]" in japanese
    assert check_regression_file(japanese) == 7
    no_retreat = _script(plan, "ko.simple.001", "jpd-2022")
    assert no_retreat.text is None and "no-retreat" in no_retreat.reason


def test_gtp_error_cases_and_odd_boards_have_no_script(suite):
    _, _, plan = suite
    error_item = next(i for i in plan.items if i.rules is None)
    assert gtp_script(error_item).text is None
    odd = next(i for i in plan.items if i.rules is not None and i.case.setup.width != i.case.setup.height)
    assert "boardsize" in gtp_script(odd).reason


def test_set_up_plays_never_capture():
    rows = ("XO.", "XOO", ".XO")  # in reading order, whatever the order: no play captures
    stones = tuple(
        (f"{'ABC'[x]}{3 - y}", "B" if c == "X" else "W")
        for y, row in enumerate(rows)
        for x, c in enumerate(row)
        if c in "XO"
    )
    plays = setup_plays(Setup(3, 3, "B", stones))
    assert [(v, c) for v, c, _ in plays] == list(stones)
    assert plays[-1][2] == "/".join(rows)


# -- the command -------------------------------------------------------------------------------
def test_jpd_export_writes_every_form(tmp_path, capsys):
    status = main(
        ["export", "--to", "all", str(tmp_path), str(conformance_dir() / "ko.yaml"), "--rules", "aga"]
    )
    out = capsys.readouterr().out
    assert status == SUCCESS, out
    assert (tmp_path / JSONL_NAME).is_file()
    assert (tmp_path / "sgf" / "ko.simple.001" / "aga.sgf").is_file()
    assert (tmp_path / "gtp" / "ko.simple.001.aga.tst").is_file()
    assert "json:" in out and "sgf:" in out and "gtp:" in out


def test_jpd_export_reports_a_bad_file_and_exports_the_rest(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\ncases:\n  - id: Bad Id\n", encoding="utf-8")
    out = tmp_path / "out"
    status = main(["export", "--to", "json", str(out), str(bad), str(conformance_dir() / "ko.yaml")])
    captured = capsys.readouterr()
    assert status == FAILURE
    assert f"{bad}:3:" in captured.err
    records = _records(out)
    assert records and all(r["source"]["file"].endswith("ko.yaml") for r in records)


def test_jpd_export_rejects_bad_options(tmp_path, capsys):
    assert main(["export", "--to", "json", str(tmp_path), "--rules", "nonsense"]) == 2
    assert "jpd: error:" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["export", "--to", "pdf", str(tmp_path)])


# -- the scripts in GNU Go itself ----------------------------------------------------------------
def _gnugo() -> str:
    binary = shutil.which("gnugo") or ("/usr/games/gnugo" if Path("/usr/games/gnugo").is_file() else None)
    if binary is None:
        message = "GNU Go is not installed (apt-get install gnugo): the GTP scripts were not run in it"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return binary


def regress(binary: str, text: str) -> list[tuple[str, str, str]]:
    """Run a script as GNU Go's regress.awk does: (number, pattern, reply) of every judged
    command whose reply does not match its anchored pattern."""
    flags = re.search(r"GNU Go flags this ruleset needs: (.*)", text).group(1).split()
    out = subprocess.run(
        [binary, "--quiet", "--mode", "gtp", *flags], input=text, capture_output=True, text=True, timeout=120
    ).stdout
    replies = dict(re.findall(r"^[=?](\d+) (.*?)\s*$", out, re.MULTILINE))
    lines = text.splitlines()
    failures = []
    for before, line in itertools.pairwise(lines):
        if not line.startswith("#? ") or line.endswith("&"):
            continue
        number, pattern = before.split()[0], line[4:-1]
        reply = replies.get(number)
        if reply is None or not re.fullmatch(pattern, reply):
            failures.append((number, pattern, reply))
    return failures


@pytest.mark.parametrize("ruleset", ["chinese", "japanese", "aga", "ing", "wmsg-2008"])
def test_simple_ko_scripts_pass_in_gnugo(suite, ruleset):
    binary = _gnugo()
    _, _, plan = suite
    items = [i for i in plan.items if i.ruleset == ruleset and i.case.id.startswith("ko.simple.00")]
    scripts = [s.text for s in map(gtp_script, items) if s.text is not None]
    size = re.compile(r"^boardsize (\d+)$", re.MULTILINE)
    scripts = [t for t in scripts if int(size.search(t).group(1)) <= 19]  # GNU Go 3.8 stops at 19x19
    assert scripts
    for text in scripts:
        assert regress(binary, text) == [], text.splitlines()[0]


# -- counting: agreement, counters and count verdicts in the records ---------------------------
def test_counting_records_carry_the_agreement_and_the_count(exported):
    outdir, _ = exported
    records = [r for r in _records(outdir) if r["id"] == "count.example.dead-stone"]
    assert records
    by_rules = {r["ruleset"]["name"]: r for r in records}
    final = by_rules["chinese"]["final"]
    assert final["agreement"]["dead"] == ["A4"] and final["counters"]["moves"] == [4, 5]
    assert final["counters"]["passes"] == [2, 1] and final["counters"]["handicap"] is None
    count = by_rules["chinese"]["expect"]["count"]
    assert count == {
        "open": False,
        "alternatives": [
            {"kind": "result", "winner": "W", "margin": "-7.5", "black": "8", "white": "8", "unit": "子"}
        ],
    }
    points = by_rules["tromp-taylor"]["expect"]["points"]
    assert {"vertices": ["A4"], "owner": "W", "why": "stone"} in points
    plain = next(r for r in _records(outdir) if r["id"] == "board.occupied.001")
    assert plain["final"] is None and plain["expect"]["count"] is None and plain["expect"]["points"] == []


def test_the_schema_checks_count_claims(exported):
    outdir, _ = exported
    schema = json.loads((spec_dir() / "export.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    record = next(r for r in _records(outdir) if r["id"] == "count.example.dead-stone")
    assert validator.is_valid(record)
    for change in (
        {"margin": "-1/2"},
        {"winner": "X"},
        {"unit": "pts"},
        {"kind": "error"},
    ):
        bad = json.loads(json.dumps(record))
        bad["expect"]["count"]["alternatives"][0].update(change)
        assert not validator.is_valid(bad), change
    bad = json.loads(json.dumps(record))
    bad["final"]["agreement"]["dead"] = ["Z99"]
    assert not validator.is_valid(bad)


# -- settling by play: the settle key and the settling claims in the records -------------------
def test_settling_records_carry_the_dispute_and_the_settling_claims(exported):
    outdir, _ = exported
    by_id = {(r["id"], r.get("ruleset", {}).get("name")): r for r in _records(outdir)}
    record = by_id[("settle.art-2008.test.white-starts", "jpd-art-2008")]
    settle = record["final"]["settle"]
    assert settle["first"] == "W" and settle["dispute"] == {"stones": ["D3"], "claims": []}
    assert settle["moves"][0] == {"color": "W", "kind": "move", "vertex": "D2"}
    claims = record["expect"]["settle"]
    assert claims["settled"] == [0, 1] and claims["end"] == {"state": "halted", "args": ["two-passes"]}
    assert claims["proved"] == [{"kind": "dead", "vertices": ["D3"], "claim": None}]
    assert claims["steps"][0]["alternatives"][0][1] == {"kind": "captures", "args": ["D3"]}
    rejected = by_id[("settle.art-2008.ko.claim-rejected", "jpd-art-2008")]["expect"]["settle"]["proved"]
    assert {
        "kind": "rejected",
        "vertices": [],
        "claim": {"color": "B", "kind": "ko", "vertex": "B3"},
    } in rejected
    refused = by_id[("settle.error.no-procedure", "chinese")]["expect"]["settle"]
    assert refused["error"] == "no-procedure" and refused["steps"] == []
    assert by_id[("board.occupied.001", "jpd-2022")]["expect"]["settle"] is None


def test_the_schema_checks_settling(exported):
    outdir, _ = exported
    schema = json.loads((spec_dir() / "export.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    record = next(r for r in _records(outdir) if r["id"] == "settle.art-2.continuation.virtual-for-pass")
    assert validator.is_valid(record)
    assert record["expect"]["settle"]["end"]["args"] == ["two-virtual"]
    for path, value in (
        (("final", "settle", "first"), "X"),
        (("expect", "settle", "settled"), [1]),
        (("expect", "settle", "error"), "bogus"),
        (("expect", "settle", "end", "args"), ["three-virtual"]),
    ):
        bad = json.loads(json.dumps(record))
        target = bad
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        assert not validator.is_valid(bad), path


def test_gtp_scripts_list_the_settling_claims_as_not_expressed(suite):
    _, _, plan = suite
    from jpdtools.export.gtp import gtp_script

    item = next(i for i in plan.items if i.case.id == "settle.art-2008.test.white-starts")
    script = gtp_script(item)
    assert any(s.startswith("settled: B 0 W 1") for s in script.skipped)
    assert any(s.startswith("proved: dead D3") for s in script.skipped)
