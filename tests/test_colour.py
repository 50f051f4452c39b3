"""Colour on a terminal only (jpdtools/colour.py): never in a pipe, never with NO_COLOR."""

import io

import pytest
from jpdtools import colour


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_colour_a_pipe_does_not(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert colour.paint("FAILED", "red", Terminal()) == "\033[31mFAILED\033[0m"
    assert colour.paint("FAILED", "red", io.StringIO()) == "FAILED"


@pytest.mark.parametrize(("name", "value"), [("NO_COLOR", "1"), ("TERM", "dumb")])
def test_no_color_and_a_dumb_terminal_get_none(monkeypatch, name, value):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv(name, value)
    assert colour.paint("ok", "green", Terminal()) == "ok"


def test_the_verdict_line_is_the_last(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    text = colour.verdict_line("table\n3 pass — OK", True, Terminal())
    assert text == "table\n\033[32m3 pass — OK\033[0m"
