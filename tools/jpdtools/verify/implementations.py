"""The third-party programs ``jpd verify --impl NAME`` knows: the folders of ``implementations/``.

Each implementation is a folder ``implementations/NAME/`` beside the tool (in a wheel,
``jpdtools/_data/implementations/NAME/``: :func:`jpdtools.paths.implementations_dir`) holding its
program, its own pinned dependencies and a README, and a manifest ``implementation.json``::

    {"name": "sgfmill", "protocol": "jsonl", "command": ["{python}", "program.py"],
     "install": "pip install -r {here}/requirements.txt"}

``command`` is the program's command line: ``{python}`` is the running interpreter, ``{here}`` the
folder, and a word naming a file of the folder is that file's full path. A GTP engine
(``"protocol": "gtp"``) names ``binary`` (candidates, the first that runs is used) and ``args``
instead, and its profile — the flags that tell it each axis value — as the fields of
:class:`jpdtools.verify.gtp.profiles.GtpProfile`. ``install`` says how to install what the
program needs (shown when it cannot start). The harness only reads these folders: nothing of an
implementation is imported into ``jpdtools``.
"""

import importlib.util
import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from jpdtools.errors import InputError, read_text_file
from jpdtools.paths import implementations_dir

MANIFEST = "implementation.json"


@dataclass(frozen=True)
class Implementation:
    """One folder of ``implementations/``, as its manifest describes it."""

    name: str
    folder: Path
    protocol: str  # "jsonl" | "gtp"
    command: tuple[str, ...] = ()
    binary: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    install: str = ""
    profile: dict = field(default_factory=dict, compare=False)

    def argv(self) -> list[str]:
        """The command line of a JSON-lines program, its words resolved (see the module text)."""
        return [self._word(w) for w in self.command]

    def _word(self, word: str) -> str:
        word = word.replace("{python}", sys.executable).replace("{here}", str(self.folder))
        return str(self.folder / word) if (self.folder / word).is_file() else word

    def install_hint(self) -> str:
        """How to install what the program needs ("" when the manifest does not say)."""
        return self.install.replace("{here}", str(self.folder)).replace("{python}", sys.executable)

    def find_binary(self) -> str | None:
        """The first of ``binary`` that can be run (a path or a name on the PATH), else None."""
        for candidate in self.binary:
            found = shutil.which(candidate)
            if found:
                return candidate if "/" in candidate else found
        return None


def names() -> tuple[str, ...]:
    """The names of the implementations found (sorted; none when the folder is missing)."""
    folder = implementations_dir()
    if folder is None:
        return ()
    return tuple(sorted(p.parent.name for p in folder.glob(f"*/{MANIFEST}")))


def find(name: str) -> Implementation | None:
    """The implementation called ``name``, or None. InputError for a manifest that cannot be read."""
    folder = implementations_dir()
    if folder is None or "/" in name or name.startswith("."):
        return None
    path = folder / name / MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(read_text_file(path, "an implementation manifest"))
    except (ValueError, RecursionError) as err:
        raise InputError(f"{path}: not a readable implementation manifest: {err}") from None
    if not isinstance(data, dict) or data.get("protocol") not in ("jsonl", "gtp"):
        raise InputError(f"{path}: expected a JSON object with protocol jsonl or gtp")
    return Implementation(
        name=name,
        folder=path.parent,
        protocol=data["protocol"],
        command=tuple(data.get("command", ())),
        binary=tuple(data.get("binary", ())),
        args=tuple(data.get("args", ())),
        install=data.get("install", ""),
        profile=data.get("profile", {}),
    )


def require(name: str) -> Implementation:
    """:func:`find`, or InputError naming where implementations are looked for."""
    found = find(name)
    if found is None:
        where = implementations_dir()
        raise InputError(
            f"no implementation {name!r} in {where if where is not None else 'this installation'}"
            + (f" (known: {', '.join(names())})" if names() else "")
        )
    return found


def load_module(name: str, filename: str) -> ModuleType:
    """The Python file ``filename`` of implementation ``name``'s folder, loaded as a module (for
    tests and tools that use a program's parts, e.g. Leela Zero's tiny network writer)."""
    folder = implementations_dir()
    path = None if folder is None else folder / name / filename
    if path is None or not path.is_file():
        raise InputError(f"no file {filename!r} in implementation {name!r}")
    module_name = f"jpd_implementation_{name.replace('-', '_')}_{Path(filename).stem}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def binary_of(name: str) -> str | None:
    """The binary of GTP implementation ``name`` found on this machine, or None (None too when
    the implementation is not there)."""
    found = find(name)
    return None if found is None else found.find_binary()


def gtp_profile(name: str, binary: str | None = None):
    """The :class:`~jpdtools.verify.gtp.profiles.GtpProfile` of GTP implementation ``name``, with
    ``binary`` (default: the one found, else the manifest's first candidate)."""
    from jpdtools.verify.gtp.profiles import from_manifest

    impl = require(name)
    if impl.protocol != "gtp":
        raise InputError(f"implementation {name!r} is not a GTP engine")
    exe = binary or impl.find_binary() or impl.binary[0]
    return from_manifest(impl.name, (exe, *impl.args), impl.profile)
