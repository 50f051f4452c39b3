"""No command writes over what it reads: the one check every output path goes through.

Every option that names something a command writes — ``--junit``, ``--html``, ``--report-dir``,
``--out``, ``--summary``, ``--gnugo-opinion``, the folder of ``jpd book`` and ``jpd export`` — is
checked here before anything is written (or any program started). An output is refused (an
InputError, exit status 2, naming the option and the path) when it

* is an input of the command, or lies inside an input folder (``--junit conformance/ko.yaml``,
  ``--out games/`` when ``games/`` is read);
* is a folder that holds an input (``jpd book .`` in the checkout, a ``--report-dir`` above the suite);
* lies inside the suite or the specification jpd reads by default (``conformance/``, ``spec/``),
  whatever this command reads;
* is an existing file that is not an earlier output of the same kind: a JUnit report or an HTML
  page is written over markup (a file starting with ``<``), JSON over JSON, a Markdown report over
  Markdown; anything else (a case file, a README, a Python file) is left alone.

A path that does not exist yet, or an empty file, is always fine as far as kinds go.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from jpdtools.errors import InputError

# What an earlier output of each kind starts with (after white space; lower-cased).
_KINDS: dict[str, tuple[str, ...]] = {
    "junit": ("<",),
    "html": ("<",),
    "json": ("{", "["),
    "jsonl": ("{",),
    "markdown": ("#",),
}
_NAMES = {
    "junit": "JUnit XML report",
    "html": "HTML page",
    "json": "JSON file",
    "jsonl": "JSON Lines file",
    "markdown": "Markdown report",
}


@dataclass(frozen=True)
class Output:
    """One thing a command is about to write: the option that names it, the path, and its kind
    (a key of ``_KINDS``; ``"folder"`` for a folder replaced whole, ``"dir"`` for a folder new
    files are written into)."""

    option: str
    path: Path
    kind: str


def _resolved(path: Path) -> Path:
    try:
        return path.expanduser().resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def default_protected() -> list[Path]:
    """The folders jpd reads by default, never written into by an output option: the suite and
    the specification."""
    from jpdtools.paths import conformance_dir, spec_dir

    found = []
    for where in (conformance_dir, spec_dir):
        try:
            found.append(where())
        except InputError:
            continue
    return found


def check_outputs(outputs: Iterable[Output], inputs: Iterable[Path | str] = ()) -> None:
    """Refuse (InputError) any of ``outputs`` that would write over one of ``inputs``, the suite
    or the spec, or over an existing file of another kind; and two outputs naming one path."""
    outputs = [o for o in outputs if o.path is not None]
    guarded = [(Path(p), "an input of this command") for p in inputs]
    guarded += [(p, "the suite or the specification jpd reads") for p in default_protected()]
    seen: dict[Path, str] = {}
    for out in outputs:
        target = _resolved(out.path)
        if target in seen:
            raise InputError(f"{seen[target]} and {out.option} name the same file ({out.path}): name two")
        seen[target] = out.option
        _check_one(out, target, guarded)


def check_output(option: str, path: Path | None, kind: str, inputs: Iterable[Path | str] = ()) -> None:
    """:func:`check_outputs` for one output (nothing when ``path`` is None)."""
    if path is not None:
        check_outputs([Output(option, Path(path), kind)], inputs)


def _check_one(out: Output, target: Path, guarded: list[tuple[Path, str]]) -> None:
    shown = f"{out.option} {out.path}"
    for given, what in guarded:
        source = _resolved(given)
        if target == source:
            raise InputError(f"{shown}: is one of the inputs ({what}): it would be overwritten; name another")
        if _inside(target, source):
            raise InputError(
                f"{shown}: lies inside {given}, {what}; writing there could overwrite what jpd reads: "
                "name a path outside it"
            )
        if out.kind == "folder" and source.parent != source and _inside(source, target):
            raise InputError(
                f"{shown}: holds {given}, {what}; the folder is replaced whole: name another folder"
            )
    if out.kind in ("folder", "dir"):
        if target.exists() and not target.is_dir():
            raise InputError(f"{shown}: is a file, not a folder")
        return
    if target.is_dir():
        raise InputError(f"{shown}: is a folder, not a file")
    earlier = _start(target)
    if earlier and not earlier.startswith(_KINDS.get(out.kind, ("",))):
        raise InputError(
            f"{shown}: exists and is not an earlier {_NAMES.get(out.kind, out.kind)}; jpd writes over "
            "its own outputs only: remove it or name another file"
        )


def _start(path: Path) -> str:
    """The first characters of an existing file (lower-cased, white space stripped), or ''."""
    try:
        with path.open("rb") as f:
            head = f.read(64)
    except OSError:
        return ""
    return head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n").lower()
