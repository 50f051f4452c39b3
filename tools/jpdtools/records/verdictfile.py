"""The verdicts of a collection as JSON Lines: written as they come, read back checked.
{#count.replay}

:class:`VerdictFile` streams verdicts to ``--out`` with a flush per delivery (a killed run loses
nothing already refereed) and reads back what an earlier run wrote (:meth:`VerdictFile.resume`).
:func:`read_lines` reads an output for ``--merge``. Every line read is checked field by field
(:func:`line_problem`): a file that is not a verdict file, or a line missing what the summary
reads, is an InputError naming file and line — and ``--resume`` changes nothing in a file it
refuses.
"""

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from jpdtools.errors import InputError, Location

LINE_START = b'{"record": '  # how every line this module writes begins (the first key, no spaces)


def json_line(line: dict) -> str:
    """One verdict as a line of JSON. Non-ASCII is kept as is; a key holding an undecodable file
    name (a lone surrogate, from the file system) is written with ASCII escapes instead, so the
    file stays UTF-8 and the name reads back to the same bytes."""
    text = json.dumps(line, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(line)
    return text + "\n"


def _kind(value: object, *kinds: type) -> bool:
    return isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)


_NUMBER = (int, float)
_OPTIONAL_TEXT = (str, type(None))
_REFUSAL = {"action": (int,), "color": (str,), "vertex": _OPTIONAL_TEXT, "reason": (str,), "effect": (str,)}
_VERDICT = {
    "board": (str,),
    "moves": (int,),
    "actions": (int,),
    "ending": (str,),
    "stopped_at": (int, type(None)),
    "refused": (list,),
    "re": (dict,),
    "count": (dict, type(None)),
    "count_error": (dict, type(None)),
    "no_count": _OPTIONAL_TEXT,
}


def _fields(obj: dict, spec: dict[str, tuple], where: str) -> str | None:
    for name, kinds in spec.items():
        if name not in obj:
            return f"{where}no '{name}'"
        if not _kind(obj[name], *kinds):
            expected = " or ".join(k.__name__ for k in kinds)
            return f"{where}'{name}' is {type(obj[name]).__name__}, expected {expected}"
    return None


def line_problem(line: object) -> str | None:
    """What makes ``line`` not a verdict line (spec/counting.md#count.replay), or None: every
    field the summary reads, with its type."""
    if not isinstance(line, dict) or "record" not in line or "rules" not in line:
        return "not a verdict line (expected 'record' and 'rules')"
    if not isinstance(line["record"], str) or not _kind(line["rules"], str, type(None)):
        return "'record' must be text and 'rules' text or null"
    if line["rules"] is None:
        error = line.get("error")
        if not isinstance(error, dict):
            return "a record error without 'error'"
        return _fields(error, {"code": (str,), "message": (str,)}, "error: ")
    problem = _fields(line, _VERDICT, "")
    if problem:
        return problem
    for n, refusal in enumerate(line["refused"], 1):
        if not isinstance(refusal, dict):
            return f"refused #{n} is not an object"
        problem = _fields(refusal, _REFUSAL, f"refused #{n}: ")
        if problem:
            return problem
    if not _kind(line.get("refused_total", 0), int):
        return "'refused_total' must be a whole number"
    problem = _fields(line["re"], {"kind": (str,), "winner": _OPTIONAL_TEXT, "text": _OPTIONAL_TEXT}, "re: ")
    if problem:
        return problem
    if line["count"] is not None:
        spec = {"winner": (str,), "margin": _NUMBER, "komi": _NUMBER, "method": (str,)}
        problem = _fields(line["count"], spec, "count: ")
        if problem:
            return problem
    if line["count_error"] is not None:
        return _fields(line["count_error"], {"code": (str,), "message": (str,)}, "count_error: ")
    return None


def parse_lines(path: Path, text: str, first_line: int = 1) -> Iterator[dict]:
    """The verdict lines of ``text`` (from ``path``), checked. Raises InputError naming file and line."""
    for n, raw in enumerate(text.splitlines(), first_line):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as err:
            raise InputError(f"not a JSON line: {err.msg}", Location(str(path), n, err.colno)) from None
        except RecursionError:
            raise InputError("not a JSON line: nested too deep", Location(str(path), n, 1)) from None
        problem = line_problem(line)
        if problem:
            raise InputError(problem, Location(str(path), n, 1))
        yield line


def _text(path: Path, data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        message = f"{what}: not UTF-8 text, so not a verdict file"
        raise InputError(message, Location(str(path), line, 1)) from None


def read_lines(path: Path) -> Iterator[dict]:
    """The verdict lines of a JSON Lines file (a ``--merge`` input), read line by line."""
    try:
        f = path.open("rb")
    except OSError as err:
        raise InputError(f"cannot read verdicts: {err.strerror or err}", Location(str(path))) from None
    with f:
        for n, raw in enumerate(f, 1):
            yield from parse_lines(path, _text(path, raw, "verdicts"), n)


@dataclass
class VerdictFile:
    """The verdicts of a run as JSON Lines: one line per record × ruleset (or per record error),
    written and flushed as they come."""

    path: Path
    stream: IO[str] | None = field(default=None, repr=False)

    def open(self, append: bool) -> None:
        self.stream = self.path.open("a" if append else "w", encoding="utf-8")

    def write(self, lines: list[dict]) -> None:
        """Append ``lines``; a full disk is an InputError naming the file (what was flushed
        before stays, and ``--resume`` takes it up)."""
        assert self.stream is not None
        try:
            self.stream.write("".join(json_line(line) for line in lines))
            self.stream.flush()
        except OSError as err:
            self.stream = None  # not closed: closing would flush the broken write again
            raise InputError(
                f"--out: cannot write: {err.strerror or err}", Location(str(self.path))
            ) from None

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None

    def resume(self) -> list[dict]:
        """The lines an earlier run wrote. A last line cut off by a kill (it begins as every line
        written here begins) is removed from the file, to be refereed again. Anything else that
        is not a verdict line is an InputError naming it, and the file is left as it was."""
        if not self.path.exists():
            return []
        try:
            data = self.path.read_bytes()
        except OSError as err:
            message = f"--resume: cannot read: {err.strerror or err}"
            raise InputError(message, Location(str(self.path))) from None
        end = data.rfind(b"\n") + 1
        cut = data[end:]
        what = "--resume"
        lines = list(parse_lines(self.path, _text(self.path, data[:end], what)))
        if cut and not (cut.startswith(LINE_START) or LINE_START.startswith(cut)):
            where = Location(str(self.path), data.count(b"\n") + 1, 1)
            raise InputError(f"{what}: not a verdict line, so not a verdict file", where)
        if cut:
            with self.path.open("r+b") as f:
                f.truncate(end)
        return lines
