"""``jpd replay PATH…`` over a collection: records as they are in the wild, archives, the
summary, shards, merge, resume after a kill, and a Dask cluster. {#count.replay}

Each record is built here with the property under test; expected values come from
spec/counting.md#count.replay ("Refereeing a collection") and the rulesets' axes in
spec/rulesets.yaml, not from the implementation's output.
"""

import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest
from jpdtools.cli import main
from jpdtools.records.charset import decode_sgf
from jpdtools.records.sources import find_sources, read_records
from jpdtools.records.summary import Tally, dumps

COLUMNS = ";B[bc];W[cc];B[bb];W[cb];B[bd];W[cd];B[ba];W[ca];B[be];W[ce]"  # B column b, W column c


def _sgf(body: str, root: str = "SZ[5]") -> bytes:
    return f"(;GM[1]FF[4]{root}{body})".encode()


WILD: dict[str, bytes] = {
    # Played out to two passes: counted as it stands. Area: Black 10, White 15.
    "passes.sgf": _sgf(COLUMNS + ";B[];W[]", "SZ[5]RE[W+12.5]"),
    # The same game with tt passes on 19x19 is not the same board; here: tt on 19x19, two passes.
    "tt.sgf": _sgf(";B[dd];W[pp];B[tt];W[tt]", "SZ[19]"),
    # Latin-1 without CA: the bytes are not UTF-8 (ü is FC).
    "latin1.sgf": b"(;GM[1]FF[4]SZ[9]PB[M\xfcller]RE[B+R];B[ee];W[cc])",
    # GB2312 names, a resignation.
    "gb2312.sgf": "(;GM[1]FF[4]CA[GB2312]SZ[9]PB[柯洁]PW[古力]RE[W+R];B[ee];W[cc];B[gg])".encode("gb2312"),
    # Big5: 許 is B3 5C, a backslash as the second byte; read as bytes it would escape the ']'.
    "big5.sgf": "(;GM[1]FF[4]CA[Big5]SZ[9]C[許]RE[B+T];B[ee];W[cc])".encode("big5"),
    # Variations and an escaped ']' in a comment: the main line is B E5, W C7, B G3.
    "variations.sgf": b"(;GM[1]SZ[9]C[a \\] b];B[ee](;W[cc];B[gg])(;W[gc];B[cg]))",
    # Handicap stones and a score in RE, but the record stops before the passes (OQ-54).
    "handicap.sgf": _sgf(";W[ee];B[cc];W[gg]", "SZ[9]HA[2]AB[cg][gc]RE[W+3.5]"),
    # A non-square board played out to two passes.
    "nonsquare.sgf": _sgf(";B[bb];W[db];B[];W[]", "SZ[7:5]"),
    # White's A5 is suicide: a void pass under chinese, a loss under japanese.
    "suicide.sgf": _sgf(";B[ba];W[ee];B[ab];W[aa];B[cc]", "SZ[5]"),
    # An occupied point: refused under every ruleset.
    "occupied.sgf": _sgf(";B[cc];W[cc];B[dd]", "SZ[5]"),
    # TB/TW marks: Black's D3 stands in White's marked area, so it is dead.
    "marks.sgf": _sgf(COLUMNS + ";B[dc];W[];B[]TB[aa:ae][bc]TW[da:ee]", "SZ[5]"),
    # No moves at all.
    "empty.sgf": b"(;GM[1]FF[4]SZ[9])",
    # Broken records: each a record error, never a crash.
    "unclosed.sgf": b"(;GM[1]SZ[9];B[ee];W[cc",
    "chess.sgf": b"(;GM[3]SZ[8];B[ee])",
    "huge.sgf": b"(;GM[1]SZ[40];B[aa])",
    "charset.sgf": b"(;GM[1]CA[klingon]SZ[9];B[ee])",
    "offboard.sgf": b"(;GM[1]SZ[9];B[zz])",
}
BROKEN = {"unclosed.sgf", "chess.sgf", "huge.sgf", "charset.sgf", "offboard.sgf"}


@pytest.fixture
def wild(tmp_path) -> Path:
    folder = tmp_path / "wild"
    (folder / "sub").mkdir(parents=True)
    for name, data in WILD.items():
        (folder / ("sub" if name.startswith("v") else "") / name).write_bytes(data)
    (folder / "notes.txt").write_text("not a record")
    return folder


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _verdicts(path: Path) -> dict[tuple[str, str], dict]:
    return {(Path(v["record"]).name, v["rules"]): v for v in _lines(path) if v["rules"] is not None}


def _run(*args: str) -> int:
    return main(["replay", *args])


# -- records in the wild ------------------------------------------------------------------------
def test_every_record_gets_verdicts_or_an_error(wild, tmp_path, capsys):
    out, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    status = _run(str(wild), "--rules", "all", "--jobs", "1", "--out", str(out), "--summary", str(summary))
    assert status == 1  # refused moves and record errors
    lines = _lines(out)
    errors = {Path(x["record"]).name: x["error"] for x in lines if x["rules"] is None}
    assert set(errors) == BROKEN
    for name, err in errors.items():
        assert name in err["message"]
    assert ":1:" in errors["offboard.sgf"]["message"] and errors["offboard.sgf"]["code"] == "unknown-vertex"
    assert errors["huge.sgf"]["code"] == "board-size"
    assert "klingon" in errors["charset.sgf"]["message"]
    names = {Path(x["record"]).name for x in lines if x["rules"] is not None}
    assert names == set(WILD) - BROKEN  # notes.txt is not a record; sub/ was searched
    assert len(lines) == len(errors) + 12 * len(names)  # 12 presets
    data = json.loads(summary.read_text(encoding="utf-8"))
    assert data["records"] == len(WILD) and data["verdicts"] == 12 * len(names)


def test_charsets_are_read_from_ca(tmp_path):
    assert "柯洁" in decode_sgf(WILD["gb2312.sgf"])
    assert "C[許]" in decode_sgf(WILD["big5.sgf"])
    assert "Müller" in decode_sgf(WILD["latin1.sgf"])


def test_endings_engine_first_then_re(wild, tmp_path):
    out = tmp_path / "out.jsonl"
    _run(str(wild), "--rules", "chinese+japanese+jpd-a", "--jobs", "1", "--out", str(out))
    v = _verdicts(out)
    # Two passes halt chinese; under jpd-a (no passes) they are two virtual moves, short of four:
    # the record's own end, and it is counted (spec/counting.md#count.replay, a verdict's ending 3).
    assert v[("passes.sgf", "chinese")]["ending"] == "two-passes"
    assert v[("passes.sgf", "jpd-a")]["ending"] == "record-two-passes"
    assert v[("passes.sgf", "jpd-a")]["count"] is not None
    assert v[("tt.sgf", "chinese")]["ending"] == "two-passes" and v[("tt.sgf", "chinese")]["actions"] == 4
    assert v[("gb2312.sgf", "chinese")]["ending"] == "resignation"
    assert v[("gb2312.sgf", "chinese")]["re"] == {"kind": "resignation", "winner": "W", "text": "W+R"}
    assert v[("big5.sgf", "japanese")]["ending"] == "time"
    assert v[("latin1.sgf", "chinese")]["ending"] == "resignation"
    assert v[("variations.sgf", "chinese")]["moves"] == 3
    assert v[("empty.sgf", "chinese")]["ending"] == "unfinished"
    # Suicide: chinese makes it a void pass and play goes on; japanese ends the game there.
    sui_c, sui_j = v[("suicide.sgf", "chinese")], v[("suicide.sgf", "japanese")]
    assert sui_c["refused"] == [
        {"action": 4, "color": "W", "vertex": "A5", "reason": "suicide", "effect": "void-pass"}
    ]
    assert sui_c["ending"] == "unfinished" and sui_c["stopped_at"] is None
    assert sui_j["ending"] == "refused-move" and sui_j["stopped_at"] == 4
    occupied = v[("occupied.sgf", "chinese")]["refused"][0]
    assert (occupied["action"], occupied["reason"]) == (2, "occupied")


def test_scored_record_without_passes_is_not_counted(wild, tmp_path):
    out = tmp_path / "out.jsonl"
    _run(str(wild), "--rules", "chinese", "--jobs", "1", "--out", str(out))
    v = _verdicts(out)[("handicap.sgf", "chinese")]
    assert v["re"]["kind"] == "score" and v["count"] is None and v["ending"] == "unfinished"
    assert v["no_count"].startswith("no count: the record does not say")


def test_counts_and_the_winner_table(wild, tmp_path):
    out, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    _run(str(wild), "--rules", "all", "--jobs", "1", "--out", str(out), "--summary", str(summary))
    v = _verdicts(out)
    # Area: Black 10, White 15; Chinese komi 7.5: Black's lead -12.5 (RE says W+12.5).
    assert v[("passes.sgf", "chinese")]["count"]["margin"] == -12.5
    assert v[("passes.sgf", "chinese")]["count"]["winner"] == "W"
    # D3 dead on TW: the same area as passes.sgf plus nothing for Black.
    assert v[("marks.sgf", "chinese")]["count"]["margin"] == -12.5
    # 7x5, Black B2 and White D2: area counting splits nothing; B owns columns a-c? No: one
    # region touches both, so each has its stone only: 1 - 1 - 7.5.
    assert v[("nonsquare.sgf", "chinese")]["count"]["margin"] == -7.5
    data = json.loads(summary.read_text(encoding="utf-8"))
    counted = {name for (name, _), x in v.items() if x["count"] is not None}
    assert counted == {"passes.sgf", "tt.sgf", "nonsquare.sgf", "marks.sgf"}
    assert data["counted_records"] == 4
    pairs, per = data["winner_differs"], data["rulesets"]
    for a in pairs:
        assert pairs[a][a]["differ"] == 0 and pairs[a][a]["both_counted"] == per[a]["counted"]
        for b in pairs:
            assert pairs[a][b] == pairs[b][a]
            winners_a = {n: x["count"]["winner"] for (n, r), x in v.items() if r == a and x["count"]}
            winners_b = {n: x["count"]["winner"] for (n, r), x in v.items() if r == b and x["count"]}
            both = winners_a.keys() & winners_b.keys()
            assert pairs[a][b]["differ"] == sum(winners_a[k] != winners_b[k] for k in both)
    # RE compared: passes.sgf names W by score and every ruleset that counts it says W.
    assert per["chinese"]["re_compared"] == {"same_winner": 1, "different_winner": 0}
    refused = per["japanese"]["refused"]
    where = {(Path(r["record"]).name, r["action"]) for r in refused}
    assert {("occupied.sgf", 2), ("suicide.sgf", 4)} <= where
    assert per["japanese"]["endings"]["refused-move"] == 1


# -- archives, globs ----------------------------------------------------------------------------
def test_archives_and_globs(wild, tmp_path):
    tgz, zipped = tmp_path / "set.tar.gz", tmp_path / "set.zip"
    with tarfile.open(tgz, "w:gz") as tar:
        for name in ("passes.sgf", "gb2312.sgf"):
            info = tarfile.TarInfo(f"games/{name}")
            info.size = len(WILD[name])
            tar.addfile(info, io.BytesIO(WILD[name]))
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr("a/big5.sgf", WILD["big5.sgf"])
        z.writestr("readme.txt", "x")
    keys = [r.key for r in read_records(find_sources([str(tgz), str(zipped), str(wild / "*.sgf")]))]
    assert keys[:3] == [f"{tgz}!games/passes.sgf", f"{tgz}!games/gb2312.sgf", f"{zipped}!a/big5.sgf"]
    assert len(keys) == 3 + len([n for n in WILD if not n.startswith("v")])
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK not a zip")
    errors = [r for r in read_records(find_sources([str(broken)])) if not hasattr(r, "data")]
    assert len(errors) == 1 and "broken.zip" in errors[0].message


def test_a_missing_path_is_a_clear_error(tmp_path, capsys):
    assert _run(str(tmp_path / "nope"), "--jobs", "1") == 2
    assert "no such file or folder" in capsys.readouterr().err


# -- one summary however the work is split ------------------------------------------------------
def test_shards_and_jobs_give_the_summary_of_one_run(wild, tmp_path):
    single = tmp_path / "single.json"
    _run(str(wild), "--rules", "all", "--jobs", "1", "--summary", str(single))
    outs = []
    for k in (1, 2, 3):
        out = tmp_path / f"shard{k}.jsonl"
        _run(str(wild), "--rules", "all", "--jobs", "1", "--shard", f"{k}/3", "--out", str(out))
        outs.append(out)
    sizes = [len({x["record"] for x in _lines(o)}) for o in outs]
    assert sum(sizes) == len(WILD) and all(sizes)  # a split, not a copy
    merged = tmp_path / "merged.json"
    _run("--merge", *map(str, outs), "--summary", str(merged))
    assert merged.read_bytes() == single.read_bytes()
    pooled = tmp_path / "pooled.json"
    _run(str(wild), "--rules", "all", "--jobs", "2", "--summary", str(pooled))
    assert pooled.read_bytes() == single.read_bytes()


def test_the_summary_does_not_depend_on_the_order_of_verdicts(wild, tmp_path):
    out = tmp_path / "out.jsonl"
    _run(str(wild), "--rules", "all", "--jobs", "1", "--out", str(out))
    lines = _lines(out)
    forward, backward = Tally(), Tally()
    forward.extend(lines)
    backward.extend(reversed(lines + lines[:5]))  # a verdict seen twice counts once
    assert dumps(forward.summary()) == dumps(backward.summary())


# -- killed and resumed --------------------------------------------------------------------------
def _random_games(folder: Path, count: int, moves: int = 150) -> None:
    """``count`` 19x19 records of ``moves`` distinct random points (fixed seed)."""
    rng = random.Random(11)
    letters = "abcdefghijklmnopqrs"
    points = [x + y for x in letters for y in letters]
    folder.mkdir()
    for n in range(count):
        chosen = rng.sample(points, moves)
        body = "".join(f";{'BW'[i % 2]}[{p}]" for i, p in enumerate(chosen))
        result = rng.choice(["B+R", "W+R", "W+T", ""])
        (folder / f"r{n:04d}.sgf").write_text(f"(;GM[1]FF[4]SZ[19]RE[{result}]{body})", encoding="utf-8")


def test_a_killed_run_resumed_gives_the_summary_of_an_uninterrupted_one(tmp_path):
    games = tmp_path / "games"
    _random_games(games, 1000)
    rules = "chinese+jpd-a"
    whole = tmp_path / "whole.json"
    _run(str(games), "--rules", rules, "--jobs", "2", "--summary", str(whole))
    out, resumed = tmp_path / "out.jsonl", tmp_path / "resumed.json"
    command = [sys.executable, "-m", "jpdtools.cli", "replay", str(games), "--rules", rules, "--jobs", "2"]
    proc = subprocess.Popen([*command, "--out", str(out)], stdout=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.stat().st_size and out.read_bytes().count(b"\n") >= 1000:  # half
            break
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL, "the run finished before it could be killed"
    written = out.read_bytes().count(b"\n")
    assert 0 < written < 2000
    with out.open("ab") as f:  # as if the kill had cut a line in half
        f.write(b'{"record": "cut')
    assert _run(str(games), "--rules", rules, "--jobs", "2", "--out", str(out), "--resume",
                "--summary", str(resumed)) in (0, 1)  # fmt: skip
    lines = _lines(out)
    assert len(lines) == 2000 and len({(x["record"], x["rules"]) for x in lines}) == 2000
    assert resumed.read_bytes() == whole.read_bytes()


# -- a Dask cluster ------------------------------------------------------------------------------
def test_a_dask_cluster_gives_the_summary_of_one_run(wild, tmp_path):
    if os.environ.get("CI") != "true":
        pytest.importorskip("distributed")
    from distributed import LocalCluster

    single, clustered = tmp_path / "single.json", tmp_path / "dask.json"
    out = tmp_path / "dask.jsonl"
    _run(str(wild), "--rules", "all", "--jobs", "1", "--summary", str(single))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        status = _run(str(wild), "--rules", "all", "--dask", cluster.scheduler_address,
                      "--summary", str(clustered), "--out", str(out))  # fmt: skip
    assert status == 1
    assert clustered.read_bytes() == single.read_bytes()
    assert len({x["record"] for x in _lines(out)}) == len(WILD)


# -- the progress bar ---------------------------------------------------------------------------
def test_a_progress_bar_with_rate_and_eta_only_on_a_terminal(wild, capsys):
    import fcntl
    import pty
    import struct
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # the child: a terminal of 100 columns on stdout and stderr
        fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
        os.execv(sys.executable, [sys.executable, "-m", "jpdtools.cli", "replay", str(wild), "--jobs", "1"])
    out = b""
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
    os.waitpid(pid, 0)
    text = out.decode("utf-8", errors="replace")
    assert f"0/{len(WILD)} " in text and f"{len(WILD)}/{len(WILD)} " in text  # notes.txt is no record
    assert "record/s" in text and "<" in text  # the rate, and the elapsed<remaining time
    _run(str(wild), "--jobs", "1")
    assert "record/s" not in capsys.readouterr().err  # not a terminal: no bar


def test_a_shard_holds_the_same_records_wherever_the_collection_lies(wild, tmp_path):
    """The split reads names relative to the folder given (spec: count.replay, splitting the work),
    so two machines holding the collection in different folders referee the same records."""
    elsewhere = tmp_path / "mounted" / "elsewhere" / "games"
    shutil.copytree(wild, elsewhere)
    split = {}
    for folder in (wild, elsewhere):
        for k in (1, 2, 3):
            out = tmp_path / f"{folder.name}-{k}.jsonl"
            _run(str(folder), "--rules", "chinese", "--jobs", "1", "--shard", f"{k}/3", "--out", str(out))
            names = {str(Path(x["record"]).relative_to(folder)) for x in _lines(out)}
            split.setdefault(k, []).append(names)
    assert all(here == there for here, there in split.values())
    assert sum(len(here) for here, _ in split.values()) == len(WILD)


@pytest.mark.parametrize(
    "option, value, message",
    [
        ("--out", "", "argument -o/--out: an empty file name"),
        ("--summary", "", "argument --summary: an empty file name"),
        ("--out", "FOLDER", "is a folder, not a file"),
        ("--out", "FOLDER/a-file/out.jsonl", "cannot write"),  # a missing folder is made; a file is not one
    ],
)
def test_an_output_that_cannot_be_written_is_a_clear_error(wild, tmp_path, capsys, option, value, message):
    """An empty name or a folder for --out / --summary is named as such (exit 2), not a traceback."""
    value = value.replace("FOLDER", str(tmp_path))
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    try:
        status = _run(str(wild), "--rules", "chinese", "--jobs", "1", option, value)
    except SystemExit as stop:  # argparse refuses the option itself
        status = stop.code
    assert status == 2
    assert message in capsys.readouterr().err
