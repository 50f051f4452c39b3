"""A JSON-lines program that declares only ``legal`` and calls every action legal.

It never refuses anything: not a move on an occupied point, not a ko retake, not a suicide, not a
move out of turn or after the game is over. The suite must reject it (``jpd verify`` FAILED, the
clauses named) and ``jpd fuzz`` must find it out; see tests/test_jsonl.py and tests/test_fuzz.py.
Standard library only, written from ``spec/jsonl-protocol.md``.
"""

import json
import sys


def answer(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main() -> int:
    for raw in sys.stdin:
        if not raw.strip():
            continue
        msg = json.loads(raw)
        if msg["type"] == "stop":
            return 0
        if msg["type"] == "start":
            supports = {"rulesets": None, "axes": {}, "max_size": 25, "claims": ["legal"]}
            ready = {"type": "ready", "protocol": 1, "name": "legal-only", "version": "0"}
            answer({**ready, "supports": supports})
        elif msg["type"] == "run":
            steps = [{"legal": True} for _ in msg["moves"]]
            answer({"type": "result", "id": msg["id"], "initial_board": None, "steps": steps, "end": None})
    return 0


if __name__ == "__main__":
    sys.exit(main())
