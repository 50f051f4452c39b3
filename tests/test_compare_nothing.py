"""A claim is never compared against nothing (issue 12, item 1): what was not checked cannot pass.

The loader refuses a verdict text that claims nothing (``missing-expectation``, pinned by the
error cases ``format.error.missing-expectation.002``–``005``); the comparator, which also judges
expectations read back from an export, refuses the same shapes on its own.
"""

from jpdtools.run.adapters import EndState, Observation, SettleObservation, StepObservation
from jpdtools.run.compare import Status, judge
from jpdtools.suite.model import (
    Claim,
    EndVerdict,
    Expectation,
    ProofVerdict,
    SettleVerdicts,
    StepVerdict,
)

STEP = StepObservation("B C3", True, "played", None, (), (), "W", ".....")
OBSERVED = Observation(".....", (STEP,), EndState("contest", "W"))


def _expect(**kw) -> Expectation:
    return Expectation("default", kw.pop("steps", ()), kw.pop("end", None), **kw)


def test_an_expectation_with_no_claim_is_an_error_not_a_pass():
    judged = judge(_expect(), OBSERVED)
    assert judged.status is Status.ERROR and "no claim" in judged.detail


def test_a_step_line_without_claims_does_not_hold():
    for alternatives in ((), ((),), ((Claim("legal"),), ())):
        judged = judge(_expect(steps=(StepVerdict(1, alternatives),)), OBSERVED)
        assert judged.status is Status.FAIL, alternatives


def test_a_settling_end_the_program_did_not_report_does_not_hold():
    settle = SettleVerdicts(end=EndVerdict("halted", ("two-passes",)))
    observed = Observation(".....", (STEP,), EndState("contest", "W"), settling=SettleObservation("x"))
    judged = judge(_expect(settle=settle), observed)
    assert judged.status is Status.FAIL
    assert [m.where for m in judged.mismatches] == ["settle-end"]


def test_a_proof_line_without_vertices_does_not_hold():
    settle = SettleVerdicts(proved=(ProofVerdict("dead"),))
    observed = Observation(".....", (STEP,), EndState("contest", "W"), settling=SettleObservation("x"))
    assert judge(_expect(settle=settle), observed).status is Status.FAIL
