"""The book's rules playground in a real browser: headless Chromium over DevTools, the book served
over HTTP (Pyodide does not run from ``file://``).

A differential test plays seeded random sequences through the page (position and moves in the
URL, played by the page's engine under Pyodide) and through ``jpd play --rules all --json``, and
requires identical verdicts; an interaction test pastes the triple ko of the suite, plays it by
clicks on the board, reads every ruleset's verdict and deciding clause, reopens the share link and
lints the proposed case. Screenshots of both editions at 390 and 1400 px go to the artefacts.
Needs Chromium and Pyodide (``npm ci --prefix playground``): skipped without them, except in CI.
"""

import base64
import functools
import http.server
import io
import json
import os
import random
import threading
import time
from contextlib import redirect_stdout
from pathlib import Path
from urllib.parse import quote

import pytest
from book_helpers import build_book
from chromium_driver import Browser, chromium_or_skip
from jpdref.coords import GTP_COLUMNS, Geometry
from jpdref.game import Action, Game
from jpdref.stones import Color
from jpdtools.book.playground import MISSING_MESSAGE, find_pyodide
from jpdtools.cli import main
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.run.runner import Filters

ARTEFACTS = Path(os.environ.get("TEST_ARTEFACTS", Path(__file__).resolve().parent.parent / "test-artefacts"))
SEQUENCES = 200
TRIPLE_KO = [". X O . . . X O . . . X O .", "X O . O . X . X O . X O . O", ". X O . . . X O . . . X O ."]
TRIPLE_MOVES = ["C2", "G2", "N2", "B2", "H2", "M2"]  # cyc.triple.001: B C2 W G2 B N2 W B2 B H2 W M2
CLI_KEYS = ("rules", "steps", "phase", "to_move", "outcome")
LOAD_SECONDS = 180  # a bound for a slow machine, not a measurement: the load time is in the notes


def pyodide_or_skip():
    if find_pyodide() is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(MISSING_MESSAGE, pytrace=False)
        pytest.skip(MISSING_MESSAGE)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pyodide_or_skip()
    root = tmp_path_factory.mktemp("playground-book")
    report = build_book(root / "book", [conformance_dir() / "cycles.yaml"], Filters(ids=("cyc.triple.001",)))
    assert report.playground
    handler = functools.partial(Quiet, directory=str(root / "book"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", root / "book"
    server.shutdown()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def browser():
    b = Browser(chromium_or_skip(), timeout=LOAD_SECONDS)
    yield b
    b.close()


def open_playground(browser, url: str) -> float:
    """Open the page and wait until the engine is loaded; the seconds it took."""
    start = time.monotonic()
    browser.open_url("about:blank")  # a link to the page already open differs in its hash only: no load
    browser.open_url(url)
    while time.monotonic() - start < LOAD_SECONDS:
        loading = browser.evaluate("JSON.stringify(document.getElementById('pg-loading').dataset)")
        if "ready" in loading:
            return time.monotonic() - start
        assert "failed" not in loading, browser.evaluate("document.getElementById('pg-stage').textContent")
        time.sleep(0.25)
    raise TimeoutError("the playground did not load")


def screenshot(browser, name: str, width: int) -> None:
    browser.resize(width, 900, mobile=width < 600)
    time.sleep(0.3)
    scroll, inner = browser.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, f"{name}: the page is {scroll} px wide in a window of {inner} px"
    shot = browser.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
    ARTEFACTS.joinpath("playground").mkdir(parents=True, exist_ok=True)
    ARTEFACTS.joinpath("playground", f"{name}-{width}.png").write_bytes(base64.b64decode(shot["data"]))


def diagram_of(rows: list[str], to_move: str) -> str:
    return f"{len(rows[0].split())}x{len(rows)} {to_move}\n" + "\n".join(rows) + "\n"


def cli_play(tmp_path: Path, diagram: str, moves: str) -> list[dict]:
    path = tmp_path / "position.txt"
    path.write_text(diagram, encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["play", str(path), "--rules", "all", "--json", "--moves", moves]) == 0
    return json.loads(out.getvalue())


# -- random sequences --------------------------------------------------------------------------
def random_sequence(rng: random.Random, rulesets) -> tuple[list[str], str, list[str]]:
    """A position (rows of X O .) with a few stones, its side to move, and actions played as a side
    to move under a random preset would: moves biased towards the last one and towards recapture
    (captures, ko, superko, suicide), passes, virtual moves, now and then a resignation."""
    width, height = rng.choice([(2, 2), (3, 3), (4, 4), (5, 5), (4, 3), (6, 6), (7, 7)])
    geometry = Geometry(width, height)
    grid = [["."] * width for _ in range(height)]
    for _ in range(rng.randrange(0, width * height // 3 + 1)):
        grid[rng.randrange(height)][rng.randrange(width)] = rng.choice("XO")
    rows = [" ".join(r) for r in grid]
    to_move = rng.choice("BW")
    rules = rng.choice(rulesets)
    stones = {
        geometry.point(x, y): Color.parse("B" if c == "X" else "W")
        for y, r in enumerate(grid)
        for x, c in enumerate(r)
        if c != "."
    }
    try:
        game = Game.new(rules, geometry, stones, Color.parse(to_move))
    except ValueError:  # a set-up with a chain without liberties: try again with fewer stones
        return random_sequence(rng, rulesets)
    actions: list[str] = []
    last = None
    captured: list[int] = []
    for _ in range(rng.randrange(4, 40)):
        colour = game.to_move.letter
        roll = rng.random()
        if roll < 0.07:
            action, text = Action.pass_(game.to_move), f"{colour} pass"
        elif roll < 0.11:
            action, text = Action.virtual(game.to_move), f"{colour} virtual"
        elif roll < 0.115:
            action, text = Action.resign(game.to_move), f"{colour} resign"
        else:
            if captured and rng.random() < 0.5:
                point = rng.choice(captured)  # retake at once: ko, superko
            elif last is not None and rng.random() < 0.5:
                x, y = geometry.xy(last)
                near = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
                near = [(a, b) for a, b in near if 0 <= a < width and 0 <= b < height]
                point = geometry.point(*rng.choice(near))
            else:
                point = rng.randrange(width * height)
            action, text = Action.move(game.to_move, point), f"{colour} {geometry.to_gtp(point)}"
        step = game.play(action)
        actions.append(text)
        if action.point is not None and step.legal:
            last, captured = action.point, list(step.captures)
        if game.outcome is not None and game.outcome.kind is not None and rng.random() < 0.8:
            break
    return rows, to_move, actions


def page_url(base: str, lang: str, rows: list[str], to_move: str, moves: list[str]) -> str:
    board = "/".join(r.replace(" ", "") for r in rows)
    hash_ = f"b={quote(board, safe='/')}&to={to_move}&m={quote(' '.join(moves))}"
    return f"{base}/{lang}/playground.html#{hash_}"


def test_random_sequences_through_the_page_and_jpd_play_agree(browser, site, tmp_path):
    base, _ = site
    open_playground(browser, f"{base}/en/playground.html")
    rulesets = load_presets().rulesets
    rng = random.Random(20260)
    seen = {"capture": 0, "superko": 0, "ko": 0, "suicide": 0, "virtual": 0, "ended": 0, "illegal": 0}
    for n in range(SEQUENCES):
        rows, to_move, moves = random_sequence(rng, rulesets)
        # the sequence reaches the page through its URL, as a shared link does
        hash_ = page_url("", "en", rows, to_move, moves).split("#")[1]
        page = browser.evaluate(
            f"(() => {{ history.replaceState(null, '', '#' + {hash_!r}); playground.reload();"
            " return playground.play(playground.state.moves, false); })()"
        )
        assert browser.evaluate("playground.state.moves.join(' ')") == " ".join(moves), n
        cli = cli_play(tmp_path, diagram_of(rows, to_move), " ".join(moves))
        assert page["error"] is None, (n, page["error"])
        assert [{k: r[k] for k in CLI_KEYS} for r in page["results"]] == cli, (n, rows, to_move, moves)
        for r in cli:
            for s in r["steps"]:
                seen["capture"] += bool(s["captures"])
                seen["suicide"] += bool(s["self_captures"]) or s["reason"] == "suicide"
                seen["superko"] += s["reason"] == "superko"
                seen["ko"] += s["reason"] == "ko"
                seen["virtual"] += s["action"].endswith("virtual") and s["legal"]
                seen["illegal"] += not s["legal"]
            seen["ended"] += r["phase"] == "ended"
    assert all(seen.values()), seen  # the sequences reached every kind of verdict


def test_set_up_the_triple_ko_play_it_share_it_propose_it(browser, site, tmp_path):
    base, _ = site
    seconds = open_playground(browser, f"{base}/en/playground.html")
    print(f"playground loaded in {seconds:.1f} s")
    browser.evaluate(
        f"(() => {{ document.getElementById('pg-diagram').value = {diagram_of(TRIPLE_KO, 'B')!r};"
        " document.getElementById('pg-diagram-load').click(); })()"
    )
    assert browser.evaluate("playground.state.stones.size") == 21
    # play the six captures by clicking the board's points
    for vertex in TRIPLE_MOVES:
        click_vertex(browser, vertex, height=3)
    assert browser.evaluate("playground.state.moves") == [
        "B C2",
        "W G2",
        "B N2",
        "W B2",
        "B H2",
        "W M2",
    ]
    cli = {
        r["rules"]: r for r in cli_play(tmp_path, diagram_of(TRIPLE_KO, "B"), "B C2 W G2 B N2 W B2 B H2 W M2")
    }
    for n in range(1, 7):
        browser.evaluate(f"playground.goTo({n})")
        rows = verdict_rows(browser)
        assert set(rows) == set(cli)
        for name, row in rows.items():
            step = cli[name]["steps"][n - 1]
            assert row["legal"] == step["legal"], (n, name)
            assert row["reason"] == (step["reason"] or ""), (n, name)
            assert row["clauses"], (n, name)
    rows = verdict_rows(browser)
    assert (
        rows["jpd-2022"]["clauses"][0] == "rep.no-retreat"
        and rows["japanese"]["clauses"][0] == "capture.order"
    )
    differ = {name for name, row in rows.items() if row["differ"]}
    assert differ and differ <= set(rows) and len(differ) < len(rows)
    links = browser.evaluate("[...document.querySelectorAll('#pg-verdicts a[data-anchor]')].map(a => a.href)")
    assert links and all("/en/clauses/" in href for href in links)
    # undo and redo
    browser.evaluate("document.getElementById('pg-undo').click()")
    assert browser.evaluate("playground.state.cursor") == 5
    browser.evaluate("document.getElementById('pg-redo').click()")
    assert browser.evaluate("playground.state.cursor") == 6
    # the share link reopens the same position, moves and verdicts
    link = browser.evaluate("document.getElementById('pg-share').value")
    before = verdict_rows(browser)
    board = browser.evaluate("document.querySelector('#pg-board svg').outerHTML")
    open_playground(browser, link)
    assert verdict_rows(browser) == before
    assert browser.evaluate("document.querySelector('#pg-board svg').outerHTML") == board
    # propose it as a case: jpd lint accepts it
    browser.evaluate("document.getElementById('pg-propose').click()")
    text = browser.evaluate("document.getElementById('pg-proposal').value")
    assert "status: proposed" in text
    path = tmp_path / "proposed.yaml"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["lint", "--require-zh", str(path)]) == 0, out.getvalue()
        assert main(["run", "-q", str(path)]) == 0, out.getvalue()


def test_both_editions_fit_a_phone_and_a_laptop(browser, site):
    base, _ = site
    moves = [f"{'BW'[i % 2]} {v}" for i, v in enumerate(TRIPLE_MOVES)]
    for lang in ("en", "zh"):
        open_playground(browser, page_url(base, lang, TRIPLE_KO, "B", moves))
        assert browser.evaluate("playground.state.cursor") == 6
        differ = browser.evaluate("document.querySelectorAll('#pg-verdicts tr.differ').length")
        assert differ == 4, lang  # jpd-art-2008, japanese (legal), chinese, aga (void-pass): not the words
        if lang == "zh":
            assert "禁倒退" in browser.evaluate("document.getElementById('pg-verdicts').textContent")
        for width in (390, 1400):
            screenshot(browser, f"triple-ko-{lang}", width)
    browser.send("Emulation.clearDeviceMetricsOverride")


def click_vertex(browser, vertex: str, height: int) -> None:
    """A real mouse click at the centre of ``vertex`` on the board drawn."""
    x, y = GTP_COLUMNS.index(vertex[0]), height - int(vertex[1:])
    browser.evaluate("window.scrollTo(0, 0)")
    where = browser.evaluate(
        "(() => { const s = document.querySelector('#pg-board svg'); const r = s.getBoundingClientRect();"
        " const k = r.width / s.viewBox.baseVal.width;"
        " const d = JSON.parse(document.getElementById('pg-data').textContent);"
        f" return [r.left + (d.margin + d.cell * ({x} + 0.5)) * k,"
        f" r.top + (d.margin + d.cell * ({y} + 0.5)) * k]; }})()"
    )
    for kind in ("mousePressed", "mouseReleased"):
        browser.send(
            "Input.dispatchMouseEvent", type=kind, x=where[0], y=where[1], button="left", clickCount=1
        )


def verdict_rows(browser) -> dict[str, dict]:
    return browser.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#pg-verdicts tbody tr')].map(tr => {"
        " const v = tr.querySelector('td.pg-legal, td.pg-illegal');"
        " return [tr.dataset.rules, {legal: v.classList.contains('pg-legal'), reason: v.dataset.reason,"
        " text: v.textContent, differ: tr.classList.contains('differ'),"
        " clauses: [...tr.querySelectorAll('td.pg-clause [data-anchor]')].map(a => a.dataset.anchor)}]; }))"
    )


def test_count_a_halted_game_with_a_stone_marked_dead(browser, site, tmp_path):
    base, _ = site
    rows = [". X . X .", "X X X X X", ". . . . .", "O O O O O", ". O . X ."]
    open_playground(browser, page_url(base, "en", rows, "B", ["B pass", "W pass"]))
    browser.evaluate("document.querySelector('input[name=pg-mode][value=dead]').click()")
    click_vertex(browser, "D1", height=5)
    assert browser.evaluate("[...playground.state.dead]") == ["D1"]
    assert browser.evaluate("document.querySelectorAll('#pg-board svg path.dead').length") == 1
    counted = browser.evaluate(
        "[...document.querySelectorAll('#pg-count tr')].map(tr => [tr.dataset.rules,"
        " (tr.querySelector('pre') || tr.querySelector('td')).textContent])"
    )
    assert [name for name, _ in counted] == load_presets().names
    path = tmp_path / "position.txt"
    path.write_text(diagram_of(rows, "B"), encoding="utf-8")
    assert any("\n" in text for _, text in counted)  # some count, not only refusals
    passing = {r.name for r in load_presets().rulesets if r.values()["pass"] != "forbidden"}
    for name, text in counted:
        if name not in passing:  # jpd count turns a pass into a virtual move there, as a record does
            continue
        out = io.StringIO()
        with redirect_stdout(out):
            main(["count", str(path), "--rules", name, "--dead", "D1", "--moves", "B pass W pass"])
        assert text in out.getvalue(), name
    browser.evaluate("document.querySelector('#pg-count details').open = true")
    screenshot(browser, "count-en", 1400)
    browser.send("Emulation.clearDeviceMetricsOverride")
