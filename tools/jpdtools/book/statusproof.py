"""The ``status-proof`` section of a case page: how each status the agreement declares is known.
(spec/counting.md#count.status)

A counting case's dead stones, seki and claims are proven by :mod:`jpdtools.proof`
(through :func:`jpdtools.review.statuses.prove_case`, whose cache ``jpd lint`` shares), or agreed
on purpose (``status-proof: agreement``, with the case's reason), or not proven yet
(``pending``). The section says which, in the book's language, and shows the proof itself: for
each chain and each side moving first, the verdict and the first moves of each line as small
boards drawn by the one renderer (:mod:`.svg`), the moves numbered. A case without declared
statuses has no such section.
"""

from jpdref import Action, Color, Game

from jpdtools.book.lang import Language
from jpdtools.book.lang.glossary import cell_text
from jpdtools.book.page import esc
from jpdtools.book.svg import Picture, board_svg
from jpdtools.presets import Presets
from jpdtools.proof.status import KO, ONE_SIDED, SEKI, ChainProof, Position, StatusProof
from jpdtools.proof.tree import MoveNode
from jpdtools.review.statuses import (
    PROOF_RULESET,
    declared,
    declares,
    ko_claims,
    one_sided_claims,
    position_of,
    prove_case,
)
from jpdtools.suite.model import Case

LINE_PLIES = 4
"""How many moves of a line a small board shows (numbered on the stones)."""
LINES_SHOWN = 4
"""How many lines of one chain proof are drawn (the rest are named in text)."""


def _rows(game: Game, dead: set[str]) -> str:
    geometry = game.geometry
    rows = []
    for y in range(geometry.height):
        row = ""
        for x in range(geometry.width):
            p = geometry.point(x, y)
            c = game.board.color[p]
            ch = "." if c == 0 else "X" if c == 1 else "O"
            if ch != "." and geometry.to_gtp(p) in dead:
                ch = ch.lower()
            row += ch
        rows.append(row)
    return "/".join(rows)


def _main_line(node: MoveNode) -> list[MoveNode]:
    line = [node]
    while line[-1].replies and len(line) < LINE_PLIES:
        line.append(line[-1].replies[0])
    return line


def _line_board(
    rules,
    position: Position,
    before: tuple[tuple[str, str], ...],
    node: MoveNode,
    first: str,
    dead: set[str],
    lang: Language,
) -> str:
    """The position after ``before`` (moves made before the search: a one-sided fill) and the main
    line from ``node``, every move numbered where its stone stands."""
    geometry = position.geometry
    moves = [*before, *((n.color, n.move) for n in _main_line(node))]
    start = Color.parse(moves[0][0]) if moves else Color.parse(first)
    game = Game.new(rules, geometry, dict(position.stones), to_move=start)
    numbers, captured, said = [], [], []
    for n, (colour, move) in enumerate(moves, 1):
        side = Color.parse(colour)
        if game.to_move is not side:  # the search's passes are moves of the line too
            game.play(Action.pass_(game.to_move))
        action = Action.pass_(side) if move == "pass" else Action.move(side, geometry.from_gtp(move))
        step = game.play(action)
        if not step.legal:
            break
        said.append(f"{n}. {cell_text(f'{colour} {move}', lang)}")
        if move != "pass":
            numbers.append((move, n))
        captured = [(geometry.to_gtp(p), "W" if side is Color.BLACK else "B") for p in step.captures]
    label = lang.s("proof.board", moves=lang.s("list.sep").join(said))
    picture = Picture(_rows(game, dead), captured=tuple(captured), numbers=tuple(numbers), label=label)
    caption = esc(lang.s("list.sep").join(said))
    return f'<figure class="proof-line">{board_svg(picture, lang)}<figcaption>{caption}</figcaption></figure>'


def _chain_text(proof: ChainProof, lang: Language) -> str:
    chain = proof.chain[0] if len(proof.chain) == 1 else f"{proof.chain[0]} (+{len(proof.chain) - 1})"
    side = lang.s("proof.first." + proof.first)
    if proof.method == "unconditional":
        verdict = lang.s("proof.unconditional")
        side = ""
    elif proof.holds is None:
        verdict = lang.s("proof.undecided", nodes=proof.nodes)
    elif proof.needs == "dependent":
        verdict = lang.s("proof.dependent." + ("holds" if proof.holds else "fails"))
    elif proof.recaptures:
        verdict = lang.s("proof.recaptured")
    else:
        captured = (proof.needs == "captured") == proof.holds
        verdict = lang.s("proof.captured" if captured else "proof.safe")
    after = _spaced(lang.s("proof.after", move=proof.note.removeprefix("after ")), "") if proof.note else ""
    who = lang.s("owner." + proof.color)
    text = f"{after}{who} {chain}" + (lang.s("list.sep") + side if side else "") + lang.s("colon") + verdict
    if proof.holds is not None and proof.method != "unconditional":
        text = _spaced(
            text, lang.s("proof.nodes.one" if proof.nodes == 1 else "proof.nodes", nodes=proof.nodes)
        )
    mark = "✓" if proof.holds else "✗" if proof.holds is False else "?"
    return f'<span class="proof-mark">{mark}</span> {esc(text)}'


_FULL_WIDTH = "，、；：。（）"
"""Chinese punctuation, which carries its own spacing: no space is set beside it."""


def _spaced(left: str, right: str) -> str:
    """``left`` and ``right`` joined by a space, except beside full-width punctuation (C3 之后：白)."""
    if left.endswith(tuple(_FULL_WIDTH)) or right.startswith(tuple(_FULL_WIDTH)):
        return left + right
    return f"{left} {right}"


def _status_title(status: StatusProof, lang: Language) -> str:
    marks = " ".join(c[0] if len(c) == 1 else f"{c[0]} (+{len(c) - 1})" for c in status.chains)
    if status.status in (ONE_SIDED, KO):
        name = lang.s(f"proof.status.{status.status}", side=lang.s("owner." + status.claimer), point=marks)
    else:
        name = lang.s("proof.status." + status.status, marks=marks)
    verdict = {True: "proven", False: "disproven", None: "undecided"}[status.holds]
    return f'{esc(name)} — <span class="proof-{verdict}">{lang.t("proof." + verdict)}</span>'


def _overview(position: Position, case: Case, lang: Language) -> tuple[str, str]:
    """The position the statuses are about, dead stones crossed, claimed points marked, and its
    caption (dead stones named only where there are some)."""
    dead_marks, seki_marks = declared(case)
    claims = one_sided_claims(case)
    board = position.board()
    dead: set[str] = set()
    for v in dead_marks:
        ch = board.chain[position.geometry.from_gtp(v)]
        if ch is not None:
            dead |= {position.geometry.to_gtp(p) for p in ch.stones}
    rules_rows = []
    geometry = position.geometry
    for y in range(geometry.height):
        row = ""
        for x in range(geometry.width):
            p = geometry.point(x, y)
            c = position.stones.get(p)
            ch = "." if c is None else "X" if c is Color.BLACK else "O"
            row += ch.lower() if ch != "." and geometry.to_gtp(p) in dead else ch
        rules_rows.append(row)
    kos = ko_claims(case)
    owners = tuple((vertex, claimer, "one-sided") for claimer, vertex in claims)
    owners += tuple((vertex, claimer, "claimed") for claimer, vertex in kos)
    caption = []
    if dead:
        caption.append(lang.s("proof.caption.dead", stones=" ".join(sorted(dead_marks))))
    if seki_marks:
        caption.append(lang.s("proof.caption.seki", stones=" ".join(seki_marks)))
    for claimer, vertex in claims:
        caption.append(lang.s("proof.caption.one-sided", side=lang.s("owner." + claimer), point=vertex))
    for claimer, vertex in kos:
        caption.append(lang.s("proof.caption.ko", side=lang.s("owner." + claimer), point=vertex))
    markers = tuple(("s", vertex) for vertex in seki_marks)
    picture = Picture("/".join(rules_rows), owners=owners, markers=markers, label=lang.s("proof.position"))
    return board_svg(picture, lang), lang.s("list.semi").join(caption)


def status_proof_section(case: Case, presets: Presets, lang: Language) -> str:
    """The section (``<section id="status-proof">``), or "" for a case that declares no status."""
    if not declares(case):
        return ""
    head = f'<section id="status-proof" class="status-proof"><h2>{lang.t("proof.heading")}</h2>'
    kind, why = case.status_proof
    if kind:
        label = lang.t("proof.agreed" if kind == "agreement" else "proof.pending")
        reason = lang.fallback(why)
        return f'{head}<p class="proof-{esc(kind)}"><strong>{label}</strong> {reason}</p></section>'
    statuses = prove_case(case, presets)
    if statuses.error:
        error = lang.fallback(statuses.error)
        return f'{head}<p class="proof-disproven">{lang.t("proof.error")} {error}</p></section>'
    rules = presets.get(PROOF_RULESET)
    position = position_of(case, rules)
    board, caption = _overview(position, case, lang)
    dead = set()
    for status in statuses.proofs:
        if status.status not in (SEKI, ONE_SIDED, KO):
            dead |= {v for chain in status.chains for v in chain}
    out = [head]
    if any(status.status != KO for status in statuses.proofs):  # a ko claim's proof is no search
        out.append(f"<p>{lang.t('proof.intro')}</p>")
    out.append(f'<figure class="proof-position">{board}<figcaption>{esc(caption)}</figcaption></figure>')
    for status in statuses.proofs:
        out.append(f"<h3>{_status_title(status, lang)}</h3>")
        out += [f'<p class="proof-problem">{lang.fallback(p)}</p>' for p in status.problems]
        if status.status == KO and status.holds:
            side = lang.s("owner." + status.claimer)
            text = lang.s("proof.ko.shape", side=side, point=status.chains[0][0])
            out.append(f'<p><span class="proof-mark">✓</span> {esc(text)}</p>')
        for chain in status.proofs:
            out.append(f'<div class="proof-chain"><p>{_chain_text(chain, lang)}</p>')
            before = ()
            if chain.note:  # a one-sided claim: the fill that comes before the search
                before = ((chain.note.split()[1], chain.note.split()[2]),)
            boards = [
                _line_board(rules, position, before, node, chain.first, dead, lang)
                for node in chain.lines[:LINES_SHOWN]
            ]
            if boards:
                out.append(f'<div class="boards proof-lines">{"".join(boards)}</div>')
            if len(chain.lines) > LINES_SHOWN:
                rest = lang.s("list.sep").join(
                    cell_text(f"{n.color} {n.move}", lang) for n in chain.lines[LINES_SHOWN:]
                )
                out.append(f'<p class="proof-more">{lang.t("proof.more", moves=rest)}</p>')
            out.append("</div>")
    out.append("</section>")
    return "\n".join(out)


def status_proof_summary(case: Case, presets: Presets, lang: Language) -> str:
    """One line for the top of the page — whether what the count rests on (the declared statuses,
    the claims, or both: :func:`rests_on`) is proven, agreed on purpose or not proven yet —
    linking to the section; "" for a case that declares none. So a page never shows its verdicts
    over an unproven diagram without saying so, nor calls a ko claim a status."""
    if not declares(case):
        return ""
    kind, _ = case.status_proof
    if kind:
        key = "proof.summary.agreed" if kind == "agreement" else "proof.summary.pending"
    else:
        kind = {True: "proven", False: "disproven", None: "undecided"}[prove_case(case, presets).holds]
        key = "proof.summary." + kind
    text = lang.t(key, what=lang.s("proof.rests." + rests_on(case)))
    return f'<p class="proof-summary proof-{esc(kind)}"><a href="#status-proof">{text}</a></p>'


def rests_on(case: Case) -> str:
    """What a case's agreement declares that the suite proves, as the summary names it:
    ``statuses`` (dead or seki marks), ``statuses-claims`` (marks and claims), ``ko`` or
    ``one-sided`` (one claim of that kind and no mark), ``claims`` (several claims, no mark)."""
    dead, seki = declared(case)
    claims = one_sided_claims(case) + ko_claims(case)
    if dead or seki:
        return "statuses-claims" if claims else "statuses"
    if len(claims) == 1:
        return "ko" if ko_claims(case) else "one-sided"
    return "claims"
