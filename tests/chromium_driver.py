"""A headless Chromium (Debian's ``chromium``) driven over the DevTools protocol, for the book tests.

Started with a fresh profile and no network features, on a DevTools port the browser picks itself
(read back from ``DevToolsActivePort``); one page target, driven through ``websocket-client``.
Dialogs a page opens (``alert``) are recorded, so a test can assert that nothing ran.
"""

import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
import websocket
from jpdtools.book.devtools import CHROMIUM_FLAGS, CHROMIUM_NAMES


def chromium_or_skip() -> str:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    message = "Chromium is not installed (apt-get install chromium): the browser tests did not run"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


class Browser:
    def __init__(self, binary: str, timeout: float = 60, env: dict[str, str] | None = None):
        """``env``: the browser's environment (e.g. a FONTCONFIG_FILE without CJK fonts)."""
        self.profile = tempfile.mkdtemp(prefix="jpd-test-chromium-")
        self.process = subprocess.Popen(
            [
                binary,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={self.profile}",
                "--remote-debugging-port=0",
                "--window-size=1200,900",
                # a test drives hundreds of shared links through one page within seconds: Chromium
                # otherwise ignores history.replaceState past 200 calls in 10 s, and the page would
                # read the previous link back
                "--disable-ipc-flooding-protection",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self.timeout = timeout
        self.events: list[dict] = []
        self._id = 0
        try:
            port = self._port()
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=timeout))
            page = next(t for t in targets if t["type"] == "page")
            self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=timeout)
            self.send("Page.enable")
            self.send("Runtime.enable")
        except BaseException:
            self.close()
            raise

    def _port(self) -> int:
        path = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if path.is_file() and path.read_text().strip():
                return int(path.read_text().split()[0])
            if self.process.poll() is not None:
                raise RuntimeError(f"chromium exited with status {self.process.returncode}")
            time.sleep(0.1)
        raise TimeoutError("chromium did not open its DevTools port")

    def send(self, method: str, **params) -> dict:
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self._id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)
            if message.get("method") == "Page.javascriptDialogOpening":
                self.send("Page.handleJavaScriptDialog", accept=True)

    def wait_for(self, method: str) -> dict:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            for i, event in enumerate(self.events):
                if event.get("method") == method:
                    return self.events.pop(i)
            message = json.loads(self.ws.recv())
            if "id" not in message:
                self.events.append(message)
        raise TimeoutError(f"no {method}")

    def resize(self, width: int, height: int, mobile: bool = False) -> None:
        """Give the page a window of ``width`` × ``height`` CSS pixels at scale 1."""
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}
        self.send("Emulation.setDeviceMetricsOverride", **metrics)

    def open(self, path: Path) -> None:
        self.open_url(path.resolve().as_uri())

    def open_url(self, url: str) -> None:
        self.events.clear()
        self.send("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def dialogs(self) -> list[dict]:
        return [e for e in self.events if e.get("method") == "Page.javascriptDialogOpening"]

    def close(self) -> None:
        ws = getattr(self, "ws", None)
        if ws is not None:
            ws.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
