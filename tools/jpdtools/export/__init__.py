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

from pathlib import Path

from jpdtools.errors import InputError
from jpdtools.paths import conformance_dir

EXPORT_VERSION = 1


def relative_source(path: str) -> str:
    """``path`` as ``conformance/…`` when it is in the default suite (installed or in the checkout),
    else as given; ``/``-separated."""
    p = Path(path)
    try:
        return p.resolve().relative_to(conformance_dir().resolve().parent).as_posix()
    except (ValueError, InputError, OSError):
        return p.as_posix()
