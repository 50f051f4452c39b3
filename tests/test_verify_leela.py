"""`jpd verify` against the real Leela Zero 0.17 (Debian package ``leela-zero``) as a plain GTP 2
engine, with a tiny random network written at test time (its strength is irrelevant to rules).

Skipped with a message when Leela Zero is not installed — except in CI (``CI=true``), where a
missing engine is a failure: the verification must run there for real.
"""

import json
import os
import shlex
from pathlib import Path

import pytest
from jpdtools.cli import main
from jpdtools.paths import conformance_dir
from jpdtools.verify.implementations import load_module

TINY = load_module("leela-zero", "tiny_network.py")
leelaz_binary, leelaz_command, write_network = TINY.leelaz_binary, TINY.leelaz_command, TINY.write_network

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = ROOT / "reports" / "leela-zero" / "expected-failures.txt"


@pytest.fixture(scope="module")
def leelaz(tmp_path_factory):
    binary = leelaz_binary()
    if binary is None:
        message = "Leela Zero is not installed (apt-get install leela-zero): its verification did not run"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    network = write_network(tmp_path_factory.mktemp("leela") / "network.txt")
    return "gtp:" + shlex.join(leelaz_command(network, binary))


def test_leela_zero_plays_chinese_with_its_explained_deviations(leelaz, capsys):
    # the whole suite: on ko, suicide and cycles alone Leela Zero plays only its three deviations,
    # a run with no pass (which fails: it checked too little)
    argv = ["verify", "--impl", leelaz, "--engine-rules", "chinese", "--json"]
    status = main([*argv, "--expected-failures", str(EXPECTED)])
    report = json.loads(capsys.readouterr().out)
    summary = report["summary"]
    assert status == 0 and summary["ok"], [
        r for r in report["results"] if r["outcome"] not in ("pass", "skip", "expected-failure")
    ]
    assert summary["error"] == 0 and summary["expected-failure"] >= 3 and summary["pass"] > 0
    # what Leela Zero decides is compared; its board cannot be read (no list_stones): limited
    played = [r for r in report["results"] if r["outcome"] != "skip"]
    unread = [
        d for r in played for d in r["limited"] if d.split(": ", 1)[-1].startswith(("board", "captures"))
    ]
    assert unread and all("list_stones" in d for d in unread)
    # every board size but 19 is a skip with Leela Zero's own refusal
    sizes = [r["detail"] for r in report["results"] if "refuses board size" in r["detail"]]
    assert sizes and all("unacceptable size" in d for d in sizes)


def test_without_the_list_leela_zero_fails_on_ko_suicide_and_cycles(leelaz, capsys):
    suite = conformance_dir()
    paths = [str(suite / name) for name in ("ko.yaml", "suicide.yaml", "cycles.yaml")]
    status = main(["verify", "--impl", leelaz, "--engine-rules", "chinese", "--json", *paths])
    report = json.loads(capsys.readouterr().out)
    failed = {r["case"] for r in report["results"] if r["outcome"] == "unexpected-failure"}
    assert status == 1 and report["summary"]["error"] == 0
    assert any(c.startswith("ko.") for c in failed)
    assert any(c.startswith("suicide.") for c in failed)
    assert any(c.startswith("cyc.") for c in failed)
