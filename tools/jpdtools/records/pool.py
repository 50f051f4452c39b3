"""Worker processes for a collection: tasks run in parallel, results handed back in task order.
{#count.replay}

Not :class:`multiprocessing.Pool`: its task-feeding thread can block forever in ``send`` once the
workers are gone, so an interrupted run (Ctrl-C, SIGTERM) could hang in ``Pool.terminate``. Here
the parent sends a task only to a worker waiting for one (a send never blocks on a worker that is
busy), keeps at most two tasks per worker in flight (memory stays bounded when one task is slow),
and on any way out — the last result, an error, an interruption, a consumer that stops — kills
its workers and waits for them. Workers ignore SIGINT (a Ctrl-C at the terminal reaches the whole
process group; stopping them is the parent's job) and exit when the parent's end of their pipe
closes, so even a parent killed outright leaves none behind.
"""

import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

IN_FLIGHT_PER_WORKER = 2


class WorkerDied(RuntimeError):
    """A worker process ended without answering (killed, or out of memory)."""


def _serve(work: Callable[[Any], Any], conn: Connection, inherited: list[Connection]) -> None:
    for other in inherited:  # the parent's ends of the other workers' pipes, copied by fork
        other.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone, or done
        try:
            answer = (True, work(task))
        except Exception as err:  # handed to the parent, which raises it
            answer = (False, err)
        try:
            conn.send(answer)
        except OSError:
            return


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def ordered(work: Callable[[Any], Any], tasks: Iterable[Any], jobs: int) -> Iterator[Any]:
    """``work(task)`` for every task, computed by up to ``jobs`` worker processes (started as
    tasks come), yielded in task order."""
    context = _context()
    tasks = iter(tasks)
    workers: list[tuple[Any, Connection]] = []
    idle: list[Connection] = []
    busy: dict[Connection, tuple[int, Any]] = {}
    results: dict[int, Any] = {}
    sent = delivered = 0
    exhausted = False
    try:
        while True:
            while not exhausted and sent - delivered < IN_FLIGHT_PER_WORKER * jobs:
                if not idle and len(workers) >= jobs:
                    break
                try:
                    task = next(tasks)
                except StopIteration:
                    exhausted = True
                    break
                if not idle:
                    parent, child = context.Pipe()
                    process = context.Process(
                        target=_serve, args=(work, child, [c for _, c in workers] + [parent]), daemon=True
                    )
                    process.start()
                    child.close()
                    workers.append((process, parent))
                    idle.append(parent)
                conn = idle.pop()
                conn.send(task)
                busy[conn] = (sent, next(p for p, c in workers if c is conn))
                sent += 1
            if not busy:
                return
            for conn in wait(list(busy)):
                number, process = busy.pop(conn)
                try:
                    ok, value = conn.recv()
                except (EOFError, OSError):
                    process.join(1)
                    raise WorkerDied(
                        f"a worker process ended without answering (exit {process.exitcode})"
                    ) from None
                if not ok:
                    raise value
                results[number] = value
                idle.append(conn)
            while delivered in results:
                yield results.pop(delivered)
                delivered += 1
    finally:
        for process, _ in workers:
            if process.is_alive():
                process.kill()
        for process, conn in workers:
            process.join()
            conn.close()
