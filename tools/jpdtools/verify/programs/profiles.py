"""The bundled JSON-lines programs, by profile name: the command that launches each one.

The Python programs run as modules of this package; the Node programs are the ``*.js`` files of
``programs/node/``, whose pinned npm packages ``.ci/run`` installs there with ``npm ci``
(``node/package.json``, ``node/package-lock.json``).
"""

import sys
from pathlib import Path

NODE_PROGRAMS = Path(__file__).resolve().parent / "node"


def _node(script: str) -> list[str]:
    return ["node", str(NODE_PROGRAMS / script)]


PROFILES: dict[str, list[str]] = {
    "sgfmill": [sys.executable, "-m", "jpdtools.verify.programs.sgfmill_impl"],
    "openspiel": [sys.executable, "-m", "jpdtools.verify.programs.openspiel_impl"],
    "dlgo": [sys.executable, "-m", "jpdtools.verify.programs.dlgo_impl"],
    "sabaki": _node("sabaki.js"),
    "godash": _node("godash.js"),
    "tenuki": _node("tenuki.js"),
    "wgo": _node("wgo.js"),
    "goban": _node("goban.js"),
}
