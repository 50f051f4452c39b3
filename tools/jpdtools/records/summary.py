"""The summary of a refereed collection, computed from its verdicts alone. {#count.replay}

:class:`Tally` takes verdict lines in any order (one run, the outputs of shards, a cluster's
results) and :meth:`Tally.summary` gives the same JSON object for the same set of verdicts: every
list is sorted by record key, every mapping by name, and nothing depends on how the work was
split. A verdict seen twice (the same record × ruleset) counts once.
"""

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from jpdtools.records.verdict import ENDINGS


@dataclass
class Tally:
    """Verdicts gathered so far, keyed by (record, ruleset); record errors keyed by record."""

    verdicts: dict[tuple[str, str], dict] = field(default_factory=dict)
    errors: dict[str, dict] = field(default_factory=dict)

    def add(self, line: dict) -> None:
        if line.get("rules") is None:
            self.errors[line["record"]] = line["error"]
        else:
            self.verdicts[(line["record"], line["rules"])] = line

    def extend(self, lines: Iterable[dict]) -> None:
        for line in lines:
            self.add(line)

    def summary(self) -> dict:
        """The summary (spec/counting.md#count.replay, "Refereeing a collection")."""
        rulesets = sorted({r for _, r in self.verdicts})
        by_rules: dict[str, list[dict]] = {n: [] for n in rulesets}
        for (_, rules), v in sorted(self.verdicts.items()):
            by_rules[rules].append(v)
        winners: dict[str, dict[str, str]] = {n: {} for n in rulesets}  # ruleset -> record -> winner
        per_ruleset = {}
        for name in rulesets:
            per_ruleset[name] = _ruleset_summary(by_rules[name], winners[name])
        records = {k for k, _ in self.verdicts} | set(self.errors)
        re_of = {key: v["re"]["kind"] for (key, _), v in self.verdicts.items()}  # the same for every ruleset
        re_kinds = Counter(re_of.values())
        return {
            "re_kinds": dict(sorted(re_kinds.items())),
            "records": len(records),
            "verdicts": len(self.verdicts),
            "record_errors": [
                {"record": k, "code": e["code"], "message": e["message"]}
                for k, e in sorted(self.errors.items())
            ],
            "rulesets": per_ruleset,
            "counted_records": len(set().union(*(set(w) for w in winners.values()))) if winners else 0,
            "winner_differs": _pairs(rulesets, winners),
        }


def _ruleset_summary(verdicts: list[dict], winners: dict[str, str]) -> dict:
    endings = Counter(v["ending"] for v in verdicts)
    refused = []
    count_errors: Counter[str] = Counter()
    results: Counter[str] = Counter()
    re_same = re_differs = 0
    for v in verdicts:
        for f in v["refused"]:
            refused.append({"record": v["record"], **f})
        if v["count_error"] is not None:
            count_errors[v["count_error"]["code"]] += 1
        c = v["count"]
        if c is None:
            continue
        winners[v["record"]] = c["winner"]
        results[c["winner"]] += 1
        re = v["re"]
        if re["kind"] == "score" and re["winner"] is not None:
            if re["winner"] == c["winner"]:
                re_same += 1
            else:
                re_differs += 1
    return {
        "games": len(verdicts),
        "endings": {e: endings[e] for e in ENDINGS if endings[e]}
        | {e: n for e, n in sorted(endings.items()) if e not in ENDINGS},
        "stopped_early": sum(1 for v in verdicts if v["stopped_at"] is not None),
        "refused_moves": len(refused),
        "games_with_refusals": sum(1 for v in verdicts if v["refused"]),
        "refused": refused,
        "counted": sum(results.values()),
        "winners": dict(sorted(results.items())),
        "count_errors": dict(sorted(count_errors.items())),
        "re_compared": {"same_winner": re_same, "different_winner": re_differs},
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
    return json.dumps(summary, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


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
