"""A headless Chromium driven over the DevTools protocol through a pipe (``--remote-debugging-pipe``:
commands on the browser's file descriptor 3, answers on 4, each a JSON text ended by a NUL byte),
so printing needs no network port and no library.

:class:`Printer` keeps one browser for many documents: it opens a page, waits until it is loaded
and its fonts are (a web font still loading would print in a fallback font), and prints it to PDF.
A browser that dies or does not answer in time is an InputError naming what it was doing.
"""

import base64
import contextlib
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jpdtools.errors import InputError

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def find_chromium() -> str:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise InputError(
        "--pdf needs Chromium (apt-get install chromium); none of " + ", ".join(CHROMIUM_NAMES) + " found"
    )


MOVE_AND_EXEC = (
    "import os, sys; r, w = int(sys.argv[1]), int(sys.argv[2]); os.dup2(r, 3); os.dup2(w, 4); "
    "[os.close(fd) for fd in (r, w) if fd > 4]; os.execv(sys.argv[3], sys.argv[3:])"
)
"""Run before the browser, in its process: its ends of the pipes moved to 3 and 4, as the flag
wants (a shell cannot name a descriptor above 9), then the browser in its place."""

FONTS_READY = (
    "Promise.all([...document.fonts].filter(f => f.status !== 'loaded').map(f => f.load().catch(() => 0)))"
    ".then(() => document.fonts.ready).then(() => document.fonts.status)"
)
"""Every font face the page declares loaded (those its text needs and the others), then settled."""


class Printer:
    """One headless Chromium printing documents one after another, each in a page of its own."""

    def __init__(self, timeout: float, env: dict[str, str] | None = None):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="jpd-chromium-")
        self.buffer = b""
        self.events: list[dict] = []
        self.next_id = 0
        to_browser, self.commands = os.pipe()
        self.answers, from_browser = os.pipe()
        command = [
            find_chromium(),
            *CHROMIUM_FLAGS,
            f"--user-data-dir={self.profile}",
            "--remote-debugging-pipe",
            "about:blank",
        ]
        self.process = subprocess.Popen(
            [sys.executable, "-c", MOVE_AND_EXEC, str(to_browser), str(from_browser), *command],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(to_browser, from_browser),
            start_new_session=True,
            env=env,
        )
        os.close(to_browser)
        os.close(from_browser)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.answers, selectors.EVENT_READ)
        self.target = ""
        self.session = ""
        try:
            self.send("Browser.getVersion", doing="starting")
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> "Printer":
        return self

    def __exit__(self, *_) -> None:
        self.close()

    def _message(self, deadline: float, doing: str) -> dict:
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                raise InputError(f"Chromium did not finish {doing} within {self.timeout:g} s")
            chunk = os.read(self.answers, 1 << 20)
            if not chunk:
                raise InputError(f"Chromium ended while {doing} (exit status {self.process.poll()})")
            self.buffer += chunk
        text, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(text)

    def send(self, method: str, session: bool = False, doing: str = "", **params) -> dict:
        """Send a command (to the page with ``session``) and return its result."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            answer = self._message(deadline, doing or method)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise InputError(f"Chromium refused {method}: {answer['error'].get('message')}")
                return answer.get("result", {})
            self.events.append(answer)

    def open(self, url: str) -> None:
        """Load ``url`` in a new page (the one before closed, and the memory of its renderer given
        back), then wait for its fonts."""
        if self.target:
            self.send("Target.closeTarget", targetId=self.target)
        self.target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=self.target, flatten=True)["sessionId"]
        self.send("Page.enable", session=True)
        self.send("Runtime.enable", session=True)
        self.events.clear()
        doing = f"loading {url}"
        result = self.send("Page.navigate", session=True, doing=doing, url=url)
        if result.get("errorText"):
            raise InputError(f"Chromium could not open {url}: {result['errorText']}")
        deadline = time.monotonic() + self.timeout
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self._message(deadline, doing))
        self.send(
            "Runtime.evaluate",
            session=True,
            doing=f"loading the fonts of {url}",
            expression=FONTS_READY,
            awaitPromise=True,
        )

    def print_to(self, pdf: Path) -> None:
        """Print the page as its style sheet lays it out (``@page``) to ``pdf``."""
        result = self.send(
            "Page.printToPDF",
            session=True,
            doing="printing",
            preferCSSPageSize=True,
            printBackground=True,
            displayHeaderFooter=False,
            generateTaggedPDF=False,  # a structure tree: twice the file, a fifth more time
            transferMode="ReturnAsStream",
        )
        try:
            with pdf.open("wb") as out:
                while True:
                    chunk = self.send(
                        "IO.read", session=True, doing="printing", handle=result["stream"], size=1 << 22
                    )
                    data = chunk.get("data", "")
                    out.write(
                        base64.b64decode(data) if chunk.get("base64Encoded") else data.encode("latin-1")
                    )
                    if chunk.get("eof"):
                        break
        except OSError as err:
            raise InputError(f"cannot write {pdf}: {err.strerror or err}") from None
        finally:
            self.send("IO.close", session=True, handle=result["stream"])

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            except ProcessLookupError:
                pass
        for fd in (self.commands, self.answers):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.selector.close()
        shutil.rmtree(self.profile, ignore_errors=True)
