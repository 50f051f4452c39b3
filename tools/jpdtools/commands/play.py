"""``jpd play``: adjudicate a move sequence from a position, step by step.

The position is a board diagram in the case format's syntax ({#format.diagram}) or an SGF file
(``SZ``, ``AB``/``AW``/``AE``, ``PL``, ``HA`` and its moves, which are played first), or an
empty board of ``--size``. The moves use the case format's move-list syntax ({#format.moves}).
Every step is run through the same reference adapter as ``jpd run``.
"""

import re

from jpdref.coords import MAX_SIZE, MIN_SIZE, CoordinateError, Geometry

from jpdtools import table
from jpdtools.commands.options import add_lang_argument, add_rules_argument, rules_value, speaker
from jpdtools.errors import InputError, Location
from jpdtools.presets import load_presets
from jpdtools.run.adapters import Observation, ReferenceAdapter, observation_json
from jpdtools.suite.dsl import Dsl
from jpdtools.suite.setup import CaseAction, Setup

_SIZE = re.compile(r"([0-9]+)(?:[xX]([0-9]+))?")


def add_arguments(parser) -> None:
    parser.add_argument(
        "position",
        nargs="?",
        help="a diagram file or an SGF file ('-' reads standard input); omit with --size",
    )
    add_rules_argument(parser)
    parser.add_argument("--moves", default="", help='the actions, e.g. "B C3 W virtual B pass"')
    parser.add_argument("--size", help="start from an empty board: N or WxH")
    parser.add_argument("--handicap", type=int, default=0, help="handicap stones (2..9)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_lang_argument(parser)


def run(args) -> int:
    presets = load_presets()
    rulesets = presets.select(rules_value(args.rules))
    dsl = Dsl()
    setup, sgf_moves = _position(args, dsl)
    moves = sgf_moves + _moves(args.moves, setup, dsl)
    adapter = ReferenceAdapter()
    observed = [(r.name, adapter.observe(setup, (), moves, r)) for r in rulesets]
    for name, obs in observed:
        if obs.error:
            raise InputError(f"{name}: {obs.error}")
    if args.json:
        data = [observation_json(name, obs) for name, obs in observed]
        import json  # the imports of a command that prints a table are its start-up time

        print(json.dumps(data[0] if len(data) == 1 else data, indent=2))
    elif len(observed) == 1:
        _print_one(*observed[0], setup, table.terminal_width(args.wide), speaker(args.lang))
    else:
        _print_table(observed, moves, setup, table.terminal_width(args.wide), speaker(args.lang))
    return 0


def _render(say, headers, rows, width=None) -> str:
    _, cell = say
    return table.render([cell(h) for h in headers], [[cell(c) for c in row] for row in rows], width)


# -- input ------------------------------------------------------------------------------------
def _position(args, dsl: Dsl) -> tuple[Setup, tuple[CaseAction, ...]]:
    if args.position is None:
        if not args.size:
            raise InputError("give a position file, or --size for an empty board")
        size = _SIZE.fullmatch(args.size.strip())
        if size is None:
            raise InputError(f"--size {args.size!r} is not N or WxH (e.g. 19 or 13x9)")
        w, h = size.group(1), size.group(2) or size.group(1)
        if not all(len(n) <= 3 and MIN_SIZE <= int(n) <= MAX_SIZE for n in (w, h)):
            raise InputError(f"--size {args.size!r}: a board is {MIN_SIZE}..{MAX_SIZE} points each way")
        return Setup(int(w), int(h), handicap=args.handicap), ()
    if args.size:
        raise InputError(f"give either a position file or --size, not both (--size {args.size!r})")
    path = args.position
    from jpdtools.records.sgf import read_position_file  # only for a position file

    text, is_sgf = read_position_file(path)

    def place(line: int, column: int) -> Location:
        return Location(path, line, column)

    if is_sgf:
        from jpdtools.suite.sgfsetup import read_sgf  # only for SGF positions: start-up time

        sgf = read_sgf(text, place)
        handicap = args.handicap or sgf.handicap
        setup = Setup(sgf.width, sgf.height, sgf.to_move, sgf.stones, (), handicap, "sgf", text)
        return setup, sgf.moves
    d = dsl.parse_diagram(text, place)
    return Setup(d.width, d.height, d.to_move, d.stones, d.markers, args.handicap, "board", text), ()


def _moves(text: str, setup: Setup, dsl: Dsl) -> tuple[CaseAction, ...]:
    def place(line: int, column: int) -> Location:
        return Location("--moves", line, column)

    actions = dsl.parse_moves(text, place)
    markers = dict(setup.markers)
    geometry = Geometry(setup.width, setup.height)
    for a in actions:
        if a.vertex and a.vertex.startswith("@"):
            if a.vertex[1:] not in markers:
                raise InputError(f"unknown marker {a.vertex} (the diagram has none)", a.location)
        elif a.vertex:
            try:
                geometry.from_gtp(a.vertex)
            except CoordinateError as err:
                raise InputError(str(err), a.location) from None
    return actions


# -- output -----------------------------------------------------------------------------------
def _cell(step) -> str:
    if step.legal:
        return (
            "ok"
            + (f" x{' '.join(step.captures)}" if step.captures else "")
            + (f" self-x{' '.join(step.self_captures)}" if step.self_captures else "")
        )
    suffix = {"void-pass": " (void: pass)", "forfeit": " (loses)"}.get(step.effect, "")
    return f"{step.reason}{suffix}"


def _end(obs: Observation) -> str:
    e = obs.end
    if e is None:
        return "?"
    if e.phase == "contest" or e.phase == "handicap":
        return f"{e.phase}, {e.to_move} to move"
    if e.phase == "halted":
        return f"halted ({e.kind}): to count"
    if e.result == "win":
        return f"{e.winner}+ ({e.kind})"
    return f"{e.result} ({e.kind})"


def _print_one(name: str, obs: Observation, setup: Setup, width: int | None, say) -> None:
    line, cell = say
    print(f"{name}: {line(f'{setup.width}x{setup.height}, {setup.to_move} to move')}")
    rows = []
    for n, step in enumerate(obs.steps, 1):
        verdict = "legal" if step.legal else f"illegal {step.reason}"
        effect = "" if step.effect in ("played", "refused") else step.effect
        detail = []
        if step.captures:
            detail.append("captures " + " ".join(step.captures))
        if step.self_captures:
            detail.append("self-captures " + " ".join(step.self_captures))
        rows.append([str(n), step.action, verdict, effect, "; ".join(detail)])
    if rows:
        print(_render(say, ["step", "action", "verdict", "effect", "stones removed"], rows, width))
    print(f"{cell('end')}: {cell(_end(obs))}")


def _print_table(observed, moves, setup: Setup, width: int | None, say) -> None:
    """One column per ruleset; on a terminal too narrow for them, one column per group of
    rulesets that agree on every step (lettered, with a legend)."""
    print(say[0](f"{setup.width}x{setup.height}, {setup.to_move} to move"))
    columns = [
        (name, [*(_cell(obs.steps[n]) for n in range(len(moves))), _end(obs)]) for name, obs in observed
    ]
    full = _render(say, ["step", "action", *(name for name, _ in columns)], _rows(moves, columns))
    if width is None or max(len(line) for line in full.splitlines()) <= width:
        print(full)
        return
    groups: dict[tuple[str, ...], list[str]] = {}
    for name, cells in columns:
        groups.setdefault(tuple(cells), []).append(name)
    merged = [(chr(ord("A") + i), list(cells)) for i, cells in enumerate(groups)]
    print(_render(say, ["step", "action", *(letter for letter, _ in merged)], _rows(moves, merged), width))
    for (letter, _), names in zip(merged, groups.values(), strict=True):
        print(f"{letter}: {' '.join(names)}")


def _rows(moves, columns) -> list[list[str]]:
    rows = [
        [str(n), str(action), *(cells[n - 1] for _, cells in columns)] for n, action in enumerate(moves, 1)
    ]
    rows.append(["end", "", *(cells[-1] for _, cells in columns)])
    return rows
