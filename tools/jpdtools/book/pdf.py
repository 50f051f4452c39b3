"""``jpd book --pdf``: each edition printed to one PDF by headless Chromium (Debian's ``chromium``).

The printed document is each edition's ``print/book.html`` (``en/``, ``zh/``): the front page
and every case page one after another, so a committee can circulate one file in its language.
Chromium is started with a fresh profile and no network features; a missing browser is a clear
error, not a traceback.
"""

import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from jpdtools.book.lang import EN, Language
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


PRINT_TIMEOUT = 1800.0
"""Seconds Chromium may take to print (the whole suite is a long document on a busy machine)."""


def run_chromium(args: list[str], timeout: float = PRINT_TIMEOUT) -> subprocess.CompletedProcess:
    """Run headless Chromium once with a fresh profile; ``args`` follow the standard flags.
    A run that outlasts ``timeout`` is killed and reported as an InputError."""
    with tempfile.TemporaryDirectory(prefix="jpd-chromium-") as profile:
        command = [find_chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args]
        # its own process group: on a timeout the browser and every helper process it started go
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
        )
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise InputError(
                f"Chromium did not finish printing within {timeout:g} s; print fewer cases "
                "(jpd book OUTDIR --tag T / --id PATTERN --pdf)"
            ) from None
        return subprocess.CompletedProcess(command, process.returncode, out, err)


def print_pdf(outdir: Path, lang: Language = EN) -> Path:
    """Print the edition of ``lang`` (``OUTDIR/en/print/book.html``) to ``OUTDIR/en/book.pdf``."""
    page = (outdir / lang.code / "print" / "book.html").resolve()
    if not page.is_file():
        raise InputError(f"{page}: no such page to print")
    pdf = (outdir / lang.code / "book.pdf").resolve()
    result = run_chromium(["--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()])
    if result.returncode != 0 or not pdf.is_file():
        raise InputError(f"Chromium could not print {page}: {result.stderr.strip()[-400:]}")
    return pdf
