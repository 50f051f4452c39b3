"""The program side of the JSON-lines protocol: read a message, answer it, repeat.

A wrapper implements :class:`Program` (``ready`` and ``run``) and calls :func:`serve`. An
exception inside ``run`` becomes an ``error`` answer for that run, so one bad case never stops
the program; a malformed line gets an ``error`` answer with ``id`` null.
"""

import sys
from typing import Protocol, TextIO

from jpdtools.verify.jsonl.protocol import (
    PROTOCOL_VERSION,
    Error,
    Message,
    ProtocolError,
    Ready,
    Result,
    Run,
    Start,
    Stop,
    Unsupported,
    decode,
    encode,
)


class Program(Protocol):
    def ready(self) -> Ready: ...

    def run(self, msg: Run) -> Result | Error | Unsupported: ...


def _answer(msg: Message, program: Program) -> Message:
    try:
        if isinstance(msg, Start):
            if msg.protocol != PROTOCOL_VERSION:
                return Error(None, f"protocol {msg.protocol} is not supported (this program speaks 1)")
            return program.ready()
        if isinstance(msg, Run):
            return program.run(msg)
    except Exception as err:  # one bad case is an error answer, never the end of the program
        text = str(err) if type(err) is RuntimeError else f"{type(err).__name__}: {err}"
        return Error(getattr(msg, "id", None), text)
    return Error(None, f"unexpected message {type(msg).__name__.lower()!r}")


def serve(program: Program, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
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
            answer = _answer(msg, program)
        stdout.write(encode(answer) + "\n")
        stdout.flush()
    return 0
