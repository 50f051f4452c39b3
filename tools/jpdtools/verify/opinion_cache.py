"""GNU Go's answers on a position kept between runs (the second opinion of ``jpd lint``).

An answer depends only on the engine, the position and the side to move, so it is kept under the
SHA-256 of those, in the proof cache's folder (:func:`jpdtools.review.statuses.cache_dir`), sealed
like the proofs with the folder's secret key: a file anyone else wrote is not believed, and GNU Go
is asked again. The engine is its command line and its binary's size and modification time, so a
GNU Go upgraded in place is asked afresh.
"""

import hashlib
import hmac
import json
import os
from dataclasses import dataclass
from pathlib import Path

from jpdtools import diskcache
from jpdtools.review.statuses import cache_dir

FOLDER = "gnugo-opinions"  # inside the proof cache's folder
VERSION = "1"  # changes whenever what is asked changes


@dataclass(frozen=True)
class OpinionCache:
    """The kept answers of one engine (``folder`` None: nothing is kept)."""

    folder: Path | None
    secret: bytes | None
    engine: str

    @classmethod
    def open(cls, command: tuple[str, ...]) -> "OpinionCache":
        root = cache_dir()
        folder = root / FOLDER if root is not None else None
        secret = diskcache.secret_key(folder) if folder is not None else None
        try:
            info = os.stat(command[0])
            stamp = f"{info.st_size}:{info.st_mtime_ns}"
        except OSError:
            stamp = "?"
        return cls(folder if secret else None, secret, json.dumps([VERSION, list(command), stamp]))

    def key(self, size: int, stones: list[tuple[str, str]], to_move: str) -> str:
        text = json.dumps([self.engine, size, sorted(stones), to_move])
        return hashlib.sha256(text.encode()).hexdigest()

    def get(self, key: str) -> dict[str, list[str]] | None:
        if self.folder is None or self.secret is None:
            return None
        data = diskcache.read_entry(self.folder / f"{key}.json")
        if data is None:
            return None
        seal, _, text = data.partition(b"\n")
        if not hmac.compare_digest(seal, self._seal(key, text)):
            return None
        try:
            found = json.loads(text.decode("utf-8"))
        except ValueError:
            return None
        ok = isinstance(found, dict) and all(
            isinstance(v, list) and all(isinstance(w, str) for w in v) for v in found.values()
        )
        return found if ok else None

    def put(self, key: str, answers: dict[str, list[str]]) -> None:
        if self.folder is None or self.secret is None:
            return
        text = json.dumps(answers, sort_keys=True).encode("utf-8")
        diskcache.write_entry(self.folder, f"{key}.json", self._seal(key, text) + b"\n" + text, prune=False)

    def _seal(self, key: str, text: bytes) -> bytes:
        assert self.secret is not None
        return hmac.new(self.secret, key.encode() + b"\n" + text, hashlib.sha256).hexdigest().encode()
