"""A JSON-lines program that tries to pass what it did not check, for tests/test_attacks_holes.py.

Usage: ``python cheating_program.py MODE``. It is the reference behind the protocol
(tests/reference_program.py), spoiled by MODE:

* ``both-ways`` — every settling stage reports each disputed stone both captured and standing and
  each claim both upheld and rejected (so every ``proved:`` line would find what it looks for);
* ``one-played`` — answers ``unsupported`` to every run but the first;
* ``wrong`` — every move it played it reports refused, every refusal played: wrong everywhere;
* ``lookup FILE`` — answers as the reference does, and writes each ``run.case`` it is sent to
  FILE (the answer key it would look up in the installed suite);
* ``by-position CASES`` — knows the positions of the case file CASES as they are written: for one
  of them (board, stones, side to move, history and moves the same) it answers what the reference
  answers, which is what the case records; for any other it answers ``wrong``'s way. It plays no
  Go of its own: only ``jpd verify --transform`` tells it apart from the reference.
"""

import sys
from dataclasses import replace
from pathlib import Path

from jpdtools.presets import load_presets
from jpdtools.run.runner import default_loader
from jpdtools.verify.jsonl import serve
from jpdtools.verify.jsonl.protocol import Result, Run, Step, Unsupported
from reference_program import ReferenceProgram


def _flipped(step: Step) -> Step:
    if step.legal:
        return replace(step, legal=False, effect="refused", reason="occupied", captures=(), self_captures=())
    return replace(step, legal=True, effect="played", reason=None, reasons=())


def _known_positions(path: str) -> frozenset:
    """Every item of the case file ``path`` as a :func:`_position` (its markers resolved)."""
    known = set()
    for case in default_loader().load_case_file(Path(path), load_presets()).cases:  # the compiled suite
        setup = case.setup
        if setup is None:
            continue
        markers = dict(setup.markers)

        def acts(actions, markers=markers):
            return tuple(
                (
                    a.color,
                    a.kind,
                    markers.get(a.vertex[1:], a.vertex) if a.vertex and a.vertex[0] == "@" else a.vertex,
                )
                for a in actions
            )

        stones = frozenset(setup.stones)
        known.add(
            (
                setup.width,
                setup.height,
                setup.to_move,
                setup.handicap,
                stones,
                acts(case.history),
                acts(case.moves),
            )
        )
    return frozenset(known)


def _position(msg: Run) -> tuple:
    def acts(actions):
        return tuple((a.color, a.action, a.vertex) for a in actions)

    stones = frozenset(msg.stones)
    return (msg.width, msg.height, msg.to_move, msg.handicap, stones, acts(msg.history), acts(msg.moves))


class CheatingProgram(ReferenceProgram):
    def __init__(self, mode: str, log: str = "") -> None:
        super().__init__("", 2)
        self.mode = mode
        self.log = log
        self.runs = 0
        self.known = _known_positions(log) if mode == "by-position" else frozenset()

    def run(self, msg: Run) -> Result | Unsupported:
        self.runs += 1
        if self.mode == "by-position":
            result = super().run(msg)
            if _position(msg) in self.known:
                return result
            return replace(result, steps=tuple(_flipped(s) for s in result.steps))
        if self.mode == "lookup":
            with open(self.log, "a", encoding="utf-8") as f:
                f.write(msg.case + "\n")
        if self.mode == "one-played" and self.runs > 1:
            return Unsupported(msg.id, "not this one")
        result = super().run(msg)
        if self.mode == "wrong":
            return replace(result, steps=tuple(_flipped(s) for s in result.steps))
        if self.mode == "both-ways" and result.settle is not None and result.settle.error is None:
            stones = tuple(sorted({*result.settle.captured, *result.settle.standing}))
            claims = tuple(sorted({*result.settle.upheld, *result.settle.rejected}))
            settle = replace(result.settle, captured=stones, standing=stones, upheld=claims, rejected=claims)
            return replace(result, settle=settle)
        return result


if __name__ == "__main__":
    sys.exit(serve.serve(CheatingProgram(*sys.argv[1:3]), protocols=(2,)))
