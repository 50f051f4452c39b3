"""A program under test as a child process that can always be ended.

:class:`ProgramProcess` starts the program in **its own session and process group**, so that
ending it ends everything it started (a launcher script's child, a forked helper that keeps the
output pipe open): :meth:`ProgramProcess.kill` sends SIGKILL to the whole group and reaps the
leader. No thread ever reads its pipes: :meth:`ProgramProcess.read_until` waits with ``select`` on
standard output *and* standard error until a deadline, reading whatever is there in chunks (a
verbose program's standard error is kept as a short tail and never blocks it), and
:meth:`ProgramProcess.write` waits for the input pipe to take the bytes, also until a deadline.
So no call blocks past its deadline, and closing the pipes never waits for a reader.

What can go wrong is one of three exceptions: :class:`ProgramTimeout` (the deadline passed),
:class:`ProgramExited` (the output closed or the input pipe broke) and :class:`ProgramFlooded`
(a reply grew past ``max_reply`` bytes without ending). Timeouts are finite numbers of seconds:
the caller checks them (``jpd verify --timeout``).

The program runs with **its own scratch folders** (:func:`scratch_environment`): ``HOME``,
``XDG_CACHE_HOME``, ``XDG_CONFIG_HOME``, ``XDG_DATA_HOME``, ``XDG_STATE_HOME`` and ``TMPDIR``
(``TMP``, ``TEMP``) name a fresh private folder, removed when the program is killed, and
jipingdian's own cache variables are unset. A program that writes where its environment tells it
(a cache, a temporary file) so writes nowhere the checker reads; what jipingdian keeps in the
user's cache folder is sealed besides (:mod:`jpdtools.diskcache`).
"""

import contextlib
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable

STDERR_TAIL_BYTES = 4096
CHUNK = 65536


MAX_TIMEOUT = 86_400
"""The longest ``--timeout`` (a day): a deadline beyond it overflows the operating system's timers."""


SCRATCH_VARIABLES = ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")
TEMPORARY_VARIABLES = ("TMPDIR", "TMP", "TEMP")
UNSET_VARIABLES = ("JPD_CACHE_DIR", "JPD_PROOF_CACHE", "JPD_CACHE")


def scratch_environment(folder: str) -> dict[str, str]:
    """This process's environment with every home, cache and temporary folder inside ``folder``
    and jipingdian's cache variables removed."""
    env = {k: v for k, v in os.environ.items() if k not in UNSET_VARIABLES}
    for name in SCRATCH_VARIABLES:
        env[name] = os.path.join(folder, name.lower())
        os.makedirs(env[name], mode=0o700, exist_ok=True)
    temporary = os.path.join(folder, "tmp")
    os.makedirs(temporary, mode=0o700, exist_ok=True)
    env.update(dict.fromkeys(TEMPORARY_VARIABLES, temporary))
    return env


class ProgramError(Exception):
    """The program misbehaved; ``str()`` says how."""


class ProgramTimeout(ProgramError):
    pass


class ProgramExited(ProgramError):
    pass


class ProgramFlooded(ProgramError):
    pass


class ProgramProcess:
    """One running program (see the module text). ``argv`` is not run through a shell."""

    def __init__(self, argv: list[str], max_reply: int) -> None:
        self.argv = list(argv)
        self.max_reply = max_reply
        self._out = bytearray()
        self._err = bytearray()
        self._out_open = True
        self._err_open = True
        self._killed = False
        try:
            self.scratch = tempfile.mkdtemp(prefix="jpd-program-")
            env = scratch_environment(self.scratch)
        except OSError as err:
            raise ProgramExited(f"cannot make a scratch folder for {self.argv[0]}: {err}") from None
        try:
            self.popen = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,
                env=env,
            )
        except OSError as err:
            shutil.rmtree(self.scratch, ignore_errors=True)
            raise ProgramExited(f"cannot start {self.argv[0]}: {err.strerror or err}") from None
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        self._in_fd = self.popen.stdin.fileno()
        self._out_fd = self.popen.stdout.fileno()
        self._err_fd = self.popen.stderr.fileno()
        os.set_blocking(self._in_fd, False)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    # -- input and output ------------------------------------------------------------------

    def write(self, data: bytes, deadline: float) -> None:
        """Write all of ``data`` before ``deadline`` (``time.monotonic()``), draining the
        program's output meanwhile so that a program blocked on writing never deadlocks us."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in_fd, view) :]
                continue
            except BlockingIOError:
                pass  # the pipe is full: wait below until the program reads
            except (BrokenPipeError, OSError) as err:
                raise ProgramExited(f"cannot write to the program ({err.strerror or err})") from None
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProgramTimeout("the program does not read its input")
            readable, _, _ = select.select(self._readers(), [self._in_fd], [], left)
            self._take(readable)

    def read_until(self, end: Callable[[bytearray], int], deadline: float) -> bytes:
        """The output up to where ``end(buffer)`` says a reply ends (an index past its last byte,
        or -1 while incomplete), removed from the buffer. Raises ProgramTimeout at the deadline,
        ProgramExited when the output closes first, ProgramFlooded past ``max_reply`` bytes."""
        while True:
            stop = end(self._out)
            if stop >= 0:
                reply = bytes(self._out[:stop])
                del self._out[:stop]
                return reply
            if len(self._out) > self.max_reply:
                raise ProgramFlooded(f"more than {self.max_reply} bytes without the end of a reply")
            if not self._out_open:
                raise ProgramExited("the program closed its output")
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProgramTimeout("no reply in time")
            readable, _, _ = select.select(self._readers(), [], [], left)
            self._take(readable)

    def _readers(self) -> list[int]:
        pipes = ((self._out_fd, self._out_open), (self._err_fd, self._err_open))
        return [fd for fd, is_open in pipes if is_open]

    def _take(self, readable: list[int]) -> None:
        for fd in readable:
            try:
                chunk = os.read(fd, CHUNK)
            except OSError:
                chunk = b""
            if fd == self._out_fd:
                self._out_open = bool(chunk)
                self._out += chunk
            else:
                self._err_open = bool(chunk)
                self._err += chunk
                del self._err[:-STDERR_TAIL_BYTES]

    def unread_tail(self, limit: int = 300) -> str:
        """The last of what the program wrote to standard output that no reply took (an engine
        that prints why it stops, as Leela Zero does without its weights), joined by `` | ``."""
        lines = bytes(self._out).decode("utf-8", "replace").replace("\r", "").split("\n")
        return " | ".join(line.strip() for line in lines if line.strip())[-limit:]

    def stderr_tail(self, limit: int = 300) -> str:
        """The last lines the program wrote to standard error, joined by `` | ``."""
        with contextlib.suppress(OSError, ValueError):
            while self._err_open and select.select([self._err_fd], [], [], 0)[0]:
                self._take([self._err_fd])
        lines = self._err.decode("utf-8", "replace").replace("\r", "").split("\n")
        return " | ".join(line.strip() for line in lines if line.strip())[-limit:]

    # -- the end ---------------------------------------------------------------------------

    def exit_status(self, wait: float = 1.0) -> int | None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self.popen.wait(timeout=wait)
        return None

    def wait_exit(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the program to exit by itself."""
        return self.exit_status(seconds) is not None

    def kill(self) -> None:
        """Kill the program's whole process group, close the pipes, reap the program. Never blocks
        for long: a process that survives SIGKILL (uninterruptible sleep) is left after 5 s."""
        if self._killed:
            return
        self._killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()
        self._out_open = self._err_open = False
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)
        shutil.rmtree(self.scratch, ignore_errors=True)


# -- what a run leaves behind -----------------------------------------------------------------

PR_SET_CHILD_SUBREAPER = 36


class Orphans:
    """The processes a program under test leaves behind, adopted and ended (Linux; elsewhere it
    does nothing).

    Killing a program's process group ends what it forked, unless a descendant left the group
    (``setsid``); and a killed grandchild, reparented to PID 1, stays a zombie where PID 1 does
    not reap (a container). While an :class:`Orphans` is open this process is a *child subreaper*
    (``prctl(PR_SET_CHILD_SUBREAPER)``): orphaned descendants are reparented here, and
    :meth:`clear` kills and reaps every child that was not there when it opened. Call it once
    the run's own children (engines, worker processes) are closed and joined."""

    def __init__(self) -> None:
        self._before = _children()
        self._active = _set_subreaper(True)

    def clear(self, seconds: float = 2.0) -> None:
        if not self._active:
            return
        deadline = time.monotonic() + seconds
        while True:
            left = _children() - self._before
            for pid in left:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            _reap(left)
            if not (_children() - self._before) or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        _set_subreaper(False)
        self._active = False


def _set_subreaper(on: bool) -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _children() -> set[int]:
    """The pids whose parent is this process (Linux /proc; empty where there is none)."""
    found: set[int] = set()
    try:
        threads = os.listdir("/proc/self/task")
    except OSError:
        return found
    for tid in threads:
        try:
            with open(f"/proc/self/task/{tid}/children", "rb") as listing:
                found.update(int(pid) for pid in listing.read().split())
        except OSError:
            continue
    return found


def _reap(pids: set[int]) -> None:
    """Reap those of ``pids`` that have exited (never waits for a running one)."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
