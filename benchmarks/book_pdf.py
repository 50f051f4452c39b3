"""Time ``jpd book --pdf`` over the whole suite and measure its memory; write what was measured.

    python benchmarks/book_pdf.py [--out FILE] [-- ARGS…]

Runs ``jpd book -o TMP --pdf ARGS…`` once as its own process and samples, twice a second, the
memory of it and every process it started (the Chromiums and their renderers) added up, each
process's proportional set size (PSS: a page shared by n processes counted 1/n in each): the peak
of that sum is the figure to compare with the machine's memory. It records the wall time,
the CPU time of the whole tree (from ``/proc``, dead processes included through their parents'
accounts), the load average before and after (the machine may be shared: the wall time depends on
it), the pages and size of each edition's PDF, and writes them to ``FILE`` (default
``benchmarks/results-book-pdf.md``) and to standard output. Linux only (``/proc``).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: str) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def tree(root: int) -> dict[int, list[str]]:
    """The ``/proc/PID/stat`` fields (after the name) of ``root`` and all its descendants."""
    stats = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            fields = _stat(pid)
            if fields is not None:
                stats[int(pid)] = fields
    children: dict[int, list[int]] = {}
    for pid, fields in stats.items():
        children.setdefault(int(fields[1]), []).append(pid)
    out, todo = {}, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            out[pid] = stats[pid]
            todo.extend(children.get(pid, ()))
    return out


def memory(pids: list[int]) -> int:
    """The proportional set size of ``pids`` added up (a page shared by n processes counts 1/n
    in each: the sum is what they take together, where adding their resident sizes would count
    Chromium's shared pages once per process)."""
    total = 0
    for pid in pids:
        try:
            text = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("Pss:"):
                total += int(line.split()[1]) * 1024
                break
    return total


def cpu(fields: dict[int, list[str]]) -> float:
    """utime + stime of each process, and of its waited-for children (cutime, cstime)."""
    return sum(int(f[11]) + int(f[12]) + int(f[13]) + int(f[14]) for f in fields.values()) / TICK


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results-book-pdf.md")
    parser.add_argument("args", nargs="*", help="more arguments of jpd book (after --)")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="jpd-bench-book-") as tmp:
        book = Path(tmp) / "book"
        command = [sys.executable, "-m", "jpdtools.cli", "book", "-o", str(book), "--pdf", *args.args]
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        said: list[tuple[float, str]] = []  # (seconds since the start, a line of jpd's output)
        reader = threading.Thread(
            target=lambda: said.extend((time.perf_counter() - start, line) for line in process.stdout)
        )
        reader.start()
        peak, spent = 0, 0.0
        while process.poll() is None:
            fields = tree(process.pid)
            peak = max(peak, memory(list(fields)))
            spent = max(spent, cpu(fields))
            time.sleep(0.5)
        wall = time.perf_counter() - start
        own = os.times()
        spent = max(spent, own.children_user + own.children_system)
        reader.join()
        output = "".join(line for _, line in said)
        printing = next((t for t, line in said if "printing" in line), wall)
        if process.returncode != 0:
            sys.exit(f"jpd book --pdf failed ({process.returncode}):\n{output[-2000:]}")
        pdfs = {lang: book / lang / "book.pdf" for lang in ("en", "zh")}
        pages = {lang: _pages(path) for lang, path in pdfs.items()}
        sizes = {lang: path.stat().st_size for lang, path in pdfs.items()}
    load_after = os.getloadavg()
    summary = output.strip().splitlines()
    built = next((line for line in summary if " cases, written to " in line), "")
    lines = [
        "# `jpd book --pdf` over the whole suite",
        "",
        "Written by `python benchmarks/book_pdf.py` (one run; see its docstring for what is measured).",
        "",
        "| what | measured |",
        "| --- | --- |",
        f"| the book | {built.split(', written to ')[0] if built else '?'} |",
        f"| wall time, everything (run, write, print, join) | {wall:.0f} s |",
        f"| of which running the cases and writing the pages | {printing:.0f} s |",
        f"| of which printing and joining both editions (at once) | {wall - printing:.0f} s |",
        f"| CPU time, every process | {spent:.0f} s |",
        f"| peak memory, every process added up (PSS) | {peak / 2**30:.2f} GiB |",
        f"| English PDF | {pages['en']} pages, {sizes['en'] / 2**20:.0f} MiB |",
        f"| Chinese PDF | {pages['zh']} pages, {sizes['zh'] / 2**20:.0f} MiB |",
        f"| load average before, after (1, 5, 15 min) | {_load(load_before)}; {_load(load_after)} |",
        f"| machine | {os.cpu_count()} cores, {_memory_total()} |",
        "",
    ]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


def _pages(path: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(path).pages)


def _load(load: tuple[float, float, float]) -> str:
    return ", ".join(f"{x:.1f}" for x in load)


def _memory_total() -> str:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return f"{int(line.split()[1]) / 2**20:.0f} GiB of memory"
    return "?"


if __name__ == "__main__":
    main()
