"""The committee's quorum (spec/case-format.md#format.quorum), read from ``spec/review-policy.yaml``:
how many members voting alike on the current revision make a decision, and the chair whose vote
alone does. Without the file the quorum is 1 and there is no chair."""

from dataclasses import dataclass
from pathlib import Path

from jpdtools.errors import InputError, Location, read_text_file
from jpdtools.yamlsrc import LocDict, load_yaml_text, location_of

POLICY_FILE = "review-policy.yaml"
POLICY_KEYS = ("format", "quorum", "chair")


@dataclass(frozen=True)
class Policy:
    quorum: int = 1
    chair: str = ""

    def decides(self, voters: set[str]) -> bool:
        """Whether these members, voting alike, make a decision."""
        return len(voters) >= self.quorum or (bool(self.chair) and self.chair in voters)


def load_policy_text(text: str, path: str) -> Policy:
    data = load_yaml_text(text, path)
    if not isinstance(data, LocDict):
        raise InputError(f"a review policy is a mapping: {', '.join(POLICY_KEYS)}", Location(path, 1, 1))
    for key in data:
        if key not in POLICY_KEYS:
            raise InputError(
                f"unknown key {key!r} in a review policy (expected: {', '.join(POLICY_KEYS)})",
                data.key_location(str(key), path),
            )
    if data.get("format") != 1 or type(data.get("format")) is not int:
        raise InputError(
            "expected 'format: 1'",
            data.key_location("format", path) if "format" in data else Location(path, 1, 1),
        )
    quorum = data.get("quorum", 1)
    if type(quorum) is not int or quorum < 1:
        where = location_of(quorum, path) if getattr(quorum, "line", 0) else data.key_location("quorum", path)
        raise InputError(f"'quorum' is a whole number of members, at least 1 (got {quorum!r})", where)
    chair = data.get("chair", "") or ""
    if not isinstance(chair, str) or "\n" in chair:
        raise InputError(f"'chair' names one member (got {chair!r})", data.key_location("chair", path))
    return Policy(quorum, chair.strip())


def load_policy(path: Path) -> Policy:
    """The policy of ``path``; the default (quorum 1) when there is no such file."""
    if not path.is_file():
        return Policy()
    return load_policy_text(read_text_file(path, "review policy"), str(path))
