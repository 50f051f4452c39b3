"""What a GTP engine can be told and what it can play: engine profiles.

A :class:`GtpProfile` maps each axis value it supports to the command-line flags that make the
engine play it; a value missing from the map is not supported (the plan is skipped, never
passed). The flags of one ruleset form its *flag set*; the adapter runs one engine process per
distinct flag set (GNU Go takes its rules only on the command line).

The GTP referee (see :mod:`jpdtools.verify.gtp.adapter`) does what GTP leaves to the controller — turn
order, the illegal-move policy applied to a refusal, virtual moves, resignation — and the claims
that only the referee could decide are left out of the comparison (:mod:`jpdtools.verify.gtp.limits`).

In the vocabulary of rule features (spec/contract.md#contract.features) a profile has every
feature but those it cannot play at all (:meth:`GtpProfile.features`): ``non-square`` for a
square-only engine, ``free-handicap`` unless the referee may place free handicap stones, and
whatever the profile's ``lacks`` adds; an item needing one of them is skipped, naming it. The
features the referee supplies (:data:`REFEREE_FEATURES`) are played — the item runs — but what
only the referee decides is not compared; ``counting`` and ``settling`` are asked only where the
engine can be told everything (:func:`jpdtools.verify.gtp.limits.count_refusal`), and left out
with the reason elsewhere.

The profiles of the engines ``jpd verify --impl NAME`` knows (GNU Go) are data: the manifest of
``implementations/NAME/`` (:func:`from_manifest`; what each flag means is in that folder's
README).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from jpdref.rules import Rules

from jpdtools.run.features import ALL_FEATURES

# the features the referee plays for a GTP engine, whose claims are therefore not compared
REFEREE_FEATURES = frozenset(
    {
        "turn-order",
        "end-of-play",
        "illegal-move-refuse",
        "illegal-move-void-pass",
        "illegal-move-loss",
        "resignation",
        "cycle-verdict",
        "virtual-moves",
    }
)


@dataclass(frozen=True)
class GtpProfile:
    """How to start an engine and tell it the rules.

    ``axes``: axis → value → flags; an axis absent from the map is unrestricted (no flags).
    ``scoring``: counting method (axis ``counting``) → flags (``"*"`` is the default).
    ``counted``: the counting methods ``final_score`` is asked for (empty: the count is never
    asked). ``free_handicap``: whether the referee may place free handicap stones (GNU Go: no,
    see DEVIATIONS.md).
    """

    name: str
    command: tuple[str, ...]
    axes: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    scoring: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    max_size: int | None = None
    square_only: bool = True
    uses_loadsgf: bool = False
    has_is_legal: bool = True
    free_handicap: bool = False
    counted: frozenset[str] = frozenset()
    lacks: frozenset[str] = frozenset()  # rule features the engine lacks beyond those GTP implies

    def features(self) -> frozenset[str]:
        """The rule features items may need to be played through this profile."""
        missing = set(self.lacks)
        if self.square_only:
            missing.add("non-square")
        if not self.free_handicap:
            missing.add("free-handicap")
        return ALL_FEATURES - missing

    def flags(self, rules: Rules) -> tuple[str, ...]:
        """The engine flags for ``rules`` (call only for supported rules)."""
        out: list[str] = []
        method = str(rules.value("counting"))
        out.extend(self.scoring.get(method, self.scoring.get("*", ())))
        for axis, values in self.axes.items():
            out.extend(values.get(str(rules.value(axis)), ()))
        return tuple(out)

    def argv(self, rules: Rules) -> tuple[str, ...]:
        return (*self.command, *self.flags(rules))


def _frozen(table: dict[str, dict[str, tuple[str, ...]]]) -> Mapping[str, Mapping[str, tuple[str, ...]]]:
    return MappingProxyType({k: MappingProxyType(v) for k, v in table.items()})


def from_manifest(name: str, command: tuple[str, ...], profile: dict) -> GtpProfile:
    """The profile an implementation's manifest declares (``implementations/NAME/implementation.json``,
    :mod:`jpdtools.verify.implementations`): ``command`` is the engine's binary and arguments,
    ``profile`` the fields of :class:`GtpProfile` (``axes`` and ``scoring`` map values to flag lists)."""
    axes = {
        axis: {value: tuple(flags) for value, flags in values.items()}
        for axis, values in profile.get("axes", {}).items()
    }
    scoring = {method: tuple(flags) for method, flags in profile.get("scoring", {}).items()}
    return GtpProfile(
        name=name,
        command=tuple(command),
        axes=_frozen(axes),
        scoring=MappingProxyType(scoring),
        max_size=profile.get("max_size"),
        square_only=profile.get("square_only", True),
        uses_loadsgf=profile.get("uses_loadsgf", False),
        has_is_legal=profile.get("has_is_legal", True),
        free_handicap=profile.get("free_handicap", False),
        counted=frozenset(profile.get("counted", ())),
        lacks=frozenset(profile.get("lacks", ())),
    )


def generic(command: list[str]) -> GtpProfile:
    """Any GTP engine: no rule flags (it plays its own rules), set-up by explicit-colour plays."""
    name = f"gtp:{' '.join(command)}"
    return GtpProfile(name=name, command=tuple(command), max_size=25, uses_loadsgf=False)
