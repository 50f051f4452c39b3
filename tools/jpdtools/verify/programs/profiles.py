"""The bundled JSON-lines programs, by profile name: the command that launches each one."""

import sys

PROFILES: dict[str, list[str]] = {
    "sgfmill": [sys.executable, "-m", "jpdtools.verify.programs.sgfmill_impl"],
    "openspiel": [sys.executable, "-m", "jpdtools.verify.programs.openspiel_impl"],
}
