"""The summary of a refereed collection, computed from its verdicts alone. {#count.replay}

:class:`Tally` takes verdict lines in any order (one run, the outputs of shards, a cluster's
results) and :meth:`Tally.summary` gives the same JSON object for the same set of verdicts: every
list is sorted by record key, every mapping by name, and nothing depends on how the work was
split. A verdict seen twice (the same record × ruleset) counts once; the same record × ruleset
with two different verdicts (outputs of different runs merged) is a :class:`ConflictingVerdict`.
"""

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from jpdtools.records.verdict import ENDINGS


class ConflictingVerdict(ValueError):
    """Two different verdicts on one record × ruleset (or two different errors for one record)."""

    def __init__(self, record: str, rules: str | None) -> None:
        under = f"under {rules}" if rules is not None else "(a record error)"
        super().__init__(f"a second, different verdict on {record} {under}")
        self.record, self.rules = record, rules


def _fingerprint(line: dict) -> int:
    return hash(json.dumps(line, sort_keys=True))


@dataclass
class _RulesetTally:
    """What the summary says of one ruleset, gathered verdict by verdict."""

    games: int = 0
    endings: Counter = field(default_factory=Counter)
    stopped_early: int = 0
    games_with_refusals: int = 0
    refused: list = field(default_factory=list)  # the refused moves the verdicts list
    refused_moves: int = 0  # all of them (a verdict lists at most MAX_LISTED_REFUSALS)
    winners: dict = field(default_factory=dict)  # record -> B | W | draw, for counted verdicts
    count_errors: Counter = field(default_factory=Counter)
    re_same: int = 0
    re_differs: int = 0

    def add(self, v: dict) -> None:
        self.games += 1
        self.endings[v["ending"]] += 1
        self.stopped_early += v["stopped_at"] is not None
        total = v.get("refused_total", len(v["refused"]))
        self.games_with_refusals += bool(total)
        self.refused_moves += total
        self.refused.extend({"record": v["record"], **f} for f in v["refused"])
        if v["count_error"] is not None:
            self.count_errors[v["count_error"]["code"]] += 1
        c = v["count"]
        if c is None:
            return
        self.winners[v["record"]] = c["winner"]
        re = v["re"]
        if re["kind"] == "score" and re["winner"] is not None:
            if re["winner"] == c["winner"]:
                self.re_same += 1
            else:
                self.re_differs += 1

    def summary(self) -> dict:
        results = Counter(self.winners.values())
        known = {e: self.endings[e] for e in ENDINGS if self.endings[e]}
        return {
            "games": self.games,
            "endings": known | {e: n for e, n in sorted(self.endings.items()) if e not in known},
            "stopped_early": self.stopped_early,
            "refused_moves": self.refused_moves,
            "games_with_refusals": self.games_with_refusals,
            "refused": sorted(self.refused, key=lambda f: (f["record"], f["action"])),
            "counted": len(self.winners),
            "winners": dict(sorted(results.items())),
            "count_errors": dict(sorted(self.count_errors.items())),
            "re_compared": {"same_winner": self.re_same, "different_winner": self.re_differs},
        }


@dataclass
class Tally:
    """Verdicts gathered so far, summed up as they come: the memory it keeps is what the summary
    lists (refused moves, counted winners, record errors) and the keys of the verdicts seen."""

    seen: dict[tuple[str, str | None], int] = field(default_factory=dict)  # -> the line's fingerprint
    verdicts: int = 0
    errors: dict[str, dict] = field(default_factory=dict)
    re_kinds: dict[str, str] = field(default_factory=dict)  # record -> the kind of its RE
    rulesets: dict[str, _RulesetTally] = field(default_factory=dict)

    def add(self, line: dict) -> None:
        record, rules = line["record"], line.get("rules")
        fingerprint = _fingerprint(line)
        earlier = self.seen.get((record, rules))
        if earlier is not None:
            if earlier != fingerprint:
                raise ConflictingVerdict(record, rules)
            return
        self.seen[(record, rules)] = fingerprint
        if rules is None:
            self.errors[record] = line["error"]
            return
        self.verdicts += 1
        self.re_kinds[record] = line["re"]["kind"]
        self.rulesets.setdefault(rules, _RulesetTally()).add(line)

    def extend(self, lines: Iterable[dict]) -> None:
        for line in lines:
            self.add(line)

    def summary(self) -> dict:
        """The summary (spec/counting.md#count.replay, "Refereeing a collection")."""
        names = sorted(self.rulesets)
        winners = {n: self.rulesets[n].winners for n in names}
        counted = set().union(*winners.values()) if winners else set()
        return {
            "re_kinds": dict(sorted(Counter(self.re_kinds.values()).items())),
            "records": len(set(self.re_kinds) | set(self.errors)),
            "verdicts": self.verdicts,
            "record_errors": [
                {"record": k, "code": e["code"], "message": e["message"]}
                for k, e in sorted(self.errors.items())
            ],
            "rulesets": {n: self.rulesets[n].summary() for n in names},
            "counted_records": len(counted),
            "winner_differs": _pairs(names, winners),
        }


def _pairs(rulesets: list[str], winners: dict[str, dict[str, str]]) -> dict:
    """For each pair A, B: records counted under both, and how many of them name different winners."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for a in rulesets:
        row = {}
        for b in rulesets:
            both = winners[a].keys() & winners[b].keys()
            differ = sum(1 for k in both if winners[a][k] != winners[b][k])
            row[b] = {"both_counted": len(both), "differ": differ}
        out[a] = row
    return out


def dumps(summary: dict) -> str:
    """The summary as text: JSON with sorted keys, two-space indent, a final newline."""
    text = json.dumps(summary, ensure_ascii=False, indent=2, sort_keys=True)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # an undecodable file name (a lone surrogate): ASCII escapes
        text = json.dumps(summary, indent=2, sort_keys=True)
    return text + "\n"


def render(summary: dict, order: Sequence[str] = ()) -> str:
    """The summary as text: a row per ruleset, the winner-difference table, the record errors."""
    from jpdtools import table

    per = summary["rulesets"]
    names = [n for n in order if n in per] + sorted(set(per) - set(order))
    errors = len(summary["record_errors"])
    lines = [
        f"{summary['records']} records, {summary['verdicts']} verdicts, {errors} record errors, "
        f"{summary['counted_records']} counted"
    ]
    rows = []
    for n in names:
        r = per[n]
        endings = ", ".join(f"{e} {k}" for e, k in r["endings"].items())
        winners = " ".join(f"{w} {k}" for w, k in r["winners"].items()) or "-"
        re = r["re_compared"]
        rows.append([n, str(r["games"]), endings, str(r["refused_moves"]), str(r["counted"]), winners,
                     f"{re['same_winner']}/{re['same_winner'] + re['different_winner']}"])  # fmt: skip
    if rows:
        lines.append(
            table.render(["ruleset", "games", "endings", "refused", "counted", "winners", "RE agrees"], rows)
        )
    if summary["counted_records"]:
        pairs = summary["winner_differs"]
        lines.append("\nwinner differs (records counted under both):")
        grid = [
            [a, *(f"{pairs[a][b]['differ']}/{pairs[a][b]['both_counted']}" for b in names)] for a in names
        ]
        lines.append(table.render(["", *names], grid))
    for e in summary["record_errors"][:20]:
        lines.append(f"error: {e['message']}")
    if len(summary["record_errors"]) > 20:
        lines.append(f"… and {len(summary['record_errors']) - 20} more record errors")
    return "\n".join(lines)
