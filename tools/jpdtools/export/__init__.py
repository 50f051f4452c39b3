"""Exports of the conformance suite for other programs: JSON Lines, SGF and GTP regression files. May
import run, suite, records, jpdref and the top-level foundations.

Every exporter works on the runner's plan items (one case under one resolved ruleset, or an
error case), so an export says exactly what ``jpd run`` checks. The forms are specified in
``spec/export-formats.md``; the JSON record's schema is ``spec/export.schema.json``.

* :mod:`jpdtools.export.jsonl` — one JSON record per case × ruleset, fully expanded;
* :mod:`jpdtools.export.sgf` — one SGF (FF[4]) game per case × ruleset, expectations in comments;
* :mod:`jpdtools.export.gtp` — one GNU Go regression script (``.tst``) per case × ruleset;
* :mod:`jpdtools.export.reimport` — the JSON records back into plan items (the round trip).
"""

import functools
import os
from pathlib import Path

from jpdtools.errors import InputError
from jpdtools.paths import ROOT_ENV, conformance_dir

EXPORT_VERSION = 1


def relative_source(path: str) -> str:
    """``path`` as ``conformance/…`` when it is in the default suite (installed or in the checkout),
    else as given; ``/``-separated.

    Every form asks this of every case × ruleset, and resolving the suite's folder walks the file
    system, so the answer is kept for the path, the working folder and ``$JPD_ROOT`` it depends on."""
    return _relative_source(path, os.getcwd(), os.environ.get(ROOT_ENV))


@functools.lru_cache(maxsize=1024)
def _relative_source(path: str, cwd: str, root: str | None) -> str:
    p = Path(path)
    try:
        return p.resolve().relative_to(conformance_dir().resolve().parent).as_posix()
    except (ValueError, InputError, OSError):
        return p.as_posix()
