"""Stopping ``jpd replay`` mid-run, and ``--dask`` to what is not a scheduler (issue 25, part B).

SIGINT (Ctrl-C at a terminal: the whole process group) and SIGTERM (``kill PID``: the parent only)
stop a run of two worker processes within seconds, exit 130, and leave no worker behind; the
``--resume`` that follows gives every record exactly once. ``--dask`` to a closed port, a peer
that never answers, one that speaks HTTP or announces a huge frame, and garbage addresses are
each a one-line error, never a hang or a MemoryError.
"""

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from jpdtools.cli import main
from jpdtools.records import cluster

RECORDS = 400
RULES = "chinese+japanese"


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Path:
    """``RECORDS`` 19x19 records of 120 distinct random points (fixed seed)."""
    folder = tmp_path_factory.mktemp("signals") / "games"
    folder.mkdir()
    rng = random.Random(25)
    points = [x + y for x in "abcdefghijklmnopqrs" for y in "abcdefghijklmnopqrs"]
    for n in range(RECORDS):
        body = "".join(f";{'BW'[i % 2]}[{p}]" for i, p in enumerate(rng.sample(points, 120)))
        (folder / f"r{n:04d}.sgf").write_text(f"(;GM[1]FF[4]SZ[19]{body})", encoding="utf-8")
    return folder


def _alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.slow
@pytest.mark.parametrize("round_", range(2))
@pytest.mark.usefixtures("sigint_reaches_children")
@pytest.mark.parametrize("how", ["SIGINT to the group", "SIGTERM to the parent"])
def test_a_stopped_run_leaves_no_worker_and_resumes_every_record_once(games, tmp_path, how, round_):
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "jpdtools.cli", "replay", str(games), "--rules", RULES, "--jobs", "2"]
    proc = subprocess.Popen([*command, "--out", str(out)], stdout=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    wanted = 40 + 60 * round_  # stop at different points of the run
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= wanted:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the run finished before it could be stopped"
    if how.startswith("SIGINT"):
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGTERM)
    try:
        status = proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"{how}: the run did not stop within 20 s")
    assert status == 130
    for _ in range(100):  # the workers are killed and waited for before the parent exits
        if not _alive(proc.pid):
            break
        time.sleep(0.05)
    assert not _alive(proc.pid), "a worker process outlived the run"
    written = len(_lines(out))
    assert 0 < written < 2 * RECORDS
    done = subprocess.run([*command, "--out", str(out), "--resume"], capture_output=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    keys = [(x["record"], x["rules"]) for x in _lines(out)]
    assert len(keys) == len(set(keys)) == 2 * RECORDS


# -- --dask to what is not a scheduler ------------------------------------------------------------------
class Peer:
    """A TCP server on localhost that answers every connection with ``reply`` (None: it never
    sends anything, as an HTTP server waiting for a request)."""

    def __init__(self, reply: bytes | None) -> None:
        self.reply = reply
        self.server = socket.create_server(("127.0.0.1", 0))
        self.address = f"tcp://127.0.0.1:{self.server.getsockname()[1]}"
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.held.append(conn)
            if self.reply is not None:
                conn.sendall(self.reply)

    def close(self) -> None:
        self.server.close()
        for conn in self.held:
            conn.close()


def _closed_port() -> str:
    with socket.create_server(("127.0.0.1", 0)) as s:
        return f"tcp://127.0.0.1:{s.getsockname()[1]}"


@pytest.mark.parametrize(
    "reply, message",
    [
        (None, "no answer as a Dask scheduler within 1 s"),
        (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "not a Dask scheduler"),
        ((1 << 62).to_bytes(8, "little"), "announces 4,611,686,018,427,387,904 bytes"),
        (b"hi", "closed the connection"),
    ],
)
def test_dask_to_a_peer_that_is_not_a_scheduler(tmp_path, capsys, monkeypatch, reply, message):
    if os.environ.get("CI") != "true":
        pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "PROBE_SECONDS", 1)
    peer = Peer(reply)
    if reply == b"hi":
        peer.reply = None
        threading.Thread(
            target=lambda: (time.sleep(0.2), [c.close() for c in peer.held]), daemon=True
        ).start()
    (tmp_path / "a.sgf").write_bytes(b"(;GM[1]SZ[5];B[cc])")
    try:
        started = time.monotonic()
        assert main(["replay", str(tmp_path / "a.sgf"), "--dask", peer.address]) == 2
        assert time.monotonic() - started < 10
    finally:
        peer.close()
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "address, message",
    [
        ("CLOSED", "cannot reach the scheduler"),
        ("garbage", "expected tcp://HOST:PORT"),
        ("tcp://", "expected tcp://HOST:PORT"),
        ("tcp://localhost:99999", "a port 1 to 65535"),
        ("tcp://localhost:²³", "expected tcp://HOST:PORT"),
        ("http://localhost:8786", "not a scheduler address"),
        ("tcp://no-such-host.invalid:8786", "cannot reach the scheduler"),
        ("tcp://\udcff:1", "cannot reach the scheduler"),
    ],
)
def test_dask_to_garbage_addresses(tmp_path, capsys, address, message):
    if os.environ.get("CI") != "true":
        pytest.importorskip("distributed")
    (tmp_path / "a.sgf").write_bytes(b"(;GM[1]SZ[5];B[cc])")
    address = _closed_port() if address == "CLOSED" else address
    assert main(["replay", str(tmp_path / "a.sgf"), "--dask", address]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
