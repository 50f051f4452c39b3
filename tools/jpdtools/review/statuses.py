"""Every status a counting case declares is proven (spec/counting.md#count.status). {#count.status}

A counting case's agreement marks stones dead or in seki; counting takes them as data. This check
proves them on the position the agreement talks about (the set-up, then ``history`` and ``moves``)
with :mod:`jpdtools.proof` under the proof ruleset (:data:`PROOF_RULESET`): each dead chain is
captured against any defence and each seki chain cannot be captured, whoever moves first, and each
seki chain has a liberty on a point both colours border, and each one-sided claim of the agreement
holds (the claimer can fill the point and live, the opponent cannot), and each ko claim names a ko
the claimer holds (:mod:`jpdtools.proof.ko`: its shape is the proof). A case built to test what an *agreement*
does, whatever the board says, carries ``status-proof: {agreement: why}`` instead
(spec/case-format.md#format.status-proof). A case whose statuses are known not to be proven yet
may say ``{pending: why}`` while its diagram is redrawn, but the suite does not pass with it: like a
status disproven or undecided, a pending one is a lint problem.
"""

import hashlib
import hmac
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from jpdref import Color, Game, Geometry
from jpdref.game import ActionKind, EndKind
from jpdref.rules import Rules

from jpdtools import diskcache
from jpdtools.errors import Location
from jpdtools.presets import Presets
from jpdtools.proof.ko import ko_claim, ko_stone
from jpdtools.proof.status import DEFAULT_BUDGET, ChainProof, Position, StatusProof, StatusProver
from jpdtools.proof.tree import MoveNode
from jpdtools.run.adapters import _action
from jpdtools.suite.model import Case, CaseFile

PROOF_RULESET = "chinese"
"""The ruleset whose legality the proofs use: suicide forbidden and positional superko, so that
every line of the search is finite (spec/counting.md#count.status)."""


@dataclass(frozen=True)
class CaseStatuses:
    """The proofs of one case's declared statuses (``proofs`` empty when it declares none), or
    why it was not proven (``agreement``: the case's reason; ``error``: its position cannot be
    played)."""

    case_id: str
    proofs: tuple[StatusProof, ...] = ()
    agreement: str = ""  # the case's reason: its statuses are agreed on purpose
    pending: str = ""  # the case's reason: its statuses are not proven yet (a lint problem)
    error: str = ""
    location: Location | None = None

    @property
    def holds(self) -> bool | None:
        """True: proven, or agreed on purpose; False: disproven, or its position cannot be played;
        None: undecided within the bounds, or pending (not searched)."""
        if self.agreement:
            return True
        if self.pending:
            return None
        if self.error or any(p.holds is False for p in self.proofs):
            return False
        if any(p.holds is None for p in self.proofs):
            return None
        return True


def declared(case: Case) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The (dead, seki) marks a case's agreement declares."""
    final = case.setup.final if case.setup is not None else None
    if final is None:
        return (), ()
    return final.agreement.dead, final.agreement.seki


def one_sided_claims(case: Case) -> tuple[tuple[str, str], ...]:
    """The one-sided claims a case's agreement makes, as (claimer, vertex) (count.status (5))."""
    final = case.setup.final if case.setup is not None else None
    if final is None:
        return ()
    return tuple((c.color, c.vertex) for c in final.agreement.claims if c.kind == "one-sided")


def ko_claims(case: Case) -> tuple[tuple[str, str], ...]:
    """The ko claims a case's agreement makes, as (claimer, vertex) (count.status (5)); () for a
    case that settles a dispute by play first (its claims are what the play settles:
    spec/counting.md#count.settling)."""
    final = case.setup.final if case.setup is not None else None
    if final is None or final.settle is not None:
        return ()
    return tuple((c.color, c.vertex) for c in final.agreement.claims if c.kind == "ko")


def declares(case: Case) -> bool:
    """Whether the case's agreement declares anything the suite proves: a status or a claim."""
    return any(declared(case)) or bool(one_sided_claims(case)) or bool(ko_claims(case))


def position_of(case: Case, rules: Rules) -> Position:
    """The position the agreement talks about: the set-up after ``history`` and ``moves``.
    Raises ValueError when the set-up or a move cannot be played."""
    geometry = Geometry(case.setup.width, case.setup.height)
    game = _replay(case, rules, geometry)
    return Position(geometry, {p: Color(c) for p, c in enumerate(game.board.color) if c})


def _replay(case: Case, rules: Rules, geometry: Geometry) -> Game:
    """The case's game under ``rules``: the set-up, then ``history`` and ``moves``."""
    setup = case.setup
    stones = {geometry.from_gtp(v): Color.parse(c) for v, c in setup.stones}
    game = Game.new(rules, geometry, stones, Color.parse(setup.to_move), setup.handicap)
    markers = dict(setup.markers)
    for case_action in (*case.history, *case.moves):
        game.play(_action(case_action, geometry, markers))
    return game


def halted_in_a_cycle(case: Case, presets: Presets) -> bool:
    """Whether the case's play stops by 四虚终局 in its non-consecutive form under one of its
    rulesets (every preset when it names none): four virtual moves in all under a board that
    recurred, the last of them not all in one run (003: 非連續的累計四虛手…在搖櫓劫情形下). The rule
    itself ends such a game in the middle of its cycle, and the board is counted as it stands
    (count.status (6), OQ-62)."""
    if case.setup is None:
        return False
    geometry = Geometry(case.setup.width, case.setup.height)
    for name in case.rules or presets.names:
        try:
            game = _replay(case, presets.get(name), geometry)
        except ValueError:
            continue
        if game.outcome is None or game.outcome.kind != EndKind.FOUR_VIRTUAL:
            continue
        run = 0
        for action in reversed(game.record):
            if action.kind != ActionKind.VIRTUAL:
                break
            run += 1
        if run < 4:
            return True
    return False


PROVER_VERSION = "3"
"""Changes whenever the prover or the definitions change: it keys the cache of proofs."""


def cache_dir() -> Path | None:
    """Where proofs are kept between runs (they depend only on the position, the marks, the
    ruleset and the budget): ``$JPD_PROOF_CACHE``, else ``$XDG_CACHE_HOME/jipingdian/status-proofs``,
    else ``~/.cache/jipingdian/status-proofs``; None (no cache) when ``JPD_PROOF_CACHE`` is empty."""
    given = os.environ.get("JPD_PROOF_CACHE")
    if given is not None:
        return Path(given) if given else None
    base = os.environ.get("XDG_CACHE_HOME")
    try:
        root = Path(base) if base else Path.home() / ".cache"
    except RuntimeError:  # no home folder to be found
        return None
    return root / "jipingdian" / "status-proofs"


def _read_kept(path: Path, key: str, secret: bytes) -> tuple[StatusProof, ...] | None:
    """The proofs kept at ``path`` if its first line is their HMAC under the folder's secret key
    (:func:`jpdtools.diskcache.secret_key`): a file anyone else wrote — a program under test
    planting ``holds: true`` — is not believed, and the proofs are searched again."""
    data = diskcache.read_entry(path)
    if data is None:
        return None
    seal, _, text = data.partition(b"\n")
    if not hmac.compare_digest(seal, _seal(key, text, secret)):
        return None
    try:
        return tuple(map(_proof, json.loads(text.decode("utf-8"))))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _seal(key: str, text: bytes, secret: bytes) -> bytes:
    return hmac.new(secret, key.encode() + b"\n" + text, hashlib.sha256).hexdigest().encode()


def _node(data: dict) -> MoveNode:
    return MoveNode(
        data["color"], data["move"], data["note"], tuple(map(_node, data["replies"])), data["cut"]
    )


def _proof(data: dict) -> StatusProof:
    proofs = tuple(
        ChainProof(**{**p, "chain": tuple(p["chain"]), "lines": tuple(map(_node, p["lines"]))})
        for p in data["proofs"]
    )
    return StatusProof(
        data["status"], tuple(map(tuple, data["chains"])), proofs, tuple(data["problems"]), data["claimer"]
    )


def _cache_key(position: Position, dead, seki, claims, budget: int) -> str:
    stones = sorted((p, int(c)) for p, c in position.stones.items())
    marks = [sorted(dead), sorted(seki), sorted(map(list, claims))]
    text = json.dumps([PROVER_VERSION, PROOF_RULESET, position.geometry.label, stones, *marks, budget])
    return hashlib.sha256(text.encode()).hexdigest()


def _cached(key: str, compute: Callable[[], list[StatusProof]]) -> tuple[StatusProof, ...]:
    """The proofs kept under ``key`` in the sealed cache (:func:`cache_dir`), else ``compute()``'s,
    kept."""
    folder = cache_dir()
    secret = diskcache.secret_key(folder) if folder else None
    path = folder / f"{key}.json" if folder and secret else None
    if path is not None and secret is not None:
        kept = _read_kept(path, key, secret)
        if kept is not None:
            return kept
    proofs = compute()
    if path is not None and secret is not None:
        text = json.dumps([asdict(p) for p in proofs], ensure_ascii=False).encode("utf-8")
        diskcache.write_entry(path.parent, path.name, _seal(key, text, secret) + b"\n" + text, prune=False)
    return tuple(proofs)


def _proved(position: Position, rules: Rules, dead, seki, claims, budget: int) -> tuple[StatusProof, ...]:
    def compute() -> list[StatusProof]:
        prover = StatusProver(rules, position, budget=budget)
        proofs = []
        if dead:
            proofs.append(prover.dead(dead))
        if seki:
            proofs.append(prover.seki(seki, dead))
        proofs.extend(prover.one_sided(vertex, claimer) for claimer, vertex in claims)
        return proofs

    return _cached(_cache_key(position, dead, seki, claims, budget), compute)


def prove_case(case: Case, presets: Presets, budget: int = DEFAULT_BUDGET) -> CaseStatuses:
    dead, seki = declared(case)
    claims = one_sided_claims(case)
    if not declares(case):
        return CaseStatuses(case.id, location=case.location)
    kind, why = case.status_proof
    if kind == "agreement":
        return CaseStatuses(case.id, agreement=why, location=case.location)
    if kind == "pending":
        return CaseStatuses(case.id, pending=why, location=case.location)
    rules = presets.get(PROOF_RULESET)
    try:
        position = position_of(case, rules)
        proofs = _proved(position, rules, dead, seki, claims, budget) if dead or seki or claims else ()
        proofs += tuple(ko_claim(position, vertex, claimer) for claimer, vertex in ko_claims(case))
    except ValueError as err:
        return CaseStatuses(case.id, error=str(err), location=case.location)
    return CaseStatuses(case.id, proofs, location=case.location)


def prove_files(
    files: Sequence[CaseFile],
    presets: Presets,
    budget: int = DEFAULT_BUDGET,
    progress: Callable[[int, int], None] | None = None,
) -> list[CaseStatuses]:
    """The statuses of every case that declares some, proven; ``progress(done, total)`` after each."""
    cases = [case for f in files for case in f.cases if not case.is_error_case and declares(case)]
    proven = []
    for n, case in enumerate(cases, 1):
        proven.append(prove_case(case, presets, budget))
        if progress is not None:
            progress(n, len(cases))
    return proven


@dataclass(frozen=True)
class Unsettled:
    """A counting case whose final position leaves a chain the agreement counts as alive in atari
    (count.status (6)): ``chains`` names each such chain by its first vertex."""

    case_id: str
    chains: tuple[str, ...]
    location: Location | None = None


def in_atari(case: Case, rules: Rules) -> tuple[str, ...]:
    """count.status (6), the half lint checks: the chains in atari on the position the agreement
    talks about that it does not mark dead, each named by its first vertex in GTP order; () for a
    case without a final position or whose dispute is settled by play first (its position is not
    meant to be final: spec/counting.md#count.settling). The other half — a point that lets one
    side, moving first, capture such stones, an open cut — is not searched (OQ-60)."""
    if case.setup is None or case.setup.final is None or case.setup.final.settle is not None:
        return ()
    position = position_of(case, rules)
    board = position.board()
    geometry = position.geometry
    dead: set[int] = set()
    for vertex in declared(case)[0]:
        chain = board.chain[geometry.from_gtp(vertex)]
        if chain is not None:
            dead |= set(chain.stones)
    kos = {(c.color, c.vertex) for c in case.setup.final.agreement.claims if c.kind == "ko"}
    named: list[str] = []
    seen: set[int] = set()
    for point in sorted(position.stones):
        chain = board.chain[point]
        if point in dead or point in seen or chain is None:
            continue
        seen |= set(chain.stones)
        if len(chain.libs) == 1 and not _claimed_ko(chain, position, board, kos):
            named.append(sorted(geometry.to_gtp(p) for p in chain.stones)[0])
    return tuple(named)


def _claimed_ko(chain, position: Position, board, kos: set[tuple[str, str]]) -> bool:
    """Whether a chain in atari is a ko left on the board that the agreement claims (count.status
    (6), OQ-62): the one stone in atari on a point P that the stone's owner C claims ``C ko P``,
    P being a ko C holds (:func:`jpdtools.proof.ko.ko_problem`: the opponent's retake at P takes
    this stone alone and stands in atari on its point)."""
    if len(chain.stones) != 1 or len(chain.libs) != 1:
        return False
    [stone], [point] = chain.stones, chain.libs
    color = position.stones[stone]
    if (color.name[0], position.geometry.to_gtp(point)) not in kos:
        return False
    return ko_stone(position, board, point, color) == stone


def unsettled_files(files: Sequence[CaseFile], presets: Presets) -> list[Unsettled]:
    """The counting cases of ``files`` that leave a living chain in atari (:func:`in_atari`), but
    for those agreed on purpose, those whose position cannot be played (lint reports that) and
    those whose play the rule stopped in the middle of a cycle (:func:`halted_in_a_cycle`)."""
    rules = presets.get(PROOF_RULESET)
    found = []
    for f in files:
        for case in f.cases:
            if case.is_error_case or case.status_proof[0] == "agreement":
                continue
            try:
                chains = in_atari(case, rules)
            except ValueError:
                continue
            if chains and halted_in_a_cycle(case, presets):
                continue
            if chains:
                found.append(Unsettled(case.id, chains, case.location))
    return found


# -- count.status (6): every counted position is settled, proven ---------------------------------

SETTLED_BUDGET = DEFAULT_BUDGET
"""The nodes of each search of a chain :mod:`jpdtools.proof.eyes` does not decide (ten times as
many once more when undecided: :data:`jpdtools.proof.status.ESCALATION`), as for a declared
status: 300 left 17 chain proofs undecided that this budget decides."""


@dataclass(frozen=True)
class Settledness:
    """The proof that a counted position is settled (count.status (6)): every chain the agreement
    leaves alive (not dead, not in seki) is alive, each side moving first."""

    case_id: str
    proof: StatusProof
    location: Location | None = None

    @property
    def holds(self) -> bool | None:
        return self.proof.holds


def counted(case: Case) -> bool:
    """Whether ``case`` counts the position its set-up, ``history`` and ``moves`` make: a count
    verdict with a result, or a ``point:`` verdict, and no dispute settled by play first (whose
    count is made on the settled position, count.settling)."""
    if case.is_error_case or case.setup is None or case.setup.final is None:
        return False
    if case.setup.final.settle is not None:
        return False
    return any(
        e.points or (e.count is not None and any(a.kind == "result" for a in e.count.alternatives))
        for e in case.expectations
    )


def played_position(case: Case, presets: Presets) -> Position:
    """The case's position after ``history`` and ``moves``, played under the proof ruleset when the
    case runs under it, else under the first of its rulesets that plays them (a case of virtual
    moves plays under the rulesets that have them)."""
    names = [] if case.rules and PROOF_RULESET not in case.rules else [PROOF_RULESET]
    names += [name for name in case.rules if name != PROOF_RULESET]
    error = ValueError(f"{case.id}: no ruleset to play it under")
    for name in names:
        try:
            return position_of(case, presets.get(name))
        except ValueError as err:
            error = err
    raise error


def settled_position(case: Case, presets: Presets) -> Position:
    """The position the count is made on, each ko the agreement claims connected by its claimer
    (the claim gives the claimer the point, count.status (5)–(6)): the position whose chains must
    all be alive."""
    position = played_position(case, presets)
    stones = dict(position.stones)
    for claimer, vertex in ko_claims(case):
        stones[position.geometry.from_gtp(vertex)] = Color.parse(claimer)
    return Position(position.geometry, stones)


def prove_settled(case: Case, presets: Presets, budget: int = SETTLED_BUDGET) -> Settledness | None:
    """The proof that ``case``'s counted position is settled; None for a case that counts no
    position, is agreed on purpose, cannot be played, or whose play the rule stopped in the middle
    of a cycle (:func:`halted_in_a_cycle`: that board is counted as it stands)."""
    if not counted(case) or case.status_proof[0] == "agreement":
        return None
    rules = presets.get(PROOF_RULESET)
    try:
        position = settled_position(case, presets)
    except ValueError:
        return None  # lint reports a position that cannot be played
    if halted_in_a_cycle(case, presets):
        return None
    dead, seki = declared(case)
    skip = (*dead, *seki)
    key = _cache_key(position, ["settled", *skip], [], [], budget)
    try:
        [proof] = _cached(key, lambda: [StatusProver(rules, position, budget=budget).settled(skip)])
    except ValueError:
        return None  # a mark on an empty point: check_statuses reports it
    return Settledness(case.id, proof, case.location)


def settledness_files(
    files: Sequence[CaseFile], presets: Presets, progress: Callable[[int, int], None] | None = None
) -> list[Settledness]:
    """The settledness proof of every counted position of ``files`` (:func:`prove_settled`)."""
    cases = [case for f in files for case in f.cases if counted(case)]
    out = []
    for n, case in enumerate(cases, 1):
        found = prove_settled(case, presets)
        if found is not None:
            out.append(found)
        if progress is not None:
            progress(n, len(cases))
    return out
