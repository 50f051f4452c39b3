"""The programs of six Go libraries in ``implementations/`` (``jpd verify --impl NAME``).

Each program is really started, as the harness starts it (its manifest's command), and asked about one ko:
Black's capture takes one stone, White's immediate recapture is refused — ``ko`` under simple ko,
``superko`` under a superko rule (the position before Black's capture would come back). The
Node programs need their pinned npm packages (``npm ci --prefix implementations/NAME``) and dlgo
its PyPI package (``pip install --no-deps -r implementations/dlgo/requirements.txt``): ``.ci/run``
installs both. Without
them a test skips with a message, and fails in CI.
"""

import importlib.util
import json
import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from jpdtools.presets import load_presets
from jpdtools.suite.setup import CaseAction, Setup
from jpdtools.verify import implementations
from jpdtools.verify.jsonl import protocol as p
from jpdtools.verify.jsonl.adapter import run_message

NODE_LIBRARIES = {
    "sabaki": "@sabaki/go-board",
    "godash": "godash",
    "tenuki": "tenuki",
    "wgo": "wgo",
    "goban": "goban",
}
SIMPLE_KO = ("sabaki", "godash", "wgo")  # asked under simple ko (wgo: see the test of its superko)
KO = Setup(
    4, 4, "B", (("B4", "B"), ("A3", "B"), ("B2", "B"), ("C4", "W"), ("B3", "W"), ("C2", "W"), ("D3", "W"))
)
MOVES = (CaseAction("B", "move", "C3"), CaseAction("W", "move", "B3"))


def unavailable(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(why, pytrace=False)
    pytest.skip(why)


def require(profile: str) -> None:
    if profile == "dlgo":
        if importlib.util.find_spec("dlgo") is None:
            unavailable("dlgo is not installed (pip install --no-deps dlgo==0.2)")
        return
    if shutil.which("node") is None:
        unavailable("node is not installed: the Node library programs are not tested")
    folder = implementations.require(profile).folder
    if not (folder / "node_modules" / NODE_LIBRARIES[profile] / "package.json").is_file():
        unavailable(f"{NODE_LIBRARIES[profile]} is not installed (npm ci --prefix {folder})")


def talk(profile: str, *messages: p.Message) -> list[p.Message]:
    """Start the profile's program, send the messages and ``stop``, decode every answer."""
    lines = "".join(p.encode(m) + "\n" for m in (*messages, p.Stop()))
    argv = implementations.require(profile).argv()
    done = subprocess.run(argv, input=lines, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [p.decode(line) for line in done.stdout.splitlines()]


def ko_run(profile: str) -> p.Run:
    presets = load_presets()
    if profile in SIMPLE_KO:
        run = run_message("r1", KO, (), MOVES, presets.get("japanese"))
        return replace(run, rules={**run.rules, "illegal-move": "refuse"})
    return run_message("r1", KO, (), MOVES, presets.get("wmsg-2008"))


@pytest.mark.parametrize("profile", [*NODE_LIBRARIES, "dlgo"])
def test_program_starts_and_judges_a_ko(profile):
    require(profile)
    ready, result = talk(profile, p.Start(protocols=(1, 2)), ko_run(profile))
    assert isinstance(ready, p.Ready), ready
    assert ready.protocol == 2
    assert isinstance(result, p.Result), result
    capture, recapture = result.steps
    assert (capture.legal, capture.captures, capture.board) == (True, ("B3",), ".XO./X.XO/.XO./....")
    expected = "ko" if profile in SIMPLE_KO else "superko"
    assert (recapture.legal, recapture.effect, recapture.reason) == (False, "refused", expected)
    assert recapture.board == capture.board
    if "to-move" in ready.supports.claims:
        assert (capture.to_move, recapture.to_move) == ("W", "W")


@pytest.mark.parametrize("profile", NODE_LIBRARIES)
def test_node_program_reports_the_pinned_version(profile):
    require(profile)
    (ready,) = talk(profile, p.Start())
    folder = implementations.require(profile).folder
    pinned = json.loads((folder / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert ready.version == pinned[NODE_LIBRARIES[profile]]


def test_node_program_without_its_package_answers_one_clear_error(tmp_path):
    if shutil.which("node") is None:
        unavailable("node is not installed: the Node library programs are not tested")
    # the folder as a wheel carries it: the program and the shared protocol loop, no node_modules
    for name in ("godash/program.js", "node-jsonl/jsonl.js"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        shutil.copy(implementations.require("godash").folder.parent / name, tmp_path / name)
    lines = p.encode(p.Start()) + "\n" + p.encode(p.Stop()) + "\n"
    done = subprocess.run(
        ["node", str(Path(tmp_path, "godash", "program.js"))],
        input=lines,
        capture_output=True,
        text=True,
        timeout=60,
    )
    (answer,) = [p.decode(line) for line in done.stdout.splitlines()]
    assert isinstance(answer, p.Error) and "godash could not be loaded" in answer.message
    assert f"npm ci --prefix {tmp_path / 'godash'}" in answer.message


def test_wgo_under_its_documented_superko_accepts_the_ko_recapture():
    """W1 of reports/wgo/DEVIATIONS.md: ``Repeating.ALL`` ("position cannot be same like any
    previous position") checks nothing in wgo 3.0.0-alpha.10, so the ko recapture stands."""
    require("wgo")
    run = run_message("r1", KO, (), MOVES, load_presets().get("wmsg-2008"))
    _, result = talk("wgo", p.Start(), run)
    recapture = result.steps[1]
    assert (recapture.legal, recapture.captures) == (True, ("C3",))


FEATURES = {
    "sabaki": {"illegal-move-refuse", "setup-stones", "non-square"},
    "godash": {"illegal-move-refuse", "setup-stones"},
    "wgo": {"illegal-move-refuse", "setup-stones"},
    "tenuki": {
        "turn-order",
        "end-of-play",
        "illegal-move-refuse",
        "setup-stones",
        "fixed-handicap",
        "free-handicap",
    },
    "goban": {"turn-order", "illegal-move-refuse", "setup-stones", "free-handicap", "non-square"},
    "dlgo": {"turn-order", "end-of-play", "illegal-move-refuse", "setup-stones", "resignation", "non-square"},
}


@pytest.mark.parametrize("profile", FEATURES)
def test_program_declares_its_features_under_protocol_3_only(profile):
    require(profile)
    (three,) = talk(profile, p.Start(protocols=(1, 2, 3)))
    (two,) = talk(profile, p.Start(protocols=(1, 2)))
    assert three.protocol == 3 and set(three.supports.features) == FEATURES[profile]
    assert two.protocol == 2 and two.supports.features is None
