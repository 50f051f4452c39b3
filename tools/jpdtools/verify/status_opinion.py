"""GNU Go's ``final_status_list`` as a second, independent opinion on the statuses a counting case
declares (spec/counting.md#count.status).

The prover (:mod:`jpdtools.proof`) reads the statuses with the reference engine; GNU Go reads
them with its own life-and-death code. For each case whose statuses lint proves, on a square board
(GNU Go plays nothing else), the position is set up with ``play`` commands and GNU Go is asked for
its ``dead`` and ``seki`` stones; a stone on which the case's agreement and GNU Go differ is a
*disagreement*, listed per case with the prover's verdict beside it, so each one can be explained
(``reports/status-proofs/``).

An opinion not had is never taken for one: a GNU Go that fails, answers ``?`` or anything but the
board's vertices to ``final_status_list``, or does not answer in time gives no opinion on the case
(:attr:`Opinion.missing`), and ``jpd lint`` reports it. The whole second opinion has a time
limit (``budget``), and after ``FAILURES_IN_A_ROW`` cases failed in a row GNU Go is not asked again.
"""

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from jpdtools.review.statuses import CaseStatuses, declared, position_of
from jpdtools.suite.model import Case
from jpdtools.verify import implementations
from jpdtools.verify.gtp.client import GtpClient, GtpError

COMMAND_SECONDS = 60.0  # for one GTP command (GNU Go reads a 19x19 board in a few seconds)
BUDGET_SECONDS = 600.0  # for the whole second opinion
FAILURES_IN_A_ROW = 3  # cases GNU Go failed in a row before it is not asked again


@dataclass(frozen=True)
class Opinion:
    """GNU Go's dead and seki stones on one case's position, against the agreement's."""

    case_id: str
    board: str  # e.g. "5x5"
    declared_dead: tuple[str, ...]
    declared_seki: tuple[str, ...]
    gnugo_dead: tuple[str, ...] = ()
    gnugo_seki: tuple[str, ...] = ()
    skipped: str = ""  # why GNU Go was not asked (a board it cannot play, an engine failure)
    missing: bool = False  # the opinion was to be had and was not (``skipped`` says why)
    prover: str = ""  # the prover's verdict: proven | disproven | undecided | agreement | pending
    reason: str = ""  # the case's own reason when its statuses are agreed or pending

    @property
    def disagrees(self) -> bool:
        if self.skipped:
            return False
        dead_differ = set(self.declared_dead) != set(self.gnugo_dead)
        return dead_differ or set(self.declared_seki) != set(self.gnugo_seki)


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


def ask(
    client: GtpClient,
    case: Case,
    presets,
    statuses: CaseStatuses | None = None,
    deadline: float | None = None,
) -> Opinion:
    """GNU Go's opinion on ``case`` (its position after ``history`` and ``moves``). ``deadline``
    (``time.monotonic()``) bounds every command; past it, :class:`_OutOfTime` is raised."""
    opinion, position = _declared(case, presets, statuses)
    geometry = position.geometry
    if geometry.width != geometry.height:
        return replace(opinion, skipped="GNU Go plays square boards only")

    def send(command: str):
        left = client.timeout if deadline is None else min(client.timeout, deadline - time.monotonic())
        if left <= 0:
            raise _OutOfTime
        return client.send(command, timeout=left)

    try:
        send(f"boardsize {geometry.width}")
        send("clear_board")
        for colour in ("B", "W"):  # Black first, then White: no stone is captured on the way
            for p, c in sorted(position.stones.items()):
                if c.letter == colour:
                    vertex = geometry.to_gtp(p)
                    if not send(f"play {colour} {vertex}").ok:
                        return replace(
                            opinion, skipped=f"GNU Go refused the set-up stone {vertex}", missing=True
                        )
        found = {}
        for status in ("dead", "seki"):
            reply = send(f"final_status_list {status}")
            vertices = _vertices(reply.text, geometry) if reply.ok else None
            if vertices is None:
                said = ("" if reply.ok else "? ") + repr(" ".join(reply.text.split())[:80])
                why = f"GNU Go answered 'final_status_list {status}' with {said}"
                return replace(opinion, skipped=why, missing=True)
            found[status] = vertices
    except GtpError as err:
        client.restart()
        return replace(opinion, skipped=f"GNU Go failed: {err}", missing=True)
    return replace(opinion, gnugo_dead=found["dead"], gnugo_seki=found["seki"])


def opinions(
    cases: Sequence[Case],
    presets,
    proven: dict[str, CaseStatuses],
    binary: str | None = None,
    budget: float = BUDGET_SECONDS,
) -> list[Opinion]:
    """GNU Go's opinion on every case (one engine process for all), within ``budget`` seconds;
    the cases left when it runs out, or after GNU Go failed ``FAILURES_IN_A_ROW`` cases in a row,
    are missing opinions saying so."""
    profile = implementations.gtp_profile("gnugo", binary)
    deadline = time.monotonic() + budget
    out: list[Opinion] = []
    stopped = ""
    in_a_row = 0
    with GtpClient(list(profile.command), timeout=COMMAND_SECONDS) as client:
        for case in cases:
            if not stopped:
                try:
                    opinion = ask(client, case, presets, proven.get(case.id), deadline)
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
    return out


def _unasked(case: Case, presets, statuses: CaseStatuses | None, why: str) -> Opinion:
    opinion, position = _declared(case, presets, statuses)
    if position.geometry.width != position.geometry.height:
        return replace(opinion, skipped="GNU Go plays square boards only")
    return replace(opinion, skipped=why, missing=True)


def _declared(case: Case, presets, statuses: CaseStatuses | None):
    """The opinion before GNU Go is asked (the agreement's marks, the prover's verdict), and the
    case's position."""
    dead, seki = declared(case)
    position = position_of(case, presets.get("chinese"))
    opinion = Opinion(
        case_id=case.id,
        board=position.geometry.label,
        declared_dead=_chain_stones(position, dead),
        declared_seki=_chain_stones(position, seki),
        prover=_verdict(statuses),
        reason=(statuses.agreement or statuses.pending) if statuses is not None else "",
    )
    return opinion, position


def missing(found: Sequence[Opinion]) -> list[Opinion]:
    """The opinions that were to be had and were not."""
    return [o for o in found if o.missing]


def unexplained(found: Sequence[Opinion], explanations: dict[str, str]) -> list[Opinion]:
    """The disagreements nobody has explained: on a case whose statuses the prover proved (a case
    that is agreed or pending carries its own reason) and with no entry in ``explanations``."""
    return [o for o in found if o.disagrees and o.prover == "proven" and o.case_id not in explanations]


def report(found: Sequence[Opinion], explanations: dict[str, str] | None = None) -> str:
    """The report a reviewer reads: the disagreements first, each with the prover's verdict and
    its explanation (the committed one, or the case's own reason)."""
    explanations = explanations or {}
    asked = [o for o in found if not o.skipped]
    differ = [o for o in asked if o.disagrees]
    lines = [
        "# Status proofs: GNU Go's second opinion",
        "",
        f"GNU Go 3.8 `final_status_list` on the {len(found)} counting cases that declare dead or seki "
        f"stones: {len(asked)} asked (square boards), {len(found) - len(asked)} not asked, {len(differ)} "
        "disagreeing with the agreement. `prover` is `jpd lint`'s verdict on the same marks "
        "(spec/counting.md#count.status). Written by `jpd lint --gnugo-opinion`.",
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
    skipped = [o for o in found if o.skipped]
    if skipped:
        lines += ["", "Not asked: " + "; ".join(f"{o.case_id} ({o.skipped})" for o in skipped) + "."]
    return "\n".join(lines) + "\n"
