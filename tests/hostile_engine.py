"""A hostile program under test, for tests/test_hostile.py: GTP or JSON-lines, misbehaving on cue.

Usage: ``python hostile_engine.py gtp|jsonl MODE PIDFILE``. The program appends its pid (and the
pid of every process it forks) to PIDFILE, so the test can check that none survives the run.
Until the first ``play`` (GTP) or ``run`` (JSON-lines) it behaves — a plain GTP 2 engine without
``list_stones`` or ``is_legal``; a JSON-lines program declaring the ``legal`` claim only —; then
MODE decides:

* ``hang`` — sleeps forever;
* ``fork`` — forked a child at start that holds the output pipes open and sleeps; hangs;
* ``escape`` — the same, but the child left the process group (``setsid``);
* ``crash`` — exits with status 3;
* ``garbage`` — writes lines that are not the protocol;
* ``flood`` — writes to standard output without end, never ending a reply;
* ``chatty`` — writes 4 MB to standard error before each answer, then answers properly;
* ``slow-start`` — sleeps 60 s before reading anything;
* ``no-newline`` — writes the start of an answer without its end, then sleeps;
* ``ignore-term`` — behaves, but ignores SIGTERM and SIGINT (only SIGKILL ends it);
* ``daemon-exit`` — forks a daemon (``setsid``) that holds the output pipes open, and exits;
* ``close-stdout`` — closes its standard output and lives on, reading nothing more;
* ``huge-lines`` — writes lines of 8 MB each, without end;
* ``nonsense`` — answers at once, in the protocol, but calls every move illegal.

Behaving, it accepts every move on an empty point and refuses one on an occupied point, never
captures.
"""

import json
import os
import signal
import sys
import time


def record(pidfile: str, pid: int) -> None:
    with open(pidfile, "a", encoding="ascii") as out:
        out.write(f"{pid}\n")


def sleep_forever() -> None:
    while True:
        time.sleep(60)


def fork_child(pidfile: str, escape: bool) -> None:
    pid = os.fork()
    if pid == 0:
        if escape:
            os.setsid()
        record(pidfile, os.getpid())
        sleep_forever()
    time.sleep(0.05)


def misbehave(mode: str, write, pidfile: str = "") -> None:
    if mode in ("hang", "fork", "escape"):
        sleep_forever()
    if mode == "daemon-exit":
        fork_child(pidfile, escape=True)
        os._exit(0)
    if mode == "close-stdout":
        sys.stdout.flush()
        os.close(1)
        sleep_forever()
    if mode == "huge-lines":
        line = "y" * (8 << 20) + "\n"
        while True:
            write(line)
    if mode == "crash":
        sys.stderr.write("hostile engine: crashing on purpose\n")
        sys.exit(3)
    if mode == "garbage":
        write("this is not the protocol\n\n")
        return
    if mode == "flood":
        block = "x" * 65536
        while True:
            write(block)
    if mode == "no-newline":
        write('{"type": "result", "id"' if PROTOCOL == "jsonl" else "= ")
        sleep_forever()


PROTOCOL = "gtp"


def main() -> int:
    global PROTOCOL
    PROTOCOL, mode, pidfile = sys.argv[1], sys.argv[2], sys.argv[3]
    record(pidfile, os.getpid())
    if mode in ("fork", "escape"):
        fork_child(pidfile, escape=mode == "escape")
    if mode == "ignore-term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if mode == "slow-start":
        time.sleep(60)

    def write(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    stones: set[str] = set()
    for line in sys.stdin:
        if mode == "chatty":
            sys.stderr.write("chatter " * 500_000 + "\n")
            sys.stderr.flush()
        if PROTOCOL == "gtp":
            words = line.split()
            if not words:
                continue
            cmd_id = words.pop(0) if words[0].isdigit() else ""
            name, args = words[0], words[1:]
            if name == "play" and mode != "nonsense":
                misbehave(mode, write, pidfile)
            ok, text = True, ""
            if name == "list_commands":
                text = "\n".join(["protocol_version", "name", "list_commands", "boardsize", "clear_board"])
                text += "\nplay\nquit"
            elif name == "clear_board":
                stones.clear()
            elif name == "play" and args[1].upper() != "PASS":
                ok = args[1].upper() not in stones and mode != "nonsense"
                stones.add(args[1].upper())
                text = "" if ok else "illegal move"
            elif name == "quit":
                write(f"={cmd_id}\n\n")
                return 0
            elif name not in ("boardsize", "name", "protocol_version"):
                ok, text = False, "unknown command"
            write(f"{'=' if ok else '?'}{cmd_id} {text}".rstrip() + "\n\n")
            continue
        msg = json.loads(line)
        if msg["type"] == "start":
            supports = {"rulesets": None, "axes": {}, "max_size": 19, "claims": ["legal"]}
            write(
                json.dumps(
                    {"type": "ready", "protocol": 1, "name": "hostile", "version": mode, "supports": supports}
                )
                + "\n"
            )
        elif msg["type"] == "run":
            if mode != "nonsense":
                misbehave(mode, write, pidfile)
            steps = [{"legal": mode != "nonsense"} for _ in msg["moves"]]
            write(json.dumps({"type": "result", "id": msg["id"], "steps": steps, "end": None}) + "\n")
        elif msg["type"] == "stop":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
