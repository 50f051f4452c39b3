"""The harness side of the JSON-lines protocol: a program under test behind the Adapter interface.

:class:`JsonlAdapter` launches the program on first use, does the ``start`` handshake, sends one
``run`` per case × ruleset and turns each answer into an :class:`~jpdtools.run.adapters.Observation`.
Whatever the program does — hang, crash, write garbage — becomes an ``error`` observation for
that one item; the program is then restarted for the next item, and nothing already gathered is
lost. Claims the program did not declare (``supports.claims``) are left out of the comparison
(:meth:`JsonlAdapter.limit`, the optional hook of :mod:`jpdtools.verify.verification`; the observation holds
``?`` placeholders for them); an item left with no claim is a skip. A declared claim must be
reported at every step: a null one makes the item an error.
"""

import contextlib
import os
import secrets
import shlex
import time
import weakref
from dataclasses import dataclass, replace
from typing import NoReturn

from jpdref.rules import Rules

from jpdtools.run.adapters import (
    Capabilities,
    CountObservation,
    EndState,
    Limited,
    Observation,
    SettleObservation,
    StepObservation,
)
from jpdtools.run.compare import claim_text
from jpdtools.run.features import LATER_FEATURES
from jpdtools.suite.model import Claim, Expectation, SettleVerdicts, StepVerdict
from jpdtools.suite.setup import CaseAction, Setup
from jpdtools.verify.jsonl.protocol import (
    CLAIMS,
    COUNT_CLAIMS,
    PROTOCOL_VERSION,
    PROTOCOL_VERSIONS,
    RESULT_CLAIMS,
    Act,
    Count,
    End,
    Error,
    ProtocolError,
    Ready,
    Result,
    Run,
    Settle,
    Start,
    Step,
    Stop,
    Unsupported,
    decode,
    encode,
)
from jpdtools.verify.process import ProgramExited, ProgramFlooded, ProgramProcess, ProgramTimeout

MAX_START_FAILURES = 3  # after this many failed launches in a row, stop relaunching
MAX_LINE_BYTES = 8 << 20  # a longer line is garbage (a 25×25 result with 300 steps is ~250 KB)


CRASH_LOOP = 10
"""Items in a row a program may fail by dying, hanging or garbling before it is relaunched no more."""
GARBLED_QUOTE = 200  # characters of a garbled line quoted in the error
TRANSCRIPT_CHARS = 4000  # characters of one line kept in an item's transcript


def _clip(line: str, width: int = GARBLED_QUOTE) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


class JsonlError(Exception):
    """The program could not be started or did not complete the handshake."""


class JsonlStartTimeout(JsonlError):
    """The program started but did not answer ``start`` in time (it may on a relaunch)."""


class _Timeout(Exception):
    pass


class _Exited(Exception):
    pass


class _Process:
    """One running program (a :class:`ProgramProcess`: its own process group, pipes read with
    ``select``, no reader thread), one line per message, a line at most :data:`MAX_LINE_BYTES`."""

    def __init__(self, command: list[str]) -> None:
        try:
            self.proc = ProgramProcess(command, MAX_LINE_BYTES)
        except ProgramExited as err:
            raise JsonlError(f"cannot launch: {err}") from None
        self._finalizer = weakref.finalize(self, self.proc.kill)

    def send(self, line: str, timeout: float) -> None:
        try:
            self.proc.write((line + "\n").encode("utf-8"), time.monotonic() + timeout)
        except ProgramTimeout:
            raise _Timeout(f"the program did not read its input within {timeout:g}s") from None
        except ProgramExited:
            raise _Exited(self.exit_text()) from None

    def receive(self, timeout: float) -> str:
        """The next non-empty line, within ``timeout`` seconds. A line past the length limit is
        a ProtocolError (the program is garbled)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                raw = self.proc.read_until(_line_end, deadline)
            except ProgramTimeout:
                raise _Timeout(f"no answer within {timeout:g}s") from None
            except ProgramExited:
                raise _Exited(self.exit_text()) from None
            except ProgramFlooded as err:
                raise ProtocolError(f"a line of {err}") from None
            line = raw.decode("utf-8", "replace").strip()
            if line:
                return line

    def exit_text(self) -> str:
        code = self.proc.exit_status(1.0)
        said = self.proc.stderr_tail()
        status = "closed its output" if code is None else f"exited with status {code}"
        return f"the program {status}" + (f" (stderr: {said})" if said else "")

    def alive(self) -> bool:
        return self.proc.alive()

    def stop(self, timeout: float) -> None:
        """Send ``stop``, give the program ``timeout`` seconds to exit, then end its group."""
        if self.alive() and timeout > 0:
            with contextlib.suppress(_Exited, _Timeout):
                self.send(encode(Stop()), timeout)
            self.proc.wait_exit(timeout)
        self._finalizer()


def _line_end(buffer: bytearray) -> int:
    newline = buffer.find(b"\n")
    return -1 if newline < 0 else newline + 1


@dataclass(frozen=True)
class Declared:
    """What the program said in its ``ready`` answer, as the harness uses it."""

    name: str
    version: str
    capabilities: Capabilities
    claims: frozenset[str]
    protocol: int = PROTOCOL_VERSION


def _later(protocol: int) -> frozenset[str]:
    """The features a program of ``protocol`` has without listing them (added after it)."""
    return frozenset(f for f, since in LATER_FEATURES.items() if protocol < since)


def declared(ready: Ready) -> Declared:
    s = ready.supports
    caps = Capabilities(
        rulesets=None if s.rulesets is None else frozenset(s.rulesets),
        axes={axis: frozenset(values) for axis, values in s.axes.items()},
        max_size=s.max_size,
        features=None if s.features is None else frozenset(s.features) | _later(ready.protocol),
        sizes=None if s.sizes is None else frozenset(s.sizes),
    )
    claims = frozenset(s.claims) if ready.protocol >= 2 else frozenset(s.claims) & frozenset(CLAIMS)
    return Declared(ready.name, ready.version, caps, claims, ready.protocol)


class JsonlAdapter:
    """A JSON-lines program under test (``spec/jsonl-protocol.md``).

    ``command`` launches the program, at once, so that ``name`` is the one the program declares
    (a program that cannot start is not an exception here: each item then reports the error).
    ``timeout`` bounds the wait for every answer, the handshake included. Use as a context
    manager, or call :meth:`close`, to stop the program.
    """

    def __init__(self, command: list[str], timeout: float = 10.0) -> None:
        if not command:
            raise ValueError("JsonlAdapter needs a command")
        self.command = list(command)
        self.timeout = timeout
        self.name = "jsonl:" + shlex.join([os.path.basename(command[0]), *command[1:]])
        self._process: _Process | None = None
        self._declared: Declared | None = None
        self._start_failures = 0
        self._start_error = ""
        self._runs = 0
        self._waited = 0.0
        self._transcript: list[str] = []  # the lines of the current item: "> " sent, "< " received
        self.crashes = 0  # items in a row the program failed by dying, hanging or garbling
        self.restarts = 0
        self._last_crash = ""
        with contextlib.suppress(JsonlError):
            self._started()

    # -- life cycle ----------------------------------------------------------------------------

    def __enter__(self) -> "JsonlAdapter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Send ``stop`` and end the program (killing it if it does not exit in time)."""
        if self._process is not None:
            self._process.stop(min(self.timeout, 5.0))
            self._process = None

    def _discard(self) -> None:
        if self._process is not None:
            self._process.stop(0.0)
            self._process = None

    def _started(self) -> _Process:
        if self._process is not None and self._process.alive():
            return self._process
        self._discard()
        if self._start_failures >= MAX_START_FAILURES:
            raise JsonlError(self._start_error)
        try:
            process = _Process(self.command)
        except JsonlError as err:
            self._fail_start(str(err))
        try:
            process.send(encode(Start(PROTOCOL_VERSION, PROTOCOL_VERSIONS)), self.timeout)
            answer = decode(process.receive(self.timeout))
        except _Timeout as err:
            process.stop(0.0)
            self._fail_start(f"start: {err}", JsonlStartTimeout)
        except (_Exited, ProtocolError) as err:
            process.stop(0.0)
            self._fail_start(f"start: {err}")
        if isinstance(answer, Error):
            process.stop(0.0)
            self._fail_start(f"start refused: {answer.message}")
        if not isinstance(answer, Ready) or answer.protocol not in PROTOCOL_VERSIONS:
            process.stop(0.0)
            offered = " or ".join(str(v) for v in PROTOCOL_VERSIONS)
            self._fail_start(f"start: expected a 'ready' answer for protocol {offered}, got {answer!r}"[:200])
        assert isinstance(answer, Ready)
        self._declared = declared(answer)
        self.name = f"{answer.name} {answer.version}".strip()
        self._start_failures = 0
        self._process = process
        return process

    def _fail_start(self, message: str, kind: type[JsonlError] = JsonlError) -> NoReturn:
        self._start_failures += 1
        self._start_error = f"{' '.join(self.command)}: {message}"
        raise kind(self._start_error)

    def declared(self) -> Declared:
        """The program's declaration (starting it if needed; raises JsonlError if it cannot)."""
        if self._declared is None:
            self._started()
        assert self._declared is not None
        return self._declared

    @property
    def engine_seconds(self) -> float:
        """Seconds spent waiting for the program's answers to ``run`` messages."""
        return self._waited

    # -- the Adapter interface -----------------------------------------------------------------

    def capabilities(self) -> Capabilities:
        return self.declared().capabilities

    def observe(
        self,
        setup: Setup,
        history: tuple[CaseAction, ...],
        moves: tuple[CaseAction, ...],
        rules: Rules,
    ) -> Observation:
        self._runs += 1
        if self.crashes >= CRASH_LOOP:
            # a crash loop is bounded: no more relaunching, each remaining item an error saying why
            return Observation(
                "", error=f"not run: the program failed {self.crashes} items in a row ({self._last_crash})"
            )
        try:
            counts = self._counts()
        except JsonlError as err:
            return Observation("", error=str(err))
        try:
            final = setup.final if counts else None
            # run.case is an opaque name, new for every run: never the case id, so a program
            # cannot look the answer up in the installed suite (spec/jsonl-protocol.md#jsonl.run)
            item = f"item-{secrets.token_hex(6)}"
            msg = run_message(f"r{self._runs}", setup, history, moves, rules, item, final)
        except ValueError as err:
            return Observation("", error=f"the case cannot be sent: {err}")
        line = ""
        try:
            process = self._started()
            began = time.perf_counter()
            try:
                sent = encode(msg)
                self._note("> " + sent)
                process.send(sent, self.timeout)
                line = process.receive(self.timeout)
                self._note("< " + line)
            finally:
                self._waited += time.perf_counter() - began
            answer = decode(line)
        except JsonlError as err:
            return Observation("", error=str(err))
        except _Timeout as err:
            return self._crashed(f"{self.name}: {err} (restarted)")
        except _Exited as err:
            return self._crashed(f"{self.name}: {err} (restarted)")
        except ProtocolError as err:
            quoted = f": {_clip(line)!r}" if line else ""
            return self._crashed(f"{self.name}: garbled answer{quoted}: {err} (restarted)")
        self.crashes = 0
        return self._observation(msg, answer, moves)

    def _crashed(self, message: str) -> Observation:
        """An item the program failed by dying, hanging or garbling: it is relaunched for the next
        one, at most :data:`CRASH_LOOP` items in a row."""
        self._discard()
        self.restarts += 1
        self.crashes += 1
        self._last_crash = f"last: {message}"
        return Observation("", error=message)

    def _note(self, line: str) -> None:
        self._transcript.append(_clip(line, TRANSCRIPT_CHARS))

    def take_transcript(self) -> tuple[str, ...]:
        """The lines exchanged for the item just observed (``>`` sent, ``<`` received), once."""
        taken, self._transcript = tuple(self._transcript), []
        return taken

    def _counts(self) -> bool:
        """Whether the program counts or settles: version 2 and a declared count claim."""
        d = self.declared()
        return d.protocol >= 2 and bool(d.claims & frozenset((*COUNT_CLAIMS, *RESULT_CLAIMS)))

    def _observation(self, msg: Run, answer: object, moves: tuple[CaseAction, ...]) -> Observation:
        claims = self.declared().claims
        answered_id = getattr(answer, "id", None)
        if isinstance(answer, Error) and answered_id in (msg.id, None):
            return Observation("", error=f"{self.name}: {answer.message}")
        if isinstance(answer, Unsupported) and answered_id == msg.id:
            return declined(f"{self.name}: {answer.reason}")
        if not isinstance(answer, Result) or answered_id != msg.id:
            self._discard()
            what = type(answer).__name__.lower()
            return Observation("", error=f"{self.name}: expected the result of {msg.id}, got a {what}")
        if len(answer.steps) != len(moves):
            return Observation(
                "",
                error=f"{self.name}: {len(answer.steps)} steps answered for {len(moves)} moves",
            )
        missing = unreported(answer, claims)
        if missing:
            return Observation("", error=f"{self.name}: declared {missing} but did not report it")
        steps = tuple(step_observation(str(a), s, claims) for a, s in zip(moves, answer.steps, strict=True))
        end = end_observation(answer.end, claims)
        if msg.final is None:
            return Observation(answer.initial_board or "", steps, end)
        missing = uncounted(answer, claims, msg.final.settle is not None)
        if missing:
            return Observation("", error=f"{self.name}: declared {missing} but did not report it")
        count = count_observation(answer.count) if answer.count is not None else None
        settling = None
        if answer.settle is not None:
            settling = settle_observation(
                answer.settle, msg.final.settle.moves if msg.final.settle else (), claims
            )
        return Observation(answer.initial_board or "", steps, end, count=count, settling=settling)

    def limit(self, expectation: Expectation, moves: tuple[CaseAction, ...]) -> Limited:
        """The part of ``expectation`` made of claims the program declared it reports."""
        return limit(expectation, self._claims())

    def limit_item(
        self, expectation: Expectation, setup: Setup, moves: tuple[CaseAction, ...], rules: Rules
    ) -> Limited:
        """:meth:`limit`, knowing whether the case settles a dispute by play before it counts."""
        settles = setup.final is not None and setup.final.settle is not None
        return limit(expectation, self._claims(), settles)

    def _claims(self) -> frozenset[str]:
        claims = self.declared().claims
        return claims if self._counts() else claims - frozenset((*COUNT_CLAIMS, *RESULT_CLAIMS))


# -- conversions -------------------------------------------------------------------------------


def _act(action: CaseAction, markers: dict[str, str]) -> Act:
    if action.kind != "move":
        return Act(action.color, action.kind)
    vertex = action.vertex or ""
    if vertex.startswith("@"):
        if vertex[1:] not in markers:
            raise ValueError(f"{action}: unknown marker")
        vertex = markers[vertex[1:]]
    return Act(action.color, "move", vertex.upper())


def run_message(
    run_id: str,
    setup: Setup,
    history: tuple[CaseAction, ...],
    moves: tuple[CaseAction, ...],
    rules: Rules,
    case: str = "",
    final=None,
) -> Run:
    """The ``run`` message of one case under one ruleset, markers resolved to vertices."""
    markers = dict(setup.markers)
    return Run(
        id=run_id,
        ruleset=rules.name,
        rules=rules.values(),
        width=setup.width,
        height=setup.height,
        to_move=setup.to_move,
        handicap=setup.handicap,
        stones=tuple((v.upper(), c) for v, c in setup.stones),
        history=tuple(_act(a, markers) for a in history),
        moves=tuple(_act(a, markers) for a in moves),
        case=case,
        final=final,
    )


UNTOLD = "?"  # an undeclared claim's placeholder: never compared (limit() drops such claims)


def step_observation(action: str, step: Step, claims: frozenset[str]) -> StepObservation:
    """A step as the comparator sees it; undeclared claims get placeholders that are never compared."""
    legal = bool(step.legal) if "legal" in claims else False
    effect = (step.effect or ("played" if legal else "refused")) if "legal" in claims else UNTOLD
    reason = step.reason if "reason" in claims and not legal else None

    def told(claim: str, value, placeholder):
        return value if claim in claims and value is not None else placeholder

    return StepObservation(
        action=action,
        legal=legal,
        effect=effect,
        reason=reason,
        captures=told("captures", step.captures, ()),
        self_captures=told("self-captures", step.self_captures, ()),
        to_move=told("to-move", step.to_move, UNTOLD),
        board=told("board", step.board, UNTOLD),
        reasons=step.reasons if "reason" in claims and not legal else (),
    )


def end_observation(end: End | None, claims: frozenset[str]) -> EndState:
    if end is None or end.phase is None or "end" not in claims:
        return EndState(UNTOLD, UNTOLD)
    return EndState(end.phase, end.to_move or UNTOLD, end.kind, end.result, end.winner)


REFUSALS = ("illegal", "void-pass", "forfeit")


def needs(claim: Claim) -> tuple[str, ...]:
    """The protocol claims a case claim is compared on in full (a refusal's reason included)."""
    if claim.kind == "legal":
        return ("legal",)
    if claim.kind in REFUSALS:
        return ("legal", "reason")
    return (claim.kind,)


def held_claim(claim: Claim, claims: frozenset[str]) -> Claim | None:
    """The part of ``claim`` a program declaring ``claims`` is held to, or None.

    A refusal (``illegal R``, ``void-pass R``, ``forfeit R``) is a claim about legality first:
    a program that reports ``legal`` but not ``reason`` is still held to refusing the action (and,
    for ``void-pass``/``forfeit``, to the policy's effect) — only the reason code goes. Dropping
    the whole refusal would let a program that accepts everything pass every refusal case."""
    if set(needs(claim)) <= claims:
        return claim
    if claim.kind in REFUSALS and "legal" in claims:
        return Claim(claim.kind)  # refused, the reason not compared (compare.claim_holds)
    return None


def _held_alternative(alternative: tuple[Claim, ...], claims: frozenset[str]) -> tuple[Claim, ...]:
    return tuple(h for h in (held_claim(c, claims) for c in alternative) if h is not None)


def _vacuous(alternatives: tuple[tuple[Claim, ...], ...]) -> bool:
    """Whether an either-verdict reduced to ``alternatives`` holds whatever the program does:
    one alternative claims nothing, or one is a bare ``legal`` and another a bare ``illegal``."""
    bare = {alt[0].kind for alt in alternatives if len(alt) == 1 and not alt[0].args}
    return not all(alternatives) or {"legal", "illegal"} <= bare


def _either_text(alternatives: tuple[tuple[Claim, ...], ...]) -> str:
    return " | ".join(" ".join(claim_text(c) for c in alt) for alt in alternatives)


def limit(expectation: Expectation, claims: frozenset[str], settles: bool = False) -> Limited:
    """Drop every claim that needs an undeclared protocol claim (a refusal whose reason is not
    reported keeps its legality, :func:`held_claim`); an either-verdict is reduced alternative by
    alternative (alternatives left alike become one), and goes whole when what is left of it could
    not fail."""
    kept: list[StepVerdict] = []
    dropped: list[str] = []
    for verdict in expectation.steps:
        if verdict.is_open:
            reduced = tuple(dict.fromkeys(_held_alternative(alt, claims) for alt in verdict.alternatives))
            if reduced == verdict.alternatives:
                kept.append(verdict)
            elif _vacuous(reduced):
                dropped.append(str(verdict))
            else:
                kept.append(replace(verdict, alternatives=reduced))
                dropped.append(f"{verdict} (compared as {_either_text(reduced)})")
            continue
        alternative = verdict.alternatives[0] if verdict.alternatives else ()
        held = _held_alternative(alternative, claims)
        for claim in alternative:
            part = held_claim(claim, claims)
            if part == claim:
                continue
            note = "" if part is None else f" (its reason is not reported: compared as {claim_text(part)})"
            dropped.append(f"{verdict.step}: {claim}{note}")
        if held:
            kept.append(replace(verdict, alternatives=(held,)))
    end = expectation.end
    if end is not None and "end" not in claims:
        dropped.append(str(end))
        end = None
    # Count, point and settling claims need a version 2 program that declared them; a case
    # that settles first is counted only by a program that settles.
    settle = expectation.settle
    if not settle.empty and "settle" not in claims:
        dropped.extend(settle.lines())
        settle = SettleVerdicts()
    settles_first = settles or not expectation.settle.empty
    count, points = expectation.count, expectation.points
    if count is not None and "count" not in claims and "count-result" in claims:
        # winner and margin only (protocol 4): the figures and the unit are not compared
        bare = tuple(replace(c, black=None, white=None, unit=None) for c in count.alternatives)
        if bare != count.alternatives:
            dropped.append(f"{count} (compared as winner and margin only)")
        count = replace(count, alternatives=bare)
        claims = claims | {"count"}
    if count is not None and ("count" not in claims or (settles_first and "settle" not in claims)):
        dropped.append(str(count))
        count = None
    if points and ("points" not in claims or (settles_first and "settle" not in claims)):
        dropped.extend(str(p) for p in points)
        points = ()
    held = replace(expectation, steps=tuple(kept), end=end, count=count, points=points, settle=settle)
    return Limited(held, tuple(dropped))


STEP_FIELDS = {
    "legal": "legal",
    "captures": "captures",
    "self-captures": "self_captures",
    "to-move": "to_move",
    "board": "board",
}


def unreported(result: Result, claims: frozenset[str]) -> str:
    """The first declared claim a result leaves null, as text ("" if none)."""
    for n, step in enumerate(result.steps, 1):
        for claim, name in STEP_FIELDS.items():
            if claim in claims and getattr(step, name) is None:
                return f"{claim!r} (null at step {n})"
        if "reason" in claims and step.legal is False and step.reason is None:
            return f"'reason' (null for the refusal at step {n})"
    if "end" in claims and (result.end is None or result.end.phase is None):
        return "'end' (null)"
    return ""


def uncounted(result: Result, claims: frozenset[str], settles: bool) -> str:
    """The first declared count claim a version 2 result leaves out ("" if none)."""
    if ("count" in claims or "count-result" in claims or "points" in claims) and result.count is None:
        return "'count' (null)"
    counted = result.count is not None and result.count.error is None
    if "points" in claims and counted and result.count.points is None:
        return "'points' (null)"
    if settles and "settle" in claims and result.settle is None:
        return "'settle' (null)"
    return ""


def count_observation(count: Count) -> CountObservation:
    """A version 2 count as the comparator sees it."""
    if count.error is not None:
        return CountObservation(method=count.method or "", error=count.error, message=count.message)
    return CountObservation(
        method=count.method or "",
        winner=count.winner,
        margin=count.margin,
        black=count.black,
        white=count.white,
        unit=count.unit,
        points=count.points or (),
        komi="" if count.komi is None else str(count.komi),
    )


def settle_observation(
    settle: Settle, moves: tuple[CaseAction, ...], claims: frozenset[str]
) -> SettleObservation:
    """A version 2 settling stage as the comparator sees it."""
    if settle.error is not None:
        return SettleObservation(procedure=settle.procedure or "", error=settle.error, message=settle.message)
    steps = tuple(step_observation(str(a), s, claims) for a, s in zip(moves, settle.steps, strict=False))
    return SettleObservation(
        procedure=settle.procedure or "",
        steps=steps,
        end=None if settle.end is None else end_observation(settle.end, claims | {"end"}),
        settled=settle.settled,
        captured=settle.captured,
        standing=settle.standing,
        upheld=settle.upheld,
        rejected=settle.rejected,
    )


def declined(reason: str) -> Observation:
    """The observation of a run the program declined: a skip, never a pass."""
    return Observation("", skip=reason)
