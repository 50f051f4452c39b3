"""GNU Go's ``final_status_list`` as a second, independent opinion on the statuses a counting case
declares (spec/counting.md#count.status).

The prover (:mod:`jpdtools.proof`) reads the statuses with the reference engine; GNU Go reads
them with its own life-and-death code. For each case whose statuses lint proves, on a square board
(GNU Go plays nothing else), the position is set up with ``play`` commands and GNU Go is asked for
its ``dead`` and ``seki`` stones; a stone on which the case's agreement and GNU Go differ is a
*disagreement*, listed per case with the prover's verdict beside it, so each one can be explained
(``reports/status-proofs/``).

GNU Go is asked about every *counted* position too (a case with a count verdict and no dispute
settled by play first), once with each side to move: a chain the count leaves alive (not marked
dead by the agreement) that GNU Go calls dead is a position that is not settled (count.status (6):
no chain counted alive can be captured whoever moves first), unless its explanation says why GNU Go
is wrong (:func:`unsettled`). GNU Go keeps a position's final status for the rest of its run
whoever is to move, so each side to move has its own engine; answers are kept between runs
(:mod:`jpdtools.verify.opinion_cache`), and an engine is started only for a position not kept.

An opinion not had is never taken for one: a GNU Go that fails, answers ``?`` or anything but the
board's vertices to ``final_status_list``, or does not answer in time gives no opinion on the case
(:attr:`Opinion.missing`), and ``jpd lint`` reports it. The whole second opinion has a time
limit (``budget``), and after ``FAILURES_IN_A_ROW`` cases failed in a row GNU Go is not asked again.
"""

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from jpdtools.review.statuses import CaseStatuses, Settledness, counted, declared, played_position
from jpdtools.suite.model import Case
from jpdtools.verify import implementations
from jpdtools.verify.gtp.client import GtpClient, GtpError
from jpdtools.verify.opinion_cache import OpinionCache

COMMAND_SECONDS = 60.0  # for one GTP command (GNU Go reads a 19x19 board in a few seconds)
BUDGET_SECONDS = 600.0  # for the whole second opinion
FAILURES_IN_A_ROW = 3  # cases GNU Go failed in a row before it is not asked again
MAX_SIZE = 19  # GNU Go 3.8's largest board (its smallest, 1x1, is below the suite's)


@dataclass(frozen=True)
class Opinion:
    """GNU Go's dead and seki stones on one case's position, against the agreement's."""

    case_id: str
    board: str  # e.g. "5x5"
    declared_dead: tuple[str, ...]
    declared_seki: tuple[str, ...]
    gnugo_dead: tuple[str, ...] = ()  # with Black to move
    gnugo_seki: tuple[str, ...] = ()  # with Black to move
    skipped: str = ""  # why GNU Go was not asked (a board it cannot play, an engine failure)
    missing: bool = False  # the opinion was to be had and was not (``skipped`` says why)
    prover: str = ""  # the prover's verdict: proven | disproven | undecided | agreement | pending
    reason: str = ""  # the case's own reason when its statuses are agreed or pending
    declares: bool = True  # the case's agreement declares dead or seki stones
    counted: bool = False  # the case counts this position (a count verdict, nothing settled by play)
    gnugo_dead_white_first: tuple[str, ...] = ()  # GNU Go's dead stones with White to move
    unsettled_chains: tuple[tuple[str, ...], ...] = ()  # counted alive, dead by GNU Go (either side first)

    @property
    def disagrees(self) -> bool:
        if self.skipped:
            return False
        dead_differ = set(self.declared_dead) != set(self.gnugo_dead)
        return dead_differ or set(self.declared_seki) != set(self.gnugo_seki)


def _chains(position, vertices: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The chains the vertices mark, each as its stones in GTP order, in the order of their first."""
    board = position.board()
    geometry = position.geometry
    out: set[tuple[str, ...]] = set()
    for v in vertices:
        ch = board.chain[geometry.from_gtp(v)]
        if ch is not None:
            out.add(tuple(sorted(geometry.to_gtp(p) for p in ch.stones)))
    return tuple(sorted(out))


def _chain_stones(position, vertices: Sequence[str]) -> tuple[str, ...]:
    """Every stone of the chains the vertices mark (a mark stands for its chain)."""
    board = position.board()
    geometry = position.geometry
    out: set[str] = set()
    for v in vertices:
        ch = board.chain[geometry.from_gtp(v)]
        if ch is not None:
            out |= {geometry.to_gtp(p) for p in ch.stones}
    return tuple(sorted(out))


def _verdict(statuses: CaseStatuses | None) -> str:
    if statuses is None:
        return ""
    if statuses.agreement:
        return "agreement"
    if statuses.pending:
        return "pending"
    return {True: "proven", False: "disproven", None: "undecided"}[statuses.holds]


class _OutOfTime(Exception):
    """The second opinion's time limit ran out."""


def _vertices(reply_text: str, geometry) -> tuple[str, ...] | None:
    """The vertices of a ``final_status_list`` reply (one chain a line), or None when a word is
    not a vertex of the board."""
    words = reply_text.split()
    try:
        found = {geometry.to_gtp(geometry.from_gtp(w.upper())) for w in words}
    except ValueError:  # a CoordinateError: not a vertex of this board
        return None
    return tuple(sorted(found))


class _Engines:
    """One GNU Go process for each side to move, each started when first needed (GNU Go keeps a
    position's final status for the rest of its run, whoever is to move), and the answers kept
    between runs."""

    def __init__(self, command: tuple[str, ...], cache: OpinionCache | None = None):
        self.command = command
        self.cache = cache
        self.running: dict[str, GtpClient] = {}

    def client(self, to_move: str) -> GtpClient:
        if to_move not in self.running:
            client = GtpClient(list(self.command), timeout=COMMAND_SECONDS)
            self.running[to_move] = client  # closed by close(), even if it fails to start
            client.start()
        return self.running[to_move]

    def close(self) -> None:
        for client in self.running.values():
            client.close()


def ask(
    engines: _Engines,
    case: Case,
    presets,
    statuses: CaseStatuses | None = None,
    deadline: float | None = None,
) -> Opinion:
    """GNU Go's opinion on ``case`` (its position after ``history`` and ``moves``): with Black to
    move, and for a counted position with White to move too. ``deadline`` (``time.monotonic()``)
    bounds every command; past it, :class:`_OutOfTime` is raised."""
    opinion, position = _declared(case, presets, statuses)
    geometry = position.geometry
    cannot = _cannot_play(geometry)
    if cannot:
        return replace(opinion, skipped=cannot)
    stones = [(geometry.to_gtp(p), c.letter) for p, c in position.stones.items()]
    found: dict[tuple[str, str], tuple[str, ...]] = {}
    for first in ("B", "W") if opinion.counted else ("B",):
        statuses_asked = ("dead", "seki") if first == "B" else ("dead",)
        key = engines.cache.key(geometry.width, stones, first) if engines.cache else ""
        kept = engines.cache.get(key) if engines.cache else None
        if kept is not None and all(status in kept for status in statuses_asked):
            found.update(((first, status), tuple(kept[status])) for status in statuses_asked)
            continue
        try:
            client = engines.client(first)

            def send(command: str, client=client):
                left = (
                    client.timeout if deadline is None else min(client.timeout, deadline - time.monotonic())
                )
                if left <= 0:
                    raise _OutOfTime
                return client.send(command, timeout=left)

            stone = _set_up(send, position, first)
            if stone:
                return replace(opinion, skipped=f"GNU Go refused the set-up stone {stone}", missing=True)
            for status in statuses_asked:
                reply = send(f"final_status_list {status}")
                vertices = _vertices(reply.text, geometry) if reply.ok else None
                if vertices is None:
                    said = ("" if reply.ok else "? ") + repr(" ".join(reply.text.split())[:80])
                    why = f"GNU Go answered 'final_status_list {status}' with {said}"
                    return replace(opinion, skipped=why, missing=True)
                found[first, status] = vertices
        except GtpError as err:
            if first in engines.running:
                engines.running[first].restart()
            return replace(opinion, skipped=f"GNU Go failed: {err}", missing=True)
        if engines.cache:
            engines.cache.put(key, {status: list(found[first, status]) for status in statuses_asked})
    white_first = found.get(("W", "dead"), ())
    either = set(found["B", "dead"]) | set(white_first)
    unsettled = _chains(position, sorted(either - set(opinion.declared_dead))) if opinion.counted else ()
    return replace(
        opinion,
        gnugo_dead=found["B", "dead"],
        gnugo_seki=found["B", "seki"],
        gnugo_dead_white_first=white_first,
        unsettled_chains=unsettled,
    )


def _set_up(send, position, to_move: str) -> str:
    """Sets ``position`` up on GNU Go's board with ``to_move`` to move (the other colour's stones
    are played last); the first stone GNU Go refuses, or ""."""
    geometry = position.geometry
    send(f"boardsize {geometry.width}")
    send("clear_board")
    order = (to_move, "W" if to_move == "B" else "B")
    for colour in order:  # one colour, then the other: no stone is captured on the way
        for p, c in sorted(position.stones.items()):
            if c.letter == colour:
                vertex = geometry.to_gtp(p)
                if not send(f"play {colour} {vertex}").ok:
                    return vertex
    return ""


def opinions(
    cases: Sequence[Case],
    presets,
    proven: dict[str, CaseStatuses],
    binary: str | None = None,
    budget: float = BUDGET_SECONDS,
    keep: bool = True,
) -> list[Opinion]:
    """GNU Go's opinion on every case (one engine process for each side to move; with ``keep``,
    answers kept from earlier runs are used and new ones kept), within ``budget`` seconds; the cases
    left when it runs out, or after GNU Go failed ``FAILURES_IN_A_ROW`` cases in a row, are missing
    opinions saying so."""
    profile = implementations.gtp_profile("gnugo", binary)
    deadline = time.monotonic() + budget
    out: list[Opinion] = []
    stopped = ""
    in_a_row = 0
    command = tuple(profile.command)
    engines = _Engines(command, OpinionCache.open(command) if keep else None)
    try:
        for case in cases:
            try:
                if not stopped:
                    try:
                        opinion = ask(engines, case, presets, proven.get(case.id), deadline)
                    except _OutOfTime:
                        stopped = f"not asked: the second opinion's time limit ({budget:g} s) ran out"
                    else:
                        in_a_row = in_a_row + 1 if opinion.missing else 0
                        out.append(opinion)
                        if in_a_row >= FAILURES_IN_A_ROW:
                            stopped = f"not asked: GNU Go failed {in_a_row} cases in a row"
                        continue
                # a case not asked is a missing opinion (but on a board GNU Go cannot play anyway)
                out.append(_unasked(case, presets, proven.get(case.id), stopped))
            except ValueError as err:  # its moves cannot be played: lint reports that
                why = f"its moves cannot be played: {err}"
                out.append(
                    Opinion(
                        case.id,
                        "",
                        (),
                        (),
                        skipped=why,
                        declares=any(declared(case)),
                        counted=counted(case),
                    )
                )
    finally:
        engines.close()
    return out


def _cannot_play(geometry) -> str:
    """Why GNU Go cannot be told a board of ``geometry`` (GTP's ``boardsize`` takes one number, and
    GNU Go 3.8 plays sizes up to 19), or ""."""
    if geometry.width != geometry.height:
        return "GNU Go plays square boards only"
    if geometry.width > MAX_SIZE:
        return f"GNU Go plays boards up to {MAX_SIZE}x{MAX_SIZE}"
    return ""


def _unasked(case: Case, presets, statuses: CaseStatuses | None, why: str) -> Opinion:
    opinion, position = _declared(case, presets, statuses)
    cannot = _cannot_play(position.geometry)
    if cannot:
        return replace(opinion, skipped=cannot)
    return replace(opinion, skipped=why, missing=True)


def _counts(case: Case) -> bool:
    """Whether ``case`` has a count verdict with a result, or a ``point:`` verdict."""
    if case.is_error_case or case.setup is None:
        return False
    return any(
        e.points or (e.count is not None and any(a.kind == "result" for a in e.count.alternatives))
        for e in case.expectations
    )


def settles_first(case: Case) -> bool:
    """Whether ``case`` counts the position a dispute settled by play leaves (count.settling): its
    statuses are the settling's proof's, not an agreement GNU Go's could be held against."""
    return _counts(case) and case.setup.final is not None and case.setup.final.settle is not None


def asked_about(case: Case) -> bool:
    """Whether GNU Go's opinion is asked on ``case``: it declares statuses or counts its position."""
    return not case.is_error_case and (any(declared(case)) or counted(case))


def _declared(case: Case, presets, statuses: CaseStatuses | None):
    """The opinion before GNU Go is asked (the agreement's marks, the prover's verdict), and the
    case's position."""
    dead, seki = declared(case)
    position = played_position(case, presets)
    opinion = Opinion(
        case_id=case.id,
        board=position.geometry.label,
        declared_dead=_chain_stones(position, dead),
        declared_seki=_chain_stones(position, seki),
        prover=_verdict(statuses),
        reason=(statuses.agreement or statuses.pending) if statuses is not None else "",
        declares=any(declared(case)),
        counted=counted(case),
    )
    return opinion, position


def missing(found: Sequence[Opinion]) -> list[Opinion]:
    """The opinions that were to be had and were not."""
    return [o for o in found if o.missing]


def unexplained(found: Sequence[Opinion], explanations: dict[str, str]) -> list[Opinion]:
    """The disagreements nobody has explained: on a case whose statuses the prover proved (a case
    that is agreed or pending carries its own reason) and with no entry in ``explanations``."""
    return [
        o
        for o in found
        if o.declares and o.disagrees and o.prover == "proven" and o.case_id not in explanations
    ]


def unsettled(found: Sequence[Opinion], explanations: dict[str, str]) -> list[Opinion]:
    """The counted positions in which GNU Go calls a chain the count leaves alive dead, with either
    side to move, and no entry in ``explanations`` says why GNU Go is wrong (count.status (6))."""
    return [o for o in found if o.unsettled_chains and o.case_id not in explanations]


def _to_move(o: Opinion, chain: tuple[str, ...]) -> str:
    black, white = bool(set(chain) & set(o.gnugo_dead)), bool(set(chain) & set(o.gnugo_dead_white_first))
    return "either" if black and white else ("Black" if black else "White")


def report(
    found: Sequence[Opinion],
    explanations: dict[str, str] | None = None,
    redrawing: dict[str, str] | None = None,
    settling: Sequence[str] = (),
    settledness: Sequence[Settledness] = (),
) -> str:
    """The report a reviewer reads: the disagreements first, each with the prover's verdict and
    its explanation (the committed one, or the case's own reason); then the counted positions GNU
    Go does not read as settled, each with its explanation (or the redrawing under way), and the
    ``settling`` cases (ids) not asked about."""
    explanations, redrawing = explanations or {}, redrawing or {}
    declaring = [o for o in found if o.declares]
    asked = [o for o in declaring if not o.skipped]
    differ = [o for o in asked if o.disagrees]
    lines: list[str] = [
        "# Status proofs: GNU Go's second opinion",
        "",
        f"GNU Go 3.8 `final_status_list` on the {len(declaring)} counting cases that declare dead or seki "
        f"stones: {len(asked)} asked (square boards), {len(declaring) - len(asked)} not asked, "
        f"{len(differ)} disagreeing with the agreement. `prover` is `jpd lint`'s verdict on the same "
        "marks (spec/counting.md#count.status). Written by `jpd lint --gnugo-opinion`.",
        "",
        "| case | board | agreement dead | GNU Go dead | agreement seki | GNU Go seki | prover |",
        "|---|---|---|---|---|---|---|",
    ]
    for o in differ:
        cells = (o.declared_dead, o.gnugo_dead, o.declared_seki, o.gnugo_seki)
        marks = " | ".join(" ".join(c) or "-" for c in cells)
        lines.append(f"| {o.case_id} | {o.board} | {marks} | {o.prover} |")
    if differ:
        lines += ["", "## Each disagreement explained", ""]
        for o in differ:
            why = explanations.get(o.case_id) or (f"{o.prover}: {o.reason}" if o.reason else "UNEXPLAINED")
            lines.append(f"- **{o.case_id}** — {why}")
    lines += ["", "Agreeing: " + (", ".join(o.case_id for o in asked if not o.disagrees) or "none") + "."]
    skipped = [o for o in declaring if o.skipped]
    if skipped:
        lines += ["", "Not asked: " + "; ".join(f"{o.case_id} ({o.skipped})" for o in skipped) + "."]
    lines += _prover_report(settledness)
    lines += _settledness_report(found, explanations, redrawing)
    if settling:
        lines += [
            "",
            "Not counted here: the cases that settle a dispute by play first (count.settling), whose "
            "count is made on the position the settling leaves, with the statuses its proof gives: "
            + ", ".join(settling)
            + ".",
        ]
    return "\n".join(lines) + "\n"


def _prover_report(settledness: Sequence[Settledness]) -> list[str]:
    """The project's own settledness proof (count.status (6)), in figures, with every chain it does
    not prove alive."""
    if not settledness:
        return []
    proofs = [(s.case_id, p) for s in settledness for p in s.proof.proofs]
    how = {"unconditional": 0, "eye-space": 0, "search": 0}
    for _, p in proofs:
        if p.holds is True:
            how[p.method] = how.get(p.method, 0) + 1
    proven = sum(how.values())
    lines = [
        "",
        "## Settled: the prover's proof",
        "",
        f"`jpd lint` checks that every counted position is settled with the project's own prover, on square "
        f"and non-square boards (spec/counting.md#count.status (6)): on {len(settledness)} positions, "
        f"{proven} of {len(proofs)} chain proofs prove a chain the count leaves alive alive "
        f"({how['unconditional']} unconditionally, {how['eye-space']} by their eye spaces, "
        f"{how['search']} by search, each side first).",
    ]
    failed = [(case, p) for case, p in proofs if p.holds is not True]
    if failed:
        lines += ["", "| case | chain | verdict |", "|---|---|---|"]
        for case, p in failed:
            lines.append(f"| {case} | {p.color} {p.name} | {p.describe()} |")
    return lines


def _settledness_report(found: Sequence[Opinion], explanations: dict[str, str], redrawing: dict[str, str]):
    counted = [o for o in found if o.counted]
    asked = [o for o in counted if not o.skipped]
    open_ = [o for o in asked if o.unsettled_chains]
    lines = [
        "",
        "## Counted positions GNU Go does not read as settled",
        "",
        f"GNU Go's `final_status_list dead` on the {len(counted)} positions the suite counts (a count "
        f"verdict, no dispute settled by play first), once with each side to move: {len(asked)} asked, "
        f"{len(counted) - len(asked)} not asked, {len(open_)} with a chain the count leaves alive that "
        "GNU Go calls dead (spec/counting.md#count.status (6): a counted position is settled).",
        "",
    ]
    if open_:
        lines += ["| case | board | chain counted alive, GNU Go dead | to move |", "|---|---|---|---|"]
        for o in open_:
            for chain in o.unsettled_chains:
                lines.append(f"| {o.case_id} | {o.board} | {' '.join(chain)} | {_to_move(o, chain)} |")
        lines += ["", "### Why", ""]
        for o in open_:
            if o.case_id in explanations:
                why = explanations[o.case_id]
            elif o.case_id in redrawing:
                why = f"NOT SETTLED, being redrawn: {redrawing[o.case_id]}"
            else:
                why = "UNEXPLAINED"
            lines.append(f"- **{o.case_id}** — {why}")
    skipped = [o for o in counted if o.skipped]
    if skipped:
        lines += ["", "Not asked: " + "; ".join(f"{o.case_id} ({o.skipped})" for o in skipped) + "."]
    return lines
