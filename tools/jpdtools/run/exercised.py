"""The features the reference's play of an item shows in use (for ``jpd lint``): what
:mod:`jpdtools.run.features` names, found in an :class:`~jpdtools.run.adapters.Observation`.

(Kept apart from :mod:`jpdtools.run.features` so that the vocabulary imports no adapter: the
adapters read the vocabulary, this module reads both.)
"""

from dataclasses import dataclass

from jpdref.rules import Rules

from jpdtools.run.adapters import Observation
from jpdtools.run.features import POLICY_FEATURE, REASON_FEATURE, VIOLATIONS


@dataclass(frozen=True)
class Exercised:
    """A feature the reference's play of an item exercises, and where (``step 3: out-of-turn``)."""

    feature: str
    where: str


def exercised(observation: Observation, rules: Rules) -> tuple[Exercised, ...]:
    """The features the reference's ``observation`` of an item shows in use (for ``jpd lint``):
    each refusal's reason and policy, in play and in settling. (A halt or an end after the last
    step is not among them: nothing the program does after it is compared unless the verdict
    text claims it, and then :func:`features_of` finds it there.)"""
    policy = POLICY_FEATURE[str(rules.value("illegal-move"))]
    found: list[Exercised] = []
    stages = [("step", observation.steps)]
    if observation.settling is not None:
        stages.append(("settle step", observation.settling.steps))
    for label, steps in stages:
        for n, step in enumerate(steps, 1):
            if step.legal or step.reason is None:
                continue
            if step.reason in REASON_FEATURE:
                found.append(Exercised(REASON_FEATURE[step.reason], f"{label} {n}: {step.reason}"))
            if step.reason in VIOLATIONS:
                found.append(Exercised(policy, f"{label} {n}: {step.effect} {step.reason}"))
    return tuple(found)
