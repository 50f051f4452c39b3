"""The program side of the JSON-lines protocol: read a message, answer it, repeat.

A wrapper implements :class:`Program` (``ready`` and ``run``) and calls :func:`serve`, saying
which protocol versions it speaks (``protocols``; version 1 by default): ``serve`` answers a
``start`` offering none of them with an ``error``, and otherwise asks ``ready()`` and sets its
``protocol`` to the newest version both sides speak. An exception inside ``run`` becomes an
``error`` answer for that run, so one bad case never stops the program; a malformed line gets an
``error`` answer with ``id`` null. :func:`setup_of_run` and :func:`result_of_observation` turn a
``run`` into the case format's set-up and an :class:`~jpdtools.run.adapters.Observation` into a
``result`` (counts and settling included), for programs built on this package.
"""

import sys
from dataclasses import replace
from typing import Protocol, TextIO

from jpdtools.run.adapters import CountObservation, EndState, Observation, SettleObservation, StepObservation
from jpdtools.suite.setup import Setup
from jpdtools.verify.jsonl.protocol import (
    FEATURES_VERSION,
    Count,
    End,
    Error,
    Message,
    ProtocolError,
    Ready,
    Result,
    Run,
    Settle,
    Start,
    Step,
    Stop,
    Unsupported,
    decode,
    encode,
)


class Program(Protocol):
    def ready(self) -> Ready: ...

    def run(self, msg: Run) -> Result | Error | Unsupported: ...


def _answer(msg: Message, program: Program, protocols: tuple[int, ...]) -> Message:
    try:
        if isinstance(msg, Start):
            common = sorted(set(msg.offered()) & set(protocols))
            if not common:
                offered = ", ".join(str(v) for v in msg.offered())
                speaks = ", ".join(str(v) for v in protocols)
                return Error(None, f"protocol {offered} is not supported (this program speaks {speaks})")
            ready = replace(program.ready(), protocol=common[-1])
            if common[-1] < FEATURES_VERSION and ready.supports.features is not None:
                # an older harness cannot skip by feature: it holds the program to every one
                ready = replace(ready, supports=replace(ready.supports, features=None))
            return ready
        if isinstance(msg, Run):
            return program.run(msg)
    except Exception as err:  # one bad case is an error answer, never the end of the program
        text = str(err) if type(err) is RuntimeError else f"{type(err).__name__}: {err}"
        return Error(getattr(msg, "id", None), text)
    return Error(None, f"unexpected message {type(msg).__name__.lower()!r}")


def serve(
    program: Program,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    protocols: tuple[int, ...] = (1,),
) -> int:
    """Answer messages until ``stop`` or end of input. Returns the exit status (0)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for raw in stdin:
        line = raw.strip()
        if not line:
            continue
        try:
            msg = decode(line)
        except ProtocolError as err:
            answer: Message = Error(None, f"bad message: {err}")
        else:
            if isinstance(msg, Stop):
                return 0
            answer = _answer(msg, program, protocols)
        stdout.write(encode(answer) + "\n")
        stdout.flush()
    return 0


# -- conversions for programs built on this package ---------------------------------------------


def setup_of_run(msg: Run) -> Setup:
    """The set-up a ``run`` describes, with its ``final`` (version 2) as the case format's."""
    return Setup(msg.width, msg.height, msg.to_move, msg.stones, handicap=msg.handicap, final=msg.final)


def _step(step: StepObservation) -> Step:
    return Step(
        legal=step.legal,
        effect=step.effect,
        reason=step.reason,
        captures=step.captures,
        self_captures=step.self_captures,
        to_move=step.to_move,
        board=step.board,
    )


def _end(end: EndState | None) -> End | None:
    if end is None:
        return None
    return End(end.phase, end.to_move, end.kind, end.result, end.winner)


def _count(count: CountObservation) -> Count:
    if count.error is not None:
        return Count(method=count.method or None, error=count.error, message=count.message)
    return Count(
        method=count.method or None,
        winner=count.winner,
        margin=count.margin,
        black=count.black,
        white=count.white,
        unit=count.unit,
        points=count.points,
    )


def _settle(settling: SettleObservation) -> Settle:
    if settling.error is not None:
        return Settle(procedure=settling.procedure or None, error=settling.error, message=settling.message)
    return Settle(
        procedure=settling.procedure or None,
        steps=tuple(_step(s) for s in settling.steps),
        end=_end(settling.end),
        settled=settling.settled,
        captured=settling.captured,
        standing=settling.standing,
        upheld=settling.upheld,
        rejected=settling.rejected,
    )


def result_of_observation(run_id: str, observation: Observation) -> Result:
    """The ``result`` message of an observation (its count and settling, when it has them)."""
    return Result(
        id=run_id,
        steps=tuple(_step(s) for s in observation.steps),
        end=_end(observation.end),
        initial_board=observation.initial_board or None,
        count=None if observation.count is None else _count(observation.count),
        settle=None if observation.settling is None else _settle(observation.settling),
    )
