"""The rules playground's engine: what the book's playground page runs in the browser, under Pyodide.

It plays a position and a move list under every ruleset through the same reference adapter as
``jpd play`` (:class:`~jpdtools.run.adapters.ReferenceAdapter`, so the page's verdicts are
``jpd play --rules all --json``'s), names the clause deciding each step and each ending
(:mod:`jpdtools.review.deciding`, as ``jpd explain`` and the case pages do), counts a halted
position with the stones marked dead (as the suite's counting cases are counted), draws boards
with the book's one renderer (:func:`jpdtools.book.svg.board_svg`), and writes the position as a
proposed case.

It imports ``jpdref``, the standard library and the few ``jpdtools`` modules that need nothing
else (the page ships exactly those: :data:`jpdtools.book.playground.SHIPPED`); never PyYAML nor
Lark. The presets come as the build-time JSON copy of ``spec/rulesets.yaml``. Every entry point
takes and returns JSON text, the one thing that crosses between JavaScript and Python.
"""

import json
from dataclasses import dataclass

from jpdref.coords import CoordinateError, Geometry
from jpdref.game import Game
from jpdref.rules import Rules, RulesError, axis_choices, axis_names, select_ruleset

from jpdtools.book.lang import language
from jpdtools.book.lang.glossary import cell_text
from jpdtools.book.svg import Picture, board_svg
from jpdtools.errors import InputError, Location
from jpdtools.review.deciding import end_parts, step_parts
from jpdtools.run.adapters import Observation, ReferenceAdapter, observation_json
from jpdtools.run.compare import claim_text, observed_claim, observed_end
from jpdtools.suite.dsl import Dsl
from jpdtools.suite.model import Claim, StepVerdict
from jpdtools.suite.setup import CaseAction, CaseAgreement, FinalSpec, Setup


@dataclass(frozen=True)
class Position:
    """The set-up: its size, the side to move and its stones ((vertex, ``B``|``W``), …)."""

    width: int
    height: int
    to_move: str
    stones: tuple[tuple[str, str], ...]
    handicap: int = 0  # handicap stones placed on the empty board as the ruleset's axis says

    def setup(self, dead: tuple[str, ...] = (), seki: tuple[str, ...] = ()) -> Setup:
        """The set-up; with stones agreed ``dead`` or in ``seki``, asking for the count after the
        last step with that agreement."""
        agreement = CaseAgreement(dead=tuple(sorted(dead)), seki=tuple(sorted(seki)))
        final = FinalSpec(agreement) if dead or seki else None
        return Setup(
            self.width, self.height, self.to_move, self.stones, (), self.handicap, "board", final=final
        )

    def rows(self) -> str:
        """The diagram rows, top first, ``/``-separated (``X``, ``O``, ``.``)."""
        geometry = Geometry(self.width, self.height)
        grid = [["."] * self.width for _ in range(self.height)]
        for vertex, colour in self.stones:
            x, y = geometry.xy(geometry.from_gtp(vertex))
            grid[y][x] = "X" if colour == "B" else "O"
        return "/".join("".join(row) for row in grid)

    def diagram(self) -> str:
        """The position in the case format's diagram syntax, with its ``WxH C`` header."""
        return "\n".join([f"{self.width}x{self.height} {self.to_move}", *self.rows().split("/")])


def position_of(data: dict) -> Position:
    stones = tuple((str(v).upper(), str(c)) for v, c in data.get("stones", ()))
    to_move = str(data.get("to_move", "B"))
    return Position(int(data["width"]), int(data["height"]), to_move, stones, int(data.get("handicap") or 0))


class Engine:
    """The playground's engine over the presets (the JSON copy of ``spec/rulesets.yaml``) and the
    anchors the specification has (a part names its first candidate the specification has)."""

    def __init__(self, data: str) -> None:
        parsed = json.loads(data)
        self.presets = tuple(
            Rules.from_mapping(p["name"], p["values"], p.get("title", ""), p.get("sources", {}))
            for p in parsed["presets"]
        )
        self.anchors = frozenset(parsed.get("anchors", ()))
        self.dsl = Dsl()
        self.adapter = ReferenceAdapter()

    # -- entry points (JSON in, JSON out) -----------------------------------------------------
    def axes(self) -> str:
        """Every axis and the values it takes (``komi`` takes a decimal number too): the choices
        of a variant."""
        return json.dumps({axis: axis_choices(axis) for axis in axis_names()})

    def diagram(self, text: str) -> str:
        """A pasted diagram (the case format's) or SGF (its set-up, handicap and moves, as
        ``jpd play`` reads one) as ``{"position": …, "dead": […], "moves": […]}``, or
        ``{"error": message}``."""

        def place(line: int, column: int) -> Location:
            return Location("sgf" if sgf else "diagram", line, column)

        sgf = text.lstrip().startswith("(")
        try:
            if sgf:
                from jpdtools.suite.sgfsetup import read_sgf  # only for an SGF

                r = read_sgf(text, place)
                width, height, to_move, stones, dead = r.width, r.height, r.to_move, r.stones, ()
                handicap, moves = r.handicap, [str(m) for m in r.moves]
            else:
                d = self.dsl.parse_diagram(text, place)
                width, height, to_move, stones, dead = d.width, d.height, d.to_move, d.stones, d.dead
                handicap, moves = 0, []
        except InputError as err:
            return json.dumps({"error": str(err)})
        except ImportError:  # a text only the whole grammar reads (Lark is not in the page)
            return json.dumps({"error": "diagram: not a board diagram (check it with jpd lint)"})
        position = {
            "width": width,
            "height": height,
            "to_move": to_move,
            "stones": [list(s) for s in stones],
            "handicap": handicap,
        }
        return json.dumps({"position": position, "dead": list(dead), "moves": moves})

    def play(self, request: str) -> str:
        """Every ruleset's observation of the request's position and moves, as ``jpd play --json``
        gives it, with each step's board, deciding clauses and virtual stones, the ending's clause,
        and the count when stones are marked dead or play has halted."""
        req = json.loads(request)
        try:
            position = position_of(req)
            moves = self.moves(req.get("moves", ""), position)
            rulesets = [self.ruleset(name) for name in req["rules"]]
        except (InputError, RulesError, CoordinateError, ValueError, KeyError) as err:
            return json.dumps({"error": str(err)})
        dead = tuple(str(v).upper() for v in req.get("dead", ()))
        seki = tuple(str(v).upper() for v in req.get("seki", ()))
        setup = position.setup(dead, seki)
        out = []
        for rules in rulesets:
            obs = self.adapter.observe(setup, (), moves, rules)
            if (
                obs.error is None
                and setup.final is None
                and obs.end is not None
                and obs.end.phase == "halted"
            ):
                obs = self.adapter.observe(_counted(setup), (), moves, rules)
            result = self.result(rules, obs, moves, language(req.get("lang", "en")))
            if result["count"] and not result["count"].get("error"):
                result["count"]["text"] = count_text(setup if setup.final else _counted(setup), moves, rules)
            out.append(result)
        errors = [r["error"] for r in out if r.get("error")]
        return json.dumps(
            {"error": errors[0] if errors else None, "initial": position.rows(), "results": out}
        )

    def svg(self, request: str) -> str:
        """A board drawn by the book's renderer: ``rows``, ``last``, ``captured`` ([vertex, colour]),
        ``refused``, ``virtual`` ([Black's, White's] or null), ``owners`` ([vertex, owner, why]),
        ``lang``."""
        r = json.loads(request)
        picture = Picture(
            rows=r["rows"],
            last=r.get("last"),
            captured=tuple(tuple(c) for c in r.get("captured", ())),
            virtual=tuple(r["virtual"]) if r.get("virtual") else None,
            owners=tuple(tuple(o) for o in r.get("owners", ())),
            refused=r.get("refused"),
        )
        return board_svg(picture, language(r.get("lang", "en")))

    def propose(self, request: str) -> str:
        """The request's position and moves as a case file in the suite's format, the current
        verdicts of the presets as its expectations and ``status: proposed``: ``{"yaml": text}``
        or ``{"error": message}``, with the case's ``clauses``. The request names ``id``, ``title``,
        ``zh_title``, ``seeds``."""
        req = json.loads(request)
        try:
            position = position_of(req)
            moves = self.moves(req.get("moves", ""), position)
        except (InputError, CoordinateError, ValueError, KeyError) as err:
            return json.dumps({"error": str(err)})
        setup = position.setup()
        texts: dict[str, str] = {}
        clauses: list[str] = []
        for rules in self.presets:
            obs = self.adapter.observe(setup, (), moves, rules)
            if obs.error is not None:
                return json.dumps({"error": obs.error})
            texts[rules.name] = verdict_text(obs)
            for parts in self.decisions(rules, obs, moves):
                clauses += [a for a, _, _ in parts if a in self.anchors and a not in clauses]
        clauses = clauses or ["play.move"]
        return json.dumps({"yaml": case_yaml(req, position, moves, texts, clauses), "clauses": clauses})

    # -- the parts ----------------------------------------------------------------------------
    def moves(self, text: str, position: Position) -> tuple[CaseAction, ...]:
        actions = self.dsl.parse_moves(text, lambda line, column: Location("moves", line, column))
        geometry = Geometry(position.width, position.height)
        for a in actions:
            if a.vertex and a.vertex.startswith("@"):
                raise InputError(f"moves: {a}: the playground's positions have no markers")
            if a.vertex:
                geometry.from_gtp(a.vertex)
        return actions

    def ruleset(self, spec: str) -> Rules:
        return select_ruleset(self.presets, spec)

    def resolve(self, candidates: tuple[str, ...]) -> str:
        return next((a for a in candidates if a in self.anchors), candidates[0])

    def decisions(self, rules: Rules, obs: Observation, moves) -> list[list[tuple[str, str, str]]]:
        """Per step, the deciding clauses as (anchor, axis, the axis's value) — axis "" when none."""
        out = []
        for step, action in zip(obs.steps, moves, strict=False):
            parts = step_parts(
                step.legal,
                step.reason,
                step.effect,
                action.kind,
                bool(step.captures),
                bool(step.self_captures),
                str(rules.repetition),
            )
            out.append(self.named(parts, rules))
        return out

    def named(self, parts, rules: Rules) -> list[tuple[str, str, str]]:
        return [
            (self.resolve(candidates), axis or "", str(rules.value(axis)) if axis else "")
            for candidates, axis in parts
        ]

    def result(self, rules: Rules, obs: Observation, moves, lang) -> dict:
        data = observation_json(rules.name, obs)
        data["cells"] = [cell_text(step_text(s), lang, rules) for s in obs.steps]
        data["end_cell"] = cell_text(claim_text(observed_end(obs.end)), lang, rules) if obs.end else ""
        data["error"] = obs.error
        data["boards"] = [s.board for s in obs.steps]
        data["decisions"] = self.decisions(rules, obs, moves)
        end = obs.end
        data["end_decision"] = self.named(end_parts(end.kind), rules) if end and end.kind else []
        data["virtual"] = _virtual_counts(obs, moves)
        data["values"] = rules.values()
        data["count"] = _count_json(obs)
        return data


def count_text(setup: Setup, moves, rules: Rules) -> str:
    """The count of the position after ``moves`` as ``jpd count`` explains it (the game replayed,
    then counted as :func:`jpdtools.run.adapters.observe_count` counts it)."""
    from jpdref.stones import Color

    from jpdtools.run.adapters import _action
    from jpdtools.run.reference_count import count_lines, final_position, reference_count

    assert setup.final is not None
    geometry = Geometry(setup.width, setup.height)
    stones = {geometry.from_gtp(v): Color.parse(c) for v, c in setup.stones}
    game = Game.new(rules, geometry, stones, Color.parse(setup.to_move), setup.handicap)
    for action in moves:
        game.play(_action(action, geometry, {}))
    return "\n".join(count_lines(rules, reference_count(rules, final_position(game, setup.final))))


def step_text(step) -> str:
    """A step's verdict with what it removed, in the verdict grammar's words (``legal captures
    B2``, ``illegal superko``): the text of a case page's cell."""
    words = [claim_text(observed_claim("legal", step))]
    if step.legal and step.captures:
        words.append(claim_text(Claim("captures", step.captures)))
    if step.legal and step.self_captures:
        words.append(claim_text(Claim("self-captures", step.self_captures)))
    return " ".join(words)


def _counted(setup: Setup) -> Setup:
    """``setup`` asking for the count of the position after the last step (nothing dead)."""
    from dataclasses import replace

    return replace(setup, final=FinalSpec())


def _virtual_counts(obs: Observation, moves) -> list[list[int]]:
    """Black's and White's virtual stones after each step."""
    black = white = 0
    out = []
    for step, action in zip(obs.steps, moves, strict=False):
        if action.kind == "virtual" and step.legal and step.effect == "played":
            black, white = (black + 1, white) if action.color == "B" else (black, white + 1)
        out.append([black, white])
    return out


def _count_json(obs: Observation) -> dict | None:
    c = obs.count
    if c is None:
        return None
    if c.error:
        return {"error": c.error, "message": c.message}

    def num(x) -> str:
        return "" if x is None else (str(x.numerator) if x.denominator == 1 else f"{float(x):g}")

    return {
        "method": c.method,
        "winner": c.winner,
        "margin": num(c.margin),
        "black": num(c.black),
        "white": num(c.white),
        "unit": c.unit,
        "komi": c.komi,
        "steps": list(c.steps),
        "points": [list(p) for p in c.points],
        "board": c.board,
    }


# -- the proposed case ----------------------------------------------------------------------------
def verdict_text(obs: Observation) -> str:
    """The observation as verdict lines (what ``jpd fuzz`` writes for a finding: every step's
    legality or refusal with its reason, captures, the side to move while play goes on, the board;
    the end once play halted or ended, else the side to move)."""
    over = obs.end is not None and obs.end.phase in ("halted", "ended")
    lines = []
    for n, step in enumerate(obs.steps, 1):
        if step.legal:
            claims = [Claim("legal"), Claim("captures", step.captures)]
            if step.self_captures:
                claims.append(Claim("self-captures", step.self_captures))
        else:
            kind = "illegal" if step.effect == "refused" else step.effect
            claims = [Claim(kind, (step.reason or "",))]
        if not (over and n == len(obs.steps)):
            claims.append(Claim("to-move", (step.to_move,)))
        claims.append(Claim("board", (step.board,)))
        lines.append(str(StepVerdict(n, (tuple(claims),))))
    if obs.end is not None:
        lines.append(str(observed_end(obs.end)))
    return "\n".join(lines)


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def _block(text: str, indent: str) -> str:
    return "|\n" + "\n".join(indent + line for line in text.split("\n"))


def case_yaml(req: dict, position: Position, moves, texts: dict[str, str], clauses: list[str]) -> str:
    """A case file of one case: the most common verdict text is ``default``, every other ruleset
    keyed by its name."""
    counts: dict[str, int] = {}
    for text in texts.values():
        counts[text] = counts.get(text, 0) + 1
    default = max(counts, key=lambda t: (counts[t], -list(texts.values()).index(t)))
    seeds = [str(s) for s in req.get("seeds", ()) if str(s).strip()]
    lines = [
        "format: 1",
        f"topic: {_quoted(str(req.get('topic') or 'proposed from the rules playground'))}",
        "cases:",
        f"  - id: {req['id']}",
        f"    title: {_quoted(str(req['title']))}",
    ]
    if req.get("zh_title"):
        lines += ["    zh:", f"      title: {_quoted(str(req['zh_title']))}"]
    lines += [
        "    status: proposed",
        f"    spec: [{', '.join(clauses)}]",
        f"    seeds: [{', '.join(_quoted(s) for s in seeds)}]",
        "    tags: [playground]",
        "    board: " + _block(position.diagram(), "      "),
        *([f"    handicap: {position.handicap}"] if position.handicap else []),
        f"    moves: {_quoted(' '.join(str(m) for m in moves))}",
        "    expect:",
        "      default: " + _block(default, "        "),
    ]
    for name, text in texts.items():
        if text != default:
            lines.append(f"      {name}: " + _block(text, "        "))
    return "\n".join(lines) + "\n"
