"""Differential fuzzing: random games played by a program under test and by the reference.

``jpd fuzz`` (:mod:`jpdtools.commands.fuzz`) plays seeded random games through an adapter (GTP or
JSON lines) and compares every step with the reference implementation (``jpdref``) through the
same comparator as ``jpd verify``: the reference's observation of the game becomes the expected
claims, the adapter's ``limit_item`` drops what the program cannot be held to, and ``judge``
finds the mismatches. A game with a mismatch is **shrunk** and written out as a case file.

**The games** (:func:`random_game`) are biased towards what breaks engines: every candidate
action is weighed by what the reference says it would do — recapturing at once after a
single-stone capture (a ko fight, and the immediate ko retake), captures, ataris, suicides
(multi-stone above all), moves next to the last one (fights and snapbacks grow there), a pass or
a virtual move between ko captures (a ko threat that changes nothing) — and chosen at random by
weight from a generator seeded per game: game ``n`` of seed ``s`` is the same game on every
machine. Illegal actions are part of the game: the reference refuses them (and applies the
ruleset's illegal-move policy), and the program must do the same. Now and then a side resigns.

**What is compared** (:func:`reference_expectation`): every step; the end once play halted or
ended (a resignation, a forfeit, the halt) — the side to move is not compared after that
(spec/jsonl-protocol.md#jsonl.v4); and, for a program that counts, the count of a game that
halted (``final`` is sent, nothing agreed dead: :func:`counted`), by winner and margin. A game
whose steps agree and whose end or count does not is a finding of kind ``end`` or ``count``.

**Shrinking** (:func:`shrink`): the moves after the first mismatching step go (a finding of kind
``end`` or ``count`` keeps them all: its game leads to what differs); then the shortest tail of
the game that still fails, played from the position before it given as set-up stones (a set-up
position starts a fresh repetition history, so a long cycle keeps its moves; a count finding
usually keeps the two passes before the count); then set-up stones are removed, in halves and
then one by one, as long as the position stays valid and the case still fails the same way — at
its last step for a step finding, with every step agreeing and the end or count differing for an
``end`` or ``count`` finding. Every trial plays the candidate case through the program again.

**The case** (:func:`finding_case`): the shrunk set-up and moves, the reference's verdicts on
every step (``legal captures …``, ``illegal R``, ``void-pass R``, with ``to-move`` and the
``board``) and ``status: proposed`` — the verdicts come from the reference, not from the rule
text, so the case waits for a reviewer (spec/case-format.md#format.review); ``jpd run`` accepts
it as it is, and ``jpd verify`` on it fails the same way the fuzzer saw.
"""

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from jpdref.coords import Geometry
from jpdref.game import Action, Game
from jpdref.rules import Rules
from jpdref.stones import Color

from jpdtools.run.adapters import Observation, ReferenceAdapter
from jpdtools.run.compare import Judgement, Status, judge, observed_end
from jpdtools.run.features import features_of_play
from jpdtools.suite.model import Case, Claim, CountClaim, CountVerdict, Expectation, StepVerdict
from jpdtools.suite.setup import CaseAction, FinalSpec, Setup

CLAUSE_OF_REASON = {
    "suicide": "capture.suicide",
    "ko": "rep.simple-ko",
    "superko": "rep.rules",
    "occupied": "play.move",
}


@dataclass(frozen=True)
class Trial:
    """A candidate case: set-up and moves under ``rules``."""

    setup: Setup
    moves: tuple[CaseAction, ...]


@dataclass(frozen=True)
class Finding:
    """A failing game, its shrunk case and what failed."""

    seed: int
    game: Trial
    shrunk: Trial
    expectation: Expectation
    mismatches: tuple[str, ...]
    trials: int
    kind: str = ""  # what the program got wrong (:func:`classify`): ko, suicide, superko, …


# -- random games -------------------------------------------------------------------------------


def random_game(
    rules: Rules, size: int, rng: random.Random, max_moves: int, avoid: frozenset[str] = frozenset()
) -> tuple[CaseAction, ...]:
    """A game of at most ``max_moves`` actions from the empty board, weighed as the module text
    says; it stops early when the reference halts or ends the game. ``avoid`` names kinds of
    finding already made (``suicide``, ``ko``): such actions are not chosen any more, so that
    the next games look for something else."""
    geometry = Geometry(size, size)
    game = Game.new(rules, geometry, {}, Color.parse("B"))
    virtual_ok = str(rules.value("virtual-move")) != "forbidden"
    pass_ok = str(rules.value("pass")) != "forbidden"
    actions: list[CaseAction] = []
    last: int | None = None
    ko_point: int | None = None  # where a single stone was just captured
    for _ in range(max_moves):
        if str(game.phase) != "contest":
            break
        colour = game.to_move
        board = game.board
        candidates: list[tuple[float, CaseAction, int | None]] = []
        near = set(_around(geometry, last, 2)) if last is not None else set()
        for p in range(geometry.width * geometry.height):
            if board.chain[p] is not None:
                continue
            pv = board.preview(p, colour)
            weight = 1.0
            captured = sum(len(ch.stones) for ch in pv.captured)
            if captured == 1:
                weight += 25.0
            elif captured:
                weight += 10.0
            if pv.suicide and "suicide" in avoid:
                continue
            if p == ko_point and captured == 1 and "ko" in avoid:
                continue
            if pv.suicide:
                size_own = 1 + sum(len(ch.stones) for ch in pv.own)
                weight += 8.0 if size_own > 1 else 2.0
            if any(len(ch.libs) == 2 for ch in _opponent_chains(board, geometry, p, colour)):
                weight += 4.0  # an atari: a capture or a snapback next
            if p == ko_point:
                weight += 60.0  # the immediate retake
            if p in near:
                weight *= 4.0
            candidates.append((weight, CaseAction(colour.letter, "move", geometry.to_gtp(p)), p))
        total = sum(w for w, _, _ in candidates) or 1.0
        if pass_ok:
            candidates.append(
                (total * (0.08 if ko_point is not None else 0.01), CaseAction(colour.letter, "pass"), None)
            )
        if virtual_ok:
            candidates.append(
                (total * (0.08 if ko_point is not None else 0.01), CaseAction(colour.letter, "virtual"), None)
            )
        if candidates:  # now and then a resignation (compared: who wins, and nothing after it)
            candidates.append((total * 0.003, CaseAction(colour.letter, "resign"), None))
        if not candidates:
            break
        _, action, point = rng.choices(candidates, weights=[w for w, _, _ in candidates])[0]
        step = game.play(_reference_action(action, geometry))
        actions.append(action)
        if step.legal and point is not None:
            last = point
            single = len(step.captures) == 1
            ko_point = step.captures[0] if single else None
        elif step.legal:
            pass  # a pass or a virtual move keeps the ko point: the retake comes next
    return tuple(actions)


def _around(geometry: Geometry, p: int, radius: int) -> Iterator[int]:
    x0, y0 = geometry.xy(p)
    for y in range(max(0, y0 - radius), min(geometry.height, y0 + radius + 1)):
        for x in range(max(0, x0 - radius), min(geometry.width, x0 + radius + 1)):
            yield geometry.point(x, y)


def _opponent_chains(board, geometry: Geometry, p: int, colour: Color):
    seen = []
    for q in board.nbrs[p]:
        ch = board.chain[q]
        if ch is not None and ch.color != colour and ch not in seen:
            seen.append(ch)
    return seen


def _reference_action(action: CaseAction, geometry: Geometry) -> Action:
    colour = Color.parse(action.color)
    if action.kind == "move":
        return Action.move(colour, geometry.from_gtp(action.vertex))
    if action.kind == "pass":
        return Action.pass_(colour)
    if action.kind == "resign":
        return Action.resign(colour)
    return Action.virtual(colour)


# -- comparing a trial ------------------------------------------------------------------------------


def counted(trial: Trial, rules: Rules) -> Trial:
    """``trial`` asking for the count (``final``, nothing agreed dead) when the reference halts
    its game: the program is then held to the count's winner and margin too."""
    if trial.setup.final is not None:
        return trial
    end = ReferenceAdapter().observe(trial.setup, (), trial.moves, rules).end
    if end is None or end.phase != "halted":
        return trial
    return Trial(replace(trial.setup, final=FinalSpec()), trial.moves)


def reference_expectation(trial: Trial, rules: Rules) -> Expectation | None:
    """Every claim the reference makes about ``trial``: per step legal / illegal R (with the
    policy's effect), captures, self-captures, side to move, board; the end once play halted or
    ended (a resignation, a forfeit, a cycle, the halt); and, when ``trial`` asks for it, the
    count's winner and margin. The side to move is not claimed once the game has halted or
    ended (spec/jsonl-protocol.md#jsonl.v4). None when the reference cannot play it (an
    invalid set-up)."""
    observation = ReferenceAdapter().observe(trial.setup, (), trial.moves, rules)
    if observation.error is not None:
        return None
    over = observation.end is not None and observation.end.phase in ("halted", "ended")
    steps = []
    for n, step in enumerate(observation.steps, 1):
        if step.legal:
            claims = [Claim("legal"), Claim("captures", step.captures)]
            if step.self_captures:
                claims.append(Claim("self-captures", step.self_captures))
        else:
            kind = "illegal" if step.effect == "refused" else step.effect
            claims = [Claim(kind, (step.reason or "",))]
        if not (over and n == len(observation.steps)):
            claims.append(Claim("to-move", (step.to_move,)))
        claims.append(Claim("board", (step.board,)))
        steps.append(StepVerdict(n, (tuple(claims),)))
    end = observed_end(observation.end) if over and observation.end is not None else None
    count = None
    if observation.count is not None:
        c = observation.count
        result = CountClaim("result", c.winner or "", c.margin if c.margin is not None else Fraction(0))
        count = CountVerdict((CountClaim("error", code=c.error) if c.error else result,))
    return Expectation("default", tuple(steps), end, count=count)


def check(adapter, trial: Trial, rules: Rules) -> tuple[Judgement, Expectation] | None:
    """The program's judgement on ``trial`` against the reference (None: not comparable — the
    reference or the program cannot play it, it needs a rule feature the program lacks, or
    nothing is left to compare)."""
    if not adapter.capabilities().lacks(frozenset({"counting"})):
        trial = counted(trial, rules)
    expectation = reference_expectation(trial, rules)
    if expectation is None:
        return None
    if adapter.capabilities().lacks(features_of_play(trial.setup, trial.moves, rules, expectation)):
        return None  # the game needs a feature the program declared it lacks: not a finding
    limiter = getattr(adapter, "limit_item", None)
    held = expectation
    if limiter is not None:
        limited = limiter(expectation, trial.setup, trial.moves, rules)
        if limited.empty:
            return None
        held = limited.expectation
    elif getattr(adapter, "limit", None) is not None:
        limited = adapter.limit(expectation, trial.moves)
        if limited.empty:
            return None
        held = limited.expectation
    observation: Observation = adapter.observe(trial.setup, (), trial.moves, rules)
    if observation.skip is not None:
        return None
    return judge(held, observation), expectation


def fails(adapter, trial: Trial, rules: Rules) -> Judgement | None:
    """The failing judgement of ``trial``, or None when it passes or cannot be compared. An
    error of the program is not a finding of the fuzzer (it is reported, not shrunk)."""
    checked = check(adapter, trial, rules)
    if checked is None or checked[0].status is not Status.FAIL:
        return None
    return checked[0]


def first_failing_step(judgement: Judgement) -> int:
    steps = [m.step for m in judgement.mismatches if m.step is not None]
    return min(steps) if steps else 0


# -- shrinking --------------------------------------------------------------------------------------


def position_before(trial: Trial, rules: Rules, k: int) -> Setup | None:
    """The set-up of the position the reference reaches after the first ``k`` moves of ``trial``
    (None if the game is no longer in play there: the tail would not start in a contest)."""
    geometry = Geometry(trial.setup.width, trial.setup.height)
    stones = {geometry.from_gtp(v): Color.parse(c) for v, c in trial.setup.stones}
    game = Game.new(rules, geometry, stones, Color.parse(trial.setup.to_move))
    for action in trial.moves[:k]:
        game.play(_reference_action(action, geometry))
    if str(game.phase) != "contest" or any(game.virtual_stones.values()):
        return None  # a halted game, or virtual stones a set-up cannot hold
    placed = tuple((geometry.to_gtp(p), c.letter) for p, c in sorted(game.board.stones().items()))
    return Setup(trial.setup.width, trial.setup.height, game.to_move.letter, placed)


def fails_last(adapter, trial: Trial, rules: Rules, kind: str) -> Judgement | None:
    """The judgement of ``trial`` if its *last* step fails, and fails as ``kind``; else None."""
    judgement = fails(adapter, trial, rules)
    last = len(trial.moves)
    if judgement is None or not any(m.step == last for m in judgement.mismatches):
        return None
    return judgement if classify(trial, rules, last) == kind else None


def after_steps(judgement: Judgement) -> str:
    """The kind of a failure none of whose steps differs: ``count`` when the count or a point
    differs, else ``end``."""
    return "count" if any(m.label in ("count", "point") for m in judgement.mismatches) else "end"


def fails_after_steps(adapter, trial: Trial, rules: Rules, kind: str) -> Judgement | None:
    """The judgement of ``trial`` if every step agrees and its end or count fails as ``kind``
    (``end`` or ``count``); else None."""
    judgement = fails(adapter, trial, rules)
    if judgement is None or first_failing_step(judgement) or after_steps(judgement) != kind:
        return None
    return judgement


def shrink(
    adapter, trial: Trial, rules: Rules, kind: str, budget: Callable[[], bool] = lambda: True
) -> tuple[Trial, Judgement, int]:
    """A smaller trial that still fails as ``kind`` — at its last step, or, for ``end`` and
    ``count``, after steps that all agree (``trial`` fails so; see the module text) — its
    judgement, and the number of trials played. ``budget()`` False stops shrinking where it is."""
    test = fails_after_steps if kind in ("end", "count") else fails_last
    tried = 1
    best_judgement = test(adapter, trial, rules, kind)
    if best_judgement is None:
        raise ValueError(f"shrink() needs a trial that fails as {kind!r}")
    best = trial

    def still(candidate: Trial) -> Judgement | None:
        nonlocal tried
        tried += 1
        return test(adapter, candidate, rules, kind)

    # the shortest tail from a set-up position
    for tail in range(1, len(best.moves)):
        if not budget():
            break
        setup = position_before(best, rules, len(best.moves) - tail)
        if setup is None:
            continue
        candidate = Trial(setup, best.moves[-tail:])
        found = still(candidate)
        if found is not None:
            best, best_judgement = candidate, found
            break
    # fewer set-up stones: halves, then quarters, … then one at a time
    stones = list(best.setup.stones)
    chunk = max(1, len(stones) // 2)
    while stones and budget():
        i = 0
        while i < len(stones) and budget():
            kept = stones[:i] + stones[i + chunk :]
            candidate = Trial(_with_stones(best.setup, tuple(kept)), best.moves)
            found = still(candidate)
            if found is not None:
                best, best_judgement, stones = candidate, found, kept
            else:
                i += chunk
        if chunk == 1:
            break
        chunk //= 2
    return best, best_judgement, tried


def _with_stones(setup: Setup, stones: tuple[tuple[str, str], ...]) -> Setup:
    return Setup(setup.width, setup.height, setup.to_move, stones)


# -- what kind of finding --------------------------------------------------------------------------


def classify(trial: Trial, rules: Rules, step: int) -> str:
    """What the failing ``step`` of ``trial`` is about, as the reference sees it: ``ko`` for the
    immediate recapture of a single-stone ko (whatever repetition rule refuses it), else the
    reason the reference refuses the action (``suicide``, ``superko``, ``occupied``, …), else
    ``accepted`` (the reference accepts what the program refused or did differently)."""
    geometry = Geometry(trial.setup.width, trial.setup.height)
    stones = {geometry.from_gtp(v): Color.parse(c) for v, c in trial.setup.stones}
    game = Game.new(rules, geometry, stones, Color.parse(trial.setup.to_move))
    last_capture: tuple[int, int] | None = None  # (the capturing stone, the one stone it took)
    for n, action in enumerate(trial.moves, 1):
        point = geometry.from_gtp(action.vertex) if action.kind == "move" else None
        if n == step:
            retake = last_capture is not None and point == last_capture[1]
            if retake and point is not None:
                pv = game.board.preview(point, Color.parse(action.color))
                taken = [p for ch in pv.captured for p in ch.stones]
                if taken == [last_capture[0]]:
                    return "ko"
            result = game.play(_reference_action(action, geometry))
            return str(result.reason) if not result.legal and result.reason is not None else "accepted"
        result = game.play(_reference_action(action, geometry))
        if result.legal and point is not None:
            last_capture = (point, result.captures[0]) if len(result.captures) == 1 else None
    return "accepted"


# -- the run ----------------------------------------------------------------------------------------

SHRINK_GRACE_SECONDS = 30.0  # shrinking a finding may run this long past --seconds
MAX_MOVES = {19: 240}  # per board size; other sizes: 4 × the side × the side / 3, at most 120


def max_moves(size: int) -> int:
    return MAX_MOVES.get(size, min(120, 4 * size * size // 3))


@dataclass(frozen=True)
class Event:
    """What :func:`fuzz` reports as it goes: ``kind`` is ``game`` (one game compared, ``text``
    says how it ended), ``size`` (a board size the program refuses), ``error`` (the program
    misbehaved: not a finding) or ``finding``."""

    kind: str
    seed: int = 0
    text: str = ""
    finding: Finding | None = None


def fuzz(
    adapter,
    rules: Rules,
    sizes: tuple[int, ...],
    *,
    seed: int = 1,
    games: int = 1000,
    seconds: float = 60.0,
    keep_going: bool = False,
) -> Iterator[Event]:
    """Play games ``seed``, ``seed + 1``, … (at most ``games``, for at most ``seconds``), compare
    each with the reference, shrink every failing one; stop at the first finding unless
    ``keep_going`` (then one finding per kind, :func:`classify`: a failing game of a kind already
    found is not shrunk again). Board sizes the program cannot play are dropped first (a
    ``size`` event)."""
    kinds: set[str] = set()
    deadline = time.monotonic() + seconds
    playable = []
    for size in sizes:
        try:
            why = _cannot_play(adapter, rules, size)
        except Exception as err:  # a program that cannot even be asked
            why = f"{type(err).__name__}: {err}"
        if why:
            yield Event("size", text=f"{size}x{size}: {why}")
        else:
            playable.append(size)
    if not playable:
        return
    for n in range(games):
        if time.monotonic() > deadline:
            break
        game_seed = seed + n
        rng = random.Random(game_seed)
        size = playable[n % len(playable)]
        trial = Trial(Setup(size, size), random_game(rules, size, rng, max_moves(size), frozenset(kinds)))
        try:
            checked = check(adapter, trial, rules)
        except Exception as err:  # the program misbehaved where the harness asked it something
            yield Event("error", game_seed, f"{type(err).__name__}: {err}")
            continue
        if checked is None:
            yield Event("game", game_seed, f"{size}x{size}, {len(trial.moves)} actions: not comparable")
            continue
        judgement, _ = checked
        if judgement.status is Status.ERROR:
            yield Event("error", game_seed, judgement.detail)
            continue
        if judgement.status is not Status.FAIL:
            yield Event("game", game_seed, f"{size}x{size}, {len(trial.moves)} actions: {judgement.status}")
            continue
        # only the first failing step counts: after it the two games differ (a void pass here,
        # a stone there), and what follows is a consequence
        step = first_failing_step(judgement)
        # a game whose steps all agree and whose end or count does not: classified by what differs
        kind = classify(trial, rules, step) if step else after_steps(judgement)
        if kind in kinds:
            yield Event("game", game_seed, f"{size}x{size}, {len(trial.moves)} actions: fail ({kind}, again)")
            continue
        kinds.add(kind)
        budget = lambda: time.monotonic() < deadline + SHRINK_GRACE_SECONDS  # noqa: E731
        head = Trial(trial.setup, trial.moves[:step]) if step else trial  # end, count: all of it
        shrunk, final, tried = shrink(adapter, head, rules, kind, budget)
        if not adapter.capabilities().lacks(frozenset({"counting"})):
            shrunk = counted(shrunk, rules)
        expectation = reference_expectation(shrunk, rules)
        assert expectation is not None
        mismatches = tuple(str(m) for m in final.mismatches)
        finding = Finding(game_seed, trial, shrunk, expectation, mismatches, tried, kind)
        yield Event("finding", game_seed, f"{kind}: " + "; ".join(mismatches), finding)
        if not keep_going:
            break


def _cannot_play(adapter, rules: Rules, size: int) -> str | None:
    setup = Setup(size, size)
    why = adapter.capabilities().unsupported(rules, setup)
    hook = getattr(adapter, "unsupported_item", None)
    if not why and hook is not None:
        why = hook(setup, (), rules)
    if why:
        return why
    probe = adapter.observe(setup, (), (CaseAction("B", "pass"),), rules)
    return probe.skip or probe.error


# -- the case ---------------------------------------------------------------------------------------


def finding_case(finding: Finding, rules: Rules, impl: str) -> Case:
    """The shrunk game as a case (``status: proposed``; see the module text)."""
    expectation = finding.expectation
    failing = _failing_step(finding)
    verdict = expectation.steps[failing - 1] if 0 < failing <= len(expectation.steps) else None
    clause = "play.move"
    if finding.kind in ("count", "end"):  # the steps agreed: the count or the end did not
        method = str(rules.value("counting"))
        known = ("area", "japanese", "art", "roads", "ing")
        clause = f"count.{method}" if method in known else "count.komi"
        clause = "end.halt" if finding.kind == "end" else clause
    elif verdict is not None:
        first = verdict.alternatives[0][0]
        if first.kind != "legal":
            clause = CLAUSE_OF_REASON.get(first.args[0], "play.illegal")
    name = rules.name.partition(":")[0]
    moves = " ".join(str(a) for a in finding.game.moves)
    note = (
        f"Found by jpd fuzz --impl {impl} --rules {rules.name} --seed {finding.seed}: game {finding.seed} "
        f"({finding.game.setup.width}x{finding.game.setup.height}, {len(finding.game.moves)} actions), "
        f"shrunk in {finding.trials} trials. The program: {'; '.join(finding.mismatches)}. The verdicts "
        f"are the reference's; a reviewer checks them against the rule text. Game: {moves}"
    )
    return Case(
        id=f"fuzz.{name}.{finding.seed}",
        title=f"A {name} game the program under test plays differently (fuzz seed {finding.seed})",
        spec=(clause,),
        seeds=("jpd fuzz",),
        tags=("fuzz",),
        rules=(rules.name,),  # a variant (NAME:axis=value) is named whole: the verdicts are its own
        setup=finding.shrunk.setup,
        moves=finding.shrunk.moves,
        expectations=(expectation,),
        note=note,
        status="proposed",
    )


def _failing_step(finding: Finding) -> int:
    for text in finding.mismatches:
        if text.startswith("step "):
            number = text[5:].split(":", 1)[0]
            if number.isdigit():
                return int(number)
    return len(finding.shrunk.moves)
