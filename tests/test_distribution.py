"""The installable distribution: where the data is read from, and jpdref's presets as a library.

The wheel itself is built, installed into a fresh environment and run from another folder by
``.ci/run`` (see docs/implementers.md, "Install"); these tests pin the pieces.
"""

import ast
import fnmatch
import hashlib
import json
import shutil
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from jpdref import rules, specfiles
from jpdref.rules import Rules, RulesError, parse_presets, preset, preset_names, select_ruleset
from jpdtools import paths
from jpdtools.cli import main
from jpdtools.errors import InputError
from jpdtools.exitcodes import ERROR
from jpdtools.presets import load_presets
from jpdtools.suite import identity

REPO = Path(__file__).resolve().parents[1]


# -- jpdref.rules.preset: the presets without jpdtools ------------------------------------------


def test_library_presets_are_the_tools_presets_value_for_value():
    tools = load_presets().rulesets
    library = rules.presets()
    assert [r.name for r in library] == [r.name for r in tools]
    for lib, tool in zip(library, tools, strict=True):
        assert lib == tool
        assert lib.title == tool.title
        assert lib.sources == tool.sources and all(s for _, s in lib.sources)


def test_every_preset_loads_by_name_and_is_a_rules_value():
    names = preset_names()
    assert {"chinese", "japanese", "aga", "ing", "jpd-2022", "tromp-taylor"} <= set(names)
    for name in names:
        assert isinstance(preset(name), Rules) and preset(name).name == name


def test_preset_with_overrides_and_unknown_names():
    variant = preset("chinese:repetition=simple-ko,cycle=draw")
    assert variant.name == "chinese:repetition=simple-ko,cycle=draw"
    assert str(variant.repetition) == "simple-ko" and str(variant.cycle) == "draw"
    assert str(preset("chinese:komi=7.5").komi) == "7.5"
    with pytest.raises(RulesError, match=r"unknown ruleset 'chinse' \(did you mean 'chinese'\?\)"):
        preset("chinse")
    with pytest.raises(RulesError, match="unknown axis 'colour'"):
        preset("chinese:colour=red")
    with pytest.raises(RulesError, match="is not of the form axis=value"):
        preset("chinese:simple-ko")
    with pytest.raises(RulesError, match="is not a value of axis 'repetition'"):
        preset("chinese:repetition=sometimes")


def test_select_ruleset_is_what_the_tools_use():
    presets = load_presets()
    assert presets.get("aga:komi=0") == select_ruleset(rules.presets(), "aga:komi=0")


AXIS_LINES = "\n".join(
    f"    {axis}: [{value}, 'a source']" for axis, value in preset("chinese").values().items()
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("format: 2\nrulesets: {}\n", "expected a mapping with 'format: 1'"),
        ("- a list\n", "expected a mapping with 'format: 1'"),
        ("format: 1\nrulesets:\n  x: 3\n", "ruleset 'x' must be a mapping"),
        ("format: 1\nrulesets:\n  x:\n    pass: allowed\n", r"axis 'pass' of 'x' must be \[value, source\]"),
        ("format: 1\nrulesets:\n  x:\n    pass: [allowed, src]\n", "x: no value for axis 'virtual-move'"),
        (f"format: 1\nrulesets:\n  x:\n{AXIS_LINES.replace('[area', '[areas')}\n", "'areas' is not a value"),
    ],
)
def test_parse_presets_names_the_file_and_the_mistake(text, message):
    with pytest.raises(RulesError, match=message):
        parse_presets(text, "my-rulesets.yaml")
    if "'x'" in message or "format" in message:  # the file's own shape: the file is named first
        with pytest.raises(RulesError, match=r"^my-rulesets\.yaml: "):
            parse_presets(text, "my-rulesets.yaml")


def test_parse_presets_reads_a_well_formed_file():
    (only,) = parse_presets(f"format: 1\nrulesets:\n  mine:\n    title: Mine\n{AXIS_LINES}\n")
    assert only.name == "mine" and only.title == "Mine" and only.values() == preset("chinese").values()


# -- where the data is read from -------------------------------------------------------------


def test_a_checkout_reads_its_own_spec_and_suite(monkeypatch):
    monkeypatch.delenv(paths.ROOT_ENV, raising=False)
    assert specfiles.packaged_spec_dir() is None  # an editable install carries no copy
    assert paths.packaged_suite_dir() is None
    assert paths.checkout_root() == REPO
    assert paths.spec_dir() == REPO / "spec"
    assert paths.spec_file("case.lark") == REPO / "spec" / "case.lark"
    assert paths.conformance_dir() == REPO / "conformance"
    assert paths.shared_games_dir() == REPO.parent / "shared" / "data" / "games"


def test_a_missing_spec_file_is_named(monkeypatch):
    monkeypatch.delenv(paths.ROOT_ENV, raising=False)
    with pytest.raises(
        InputError, match=r"cannot find spec/nothing.yaml: .*/spec/nothing.yaml does not exist"
    ):
        paths.spec_file("nothing.yaml")


def test_jpd_root_names_another_checkout(monkeypatch, tmp_path):
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "rulesets.yaml").write_text((REPO / "spec" / "rulesets.yaml").read_text("utf-8"))
    monkeypatch.setenv(paths.ROOT_ENV, str(tmp_path))
    assert paths.spec_dir() == tmp_path / "spec"
    assert paths.conformance_dir() == tmp_path / "conformance"
    assert paths.checkout_root() == tmp_path
    monkeypatch.setenv(paths.ROOT_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(InputError, match=r"JPD_ROOT=.*nowhere: no spec/rulesets.yaml there"):
        paths.spec_dir()


def fake_installed_package(tmp_path: Path, package: str, data: tuple[str, ...], marker: str) -> Path:
    """A package folder as a wheel installs it, with its data tree holding ``marker``."""
    folder = tmp_path.joinpath(package, *data)
    folder.mkdir(parents=True)
    (folder / marker).write_text("x", encoding="utf-8")
    return tmp_path / package


def test_an_installed_distribution_reads_its_packaged_data(monkeypatch, tmp_path):
    monkeypatch.delenv(paths.ROOT_ENV, raising=False)
    ref = fake_installed_package(tmp_path, "jpdref", specfiles.PACKAGED, specfiles.MARKER)
    tools = fake_installed_package(tmp_path, "jpdtools", paths.PACKAGED_SUITE, "ids.txt")
    packages = {"jpdref": ref, "jpdtools": tools}
    monkeypatch.setattr(specfiles, "files", packages.__getitem__)
    monkeypatch.setattr(paths, "files", packages.__getitem__)
    assert specfiles.spec_dir() == ref / "_data" / "spec"
    assert paths.spec_dir() == ref / "_data" / "spec"
    assert paths.conformance_dir() == tools / "_data" / "conformance"


def test_neither_packaged_nor_a_checkout_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.delenv(paths.ROOT_ENV, raising=False)
    monkeypatch.setattr(specfiles, "files", lambda _: tmp_path)
    monkeypatch.setattr(specfiles, "checkout_root", lambda: None)
    with pytest.raises(specfiles.SpecFilesMissing, match=r"reinstall the distribution"):
        specfiles.spec_dir()
    with pytest.raises(InputError, match=r"specification files are missing"):
        paths.spec_dir()
    monkeypatch.setattr(paths, "files", lambda _: tmp_path)
    monkeypatch.setattr(paths, "checkout_root", lambda: None)
    with pytest.raises(InputError, match=r"cannot find the conformance suite: .*--suite DIR"):
        paths.conformance_dir()


def test_the_build_puts_the_data_where_the_readers_look():
    """setup.py's copy targets are the places jpdref.specfiles and jpdtools.paths read."""
    tree = ast.parse((REPO / "setup.py").read_text(encoding="utf-8"))
    (assign,) = [n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "DATA_TREES"]
    trees = ast.literal_eval(assign.value)
    assert trees == {
        "spec": ("jpdref", *specfiles.PACKAGED),
        "conformance": ("jpdtools", *paths.PACKAGED_SUITE),
        "implementations": ("jpdtools", *paths.PACKAGED_IMPLEMENTATIONS),
        "examples": ("jpdtools", *paths.PACKAGED_EXAMPLES),  # the docs point users at them
    }
    manifest = (REPO / "MANIFEST.in").read_text(encoding="utf-8").split("\n")
    assert {"graft spec", "graft conformance", "graft implementations", "graft examples"} <= set(manifest)
    # the bundled profiles' expected-failure lists (jpd verify --impl gnugo needs no flag)
    (expected,) = [n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "EXPECTED"]
    assert ast.literal_eval(expected.value) == ("jpdtools", *paths.PACKAGED_EXPECTED)
    assert "include reports/*/expected-failures.txt" in manifest
    # the sample of finished games a book of the whole suite studies
    (sample,) = [n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "SAMPLE"]
    assert ast.literal_eval(sample.value) == (paths.SAMPLE_CORPUS, ("jpdtools", *paths.PACKAGED_SAMPLE))
    assert "include " + "/".join(paths.SAMPLE_CORPUS) in manifest


def test_an_installed_distribution_finds_its_implementations(monkeypatch, tmp_path):
    tools = fake_installed_package(tmp_path, "jpdtools", paths.PACKAGED_IMPLEMENTATIONS, "x.txt")
    monkeypatch.setattr(paths, "files", {"jpdtools": tools}.__getitem__)
    monkeypatch.setattr(paths, "checkout_root", lambda: None)
    monkeypatch.delenv(paths.ROOT_ENV, raising=False)
    assert paths.implementations_dir() == tools / "_data" / "implementations"


def test_an_installed_distribution_finds_the_documentations_examples(monkeypatch, tmp_path):
    tools = fake_installed_package(tmp_path, "jpdtools", paths.PACKAGED_EXAMPLES, "ko.txt")
    monkeypatch.setattr(paths, "files", {"jpdtools": tools}.__getitem__)
    monkeypatch.setattr(paths, "checkout_root", lambda: None)
    monkeypatch.delenv(paths.ROOT_ENV, raising=False)
    assert paths.examples_dir() == tools / "_data" / "examples"


def test_an_installed_distribution_finds_a_profiles_expected_failures(monkeypatch, tmp_path):
    tools = fake_installed_package(tmp_path, "jpdtools", paths.PACKAGED_EXPECTED, "gnugo.txt")
    monkeypatch.setattr(paths, "files", {"jpdtools": tools}.__getitem__)
    monkeypatch.setattr(paths, "checkout_root", lambda: None)
    assert paths.bundled_expected_failures("gnugo") == tools / "_data" / "expected" / "gnugo.txt"
    assert paths.bundled_expected_failures("nosuch") is None


# -- which suite ran: version and content hash ------------------------------------------------


def test_the_suite_hash_is_the_sha256sum_manifest(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "b.yaml").write_bytes(b"b\n")
    (tmp_path / "sub" / "a.yaml").write_bytes("ä\n".encode())
    (tmp_path / "notes.txt").write_text("not a case file")
    b, a = hashlib.sha256(b"b\n").hexdigest(), hashlib.sha256("ä\n".encode()).hexdigest()
    assert identity.manifest([tmp_path]) == f"{b}  b.yaml\n{a}  sub/a.yaml\n"
    found = identity.identify([tmp_path])
    assert found.files == 2 and found.version == identity.distribution_version() != "unknown"
    assert found.sha256 == hashlib.sha256(f"{b}  b.yaml\n{a}  sub/a.yaml\n".encode()).hexdigest()
    # a file given by itself is named by its file name; the same file twice counts once
    assert identity.manifest([tmp_path / "sub" / "a.yaml", tmp_path / "sub"]) == f"{a}  a.yaml\n"
    with pytest.raises(InputError, match=r"no such file or directory: .*nothing"):
        identity.identify([tmp_path / "nothing"])


def test_one_changed_byte_changes_the_hash(tmp_path):
    (tmp_path / "x.yaml").write_bytes(b"cases: []\n")
    before = identity.identify([tmp_path]).sha256
    (tmp_path / "x.yaml").write_bytes(b"cases: [] \n")
    assert identity.identify([tmp_path]).sha256 != before


def test_reports_say_which_suite_ran(capsys, tmp_path):
    junit = tmp_path / "out.xml"  # beside the suite's folder: a report inside it is refused
    tmp_path = tmp_path / "suite"
    tmp_path.mkdir()
    shutil.copy(REPO / "conformance" / "ko.yaml", tmp_path / "ko.yaml")
    expected = identity.identify([tmp_path])
    assert (
        main(["run", "--suite", str(tmp_path), "--rules", "japanese", "--json", "--junit", str(junit)]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["suite"] == {
        "distribution": "jipingdian",
        "version": expected.version,
        "sha256": expected.sha256,
        "files": 1,
    }
    assert {r["file"] for r in data["results"]} == {str(tmp_path / "ko.yaml")}
    (testsuite,) = ET.parse(junit).getroot().findall("testsuite")
    properties = {p.get("name"): p.get("value") for p in testsuite.iter("property")}
    assert properties == {
        "jipingdian.version": expected.version,
        "suite.sha256": expected.sha256,
        "suite.files": "1",
    }
    assert main(["run", str(tmp_path / "ko.yaml"), "--rules", "japanese"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == expected.describe() and lines[-1].endswith("OK [jpdref]")
    assert main(["run", str(tmp_path / "ko.yaml"), "--rules", "japanese", "-q"]) == 0
    assert "suite:" not in capsys.readouterr().out


def test_the_default_suite_is_the_installed_or_checkout_one(capsys):
    assert main(["run", "--id", "ko.simple.001", "--rules", "japanese", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["suite"]["sha256"] == identity.identify([paths.conformance_dir()]).sha256
    assert data["suite"]["files"] == len(list(paths.conformance_dir().rglob("*.yaml")))


def test_suite_and_paths_together_are_refused(capsys, tmp_path):
    ko = str(REPO / "conformance" / "ko.yaml")
    assert main(["run", "--suite", str(tmp_path), ko]) == ERROR
    assert "give either --suite DIR or case paths, not both" in capsys.readouterr().err
    assert main(["run", "--suite", str(tmp_path / "nothing")]) == ERROR
    assert "no such file or directory" in capsys.readouterr().err


def test_lint_and_explain_take_a_suite(capsys, tmp_path):
    shutil.copy(REPO / "conformance" / "ko.yaml", tmp_path / "ko.yaml")
    assert main(["explain", "ko.simple.001", "--suite", str(tmp_path), "--rules", "japanese"]) == 0
    assert "ko.simple.001" in capsys.readouterr().out
    assert main(["explain", "ko.simple.001", "--suite", str(tmp_path / "nothing")]) == ERROR
    main(["lint", "--suite", str(tmp_path), "--no-coverage-table"])
    out = capsys.readouterr()
    assert str(tmp_path / "ids.txt") in out.out + out.err  # the ids list is looked for in the suite's folder


def test_version_names_the_version_the_suite_and_the_spec(capsys):
    assert main(["--version"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"jpd (jipingdian) {identity.distribution_version()}"
    assert lines[1] == identity.identify([paths.conformance_dir()]).describe()
    assert lines[2:] == [
        f"cases: {paths.conformance_dir()}",
        f"spec:  {paths.spec_dir()}",
        f"examples: {paths.examples_dir()}",  # the files the documentation's examples read
    ]
    assert (paths.examples_dir() / "ko.txt").is_file()


# -- the library example of docs/implementers.md ---------------------------------------------------


def test_the_documented_library_example_runs_and_prints_what_it_says(capsys):
    readme = (REPO / "docs" / "implementers.md").read_text(encoding="utf-8")
    section = readme.split("## jpdref as a library", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/implementers.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    promised = [line.split("  # ", 1)[1] for line in code.splitlines() if "print(" in line and "  # " in line]
    assert promised == ["W C3 refused occupied", "to-count (two-passes)", "W wins by 7.5 points"]
    for claim in promised:
        assert claim in [line.strip() for line in printed], (claim, printed)


def test_every_non_python_file_of_the_packages_is_declared_package_data():
    """A file a package reads at run time (a stylesheet, a marker) ships only when declared."""
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"
    ]
    for package, folder in (
        ("jpdref", REPO / "refimpl" / "jpdref"),
        ("jpdtools", REPO / "tools" / "jpdtools"),
    ):
        for path in folder.rglob("*"):
            relative = path.relative_to(folder)
            if path.is_dir() or path.suffix in (".py", ".pyc") or relative.parts[0] == "_data":
                continue
            if "node_modules" in relative.parts:  # npm ci installs them beside the programs: not shipped
                continue
            parts = relative.parts  # declared by its package or by a sub-package ("jpdtools.book")
            owners = [(".".join((package, *parts[:k])), "/".join(parts[k:])) for k in range(len(parts))]
            assert any(fnmatch.fnmatch(rest, p) for key, rest in owners for p in declared.get(key, [])), (
                f"{package}/{relative} is not in [tool.setuptools.package-data] of pyproject.toml"
            )
