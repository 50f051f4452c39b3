"""Writing a file whole or not at all: a temporary file beside it, then one rename.

Every file the tools write (exports, ``report.*``, ``--junit``) goes through here, so a full
disk, a signal or a crash never leaves a truncated file under the final name: either the old
file (or none) is there, or the complete new one. The temporary file lives in the same directory
(``.NAME.PID.RANDOM.tmp``; a rename is atomic only within one file system), is flushed and
synced before ``os.replace``, and is removed when anything fails. It is created with mode 0666
less the umask, as ``open`` would create the file itself.

Errors are :class:`~jpdtools.errors.InputError` naming the path (``cannot write: No space left on
device``), so the command line reports them like any other bad input.
"""

import os
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

from jpdtools.errors import InputError, Location


def _temporary(path: Path) -> tuple[Path, int]:
    """A new, exclusive temporary file beside ``path``: its name and an open descriptor."""
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def _error(path: Path, err: OSError) -> InputError:
    return InputError(f"cannot write: {err.strerror or err}", Location(str(path)))


@contextmanager
def replacing(path: Path | str, *, binary: bool = False, encoding: str = "utf-8") -> Iterator[IO]:
    """A file object to write ``path``'s new content into; ``path`` is replaced when the block
    ends normally, and left as it was when it raises (the temporary file is removed).
    The parent directory is created if missing."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp, fd = _temporary(path)
    except OSError as err:
        raise _error(path, err) from None
    try:
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": encoding})) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as err:
        _discard(tmp)
        raise _error(path, err) from None
    except BaseException:
        _discard(tmp)
        raise


def write_text(path: Path | str, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically (see the module docstring)."""
    with replacing(path, encoding=encoding) as f:
        f.write(text)


def write_bytes(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see the module docstring)."""
    with replacing(path, binary=True) as f:
        f.write(data)


def _discard(tmp: Path) -> None:
    with suppress(OSError):
        tmp.unlink()


def write_all(files: Sequence[tuple[Path, str]], encoding: str = "utf-8") -> None:
    """Write several files all or none: every new text goes to a temporary file beside its target
    first (flushed and synced); only when all are written are they renamed into place. A target
    that is a symbolic link is written through the link (the link stays). A failure before the
    renames leaves every file as it was."""
    made: list[tuple[Path, Path]] = []
    try:
        for path, text in files:
            target = Path(os.path.realpath(path))
            try:
                tmp, fd = _temporary(target)
            except OSError as err:
                raise _error(Path(path), err) from None
            made.append((tmp, target))
            try:
                with os.fdopen(fd, "w", encoding=encoding) as f:
                    f.write(text)
                    f.flush()
                    os.fsync(f.fileno())
            except OSError as err:
                raise _error(Path(path), err) from None
        for tmp, target in made:
            try:
                os.replace(tmp, target)
            except OSError as err:
                raise _error(target, err) from None
    finally:
        for tmp, _ in made:
            _discard(tmp)
