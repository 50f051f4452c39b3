"""The rule features an item needs, derived from its case and its ruleset (contract.features).

A *feature* is a part of the rules an implementation may lack — a board library has no turn
order and no end of play, a GTP engine no illegal-move policy of its own. The vocabulary
(:data:`FEATURES`) is spec/contract.md#contract.features; an implementation declares the
features it has (``Capabilities.features``), and an item needing one it lacks is skipped, naming
the feature, never sent to it.

The features of an item are never tagged by hand: :func:`features_of` derives them from what the
case plays and what its chosen verdict text says under the ruleset —

* the set-up: stones (``setup-stones``), a handicap (``fixed-handicap`` / ``free-handicap`` by the
  ruleset's ``handicap`` axis), a board whose width differs from its height (``non-square``);
* the actions of ``history``, ``moves`` and the settling moves: ``virtual`` (``virtual-moves``),
  ``resign`` (``resignation``);
* the refusals named by any alternative of a step verdict (the play steps and the settling steps):
  ``out-of-turn`` (``turn-order``), ``game-over`` (``end-of-play``), ``virtual-not-allowed``
  (``virtual-moves``), ``handicap-placement`` (``free-handicap``), and a rule violation —
  ``suicide``, ``ko``, ``superko`` — the ruleset's illegal-move policy (``illegal-move-refuse``,
  ``illegal-move-void-pass``, ``illegal-move-loss``: spec/play.md#play.illegal); a ``void-pass`` or
  ``forfeit`` verdict names its policy too;
* the end verdict: ``halted …`` (``end-of-play``), ``ended illegal-move`` (``illegal-move-loss``),
  ``ended resignation`` (``resignation``), ``ended cycle`` (``cycle-verdict``);
* ``count:`` or ``point:`` claims (``counting``); settling lines or a dispute to settle
  (``settling``).

``jpd lint`` checks the derivation against the reference implementation's own play of every item
(:func:`jpdtools.run.exercised.exercised`): a feature the reference exercises — a refusal it
makes, a halt it reaches — that the verdict text does not imply is a lint problem (the case's
verdicts are incomplete, or this derivation has drifted from the rules).
"""

from collections.abc import Iterable
from typing import TYPE_CHECKING

from jpdref.rules import Rules

from jpdtools.suite.setup import CaseAction, Setup

if TYPE_CHECKING:  # annotations only: jpd play imports the adapters without the case model
    from jpdtools.suite.model import Case, Claim, Expectation, StepVerdict

FEATURES: dict[str, str] = {
    "turn-order": "keeps whose turn it is and refuses an action by the side not to move (out-of-turn)",
    "end-of-play": "halts play as the halt axis says and refuses every action after play halted or "
    "ended (game-over), a resignation while halted excepted as the resignation axis says",
    "illegal-move-refuse": "a refused suicide, ko or superko has no effect: the same side acts again",
    "illegal-move-void-pass": "a refused suicide, ko or superko counts as that side's pass",
    "illegal-move-loss": "a refused suicide, ko or superko loses the game at once (forfeit)",
    "plain-refusal": "an occupied point, an off-board vertex or a pass the ruleset forbids is refused "
    "without penalty: the same side acts again (an environment that forfeits on every illegal "
    "action lacks it)",
    "setup-stones": "starts from a position given as stones, not moves",
    "fixed-handicap": "places handicap stones at the traditional points before the first move",
    "free-handicap": "lets Black place handicap stones as moves in a handicap phase",
    "resignation": "the resign action, which ends the game",
    "cycle-verdict": "ends the game on a whole-position cycle (draw or no result)",
    "virtual-moves": "the virtual move (虚着), and its refusal where the ruleset forbids it",
    "non-square": "boards whose width differs from their height",
    "counting": "counts the final position (count: and point: claims)",
    "settling": "settles a dispute by play before counting",
}
ALL_FEATURES = frozenset(FEATURES)
LATER_FEATURES = {"plain-refusal": 4}
"""Features added after protocol 3, by the protocol that added them: a program of an older
protocol that lists its features has these (it was never asked about them)."""
POLICY_FEATURE = {
    "refuse": "illegal-move-refuse",
    "void-pass": "illegal-move-void-pass",
    "loss": "illegal-move-loss",
}
VIOLATIONS = frozenset({"suicide", "ko", "superko"})  # the reasons the policy applies to
REASON_FEATURE = {
    "out-of-turn": "turn-order",
    "game-over": "end-of-play",
    "virtual-not-allowed": "virtual-moves",
    "handicap-placement": "free-handicap",
    "occupied": "plain-refusal",
    "off-board": "plain-refusal",
    "pass-not-allowed": "plain-refusal",
}
EFFECT_FEATURE = {"void-pass": "illegal-move-void-pass", "forfeit": "illegal-move-loss"}
ACTION_FEATURE = {"virtual": "virtual-moves", "resign": "resignation"}
END_FEATURE = {"illegal-move": "illegal-move-loss", "resignation": "resignation", "cycle": "cycle-verdict"}


class FeatureError(ValueError):
    """A feature name outside the vocabulary (the message lists the vocabulary)."""


def check_features(names: Iterable[str], where: str) -> frozenset[str]:
    """``names`` as a set, each one a feature of :data:`FEATURES`; else FeatureError naming it."""
    out = set()
    for name in names:
        if name not in FEATURES:
            raise FeatureError(f"{where}: unknown feature {name!r} (the features: {', '.join(FEATURES)})")
        out.add(name)
    return frozenset(out)


def _refusal_features(claim: "Claim", policy: str) -> set[str]:
    if claim.kind not in ("illegal", "void-pass", "forfeit") or not claim.args:
        return set()
    reason = claim.args[0]
    found = set()
    if reason in REASON_FEATURE:
        found.add(REASON_FEATURE[reason])
    if reason in VIOLATIONS:
        found.add(POLICY_FEATURE[policy])
    if claim.kind in EFFECT_FEATURE:
        found.add(EFFECT_FEATURE[claim.kind])
    return found


def _verdict_features(verdicts: "Iterable[StepVerdict]", policy: str) -> set[str]:
    found: set[str] = set()
    for verdict in verdicts:
        for alternative in verdict.alternatives:
            for claim in alternative:
                found |= _refusal_features(claim, policy)
    return found


def _end_features(state: str, args: tuple[str, ...]) -> set[str]:
    if state == "halted":
        return {"end-of-play"}
    if state == "ended" and args and args[0] in END_FEATURE:
        return {END_FEATURE[args[0]]}
    return set()


def _action_features(actions: Iterable[CaseAction]) -> set[str]:
    return {ACTION_FEATURE[a.kind] for a in actions if a.kind in ACTION_FEATURE}


def features_of(case: "Case", rules: Rules, expectation: "Expectation") -> frozenset[str]:
    """Every feature the item ``case`` under ``rules`` (with its chosen ``expectation``) needs."""
    if case.setup is None:
        return frozenset()
    return features_of_play(case.setup, (*case.history, *case.moves), rules, expectation)


def features_of_play(
    setup: Setup, actions: tuple[CaseAction, ...], rules: Rules, expectation: "Expectation"
) -> frozenset[str]:
    """:func:`features_of` for a set-up, the actions played on it (history and moves) and the
    verdicts on them (``jpd fuzz`` derives the features of its games with it)."""
    policy = str(rules.value("illegal-move"))
    found: set[str] = set()
    settle_moves: tuple[CaseAction, ...] = ()
    if setup.stones:
        found.add("setup-stones")
    if setup.handicap:
        found.add("free-handicap" if str(rules.value("handicap")) == "free" else "fixed-handicap")
    if setup.width != setup.height:
        found.add("non-square")
    if setup.final is not None and setup.final.settle is not None:
        found.add("settling")
        settle_moves = setup.final.settle.moves
    found |= _action_features((*actions, *settle_moves))
    found |= _verdict_features(expectation.steps, policy)
    if expectation.end is not None:
        found |= _end_features(expectation.end.state, expectation.end.args)
    if expectation.counts:
        found.add("counting")
    if not expectation.settle.empty:
        found.add("settling")
        found |= _verdict_features(expectation.settle.steps, policy)
    return frozenset(found)
