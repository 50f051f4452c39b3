"""The GTP adapter: a case played through a GTP engine, with the harness as referee.

Per case: ``boardsize``/``clear_board`` (or ``loadsgf`` of a temporary SGF file holding the set-up
stones, which GNU Go places without recording moves), ``fixed_handicap`` for a fixed handicap,
the history as explicit-colour ``play`` commands, then each action:

* a real move: the vertex is checked against the board first (``off-board`` is never sent);
  ``is_legal`` asks the engine (an engine whose ``list_commands`` lacks it, or a profile that
  turns it off, is tested with ``play`` itself, which GTP leaves without effect when it
  refuses); a legal move is played and its captures are the difference of ``list_stones`` before and after;
* a refusal gets its reason from the board the harness read from the engine: ``occupied``;
  ``suicide`` when the stone's chain would have no liberty after its captures and the ruleset
  forbids that suicide; otherwise ``ko`` (simple-ko rulesets) or ``superko``;
* the referee applies the illegal-move policy: ``void-pass`` plays a pass for the offender,
  ``loss`` ends the game; it keeps the turn, halts play after two consecutive passes (under
  ``two-passes-white-last`` it makes White's compulsory third pass, as in AGA Rule 9), refuses
  actions out of turn, virtual moves and any action after the game halted or ended, and accepts
  resignations. Claims only the referee decides are not compared (:mod:`jpdtools.verify.gtp.limits`).

The count (:mod:`jpdtools.verify.gtp.score`): for an item whose count the engine can be asked
(:func:`limits.count_refusal`), the referee sends the komi the ruleset gives this game, computed
from the counters it kept, and asks ``final_score``.

Any misbehaviour of the engine (a hang, a crash, a garbled or nonsensical reply) is recorded as
the observation's ``error``; the engine is restarted for the next case.
"""

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from jpdref.coords import CoordinateError, Geometry
from jpdref.counting.position import make_counters
from jpdref.game import Counters
from jpdref.rules import Rules
from jpdref.stones import Color

from jpdtools.run.adapters import Capabilities, EndState, Observation, StepObservation, sort_vertices
from jpdtools.suite.model import Expectation
from jpdtools.suite.setup import CaseAction, FinalSpec, Setup
from jpdtools.verify.gtp import limits, score
from jpdtools.verify.gtp.client import GarbledReply, GtpClient, GtpError
from jpdtools.verify.gtp.profiles import GtpProfile

OTHER = {"B": "W", "W": "B"}
GTP_COLOUR = {"B": "black", "W": "white"}
SGF_LETTERS = "abcdefghijklmnopqrstuvwxy"


CRASH_LOOP = 10
"""Items in a row an engine may fail with a GTP error (a crash, a hang, a garbled reply) before
it is restarted no more: the rest of the run's items are errors without a process each."""


class SetupError(Exception):
    """The set-up or history could not be rebuilt in the engine."""


class Refused(Exception):
    """The engine refused, as GTP 2 lets it, something the item needs (a board size, a fixed
    handicap): the item is a skip with this reason, never a failure."""


@dataclass
class _Game:
    """The referee's view of one game (mutable, local to one ``observe`` call)."""

    geometry: Geometry
    board: dict[str, str]
    to_move: str
    phase: str = "contest"
    winner: str | None = None
    read: bool = True  # the board is the engine's (list_stones); False: the referee keeps it
    passes: int = 0  # consecutive passes (void passes included)
    handicap: int = 0
    moves: dict[str, int] = field(default_factory=lambda: {"B": 0, "W": 0})
    pass_count: dict[str, int] = field(default_factory=lambda: {"B": 0, "W": 0})
    prisoners: dict[str, int] = field(default_factory=lambda: {"B": 0, "W": 0})  # stones held
    first_pass: str | None = None
    last_move: str | None = None
    moved_last: str | None = None  # the side whose real move was the last action (play.turn)

    def counters(self) -> Counters:
        """The play-phase counters, as the reference keeps them (jpdref.game.Counters)."""

        def colour(letter: str | None) -> Color | None:
            return None if letter is None else Color.parse(letter)

        return make_counters(
            moves=(self.moves["B"], self.moves["W"]),
            passes=(self.pass_count["B"], self.pass_count["W"]),
            prisoners=(self.prisoners["B"], self.prisoners["W"]),
            handicap=self.handicap,
            first_to_pass=colour(self.first_pass),
            last_real_move=colour(self.last_move),
        )


class GtpAdapter:
    """A GTP engine behind the :class:`~jpdtools.run.adapters.Adapter` protocol."""

    def __init__(self, profile: GtpProfile, timeout: float = 10.0, rulesets: frozenset[str] | None = None):
        self.profile = profile
        self.name = profile.name
        self.timeout = timeout
        self.rulesets = rulesets  # the rulesets the engine claims to play (--engine-rules); None: all
        self.restarts = 0
        self.crashes = 0  # items in a row the engine failed with a GTP error (reset by any other)
        self.last_crash = ""
        self._clients: dict[tuple[str, ...], GtpClient] = {}
        self._commands: dict[tuple[str, ...], frozenset[str]] = {}  # per argv: what list_commands lists
        self._tmp: Path | None = None

    # -- protocol ----------------------------------------------------------------------------

    def capabilities(self) -> Capabilities:
        axes = {axis: frozenset(values) for axis, values in self.profile.axes.items()}
        size, features = self.profile.max_size, self.profile.features()
        return Capabilities(rulesets=self.rulesets, axes=axes, max_size=size, features=features)

    def unsupported_item(self, setup: Setup, history: tuple[CaseAction, ...], rules: Rules) -> str | None:
        """Why this item cannot be played beyond :meth:`capabilities` (or None)."""
        if self.profile.square_only and setup.width != setup.height:
            return f"board {setup.width}x{setup.height} is not square (GTP boards are square)"
        placement = str(rules.value("handicap"))
        return limits.unplayable(history, setup.handicap, placement, self.profile.free_handicap)

    def limit(self, expectation: Expectation, moves: tuple[CaseAction, ...]) -> limits.Limited:
        return limits.limit(expectation, moves)

    def limit_item(
        self, expectation: Expectation, setup: Setup, moves: tuple[CaseAction, ...], rules: Rules
    ) -> limits.Limited:
        """:meth:`limit`, the board claims when the engine cannot list its stones, and the count
        claims the engine can be held to for this item (asks ``list_commands`` once per engine)."""
        played = limits.limit(expectation, moves)
        read = self._reads_board(self._client(rules))
        unread = limits.limit_board(played.expectation, None if read else limits.NO_BOARD_READER)
        counted = limits.limit_count(unread.expectation, self.count_refusal(setup.final, rules))
        return limits.Limited(counted.expectation, played.dropped + unread.dropped + counted.dropped)

    def count_refusal(self, final: FinalSpec | None, rules: Rules) -> str | None:
        """Why ``final_score`` is not asked for this item (None: it is asked)."""
        return limits.count_refusal(final, str(rules.value("counting")), self.profile.counted)

    def probe(self, rules: Rules) -> None:
        """Start the engine with ``rules``' flags and ask ``list_commands``: an engine that cannot
        start raises :class:`GtpError` (with its exit status and standard error) before any item."""
        self._listed(self._client(rules))

    @property
    def engine_seconds(self) -> float:
        return sum(c.engine_seconds for c in self._clients.values())

    def take_transcript(self) -> tuple[str, ...]:
        """The GTP commands and replies since the last call (see :class:`GtpClient`)."""
        return tuple(line for c in self._clients.values() for line in c.take_transcript())

    def close(self) -> None:
        for client in self._clients.values():
            client.close()
        self._clients.clear()
        self._commands.clear()
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def observe(
        self,
        setup: Setup,
        history: tuple[CaseAction, ...],
        moves: tuple[CaseAction, ...],
        rules: Rules,
    ) -> Observation:
        if self.crashes >= CRASH_LOOP:
            # a crash loop is bounded: no more restarts, each remaining item an error saying why
            return Observation(
                "", error=f"not run: the engine failed {self.crashes} items in a row ({self.last_crash})"
            )
        client = self._client(rules)
        initial = ""
        steps: list[StepObservation] = []
        try:
            if setup.final is not None and self.count_refusal(setup.final, rules) is None:
                # GNU Go's final_score depends on what its process did before (clear_cache is not
                # enough: it changed the score of two items between --jobs 1 and 2), so an item
                # whose count is asked gets a fresh process (a start costs a few milliseconds).
                client.restart()
            game = self._set_up(client, setup, self._reads_board(client))
            initial = _rows(game)
            markers = dict(setup.markers)
            for n, action in enumerate(history, 1):
                step = self._step(client, game, action, markers, rules)
                if not step.legal:
                    raise SetupError(f"history action {n} ({action}) was refused: {step.reason}")
            for action in moves:
                steps.append(self._step(client, game, action, markers, rules))
            count = None
            if setup.final is not None and self.count_refusal(setup.final, rules) is None:
                count = score.ask_count(client, game.counters(), game.to_move, setup.final, rules)
        except Refused as err:
            return Observation(initial, tuple(steps), skip=f"{self.name}: {err}")
        except SetupError as err:
            return Observation(initial, tuple(steps), error=f"the set-up cannot be played: {err}")
        except GtpError as err:
            self.restarts += 1
            self.crashes += 1
            self.last_crash = f"last: {type(err).__name__}: {err}"
            return Observation(initial, tuple(steps), error=f"{self.name}: {type(err).__name__}: {err}")
        self.crashes = 0
        end = EndState(game.phase, game.to_move)
        if game.phase == "halted":
            end = EndState("halted", game.to_move, "two-passes", "to-count")
        if game.phase == "ended":
            end = EndState("ended", game.to_move, "illegal-move", "win", game.winner)
        return Observation(initial, tuple(steps), end, count=count)

    # -- the count ---------------------------------------------------------------------------

    # -- engine processes --------------------------------------------------------------------

    def _listed(self, client: GtpClient) -> frozenset[str]:
        """The commands the engine lists (``list_commands``, asked once per engine command line;
        an engine that refuses ``list_commands`` lists nothing)."""
        key = tuple(client.command)
        known = self._commands.get(key)
        if known is None:
            reply = client.send("list_commands")
            known = frozenset(reply.text.split()) if reply.ok else frozenset()
            self._commands[key] = known
        return known

    def _has_is_legal(self, client: GtpClient) -> bool:
        """Whether to ask ``is_legal``: the profile allows it and the engine lists the command."""
        return self.profile.has_is_legal and "is_legal" in self._listed(client)

    def _reads_board(self, client: GtpClient) -> bool:
        """Whether the engine's board can be read (it lists ``list_stones``)."""
        return "list_stones" in self._listed(client)

    def _client(self, rules: Rules) -> GtpClient:
        argv = self.profile.argv(rules)
        client = self._clients.get(argv)
        if client is None:
            client = self._clients[argv] = GtpClient(list(argv), self.timeout)
        return client

    def _tmpdir(self) -> Path:
        if self._tmp is None:
            self._tmp = Path(tempfile.mkdtemp(prefix="jpd-gtp-"))
        return self._tmp

    # -- set-up ------------------------------------------------------------------------------

    def _set_up(self, client: GtpClient, setup: Setup, reads_board: bool) -> _Game:
        geometry = Geometry(setup.width, setup.height)
        size = setup.width
        wanted = dict(setup.stones)
        if wanted and self.profile.uses_loadsgf:
            path = self._tmpdir() / "setup.sgf"
            path.write_text(_sgf(geometry, setup), encoding="ascii")
            _ok(client, f"loadsgf {path}", "load the set-up")
        else:
            reply = client.send(f"boardsize {size}")
            if not reply.ok:
                raise Refused(f"the engine refuses board size {size} ({reply.text or 'no reason given'})")
            _ok(client, "clear_board", "clear the board")
            for vertex, colour in setup.stones:
                reply = client.send(f"play {GTP_COLOUR[colour]} {vertex}")
                if not reply.ok:
                    raise SetupError(f"the engine refused set-up stone {colour} {vertex}: {reply.text}")
        to_move = setup.to_move
        placed: dict[str, str] = {}
        if setup.handicap:
            reply = client.send(f"fixed_handicap {setup.handicap}")
            if not reply.ok:
                raise Refused(f"the engine refuses fixed_handicap {setup.handicap} ({reply.text})")
            placed = _handicap_stones(reply.text, geometry)
            to_move = "W"
        if not reads_board:
            board = {**{v.upper(): c for v, c in wanted.items()}, **placed}
            return _Game(geometry, board, to_move, handicap=setup.handicap, read=False)
        board = _read_board(client, geometry)
        if wanted and board != {v.upper(): c for v, c in wanted.items()}:
            raise SetupError("the engine's board differs from the set-up position after rebuilding it")
        return _Game(geometry, board, to_move, handicap=setup.handicap)

    # -- one action --------------------------------------------------------------------------

    def _step(
        self, client: GtpClient, game: _Game, action: CaseAction, markers: dict[str, str], rules: Rules
    ) -> StepObservation:
        colour = action.color
        resigns_halted = action.kind == "resign" and str(rules.value("resignation")) == "until-counted"
        if game.phase != "contest" and not (game.phase == "halted" and resigns_halted):  # turn.resign
            return _refused(game, action, "game-over")
        if action.kind == "resign":
            game.phase, game.winner = "ended", OTHER[colour]
            return _observed(game, action, True, "played", None)
        if colour != game.to_move:
            twice = action.kind == "move" and game.moved_last == colour  # 连走二步 (play.turn)
            if twice and str(rules.value("out-of-turn")) == "loss":
                game.phase, game.winner = "ended", OTHER[colour]
                return _observed(game, action, False, "forfeit", "out-of-turn")
            return _refused(game, action, "out-of-turn")
        if action.kind == "virtual":
            return _refused(game, action, "virtual-not-allowed")
        if action.kind == "pass":
            _ok(client, f"play {GTP_COLOUR[colour]} pass", "accept a pass")
            _passed(client, game, colour, rules)
            return _observed(game, action, True, "played", None)
        vertex = _vertex(action, markers, game.geometry)
        if vertex is None:
            return _refused(game, action, "off-board")
        # Without is_legal, ``play`` is the test: GTP leaves the game unchanged when it refuses.
        asks = self._has_is_legal(client)
        legal = not asks or _yes_no(client.send(f"is_legal {GTP_COLOUR[colour]} {vertex}"), "is_legal")
        if legal:
            reply = client.send(f"play {GTP_COLOUR[colour]} {vertex}")
            if reply.ok:
                return self._played(client, game, action, vertex)
            if asks:
                raise GarbledReply(f"is_legal {vertex} said legal, then play refused it: {reply.text}")
        return self._refusal(client, game, action, vertex, rules)

    def _played(self, client: GtpClient, game: _Game, action: CaseAction, vertex: str) -> StepObservation:
        before = game.board
        after = _read_board(client, game.geometry) if game.read else _shadow_play(game, action.color, vertex)
        colour = action.color
        removed = [v for v in before if v not in after]
        captures = sort_vertices(v for v in removed if before[v] != colour)
        self_captures = sort_vertices(
            [v for v in removed if before[v] == colour] + ([vertex] if vertex not in after else [])
        )
        game.board = after
        game.to_move = OTHER[colour]
        game.passes = 0
        game.moves[colour] += 1
        game.last_move = game.moved_last = colour
        game.prisoners[colour] += len(captures)
        game.prisoners[OTHER[colour]] += len(self_captures)
        return _observed(game, action, True, "played", None, captures, self_captures)

    def _refusal(
        self, client: GtpClient, game: _Game, action: CaseAction, vertex: str, rules: Rules
    ) -> StepObservation:
        reason = _reason(game, action.color, vertex, rules)
        policy = str(rules.value("illegal-move"))
        if reason == "occupied" or policy == "refuse":
            return _refused(game, action, reason)
        if policy == "void-pass":
            _ok(client, f"play {GTP_COLOUR[action.color]} pass", "accept the void pass")
            _passed(client, game, action.color, rules)
            return _observed(game, action, False, "void-pass", reason)
        game.phase, game.winner = "ended", OTHER[action.color]
        return _observed(game, action, False, "forfeit", reason)


# -- helpers ------------------------------------------------------------------------------------


def _passed(client: GtpClient, game: _Game, colour: str, rules: Rules) -> None:
    """The referee's halt after two consecutive passes (AGA: White passes last, at once)."""
    _count_pass(game, colour, rules)
    game.to_move = OTHER[colour]
    game.passes += 1
    if game.passes < 2 or str(rules.value("halt")) == "four-virtual":
        return
    if str(rules.value("halt")) == "two-passes-white-last" and colour == "B":
        _ok(client, "play white pass", "accept White's compulsory pass")
        _count_pass(game, "W", rules)
        game.to_move = "B"
    game.phase = "halted"


def _count_pass(game: _Game, colour: str, rules: Rules) -> None:
    """A pass in the counters: who passed first; a pass stone to the opponent (AGA)."""
    game.moved_last = None
    game.pass_count[colour] += 1
    if game.first_pass is None:
        game.first_pass = colour
    if str(rules.value("pass")) == "pass-stone":
        game.prisoners[OTHER[colour]] += 1


def _ok(client: GtpClient, command: str, what: str) -> str:
    reply = client.send(command)
    if not reply.ok:
        raise SetupError(f"the engine would not {what} ({command!r}: {reply.text})")
    return reply.text


def _yes_no(reply, command: str) -> bool:
    if not reply.ok or reply.text.strip() not in ("0", "1"):
        raise GarbledReply(f"{command} answered {reply.text!r} (expected 0 or 1)")
    return reply.text.strip() == "1"


def _read_board(client: GtpClient, geometry: Geometry) -> dict[str, str]:
    board: dict[str, str] = {}
    for colour in ("B", "W"):
        reply = client.send(f"list_stones {GTP_COLOUR[colour]}")
        if not reply.ok:
            raise GarbledReply(f"list_stones {GTP_COLOUR[colour]} failed: {reply.text}")
        for word in reply.text.split():
            try:
                vertex = geometry.to_gtp(geometry.from_gtp(word))
            except CoordinateError:
                raise GarbledReply(f"list_stones named {word!r}, not a vertex of this board") from None
            if vertex in board:
                raise GarbledReply(f"list_stones names {vertex} for both colours")
            board[vertex] = colour
    return board


def _handicap_stones(text: str, geometry: Geometry) -> dict[str, str]:
    """The black stones a ``fixed_handicap`` reply names. Raises GarbledReply."""
    stones: dict[str, str] = {}
    for word in text.split():
        try:
            stones[geometry.to_gtp(geometry.from_gtp(word))] = "B"
        except CoordinateError:
            raise GarbledReply(f"fixed_handicap named {word!r}, not a vertex of this board") from None
    return stones


def _shadow_play(game: _Game, colour: str, vertex: str) -> dict[str, str]:
    """The board after the engine accepted ``colour`` at ``vertex``, as the referee keeps it when
    the engine cannot list its stones: opponent chains left without liberties are removed, then
    the mover's own chain if it has none (captures are not compared for such an engine)."""
    g = game.geometry
    board = dict(game.board)
    board[vertex] = colour
    for n in _neighbours(g, vertex):
        if board.get(n) == OTHER[colour]:
            chain, libs = _chain(g, board, n)
            if not libs:
                for v in chain:
                    del board[v]
    chain, libs = _chain(g, board, vertex)
    if not libs:
        for v in chain:
            del board[v]
    return board


def _rows(game: _Game) -> str:
    g = game.geometry
    symbol = {"B": "X", "W": "O"}
    return "/".join(
        "".join(symbol.get(game.board.get(g.to_gtp(g.point(x, y)), ""), ".") for x in range(g.width))
        for y in range(g.height)
    )


def _vertex(action: CaseAction, markers: dict[str, str], geometry: Geometry) -> str | None:
    vertex = action.vertex
    if vertex is not None and vertex.startswith("@"):
        vertex = markers.get(vertex[1:])
    if vertex is None:
        return None
    try:
        return geometry.to_gtp(geometry.from_gtp(vertex))
    except CoordinateError:
        return None


def _observed(game, action, legal, effect, reason, captures=(), self_captures=()) -> StepObservation:
    return StepObservation(
        action=str(action),
        legal=legal,
        effect=effect,
        reason=reason,
        captures=tuple(captures),
        self_captures=tuple(self_captures),
        to_move=game.to_move,
        board=_rows(game),
    )


def _refused(game: _Game, action: CaseAction, reason: str) -> StepObservation:
    return _observed(game, action, False, "refused", reason)


def _reason(game: _Game, colour: str, vertex: str, rules: Rules) -> str:
    """The reason for a refusal, from the board the engine reported (see the module text)."""
    if vertex in game.board:
        return "occupied"
    chain_size, liberties = _after_move(game, colour, vertex)
    if liberties == 0:
        suicide = str(rules.value("suicide"))
        if suicide == "forbidden" or (suicide == "multi-only" and chain_size == 1):
            return "suicide"
    return "ko" if str(rules.value("repetition")) == "simple-ko" else "superko"


def _after_move(game: _Game, colour: str, vertex: str) -> tuple[int, int]:
    """Size and liberties of the mover's chain after a stone at ``vertex`` and its captures."""
    g = game.geometry
    board = dict(game.board)
    board[vertex] = colour
    for n in _neighbours(g, vertex):
        if board.get(n) == OTHER[colour]:
            chain, libs = _chain(g, board, n)
            if not libs:
                for v in chain:
                    del board[v]
    chain, libs = _chain(g, board, vertex)
    return len(chain), len(libs)


def _neighbours(g: Geometry, vertex: str) -> list[str]:
    return [g.to_gtp(p) for p in g.neighbours[g.from_gtp(vertex)]]


def _chain(g: Geometry, board: dict[str, str], start: str) -> tuple[set[str], set[str]]:
    colour = board[start]
    chain, libs, todo = {start}, set(), [start]
    while todo:
        for n in _neighbours(g, todo.pop()):
            if n not in board:
                libs.add(n)
            elif board[n] == colour and n not in chain:
                chain.add(n)
                todo.append(n)
    return chain, libs


def _sgf(geometry: Geometry, setup: Setup) -> str:
    def point(vertex: str) -> str:
        x, y = geometry.xy(geometry.from_gtp(vertex))
        return f"[{SGF_LETTERS[x]}{SGF_LETTERS[y]}]"

    black = "".join(point(v) for v, c in setup.stones if c == "B")
    white = "".join(point(v) for v, c in setup.stones if c == "W")
    props = f"SZ[{geometry.width}]" + (f"AB{black}" if black else "") + (f"AW{white}" if white else "")
    return f"(;FF[4]GM[1]{props}PL[{setup.to_move}])\n"
