"""Attacks by planting: a program under test runs as the same user as the checker, so it can write
wherever the user can. Nothing it writes may change what the suite expects: Lark's parser tables,
compiled-suite entries and status proofs kept in the user's cache folder are believed only when
sealed with the user's secret key (jpdtools.diskcache), and the program runs with scratch
home, cache and temporary folders of its own (jpdtools.verify.process)."""

import hashlib
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from jpdtools import diskcache
from jpdtools.paths import conformance_dir, spec_file
from jpdtools.presets import load_presets
from jpdtools.review import statuses
from jpdtools.review.lint import check_statuses
from jpdtools.review.statuses import prove_files
from jpdtools.suite import compiled, grammar
from jpdtools.suite.compiled import CacheDirs, CompiledLoader
from jpdtools.suite.loader import load_case_file, load_case_text
from jpdtools.verify.process import ProgramProcess

PRESETS = load_presets()
KO = conformance_dir() / "ko.yaml"


class _Runs:
    """A pickle that runs a shell command when it is unpickled."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


def _env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("JPD_CACHE_DIR", "JPD_CACHE", "JPD_PROOF_CACHE")}
    env["XDG_CACHE_HOME"] = str(cache)
    return env


PARSE = textwrap.dedent(
    """
    from jpdtools.presets import load_presets
    from jpdtools.suite.loader import load_case_file
    from jpdtools.suite.compiled import CacheDirs
    import sys
    from pathlib import Path
    print(len(load_case_file(Path(sys.argv[1]), load_presets(dirs=CacheDirs())).cases))
    """
)


def test_a_planted_lark_cache_runs_nothing(tmp_path):
    """A pickle at Lark's own cache name and one at the parser tables' entry name (sealed with a
    plain digest, as anyone can): parsing a case runs neither, and parses right."""
    cache = tmp_path / "cache"
    marker = tmp_path / "ran"
    evil = pickle.dumps(_Runs(f"touch {marker}"))
    folder = cache / "jipingdian"
    (folder / "suite").mkdir(parents=True)
    version = f"{sys.version_info[0]}{sys.version_info[1]}"
    (folder / f"case-grammar-py{version}.lark").write_bytes(b"0" * 64 + b"\n" + evil + evil)
    key = grammar._parser_key(spec_file("case.lark").read_text(encoding="utf-8"))
    payload = evil
    forged = diskcache.MAGIC + key + hashlib.sha256(payload).digest() + payload
    (folder / "suite" / f"lark-{key.hex()}.entry").write_bytes(forged)
    done = subprocess.run(
        [sys.executable, "-c", PARSE, str(KO)], env=_env(cache), capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len(load_case_file(KO, PRESETS).cases)
    assert not marker.exists()
    # the forged entry was replaced by a sealed one the next start reads back
    secret = diskcache.secret_key(folder / "suite")
    entry = (folder / "suite" / f"lark-{key.hex()}.entry").read_bytes()
    assert diskcache.decode(entry, key, frozenset(), None, secret) is not None


def _forged_entry(path: Path, secret: bytes | None) -> tuple[str, bytes]:
    """An entry for ``path`` keyed as the loader keys it, with every case but the first left out."""
    real = load_case_file(path, PRESETS)
    short = type(real)(**{**vars(real), "cases": real.cases[:1]})
    fingerprint = compiled.loader_fingerprint(spec_file("case.lark"))
    key = compiled.entry_key(fingerprint, compiled.presets_digest(PRESETS), path.read_bytes())
    data = diskcache.encode(compiled.Entry(short), key, str(path), secret)
    assert data is not None
    return key.hex() + ".entry", data


@pytest.mark.parametrize("forger", ["plain digest", "another key"])
def test_a_compiled_entry_written_without_the_key_is_not_believed(tmp_path, forger):
    folder = tmp_path / "suite"
    secret = diskcache.secret_key(folder)
    assert secret is not None and (os.stat(folder / diskcache.KEY_FILE).st_mode & 0o777) == 0o600
    name, data = _forged_entry(KO, None if forger == "plain digest" else os.urandom(32))
    (folder / name).write_bytes(data)
    loader = CompiledLoader(CacheDirs((folder,), folder, secret))
    loaded = loader.load_case_file(KO, PRESETS)
    assert loader.parsed == [str(KO)]
    assert len(loaded.cases) == len(load_case_file(KO, PRESETS).cases) > 1
    # and the entry it wrote in its place is believed by the next load
    again = CompiledLoader(CacheDirs((folder,), folder, secret))
    assert len(again.load_case_file(KO, PRESETS).cases) == len(loaded.cases) and again.parsed == []


def test_the_user_cache_folder_is_sealed_by_default(tmp_path, monkeypatch):
    for name in ("JPD_CACHE_DIR", "JPD_CACHE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    dirs = diskcache.cache_dirs()
    assert dirs.write == tmp_path / "jipingdian" / "suite" and dirs.secret is not None
    name, data = _forged_entry(KO, None)
    (dirs.write / name).write_bytes(data)
    loader = CompiledLoader(dirs)
    assert len(loader.load_case_file(KO, PRESETS).cases) > 1 and loader.parsed == [str(KO)]


@pytest.mark.parametrize("flaw", ["readable by others", "a link", "short"])
def test_a_key_file_others_could_read_or_replace_turns_the_user_folder_off(tmp_path, monkeypatch, flaw):
    folder = tmp_path / "jipingdian" / "suite"
    folder.mkdir(parents=True)
    key = folder / diskcache.KEY_FILE
    if flaw == "a link":
        (tmp_path / "elsewhere").write_bytes(os.urandom(32))
        (tmp_path / "elsewhere").chmod(0o600)
        key.symlink_to(tmp_path / "elsewhere")
    else:
        key.write_bytes(os.urandom(32 if flaw == "readable by others" else 8))
        key.chmod(0o644 if flaw == "readable by others" else 0o600)
    assert diskcache.secret_key(folder) is None
    for name in ("JPD_CACHE_DIR", "JPD_CACHE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    dirs = diskcache.cache_dirs()
    assert folder not in dirs.read and dirs.write is None


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_fifo_or_a_device_at_an_entry_name_is_not_read(tmp_path, kind):
    folder = tmp_path / "suite"
    secret = diskcache.secret_key(folder)
    fingerprint = compiled.loader_fingerprint(spec_file("case.lark"))
    key = compiled.entry_key(fingerprint, compiled.presets_digest(PRESETS), KO.read_bytes())
    if kind == "fifo":
        os.mkfifo(folder / (key.hex() + ".entry"))
    else:
        (folder / (key.hex() + ".entry")).symlink_to("/dev/zero")
    loader = CompiledLoader(CacheDirs((folder,), folder, secret))
    assert len(loader.load_case_file(KO, PRESETS).cases) > 1 and loader.parsed == [str(KO)]


# -- the status-proof cache ---------------------------------------------------------------------------
CASE = """\
format: 1
cases:
  - id: test.seki
    title: a seki with a two-point eye against a one-point eye
    spec: [count.status]
    seeds: ["J1989 Art. 7"]
    rules: [japanese]
    board: |
      5x4
{rows}
    moves: ""
    agreement:
      seki: B1 D1
    expect:
      japanese: |
        count: winner W margin -6.5 black 0 white 0
"""
SEKI = ". X . O O/. X . O ./X X . O O/X X . O O"
RACE = ". X . O O/. X . O O/X X . O O/X X . O O"


def _case(rows: str):
    text = CASE.format(rows="\n".join("      " + r for r in rows.split("/")))
    return load_case_text(text, "t.yaml", PRESETS)


def test_a_planted_proof_does_not_pass_a_disproven_mark(tmp_path, monkeypatch):
    cache = tmp_path / "proofs"
    monkeypatch.setenv("JPD_PROOF_CACHE", str(cache))
    assert check_statuses(prove_files([_case(SEKI)], PRESETS)) == []
    (held,) = cache.glob("*.json")
    held_text = held.read_bytes().partition(b"\n")[2]
    held.unlink()
    assert len(check_statuses(prove_files([_case(RACE)], PRESETS))) == 1
    (race,) = cache.glob("*.json")
    secret = diskcache.secret_key(cache)
    for forged in (
        held_text,  # the proofs of a seki that holds, bare
        hashlib.sha256(held_text).hexdigest().encode() + b"\n" + held_text,  # with a public digest
        statuses._seal(held.stem, held_text, secret) + b"\n" + held_text,  # sealed for another key
    ):
        race.write_bytes(forged)
        problems = check_statuses(prove_files([_case(RACE)], PRESETS))
        assert len(problems) == 1 and "is disproven" in str(problems[0])


def test_the_proof_cache_lives_under_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.delenv("JPD_PROOF_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert statuses.cache_dir() == tmp_path / "jipingdian" / "status-proofs"
    prove_files([_case(SEKI)], PRESETS)
    assert list((tmp_path / "jipingdian" / "status-proofs").glob("*.json"))


# -- the program under test ---------------------------------------------------------------------------
def test_the_program_under_test_gets_scratch_folders_of_its_own(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "mine"))
    monkeypatch.setenv("JPD_CACHE_DIR", str(tmp_path / "mine" / "suite"))
    script = (
        'mkdir -p "$XDG_CACHE_HOME/jipingdian/suite"; '
        'echo x > "$XDG_CACHE_HOME/jipingdian/suite/planted.entry"; '
        'echo "$HOME|$XDG_CACHE_HOME|$TMPDIR|${JPD_CACHE_DIR-unset}"; '
        "read line"
    )
    proc = ProgramProcess(["sh", "-c", script], 4096)
    try:
        line = proc.read_until(lambda b: b.find(b"\n") + 1 if b"\n" in b else -1, 1e9).decode().strip()
        home, cache, temporary, jpd = line.split("|")
        scratch = Path(proc.scratch)
        assert all(Path(p).parent == scratch for p in (home, cache, temporary))
        assert jpd == "unset" and str(tmp_path) not in line
        assert (Path(cache) / "jipingdian" / "suite" / "planted.entry").exists()
    finally:
        proc.kill()
    assert not scratch.exists() and not (tmp_path / "mine").exists()
