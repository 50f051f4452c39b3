"""A GTP client that survives a misbehaving engine and always ends it.

The engine runs as a :class:`~jpdtools.verify.process.ProgramProcess`: in its own process group
(ending it ends whatever it started), its pipes read with ``select`` in chunks (no reader thread,
standard error kept as a short tail). Every command carries a numeric id and waits at most
``timeout`` seconds for its reply — the first command after a (re)start too. What can go wrong is
an exception of :class:`GtpError`:

* :class:`EngineTimeout` — no complete reply in time (the engine hangs, loops, or never ends its
  reply with the blank line);
* :class:`EngineCrashed` — the engine's stdout closed or the pipe broke (the engine died);
* :class:`GarbledReply` — a reply that is not ``=``/``?`` + id + text + blank line, carries the
  wrong id, or grows past :data:`MAX_REPLY_BYTES` without ending.

After any of these the engine's process group is killed and the client is *dead*;
:meth:`GtpClient.restart` starts a fresh process (the caller rebuilds its position). A ``?``
reply is not an error of the engine: it is a :class:`Reply` with ``ok`` False.

The client measures ``engine_seconds`` (the time from writing a command to reading the end of its
reply) and keeps a **transcript** of the commands sent and the replies received since the last
:meth:`GtpClient.take_transcript`, for the report of a failing item.
"""

import contextlib
import re
import time
from dataclasses import dataclass

from jpdtools.verify.process import ProgramExited, ProgramFlooded, ProgramProcess, ProgramTimeout

MAX_REPLY_BYTES = 1 << 20  # a reply longer than this is garbage (a 25×25 board lists 625 vertices)
TRANSCRIPT_LINES = 400  # per item; older lines are dropped
QUIT_SECONDS = 1.0


class GtpError(Exception):
    """The engine misbehaved; the client is dead until restarted."""


class EngineTimeout(GtpError):
    pass


class EngineCrashed(GtpError):
    pass


class GarbledReply(GtpError):
    pass


@dataclass(frozen=True)
class Reply:
    """A well-formed GTP reply: ``ok`` for ``=``, False for ``?``; ``text`` without the prefix."""

    ok: bool
    text: str


def parse_reply(raw: str, expected_id: int | None) -> Reply:
    """Parse one reply (without its terminating blank line). Raises GarbledReply."""
    text = raw.replace("\r", "").replace("\t", " ")
    lines = [line for line in text.split("\n")]
    while lines and not lines[0].strip():  # stray blank lines before a reply are tolerated
        lines.pop(0)
    if not lines or lines[0][:1] not in ("=", "?"):
        raise GarbledReply(f"not a GTP reply: {raw[:80]!r}")
    first = lines[0]
    status, rest = first[0], first[1:]
    digits = len(rest) - len(rest.lstrip("0123456789"))
    got_id = int(rest[:digits]) if digits else None
    if expected_id is not None and got_id != expected_id:
        raise GarbledReply(f"reply id {got_id} to command {expected_id}: {raw[:80]!r}")
    body = "\n".join([rest[digits:], *lines[1:]]).strip()
    return Reply(status == "=", body)


_BLANK_LINE = re.compile(rb"\n\r?\n")


def _reply_end(buffer: bytearray) -> int:
    """Where the first reply in ``buffer`` ends (past its blank line), or -1. Blank lines before
    a reply belong to it (:func:`parse_reply` skips them)."""
    for match in _BLANK_LINE.finditer(buffer):
        if buffer[: match.start()].strip():
            return match.end()
    return -1


class GtpClient:
    """One engine process. ``command`` is the argv to start it; ``timeout`` is per command."""

    def __init__(self, command: list[str], timeout: float = 10.0):
        self.command = list(command)
        self.timeout = timeout
        self.engine_seconds = 0.0
        self.restarts = 0
        self._proc: ProgramProcess | None = None
        self._next_id = 1
        self._transcript: list[str] = []

    # -- life cycle ------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.alive()

    def start(self) -> None:
        """Start the process if it is not running. Raises EngineCrashed if it cannot start."""
        if self.alive:
            return
        self._kill()
        try:
            self._proc = ProgramProcess(self.command, MAX_REPLY_BYTES)
        except ProgramExited as err:
            raise EngineCrashed(str(err)) from None
        self._note(f"(started {' '.join(self.command)})")

    def restart(self) -> None:
        self._kill()
        self.restarts += 1
        self.start()

    def close(self) -> None:
        """Say ``quit`` politely if the engine is alive, then end its whole process group."""
        if self.alive:
            with contextlib.suppress(GtpError):
                self.send("quit", timeout=min(self.timeout, QUIT_SECONDS))
        self._kill()

    def __enter__(self) -> "GtpClient":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()

    def stderr_tail(self) -> str:
        return self._proc.stderr_tail() if self._proc is not None else ""

    # -- the transcript --------------------------------------------------------------------

    def take_transcript(self) -> tuple[str, ...]:
        """The lines sent (``>``) and received (``<``) since the last call, and forget them."""
        lines, self._transcript = tuple(self._transcript), []
        return lines

    def _note(self, line: str) -> None:
        self._transcript.append(line)
        if len(self._transcript) > TRANSCRIPT_LINES:
            del self._transcript[: len(self._transcript) - TRANSCRIPT_LINES]

    # -- commands --------------------------------------------------------------------------

    def send(self, command: str, timeout: float | None = None) -> Reply:
        """Send one command and read its reply. Raises GtpError (the client is then dead)."""
        if "\n" in command or "\r" in command:
            raise ValueError(f"a GTP command is one line: {command!r}")
        self.start()
        proc = self._proc
        assert proc is not None
        limit = self.timeout if timeout is None else timeout
        cmd_id = self._next_id
        self._next_id += 1
        began = time.perf_counter()
        deadline = time.monotonic() + limit
        self._note(f"> {cmd_id} {command}")
        try:
            try:
                proc.write(f"{cmd_id} {command}\n".encode(), deadline)
                raw = proc.read_until(_reply_end, deadline)
            except ProgramTimeout:
                raise EngineTimeout(f"no reply to {command!r} within {limit:g} s") from None
            except ProgramFlooded as err:
                raise GarbledReply(f"reply to {command!r}: {err}") from None
            except ProgramExited as err:
                raise EngineCrashed(self._died(f"{err} during {command!r}")) from None
            try:
                text = raw.replace(b"\r", b"").decode("utf-8")
            except UnicodeDecodeError:
                raise GarbledReply(f"reply to {command!r} is not UTF-8") from None
            self._note("< " + text.strip().replace("\n", "\n< "))
            return parse_reply(text, cmd_id)
        except GtpError as err:
            self._note(f"! {type(err).__name__}: {err}")
            self._kill()
            raise
        finally:
            self.engine_seconds += time.perf_counter() - began

    def _died(self, message: str) -> str:
        parts = [message]
        if self._proc is not None:
            code = self._proc.exit_status(1.0)
            if code is not None:
                parts.append(f"exit status {code}")
            tail = self._proc.stderr_tail()
            if tail:
                parts.append(f"stderr: {tail}")
            unread = self._proc.unread_tail()
            if unread:
                parts.append(f"it wrote: {unread}")
        return "; ".join(parts)
