"""Rule features: derived per item from the case and the ruleset, declared by implementations,
checked by lint (spec/contract.md#contract.features, spec/jsonl-protocol.md#jsonl.v3)."""

import io
import json
import shlex
import sys
from pathlib import Path

import pytest
from jpdtools.cli import main
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.run.adapters import Capabilities, ReferenceAdapter
from jpdtools.run.features import ALL_FEATURES, FEATURES, FeatureError, check_features
from jpdtools.run.runner import Filters, default_loader, plan_paths
from jpdtools.verify.gtp.profiles import generic
from jpdtools.verify.implementations import gtp_profile
from jpdtools.verify.jsonl import protocol as p
from jpdtools.verify.jsonl.serve import serve

PROGRAM = Path(__file__).with_name("reference_program.py")


def reference_impl(*flags: str) -> str:
    return "jsonl:" + shlex.join([sys.executable, str(PROGRAM), *flags])


@pytest.fixture(scope="module")
def plan():
    items = plan_paths([conformance_dir()], load_presets(), Filters(), default_loader()).items
    return {i.name: i for i in items if i.rules is not None}


def test_the_features_of_a_ko_recapture_follow_the_rulesets_policy(plan):
    assert plan["ko.simple.001[japanese]"].features == {"setup-stones", "illegal-move-loss"}
    assert plan["ko.simple.001[chinese]"].features == {"setup-stones", "illegal-move-void-pass"}
    assert plan["ko.simple.001[jpd-2022]"].features == {"setup-stones", "illegal-move-refuse"}


def test_every_feature_is_needed_by_some_item_and_every_derivation_is_in_the_vocabulary(plan):
    needed = set().union(*(i.features for i in plan.values()))
    assert needed == ALL_FEATURES


def test_turn_order_end_of_play_and_the_rest_are_read_from_the_verdicts(plan):
    by_feature = {f: [n for n, i in plan.items() if f in i.features] for f in FEATURES}
    out_of_turn = [n for n, i in plan.items() if "out-of-turn" in str(i.expectation.steps)]
    assert out_of_turn and set(out_of_turn) <= set(by_feature["turn-order"])
    halted = [n for n, i in plan.items() if i.expectation.end and i.expectation.end.state == "halted"]
    assert halted and set(halted) <= set(by_feature["end-of-play"])
    assert all(plan[n].case.setup.width != plan[n].case.setup.height for n in by_feature["non-square"])


def test_unknown_feature_names_are_refused_with_the_vocabulary():
    assert check_features(["turn-order"], "x") == {"turn-order"}
    with pytest.raises(FeatureError, match=r"unknown feature 'turn_order'.*turn-order, end-of-play"):
        check_features(["turn_order"], "--features")


def test_capabilities_name_every_lacking_feature_in_the_vocabularys_order(presets=None):
    caps = Capabilities(features=ALL_FEATURES - {"turn-order", "resignation"})
    rules = load_presets().get("japanese")
    assert caps.unsupported(rules, None, frozenset({"resignation", "turn-order", "setup-stones"})) == (
        "lacks features turn-order, resignation"
    )
    assert Capabilities().unsupported(rules, None, ALL_FEATURES) is None  # undeclared: all


def test_a_gtp_profile_has_the_features_gtp_can_play():
    assert gtp_profile("gnugo").features() == ALL_FEATURES - {"non-square", "free-handicap"}
    assert "free-handicap" not in generic(["engine"]).features()


# -- the wire: protocol 3 ------------------------------------------------------------------------


def ready_line(protocol: int, features) -> str:
    supports = {"claims": ["legal"], "features": features}
    ready = {"type": "ready", "protocol": protocol, "name": "x", "version": "1"}
    return json.dumps({**ready, "supports": supports})


def test_protocol_3_declares_features_and_older_protocols_cannot():
    ready = p.decode(ready_line(3, ["turn-order", "setup-stones"]))
    assert ready.supports.features == ("turn-order", "setup-stones")
    assert p.decode(p.encode(ready)) == ready
    with pytest.raises(p.ProtocolError, match=r"'supports\.features' needs protocol 3"):
        p.decode(ready_line(2, ["turn-order"]))
    with pytest.raises(p.ProtocolError, match="'features': 'ko' is not one of turn-order"):
        p.decode(ready_line(3, ["ko"]))
    assert p.decode(ready_line(2, None)).supports.features is None


class Declares:
    def ready(self) -> p.Ready:
        return p.Ready("x", "1", p.Supports(features=("setup-stones",)))

    def run(self, msg):  # pragma: no cover - never asked
        raise AssertionError


def test_serve_drops_features_for_a_harness_that_offers_no_protocol_3():
    out = io.StringIO()
    serve(Declares(), io.StringIO('{"type": "start", "protocol": 1, "protocols": [1, 2]}\n'), out, (1, 2, 3))
    ready = p.decode(out.getvalue())
    assert ready.protocol == 2 and ready.supports.features is None


# -- verify and fuzz -----------------------------------------------------------------------------


def test_an_item_needing_an_undeclared_feature_is_skipped_naming_it(capsys):
    impl = reference_impl("--protocol", "3", "--lacks", "turn-order,illegal-move-loss")
    argv = ["verify", "--impl", impl, "--rules", "japanese", "--id", "ko.*", "--id", "board.turn.*", "--json"]
    status = main(argv)
    report = json.loads(capsys.readouterr().out)
    assert status == 0, report["summary"]
    skipped = [r for r in report["results"] if r["outcome"] == "skip"]
    lacking = {r["detail"].partition(": ")[2] for r in skipped}
    assert "lacks feature illegal-move-loss" in lacking and "lacks feature turn-order" in lacking
    assert report["summary"]["pass"] > 0 and not report["summary"]["unexpected-failure"]
    assert not any(r["case"] == "ko.simple.001" for r in report["results"] if r["outcome"] == "pass")


POLICIES = "illegal-move-refuse,illegal-move-void-pass,illegal-move-loss"
LEGAL_ONLY = [sys.executable, str(Path(__file__).with_name("legal_only_program.py"))]


def test_fuzz_finds_nothing_in_games_needing_a_feature_the_program_lacks(tmp_path, capsys):
    # the program that accepts every action (found at once when it claims every feature,
    # test_fuzz.py) honestly declaring that it has no illegal-move policy
    impl = "jsonl:" + shlex.join([*LEGAL_ONLY, "--lacks", POLICIES])
    out = tmp_path / "out"
    status = main(["fuzz", "--impl", impl, "--rules", "chinese", "--games", "4", "--out", str(out)])
    printed = "".join(capsys.readouterr())
    assert status == 0 and "not comparable" in printed, printed
    assert not out.exists() or not list(out.iterdir())


def test_a_program_that_declares_what_it_lacks_gets_no_failure_from_it(plan, capsys):
    impl = "jsonl:" + shlex.join([*LEGAL_ONLY, "--lacks", f"{POLICIES},turn-order,end-of-play,free-handicap"])
    status = main(["verify", "--impl", impl, "--rules", "japanese", "--json"])
    report = json.loads(capsys.readouterr().out)
    failed = [r for r in report["results"] if r["outcome"] == "unexpected-failure"]
    assert status == 1 and failed
    # what is left to fail are refusals no declared-absent feature excuses: a move on an
    # occupied point, a virtual move where the ruleset forbids it
    reasons = set()
    for r in failed:
        verdicts = {v.step: v for v in plan[f"{r['case']}[japanese]"].expectation.steps}
        for m in r["mismatches"]:
            reasons.add(verdicts[m["step"]].alternatives[0][0].args[0])
    assert reasons == {"occupied", "virtual-not-allowed"}


def test_lint_finds_a_refusal_the_verdicts_do_not_state(tmp_path):
    from jpdtools.review.lint import check_feature_derivation, reference_runs
    from jpdtools.suite.loader import load_case_file

    case = tmp_path / "turns.yaml"
    case.write_text(
        "format: 1\ntopic: test\ncases:\n  - id: t.turn.001\n    title: t\n    spec: [play.turn]\n"
        "    seeds: ['000 §12']\n    rules: [japanese]\n    board: |\n      3x3 B\n      . . .\n"
        "      . . .\n      . . .\n    moves: B A1 B B2 W C3\n    expect:\n      default: |\n"
        "        1: legal\n        3: legal\n",
        encoding="utf-8",
    )
    presets = load_presets()
    files = [load_case_file(case, presets)]
    problems = check_feature_derivation(reference_runs(files, presets, ReferenceAdapter(), default_loader()))
    assert [p.check for p in problems] == ["features"]
    assert "t.turn.001[japanese]: the reference exercises feature turn-order (step 2: out-of-turn)" in str(
        problems[0]
    )


def test_a_refused_occupied_point_needs_plain_refusal_which_older_programs_have(plan):
    occupied = [n for n, i in plan.items() if "illegal occupied" in " ".join(map(str, i.expectation.steps))]
    assert occupied and all("plain-refusal" in plan[n].features for n in occupied)
    from jpdtools.verify.jsonl import protocol as p
    from jpdtools.verify.jsonl.adapter import declared

    def ready(protocol: int) -> p.Ready:
        return p.Ready("lib", "1", p.Supports(features=("illegal-move-refuse",)), protocol)

    # a protocol 3 program never heard of the feature: it has it; a protocol 4 program lists it
    assert "plain-refusal" in declared(ready(3)).capabilities.features
    assert "plain-refusal" not in declared(ready(4)).capabilities.features
