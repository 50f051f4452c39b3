"""Expectation selectors and the choice of one verdict text per ruleset. {#format.expect}

A selector is ``default``, a preset name, or one or more ``axis=value`` conditions separated by
spaces. For a ruleset the verdict text is chosen from: the key equal to its name, else the axis
selectors it matches (which must all say the same), else ``default``.
"""

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jpdref.rules import AXES, Rules, RulesError, parse_axis_value

from jpdtools.errors import InputError, Location
from jpdtools.suite.model import Case, Expectation

if TYPE_CHECKING:
    from jpdtools.presets import Presets


class SelectorError(ValueError):
    """A bad selector: ``code`` is the case-file error code, ``offset`` where in the key."""

    def __init__(self, code: str, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.code, self.message, self.offset = code, message, offset


@dataclass(frozen=True)
class Selector:
    kind: str  # "default" | "preset" | "axes"
    name: str = ""  # the preset name
    conditions: tuple[tuple[str, str], ...] = ()  # ((axis, value), ...)

    @property
    def text(self) -> str:
        """The normal spelling of this selector (used as ``Expectation.selector``)."""
        if self.kind == "axes":
            return " ".join(f"{a}={v}" for a, v in self.conditions)
        return self.name if self.kind == "preset" else "default"

    def matches(self, rules: Rules) -> bool:
        if self.kind == "preset":
            return self.name == rules.name
        if self.kind == "axes":
            return all(str(rules.value(a)) == v for a, v in self.conditions)
        return True


def parse_selector(text: str, names: list[str]) -> Selector:
    """The selector ``text``; ``names`` are the ruleset names a preset key may use."""
    words = [(m.group(), m.start()) for m in re.finditer(r"\S+", text)]
    if [w for w, _ in words] == ["default"]:
        return Selector("default")
    if words and all("=" in w for w, _ in words) and ":" not in text:
        conditions: list[tuple[str, str]] = []
        for word, offset in words:
            axis, _, value = word.partition("=")
            if axis not in AXES:
                raise SelectorError(
                    "unknown-axis",
                    f"unknown axis {axis!r} (expected one of: {', '.join(AXES)})",
                    offset,
                )
            if any(a == axis for a, _ in conditions):
                raise SelectorError("unknown-axis", f"axis {axis!r} given twice", offset)
            try:
                parse_axis_value(axis, value)
            except RulesError as err:
                raise SelectorError("unknown-axis", str(err), offset + len(axis) + 1) from None
            conditions.append((axis, value))
        return Selector("axes", conditions=tuple(conditions))
    name = text.strip()
    if name not in names:
        raise SelectorError(
            "unknown-ruleset",
            f"{name!r} is not default, axis=value conditions, or one of this case's rulesets "
            f"({', '.join(names)})",
            len(text) - len(text.lstrip()),
        )
    return Selector("preset", name=name)


@functools.lru_cache(maxsize=4096)
def _parsed_selector(text: str, names: tuple[str, ...]) -> Selector:
    """:func:`parse_selector`, once per selector and name list (a run chooses 12 times per case)."""
    return parse_selector(text, list(names))


@dataclass(frozen=True)
class Choice:
    """The expectation chosen for one ruleset, or None; ``conflict`` is a second axis selector
    that matches with a different verdict (the case is then in error)."""

    expectation: Expectation | None
    conflict: Expectation | None = None


def choose(rules: Rules, expectations: tuple[Expectation, ...], names: list[str]) -> Choice:
    """Pick the expectation for ``rules`` by the order of spec/case-format.md#format.expect."""
    known = tuple(names)
    parsed = [(_parsed_selector(e.selector, known), e) for e in expectations]
    for selector, e in parsed:
        if selector.kind == "preset" and selector.matches(rules):
            return Choice(e)
    matching = [e for s, e in parsed if s.kind == "axes" and s.matches(rules)]
    if matching:
        first = matching[0]
        for other in matching[1:]:
            if (other.steps, other.end, other.count, other.points) != (
                first.steps,
                first.end,
                first.count,
                first.points,
            ):
                return Choice(first, other)
        return Choice(first)
    for selector, e in parsed:
        if selector.kind == "default":
            return Choice(e)
    return Choice(None)


def resolve(case: Case, presets: "Presets") -> list[tuple[Rules, Expectation]]:
    """The expectation for every ruleset the case applies to, in the order of ``rules`` (or of
    the presets file). Raises InputError when a ruleset has none or several."""
    where = case.location or Location("<case>", 1, 1)
    try:
        rulesets = [presets.get(n) for n in case.rules] if case.rules else list(presets.rulesets)
    except RulesError as err:
        raise InputError(str(err), where, code="unknown-ruleset") from None
    names = [r.name for r in rulesets]
    out = []
    for rules in rulesets:
        try:
            chosen = choose(rules, case.expectations, names)
        except SelectorError as err:
            raise InputError(err.message, where, code=err.code) from None
        if chosen.expectation is None:
            raise InputError(f"no verdict text for ruleset {rules.name!r}", where, code="missing-expectation")
        if chosen.conflict is not None:
            raise InputError(
                f"selectors {chosen.expectation.selector!r} and {chosen.conflict.selector!r} both "
                f"match ruleset {rules.name!r} with different verdicts",
                chosen.conflict.location or where,
                code="ambiguous-expectation",
            )
        out.append((rules, chosen.expectation))
    return out


def choose_variant(
    variant: Rules,
    depends: tuple[str, ...],
    resolved: list[tuple[Rules, Expectation]],
    expectations: tuple[Expectation, ...] = (),
) -> Expectation | None:
    """The verdict text of a case for ``variant`` — a preset with axis overrides the case does
    not name — or None when the case does not determine it.

    A case's verdicts depend only on the axes of its ``depends`` (on every axis when it lists
    none). So the variant's verdict is, first, that of the rulesets the case applies to
    (``resolved``) that agree with the variant on every one of those axes — None if they disagree
    among themselves (the ``depends`` is too short to decide); else, for a case that lists
    ``depends``, the text of the axis selectors the variant matches (``repetition=simple-ko``: a
    claim about every ruleset with those values); else None — ``default`` speaks for the rulesets
    the case was written for, not for every combination of values."""
    axes = depends or AXES
    wanted = {axis: str(variant.value(axis)) for axis in axes}
    agreeing = [e for rules, e in resolved if all(str(rules.value(a)) == v for a, v in wanted.items())]
    if agreeing:
        first = agreeing[0]
        key = (first.steps, first.end, first.count, first.points, first.settle)
        return first if all((e.steps, e.end, e.count, e.points, e.settle) == key for e in agreeing) else None
    if not depends:
        return None
    names = [rules.name for rules, _ in resolved]
    chosen = choose(variant, expectations, names)
    if chosen.expectation is None or chosen.conflict is not None:
        return None
    return chosen.expectation if parse_selector(chosen.expectation.selector, names).kind == "axes" else None
