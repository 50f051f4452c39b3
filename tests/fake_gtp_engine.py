"""A fake GTP engine for the harness tests: plays stones without captures, and misbehaves on cue.

Usage: ``python fake_gtp_engine.py [--hang V] [--crash V] [--garble V] [--wrong-id V]
[--score REPLY] [--no-is-legal] [--plain] [--refuse-size N]``: when a ``play`` or ``is_legal``
names vertex V it sleeps forever, exits at once, prints garbage, or answers with the wrong id;
``--no-is-legal`` leaves ``is_legal`` out of ``list_commands`` and refuses it; ``--plain``
refuses ``list_commands``, ``is_legal`` and ``list_stones`` (a plain GTP 2 engine answering
``? unknown command``); ``--refuse-size N`` answers ``boardsize N`` with ``? unacceptable size``.
``final_score`` answers REPLY with ``{komi}`` replaced by the last ``komi`` sent (default ``0``).
Anything else: a minimal, well-behaved GTP engine (occupied points are illegal, nothing is ever
captured).
"""

import argparse
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    for name in ("hang", "crash", "garble", "wrong-id"):
        parser.add_argument(f"--{name}", action="append", default=[])
    parser.add_argument("--score", default="0")
    parser.add_argument("--no-is-legal", action="store_true", help="list and answer no is_legal")
    parser.add_argument("--plain", action="store_true", help="no list_commands, is_legal, list_stones")
    parser.add_argument("--refuse-size", action="append", default=[])
    opts = parser.parse_args()
    stones: dict[str, str] = {}
    komi = "0"
    out = sys.stdout
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd_id = words.pop(0) if words[0].isdigit() else ""
        name, args = (words[0], words[1:]) if words else ("", [])
        vertex = args[1].upper() if len(args) > 1 else ""
        if vertex in opts.hang:
            time.sleep(3600)
        if vertex in opts.crash:
            sys.stderr.write("fake engine: crashing on purpose\n")
            sys.stderr.flush()
            return 3
        if vertex in opts.garble:
            out.write("this is not GTP\n\n")
            out.flush()
            continue
        if vertex in opts.wrong_id:
            cmd_id = "999"
        ok, text = True, ""
        if name == "name":
            text = "fake"
        elif name in ("protocol_version",):
            text = "2"
        elif opts.plain and name in ("list_commands", "is_legal", "list_stones"):
            ok, text = False, "unknown command"
        elif name == "boardsize" and args and args[0] in opts.refuse_size:
            ok, text = False, "unacceptable size"
        elif name == "list_commands":
            commands = ["name", "protocol_version", "boardsize", "komi", "final_score", "clear_board"]
            commands += ["play", "list_stones", "quit", *([] if opts.no_is_legal else ["is_legal"])]
            text = "\n".join(commands)
        elif name == "boardsize":
            pass
        elif name == "komi":
            komi = args[0] if args else "?"
        elif name == "final_score":
            text = opts.score.replace("{komi}", komi)
        elif name == "clear_board":
            stones.clear()
        elif name == "play":
            colour = args[0][0].upper()
            if vertex != "PASS":
                if vertex in stones:
                    ok, text = False, "illegal move"
                else:
                    stones[vertex] = colour
        elif name == "is_legal" and not opts.no_is_legal:
            text = "0" if vertex in stones else "1"
        elif name == "list_stones":
            colour = args[0][0].upper()
            text = " ".join(v for v, c in stones.items() if c == colour)
        elif name == "quit":
            out.write(f"={cmd_id}\n\n")
            out.flush()
            return 0
        else:
            ok, text = False, "unknown command"
        out.write(f"{'=' if ok else '?'}{cmd_id} {text}".rstrip() + "\n\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
