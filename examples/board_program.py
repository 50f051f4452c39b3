"""A small Go rules program written only from spec/jsonl-protocol.md and spec/contract.md.

It is the example of docs/implementers.md, and the test that the protocol documentation is
complete (a program written only from the docs, declaring its features, passes first time): it
imports nothing of this repository, only the standard library, and implements what a typical
board library implements — stones, captures, suicide forbidden, simple ko, a refused move simply
not played — and declares the rest absent through protocol 3's rule features (no turn order, no
end of play, no handicap, no virtual moves, no resignation, no counting).
tests/test_docs_program.py verifies it under ``japanese:illegal-move=refuse``. ``--forget-ko``
plays it with the ko check left out, the commonest bug of such libraries (the test shows the
suite catches it).
"""

import json
import sys

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP columns: no I
FORGET_KO = "--forget-ko" in sys.argv[1:]
FEATURES = ["illegal-move-refuse", "setup-stones", "non-square"]
SUPPORTS = {
    "rulesets": None,
    "axes": {
        "pass": ["allowed"],
        "virtual-move": ["forbidden"],
        "suicide": ["forbidden"],
        "repetition": ["simple-ko"],
        "position": ["board"],
        "illegal-move": ["refuse"],
    },
    "max_size": 25,
    "claims": ["legal", "reason", "captures", "self-captures", "board"],
    "features": FEATURES,
}


class Board:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.stones: dict[tuple[int, int], str] = {}
        self.ko: tuple[int, int] | None = None  # the ko point (rep.simple-ko)

    def point(self, vertex: str) -> tuple[int, int] | None:
        if not vertex or vertex[0] not in LETTERS or not vertex[1:].isdigit():
            return None
        x, y = LETTERS.index(vertex[0]), int(vertex[1:]) - 1
        return (x, y) if 0 <= x < self.width and 0 <= y < self.height else None

    def vertex(self, p: tuple[int, int]) -> str:
        return f"{LETTERS[p[0]]}{p[1] + 1}"

    def neighbours(self, p: tuple[int, int]):
        x, y = p
        for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if 0 <= q[0] < self.width and 0 <= q[1] < self.height:
                yield q

    def chain(self, p: tuple[int, int], stones: dict) -> tuple[set, set]:
        colour, seen, liberties, todo = stones[p], {p}, set(), [p]
        while todo:
            for q in self.neighbours(todo.pop()):
                if q not in stones:
                    liberties.add(q)
                elif stones[q] == colour and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return seen, liberties

    def rows(self) -> str:
        sign = {"B": "X", "W": "O"}
        return "/".join(
            "".join(sign.get(self.stones.get((x, y), ""), ".") for x in range(self.width))
            for y in range(self.height - 1, -1, -1)
        )

    def play(self, colour: str, action: str, vertex: str | None) -> dict:
        """One action: the step object of spec/jsonl-protocol.md#jsonl.result."""
        if action == "pass":
            self.ko = None
            return self.step(True, [], [])
        if action != "move":  # virtual moves and resignations: declared absent, never sent
            raise ValueError(f"cannot play a {action} action")
        p = self.point(vertex or "")
        if p is None:
            return self.refused("off-board")
        if p in self.stones:
            return self.refused("occupied")
        other = "W" if colour == "B" else "B"
        after = dict(self.stones)
        after[p] = colour
        captured: set = set()
        for q in self.neighbours(p):
            if after.get(q) == other and q not in captured:
                stones, liberties = self.chain(q, after)
                if not liberties:
                    captured |= stones
        for q in captured:
            del after[q]
        if not captured and not self.chain(p, after)[1]:
            return self.refused("suicide")
        if p == self.ko and len(captured) == 1 and not FORGET_KO:
            return self.refused("ko")
        self.stones = after
        own, liberties = self.chain(p, after)
        single = len(captured) == 1 and own == {p} and liberties == captured
        self.ko = next(iter(captured)) if single else None
        return self.step(True, sorted(self.vertex(q) for q in captured), [])

    def refused(self, reason: str) -> dict:
        return self.step(False, [], [], reason)  # under refuse the ko point stays

    def step(self, legal: bool, captures: list, self_captures: list, reason: str | None = None) -> dict:
        return {
            "legal": legal,
            "effect": "played" if legal else "refused",
            "reason": reason,
            "captures": captures,
            "self_captures": self_captures,
            "to_move": None,
            "board": self.rows(),
        }


def run(msg: dict) -> dict:
    board = Board(msg["width"], msg["height"])
    for colour in ("B", "W"):
        for vertex in msg["stones"].get(colour, []):
            board.stones[board.point(vertex)] = colour
    initial = board.rows()
    for n, act in enumerate(msg["history"], 1):
        if not board.play(act["color"], act["action"], act.get("vertex"))["legal"]:
            return {"type": "error", "id": msg["id"], "message": f"history action {n} refused"}
    steps = [board.play(a["color"], a["action"], a.get("vertex")) for a in msg["moves"]]
    return {"type": "result", "id": msg["id"], "initial_board": initial, "steps": steps, "end": None}


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            answer = {"type": "error", "id": None, "message": "not JSON"}
        else:
            if msg.get("type") == "stop":
                return 0
            if msg.get("type") == "start":
                if 3 not in msg.get("protocols", [msg.get("protocol")]):
                    answer = {"type": "error", "id": None, "message": "this program speaks protocol 3"}
                else:
                    answer = {"type": "ready", "protocol": 3, "name": "docs-program", "version": "1"}
                    answer["supports"] = SUPPORTS
            elif msg.get("type") == "run":
                try:
                    answer = run(msg)
                except Exception as err:  # one bad run is an error answer, never the end
                    answer = {"type": "error", "id": msg.get("id"), "message": str(err)}
            else:
                answer = {"type": "error", "id": None, "message": f"unexpected {msg.get('type')!r}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
