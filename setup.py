"""The build step that puts ``spec/`` and ``conformance/`` into the distribution as package data.

The repository keeps one copy of the specification's files (``spec/``), of the conformance suite
(``conformance/``) and of the third-party programs ``jpd verify --impl NAME`` runs
(``implementations/``), and the files the documentation's examples read (``examples/``). A wheel
carries them as ``jpdref/_data/spec``, ``jpdtools/_data/conformance``, ``jpdtools/_data/implementations``
and ``jpdtools/_data/examples`` (``jpd --version`` names that folder),
copied into the build directory here; the sdist carries the folders as they are (``MANIFEST.in``),
so a wheel built from it is the same. An editable install copies nothing: it reads the checkout.
Everything else about the distribution is declared in ``pyproject.toml``.
"""

import os
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
COMPILED = ("jpdtools", "_data", "compiled")
"""Where the compiled suite goes (read by jpdtools.suite.compiled.packaged_dir)."""
DATA_TREES = {
    "spec": ("jpdref", "_data", "spec"),
    "conformance": ("jpdtools", "_data", "conformance"),
    "implementations": ("jpdtools", "_data", "implementations"),
    "examples": ("jpdtools", "_data", "examples"),
}
"""Repository folder → where its files go inside the built packages (read by jpdref.specfiles and
jpdtools.paths; ``implementations/`` without the ``node_modules`` that ``npm ci`` puts there)."""
SKIPPED = ("__pycache__", "node_modules")
EXPECTED = ("jpdtools", "_data", "expected")
"""Where ``reports/NAME/expected-failures.txt`` goes, as ``NAME.txt``
(jpdtools.paths.bundled_expected_failures)."""
SAMPLE = (
    ("benchmarks", "corpus", "gnugo-sample.tar.xz"),
    ("jpdtools", "_data", "corpus", "gnugo-sample.tar.xz"),
)
"""The sample of finished games a book of the whole suite studies (jpdtools.paths.sample_corpus)."""


class BuildPyWithData(build_py):
    """``build_py``, then every file of the data trees copied into the build directory."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for source, target in DATA_TREES.items():
            tree = ROOT / source
            if not tree.is_dir():
                raise SystemExit(f"setup.py: {tree} is missing: build from the repository or its sdist")
            for path in sorted(p for p in tree.rglob("*") if p.is_file() and not set(SKIPPED) & set(p.parts)):
                dest = Path(self.build_lib, *target, path.relative_to(tree))
                self.mkpath(str(dest.parent))
                self.copy_file(str(path), str(dest))
        for listed in sorted((ROOT / "reports").glob("*/expected-failures.txt")):
            dest = Path(self.build_lib, *EXPECTED, f"{listed.parent.name}.txt")
            self.mkpath(str(dest.parent))
            self.copy_file(str(listed), str(dest))
        sample, dest = ROOT.joinpath(*SAMPLE[0]), Path(self.build_lib, *SAMPLE[1])
        if sample.is_file():
            self.mkpath(str(dest.parent))
            self.copy_file(str(sample), str(dest))
        self.compile_suite()

    def compile_suite(self) -> None:
        """The loaded case model of the packaged suite, compiled by the built packages themselves
        (so its keys are those of the installed files): ``jpd run`` on an installed distribution
        parses nothing."""
        lib = Path(self.build_lib).resolve()
        suite = lib.joinpath(*DATA_TREES["conformance"])
        out = lib.joinpath(*COMPILED)
        script = "import sys; from pathlib import Path; from jpdtools.suite.compiled import build; "
        script += "print(build(Path(sys.argv[1]), Path(sys.argv[2])), 'case files compiled')"
        path = os.pathsep.join(p for p in (str(lib), os.environ.get("PYTHONPATH", "")) if p)
        env = {**os.environ, "PYTHONPATH": path}
        subprocess.run([sys.executable, "-c", script, str(suite), str(out)], check=True, env=env, cwd=lib)


setup(cmdclass={"build_py": BuildPyWithData})
