"""Refereeing a collection: many records, every ruleset, one or many processes, resumable.
{#count.replay}

:func:`referee_collection` reads the records of a :class:`Plan` once each, referees them in a
process pool (rulesets are loaded once per process, not once per record) and hands the
verdicts to a sink as they come (a few records at a time, in input order). :class:`VerdictFile`
is the sink that streams them to JSON Lines with a flush per delivery, so a killed run loses
nothing already refereed, and reads back what an earlier run wrote (:meth:`VerdictFile.resume`).
:func:`referee_shard` is the unit of work for a cluster: one shard of the inputs, read and
refereed where it runs.
"""

import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial

from jpdref.rules import Rules

from jpdtools.errors import InputError
from jpdtools.records.pool import ordered
from jpdtools.records.sources import (
    RecordData,
    Source,
    SourceError,
    find_sources,
    identity,
    read_records,
    shard_of,
)
from jpdtools.records.verdict import record_error, referee_record

_SHARD = re.compile(r"(?P<k>[0-9]{1,12})\s*/\s*(?P<n>[0-9]{1,12})", re.ASCII)
MAX_SHARDS = 1_000_000
CHUNK = 32  # records per task sent to a worker: fewer round trips (the parent's share halves from 8)


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of ``count``."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> "Shard":
        m = _SHARD.fullmatch(text.strip())
        if m is None:
            raise InputError(f"--shard {text!r} is not K/N in digits 0-9 (e.g. 1/4)")
        shard = cls(int(m["k"]), int(m["n"]))
        if shard.count > MAX_SHARDS:
            raise InputError(f"--shard {text!r}: N is at most {MAX_SHARDS:,}")
        if not 1 <= shard.index <= shard.count:
            raise InputError(f"--shard {text!r}: K must be between 1 and N (shards are numbered from 1)")
        return shard

    def holds(self, name: str) -> bool:
        """Whether this shard holds the record of portable name ``name`` (:attr:`Source.portable`)."""
        return shard_of(name, self.count) == self.index - 1


@dataclass(frozen=True)
class Plan:
    """What to referee: the sources, the rulesets, a shard, and the verdicts already written."""

    sources: tuple[Source, ...]
    rulesets: tuple[Rules, ...]
    shard: Shard | None = None
    done: frozenset[tuple[str, str | None]] = frozenset()  # (identity, ruleset); None: a record error
    komi: str = "rules"  # rules | record (the record's KM, spec/counting.md#count.replay)

    def missing(self, key: str, name: str) -> tuple[str, ...]:
        """The rulesets still to referee ``key`` (portable name ``name``) under (none if it is in
        another shard)."""
        if self.shard is not None and not self.shard.holds(name):
            return ()
        if not self.done:
            return tuple(r.name for r in self.rulesets)
        same = identity(key)
        if (same, None) in self.done:
            return ()
        return tuple(r.name for r in self.rulesets if (same, r.name) not in self.done)

    def records(self) -> Iterator[RecordData | SourceError]:
        return read_records(self.sources, lambda key, name: bool(self.missing(key, name)))

    def known_total(self) -> int | None:
        """How many records are to be refereed, when that is known without reading archives."""
        if any(s.kind != "file" for s in self.sources):
            return None
        return sum(1 for s in self.sources if self.missing(s.path, s.portable))


Task = tuple[str, bytes, tuple[str, ...]]


def _referee_chunk(rulesets: tuple[Rules, ...], komi: str, tasks: list[Task]) -> list[dict]:
    """The lines of a chunk of records, record after record."""
    by_name = {r.name: r for r in rulesets}
    return [
        line
        for key, data, names in tasks
        for line in referee_record(key, data, [by_name[n] for n in names], komi)
    ]


def _chunks(plan: Plan, on_source_error: Callable[[list[dict]], None]) -> Iterator[list[Task]]:
    chunk: list[Task] = []
    for item in plan.records():
        if isinstance(item, SourceError):
            on_source_error([record_error(item.key, item.code, item.message)])
            continue
        chunk.append((item.key, item.data, plan.missing(item.key, item.name)))
        if len(chunk) >= CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def referee_collection(plan: Plan, sink: Callable[[list[dict]], None], jobs: int = 1) -> None:
    """Referee every record of ``plan``; ``sink`` gets the lines (verdicts, or a record's error)
    of every few records as soon as they are refereed, in input order. ``jobs`` > 1 runs a process
    pool of that size (records/pool.py)."""
    work = partial(_referee_chunk, plan.rulesets, plan.komi)
    chunks = _chunks(plan, sink)
    if jobs <= 1:
        for chunk in chunks:
            sink(work(chunk))
        return
    for lines in ordered(work, chunks, jobs):  # records/pool.py: killed cleanly when interrupted
        sink(lines)


def referee_shard(
    paths: Sequence[str], index: int, count: int, rule_specs: str, komi: str = "rules"
) -> list[dict]:
    """Shard ``index`` of ``count`` of the records under ``paths``, refereed here (one process)
    under the presets ``rule_specs`` names: the unit of work sent to a cluster's workers."""
    from jpdtools.presets import load_presets

    rulesets = tuple(load_presets().select(rule_specs))
    plan = Plan(tuple(find_sources(paths)), rulesets, Shard(index, count), komi=komi)
    out: list[dict] = []
    referee_collection(plan, out.extend)
    return out


def default_jobs() -> int:
    return os.cpu_count() or 1
