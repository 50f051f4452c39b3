"""A JSON-lines program that declares only ``legal`` and calls every action legal.

It never refuses anything: not a move on an occupied point, not a ko retake, not a suicide, not a
move out of turn or after the game is over. The suite must reject it (``jpd verify`` FAILED, the
clauses named) and ``jpd fuzz`` must find it out; see tests/test_jsonl.py and tests/test_fuzz.py.
Standard library only, written from ``spec/jsonl-protocol.md``.

``--lacks F,G`` makes it a protocol 3 program declaring every rule feature but those: an
honest declaration (``--lacks illegal-move-refuse,illegal-move-void-pass,illegal-move-loss``,
and ``turn-order``, ``end-of-play``) makes the items it would fail skips, never failures.
"""

import json
import sys


def answer(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


FEATURES = (
    "turn-order",
    "end-of-play",
    "illegal-move-refuse",
    "illegal-move-void-pass",
    "illegal-move-loss",
    "setup-stones",
    "fixed-handicap",
    "free-handicap",
    "resignation",
    "cycle-verdict",
    "virtual-moves",
    "non-square",
    "counting",
    "settling",
)


def main() -> int:
    lacks = sys.argv[2].split(",") if sys.argv[1:2] == ["--lacks"] else None
    for raw in sys.stdin:
        if not raw.strip():
            continue
        msg = json.loads(raw)
        if msg["type"] == "stop":
            return 0
        if msg["type"] == "start":
            supports = {"rulesets": None, "axes": {}, "max_size": 25, "claims": ["legal"]}
            if lacks is not None:
                supports["features"] = [f for f in FEATURES if f not in lacks]
            protocol = 1 if lacks is None else 3
            ready = {"type": "ready", "protocol": protocol, "name": "legal-only", "version": "0"}
            answer({**ready, "supports": supports})
        elif msg["type"] == "run":
            steps = [{"legal": True} for _ in msg["moves"]]
            answer({"type": "result", "id": msg["id"], "initial_board": None, "steps": steps, "end": None})
    return 0


if __name__ == "__main__":
    sys.exit(main())
