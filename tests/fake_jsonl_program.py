"""A misbehaving JSON-lines program for tests/test_jsonl.py.

``--start MODE`` spoils the handshake: ``hang``, ``exit``, ``garbled``, ``error``, ``old``
(answers protocol 0). Otherwise each ``run`` behaves by the board width:
2 hang, 3 crash (exit 3), 4 a garbled line, 5 an answer for another id, 6 an ``error`` answer,
7 ``unsupported``, 8 too few steps, 10 a declared claim left null; any other width answers
properly: every step legal, the stone placed on an otherwise empty board, nothing captured, end
contest. It declares neither ``reason`` nor ``self-captures``.
"""

import json
import sys
import time


def answer(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def hang() -> None:
    while True:
        time.sleep(60)


def start(mode: str) -> None:
    if mode == "hang":
        hang()
    if mode == "exit":
        sys.exit(4)
    if mode == "garbled":
        print("GNU Go 3.8", flush=True)
        return
    if mode == "error":
        answer({"type": "error", "id": None, "message": "no engine here"})
        return
    answer(
        {
            "type": "ready",
            "protocol": 0 if mode == "old" else 1,
            "name": "fake",
            "version": "0.1",
            "supports": {
                "rulesets": ["chinese", "japanese"],
                "axes": {},
                "max_size": 11,
                "claims": ["legal", "captures", "to-move", "board", "end"],
                "future": 1,
            },
        }
    )


def rows(width: int, height: int, vertex: str | None) -> str:
    grid = [["."] * width for _ in range(height)]
    if vertex:
        col = "ABCDEFGHJKLMNOPQRSTUVWXYZ".index(vertex[0])
        grid[height - int(vertex[1:])][col] = "X"
    return "/".join("".join(r) for r in grid)


def run(msg: dict) -> None:
    width, height, run_id = msg["width"], msg["height"], msg["id"]
    if width == 2:
        hang()
    if width == 3:
        sys.exit(3)
    if width == 4:
        print("{this is not json", flush=True)
        return
    if width == 5:
        run_id = "someone-else"
    if width == 6:
        answer({"type": "error", "id": run_id, "message": "cannot set up"})
        return
    if width == 7:
        answer({"type": "unsupported", "id": run_id, "reason": "width 7 is odd"})
        return
    moves = msg["moves"][:-1] if width == 8 else msg["moves"]
    steps = [
        {
            "legal": True,
            "effect": "played",
            "captures": [],
            "to_move": "W" if m["color"] == "B" else "B",
            "board": None if width == 10 else rows(width, height, m.get("vertex")),
            "unknown-key": "ignored",
        }
        for m in moves
    ]
    answer({"type": "result", "id": run_id, "steps": steps, "end": {"phase": "contest", "to_move": "W"}})


def main() -> int:
    mode = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--start" else ""
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "start":
            start(mode)
        elif msg["type"] == "run":
            run(msg)
        elif msg["type"] == "stop":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
