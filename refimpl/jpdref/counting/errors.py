"""Refusals of counting: every impossibility is a :class:`CountingError` naming its point.

A counting function never returns a number for a position it cannot count. It raises a
``CountingError`` whose ``code`` is one of :data:`CODES` and whose ``point`` (with its GTP
``vertex``) is the offending point when there is one.
"""

CODES = (
    "off-board",  # a point named by the agreement is not on the board
    "dead-on-empty",  # {#count.agreement} a dead-stone mark on an empty point
    "seki-on-empty",  # {#count.agreement} a seki mark on an empty point
    "dead-and-seki",  # {#count.agreement} one chain marked both dead and in seki
    "dead-in-own-area",  # {#count.agreement} dead stones whose freed region only their own colour borders
    "claim-not-empty",  # {#count.agreement} a claim on a point holding a living stone
    "claim-no-stone",  # {#count.agreement} a claim on a point next to no living stone of the claimer
    "claim-twice",  # {#count.agreement} two claims on one point
    "claim-not-seki",  # {#count.agreement} a one-sided claim on a point next to no seki chain
    "claim-not-in-rules",  # {#count.agreement} a one-sided claim under a ruleset without 单方权利单官
    "override-not-mixed",  # {#count.agreement} a dame/shared mark outside a two-coloured region
    "owned-not-empty",  # {#count.agreement.owned} an agreed owner for a point holding a living stone
    "owned-contradicts",  # {#count.agreement.owned} an agreed owner in a region only the other side borders
    "owned-twice",  # {#count.agreement.owned} a point agreed to be both sides'
    "overflow",  # {#count.fill-back} stones to fill back that no balancing can absorb
    "no-boundary-stone",  # {#count.negative-moves} an A-class negative move with no stone to take
    "no-interior-stone",  # {#count.negative-moves} a B-class negative move with no stone to take
    "unequal-stones",  # {#count.equal-stones} the procedure did not reach an equal-stones board
    "no-first-pass",  # {#count.komi} the A version/WMSG komi needs a first pass or virtual move
)


class CountingError(ValueError):
    """A position, agreement or procedure that counting refuses. ``code`` is in :data:`CODES`."""

    def __init__(self, code: str, message: str, point: int | None = None, vertex: str | None = None):
        if code not in CODES:
            raise ValueError(f"unknown counting error code {code!r}")
        where = f" at {vertex}" if vertex else ""
        super().__init__(f"{code}{where}: {message}")
        self.code = code
        self.point = point
        self.vertex = vertex
