"""The compiled suite (jpdtools.suite.compiled): a loaded case file is kept on disk and reused only
while the file, the presets, the grammar and the loader are what they were; anything else —
an edit, a rename, a corrupt, truncated, foreign or older entry, an unwritable folder,
concurrent writers — parses again or still loads, and never gives a stale model."""

import os
import pickle
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from jpdtools import diskcache
from jpdtools.paths import conformance_dir, spec_file
from jpdtools.presets import load_presets
from jpdtools.run.runner import Filters, SuiteLoader, load_files, plan_paths
from jpdtools.suite import compiled
from jpdtools.suite.compiled import CacheDirs, CompiledLoader
from jpdtools.suite.loader import load_case_file
from jpdtools.suite.selection import resolve

PRESETS = load_presets()
SUITE = conformance_dir()
KO = SUITE / "ko.yaml"
ERRORS = SUITE / "format-errors.yaml"

CASE = """\
format: 1
cases:
  - id: t.edit.001
    title: a stone on an empty board
    spec: [play.move]
    seeds: ["000 §1"]
    size: 5
    moves: B C3
    expect:
      default: |
        1: legal
"""


def loader(folder: Path, *read: Path) -> CompiledLoader:
    return CompiledLoader(CacheDirs((*read, folder), folder))


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.entry"))


def the_entry(folder: Path) -> Path:
    (entry,) = entries(folder)
    return entry


def write_case(path: Path, verdict: str = "1: legal") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(CASE.replace("1: legal", verdict), encoding="utf-8")
    return path


# -- the model is the loader's --------------------------------------------------------------------
def test_every_case_file_of_the_suite_comes_back_as_the_loader_made_it(tmp_path):
    files = sorted(SUITE.glob("*.yaml"))
    first = loader(tmp_path)
    made = [first.load_case_file(f, PRESETS) for f in files]
    assert first.parsed == [str(f) for f in files]
    again = loader(tmp_path)
    kept = [again.load_case_file(f, PRESETS) for f in files]
    assert again.parsed == []  # every file from its entry
    for path, a, b in zip(files, made, kept, strict=True):
        direct = load_case_file(path, PRESETS)
        assert a == direct and b == direct
        assert repr(b) == repr(direct)  # locations (compare=False fields) included


def test_error_cases_are_judged_once_and_kept_with_their_file(tmp_path):
    calls = []

    def check(case, presets):
        calls.append(case.id)
        return compiled._default_check_error_case(case, presets)

    first = CompiledLoader(CacheDirs((tmp_path,), tmp_path), check=check)
    case_file = first.load_case_file(ERRORS, PRESETS)
    error_cases = [c for c in case_file.cases if c.load_error is not None]
    assert error_cases and len(calls) == len(error_cases)
    again = CompiledLoader(CacheDirs((tmp_path,), tmp_path), check=check)
    kept = again.load_case_file(ERRORS, PRESETS)
    outcomes = [again.check_error_case(c, PRESETS) for c in kept.cases if c.load_error is not None]
    assert len(calls) == len(error_cases)  # nothing judged again
    assert all(ok for ok, _ in outcomes)


# -- invalidation -----------------------------------------------------------------------------------
def test_an_edited_case_is_parsed_again_and_its_new_expectation_seen_at_once(tmp_path):
    cache, suite = tmp_path / "cache", tmp_path / "suite"
    case = write_case(suite / "t.yaml")
    runner_loader = SuiteLoader(loader(cache).load_case_file, resolve, loader(cache).check_error_case)
    before = plan_paths([suite], PRESETS, Filters(), runner_loader)
    assert before.items[0].expectation.text.strip() == "1: legal"
    write_case(case, "1: illegal occupied")
    fresh = loader(cache)
    after = plan_paths(
        [suite], PRESETS, Filters(), SuiteLoader(fresh.load_case_file, resolve, fresh.check_error_case)
    )
    assert fresh.parsed == [str(case)]
    assert after.items[0].expectation.text.strip() == "1: illegal occupied"


def test_an_edit_that_keeps_size_and_time_is_still_seen(tmp_path):
    case = write_case(tmp_path / "suite" / "t.yaml", "1: legal")
    stat = case.stat()
    loader(tmp_path / "cache").load_case_file(case, PRESETS)
    write_case(case, "1: Legal")  # same length, same modification time
    os.utime(case, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(Exception, match="verdict"):
        loader(tmp_path / "cache").load_case_file(case, PRESETS)


def test_added_removed_and_renamed_files(tmp_path):
    cache, suite = tmp_path / "cache", tmp_path / "suite"
    suite.mkdir()
    shutil.copy(KO, suite / "ko.yaml")
    first = loader(cache)
    load_files([suite], PRESETS, SuiteLoader(first.load_case_file, resolve, first.check_error_case))
    assert first.parsed == [str(suite / "ko.yaml")]

    write_case(suite / "added.yaml")  # added: only the new file is parsed
    added = loader(cache)
    files, failures = load_files(
        [suite], PRESETS, SuiteLoader(added.load_case_file, resolve, added.check_error_case)
    )
    assert not failures and [Path(f.path).name for f in files] == ["added.yaml", "ko.yaml"]
    assert added.parsed == [str(suite / "added.yaml")]

    (suite / "added.yaml").unlink()  # removed: gone from the suite, the rest from entries
    removed = loader(cache)
    files, _ = load_files(
        [suite], PRESETS, SuiteLoader(removed.load_case_file, resolve, removed.check_error_case)
    )
    assert [Path(f.path).name for f in files] == ["ko.yaml"] and removed.parsed == []

    (suite / "ko.yaml").rename(suite / "renamed.yaml")  # renamed: the same bytes, the new path everywhere
    renamed = loader(cache)
    (case_file,) = load_files(
        [suite], PRESETS, SuiteLoader(renamed.load_case_file, resolve, renamed.check_error_case)
    )[0]
    assert renamed.parsed == []
    assert case_file.path == str(suite / "renamed.yaml")
    assert "ko.yaml'" not in repr(case_file) and str(suite / "renamed.yaml") in repr(
        case_file.cases[0].location
    )
    assert repr(case_file) == repr(load_case_file(suite / "renamed.yaml", PRESETS))


def test_a_suite_in_another_folder_uses_the_entries_with_its_own_paths(tmp_path):
    cache = tmp_path / "cache"
    loader(cache).load_case_file(KO, PRESETS)
    other = tmp_path / "elsewhere" / "ko.yaml"
    other.parent.mkdir()
    shutil.copy(KO, other)
    again = loader(cache)
    case_file = again.load_case_file(other, PRESETS)
    assert again.parsed == []
    assert repr(case_file) == repr(load_case_file(other, PRESETS))
    assert str(KO) not in repr(case_file)


def test_an_entry_under_another_files_name_is_not_used(tmp_path):
    cache = tmp_path / "cache"
    case = write_case(tmp_path / "t.yaml")
    loader(cache).load_case_file(KO, PRESETS)
    ko_entry = the_entry(cache)
    loader(cache).load_case_file(case, PRESETS)
    (case_entry,) = set(entries(cache)) - {ko_entry}
    shutil.copy(ko_entry, case_entry)  # the ko file's entry where the small file's should be
    again = loader(cache)
    case_file = again.load_case_file(case, PRESETS)
    assert again.parsed == [str(case)] and [c.id for c in case_file.cases] == ["t.edit.001"]


def test_other_presets_make_another_entry(tmp_path):
    changed = spec_file("rulesets.yaml").read_text(encoding="utf-8").replace("title:", "title: changed", 1)
    other_file = tmp_path / "rulesets.yaml"
    other_file.write_text(changed, encoding="utf-8")
    other = load_presets(other_file)
    assert other != PRESETS
    loader(tmp_path / "cache").load_case_file(KO, PRESETS)
    again = loader(tmp_path / "cache")
    again.load_case_file(KO, other)
    assert again.parsed == [str(KO)] and len(entries(tmp_path / "cache")) == 2


def test_a_changed_grammar_parses_again(tmp_path):
    root = tmp_path / "checkout"
    shutil.copytree(spec_file("case.lark").parent, root / "spec")
    (root / "conformance").mkdir()
    shutil.copy(KO, root / "conformance" / "ko.yaml")
    script = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from jpdtools.presets import load_presets
        from jpdtools.suite.compiled import CacheDirs, CompiledLoader
        cache = Path(sys.argv[1])
        loader = CompiledLoader(CacheDirs((cache,), cache))
        loader.load_case_file(Path(sys.argv[2]), load_presets())
        print(len(loader.parsed))
        """
    )
    env = {**os.environ, "JPD_ROOT": str(root)}

    def parsed() -> str:
        args = [sys.executable, "-c", script, str(tmp_path / "cache"), str(root / "conformance" / "ko.yaml")]
        return subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout.strip()

    assert parsed() == "1" and parsed() == "0"
    with (root / "spec" / "case.lark").open("a", encoding="utf-8") as grammar:
        grammar.write("\n// a comment changes the grammar's bytes\n")
    assert parsed() == "1" and parsed() == "0"
    assert len(entries(tmp_path / "cache")) == 2


def test_a_changed_loader_parses_again(tmp_path, monkeypatch):
    loader(tmp_path).load_case_file(KO, PRESETS)
    monkeypatch.setattr(diskcache, "code_digest", lambda: "another version of the loader")
    again = loader(tmp_path)
    again.load_case_file(KO, PRESETS)
    assert again.parsed == [str(KO)] and len(entries(tmp_path)) == 2


def test_the_fingerprint_covers_every_module_loading_imports():
    script = textwrap.dedent(
        """
        import sys
        from jpdtools.presets import load_presets
        from jpdtools.paths import conformance_dir
        from jpdtools.suite.loader import load_case_file, check_error_case
        from jpdtools.diskcache import code_sources
        presets = load_presets()
        for path in sorted(conformance_dir().glob("*.yaml")):
            for case in load_case_file(path, presets).cases:
                if case.load_error is not None:
                    check_error_case(case, presets)
        covered = {str(p) for _, p in code_sources()}
        for name, module in sorted(sys.modules.items()):
            if name.split(".")[0] in ("jpdtools", "jpdref") and getattr(module, "__file__", None):
                from pathlib import Path
                if str(Path(module.__file__).resolve()) not in covered:
                    print(name)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout == ""


def test_the_fingerprint_changes_with_any_source_file(tmp_path, monkeypatch):
    source = tmp_path / "module.py"
    source.write_text("x = 1\n", encoding="utf-8")
    monkeypatch.setattr(diskcache, "code_sources", lambda: [("jpdtools/module.py", source)])
    diskcache.code_digest.cache_clear()
    try:
        before = diskcache.code_digest()
        source.write_text("x = 2\n", encoding="utf-8")
        diskcache.code_digest.cache_clear()
        assert diskcache.code_digest() != before
    finally:
        diskcache.code_digest.cache_clear()


# -- damaged, foreign and older entries --------------------------------------------------------------
def _reloads(cache: Path) -> CompiledLoader:
    again = loader(cache)
    case_file = again.load_case_file(KO, PRESETS)
    assert repr(case_file) == repr(load_case_file(KO, PRESETS))
    return again


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[: len(data) // 2], id="truncated"),
        pytest.param(lambda data: data[:40], id="truncated-in-header"),
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(lambda data: data[:-100] + bytes([data[-100] ^ 1]) + data[-99:], id="a-flipped-bit"),
        pytest.param(lambda data: b"JPDCASE0" + data[8:], id="another-format"),
        pytest.param(lambda data: os.urandom(len(data)), id="noise"),
    ],
)
def test_a_damaged_entry_is_ignored_and_rebuilt(tmp_path, damage):
    loader(tmp_path).load_case_file(KO, PRESETS)
    entry = the_entry(tmp_path)
    entry.write_bytes(damage(entry.read_bytes()))
    again = _reloads(tmp_path)
    assert again.parsed == [str(KO)]
    assert compiled.decode(entry.read_bytes(), bytes.fromhex(entry.stem), str(KO)) is not None  # rewritten
    assert _reloads(tmp_path).parsed == []


class _Payload:
    """A pickle that would run a command when unpickled."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


@pytest.mark.parametrize("what", ["a-command", "another-class"])
def test_a_foreign_pickle_with_a_valid_header_is_refused_not_run(tmp_path, what):
    import hashlib

    cache = tmp_path / "cache"
    loader(cache).load_case_file(KO, PRESETS)
    entry = the_entry(cache)
    marker = tmp_path / "ran"
    thing = _Payload(marker) if what == "a-command" else {"case_file": Path("x")}
    payload = pickle.dumps(thing, protocol=5)
    key = bytes.fromhex(entry.stem)
    entry.write_bytes(diskcache.MAGIC + key + hashlib.sha256(payload).digest() + payload)
    again = _reloads(cache)
    assert again.parsed == [str(KO)] and not marker.exists()


def test_a_valid_pickle_of_something_else_is_not_an_entry(tmp_path):
    import hashlib

    loader(tmp_path).load_case_file(KO, PRESETS)
    entry = the_entry(tmp_path)
    payload = pickle.dumps(("not", "an", "entry"), protocol=5)
    entry.write_bytes(
        diskcache.MAGIC + bytes.fromhex(entry.stem) + hashlib.sha256(payload).digest() + payload
    )
    assert _reloads(tmp_path).parsed == [str(KO)]


# -- where entries are written --------------------------------------------------------------------
def test_an_unwritable_cache_folder_still_loads_every_time(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    folder = blocker / "cache"  # cannot be made: its parent is a file
    for _ in range(2):
        unwritable = loader(folder)
        assert repr(unwritable.load_case_file(KO, PRESETS)) == repr(load_case_file(KO, PRESETS))
        assert unwritable.parsed == [str(KO)]


def test_a_read_only_folder_of_entries_is_read(tmp_path):
    shipped, user = tmp_path / "shipped", tmp_path / "user"
    loader(shipped).load_case_file(KO, PRESETS)
    reader = CompiledLoader(CacheDirs((shipped, user), user))
    reader.load_case_file(KO, PRESETS)
    assert reader.parsed == [] and not user.exists()  # nothing written where it was found


def test_no_cache_when_switched_off_and_the_folder_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("JPD_CACHE", "off")
    assert diskcache.cache_dirs() == CacheDirs()
    monkeypatch.delenv("JPD_CACHE")
    monkeypatch.setenv("JPD_CACHE_DIR", str(tmp_path))
    assert diskcache.cache_dirs().write == tmp_path
    monkeypatch.delenv("JPD_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert diskcache.cache_dirs().write == tmp_path / "xdg" / "jipingdian" / "suite"


def test_a_file_that_does_not_load_is_an_error_each_time_and_not_kept(tmp_path):
    bad = write_case(tmp_path / "bad.yaml", "1: legall")
    for _ in range(2):
        with pytest.raises(Exception, match=r"bad\.yaml:11"):
            loader(tmp_path / "cache").load_case_file(bad, PRESETS)
    assert not entries(tmp_path / "cache")


def test_old_entries_beyond_the_limit_are_removed(tmp_path):
    names = [f"{n:064x}.entry" for n in range(5)]
    for n, name in enumerate(names):
        (tmp_path / name).write_bytes(b"x")
        os.utime(tmp_path / name, (n, n))
    diskcache._prune(tmp_path, keep=3)
    assert [p.name for p in entries(tmp_path)] == names[2:]


def test_the_cache_prunes_only_its_own_files(tmp_path):
    """``JPD_CACHE_DIR`` pointed at a folder of the user's files: pruning removes none of them."""
    theirs = ["notes.part", "draft.entry", "a.b.part", "x" * 64 + ".entry", "report.json"]
    for n, name in enumerate(theirs):
        (tmp_path / name).write_bytes(b"mine")
        os.utime(tmp_path / name, (n, n))
    ours = tmp_path / ("f" * 64 + ".entry")
    ours.write_bytes(b"x")
    os.utime(ours, (0, 0))
    (tmp_path / ("e" * 64 + ".entry")).symlink_to(tmp_path / "report.json")
    diskcache._prune(tmp_path, keep=0)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*theirs, "e" * 64 + ".entry"])


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from jpdtools.presets import load_presets
    from jpdtools.suite.compiled import CacheDirs, CompiledLoader
    cache = Path(sys.argv[1])
    print(repr(CompiledLoader(CacheDirs((cache,), cache)).load_case_file(Path(sys.argv[2]), load_presets())))
    """
)


def test_concurrent_writers_leave_one_whole_entry(tmp_path):
    cache = tmp_path / "cache"
    expected = repr(load_case_file(KO, PRESETS))
    args = [sys.executable, "-c", WRITER, str(cache), str(KO)]
    writers = [subprocess.Popen(args, stdout=subprocess.PIPE, text=True) for _ in range(6)]
    outputs = [w.communicate(timeout=600)[0].strip() for w in writers]
    assert [w.returncode for w in writers] == [0] * 6
    assert all(out == expected for out in outputs)
    assert not list(cache.glob("*.part"))
    entry = the_entry(cache)
    assert compiled.decode(entry.read_bytes(), bytes.fromhex(entry.stem), str(KO)) is not None
    assert _reloads(cache).parsed == []


# -- the presets, kept the same way ---------------------------------------------------------------
def test_the_presets_are_kept_and_a_changed_presets_file_is_read_again(tmp_path):
    rulesets = tmp_path / "rulesets.yaml"
    shutil.copy(spec_file("rulesets.yaml"), rulesets)
    dirs = CacheDirs((tmp_path / "cache",), tmp_path / "cache")
    first = load_presets(rulesets, dirs)
    assert first == PRESETS and len(entries(tmp_path / "cache")) == 1
    assert load_presets(rulesets, dirs) == first
    the_entry(tmp_path / "cache").write_bytes(b"JPDCASE1 damaged")
    assert load_presets(rulesets, dirs) == first  # a damaged entry: parsed again
    rulesets.write_text(
        rulesets.read_text(encoding="utf-8").replace("title:", "title: X", 1), encoding="utf-8"
    )
    changed = load_presets(rulesets, dirs)
    assert changed != first and changed.rulesets[0].title.startswith("X")


def test_play_reads_the_presets_without_pyyaml(tmp_path):
    script = (
        "import sys; from jpdtools.cli import main; "
        "main(['play', '--size', '9', '--rules', 'chinese', '--moves', 'B E5']); "
        "print('yaml' in sys.modules)"
    )
    env = {**os.environ, "JPD_CACHE_DIR": str(tmp_path)}
    run = [sys.executable, "-c", script]
    first = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
    again = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
    assert first.splitlines()[-1] == "True" and again.splitlines()[-1] == "False"
