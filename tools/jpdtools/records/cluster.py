"""Refereeing a collection on a Dask cluster (the optional ``dask`` extra). {#count.replay}

The inputs are split into shards (records/sources.py: by the CRC-32 of each record key); each
shard is one task, :func:`jpdtools.records.collections.referee_shard`, which reads its records
where it runs — so every worker must see the paths at the same place (a shared filesystem) and
have this package installed. Results come back shard by shard as they finish; the summary is
computed from the verdicts alone and is the same as a single run's.
"""

import socket
from collections.abc import Iterator, Sequence

from jpdtools.errors import InputError
from jpdtools.records.collections import referee_shard

PROBE_SECONDS = 10
"""How long a scheduler has to send its first message (a Dask scheduler sends it at once)."""
SCHEMES = ("tcp", "tls", "ucx", "ws", "wss", "inproc")
MAX_HANDSHAKE_BYTES = 1 << 20
"""The largest first message taken from a scheduler (Dask's handshake is under a kilobyte)."""


def probe(address: str, seconds: float | None = None) -> None:
    """Check that a ``tcp://`` address is a Dask scheduler before the Dask client trusts it: the
    peer must answer within ``seconds`` with a first frame of a plausible size. A closed port, a
    peer that never answers (an HTTP server waits for a request) or one that announces a huge
    frame is an InputError, not a hang or a MemoryError. Other schemes (tls://, ucx://) are left
    to the client."""
    seconds = PROBE_SECONDS if seconds is None else seconds
    scheme, sep, rest = address.strip().partition("://")
    if not sep:
        scheme, rest = "tcp", address.strip()
    if scheme not in SCHEMES:
        raise InputError(
            f"--dask {address!r}: not a scheduler address (tcp://HOST:PORT; or {', '.join(SCHEMES[1:])})"
        )
    if scheme != "tcp":
        return
    host, colon, port = rest.rstrip("/").rpartition(":")
    if not colon or not port.isascii() or not port.isdigit() or not 0 < int(port) < 65536 or not host:
        raise InputError(f"--dask {address!r}: expected tcp://HOST:PORT (a port 1 to 65535)")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=seconds) as conn:
            conn.settimeout(seconds)
            head = b""
            while len(head) < 8:
                data = conn.recv(8 - len(head))
                if not data:
                    raise InputError(
                        f"--dask {address}: the peer closed the connection: not a Dask scheduler"
                    )
                head += data
    except TimeoutError:
        raise InputError(f"--dask {address}: no answer as a Dask scheduler within {seconds:g} s") from None
    except (OSError, UnicodeError) as err:
        raise InputError(
            f"--dask {address}: cannot reach the scheduler: {getattr(err, 'strerror', None) or err}"
        ) from None
    size = int.from_bytes(head, "little")
    if size > MAX_HANDSHAKE_BYTES:
        raise InputError(
            f"--dask {address}: the peer's first message announces {size:,} bytes: not a Dask scheduler"
        )


def _client(address: str):
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--dask needs the dask extra: pip install -e '.[dask]'") from None
    probe(address)
    try:
        return Client(address, timeout="20s")
    except (OSError, ValueError, TypeError, MemoryError) as err:
        raise InputError(f"--dask {address}: cannot reach the scheduler: {err}") from None


def worker_threads(client) -> int:
    return sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()) or 1


def referee_on_dask(
    address: str, paths: Sequence[str], rule_specs: str, komi: str = "rules", shards: int | None = None
) -> Iterator[list[dict]]:
    """The verdict lines of every shard, as each finishes; ``shards`` defaults to twice the
    cluster's worker threads."""
    from distributed import as_completed

    client = _client(address)
    try:
        count = shards or 2 * worker_threads(client)
        futures = [
            client.submit(referee_shard, list(paths), k, count, rule_specs, komi, pure=False)
            for k in range(1, count + 1)
        ]
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.close()
