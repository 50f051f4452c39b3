"""The compatibility claims measured on finished games: one research table.

:func:`study` referees every record of a collection under every ruleset given (as ``jpd replay``
does: the record's agreement, its komi when asked for, spec/counting.md#count.replay) and
returns a :class:`Table`: per ruleset the counted games and winners; per pair of rulesets the
games counted under both, how many name the same winner and the same margin; and every
disagreement with its causes.

A disagreement's causes are read off the compatibility theorems (spec/counting.md
#count.theorems). For each verdict, its margin before komi m is compared with the area margin
m_area of the same final position (子空合计, no komi); the theorems say what the difference is
made of, term by term:

* ``收后`` — the last real move: −1 for every stone-counting judgment (art, 等子比空, Japanese)
  when Black made it (T2, T3, T5);
* ``passes`` — the rest of the stone difference s′_B − s′_W (passes or virtual moves in
  mid-game, handicap stones: T2's counterexample classes);
* ``seki`` — seki eyes and one-sided liberties, which Japanese counting does not count (T5);
* ``basic eye points`` — 等子比路's kept eye points E_B − E_W (T7);
* ``no agreement`` — Tromp-Taylor counts the board as it stands, dead stones alive (T8);
* ``fill-back overflow`` — what an overflowing fill-back leaves (L1);
* ``komi`` — the two rulesets' komi differ.

A pair's difference is *explained* when the measured m_A − m_B equals the sum of the terms that
differ; otherwise the residual is reported as ``unexplained`` — the table's claim is that there
is none. Verdicts whose replays differ (a move refused under one ruleset only) are classified as
``refusal``: they count different boards. Nothing here writes files.
"""

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from jpdref.counting import CountingError, FinalPosition
from jpdref.counting.dispatch import COUNTERS, count_for
from jpdref.counting.explanation import Count
from jpdref.counting.regions import Why, classify
from jpdref.rules import Method, Rules
from jpdref.stones import BLACK, WHITE

from jpdtools.errors import InputError
from jpdtools.records.gamerecord import Marks, MarksError, record_result, replay_record
from jpdtools.records.sgf import GameRecord
from jpdtools.records.verdict import parse_record, record_agreement, with_record_komi

CAUSES = ("komi", "收后", "passes", "seki", "basic eye points", "no agreement", "fill-back overflow",
          "refusal", "unexplained")  # fmt: skip
_STONE_JUDGMENTS = frozenset({Method.ART, Method.EQUAL_STONES, Method.JAPANESE})


@dataclass(frozen=True)
class Counted:
    """One ruleset's count of one record, with the terms the theorems decompose it into."""

    rules: str
    winner: str
    margin: Fraction  # Black's lead after komi, points
    komi: Fraction
    before_komi: Fraction  # m
    area: Fraction  # m_area of the same final position
    terms: tuple[tuple[str, Fraction], ...]  # label -> predicted part of m - m_area
    board: str  # the counted board, for the book (top row first, / between rows)
    refusals: int
    seki_points: Fraction  # seki eyes and one-sided liberties, Black's less White's


@dataclass(frozen=True)
class Record:
    """One record: its key, size, what its RE says, and its count under each ruleset (or why not)."""

    key: str
    board: str
    re: str
    ruleset: str  # the record's RU
    komi: str  # the record's KM
    counts: tuple[Counted, ...]
    not_counted: tuple[tuple[str, str], ...]  # (ruleset, why)


def _terms(fp: FinalPosition, seki: Fraction, count: Count) -> dict[str, Fraction]:
    """The predicted parts of m − m_area for this ruleset's method (the theorems); ``seki`` is
    Black's seki eyes and one-sided liberties less White's."""
    method = Method(str(count.method))
    c = fp.counters
    stones = {
        col: c.moves.get(f"{col.letter}-move", 0) + c.moves.get(f"{col.letter}-virtual", 0)
        for col in (BLACK, WHITE)
    }
    difference = stones[BLACK] + c.handicap_stones - stones[WHITE]  # s′_B − s′_W under L1
    last = 1 if c.last_real_move is BLACK else 0
    out: dict[str, Fraction] = {}
    if method in _STONE_JUDGMENTS:
        out["收后"] = Fraction(-last)
        out["passes"] = Fraction(-(difference - last))
    if method is Method.JAPANESE:
        virtual = c.virtual_stones.get("B", 0) - c.virtual_stones.get("W", 0)
        out["seki"] = -seki
        out["passes"] += virtual
    if method is Method.ROADS:
        eyes = {col: count.owner_counts(Why.BASIC_EYE)[i] for i, col in enumerate((BLACK, WHITE))}
        out["basic eye points"] = Fraction(-(eyes[BLACK] - eyes[WHITE]))
    if method is Method.TROMP_TAYLOR:
        out["no agreement"] = _before_komi(count) - _area(fp)
    if any(count.overflow):
        out["fill-back overflow"] = Fraction(0)  # measured below as the residual
    return {k: v for k, v in out.items() if v or k == "fill-back overflow"}


def _before_komi(count: Count) -> Fraction:
    return count.margin + count.komi.points


def _area(fp: FinalPosition) -> Fraction:
    return COUNTERS[Method.AREA](fp, 0).margin


def study_record(key: str, data: bytes, rulesets: Sequence[Rules], komi: str = "rules") -> Record | None:
    """The counts of one record under each ruleset; None when it cannot be read."""
    try:
        rec, marks = parse_record(key, data)
    except (InputError, ValueError, RecursionError):
        return None
    counts, skipped = [], []
    for base in rulesets:
        rules = with_record_komi(base, rec)[0] if komi == "record" else base
        counted, why = _count(rules, rec, marks)
        if counted is None:
            skipped.append((base.name, why))
        else:
            counts.append(counted)
    return Record(
        key, f"{rec.width}x{rec.height}", record_result(rec).text, rec.ruleset or "", rec.komi or "",
        tuple(counts), tuple(skipped),
    )  # fmt: skip


def _count(rules: Rules, rec: GameRecord, marks: Marks) -> tuple[Counted | None, str]:
    replay = replay_record(rules, rec)
    try:
        agreement, why = record_agreement(rec, marks, replay)
    except MarksError as err:
        return None, f"bad-marks: {err}"
    if agreement is None:
        return None, why or "no count"
    fp = FinalPosition.from_game(replay.game, agreement)
    try:
        count = count_for(rules, fp)
    except CountingError as err:
        return None, f"{err.code}: {err}"
    cls = classify(fp)
    seki = Fraction(
        len(cls.points(BLACK, Why.EYE, Why.ONE_SIDED)) - len(cls.points(WHITE, Why.EYE, Why.ONE_SIDED))
    )
    terms = _terms(fp, seki, count)
    area = _area(fp)
    m = _before_komi(count)
    if "fill-back overflow" in terms:
        terms["fill-back overflow"] = m - area - sum(v for k, v in terms.items() if k != "fill-back overflow")
    return (
        Counted(
            rules.name,
            count.winner,
            count.margin,
            count.komi.points,
            m,
            area,
            tuple(sorted(terms.items())),
            count.render().replace("\n", "/").replace(" ", ""),
            len(replay.refusals),
            seki,
        ),
        "",
    )


@dataclass(frozen=True)
class Difference:
    """Two rulesets' counts of one record that differ: winners, margins, and the causes."""

    record: str
    a: Counted
    b: Counted
    causes: tuple[tuple[str, Fraction], ...]  # label -> its share of the difference (komi: kB − kA)

    @property
    def winner_differs(self) -> bool:
        return self.a.winner != self.b.winner


def compare(a: Counted, b: Counted, record: str) -> Difference | None:
    """The causes of a's and b's difference, or None when they agree (same winner and margin)."""
    if a.winner == b.winner and a.margin == b.margin:
        return None
    causes: dict[str, Fraction] = {}
    if a.refusals != b.refusals or a.area != b.area:
        causes["refusal"] = a.before_komi - b.before_komi
    else:
        ta, tb = dict(a.terms), dict(b.terms)
        for label in sorted(set(ta) | set(tb)):
            share = ta.get(label, Fraction(0)) - tb.get(label, Fraction(0))
            if share:
                causes[label] = share
        residual = (a.before_komi - b.before_komi) - sum(causes.values(), Fraction(0))
        if residual:
            causes["unexplained"] = residual
    if a.komi != b.komi:
        causes["komi"] = b.komi - a.komi
    return Difference(record, a, b, tuple(sorted(causes.items(), key=lambda kv: CAUSES.index(kv[0]))))


@dataclass
class Table:
    """The research table of a collection (see the module docstring); :meth:`as_json` is its form."""

    rulesets: tuple[str, ...]
    records: int = 0
    unreadable: list[str] = field(default_factory=list)
    record_errors: list[dict] = field(default_factory=list)  # {record, code, message}
    counted: Counter = field(default_factory=Counter)
    winners: dict = field(default_factory=dict)  # ruleset -> Counter of winners
    not_counted: dict = field(default_factory=dict)  # ruleset -> Counter of reasons (first words)
    pairs: dict = field(default_factory=dict)  # (a, b) -> Counter: both, same_winner, same_margin
    causes: dict = field(default_factory=dict)  # (a, b) -> Counter of causes over the differences
    examples: dict = field(default_factory=dict)  # cause -> first Difference showing it
    differences: list = field(default_factory=list)
    engine: Counter = field(default_factory=Counter)  # the record's own score against jpd's
    engine_differs: list = field(default_factory=list)

    def add(self, record: Record) -> None:
        self.records += 1
        by_name = {c.rules: c for c in record.counts}
        for c in record.counts:
            self.counted[c.rules] += 1
            self.winners.setdefault(c.rules, Counter())[c.winner] += 1
        for name, why in record.not_counted:
            self.not_counted.setdefault(name, Counter())[why.split(":")[0]] += 1
        for i, a in enumerate(self.rulesets):
            for b in self.rulesets[i + 1 :]:
                if a not in by_name or b not in by_name:
                    continue
                tally = self.pairs.setdefault((a, b), Counter())
                tally["both"] += 1
                diff = compare(by_name[a], by_name[b], record.key)
                tally["same_winner"] += diff is None or not diff.winner_differs
                tally["same_margin"] += diff is None or diff.a.margin == diff.b.margin
                if diff is None:
                    continue
                self.differences.append(diff)
                tally["winner_differs"] += diff.winner_differs
                for label, _ in diff.causes:
                    self.causes.setdefault((a, b), Counter())[label] += 1
                    self.examples.setdefault(label, diff)
        self._engine(record, by_name)

    def _engine(self, record: Record, by_name: dict) -> None:
        """The generating engine's own score (RE, under its RU) against jpd's count by that ruleset."""
        name = {"chinese": "chinese", "japanese": "japanese"}.get(record.ruleset.lower())
        if name is None or name not in by_name:
            return
        own = _score(record.re)
        if own is None:
            return
        self.engine["compared"] += 1
        jpd = by_name[name]
        if own == jpd.margin:
            self.engine["equal"] += 1
            return
        delta = own - jpd.margin
        km = _score("B+" + record.komi) if record.komi else None
        parts = []
        if km is not None and jpd.komi != km:
            parts.append("komi (the ruleset's, not the record's: run with --komi record)")
            delta -= jpd.komi - km
        if delta and name == "chinese" and jpd.seki_points and delta == -jpd.seki_points:
            parts.append("the engine counts no seki eyes under area scoring (count.area counts them)")
            delta = Fraction(0)
        cause = "; ".join(parts) if not delta and parts else "unexplained"
        self.engine[cause] += 1
        self.engine_differs.append(
            {
                "record": record.key,
                "ruleset": name,
                "re": record.re,
                "jpd": _figure(jpd.margin),
                "cause": cause,
            }
        )

    def as_json(self) -> dict:
        names = list(self.rulesets)
        return {
            "records": self.records,
            "unreadable": sorted(self.unreadable),
            "record_errors": sorted(self.record_errors, key=lambda e: e["record"]),
            "rulesets": {
                n: {
                    "counted": self.counted[n],
                    "winners": dict(sorted(self.winners.get(n, Counter()).items())),
                    "not_counted": dict(sorted(self.not_counted.get(n, Counter()).items())),
                }
                for n in names
            },
            "pairs": [
                {
                    "a": a,
                    "b": b,
                    **{
                        k: self.pairs[(a, b)][k]
                        for k in ("both", "same_winner", "same_margin", "winner_differs")
                    },
                    "causes": dict(sorted(self.causes.get((a, b), Counter()).items(), key=_cause_order)),
                }
                for (a, b) in sorted(self.pairs, key=lambda p: (names.index(p[0]), names.index(p[1])))
            ],
            "examples": {
                label: _difference_json(d) for label, d in sorted(self.examples.items(), key=_cause_order)
            },
            "unexplained": [
                _difference_json(d) for d in self.differences if dict(d.causes).get("unexplained")
            ],
            "engine_score": {
                "compared": self.engine["compared"],
                "equal": self.engine["equal"],
                "causes": {k: v for k, v in sorted(self.engine.items()) if k not in ("compared", "equal")},
                "differ": self.engine_differs,
            },
        }


def _cause_order(item) -> int:
    return CAUSES.index(item[0])


def _score(re: str) -> Fraction | None:
    """Black's lead as RE states it (B+2.5 → 2.5, W+2.5 → −2.5, 0 → 0), or None for no score."""
    text = re.strip()
    if text in ("0", "Draw", "draw", "Jigo", "jigo"):
        return Fraction(0)
    if len(text) > 2 and text[0] in "BW" and text[1] == "+":
        try:
            value = Fraction(text[2:])
        except (ValueError, ZeroDivisionError):
            return None
        return value if text[0] == "B" else -value
    return None


def _figure(x: Fraction) -> int | float:
    return x.numerator if x.denominator == 1 else float(x)


def _difference_json(d: Difference) -> dict:
    return {
        "record": d.record,
        "a": d.a.rules,
        "b": d.b.rules,
        "winner": [d.a.winner, d.b.winner],
        "margin": [_figure(d.a.margin), _figure(d.b.margin)],
        "komi": [_figure(d.a.komi), _figure(d.b.komi)],
        "causes": {label: _figure(share) for label, share in d.causes},
        "boards": [d.a.board, d.b.board],
    }


def study(items: Iterable[tuple[str, bytes]], rulesets: Sequence[Rules], komi: str = "rules") -> Table:
    """The research table of the records ``items`` (key, bytes) under ``rulesets``."""
    table = Table(tuple(r.name for r in rulesets))
    for key, data in items:
        try:
            record = study_record(key, data, rulesets, komi)
        except InputError as err:  # a record that can be read but not studied (KM out of range)
            table.record_errors.append({"record": key, "code": err.code or "error", "message": err.message})
            continue
        if record is None:
            table.unreadable.append(key)
            continue
        table.add(record)
    return table
