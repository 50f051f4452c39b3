"""The one exception family for bad input: every error carries where it happened."""

import os
import stat
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Location:
    """A place in a source file: 1-based line and column."""

    path: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}:{self.column}"
        return self.path


class InputError(Exception):
    """Bad input (a file, a command-line value). ``str(err)`` is the message a user sees.

    ``code`` is the error code of a case file (spec/case-format.md#format.errors), or "".
    """

    def __init__(self, message: str, location: Location | None = None, *, code: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.code = code

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message


class NothingSelected(InputError):
    """A selection (``--id``, ``--tag``, ``--rules``, case paths) that chooses nothing: never a
    success, since nothing was checked. The message names the selector; the exit status is
    :data:`jpdtools.exitcodes.NOTHING_SELECTED`."""


class TooLarge(InputError):
    """A file larger than jpd reads of its kind (:func:`read_bytes`)."""


def not_a_case_path(path: Path) -> str:
    """Why ``path`` (neither a regular file nor a folder) cannot be read as case files."""
    if path.exists():
        return f"not a case file or folder: {path} (a device, a pipe or a socket)"
    if path.is_symlink():
        return f"a broken symbolic link: {path}"
    return f"no such file or directory: {path}"


MAX_INPUT_BYTES = 64 * 1024 * 1024
"""The most jpd reads of one input file other than a case file or a game record (a review file,
an expected-failure list, a verify report, the presets): 16 times the largest committed report."""

_NOT_REGULAR = {
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}


def read_text_file(path: Path, what: str = "file", limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of ``path``, bounded as :func:`read_bytes` reads it; an unreadable or
    undecodable file is an InputError naming it."""
    return text_of(read_bytes(path, what, limit), path, what)


def read_bytes(path: Path, what: str = "file", limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of ``path``, at most ``limit`` of them: the one bounded reader of input files.
    It is opened without blocking (a FIFO with no writer does not hang jpd) and read only if it
    is a regular file (a link to ``/dev/zero`` is not read without end); a larger file, a
    folder, a pipe, a device or an unreadable file is an InputError naming it."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise InputError(f"cannot read {what}: {err.strerror or err}", Location(str(path))) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = _NOT_REGULAR.get(stat.S_IFMT(mode), "not a regular file")
            raise InputError(f"cannot read {what}: it is {kind}, not a file", Location(str(path)))
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError as err:
        raise InputError(f"cannot read {what}: {err.strerror or err}", Location(str(path))) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        message = f"{what} is larger than {limit:,} bytes, the most jpd reads of one: not read"
        raise TooLarge(message, Location(str(path)))
    return data


MAX_CASE_FILE_BYTES = 2 * 1024 * 1024
"""The largest case file jpd loads (25 times the suite's largest): loading takes about a hundred
bytes of memory per byte of YAML, so a 50 MB file of small cases would take gigabytes."""


def case_file_bytes(path: Path) -> bytes:
    """The bytes of a case file, at most :data:`MAX_CASE_FILE_BYTES` (a larger one is an
    InputError naming its size, read no further)."""
    try:
        return read_bytes(path, "file", MAX_CASE_FILE_BYTES)
    except TooLarge:
        pass
    message = f"larger than {MAX_CASE_FILE_BYTES:,} bytes, the most jpd loads of one case file: split it"
    raise InputError(message, Location(str(path)))


def text_of(data: bytes, path: Path, what: str = "file") -> str:
    """The text of a file's bytes as :func:`read_text_file` reads it: UTF-8, every line break
    (``\\r\\n``, ``\\r``) read as ``\\n``; undecodable bytes are an InputError naming the file."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{what} is not UTF-8 text", Location(str(path), 1, 1)) from None
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
