"""Progress of a command in stages, on standard error: a tqdm bar per stage on a terminal,
nothing on a pipe or with ``--quiet``/``--json`` (what other programs read stays clean).

``Stages("jpd lint", enabled)`` is called as ``progress(stage, done, total)``; a new stage closes
the bar of the one before. ``close()`` ends the last.
"""

import sys
from typing import TextIO


class Stages:
    def __init__(self, command: str, enabled: bool = True, stream: TextIO | None = None) -> None:
        self.command = command
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and bool(getattr(self.stream, "isatty", lambda: False)())
        self.stage = ""
        self.bar = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if stage != self.stage or self.bar is None:
            self.close()
            from tqdm import tqdm  # only on a terminal

            self.stage = stage
            self.bar = tqdm(total=total, desc=f"{self.command}: {stage}", file=self.stream, leave=False)
        self.bar.n = done
        self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
