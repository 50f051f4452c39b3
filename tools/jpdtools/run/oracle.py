"""The verdicts of a variant item, derived from the reference run under the variant (the oracle).

A ruleset with axis overrides (a **variant**, ``japanese:illegal-move=refuse``) that a case does
not name has no verdict text of its own (spec/contract.md#contract.variants). Its expectation is
the reference implementation's behaviour under exactly the variant's values, in the shape of the
case's own text: every claim of a *template* text (the case's own claim for the variant where it
has one, else the text of the preset the variant overrides) is kept where the reference makes it
true and replaced by the claim of the same kind the reference makes true where it does not.

The case's own claims are checked, not trusted: where the case's text decides the variant
(:func:`jpdtools.suite.selection.choose_variant`: the rulesets agreeing with it on the case's
``depends``, or an axis selector it matches) and the reference under the variant contradicts it,
the contradiction is reported (its ``depends`` or a selector is too broad) and the item is held to
the reference — the one source that decides every combination of values the same way.
"""

from dataclasses import dataclass, replace

from jpdref.rules import Rules

from jpdtools.run.adapters import Adapter, Observation
from jpdtools.run.compare import (
    Status,
    claim_holds,
    count_claim_holds,
    end_holds,
    judge,
    judge_settling,
    observed_claim,
    observed_count_claim,
    observed_end,
)
from jpdtools.suite.model import (
    Case,
    Claim,
    CountClaim,
    CountVerdict,
    Expectation,
    PointVerdict,
    StepVerdict,
)
from jpdtools.suite.selection import choose_variant

DERIVED = "derived"
"""The ``selector`` of an expectation the oracle changed (the case's text no longer says it all)."""


@dataclass(frozen=True)
class VariantVerdict:
    """The expectation of one case under one variant, or why there is none.

    ``expectation`` set: plan the item. ``contradiction``: the case's own text for the variant and
    the reference under it disagree (reported; the item is held to the reference). No expectation:
    the reference could not play the case under the variant (``why``); the item is left out and
    noted.
    """

    expectation: Expectation | None = None
    contradiction: str = ""
    why: str = ""


def variant_verdict(
    case: Case,
    variant: Rules,
    resolved: list[tuple[Rules, Expectation]],
    oracle: Adapter,
) -> VariantVerdict:
    """The expectation of ``case`` under ``variant`` (see the module text)."""
    claimed = choose_variant(variant, case.depends, resolved, case.expectations)
    base = variant.name.partition(":")[0]
    template = claimed or next((e for rules, e in resolved if rules.name == base), None)
    if template is None or case.setup is None:
        return VariantVerdict(why="the case does not apply to the variant's preset")
    observation = oracle.observe(case.setup, case.history, case.moves, variant)
    if observation.error:
        return VariantVerdict(why=f"the reference cannot play it: {observation.error}")
    contradiction = ""
    if claimed is not None:
        judgement = judge(claimed, observation)
        if judgement.status not in (Status.PASS, Status.OPEN):
            found = "; ".join(str(m) for m in judgement.mismatches) or judgement.detail
            contradiction = (
                f"its text {claimed.selector!r} (chosen by its depends: "
                f"{', '.join(case.depends) or 'every axis'}) disagrees with the reference: {found}"
            )
    derived = derive(template, observation)
    if derived is None:
        return VariantVerdict(why="its settling claims do not hold under the variant")
    return VariantVerdict(expectation=derived, contradiction=contradiction)


def derive(template: Expectation, observation: Observation) -> Expectation | None:
    """``template`` with every claim ``observation`` does not make true replaced by the one it
    does (None when a settling claim fails: a stage is not re-derived)."""
    settling = observation.settling
    if template.settles and (settling is None or judge_settling(template.settle, settling)[0]):
        return None
    over = _over_from(observation)
    steps = tuple(s for v in template.steps if (s := _step(v, observation, v.step >= over)) is not None)
    end = template.end
    if end is not None and observation.end is not None and not end_holds(end, observation.end):
        end = replace(observed_end(observation.end), location=end.location)
    count, points = template.count, template.points
    code = observation.count.error if observation.count is not None else None
    if code is not None and points:  # a refused count has no points: the refusal is the claim
        points = ()
        count = count or CountVerdict((CountClaim("error", code=code),))
    if observation.count is not None:
        count = _count(count, observation)
        points = _points(points, observation)
    derived = replace(template, steps=steps, end=end, count=count, points=points)
    return derived if derived == template else replace(derived, selector=DERIVED)


def _over_from(observation: Observation) -> int:
    """The number of the step after which the reference's play had halted or ended (past the
    last step when it is still going on): every later action is refused ``game-over``."""
    end, steps = observation.end, observation.steps
    if end is None or end.phase not in ("halted", "ended"):
        return len(steps) + 1
    over = len(steps)
    while over > 0 and steps[over - 1].effect == "refused" and steps[over - 1].reason == "game-over":
        over -= 1
    return max(over, 1)


def _step(verdict: StepVerdict, observation: Observation, over: bool) -> StepVerdict | None:
    if not 1 <= verdict.step <= len(observation.steps):
        return verdict
    step = observation.steps[verdict.step - 1]
    if any(all(claim_holds(c, step) for c in alt) for alt in verdict.alternatives):
        return verdict
    claims: list[Claim] = []
    for claim in verdict.alternatives[0]:
        if over and claim.kind == "to-move":
            continue  # whose turn it is means nothing once play halted or ended (jsonl.v4)
        held = claim if claim_holds(claim, step) else observed_claim(claim.kind, step)
        if held not in claims:
            claims.append(held)
    return replace(verdict, alternatives=(tuple(claims),)) if claims else None


def _count(verdict: CountVerdict | None, observation: Observation) -> CountVerdict | None:
    count = observation.count
    if verdict is None or count is None or any(count_claim_holds(c, count) for c in verdict.alternatives):
        return verdict
    return replace(verdict, alternatives=(observed_count_claim(verdict.alternatives[0], count),))


def _points(lines: tuple[PointVerdict, ...], observation: Observation) -> tuple[PointVerdict, ...]:
    count = observation.count
    if count is None or count.error is not None:
        return lines
    found = {vertex: (owner, why) for vertex, owner, why in count.points}
    out: list[PointVerdict] = []
    for line in lines:
        groups: dict[tuple[str, str], list[str]] = {}
        for vertex in line.vertices:
            groups.setdefault(found.get(vertex, (line.owner, line.why)), []).append(vertex)
        for (owner, why), vertices in groups.items():
            out.append(replace(line, vertices=tuple(vertices), owner=owner, why=why))
    return tuple(out)
