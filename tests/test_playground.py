"""The book's rules playground without a browser: its engine (what the page runs under Pyodide) gives
``jpd play``'s verdicts and ``jpd explain``'s deciding clauses, runs on the shipped sources alone
(no PyYAML, no Lark), writes a proposed case that lints clean, and the page is built in both
editions, or says how to add it when Pyodide is missing."""

import html
import io
import json
import subprocess
import sys
import zipfile
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from jpdtools.book import playground
from jpdtools.book.build import seed_table
from jpdtools.book.lang import EDITIONS
from jpdtools.book.playengine import Engine
from jpdtools.cli import main
from jpdtools.paths import spec_dir
from jpdtools.presets import load_presets
from jpdtools.review.explanation import deciding_clause, ending_clause
from jpdtools.review.lint import spec_anchors
from jpdtools.run.adapters import StepObservation

TRIPLE_KO = """14x3 B
. X O . . . X O . . . X O .
X O . O . X . X O . X O . O
. X O . . . X O . . . X O .
"""
TRIPLE_MOVES = "B C2 W G2 B N2 W B2 B H2 W M2"  # conformance/cycles.yaml, cyc.triple.001


def presets_data() -> list[dict]:
    return [
        {"name": r.name, "title": r.title, "values": r.values(), "sources": dict(r.sources)}
        for r in load_presets().rulesets
    ]


@pytest.fixture(scope="module")
def anchors():
    return spec_anchors(spec_dir())


@pytest.fixture(scope="module")
def engine(anchors):
    return Engine(json.dumps({"presets": presets_data(), "anchors": sorted(anchors)}))


def cli_play(tmp_path: Path, diagram: str, moves: str, rules: str = "all") -> list[dict]:
    path = tmp_path / "position.txt"
    path.write_text(diagram, encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["play", str(path), "--rules", rules, "--json", "--moves", moves]) == 0
    data = json.loads(out.getvalue())
    return data if isinstance(data, list) else [data]


def page_play(engine: Engine, diagram: str, moves: str, rules: list[str], lang: str = "en") -> dict:
    position = json.loads(engine.diagram(diagram))["position"]
    return json.loads(engine.play(json.dumps({**position, "moves": moves, "rules": rules, "lang": lang})))


CLI_KEYS = ("rules", "steps", "phase", "to_move", "outcome")


def test_the_triple_ko_is_played_as_jpd_play_plays_it(engine, tmp_path):
    names = load_presets().names
    page = page_play(engine, TRIPLE_KO, TRIPLE_MOVES, names)
    assert page["error"] is None
    assert [{k: r[k] for k in CLI_KEYS} for r in page["results"]] == cli_play(
        tmp_path, TRIPLE_KO, TRIPLE_MOVES
    )
    sixth = {r["rules"]: r["steps"][5] for r in page["results"]}
    assert sixth["japanese"]["legal"] and sixth["japanese"]["captures"] == ["N2"]
    assert not sixth["jpd-2022"]["legal"] and sixth["jpd-2022"]["reason"] == "superko"
    assert sixth["chinese"]["effect"] == "void-pass"


def test_a_variant_is_played_as_jpd_play_plays_it(engine, tmp_path):
    variant = "japanese:repetition=positional,cycle=not-applicable"
    page = page_play(engine, TRIPLE_KO, TRIPLE_MOVES, [variant])
    assert [{k: r[k] for k in CLI_KEYS} for r in page["results"]] == cli_play(
        tmp_path, TRIPLE_KO, TRIPLE_MOVES, variant
    )
    assert page["results"][0]["steps"][5]["reason"] == "superko"


def test_every_step_names_the_clause_jpd_explain_names(engine, anchors):
    presets = {r.name: r for r in load_presets().rulesets}
    page = page_play(engine, TRIPLE_KO, TRIPLE_MOVES + " B pass W pass B resign", list(presets))
    kinds = ["move"] * 6 + ["pass", "pass", "resign"]
    for result in page["results"]:
        rules = presets[result["rules"]]
        for step, kind, decided in zip(result["steps"], kinds, result["decisions"], strict=True):
            observed = StepObservation(
                step["action"],
                step["legal"],
                step["effect"],
                step["reason"],
                tuple(step["captures"]),
                tuple(step["self_captures"]),
                step["to_move"],
                "",
            )
            expected = deciding_clause(observed, kind, rules, anchors)
            assert [a for a, _, _ in decided] == list(expected.anchors), (result["rules"], step)
            assert [(x, v) for _, x, v in decided if x] == list(expected.axes)
        assert all(a in anchors for parts in result["decisions"] for a, _, _ in parts)
    ended = [r for r in page["results"] if r["outcome"]]
    assert ended, "two passes halt play under some ruleset"
    for result in ended:
        from jpdtools.run.adapters import EndState

        end = EndState(result["phase"], result["to_move"], **result["outcome"])
        expected = ending_clause(end, presets[result["rules"]], anchors)
        assert [a for a, _, _ in result["end_decision"]] == list(expected.anchors)


def test_the_cells_speak_the_edition_s_language(engine):
    page = page_play(engine, TRIPLE_KO, TRIPLE_MOVES, ["jpd-2022", "japanese"], lang="zh")
    cells = {r["rules"]: r["cells"][5] for r in page["results"]}
    assert cells == {"jpd-2022": "非法：禁倒退", "japanese": "合法 提 N2"}


def test_a_halted_game_is_counted_with_the_stones_marked_dead(engine):
    diagram = "5x5 B\n. X O . .\n. X O . .\n. X O . .\n. X O O O\n. X X X X\n"
    position = json.loads(engine.diagram(diagram))["position"]
    request = {**position, "moves": "B pass W pass", "rules": ["chinese", "japanese"], "dead": []}
    plain = json.loads(engine.play(json.dumps(request)))
    assert all(r["count"] and not r["count"].get("error") for r in plain["results"])
    assert {r["rules"]: r["count"]["method"] for r in plain["results"]} == {
        "chinese": "area",
        "japanese": "japanese",
    }
    request["dead"] = ["C5", "C4", "C3", "C2", "D2", "E2"]  # White's whole chain agreed dead
    dead = json.loads(engine.play(json.dumps(request)))
    assert all(r["count"]["winner"] == "B" for r in dead["results"])
    assert any(o == "B" and why != "stone" for _, o, why in dead["results"][0]["count"]["points"])


def test_bad_input_is_an_error_naming_it(engine):
    answer = json.loads(engine.diagram("3x3 B\n. . .\n. Q .\n. . .\n"))
    assert "diagram" in answer["error"]
    position = json.loads(engine.diagram(TRIPLE_KO))["position"]
    bad_vertex = json.loads(engine.play(json.dumps({**position, "moves": "B Z9", "rules": ["chinese"]})))
    assert "Z9" in bad_vertex["error"]
    bad_rules = json.loads(engine.play(json.dumps({**position, "moves": "", "rules": ["chinse"]})))
    assert "chinse" in bad_rules["error"]


def test_a_proposed_case_lints_clean_and_runs(engine, tmp_path):
    position = json.loads(engine.diagram(TRIPLE_KO))["position"]
    request = {
        **position,
        "moves": TRIPLE_MOVES,
        "id": "playground.triple-ko",
        "title": "The triple ko, proposed from the playground",
        "zh_title": "三劫循环，由试验场提议",
        "seeds": [],
    }
    answer = json.loads(engine.propose(json.dumps(request)))
    text, clauses = answer["yaml"], answer["clauses"]
    seeds = playground.seed_of_clause(seed_table(spec_dir(), ()).articles)
    request["seeds"] = [next(seeds[c] for c in clauses if c in seeds)]  # as the page proposes
    text = json.loads(engine.propose(json.dumps(request)))["yaml"]
    assert "status: proposed" in text and "jpd-art-2008: |" in text
    path = tmp_path / "proposed.yaml"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        linted = main(["lint", "--require-zh", str(path)])
        ran = main(["run", "-q", str(path)])
    assert (linted, ran) == (0, 0), out.getvalue()


def test_the_shipped_sources_run_alone(tmp_path):
    """The zip the page loads holds everything the engine imports: run it with nothing else on the
    path (no site-packages: no PyYAML, no Lark), as Pyodide runs it."""
    archive = tmp_path / "jpd.zip"
    archive.write_bytes(playground.sources_zip())
    with zipfile.ZipFile(archive) as z:
        names = set(z.namelist())
        assert "jpdref/game.py" in names and "jpdtools/book/playengine.py" in names
        assert not any("_data" in n for n in names)
    data = json.dumps({"presets": presets_data(), "anchors": ["play.move"]})
    script = f"""
import sys, json
sys.path[:] = [{str(archive)!r}] + [p for p in sys.path if 'site-packages' not in p and p]
from jpdtools.book.playengine import Engine
e = Engine({data!r})
position = json.loads(e.diagram({TRIPLE_KO!r}))["position"]
request = dict(position, moves={TRIPLE_MOVES!r}, rules=["chinese", "japanese"], lang="zh")
r = json.loads(e.play(json.dumps(request)))
assert r["error"] is None, r
e.svg(json.dumps(dict(rows=r["initial"], lang="zh")))
e.propose(json.dumps(dict(position, moves="B pass", id="a.b", title="t", seeds=[])))
print(sorted(m for m in ("yaml", "lark", "markdown_it", "jpdtools.presets") if m in sys.modules))
"""
    done = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_pyodide_package_is_found_where_the_book_looks(tmp_path, monkeypatch):
    monkeypatch.setenv(playground.PYODIDE_ENV, str(tmp_path))
    found = playground.find_pyodide()
    assert found != tmp_path  # an empty folder is not the package
    for name in playground.PYODIDE_FILES:
        (tmp_path / name).write_bytes(b"")
    assert playground.find_pyodide() == tmp_path


def test_the_page_is_written_in_both_editions_with_or_without_pyodide():
    from jpdtools.book.lang import LANGUAGES

    class Stub:  # the parts of a Book the page without its runtime reads
        lang = None

    for lang in EDITIONS:
        Stub.lang = lang
        text = playground.playground_page(Stub, built=False)  # type: ignore[arg-type]
        assert lang.s("pg.not-built") in html.unescape(text)
        assert f'<html lang="{lang.html}"' in text
    keys = [k for k in LANGUAGES["en"].strings if k.startswith("pg.")]
    assert keys and all(k in LANGUAGES["zh"].strings for k in keys)


def test_an_sgf_is_read_as_jpd_play_reads_it(engine, tmp_path):
    sgf = "(;GM[1]SZ[9]HA[2]PL[W];W[cc];B[dd];W[];B[cd])"
    answer = json.loads(engine.diagram(sgf))
    assert answer["position"]["handicap"] == 2 and answer["moves"] == ["W C7", "B D6", "W pass", "B C6"]
    request = {**answer["position"], "moves": " ".join(answer["moves"]), "rules": load_presets().names}
    page = json.loads(engine.play(json.dumps(request)))
    path = tmp_path / "game.sgf"
    path.write_text(sgf, encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["play", str(path), "--rules", "all", "--json"]) == 0
    assert [{k: r[k] for k in CLI_KEYS} for r in page["results"]] == json.loads(out.getvalue())
    broken = json.loads(engine.diagram("(;SZ[5];B[zz])"))
    assert broken["error"].startswith("sgf")


DEAD = "5x5 B\n. X . X .\nX X X X X\n. . . . .\nO O O O O\n. O . X .\n"  # D1 dead


def test_the_count_is_explained_as_jpd_count_explains_it(engine, tmp_path):
    position = json.loads(engine.diagram(DEAD))["position"]
    request = {**position, "moves": "", "rules": ["chinese", "japanese"], "dead": ["D1"]}
    page = {r["rules"]: r["count"] for r in json.loads(engine.play(json.dumps(request)))["results"]}
    path = tmp_path / "dead.txt"
    path.write_text(DEAD, encoding="utf-8")
    for rules, count in page.items():
        out = io.StringIO()
        with redirect_stdout(out):
            assert main(["count", str(path), "--rules", rules, "--dead", "D1"]) == 0
        assert count["text"] in out.getvalue(), rules
        assert count["text"].startswith(f"{rules}: ")
        assert ["D1", "W"] in [p[:2] for p in count["points"]]  # the dead stone's point is White's
    request = {**request, "dead": [], "seki": ["D1"]}  # a seki mark is the agreement's too
    seki = json.loads(engine.play(json.dumps(request)))["results"]
    assert all(r["count"] for r in seki)


def test_the_variants_offered_are_every_other_value_of_every_axis(engine):
    axes = json.loads(engine.axes())
    assert "situational" in axes["repetition"] and "forbidden" in axes["pass"]
    position = json.loads(engine.diagram(TRIPLE_KO))["position"]
    variants = [f"chinese:{axis}={value}" for axis, values in axes.items() for value in values[:1]]
    played = [json.loads(engine.play(json.dumps({**position, "rules": [v]}))) for v in variants]
    assert any(p["error"] is None for p in played)
    assert all(p["error"] is None or "chinese" in p["error"] for p in played)


def test_the_front_door_leads_to_both_playgrounds():
    from jpdtools.book.editions import front_door

    front = front_door()
    assert 'href="en/playground.html"' in front and 'href="zh/playground.html"' in front


@pytest.mark.slow  # builds a book
def test_jpd_book_serve_serves_the_book(tmp_path):
    """``jpd book --serve 0`` builds, then serves the book on a free port, saying where."""
    import urllib.request

    out = tmp_path / "book"
    command = [sys.executable, "-m", "jpdtools.cli", "book", "-o", str(out), "--id", "ko.simple.001"]
    process = subprocess.Popen([*command, "--serve", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = ""
        while "serving" not in line:
            line = process.stdout.readline()
            assert line, "jpd book --serve stopped before serving"
        address = line.split(" at ", 1)[1].split("/ ", 1)[0]
        page = urllib.request.urlopen(f"{address}/zh/playground.html", timeout=30).read().decode()
        assert "试验场" in page
    finally:
        process.terminate()
        process.wait(timeout=30)
