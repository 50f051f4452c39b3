"""The cases whose verdict another reading of an open question would flip, as run.

The other readings are the ``Overrides:`` rulesets of the register (:mod:`jpdtools.review.overrides`);
every case of the base preset is run under each through the reference implementation and the cases
whose verdict differs are listed (:func:`flips`): run, not guessed.
"""

from dataclasses import dataclass

from jpdtools.book.observe import ObservedSuite, observe_under, verdict_of
from jpdtools.presets import Presets
from jpdtools.review.overrides import Override


@dataclass(frozen=True)
class Flip:
    """A case whose verdict under ``override`` differs from its verdict under the base preset."""

    case_id: str
    override: Override
    before: tuple[str, ...]
    after: tuple[str, ...]


def flips(override: Override, suite: ObservedSuite, presets: Presets) -> tuple[Flip, ...]:
    """The cases of the base preset whose verdict the override changes (each one run)."""
    rules = presets.get(override.rules)
    out = []
    for record in suite.records:
        base = record.result(override.base)
        if base is None or record.case.setup is None or base.observation is None:
            continue
        before = verdict_of(base.observation)
        after = verdict_of(observe_under(record, rules))
        if before != after:
            out.append(Flip(record.case.id, override, before, after))
    return tuple(out)
