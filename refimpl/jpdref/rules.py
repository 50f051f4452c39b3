"""Rulesets as values on independent axes. {#rules.axes}

A ruleset is one flat record of settings (as in KataGo's ``Rules``); the named presets live in
``spec/rulesets.yaml`` and are turned into ``Rules`` values by :func:`Rules.from_mapping`, which
rejects unknown axes and values naming the offending text. Axis names and values are the
spellings used in the spec, the case files and the command line.

The last two axes say how a halted game is counted (spec/counting.md): ``counting``, the method
(:class:`Method`), and ``komi``, a komi rule (:class:`KomiRule`) or a fixed number of points;
:func:`jpdref.counting.dispatch.count_for` counts a final position by them. Every axis's values are
defined here, with the rules; the play engine and counting import them (never the other way round).
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from fractions import Fraction
from functools import cache

from jpdref.specfiles import spec_dir


class RulesError(ValueError):
    """An unknown ruleset, axis or axis value. The message names the offending text."""


class PassRule(StrEnum):
    """{#turn.pass} Whether a player may pass (放弃), and what a pass costs."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"  # jpd-a / jpd-b: only virtual moves (001 第二条说明)
    PASS_STONE = "pass-stone"  # AGA: the passer hands the opponent one prisoner


class VirtualMove(StrEnum):
    """{#turn.virtual} Whether a player may make a virtual move (虚着: a stone put off the board)."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class Suicide(StrEnum):
    """{#capture.suicide} Which self-captures (自尽) a real move may make."""

    FORBIDDEN = "forbidden"  # 禁着点: no suicide at all
    MULTI_ONLY = "multi-only"  # 颗子自尽 forbidden, 块子自尽 allowed
    ALLOWED = "allowed"  # both allowed (the repetition rule may still refuse one)


class Repetition(StrEnum):
    """{#rep.rules} Which earlier positions a move may not bring back."""

    SIMPLE_KO = "simple-ko"  # 吴清源: only the immediate recapture of a single-stone ko
    POSITIONAL = "positional"  # 禁全同: no earlier position, whoever is to move
    SITUATIONAL = "situational"  # 禁还原: the opponent may not face a position it faced before
    NO_RETREAT = "no-retreat"  # 禁倒退 (000 §22): global after a real move, board after a virtual


class Position(StrEnum):
    """{#board.global-position} What a position is for the repetition rule."""

    BOARD = "board"  # 盘内棋形: the stones on the board
    GLOBAL = "global"  # 全局棋形: the board plus each side's count of virtual-move stones


class Cycle(StrEnum):
    """{#end.cycle} What ends the game when a whole position recurs under simple ko."""

    DRAW = "draw"  # 天降祥瑞, 和棋
    NO_RESULT = "no-result"  # 无胜负
    NOT_APPLICABLE = "not-applicable"  # a superko rule: no position can recur


class Halt(StrEnum):
    """{#end.halt} What halts the play phase (apart from resignation and cycles)."""

    TWO_PASSES = "two-passes"  # 两弃停止 / 两弃休止
    TWO_PASSES_WHITE_LAST = "two-passes-white-last"  # AGA: White must make the last pass
    FOUR_VIRTUAL = "four-virtual"  # 四虚终局 (003): four virtual moves under one board position


class IllegalMove(StrEnum):
    """{#play.illegal} What happens when a player attempts a move the rules forbid."""

    REFUSE = "refuse"  # the move is not made; the same player moves again
    VOID_PASS = "void-pass"  # 着手无效，弃权一次: the move is void and counts as a pass
    LOSS = "loss"  # the player who attempted it loses the game


class OutOfTurn(StrEnum):
    """{#play.turn} What becomes of a real move by the side not to move (axis ``out-of-turn``)."""

    REFUSE = "refuse"  # a plain refusal (out-of-turn); nothing changes
    LOSS = "loss"  # 连走二步判连走二步者为负: a second real move in a row loses (004 Chinese summary)


class Resignation(StrEnum):
    """{#turn.resign} Until when a player may resign (axis ``resignation``): a halt is a pause
    (休止) before the count, or the end of the game's play."""

    UNTIL_HALT = "until-halt"  # refused with game-over once play has halted
    UNTIL_COUNTED = "until-counted"  # 两弃为休止而非终止 (001 第十五条): still accepted while halted


class HandicapPlacement(StrEnum):
    """{#setup.handicap} Where handicap stones go."""

    FIXED = "fixed"  # on the traditional star points, in a fixed order
    FREE = "free"  # Black chooses the points, one stone at a time


class Method(StrEnum):
    """{#count.area} How a halted game is counted (axis ``counting``); spec/counting.md."""

    AREA = "area"  # 子空合计 (Chinese): {#count.area}
    TROMP_TAYLOR = "tromp-taylor"  # {#count.tromp-taylor}
    JAPANESE = "japanese"  # 惟目是地: {#count.japanese}
    EQUAL_STONES = "equal-stones"  # 等子比空 (jpd-2022): {#count.equal-stones}
    ART = "art"  # 艺术版 equal-stones judgment: {#count.art}
    EQUAL_EMPTY = "equal-empty"  # 等空比子: {#count.equal-empty}
    ROADS = "roads"  # 等子比路 (jhz-2022): {#count.roads}
    ING = "ing"  # 应氏填满计点: {#count.ing}
    ING_BALANCED = "ing-balanced"  # 应氏填满计点 with the 004 (6) A-class step: {#count.ing}


class KomiRule(StrEnum):
    """{#count.komi} The komi rules of the seeds and of the rulesets compared with them (axis ``komi``)."""

    NONE = "none"
    FIXED_6_5 = "6.5"  # 先下贴目 6.5: 000 §30, 001 第十八条, 004 贴先
    BLACK_LAST = "6.5+black-last"  # 黑收后贴1点 / 1路: 000 §25, 002 §24, §29
    A_VERSION = "a-version"  # 003 A版: 7.5 if White passed or played virtual first, else 6.5
    B_VERSION = "b-version"  # 003 B版: 7.5 whoever passed first
    WMSG_2008 = "wmsg-2008"  # 003: the opponent of the first to pass is 收后方
    CHINESE = "chinese-3.75"  # 004 Chinese summary: 3¾ stones = 7.5 points
    ING = "ing-8"  # Ing: 8 points, Black wins a tie
    JAPANESE = "japanese-6.5"  # J1989 practice: 6.5 目
    AGA = "aga-7.5"  # AGA rules as amended for 2005: 7.5 even; handicap ½ + 1 per stone after the first
    AGA_1991 = "aga-1991"  # AGA Concise Rules 1991, Rules 3–4: 5.5 even; handicap as aga-7.5


class OneSidedClaim(StrEnum):
    """{#count.agreement} Whether the ruleset has the claim 单方权利单官 (axis ``one-sided-claim``): a
    point of a seki that only the claimer may occupy is the claimer's (001 第十条(2), 第十二条(3))."""

    ALLOWED = "allowed"
    NONE = "none"  # a one-sided claim is refused (claim-not-in-rules)


class KoClaim(StrEnum):
    """{#count.agreement} Whether the ruleset has the claim 单劫不粘有1目 (axis ``ko-claim``): the side
    that wins an unfilled ko owns its point (001 第十条(1), 第十二条(1))."""

    ALLOWED = "allowed"
    NONE = "none"  # a ko claim is refused (claim-not-in-rules)


class FixedKomi(Fraction):
    """{#count.komi} A fixed komi in points, written as a decimal (``7.5``, ``-1``, ``0.25``)."""

    def __str__(self) -> str:
        if self.denominator == 1:
            return str(self.numerator)
        return f"{float(self):g}"

    def __repr__(self) -> str:
        return f"FixedKomi({self})"


_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")

AXES: dict[str, type[StrEnum]] = {
    "pass": PassRule,
    "virtual-move": VirtualMove,
    "suicide": Suicide,
    "repetition": Repetition,
    "position": Position,
    "cycle": Cycle,
    "halt": Halt,
    "illegal-move": IllegalMove,
    "out-of-turn": OutOfTurn,  # {#play.turn}
    "resignation": Resignation,  # {#turn.resign}
    "handicap": HandicapPlacement,
    "counting": Method,  # {#count.area}
    "komi": KomiRule,  # or a FixedKomi {#count.komi}
    "one-sided-claim": OneSidedClaim,  # {#count.agreement}
    "ko-claim": KoClaim,  # {#count.agreement}
}
"""Axis spelling → value type. The order is the order in which tables show the axes.

``komi`` also takes a decimal number: a fixed komi in points (:class:`FixedKomi`).
"""

_FIELD_OF_AXIS = {
    "pass": "pass_rule",
    "virtual-move": "virtual_move",
    "suicide": "suicide",
    "repetition": "repetition",
    "position": "position",
    "cycle": "cycle",
    "halt": "halt",
    "illegal-move": "illegal_move",
    "out-of-turn": "out_of_turn",
    "resignation": "resignation",
    "handicap": "handicap",
    "counting": "counting",
    "komi": "komi",
    "one-sided-claim": "one_sided_claim",
    "ko-claim": "ko_claim",
}


@dataclass(frozen=True)
class Rules:
    """One ruleset: a value on every axis, plus where each value comes from."""

    name: str
    pass_rule: PassRule
    virtual_move: VirtualMove
    suicide: Suicide
    repetition: Repetition
    position: Position
    cycle: Cycle
    halt: Halt
    illegal_move: IllegalMove
    out_of_turn: OutOfTurn  # {#play.turn}
    resignation: Resignation  # {#turn.resign}
    handicap: HandicapPlacement
    counting: Method  # {#count.area}
    komi: KomiRule | FixedKomi  # a named rule, or a fixed number of points {#count.komi}
    one_sided_claim: OneSidedClaim  # {#count.agreement}
    ko_claim: KoClaim  # {#count.agreement}
    title: str = ""
    sources: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        """{#rules.axes} The constraints every ruleset (preset or variant) must satisfy."""
        if self.repetition is Repetition.NO_RETREAT and self.position is not Position.GLOBAL:
            raise RulesError(f"{self.name}: repetition no-retreat compares global positions")
        if (self.repetition is Repetition.SIMPLE_KO) != (self.cycle is not Cycle.NOT_APPLICABLE):
            raise RulesError(f"{self.name}: cycle is draw or no-result exactly when repetition is simple-ko")
        if self.virtual_move is VirtualMove.ALLOWED and self.position is not Position.GLOBAL:
            raise RulesError(f"{self.name}: virtual moves need position global")
        if self.pass_rule is PassRule.FORBIDDEN and self.virtual_move is VirtualMove.FORBIDDEN:
            raise RulesError(f"{self.name}: a ruleset without pass must allow virtual moves")
        if self.halt is Halt.FOUR_VIRTUAL and self.virtual_move is VirtualMove.FORBIDDEN:
            raise RulesError(f"{self.name}: halt four-virtual needs virtual moves")
        if self.halt is not Halt.FOUR_VIRTUAL and self.pass_rule is PassRule.FORBIDDEN:
            raise RulesError(f"{self.name}: without passes the play can only halt by four-virtual")

    # -- access by axis spelling -------------------------------------------------------------
    def value(self, axis: str) -> StrEnum | FixedKomi:
        """The value on ``axis`` (spec spelling, e.g. ``"illegal-move"``)."""
        if axis not in AXES:
            raise RulesError(f"unknown axis {axis!r} (expected one of: {', '.join(AXES)})")
        return getattr(self, _FIELD_OF_AXIS[axis])

    def values(self) -> dict[str, str]:
        return {axis: str(self.value(axis)) for axis in AXES}

    def source(self, axis: str) -> str:
        return dict(self.sources).get(axis, "")

    def with_values(self, overrides: dict[str, str], name: str | None = None) -> "Rules":
        """A variant of this ruleset with some axes changed (``{"cycle": "no-result"}``).

        Raises RulesError for an unknown axis or value, or a combination {#rules.axes} forbids.
        """
        parsed = {a: parse_axis_value(a, v) for a, v in overrides.items()}  # RulesError first
        changes = {_FIELD_OF_AXIS[a]: v for a, v in parsed.items()}
        suffix = ",".join(f"{a}={v}" for a, v in overrides.items())
        return replace(self, name=name or f"{self.name}:{suffix}", **changes)

    @classmethod
    def from_mapping(
        cls,
        name: str,
        values: dict[str, str],
        title: str = "",
        sources: dict[str, str] | None = None,
    ) -> "Rules":
        """Build a ruleset from axis spellings; every axis must be given exactly once."""
        unknown = [a for a in values if a not in AXES]
        if unknown:
            raise RulesError(f"{name}: unknown axis {unknown[0]!r} (expected one of: {', '.join(AXES)})")
        missing = [a for a in AXES if a not in values]
        if missing:
            raise RulesError(f"{name}: no value for axis {missing[0]!r}")
        kwargs = {_FIELD_OF_AXIS[a]: parse_axis_value(a, v, name) for a, v in values.items()}
        return cls(name=name, title=title, sources=tuple((sources or {}).items()), **kwargs)


def axis_type(axis: str) -> type[StrEnum]:
    """The enumeration of ``axis``'s spellings (for ``komi``: the named rules; numbers are also taken)."""
    if axis not in AXES:
        raise RulesError(f"unknown axis {axis!r} (expected one of: {', '.join(AXES)})")
    return AXES[axis]


def axis_choices(axis: str) -> list[str]:
    """Every spelling ``axis`` takes (``komi`` also takes any decimal number)."""
    return [v.value for v in axis_type(axis)]


def parse_axis_value(axis: str, text: object, context: str = "") -> StrEnum | FixedKomi:
    """The value ``text`` on ``axis``, or a RulesError naming both and listing the choices."""
    kind = axis_type(axis)
    spelled = str(text).strip()
    if axis == "komi" and _DECIMAL.fullmatch(spelled) and spelled not in axis_choices(axis):
        return FixedKomi(spelled)
    try:
        return kind(spelled)
    except ValueError:
        where = f"{context}: " if context else ""
        choices = ", ".join(axis_choices(axis)) + (", or a decimal number" if axis == "komi" else "")
        raise RulesError(
            f"{where}{text!r} is not a value of axis {axis!r} (expected one of: {choices})"
        ) from None


def axis_names() -> list[str]:
    return list(AXES)


# -- the named presets ({#rules.presets}) ----------------------------------------------------------

PRESETS_FILE = "rulesets.yaml"
"""The presets file, in the specification's folder (:func:`jpdref.specfiles.spec_dir`)."""


def preset(spec: str) -> Rules:
    """The preset named ``spec`` (``"chinese"``), or a variant of it (``"chinese:repetition=simple-ko"``).

    Raises RulesError for an unknown name (suggesting the closest), axis or value.
    """
    return select_ruleset(presets(), spec)


def preset_names() -> list[str]:
    """The names of the presets, in the order of ``spec/rulesets.yaml``."""
    return [r.name for r in presets()]


@cache
def presets() -> tuple[Rules, ...]:
    """Every preset of ``spec/rulesets.yaml``, in file order, read once from the installed package."""
    path = spec_dir() / PRESETS_FILE
    return parse_presets(path.read_text(encoding="utf-8"), str(path))


def parse_presets(text: str, where: str = PRESETS_FILE) -> tuple[Rules, ...]:
    """The rulesets of a presets file's text. Raises RulesError naming ``where`` and the ruleset.

    The file format is ``spec/rulesets.yaml``'s: ``format: 1`` and a ``rulesets`` mapping of
    name → {``title``, axis: [value, source], …}. (``jpd lint`` and ``jpd rules`` read the same
    file with line and column locations for every error.)
    """
    import yaml  # only here: the tools read their presets from a cached copy, without PyYAML

    data = yaml.safe_load(text)
    if not isinstance(data, dict) or data.get("format") != 1 or not isinstance(data.get("rulesets"), dict):
        raise RulesError(f"{where}: expected a mapping with 'format: 1' and a 'rulesets' mapping")
    rulesets = []
    for name, entry in data["rulesets"].items():
        if not isinstance(entry, dict):
            raise RulesError(f"{where}: ruleset {name!r} must be a mapping")
        values, sources = {}, {}
        for axis, item in entry.items():
            if axis == "title":
                continue
            if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)):
                raise RulesError(f"{where}: axis {axis!r} of {name!r} must be [value, source]")
            values[axis], sources[axis] = item
        rulesets.append(Rules.from_mapping(str(name), values, str(entry.get("title", "")), sources))
    return tuple(rulesets)


def select_ruleset(rulesets: Sequence[Rules], spec: str) -> Rules:
    """The ruleset of ``rulesets`` named by ``spec``: ``NAME`` or ``NAME:axis=value,…``."""
    name, _, overrides = spec.strip().partition(":")
    names = [r.name for r in rulesets]
    for rules in rulesets:
        if rules.name == name:
            break
    else:
        import difflib  # only for a mistyped name: start-up time

        close = difflib.get_close_matches(name, names, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise RulesError(f"unknown ruleset {name!r}{hint}; known: {', '.join(names)}")
    if not overrides:
        return rules
    changes: dict[str, str] = {}
    for item in overrides.split(","):
        axis, eq, value = item.partition("=")
        if not eq:
            raise RulesError(f"override {item!r} is not of the form axis=value")
        axis = axis.strip()
        if axis not in AXES:
            raise RulesError(f"unknown axis {axis!r} (expected one of: {', '.join(AXES)})")
        if axis in changes:  # two values for one axis: neither silently wins
            raise RulesError(
                f"axis {axis!r} given twice in {spec.strip()!r} ({changes[axis]} and {value.strip()})"
            )
        changes[axis] = value.strip()
    return rules.with_values(changes, name=spec.strip())


assert [f.name for f in fields(Rules)][1 : len(AXES) + 1] == list(_FIELD_OF_AXIS.values())
