"""The JSON-lines protocol (``spec/jsonl-protocol.md``): messages, the harness side, the program side.

* :mod:`jpdtools.verify.jsonl.protocol` — the messages as frozen dataclasses, ``encode`` / ``decode``;
* :mod:`jpdtools.verify.jsonl.adapter` — :class:`JsonlAdapter`, the harness side (an ``Adapter``);
* :mod:`jpdtools.verify.jsonl.serve` — the program side: a read-dispatch-answer loop for wrappers.
"""
