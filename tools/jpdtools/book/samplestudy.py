"""The compatibility study a book of the whole suite carries: ``jpd study`` run on the shipped
sample of finished games (:func:`jpdtools.paths.sample_corpus`) under every preset, each game
counted with the komi it was played with (``--komi record``), as ``jpd study SAMPLE --komi record``
writes it to ``study.json``."""

from collections.abc import Callable
from pathlib import Path

from jpdtools.presets import Presets
from jpdtools.records.sources import RecordData, SourceError, find_sources, read_records
from jpdtools.records.study import study

KOMI = "record"


def study_of(path: Path, presets: Presets, progress: Callable[[str, int, int], None] | None = None) -> dict:
    """The study of the records at ``path`` (a file, folder or archive), told to ``progress`` as
    ("studying", records read, records found)."""
    found = list(read_records(find_sources([str(path)])))
    errors: list[str] = []

    def items():
        for n, item in enumerate(found, 1):
            if progress is not None:
                progress("studying", n, len(found))
            if isinstance(item, SourceError):
                errors.append(f"{item.key}: {item.message}")
                continue
            assert isinstance(item, RecordData)
            yield item.key, item.data

    rulesets = tuple(presets.get(name) for name in presets.names)
    result = study(items(), rulesets, KOMI).as_json()
    return result | {"komi_source": KOMI, "source_errors": errors}
