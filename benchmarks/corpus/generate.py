"""Finished games for measuring the compatibility claims: GNU Go self-play to two passes.

    python benchmarks/corpus/generate.py OUTDIR [--games N] [--seed S] [--sizes 9,13,19]
        [--levels 1-10] [--engine gnugo] [--move-timeout SECONDS]

Each game is played by one GNU Go process against itself over GTP (``genmove`` for each colour
in turn) under a drawn size, level, random seed, rule set (``--chinese-rules`` or
``--japanese-rules``) and komi, until two passes in a row (or a resignation, or 4 × the board's
points moves, written as unfinished). GNU Go's own view of the end is then asked for and
written into the record:

* ``final_status_list dead`` — stones on the other colour's territory marks (``TB``/``TW`` on a
  stone: the SGF convention for a dead stone);
* ``final_status_list black_territory`` / ``white_territory`` — ``TB``/``TW`` on empty points;
* ``final_status_list seki`` — seki stones are alive, and the empty points inside or between
  seki chains are left unmarked (the only convention SGF writers use; spec/counting.md
  #count.replay.agreement); they are also listed in the root comment for a reader's benefit;
* ``final_score`` as ``RE`` (GNU Go's own count under its rule set), ``KM`` the komi played,
  ``RU`` the rule set.

The draw of every game is a pure function of ``--seed`` and the game's number, so a corpus is
reproduced exactly by the same command with the same GNU Go (3.8). Records are FF[4], one file
each (``gnugo-NNNN.sgf``); nothing else is written.
"""

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "refimpl"), str(ROOT / "tools")]

from jpdtools.verify.gtp.client import GtpClient, GtpError  # noqa: E402

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP columns (no I)
SGF = "abcdefghijklmnopqrstuvwxy"
KOMIS = {"chinese": ("7.5", "5.5", "0.5", "7"), "japanese": ("6.5", "5.5", "0.5", "6")}


@dataclass(frozen=True)
class Plan:
    """What one game is played with: drawn from the corpus seed and the game's number."""

    number: int
    size: int
    level: int
    seed: int
    rules: str  # chinese | japanese
    komi: str


def draw_plan(corpus_seed: int, number: int, sizes: list[int], levels: list[int]) -> Plan:
    rng = random.Random(f"{corpus_seed}:{number}")
    rules = rng.choice(("chinese", "japanese"))
    return Plan(
        number=number,
        size=rng.choice(sizes),
        level=rng.choice(levels),
        seed=rng.randrange(1, 2**31),
        rules=rules,
        komi=rng.choice(KOMIS[rules]),
    )


def sgf_point(vertex: str, size: int) -> str:
    col = LETTERS.index(vertex[0].upper())
    row = size - int(vertex[1:])
    return SGF[col] + SGF[row]


def vertices(text: str) -> list[str]:
    return [v for v in text.split() if v and v.upper() != "PASS"]


def play(plan: Plan, engine: str, move_timeout: float) -> str:
    """Play one game; return its SGF text. Raises GtpError if the engine misbehaves."""
    command = [engine, "--mode", "gtp", "--level", str(plan.level), "--seed", str(plan.seed),
               f"--{plan.rules}-rules", "--komi", plan.komi]  # fmt: skip
    size = plan.size
    with GtpClient(command, timeout=move_timeout) as gtp:
        for cmd in (f"boardsize {size}", "clear_board", f"komi {plan.komi}"):
            if not gtp.send(cmd).ok:
                raise GtpError(f"{cmd!r} refused")
        moves: list[str] = []
        passes = 0
        result = None
        colour = "B"
        while passes < 2 and len(moves) < 4 * size * size:
            reply = gtp.send(f"genmove {colour.lower()}")
            if not reply.ok:
                raise GtpError(f"genmove refused: {reply.text}")
            vertex = reply.text.strip().upper()
            if vertex == "RESIGN":
                result = f"{'W' if colour == 'B' else 'B'}+R"
                break
            if vertex == "PASS":
                passes += 1
                moves.append(f";{colour}[]")
            else:
                passes = 0
                moves.append(f";{colour}[{sgf_point(vertex, size)}]")
            colour = "W" if colour == "B" else "B"
        marks = ""
        comment = f"GNU Go level {plan.level}, seed {plan.seed}, {plan.rules} rules, komi {plan.komi}"
        if passes == 2:
            dead = vertices(gtp.send("final_status_list dead").text)
            seki = vertices(gtp.send("final_status_list seki").text)
            black = vertices(gtp.send("final_status_list black_territory").text)
            white = vertices(gtp.send("final_status_list white_territory").text)
            colours = dict(_stones(gtp, "black", "B") + _stones(gtp, "white", "W"))
            tb = sorted({sgf_point(v, size) for v in black}
                        | {sgf_point(v, size) for v in dead if colours.get(v) == "W"})  # fmt: skip
            tw = sorted({sgf_point(v, size) for v in white}
                        | {sgf_point(v, size) for v in dead if colours.get(v) == "B"})  # fmt: skip
            if tb:
                marks += "TB" + "".join(f"[{p}]" for p in tb)
            if tw:
                marks += "TW" + "".join(f"[{p}]" for p in tw)
            score = gtp.send("final_score").text.strip()
            result = "0" if score == "0" else score
            if seki:
                comment += "; seki: " + " ".join(sorted(seki))
        elif result is None:
            comment += "; unfinished (move limit)"
    head = (f"(;FF[4]GM[1]CA[UTF-8]AP[jipingdian corpus:1]SZ[{size}]KM[{plan.komi}]"
            f"RU[{plan.rules.capitalize()}]PB[GNU Go {plan.level}]PW[GNU Go {plan.level}]"
            f"GN[gnugo-{plan.number:04d}]")  # fmt: skip
    head += (f"RE[{result}]" if result else "") + f"C[{comment}]"
    if marks:
        if moves:
            moves[-1] += marks
        else:
            head += marks
    return head + "\n" + "\n".join(moves) + ")\n"


def _stones(gtp: GtpClient, colour: str, letter: str) -> list[tuple[str, str]]:
    return [(v.upper(), letter) for v in vertices(gtp.send(f"list_stones {colour}").text)]


def levels_arg(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--first", type=int, default=1, help="number of the first game (default 1)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--sizes", default="9,9,9,13,19", help="board sizes to draw from (repeat to weight)")
    ap.add_argument("--levels", default="1-10", type=levels_arg)
    ap.add_argument("--engine", default="/usr/games/gnugo")
    ap.add_argument("--move-timeout", type=float, default=60.0)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    args.outdir.mkdir(parents=True, exist_ok=True)
    for number in range(args.first, args.first + args.games):
        plan = draw_plan(args.seed, number, sizes, args.levels)
        path = args.outdir / f"gnugo-{number:04d}.sgf"
        if path.exists():
            continue
        try:
            text = play(plan, args.engine, args.move_timeout)
        except GtpError as err:
            print(f"game {number}: {err}", file=sys.stderr)
            continue
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        print(f"{path.name}: {plan.size}x{plan.size} level {plan.level} {plan.rules} komi {plan.komi}",
              flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
