"""Refereeing a collection on a Dask cluster (the optional ``dask`` extra). {#count.replay}

The inputs are split into shards (records/sources.py: by the CRC-32 of each record key); each
shard is one task, :func:`jpdtools.records.collections.referee_shard`, which reads its records
where it runs — so every worker must see the paths at the same place (a shared filesystem) and
have this package installed. Results come back shard by shard as they finish; the summary is
computed from the verdicts alone and is the same as a single run's.
"""

from collections.abc import Iterator, Sequence

from jpdtools.errors import InputError
from jpdtools.records.collections import referee_shard


def _client(address: str):
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--dask needs the dask extra: pip install -e '.[dask]'") from None
    try:
        return Client(address, timeout="20s")
    except OSError as err:
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
