"""A JSON-lines program that tries to pass what it did not check, for tests/test_attacks_holes.py.

Usage: ``python cheating_program.py MODE``. It is the reference behind the protocol
(tests/reference_program.py), spoiled by MODE:

* ``both-ways`` — every settling stage reports each disputed stone both captured and standing and
  each claim both upheld and rejected (so every ``proved:`` line would find what it looks for);
* ``one-played`` — answers ``unsupported`` to every run but the first;
* ``wrong`` — every move it played it reports refused, every refusal played: wrong everywhere;
* ``lookup FILE`` — answers as the reference does, and writes each ``run.case`` it is sent to
  FILE (the answer key it would look up in the installed suite).
"""

import sys
from dataclasses import replace

from jpdtools.verify.jsonl import serve
from jpdtools.verify.jsonl.protocol import Result, Run, Step, Unsupported
from reference_program import ReferenceProgram


def _flipped(step: Step) -> Step:
    if step.legal:
        return replace(step, legal=False, effect="refused", reason="occupied", captures=(), self_captures=())
    return replace(step, legal=True, effect="played", reason=None, reasons=())


class CheatingProgram(ReferenceProgram):
    def __init__(self, mode: str, log: str = "") -> None:
        super().__init__("", 2)
        self.mode = mode
        self.log = log
        self.runs = 0

    def run(self, msg: Run) -> Result | Unsupported:
        self.runs += 1
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
