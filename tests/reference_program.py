"""The reference implementation behind the JSON-lines protocol, with deliberate bugs on request.

Usage: ``python reference_program.py [--bug multi-suicide|no-komi] [--protocol 1|2]``. It answers
every ``run`` with what ``jpdref`` observes (through :class:`jpdtools.run.adapters.ReferenceAdapter`,
the adapter ``jpd run`` uses), so without a bug it passes everything it declares. The bugs are
the kind a real rules engine has:

* ``multi-suicide`` — where the ruleset forbids suicide, it forbids only single-stone suicide (it
  plays under ``suicide: multi-only``): a multi-stone suicide is accepted;
* ``no-komi`` — it counts without komi (protocol 2): every margin is off by the komi;
* ``preset-only`` — it plays the preset ``ruleset`` names and ignores the axis values of
  ``rules``: a variant (``japanese:illegal-move=refuse``) is played as its preset.

``--require-case`` answers ``error`` to a ``run`` whose ``case`` is empty (the harness must fill it).
``--protocol 1`` makes it a protocol 1 program (no counting, and it answers ``start`` as a
protocol 1 program always did); ``--protocol 2`` (the default) declares the count claims too;
``--protocol 3`` declares rule features as well: all of them but those ``--lacks F,G`` names
(it still plays them: the harness must not send it an item that needs one).
"""

import argparse
import sys

from jpdref.rules import preset
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.features import FEATURES
from jpdtools.suite.setup import CaseAction
from jpdtools.verify.jsonl import serve
from jpdtools.verify.jsonl.protocol import CLAIMS, COUNT_CLAIMS, Ready, Result, Run, Supports
from jpdtools.verify.jsonl.serve import result_of_observation, setup_of_run


class ReferenceProgram:
    def __init__(
        self, bug: str, protocol: int, require_case: bool = False, lacks: tuple[str, ...] = ()
    ) -> None:
        self.bug = bug
        self.protocol = protocol
        self.require_case = require_case
        self.lacks = lacks

    def ready(self) -> Ready:
        claims = CLAIMS + (COUNT_CLAIMS if self.protocol >= 2 else ())
        features = None
        if self.protocol >= 3:
            features = tuple(f for f in FEATURES if f not in self.lacks)
        supports = Supports(claims=claims, features=features)
        return Ready("reference", self.bug or "exact", supports, protocol=self.protocol)

    def run(self, msg: Run) -> Result:
        if self.require_case and not msg.case:
            raise RuntimeError(f"run {msg.id} names no case")
        base = msg.ruleset.partition(":")[0]
        rules = (
            preset(base)
            if self.bug == "preset-only"
            else preset(base).with_values(dict(msg.rules), msg.ruleset)
        )
        if self.bug == "multi-suicide" and str(rules.value("suicide")) == "forbidden":
            rules = rules.with_values({"suicide": "multi-only"}, msg.ruleset)
        if self.bug == "no-komi":
            rules = rules.with_values({"komi": "0"}, msg.ruleset)
        setup = setup_of_run(msg)
        history = tuple(_action(a) for a in msg.history)
        moves = tuple(_action(a) for a in msg.moves)
        observation = ReferenceAdapter().observe(setup, history, moves, rules)
        if observation.error is not None:
            raise RuntimeError(observation.error)
        return result_of_observation(msg.id, observation)


def _action(act) -> CaseAction:
    return CaseAction(act.color, act.action, act.vertex)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bug", choices=["multi-suicide", "no-komi", "preset-only"], default="")
    parser.add_argument("--protocol", type=int, choices=[1, 2, 3], default=2)
    parser.add_argument("--require-case", action="store_true")
    parser.add_argument("--lacks", default="", help="comma-separated features it declares it lacks")
    args = parser.parse_args()
    lacks = tuple(f for f in args.lacks.split(",") if f)
    program = ReferenceProgram(args.bug, args.protocol, args.require_case, lacks)
    return serve.serve(program, protocols=(args.protocol,))


if __name__ == "__main__":
    sys.exit(main())
