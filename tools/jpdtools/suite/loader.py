"""Loading case files: YAML + the DSL of spec/case.lark → the frozen model. {#format.file}

Every problem is an :class:`InputError` with an error code (spec/case-format.md#format.errors)
and the line and column in the case file; no other exception escapes for any input text.

Public: :func:`load_case_text`, :func:`load_case_file`, :func:`check_error_case`, and
:func:`resolve` (of :mod:`jpdtools.suite.selection`, which needs no parser).
"""

import datetime
import re
from dataclasses import dataclass, replace
from pathlib import Path

from jpdref.coords import MAX_SIZE, MIN_SIZE, CoordinateError, Geometry
from jpdref.game import Game
from jpdref.handicap import HandicapError
from jpdref.rules import AXES, RulesError

from jpdtools.errors import InputError, Location, case_file_bytes, text_of
from jpdtools.presets import Presets
from jpdtools.suite.counting_keys import load_agreement, load_counters, load_settle
from jpdtools.suite.dsl import Dsl
from jpdtools.suite.model import (
    DECIDED_STATUSES,
    REVIEW_STATUSES,
    Case,
    CaseFile,
    Comment,
    Expectation,
    LoadErrorSpec,
    QuestionReview,
    Ruling,
    Vote,
)
from jpdtools.suite.revision import REVIEW_KEYS, REVISION_RE, case_revision
from jpdtools.suite.selection import SelectorError, parse_selector, resolve
from jpdtools.suite.setup import CaseAction, FinalSpec, SettleSpec, Setup
from jpdtools.suite.sgfsetup import read_sgf
from jpdtools.suite.srcmap import Source
from jpdtools.suite.verdicts import Verdicts
from jpdtools.suite.writer import render_diagram
from jpdtools.yamlsrc import LocDict, LocList, LocStr, load_yaml_text

ERROR_CODES = (
    "yaml-syntax",
    "schema",
    "diagram-syntax",
    "moves-syntax",
    "verdict-syntax",
    "sgf-syntax",
    "board-size",
    "diagram-shape",
    "unknown-vertex",
    "unknown-marker",
    "setup-conflict",
    "impossible-position",
    "bad-handicap",
    "unknown-ruleset",
    "unknown-axis",
    "ambiguous-expectation",
    "missing-expectation",
    "step-out-of-range",
    "duplicate-id",
    "bad-id",
    "missing-open",
    "bad-agreement",
)
FILE_KEYS = ("format", "topic", "cases")
STATUS_PROOF_KINDS = ("agreement", "pending")
CASE_KEYS = (
    "id",
    "title",
    "zh",
    "spec",
    "seeds",
    "tags",
    "rules",
    "depends",
    "board",
    "sgf",
    "size",
    "handicap",
    "history",
    "moves",
    "agreement",
    "counters",
    "settle",
    "expect",
    "open",
    "note",
    "status",
    "decision",
    "decided",
    "decided-by",
    "revision",
    "rulings",
    "votes",
    "comments",
    "status-proof",
    "load-error",
)
ERROR_CASE_KEYS = (
    "id",
    "title",
    "zh",
    "spec",
    "seeds",
    "tags",
    "note",
    "status",
    "decision",
    "decided",
    "decided-by",
    "revision",
    "rulings",
    "votes",
    "comments",
    "load-error",
)
ZH_KEYS = ("title", "note")
LOAD_ERROR_KEYS = ("file", "code", "line", "column")
SETUP_KEYS = ("board", "sgf", "size")
_ID = re.compile(r"[a-z0-9][a-z0-9.-]*")
_OPEN = re.compile(r"OQ-[1-9][0-9]*")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_SIZE = re.compile(r"\s*(\d{1,3})\s*(?:x\s*(\d{1,3})\s*)?")


@dataclass(frozen=True)
class _Ctx:
    """What loading one file needs: its source text, the presets and the DSL parser."""

    source: Source
    presets: Presets
    dsl: Dsl

    @property
    def path(self) -> str:
        return self.source.path

    def error(self, code: str, message: str, where: Location) -> InputError:
        return InputError(message, where, code=code)

    def key(self, mapping: LocDict, key: str) -> Location:
        where = mapping.key_location(key, self.path)
        return where if where.line else self.source.at(None)

    def value(self, mapping: LocDict, key: str) -> Location:
        """Where the value of ``key`` is (for values without a location: after ``key:``)."""
        where = self.key(mapping, key)
        return self.source.at(mapping.get(key), self.source.after_key(where))

    def place(self, value: LocStr):
        return lambda line, column: self.source.locate(value, line, column)


# -- public -----------------------------------------------------------------------------------
def load_case_text(text: str, path: str, presets: Presets, dsl: Dsl | None = None) -> CaseFile:
    """The case file whose YAML text is ``text`` (``path`` names it in messages)."""
    ctx = _Ctx(Source(path, text), presets, dsl or Dsl())
    return _file(_yaml(text, ctx), ctx)


def load_case_file(path: Path, presets: Presets, dsl: Dsl | None = None) -> CaseFile:
    return load_case_text(text_of(case_file_bytes(path), path), str(path), presets, dsl)


def check_error_case(case: Case, presets: Presets, dsl: Dsl | None = None) -> tuple[bool, str]:
    """Load the quoted file of an error case: (True, "") if it fails with the stated code at
    the stated line and column, else (False, what happened instead)."""
    spec = case.load_error
    if spec is None:
        return False, f"{case.id} is not an error case"
    try:
        load_case_text(spec.file, f"{case.id}:load-error", presets, dsl)
    except InputError as err:
        where = err.location or Location("")
        got = (err.code, where.line, where.column)
        if got == (spec.code, spec.line, spec.column):
            return True, ""
        return False, (
            f"expected {spec.code} at {spec.line}:{spec.column}, "
            f"got {err.code or 'an error'} at {where.line}:{where.column}: {err.message}"
        )
    return False, f"expected {spec.code} at {spec.line}:{spec.column}, but the file loaded"


QUESTION_REVIEW_KEYS = REVIEW_KEYS
_QUESTION = re.compile(r"oq\.[1-9][0-9]*")


def load_question_reviews(text: str, path: str, presets: Presets) -> tuple[QuestionReview, ...]:
    """The decisions on the open questions (``spec/question-reviews.yaml``: ``format: 1``,
    ``questions: {oq.N: review keys}``), checked like a case's review keys ({#format.review})."""
    ctx = _Ctx(Source(path, text), presets, Dsl())
    data = _yaml(text, ctx)
    if not isinstance(data, LocDict):
        raise ctx.error(
            "schema", "a question-review file is a mapping: format, questions", ctx.source.at(data)
        )
    _check_keys(data, ("format", "questions"), "a question-review file", ctx)
    if data.get("format") != 1 or type(data.get("format")) is not int:
        where = ctx.value(data, "format") if "format" in data else ctx.source.at(data)
        raise ctx.error("schema", "expected 'format: 1'", where)
    questions = data.get("questions") or LocDict()
    if not isinstance(questions, LocDict):
        raise ctx.error("schema", "'questions' maps oq.N anchors to reviews", ctx.value(data, "questions"))
    out = []
    for anchor, item in questions.items():
        if not isinstance(anchor, str) or not _QUESTION.fullmatch(anchor):
            raise ctx.error(
                "schema", f"{anchor!r} is not an open question's anchor (oq.N)", ctx.source.at(item)
            )
        if not isinstance(item, LocDict):
            raise ctx.error("schema", f"the review of {anchor} is a mapping", ctx.value(questions, anchor))
        _check_keys(item, QUESTION_REVIEW_KEYS, f"the review of {anchor}", ctx)
        out.append(QuestionReview(anchor, **_review(item, ctx), location=ctx.key(questions, anchor)))
    return tuple(out)


# -- YAML and the file ------------------------------------------------------------------------
def _yaml(text: str, ctx: _Ctx):
    try:
        return load_yaml_text(text, ctx.path)
    except InputError as err:  # yamlsrc always locates its errors
        raise InputError(err.message, err.location, code=err.code or "yaml-syntax") from None
    except RecursionError:
        where = Location(ctx.path, 1, 1)
        raise InputError("YAML error: nested too deeply", where, code="yaml-syntax") from None


def _check_keys(mapping: LocDict, allowed, what: str, ctx: _Ctx) -> None:
    for key in mapping:
        if not isinstance(key, str) or key not in allowed:
            where = ctx.key(mapping, key) if isinstance(key, str) else ctx.source.at(mapping)
            raise ctx.error(
                "schema", f"unknown key {key!r} in {what} (expected: {', '.join(allowed)})", where
            )


def _file(data, ctx: _Ctx) -> CaseFile:
    if not isinstance(data, LocDict):
        raise ctx.error(
            "schema", "a case file is a mapping with 'format: 1' and 'cases'", ctx.source.at(data)
        )
    _check_keys(data, FILE_KEYS, "a case file", ctx)
    fmt = data.get("format")
    if "format" not in data or type(fmt) is not int or fmt != 1:
        where = ctx.value(data, "format") if "format" in data else ctx.source.at(data)
        raise ctx.error("schema", "expected 'format: 1'", where)
    topic = _text(data, "topic", ctx, required=False)
    cases = data.get("cases")
    if not isinstance(cases, LocList) or not cases:
        where = ctx.value(data, "cases") if "cases" in data else ctx.source.at(data)
        raise ctx.error("schema", "'cases' must be a non-empty list of cases", where)
    loaded: list[Case] = []
    seen: dict[str, Location] = {}
    for item in cases:
        case = _case(item, ctx, ctx.source.at(cases))
        if case.id in seen:
            raise ctx.error(
                "duplicate-id",
                f"duplicate case id {case.id!r} (first at line {seen[case.id].line})",
                case.location,
            )
        seen[case.id] = case.location
        loaded.append(case)
    return CaseFile(ctx.path, fmt, topic, tuple(loaded))


# -- simple values ----------------------------------------------------------------------------
def _text(mapping: LocDict, key: str, ctx: _Ctx, required=True, one_line=False) -> str:
    if key not in mapping:
        if required:
            raise ctx.error("schema", f"missing key {key!r}", ctx.source.at(mapping))
        return ""
    value = mapping[key]
    if not isinstance(value, str) or (required and not value.strip()):
        raise ctx.error("schema", f"{key!r} must be a non-empty string", ctx.value(mapping, key))
    if one_line and "\n" in value.strip():
        raise ctx.error("schema", f"{key!r} must be one line", ctx.value(mapping, key))
    return value


def _words(mapping: LocDict, key: str, ctx: _Ctx, required=False, pattern=None) -> tuple:
    if key not in mapping:
        if required:
            raise ctx.error("schema", f"missing key {key!r}", ctx.source.at(mapping))
        return ()
    items = mapping[key]
    if not isinstance(items, LocList):
        raise ctx.error("schema", f"{key!r} must be a list", ctx.value(mapping, key))
    for item in items:
        where = ctx.source.at(item, ctx.value(mapping, key))
        if not isinstance(item, str) or not item.strip():
            raise ctx.error("schema", f"every item of {key!r} must be a non-empty string", where)
        if pattern is not None and not pattern.fullmatch(item):
            raise ctx.error("schema", f"{item!r} in {key!r} is not like {pattern.pattern}", where)
    return tuple(str(i) for i in items)


def _case_id(mapping: LocDict, ctx: _Ctx) -> tuple[str, Location]:
    if "id" not in mapping:
        raise ctx.error("schema", "a case needs an 'id'", ctx.source.at(mapping))
    value = mapping["id"]
    where = ctx.value(mapping, "id")
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise ctx.error("bad-id", f"case id {value!r} is not like [a-z0-9][a-z0-9.-]*", where)
    return str(value), where


# -- cases ------------------------------------------------------------------------------------
def _case(item, ctx: _Ctx, near: Location) -> Case:
    if not isinstance(item, LocDict):
        raise ctx.error("schema", "a case is a mapping (id, title, …)", ctx.source.at(item, near))
    error_case = "load-error" in item
    _check_keys(
        item,
        ERROR_CASE_KEYS if error_case else CASE_KEYS,
        "an error case" if error_case else "a case",
        ctx,
    )
    case_id, where = _case_id(item, ctx)
    common = {
        "id": case_id,
        "title": _text(item, "title", ctx, one_line=True).strip(),
        "spec": _words(item, "spec", ctx, required=True),
        "seeds": _words(item, "seeds", ctx, required=True),
        "tags": _words(item, "tags", ctx),
        "note": _text(item, "note", ctx, required=False),
        **_zh(item, ctx),
        **_review(item, ctx),
        "content_revision": case_revision(item),
        "location": where,
    }
    if error_case:
        return Case(load_error=_load_error(item, ctx), **common)
    rules = _rules(item, ctx)
    depends = _words(item, "depends", ctx)
    for axis in item.get("depends") or ():
        if axis not in AXES:
            raise ctx.error(
                "unknown-axis",
                f"unknown axis {axis!r} in 'depends' (expected one of: {', '.join(AXES)})",
                ctx.source.at(axis, ctx.value(item, "depends")),
            )
    open_ids = _words(item, "open", ctx, pattern=_OPEN)
    setup, sgf_moves, diagram_dead = _setup(item, ctx)
    _check_handicap(item, ctx, setup, rules)
    history = sgf_moves + _actions(item, "history", ctx, setup, required=False)
    moves = _actions(item, "moves", ctx, setup, required=True)
    as_set_up = not history and not moves and not setup.handicap
    agreement = load_agreement(item, ctx, setup, diagram_dead, as_set_up)
    counters = load_counters(item, ctx, setup.width * setup.height)
    settle = load_settle(item, ctx, setup, lambda table, key: _actions(table, key, ctx, setup, required=True))
    case = Case(
        rules=rules,
        depends=depends,
        status_proof=_status_proof(item, ctx),
        setup=setup,
        history=history,
        moves=moves,
        open=open_ids,
        **common,
    )
    expectations = _expectations(item, case, ctx, settle)
    final = None
    says = any(e.counts or e.settles for e in expectations)
    if not agreement.empty or not counters.empty or settle is not None or says:
        final = FinalSpec(agreement, counters, settle)
        setup = replace(setup, final=final)
        if setup.source == "board":
            setup = replace(setup, text=render_diagram(setup))
    return replace(case, setup=setup, expectations=expectations)


def _zh(item: LocDict, ctx: _Ctx) -> dict:
    """{#format.zh} ``zh: {title, note}``, the case's texts in Chinese, directly after ``title``;
    ``note`` only where the case has one. Absent: not written yet (lint counts those)."""
    if "zh" not in item:
        return {}
    keys = list(item)  # "title" is there: the case's title is read first
    if keys.index("zh") != keys.index("title") + 1:
        raise ctx.error("schema", "'zh' goes directly after 'title'", ctx.key(item, "zh"))
    value = item["zh"]
    if not isinstance(value, LocDict):
        raise ctx.error(
            "schema", "'zh' is a mapping: title (and note, where the case has one)", ctx.value(item, "zh")
        )
    _check_keys(value, ZH_KEYS, "'zh'", ctx)
    title = _text(value, "title", ctx, one_line=True).strip()
    note = _text(value, "note", ctx, required=False)
    if "note" in value and not note.strip():
        raise ctx.error("schema", "'note' must be a non-empty string", ctx.value(value, "note"))
    if note and "note" not in item:
        raise ctx.error("schema", "'zh' has a 'note' but the case has none", ctx.key(value, "note"))
    return {"zh_title": title, "zh_note": note}


def _status_proof(item: LocDict, ctx: _Ctx) -> tuple[str, str]:
    """{#format.status-proof} ``status-proof: {agreement: why}`` or ``{pending: why}`` → (kind, why);
    ("", "") when absent. A pending one loads (so lint can say where it is) and fails lint."""
    if "status-proof" not in item:
        return "", ""
    value = item["status-proof"]
    where = ctx.value(item, "status-proof")
    if not isinstance(value, LocDict) or len(value) != 1 or next(iter(value)) not in STATUS_PROOF_KINDS:
        raise ctx.error(
            "schema",
            "'status-proof' is a mapping with one key, 'agreement' or 'pending', giving the reason",
            where,
        )
    kind = next(iter(value))
    reason = value[kind]
    if not isinstance(reason, str) or not reason.strip():
        message = f"'status-proof: {kind}' must give the reason as a text"
        raise ctx.error("schema", message, ctx.value(value, kind))
    return str(kind), " ".join(reason.split())


RULING_KEYS = ("status", "decision", "decided", "decided-by", "revision")
COMMENT_KEYS = ("by", "date", "text", "ruleset")
VOTE_KEYS = ("by", "status", "date", "revision", "text", "ruleset")


def _review(item: LocDict, ctx: _Ctx) -> dict:
    """{#format.review} ``status`` (default proposed), ``decision``, its date ``decided`` and who
    took it (``decided-by``), the ``rulings`` on single rulesets and the reviewers' ``comments``.
    Whether a status is backed by a decision is lint's check (a file that lacks one still loads)."""
    status = item.get("status", "proposed")
    if status not in REVIEW_STATUSES or not isinstance(status, str):
        raise ctx.error(
            "schema",
            f"'status' must be one of: {', '.join(REVIEW_STATUSES)} (got {status!r})",
            ctx.value(item, "status"),
        )
    decision = item.get("decision", "")
    if "decision" in item and (not isinstance(decision, str) or not decision.strip()):
        raise ctx.error("schema", "'decision' must be a non-empty string", ctx.value(item, "decision"))
    decided = _date(item, "decided", ctx) if "decided" in item else ""
    if decision and not decided:
        raise ctx.error(
            "schema",
            "'decision' needs 'decided: YYYY-MM-DD', the date it was taken",
            ctx.key(item, "decision"),
        )
    if decided and not decision:
        raise ctx.error("schema", "'decided' dates a decision: give 'decision' too", ctx.key(item, "decided"))
    by = _text(item, "decided-by", ctx, required=False, one_line=True).strip() if "decided-by" in item else ""
    if "decided-by" in item and not by:
        raise ctx.error("schema", "'decided-by' must be a non-empty string", ctx.value(item, "decided-by"))
    if by and not decision:
        raise ctx.error(
            "schema",
            "'decided-by' names who took a decision: give 'decision' too",
            ctx.key(item, "decided-by"),
        )
    revision = _revision(item, ctx) if "revision" in item else ""
    if revision and not decision:
        raise ctx.error(
            "schema",
            "'revision' is what a decision was taken on: give 'decision' too",
            ctx.key(item, "revision"),
        )
    return {
        "status": str(status),
        "decision": str(decision).strip("\n"),
        "decided": decided,
        "decided_by": by,
        "revision": revision,
        "rulings": _rulings(item, ctx),
        "votes": _votes(item, ctx),
        "comments": _comments(item, ctx),
    }


def _revision(item: LocDict, ctx: _Ctx) -> str:
    """A revision ({#format.revision}): 12 lower-case hex digits."""
    value = item["revision"]
    if not isinstance(value, str) or not REVISION_RE.fullmatch(value):
        raise ctx.error(
            "schema",
            f"'revision' is the 12 hex digits of a revision, in quotes when all are digits (got {value!r})",
            ctx.value(item, "revision"),
        )
    return str(value)


def _votes(item: LocDict, ctx: _Ctx) -> tuple[Vote, ...]:
    """``votes: [{by, status, date, revision, text, ruleset?}]`` ({#format.quorum})."""
    if "votes" not in item:
        return ()
    items = item["votes"]
    if not isinstance(items, LocList):
        raise ctx.error("schema", "'votes' must be a list", ctx.value(item, "votes"))
    out = []
    for entry in items:
        if not isinstance(entry, LocDict):
            raise ctx.error(
                "schema",
                f"a vote is a mapping: {', '.join(VOTE_KEYS)}",
                ctx.source.at(entry, ctx.value(item, "votes")),
            )
        _check_keys(entry, VOTE_KEYS, "a vote", ctx)
        for key in ("status", "date", "revision"):
            if key not in entry:
                raise ctx.error("schema", f"missing key {key!r}", ctx.source.at(entry))
        status = entry["status"]
        if status not in DECIDED_STATUSES:
            raise ctx.error(
                "schema",
                f"a vote's 'status' is one of: {', '.join(DECIDED_STATUSES)} (got {status!r})",
                ctx.value(entry, "status"),
            )
        ruleset = _text(entry, "ruleset", ctx, required=False, one_line=True).strip()
        if ruleset and ruleset not in ctx.presets.names:
            raise ctx.error(
                "unknown-ruleset", f"the vote names ruleset {ruleset!r}", ctx.value(entry, "ruleset")
            )
        by = _text(entry, "by", ctx, one_line=True).strip()
        text = _text(entry, "text", ctx).strip("\n")
        out.append(Vote(by, str(status), _date(entry, "date", ctx), _revision(entry, ctx), text, ruleset))
    return tuple(out)


def _rulings(item: LocDict, ctx: _Ctx) -> tuple[Ruling, ...]:
    """``rulings: {RULESET: {status, decision, decided, decided-by}}``: every key required."""
    if "rulings" not in item:
        return ()
    rulings = item["rulings"]
    if not isinstance(rulings, LocDict) or not rulings:
        raise ctx.error("schema", "'rulings' maps ruleset names to decisions", ctx.value(item, "rulings"))
    out = []
    for name, entry in rulings.items():
        if not isinstance(name, str) or name not in ctx.presets.names:
            raise ctx.error(
                "unknown-ruleset",
                f"'rulings' names {name!r}, which is not a ruleset of spec/rulesets.yaml",
                ctx.key(rulings, str(name)),
            )
        if not isinstance(entry, LocDict):
            raise ctx.error(
                "schema",
                f"the ruling on {name!r} is a mapping: {', '.join(RULING_KEYS)}",
                ctx.value(rulings, name),
            )
        _check_keys(entry, RULING_KEYS, f"the ruling on {name!r}", ctx)
        status = entry.get("status")
        if status not in DECIDED_STATUSES:
            where = ctx.value(entry, "status") if "status" in entry else ctx.source.at(entry)
            raise ctx.error(
                "schema",
                f"a ruling's 'status' is one of: {', '.join(DECIDED_STATUSES)} (got {status!r})",
                where,
            )
        decision = _text(entry, "decision", ctx).strip("\n")
        if "decided" not in entry:
            raise ctx.error("schema", "missing key 'decided'", ctx.source.at(entry))
        by = _text(entry, "decided-by", ctx, one_line=True).strip()
        if "revision" not in entry:
            raise ctx.error("schema", "missing key 'revision'", ctx.source.at(entry))
        out.append(
            Ruling(name, str(status), decision, _date(entry, "decided", ctx), by, _revision(entry, ctx))
        )
    return tuple(out)


def _comments(item: LocDict, ctx: _Ctx) -> tuple[Comment, ...]:
    """``comments: [{by, date, text, ruleset?}]``."""
    if "comments" not in item:
        return ()
    items = item["comments"]
    if not isinstance(items, LocList):
        raise ctx.error("schema", "'comments' must be a list", ctx.value(item, "comments"))
    out = []
    for entry in items:
        if not isinstance(entry, LocDict):
            raise ctx.error(
                "schema",
                f"a comment is a mapping: {', '.join(COMMENT_KEYS)}",
                ctx.source.at(entry, ctx.value(item, "comments")),
            )
        _check_keys(entry, COMMENT_KEYS, "a comment", ctx)
        if "date" not in entry:
            raise ctx.error("schema", "missing key 'date'", ctx.source.at(entry))
        ruleset = _text(entry, "ruleset", ctx, required=False, one_line=True).strip()
        if ruleset and ruleset not in ctx.presets.names:
            raise ctx.error(
                "unknown-ruleset", f"the comment names ruleset {ruleset!r}", ctx.value(entry, "ruleset")
            )
        by = _text(entry, "by", ctx, one_line=True).strip()
        text = _text(entry, "text", ctx).strip("\n")
        out.append(Comment(by, _date(entry, "date", ctx), text, ruleset))
    return tuple(out)


def _date(item: LocDict, key: str, ctx: _Ctx) -> str:
    """A calendar date written YYYY-MM-DD (YAML may have read it as a date already)."""
    value = item[key]
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return datetime.date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    raise ctx.error(
        "schema", f"{key!r} must be a date written YYYY-MM-DD (got {value!r})", ctx.value(item, key)
    )


def _load_error(item: LocDict, ctx: _Ctx) -> LoadErrorSpec:
    spec = item["load-error"]
    if not isinstance(spec, LocDict):
        raise ctx.error(
            "schema",
            "'load-error' is a mapping: file, code, line, column",
            ctx.value(item, "load-error"),
        )
    _check_keys(spec, LOAD_ERROR_KEYS, "'load-error'", ctx)
    file = _text(spec, "file", ctx)
    code = _text(spec, "code", ctx)
    if code not in ERROR_CODES:
        raise ctx.error(
            "schema",
            f"unknown error code {code!r} (expected one of: {', '.join(ERROR_CODES)})",
            ctx.value(spec, "code"),
        )
    numbers = []
    for key in ("line", "column"):
        value = spec.get(key)
        if type(value) is not int or value < 1:
            where = ctx.value(spec, key) if key in spec else ctx.source.at(spec)
            raise ctx.error("schema", f"'{key}' must be a number ≥ 1", where)
        numbers.append(value)
    return LoadErrorSpec(str(file), str(code), numbers[0], numbers[1])


def _rules(item: LocDict, ctx: _Ctx) -> tuple[str, ...]:
    value = item.get("rules")
    if value is None and "rules" not in item:
        return ()
    if isinstance(value, str) and value.strip() == "all":
        return ()
    if not isinstance(value, LocList) or not value:
        raise ctx.error(
            "schema",
            "'rules' is 'all' or a non-empty list of ruleset names",
            ctx.value(item, "rules"),
        )
    names = []
    for name in value:
        where = ctx.source.at(name, ctx.value(item, "rules"))
        if not isinstance(name, str):
            raise ctx.error("schema", "a ruleset name must be a string", where)
        try:
            names.append(ctx.presets.get(name).name)
        except (RulesError, KeyError, ValueError) as err:
            raise ctx.error("unknown-ruleset", str(err), where) from None
        if names.count(names[-1]) > 1:
            raise ctx.error("schema", f"ruleset {name!r} listed twice", where)
    return tuple(names)


# -- set-up -----------------------------------------------------------------------------------
def _setup(item: LocDict, ctx: _Ctx) -> tuple[Setup, tuple[CaseAction, ...], tuple[str, ...]]:
    """The set-up, the SGF's moves and the stones the diagram marks dead (``x``/``o``)."""
    given = [k for k in item if k in SETUP_KEYS]
    if not given:
        raise ctx.error("schema", "a case needs one of 'board', 'sgf' or 'size'", ctx.source.at(item))
    if len(given) > 1:
        raise ctx.error(
            "setup-conflict",
            f"'{given[1]}' and '{given[0]}' both set up the position (give exactly one)",
            ctx.key(item, given[1]),
        )
    key = given[0]
    value = item[key]
    moves: tuple[CaseAction, ...] = ()
    dead: tuple[str, ...] = ()
    if key == "size":
        width, height = _size(item, ctx)
        setup = Setup(width, height)
    elif not isinstance(value, LocStr):
        raise ctx.error("schema", f"'{key}' must be a string", ctx.value(item, key))
    elif key == "board":
        d = ctx.dsl.parse_diagram(value, ctx.place(value))
        setup = Setup(d.width, d.height, d.to_move, d.stones, d.markers, source="board")
        setup = replace(setup, text=render_diagram(setup))
        dead = d.dead
    else:
        sgf = read_sgf(value, ctx.place(value))
        setup = Setup(
            sgf.width,
            sgf.height,
            sgf.to_move,
            sgf.stones,
            (),
            sgf.handicap,
            "sgf",
            value.strip(),
        )
        moves = sgf.moves
    if "handicap" in item:
        handicap = item["handicap"]
        where = ctx.value(item, "handicap")
        if type(handicap) is not int or not 2 <= handicap <= 9:
            raise ctx.error("bad-handicap", "'handicap' is a number of stones, 2..9", where)
        if setup.stones or setup.handicap:
            raise ctx.error(
                "setup-conflict", "handicap stones go on an empty board", ctx.key(item, "handicap")
            )
        setup = replace(setup, handicap=handicap)
    return setup, moves, dead


def _check_handicap(item: LocDict, ctx: _Ctx, setup: Setup, rules: tuple[str, ...]) -> None:
    """{#format.case} A handicap the board cannot take under a ruleset the case applies to is
    ``bad-handicap`` (setup.handicap: fixed placement needs a square board of 7x7 and up and at
    most 4 stones on even sizes and 7x7; free placement at most the points minus one)."""
    if not setup.handicap:
        return
    geometry = Geometry(setup.width, setup.height)
    where = ctx.value(item, "handicap") if "handicap" in item else ctx.value(item, "sgf")
    for name in rules or ctx.presets.names:
        try:
            Game.new(ctx.presets.get(name), geometry, handicap=setup.handicap)
        except HandicapError as err:
            raise ctx.error("bad-handicap", f"{name}: {err}", where) from None


def _size(item: LocDict, ctx: _Ctx) -> tuple[int, int]:
    value, where = item["size"], ctx.value(item, "size")
    if type(value) is int:
        width = height = value
    elif isinstance(value, str) and (m := _SIZE.fullmatch(value)):
        width = int(m.group(1))
        height = int(m.group(2)) if m.group(2) else width
    else:
        raise ctx.error("board-size", "'size' is N or WxH (e.g. 9 or 9x13)", where)
    for n in (width, height):
        if not MIN_SIZE <= n <= MAX_SIZE:
            raise ctx.error("board-size", f"board size {n} is not {MIN_SIZE}..{MAX_SIZE}", where)
    return width, height


def _actions(item: LocDict, key: str, ctx: _Ctx, setup: Setup, required: bool) -> tuple[CaseAction, ...]:
    if key not in item:
        if required:
            raise ctx.error("schema", f"missing key {key!r} (it may be empty)", ctx.source.at(item))
        return ()
    value = item[key]
    if value is None:
        return ()
    if not isinstance(value, LocStr):
        raise ctx.error("schema", f"'{key}' must be a move list", ctx.value(item, key))
    geometry = Geometry(setup.width, setup.height)
    markers = dict(setup.markers)
    out = []
    for action in ctx.dsl.parse_moves(value, ctx.place(value)):
        if action.vertex and action.vertex.startswith("@"):
            letter = action.vertex[1:]
            if letter not in markers:
                known = ", ".join("@" + m for m in markers) or "none"
                raise ctx.error(
                    "unknown-marker",
                    f"marker {action.vertex} is not in the diagram (markers: {known})",
                    action.location,
                )
            action = CaseAction(action.color, action.kind, markers[letter], action.location)
        elif action.vertex:
            vertex = _vertex(action.vertex, geometry, ctx, action.location)
            action = CaseAction(action.color, action.kind, vertex, action.location)
        out.append(action)
    return tuple(out)


def _vertex(vertex: str, geometry: Geometry, ctx: _Ctx, where) -> str:
    try:
        return geometry.to_gtp(geometry.from_gtp(vertex))
    except CoordinateError as err:
        raise ctx.error("unknown-vertex", str(err), where) from None


# -- expectations -----------------------------------------------------------------------------
def _expectations(item: LocDict, case: Case, ctx: _Ctx, settle: SettleSpec | None) -> tuple[Expectation, ...]:
    table = item.get("expect")
    if not isinstance(table, LocDict) or not table:
        where = ctx.value(item, "expect") if "expect" in item else ctx.source.at(item)
        raise ctx.error("schema", "'expect' must map selectors to verdict texts", where)
    names = list(case.rules) or ctx.presets.names
    out: list[Expectation] = []
    for key, text in table.items():
        if not isinstance(key, LocStr):
            raise ctx.error("schema", f"selector {key!r} must be a string", ctx.source.at(table))
        where = ctx.key(table, key)
        try:
            selector = parse_selector(key, names)
        except SelectorError as err:
            raise ctx.error(err.code, err.message, ctx.source.locate(key, 1, err.offset + 1)) from None
        if selector.kind == "axes" and "depends" in item:
            for axis, _ in selector.conditions:
                if axis not in case.depends:
                    raise ctx.error("unknown-axis", f"axis {axis!r} is not listed in 'depends'", where)
        if any(e.selector == selector.text for e in out):
            raise ctx.error("schema", f"selector {selector.text!r} given twice", where)
        if text is None:
            text = LocStr("")
            text.line, text.column = where.line, where.column
        if not isinstance(text, LocStr):
            raise ctx.error("schema", "a verdict text must be a string", ctx.value(table, key))
        verdicts = ctx.dsl.parse_verdicts(text, ctx.place(text))
        _check_verdicts(verdicts, case, ctx)
        _check_settle_verdicts(verdicts, case, settle, ctx)
        expectation = Expectation(
            selector.text,
            verdicts.steps,
            verdicts.end,
            verdicts.text,
            where,
            verdicts.count,
            verdicts.points,
            verdicts.settle,
        )
        if expectation.empty:  # {#format.expect}: a text that claims nothing checks nothing
            raise ctx.error(
                "missing-expectation",
                f"the verdict text of {selector.text!r} states no claim (empty or only comments)",
                where,
            )
        out.append(expectation)
    result = tuple(out)
    probe = replace(case, expectations=result, location=ctx.key(item, "expect"))
    resolve(probe, ctx.presets)
    return result


def _check_verdicts(verdicts: Verdicts, case: Case, ctx: _Ctx) -> None:
    setup = case.setup
    assert setup is not None
    geometry = Geometry(setup.width, setup.height)
    for vertex, where in verdicts.vertices:
        _vertex(vertex, geometry, ctx, where)
    for rows, where in verdicts.boards:
        lines = rows.split("/")
        if len(lines) != setup.height or any(len(r) != setup.width for r in lines):
            raise ctx.error(
                "diagram-shape",
                f"board rows must be {setup.height} rows of {setup.width} points",
                where,
            )
    for step in verdicts.steps:
        if not 1 <= step.step <= len(case.moves):
            raise ctx.error(
                "step-out-of-range",
                f"step {step.step} is not 1..{len(case.moves)} (the steps of 'moves')",
                step.location,
            )
        if step.is_open and not case.open:
            raise ctx.error(
                "missing-open",
                "an either-verdict ('|') needs the open question listed in 'open'",
                step.location,
            )
    if verdicts.count is not None and verdicts.count.is_open and not case.open:
        raise ctx.error(
            "missing-open",
            "an either-verdict ('|') needs the open question listed in 'open'",
            verdicts.count.location,
        )


def _check_settle_verdicts(verdicts: Verdicts, case: Case, settle: SettleSpec | None, ctx: _Ctx) -> None:
    """{#format.settle} Settling lines need the ``settle:`` key; ``settle N`` numbers its moves;
    ``proved: upheld|rejected`` names a disputed claim."""
    lines = verdicts.settle
    if lines.empty:
        return
    if settle is None:
        first = [*lines.steps, lines.end, lines.settled, *lines.proved]
        where = next((x.location for x in first if x is not None), lines.error_location)
        raise ctx.error("verdict-syntax", "settling verdicts need the case key 'settle'", where)
    n = len(settle.moves)
    for step in lines.steps:
        if not 1 <= step.step <= n:
            raise ctx.error(
                "step-out-of-range",
                f"settling step {step.step} is not 1..{n} (the steps of 'settle: moves')",
                step.location,
            )
    for step in lines.steps:
        if step.is_open and not case.open:
            raise ctx.error(
                "missing-open",
                "an either-verdict ('|') needs the open question listed in 'open'",
                step.location,
            )
    disputed = {(c.color, c.kind, c.vertex) for c in settle.claims}
    for line in lines.proved:
        c = line.claim
        if c is not None and (c.color, c.kind, c.vertex) not in disputed:
            message = f"the claim {c} is not in 'settle: dispute: claims'"
            raise ctx.error("verdict-syntax", message, c.location)
