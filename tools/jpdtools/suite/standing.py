"""Where a case or open question stands (spec/case-format.md#format.quorum, #format.revision): its
decision record and its members' votes, read against its current revision.

A decision counts only when it was taken on the current revision and no member's vote on that
revision says otherwise; otherwise the item counts as ``proposed`` — *decided on an earlier
revision*, *disputed between members*, or *voting* (some votes, below the quorum). Everything that
counts statuses (``jpd review status``, ``jpd run``, the book) asks :func:`standing`; the
quorum itself is the review policy's (:mod:`jpdtools.review.policy`).
"""

from dataclasses import dataclass

from jpdtools.suite.model import Vote

DECIDED = "decided"  # a decision on the current revision, undisputed
EARLIER = "earlier-revision"  # a decision on another revision (or on none recorded)
SPLIT = "disputed-between-members"  # votes (or a vote and the decision) differ on the current revision
VOTING = "voting"  # votes on the current revision, alike, below the quorum
PROPOSED = "proposed"  # no decision, no current vote
UNBACKED = "unbacked"  # a status without its decision record (jpd lint reports it)


@dataclass(frozen=True)
class Record:
    """A decision record: the case's (or question's) own, or one ruling's."""

    status: str
    decision: str
    decided: str
    decided_by: str
    revision: str


@dataclass(frozen=True)
class Standing:
    state: str  # one of DECIDED, EARLIER, SPLIT, VOTING, PROPOSED, UNBACKED
    counted: str  # the status counted and shown as the badge: the record's when DECIDED, else proposed
    record: Record | None  # the decision record, if any (whatever its revision)
    claimed: str  # the status the file writes
    current: tuple[Vote, ...]  # the votes on the current revision
    earlier: tuple[Vote, ...]  # the votes on other revisions (kept, not counted)
    quorum: int

    def tally(self) -> tuple[str, int]:
        """(status, members) of the current votes when they agree; ("", 0) otherwise."""
        statuses = {v.status for v in self.current}
        if len(statuses) != 1:
            return "", 0
        return statuses.pop(), len({v.by for v in self.current})


def record_of(item, ruleset: str = "") -> Record | None:
    """The decision record of ``item`` on the whole (``ruleset`` empty) or on one ruleset."""
    if ruleset:
        r = next((r for r in item.rulings if r.ruleset == ruleset), None)
        return Record(r.status, r.decision, r.decided, r.decided_by, r.revision) if r else None
    if item.status == "proposed" or not (item.decision and item.decided_by):
        return None
    return Record(item.status, item.decision, item.decided, item.decided_by, item.revision)


def standing(item, current: str, ruleset: str = "", quorum: int = 1) -> Standing:
    """Where ``item`` (a Case or a QuestionReview) stands on the whole or on ``ruleset``, its
    current revision being ``current`` (``quorum`` only says how many votes a decision needs)."""
    votes = [v for v in item.votes if v.ruleset == ruleset]
    now = tuple(v for v in votes if v.revision == current)
    earlier = tuple(v for v in votes if v.revision != current)
    record = record_of(item, ruleset)
    claimed = record.status if record else ("proposed" if ruleset else item.status)
    positions = {v.status for v in now}
    if record is not None and record.revision == current:
        positions.add(record.status)
    if len(positions) > 1:
        state = SPLIT
    elif record is not None:
        state = DECIDED if record.revision == current else EARLIER
    elif claimed != "proposed":
        state = UNBACKED
    else:
        state = VOTING if now else PROPOSED
    counted = record.status if state == DECIDED and record else "proposed"
    return Standing(state, counted, record, claimed, now, earlier, quorum)


def counted_status(case) -> str:
    """The status a case counts as: its decision's when it stands on the current revision."""
    return standing(case, case.content_revision).counted
