"""Where the project's data lives: ``spec/`` and ``conformance/`` at the repository root."""

import os
from pathlib import Path

from jpdtools.errors import InputError

ROOT_ENV = "JPD_ROOT"


def project_root() -> Path:
    """The repository root: ``$JPD_ROOT`` if set, else the checkout this package runs from."""
    override = os.environ.get(ROOT_ENV)
    root = Path(override) if override else Path(__file__).resolve().parents[2]
    if not (root / "spec" / "rulesets.yaml").is_file():
        raise InputError(
            f"cannot find spec/rulesets.yaml under {root}: install jipingdian from its checkout "
            f"with 'pip install -e .' or set {ROOT_ENV} to the checkout"
        )
    return root


def spec_dir() -> Path:
    return project_root() / "spec"


def conformance_dir() -> Path:
    return project_root() / "conformance"


def shared_games_dir() -> Path:
    """``../shared/data/games`` beside the checkout (may not exist)."""
    return project_root().parent / "shared" / "data" / "games"
