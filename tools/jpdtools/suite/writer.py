"""Writing case files back as YAML in the format of spec/case-format.md. {#format.file}

``dump_case_file`` regenerates every embedded text from the model: diagrams (header ``WxH C``,
column labels and row numbers on both sides), move lists (``B C3 W pass``) and verdict texts
(one line per step, then ``end:``), so that loading the output gives back equal values.
Every scalar is written plain when YAML reads it back unchanged, else as a block or quoted.
"""

import functools

import yaml
from jpdref.coords import GTP_COLUMNS, Geometry

from jpdtools.errors import Location
from jpdtools.suite.dsl import drawn_chains
from jpdtools.suite.model import Case, CaseFile, Expectation
from jpdtools.suite.setup import CaseAction, SettleSpec, Setup
from jpdtools.suite.sgfsetup import read_sgf
from jpdtools.suite.verdicts import verdict_text

_MOVES_PER_LINE = 10
_FOLD_WIDTH = 110  # the columns of a folded text's lines


def drawn_dead(setup: Setup) -> set[str]:
    """The dead set-up stones a diagram draws ``x``/``o``: those whose whole chain is agreed dead
    (a chain drawn partly dead is a load error, {#format.diagram}); other dead marks stay in the
    agreement's ``dead`` list."""
    if setup.final is None:
        return set()
    dead = set(setup.final.agreement.dead)
    geometry = Geometry(setup.width, setup.height)
    out: set[str] = set()
    for _colour, vertices in drawn_chains(geometry, setup.stones):
        if dead.issuperset(vertices):
            out.update(vertices)
    return out


def render_diagram(setup: Setup) -> str:
    """The canonical diagram of ``setup`` (no trailing newline); stones agreed dead are
    written ``x``/``o``."""
    width, height = setup.width, setup.height
    geometry = Geometry(width, height)
    grid = [["."] * width for _ in range(height)]
    dead = drawn_dead(setup)
    for vertex, colour in setup.stones:
        x, y = geometry.xy(geometry.from_gtp(vertex))
        symbol = "X" if colour == "B" else "O"
        grid[y][x] = symbol.lower() if vertex in dead else symbol
    for letter, vertex in setup.markers:
        x, y = geometry.xy(geometry.from_gtp(vertex))
        grid[y][x] = letter
    pad = len(str(height))
    labels = " " * (pad + 1) + " ".join(GTP_COLUMNS[:width])
    lines = [f"{width}x{height} {setup.to_move}", labels]
    for y, row in enumerate(grid):
        n = height - y
        lines.append(f"{n:>{pad}} {' '.join(row)} {n}")
    lines.append(labels)
    return "\n".join(lines)


def render_moves(actions: tuple[CaseAction, ...]) -> str:
    """``B C3 W pass …``, ten actions per line."""
    words = [str(a) for a in actions]
    return "\n".join(" ".join(words[i : i + _MOVES_PER_LINE]) for i in range(0, len(words), _MOVES_PER_LINE))


def render_verdicts(expectation: Expectation) -> str:
    e = expectation
    return verdict_text(e.steps, e.end, e.count, e.points, e.settle)


# -- YAML scalars -----------------------------------------------------------------------------
def _reads_back(document: str, expected) -> bool:
    try:
        return yaml.safe_load(document) == expected
    except yaml.YAMLError:
        return False


def _quoted(text: str) -> str:
    out = ['"']
    for ch in text:
        o = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= o <= 0x7E or (
            o >= 0xA0 and o not in (0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF) and not 0xD800 <= o <= 0xDFFF
        ):
            out.append(ch)
        elif o <= 0xFF:
            out.append(f"\\x{o:02x}")
        elif o <= 0xFFFF:
            out.append(f"\\u{o:04x}")
        else:
            out.append(f"\\U{o:08x}")
    out.append('"')
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def _plain_or_quoted(text: str, flow: bool = False) -> str:
    """``text`` as a plain scalar where YAML reads it back as the same string, else quoted (kept:
    a suite writes the same ids, tags and seeds many times, and each try is a YAML parse)."""
    if text and "\n" not in text and text == text.strip():
        document = f"k: [{text}]" if flow else f"k: {text}"
        if _reads_back(document, {"k": [text] if flow else text}):
            return text
    return _quoted(text)


@functools.lru_cache(maxsize=1024)
def _key(text: str) -> str:
    if text and "\n" not in text and text == text.strip() and _reads_back(f"{text}: 0", {text: 0}):
        return text
    return _quoted(text)


@functools.lru_cache(maxsize=4096)
def _value(text: str, indent: int, block: bool = False) -> str:
    """What follows ``key:`` at ``indent``: plain or quoted for one line, else a literal block
    (kept: a suite writes the same diagrams and verdict texts many times, and a block's check is a
    YAML parse)."""
    if not block and "\n" not in text:
        return " " + _plain_or_quoted(text)
    body = text.rstrip("\n")
    trailing = len(text) - len(body)
    if body.strip():
        chomp = "-" if trailing == 0 else ("" if trailing == 1 else "+")
        first = next(line for line in body.split("\n") if line.strip())
        lead = "2" if first[:1] in " \t" else ""  # a leading tab is content only past an indicator
        pad = " " * (indent + 2)
        lines = [pad + line if line else "" for line in body.split("\n")]
        lines += [""] * max(trailing - 1, 0)
        candidate = f" |{lead}{chomp}\n" + "\n".join(lines)
        if _reads_back(" " * indent + "k:" + candidate + "\n", {"k": text}):
            return candidate
    return " " + _quoted(text)


def _width(text: str) -> int:
    """Columns on a terminal: a wide (CJK) character takes two."""
    return sum(2 if "\u2e80" <= ch <= "\uffef" else 1 for ch in text)


@functools.lru_cache(maxsize=1024)
def _folded(text: str, indent: int, width: int = _FOLD_WIDTH) -> str:
    """What follows ``key:`` for a long one-line text: a folded block (``>``) broken only at its
    spaces (a fold reads back as one space, so Chinese is never split between two characters);
    else as :func:`_value` writes it."""
    body = text.rstrip("\n")
    trailing = len(text) - len(body)
    if "\n" in body or trailing > 1 or indent + 2 + _width(body) <= width:
        return _value(text, indent)
    lines: list[str] = []
    for word in body.split(" "):
        if lines and _width(lines[-1]) + 1 + _width(word) <= width - indent - 2:
            lines[-1] += " " + word
        else:
            lines.append(word)
    pad = " " * (indent + 2)
    candidate = f" >{'' if trailing else '-'}\n" + "\n".join(pad + line for line in lines)
    if _reads_back(" " * indent + "k:" + candidate + "\n", {"k": text}):
        return candidate
    return _value(text, indent)


def zh_lines(case: Case, ind: str = "    ") -> list[str]:
    """The ``zh:`` mapping of a case at indent ``ind`` (spec/case-format.md#format.zh); [] when
    the case has no Chinese texts."""
    if not case.zh_title:
        return []
    n = len(ind) + 2
    out = [f"{ind}zh:", f"{ind}  title:{_value(case.zh_title, n)}"]
    if case.zh_note:
        out.append(f"{ind}  note:{_folded(case.zh_note, n)}")
    return out


def _list(items: tuple[str, ...]) -> str:
    return "[" + ", ".join(_plain_or_quoted(i, flow=True) for i in items) + "]"


# -- the file ---------------------------------------------------------------------------------
def dump_case_file(cf: CaseFile, explicit_status: bool = False) -> str:
    """The YAML text of ``cf`` (format 1); ``explicit_status`` writes ``status: proposed`` too (the
    default status, for files a reader should see are proposals)."""
    out = [f"format: {cf.format}"]
    if cf.topic:
        out.append("topic:" + _value(cf.topic, 0))
    out.append("cases:")
    for case in cf.cases:
        out.extend(_case(case, explicit_status))
    return "\n".join(out) + "\n"


def _case(case: Case, explicit_status: bool = False) -> list[str]:
    ind = "    "
    out = [f"  - id:{_value(case.id, 4)}", f"{ind}title:{_value(case.title, 4)}"]
    out.extend(zh_lines(case, ind))
    out.append(f"{ind}spec: {_list(case.spec)}")
    out.append(f"{ind}seeds: {_list(case.seeds)}")
    for key, items in (("tags", case.tags), ("rules", case.rules), ("depends", case.depends)):
        if items:
            out.append(f"{ind}{key}: {_list(items)}")
    if case.load_error is not None:
        spec = case.load_error
        out.append(f"{ind}load-error:")
        out.append(f"{ind}  file:{_value(spec.file, 6, block=True)}")
        out.append(f"{ind}  code:{_value(spec.code, 6)}")
        out.append(f"{ind}  line: {spec.line}")
        out.append(f"{ind}  column: {spec.column}")
    if case.setup is not None:
        out.extend(_setup(case))
    if case.load_error is None:
        out.append(f"{ind}moves:{_value(render_moves(case.moves), 4)}")
    if case.setup is not None and case.setup.final is not None:
        out.extend(_final(case.setup))
    if case.expectations:
        out.append(f"{ind}expect:")
        for e in case.expectations:
            text = render_verdicts(e)
            value = _value(text + "\n", 6, block=True) if text else ' ""'
            out.append(f"{ind}  {_key(e.selector)}:{value}")
    if case.open:
        out.append(f"{ind}open: {_list(case.open)}")
    if case.note:
        out.append(f"{ind}note:{_value(case.note, 4)}")
    if case.status_proof[0]:
        kind, why = case.status_proof
        out.append(f"{ind}status-proof:")
        out.append(f"{ind}  {kind}:{_value(why, 6)}")
    return out + review_lines(case, ind, explicit_status)


def review_lines(case, ind: str = "    ", explicit_status: bool = False) -> list[str]:
    """The review keys of a case or question review at indent ``ind``
    (spec/case-format.md#format.review); ``proposed`` is the default and is left out unless
    ``explicit_status``."""
    n = len(ind)
    out = [f"{ind}status: {case.status}"] if explicit_status or case.status != "proposed" else []
    if case.decision:
        out.append(f"{ind}decision:{_value(case.decision, n)}")
        out.append(f"{ind}decided: {case.decided}")
    if case.decided_by:
        out.append(f"{ind}decided-by:{_value(case.decided_by, n)}")
    if case.revision:
        out.append(f"{ind}revision:{_value(case.revision, n)}")
    if case.rulings:
        out.append(f"{ind}rulings:")
        for r in case.rulings:
            out.append(f"{ind}  {_plain_or_quoted(r.ruleset)}:")
            out.append(f"{ind}    status: {r.status}")
            out.append(f"{ind}    decision:{_value(r.decision, n + 4)}")
            out.append(f"{ind}    decided: {r.decided}")
            out.append(f"{ind}    decided-by:{_value(r.decided_by, n + 4)}")
            out.append(f"{ind}    revision:{_value(r.revision, n + 4)}")
    if case.votes:
        out.append(f"{ind}votes:")
        for v in case.votes:
            out.append(f"{ind}  - by:{_value(v.by, n + 4)}")
            out.append(f"{ind}    status: {v.status}")
            out.append(f"{ind}    date: {v.date}")
            out.append(f"{ind}    revision:{_value(v.revision, n + 4)}")
            if v.ruleset:
                out.append(f"{ind}    ruleset:{_value(v.ruleset, n + 4)}")
            out.append(f"{ind}    text:{_value(v.text, n + 4)}")
    if case.comments:
        out.append(f"{ind}comments:")
        for c in case.comments:
            out.append(f"{ind}  - by:{_value(c.by, n + 4)}")
            out.append(f"{ind}    date: {c.date}")
            if c.ruleset:
                out.append(f"{ind}    ruleset:{_value(c.ruleset, n + 4)}")
            out.append(f"{ind}    text:{_value(c.text, n + 4)}")
    return out


def _setup(case: Case) -> list[str]:
    setup, ind = case.setup, "    "
    assert setup is not None
    history, handicap = case.history, setup.handicap
    if setup.source == "sgf":
        sgf = read_sgf(setup.text, lambda line, column: Location("<sgf>", line, column))
        history = history[len(sgf.moves) :]
        handicap = 0 if handicap == sgf.handicap else handicap
        out = [f"{ind}sgf:" + _value(setup.text + "\n", 4, block=True)]
    elif setup.source == "size" and not setup.stones and setup.to_move == "B":
        square = setup.width == setup.height
        out = [f"{ind}size: " + (str(setup.width) if square else f"{setup.width}x{setup.height}")]
    else:
        out = [f"{ind}board:" + _value(render_diagram(setup) + "\n", 4, block=True)]
    if handicap:
        out.append(f"{ind}handicap: {handicap}")
    if history:
        out.append(f"{ind}history:{_value(render_moves(history), 4)}")
    return out


def _final(setup: Setup) -> list[str]:
    """The ``agreement:`` and ``counters:`` keys (dead set-up stones of a diagram are its x/o)."""
    assert setup.final is not None
    agreement, counters, ind = setup.final.agreement, setup.final.counters, "    "
    out: list[str] = []
    in_diagram = drawn_dead(setup) if setup.source == "board" else set()
    lists = (
        ("dead", tuple(v for v in agreement.dead if v not in in_diagram)),
        ("seki", agreement.seki),
        ("dame", agreement.dame),
        ("shared", agreement.shared),
        ("black-owns", agreement.black_owns),
        ("white-owns", agreement.white_owns),
    )
    body = [f"{ind}  {key}:{_value(' '.join(items), 6)}" for key, items in lists if items]
    if agreement.claims:
        body.append(f"{ind}  claims: {_list(tuple(str(c) for c in agreement.claims))}")
    if body:
        out += [f"{ind}agreement:", *body]
    items = counters.items()
    if items:
        out.append(f"{ind}counters:")
        for key, value in items:
            if isinstance(value, tuple):
                text = f"[{value[0]}, {value[1]}]"
            else:
                text = str(value) if isinstance(value, int) else _plain_or_quoted(value)
            out.append(f"{ind}  {key}: {text}")
    if setup.final.settle is not None:
        out += _settle(setup.final.settle)
    return out


def _settle(settle: SettleSpec) -> list[str]:
    """The ``settle:`` key (spec/case-format.md#format.settle)."""
    ind = "    "
    out = [f"{ind}settle:"]
    if settle.first is not None:
        out.append(f"{ind}  first: {settle.first}")
    out.append(f"{ind}  moves:{_value(render_moves(settle.moves), 6)}")
    if settle.stones or settle.claims:
        out.append(f"{ind}  dispute:")
        if settle.stones:
            out.append(f"{ind}    stones:{_value(' '.join(settle.stones), 8)}")
        if settle.claims:
            out.append(f"{ind}    claims: {_list(tuple(str(c) for c in settle.claims))}")
    return out
