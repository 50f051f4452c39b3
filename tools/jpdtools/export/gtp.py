"""The GTP export: GNU Go regression scripts (``.tst``), one per case × ruleset. {#export.gtp}

GNU Go's regression harness (``regression/regress.awk``) pipes a ``.tst`` file into
``gnugo --mode gtp`` and compares the reply text of every *numbered* command with the pattern of
the ``#? [...]`` line that immediately follows it (an anchored awk regular expression; a trailing
``&`` means "record, do not judge"). It sees only the reply text, never ``=`` versus ``?``: a
refused ``play`` is the text ``illegal move``, an accepted one the empty text.

So a script can state: legality of a real move (``is_legal`` → ``1``/``0`` and ``play`` → empty
or ``illegal move``), that a pass is accepted, which points a step emptied (``color V`` →
``empty``) and the capture counters (``captures black``). It cannot state the side to move, the
board as a whole, the game's phase or result, virtual moves, resignation, refusals that GTP's
``play`` does not make (out of turn, after the game ended, a forbidden pass), or settling a
dispute by play (the ``settle …``, ``settled:``, ``proved:`` lines). Those are listed
in the script's header as not expressed; a case × ruleset that depends on them in a way that
changes the position (an accepted virtual move, a ``no-retreat`` ruleset, a non-square board)
gets no script at all (:attr:`GtpScript.reason`). The full list is spec/export-formats.md.
"""

from dataclasses import dataclass, field

from jpdref.board import Board
from jpdref.coords import CoordinateError, Geometry
from jpdref.rules import IllegalMove, PassRule, Repetition, Rules, Suicide
from jpdref.stones import Color

from jpdtools.export import EXPORT_VERSION, relative_source
from jpdtools.export.jsonl import fixed_points
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.compare import VERDICT_KINDS, claim_text
from jpdtools.run.runner import PlanItem
from jpdtools.suite.model import Case, Claim, StepVerdict
from jpdtools.suite.setup import CaseAction, Setup

GNUGO_MAX_SIZE = 19
VIOLATIONS = ("suicide", "ko", "superko")  # the reasons subject to the illegal-move policy
SENDABLE_REFUSALS = (*VIOLATIONS, "occupied")  # refusals GTP's play makes itself
ILLEGAL_REPLY = "illegal move"
SUICIDE_FLAGS = {
    Suicide.FORBIDDEN: (),
    Suicide.MULTI_ONLY: ("--allow-suicide",),
    Suicide.ALLOWED: ("--allow-all-suicide",),
}
REPETITION_FLAGS = {
    Repetition.SIMPLE_KO: (),
    Repetition.POSITIONAL: ("--positional-superko",),
    Repetition.SITUATIONAL: ("--situational-superko",),
}


class NotExportable(Exception):
    """This case × ruleset cannot be written as a regression script (the message says why)."""


@dataclass(frozen=True)
class GtpScript:
    """A regression script, or (``text`` None) why there is none; ``skipped`` lists the claims
    and steps the script does not express."""

    text: str | None
    skipped: tuple[str, ...] = ()
    reason: str = ""


def gnugo_flags(rules: Rules) -> tuple[str, ...]:
    """The GNU Go command-line flags for the ruleset's suicide and repetition axes."""
    if rules.repetition not in REPETITION_FLAGS:
        raise NotExportable(f"GNU Go has no repetition rule like {rules.repetition} (no flag)")
    return ("--komi", "0", *SUICIDE_FLAGS[rules.suicide], *REPETITION_FLAGS[rules.repetition])


def setup_plays(setup: Setup) -> list[tuple[str, str, str]]:
    """The set-up stones as plays, in the case's order: (vertex, colour, board after the play).

    Any order works: while a chain of the set-up is partly placed, each placed piece of it
    touches a stone of its own still to come, an empty point; once complete it keeps the
    liberties it has in the set-up position, which no later stone fills. So no play captures
    and none is suicide (checked here on the reference board all the same).
    """
    geometry = Geometry(setup.width, setup.height)
    board = Board(geometry)
    symbol = {"B": "X", "W": "O"}
    rows = [["."] * setup.width for _ in range(setup.height)]
    out = []
    for vertex, colour in setup.stones:
        p = geometry.from_gtp(vertex)
        captured, own = board.commit(board.preview(p, int(Color.parse(colour))))
        if captured or own:
            raise NotExportable(f"the set-up cannot be rebuilt by plays ({colour} {vertex} removes stones)")
        x, y = geometry.xy(p)
        rows[y][x] = symbol[colour]
        out.append((vertex, colour, "/".join("".join(r) for r in rows)))
    return out


def _check_partial_setups(case: Case, rules: Rules, partial: set[str]) -> None:
    """GNU Go remembers every position the set-up plays pass through; under superko a later
    position equal to one of them would be refused there and not here."""
    if not partial or rules.repetition is Repetition.SIMPLE_KO:
        return
    assert case.setup is not None
    observed = ReferenceAdapter().observe(case.setup, (), case.history + case.moves, rules)
    for step in observed.steps:
        if step.board in partial:
            raise NotExportable(
                f"after {step.action} the board is one that the set-up plays pass through, which "
                "GNU Go's superko history holds and the case's history does not"
            )


@dataclass
class _Script:
    """The lines of a script being written, with the numbering of judged commands."""

    lines: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    number: int = 0

    def plain(self, command: str) -> None:
        self.lines.append(command)

    def judged(self, command: str, pattern: str, record_only: bool = False) -> None:
        self.number += 1
        self.lines.append(f"{self.number} {command}")
        self.lines.append(f"#? [{pattern}]" + ("&" if record_only else ""))

    def comment(self, text: str) -> None:
        self.lines.extend(f"# {line}".rstrip() for line in text.splitlines())


@dataclass
class _Counters:
    """The capture counters GNU Go reports (``captures black`` = white stones removed), while
    every removal is known; None once a step's removals are not stated."""

    removed: dict[str, int | None] = field(default_factory=lambda: {"B": 0, "W": 0})

    def add(self, colour: str, count: int | None) -> None:
        current = self.removed[colour]
        self.removed[colour] = None if current is None or count is None else current + count

    def known(self) -> bool:
        return None not in self.removed.values()


def _other(colour: str) -> str:
    return "W" if colour == "B" else "B"


def _gtp_colour(colour: str) -> str:
    return "black" if colour == "B" else "white"


def _verdict_claim(claims: tuple[Claim, ...]) -> Claim | None:
    return next((c for c in claims if c.kind in VERDICT_KINDS), None)


def _target(action: CaseAction) -> str:
    return action.vertex if action.kind == "move" and action.vertex else "pass"


def _history(script: _Script, case: Case, rules: Rules, counters: _Counters) -> None:
    if not case.history:
        return
    assert case.setup is not None
    observed = ReferenceAdapter().observe(case.setup, (), case.history, rules)
    if observed.error or len(observed.steps) != len(case.history):
        raise NotExportable(f"the history cannot be replayed: {observed.error}")
    script.comment("history (every action is accepted)")
    for action, step in zip(case.history, observed.steps, strict=True):
        if action.kind in ("virtual", "resign"):
            raise NotExportable(f"the history holds a {action.kind} action ({action}), which GTP cannot send")
        script.plain(f"play {action.color} {_target(action)}")
        counters.add(_other(action.color), len(step.captures))
        counters.add(action.color, len(step.self_captures))


def _removals(
    script: _Script, n: int, action: CaseAction, claims: tuple[Claim, ...], rules: Rules, counters: _Counters
) -> None:
    """``color V`` checks for the stones a step removed, and the capture counters if known."""
    by_kind = {c.kind: c for c in claims}
    captures, self_captures = by_kind.get("captures"), by_kind.get("self-captures")
    for claim in (captures, self_captures):
        for vertex in claim.args if claim is not None else ():
            script.judged(f"color {vertex}", "empty")
    if action.kind != "move":
        return
    took = None if captures is None else len(captures.args)
    lost = None if self_captures is None else len(self_captures.args)
    if lost is None and (took or rules.suicide is Suicide.FORBIDDEN):
        lost = 0  # a move that captures, or under a ban on suicide, removes none of its own
    if took is None and lost:
        took = 0  # a suicide captures nothing (capture comes first)
    counters.add(_other(action.color), took)
    counters.add(action.color, lost)
    if counters.known():
        for colour in ("B", "W"):
            script.judged(f"captures {_gtp_colour(colour)}", str(counters.removed[_other(colour)]))
    elif took is None or lost is None:
        script.skipped.append(f"step {n}: capture counters from here on (the removals are not all stated)")


def _refused(script: _Script, action: CaseAction, reason: str, rules: Rules) -> str:
    """Send a move the case expects refused with a reason GTP's play gives; its effect."""
    if action.kind == "move":
        script.judged(f"is_legal {action.color} {action.vertex}", "0")
    script.judged(f"play {action.color} {_target(action)}", ILLEGAL_REPLY)
    policy = rules.illegal_move if reason in VIOLATIONS else IllegalMove.REFUSE
    if policy is IllegalMove.VOID_PASS:
        script.comment(f"illegal-move policy void-pass: the refused move counts as {action.color}'s pass")
        script.plain(f"play {action.color} pass")
    return str(policy)


def _accepted(script: _Script, action: CaseAction) -> None:
    if action.kind == "move":
        script.judged(f"is_legal {action.color} {action.vertex}", "1")
    script.judged(f"play {action.color} {_target(action)}", "")


def _either(script: _Script, n: int, action: CaseAction, verdict: StepVerdict, last: bool) -> None:
    """An either-verdict: the play is sent and its reply recorded, never judged (``&``)."""
    kinds = {(c.kind, c.args) for alt in verdict.alternatives for c in alt if c.kind in VERDICT_KINDS}
    plain = all(k == "legal" or (k == "illegal" and a[0] in SENDABLE_REFUSALS) for k, a in kinds)
    if not (plain or last):
        raise NotExportable(f"step {n} has an either-verdict whose outcomes leave different games")
    if action.kind not in ("move", "pass"):
        raise NotExportable(f"step {n} ({action}) has an either-verdict on an action GTP cannot send")
    script.judged(f"play {action.color} {_target(action)}", f"({ILLEGAL_REPLY})?", record_only=True)
    script.skipped.append(f"step {n}: either-verdict {claim_text(verdict)} (reply recorded, not judged)")


def _steps(script: _Script, item: PlanItem, counters: _Counters) -> None:
    case, rules, expectation = item.case, item.rules, item.expectation
    assert rules is not None and expectation is not None
    verdicts = {v.step: v for v in expectation.steps}
    over = ""
    for n, action in enumerate(case.moves, 1):
        verdict = verdicts.get(n)
        last = n == len(case.moves)
        script.comment(f"step {n}: {action}" + (f" — expected: {claim_text(verdict)}" if verdict else ""))
        if over:
            script.skipped.append(f"step {n}: {action} (not sent: {over})")
            continue
        if verdict is not None and verdict.is_open:
            _either(script, n, action, verdict, last)
            counters.removed = {"B": None, "W": None}
            continue
        claims = verdict.alternatives[0] if verdict else ()
        main = _verdict_claim(claims)
        for claim in claims:
            if claim.kind in ("to-move", "board"):
                script.skipped.append(f"step {n}: {claim_text(claim)}")
        if main is not None and main.kind != "legal":
            reason = main.args[0]
            if reason not in SENDABLE_REFUSALS or action.kind not in ("move", "pass"):
                script.skipped.append(
                    f"step {n}: {action} {claim_text(main)} (not sent: GTP's play cannot refuse it)"
                )
                continue
            if _refused(script, action, reason, rules) == "loss":
                over = "the game ended by the illegal-move policy loss"
            continue
        if action.kind == "virtual":
            raise NotExportable(f"step {n} is an accepted virtual move ({action}); GTP has none")
        if action.kind == "resign":
            script.skipped.append(f"step {n}: {action} (GTP has no resignation command; not sent)")
            over = "the game ended by resignation"
            continue
        if main is None:
            script.plain(f"play {action.color} {_target(action)}")
        else:
            _accepted(script, action)
        _removals(script, n, action, claims, rules, counters)
    if expectation.end is not None:
        script.skipped.append(f"end: {claim_text(expectation.end)} (GTP reports no game phase or result)")
    script.skipped += [f"{line} (GTP has no settling stage)" for line in expectation.settle.lines()]
    if expectation.count is not None:
        script.skipped.append(f"{expectation.count} (no GTP command states a count by these rules)")
    script.skipped += [f"{p} (no GTP command states a point's owner)" for p in expectation.points]


def _header(item: PlanItem, flags: tuple[str, ...], skipped: list[str]) -> list[str]:
    case, rules = item.case, item.rules
    assert rules is not None and case.setup is not None
    where = case.location
    flag_text = " ".join(flags)
    lines = [
        f"jipingdian conformance case {case.id} under ruleset {rules.name} (export version {EXPORT_VERSION})",
        case.title,
        f"source: {relative_source(item.file)}:{where.line if where else 0}; spec: {', '.join(case.spec)}",
        "axes: " + " ".join(f"{a}={v}" for a, v in rules.values().items()),
        f"GNU Go flags this ruleset needs: {flag_text}",
        "  The regression harness has no per-file flags; run this file on its own:",
        f"  gnugo --quiet --mode gtp {flag_text} < FILE.tst | awk -f regress.awk tst=FILE.tst",
    ]
    if rules.illegal_move is not IllegalMove.REFUSE:
        lines.append(f"  illegal-move={rules.illegal_move} has no flag; the script plays its effect itself")
    if max(case.setup.width, case.setup.height) > GNUGO_MAX_SIZE:
        lines.append(f"  note: GNU Go 3.8 takes boards up to {GNUGO_MAX_SIZE}x{GNUGO_MAX_SIZE}")
    if skipped:
        lines.append("not expressed in this format:")
        lines += [f"  {s}" for s in skipped]
    return [f"# {line}" for line in lines]


def gtp_script(item: PlanItem) -> GtpScript:
    """The regression script of a case under one ruleset, or why there is none."""
    case, rules = item.case, item.rules
    if rules is None or item.expectation is None or case.setup is None:
        return GtpScript(None, reason="an error case tests the loader, not a program")
    setup = case.setup
    try:
        if setup.width != setup.height:
            raise NotExportable(f"GTP boardsize takes one number; the board is {setup.width}x{setup.height}")
        flags = gnugo_flags(rules)
        script = _Script()
        counters = _Counters()
        script.plain(f"boardsize {setup.width}")
        script.plain("clear_board")
        script.plain("komi 0")
        if setup.stones:
            script.comment("set-up stones (plays: no set-up command in GTP; none of them captures)")
            plays = setup_plays(setup)
            for vertex, colour, _ in plays:
                script.plain(f"play {colour} {vertex}")
            _check_partial_setups(case, rules, {board for *_, board in plays[:-1]})
        points = fixed_points(setup, rules)
        if points:
            script.comment(f"fixed handicap of {setup.handicap}: {' '.join(points)}; White moves next")
            script.comment("(played, not fixed_handicap: GTP places a handicap of 3 elsewhere)")
            for vertex in points:
                script.plain(f"play B {vertex}")
        elif setup.handicap:
            script.comment(f"free handicap of {setup.handicap}: Black's placements are the plays below")
        _history(script, case, rules, counters)
        _steps(script, item, counters)
    except NotExportable as err:
        return GtpScript(None, reason=str(err))
    except CoordinateError as err:
        return GtpScript(None, reason=f"bad vertex: {err}")
    if rules.pass_rule is PassRule.PASS_STONE:
        script.skipped.append("pass=pass-stone: GNU Go hands over no pass stones (no claim here counts them)")
    text = "\n".join([*_header(item, flags, script.skipped), *script.lines]) + "\n"
    return GtpScript(text, tuple(script.skipped))
