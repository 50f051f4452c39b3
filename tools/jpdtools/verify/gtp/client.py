"""A GTP client over subprocess pipes that survives a misbehaving engine.

Every command carries a numeric id and waits at most ``timeout`` seconds for its reply (``select``
on the engine's stdout; no threads share state with the caller beyond a stderr drain). What can go
wrong is an exception of :class:`GtpError`:

* :class:`EngineTimeout` — no complete reply in time (the engine hangs or loops);
* :class:`EngineCrashed` — the engine's stdout closed or the pipe broke (the engine died);
* :class:`GarbledReply` — a reply that is not ``=``/``?`` + id + text + blank line, or carries the
  wrong id.

After any of these the process is killed and the client is *dead*; :meth:`GtpClient.restart`
starts a fresh process (the caller rebuilds its position). A ``?`` reply is not an error of the
engine: it is a :class:`Reply` with ``ok`` False.

The client also measures ``engine_seconds``: the time spent waiting for replies, from the write of
a command to the end of its reply, which is the engine's own time as the harness sees it.
"""

import collections
import contextlib
import os
import select
import subprocess
import threading
import time
from dataclasses import dataclass

STDERR_TAIL = 20


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


class GtpClient:
    """One engine process. ``command`` is the argv to start it; ``timeout`` is per command."""

    def __init__(self, command: list[str], timeout: float = 10.0, start_timeout: float | None = None):
        self.command = list(command)
        self.timeout = timeout
        self.start_timeout = start_timeout or max(timeout, 10.0)
        self.engine_seconds = 0.0
        self.restarts = 0
        self._proc: subprocess.Popen | None = None
        self._buffer = b""
        self._next_id = 1
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL)

    # -- life cycle ------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        """Start the process if it is not running. Raises EngineCrashed if it cannot start."""
        if self.alive:
            return
        self._kill()
        try:
            self._proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
            )
        except OSError as err:
            self._proc = None
            raise EngineCrashed(f"cannot start {self.command[0]}: {err.strerror or err}") from None
        self._buffer = b""
        self._stderr.clear()
        threading.Thread(target=_drain, args=(self._proc.stderr, self._stderr), daemon=True).start()

    def restart(self) -> None:
        self._kill()
        self.restarts += 1
        self.start()

    def close(self) -> None:
        """Say ``quit`` politely if the engine is alive, then make sure the process is gone."""
        if self.alive:
            with contextlib.suppress(GtpError):
                self.send("quit", timeout=1.0)
        self._kill()

    def __enter__(self) -> "GtpClient":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        for stream in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError):
                stream.close()
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):  # a process that ignores SIGKILL
            proc.wait(timeout=5)

    def stderr_tail(self) -> str:
        return " | ".join(line for line in self._stderr if line.strip())[-300:]

    # -- commands --------------------------------------------------------------------------

    def send(self, command: str, timeout: float | None = None) -> Reply:
        """Send one command and read its reply. Raises GtpError (the client is then dead)."""
        if "\n" in command or "\r" in command:
            raise ValueError(f"a GTP command is one line: {command!r}")
        first = not self.alive
        self.start()
        limit = timeout if timeout is not None else (self.start_timeout if first else self.timeout)
        cmd_id = self._next_id
        self._next_id += 1
        began = time.perf_counter()
        try:
            self._write(f"{cmd_id} {command}\n".encode())
            raw = self._read_reply(limit, command)
            return parse_reply(raw, cmd_id)
        except GtpError:
            self._kill()
            raise
        finally:
            self.engine_seconds += time.perf_counter() - began

    def _write(self, data: bytes) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(data)
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError) as err:
            raise EngineCrashed(self._died(f"cannot write to the engine ({err})")) from None

    def _read_reply(self, limit: float, command: str) -> str:
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        deadline = time.monotonic() + limit
        while True:
            normal = self._buffer.replace(b"\r", b"")
            end = normal.find(b"\n\n")
            if end >= 0 and normal[:end].strip():
                self._buffer = normal[end + 2 :]
                try:
                    return normal[:end].decode("utf-8")
                except UnicodeDecodeError:
                    raise GarbledReply(f"reply to {command!r} is not UTF-8") from None
            if end >= 0:  # blank lines only: drop them
                self._buffer = normal[end + 2 :]
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineTimeout(f"no reply to {command!r} within {limit:g} s")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EngineCrashed(self._died(f"the engine closed its output during {command!r}"))
            self._buffer += chunk

    def _died(self, message: str) -> str:
        code = None
        if self._proc is not None:
            try:
                code = self._proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
        parts = [message]
        if code is not None:
            parts.append(f"exit status {code}")
        tail = self.stderr_tail()
        if tail:
            parts.append(f"stderr: {tail}")
        return "; ".join(parts)


def _drain(stream, sink: collections.deque) -> None:
    """Keep the last lines of the engine's stderr (so a full pipe never blocks the engine)."""
    try:
        for line in iter(stream.readline, b""):
            sink.append(line.decode("utf-8", "replace").rstrip())
    except (OSError, ValueError):
        pass
