"""Mutation testing of the suite: how many wrong reference implementations does ``jpd run`` reject?

    python benchmarks/mutate.py [--sample N] [--seed S] [--module GLOB] [--rerun WHAT] [--full]
    python benchmarks/mutate.py --smoke | --recheck [--write-survivors]

A *mutant* is ``refimpl/jpdref`` with one small change (an operator flipped, a constant moved, a
guard or call deleted, a colour swapped; the operators are listed in :data:`OPERATORS`). The test
is ``jpd run`` and nothing else — the suite is what implementers get, not pytest: a mutant is
*killed* when the run over ``conformance/`` would fail (a case fails or errors, a file does not
load, the run crashes or hangs), and *survives* otherwise.

Speed: the suite is loaded once; each mutant runs in a forked child that patches the one changed
function (its code object, so every module that imported it sees the change) or rebinds the one
changed module-level value, reloads the suite only if the mutated lines run while loading, and
stops at the first failing item. The unmutated run is traced once, item by item (memoised values
cleared before each item, so that a cached function's lines count for every item that uses it):
a mutant of a function body then runs only the items that execute one of its lines — every other
item runs exactly the unmutated code on fresh state (each item makes its own game; the child
clears every memoised value first), so it cannot fail. Module-level values, defaults and lines
that run while loading run every item (``--full``: every mutant does). A mutant whose lines no item
executes survives without running: it is listed as *not reached*. One worker, by design.

Results are kept in ``.mutation-cache.json`` (not committed) keyed by the mutant's text, so that
``--rerun survivors`` runs again only the mutants that survived last time (after cases were
added) and ``--rerun none`` only new ones. Equivalent mutants — changes no rule text can tell
apart — are listed with a one-line reason each in ``benchmarks/mutants/equivalent.txt``; the
score is killed / (sampled − equivalent), per module. ``--smoke`` runs the fixed mutants of
``benchmarks/mutants/smoke.txt`` without the cache and exits 1 if one survives that is not listed
as equivalent, or if one no longer exists (the code it named changed). ``--recheck`` runs the
mutants of ``survivors.txt`` again, each against every item (after cases were added or survivors
classified), and ``--write-survivors`` then keeps only those that still survive.
"""

from __future__ import annotations

import argparse
import ast
import copy
import fnmatch
import importlib
import json
import os
import random
import select
import signal
import sys
import time
import types
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "refimpl" / "jpdref"
CACHE = ROOT / ".mutation-cache.json"
EQUIVALENT = ROOT / "benchmarks" / "mutants" / "equivalent.txt"
SURVIVORS = ROOT / "benchmarks" / "mutants" / "survivors.txt"
SMOKE = ROOT / "benchmarks" / "mutants" / "smoke.txt"
BIG_INT = 1 << 20  # hash-mixing constants (zobrist.py): any other odd constant gives the same verdicts


# -- mutants -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    """One change to one module. ``key`` is stable while the enclosing code is unchanged."""

    file: str  # repository-relative path
    module: str  # import name
    line: int
    end_line: int
    scope: str  # qualified name of the enclosing top-level function or method, or "<module>"
    operator: str
    before: str
    after: str
    node_path: tuple[tuple[str, int], ...] = field(repr=False)
    occurrence: int = 1

    @property
    def key(self) -> str:
        n = f" #{self.occurrence}" if self.occurrence > 1 else ""
        return f"{self.file}::{self.scope}::{self.operator}: {self.before} => {self.after}{n}"

    @property
    def top_level(self) -> bool:
        """A module-level statement (its value is computed at import, never traced)."""
        return self.scope == "<module>"


_CMP_SWAP = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
_BIN_SWAP = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Add,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitXor: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}
_CALL_SWAP = {"min": "max", "max": "min", "any": "all", "all": "any"}
_COLOURS = {"BLACK": "WHITE", "WHITE": "BLACK"}

OPERATORS = {
    "compare": "a comparison operator replaced (< by <=, == by !=, is by is not, in by not in, …)",
    "arith": "an arithmetic operator replaced (+ by -, * by +, // by *, ^ by |, …); unary minus dropped",
    "bool": "and ↔ or; a `not` dropped",
    "const": "an integer constant n → n + 1; True ↔ False",
    "colour": "BLACK ↔ WHITE; `x.opponent` → `x`",
    "negate": "the test of an if / while / conditional expression / comprehension filter negated",
    "call": "min ↔ max, any ↔ all",
    "delete": "a statement deleted (a call, an assignment, a guard, a raise, a return, a break)",
}

# Statements whose deletion only changes explanation text (Count.steps): not rule behaviour.
_TEXT_CALLS = ("steps.append",)


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _is_text_statement(stmt: ast.stmt) -> bool:
    """A statement that builds explanation text only (``…steps.append(…)``, ``steps = …``)."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        return ast.unparse(stmt.value.func).endswith(_TEXT_CALLS)
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        return ast.unparse(stmt.targets[0]) == "steps"
    return False


def _short(node: ast.AST, limit: int = 70) -> str:
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Enumerator:
    """Walks one module's AST and lists its mutants (without applying any)."""

    def __init__(self, file: str, module: str, tree: ast.Module) -> None:
        self.file, self.module, self.tree = file, module, tree
        self.found: list[Mutant] = []

    def add(self, node: ast.AST, path, scope: str, operator: str, after: ast.AST | str) -> None:
        before = _short(node)
        after_text = after if isinstance(after, str) else _short(after)
        self.found.append(
            Mutant(
                self.file,
                self.module,
                node.lineno,
                getattr(node, "end_lineno", None) or node.lineno,
                scope,
                operator,
                before,
                after_text,
                tuple(path),
            )
        )

    # -- structure: which parts of the module are mutated ------------------------------------
    def run(self) -> list[Mutant]:
        for i, stmt in enumerate(self.tree.body):
            path = [("body", i)]
            if _is_docstring(stmt) or isinstance(stmt, ast.Import | ast.ImportFrom | ast.Assert):
                continue
            if isinstance(stmt, ast.FunctionDef):
                self.function(stmt, path, stmt.name)
            elif isinstance(stmt, ast.ClassDef):
                for j, inner in enumerate(stmt.body):
                    if isinstance(inner, ast.FunctionDef):
                        self.function(inner, [*path, ("body", j)], f"{stmt.name}.{inner.name}")
            elif isinstance(stmt, ast.Assign | ast.AnnAssign):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                    continue
                if stmt.value is not None:
                    self.expr(stmt.value, [*path, ("value", -1)], "<module>")
        counts: Counter[tuple[str, str, str, str]] = Counter()
        out = []
        for m in self.found:
            k = (m.scope, m.operator, m.before, m.after)
            counts[k] += 1
            out.append(Mutant(**{**_fields(m), "occurrence": counts[k]}))
        return out

    def function(self, fn: ast.FunctionDef, path, scope: str) -> None:
        args = fn.args
        for j, d in enumerate(args.defaults):
            self.expr(d, [*path, ("args", -1), ("defaults", j)], scope)
        for j, d in enumerate(args.kw_defaults):
            if d is not None:
                self.expr(d, [*path, ("args", -1), ("kw_defaults", j)], scope)
        self.block(fn.body, [*path], "body", scope)

    def block(self, body: list[ast.stmt], path, name: str, scope: str) -> None:
        for i, stmt in enumerate(body):
            here = [*path, (name, i)]
            if i == 0 and _is_docstring(stmt):
                continue
            self.statement(stmt, here, scope, deletable=len(body) > 1 or not isinstance(stmt, ast.Pass))

    def statement(self, stmt: ast.stmt, path, scope: str, deletable: bool) -> None:
        if _is_text_statement(stmt) or isinstance(stmt, ast.FunctionDef | ast.ClassDef | ast.Pass):
            if isinstance(stmt, ast.FunctionDef):  # a nested function: mutate its body too
                self.block(stmt.body, path, "body", scope)
            return
        if deletable and not isinstance(stmt, ast.Global | ast.Nonlocal):
            first = ast.unparse(stmt).splitlines()[0]
            first = first if len(first) <= 70 else first[:69] + "…"
            self.add(stmt, path, scope, "delete", f"pass  # was: {first}")
        for name, value in ast.iter_fields(stmt):
            if name in ("annotation", "type_comment", "returns"):
                continue
            if isinstance(value, list):
                if value and isinstance(value[0], ast.stmt):
                    self.block(value, path, name, scope)
                elif name == "handlers":
                    for j, h in enumerate(value):
                        self.block(h.body, [*path, (name, j)], "body", scope)
                else:
                    for j, v in enumerate(value):
                        if isinstance(v, ast.expr):
                            self.expr(v, [*path, (name, j)], scope)
            elif isinstance(value, ast.expr):
                if name == "test" and not isinstance(value, ast.Compare):
                    self.add(value, [*path, (name, -1)], scope, "negate", ast.UnaryOp(ast.Not(), value))
                self.expr(value, [*path, (name, -1)], scope)

    def expr(self, node: ast.expr, path, scope: str) -> None:
        if isinstance(node, ast.JoinedStr):
            return  # messages and explanation text
        if isinstance(node, ast.Compare):
            for j, op in enumerate(node.ops):
                swapped = copy.deepcopy(node)
                swapped.ops[j] = _CMP_SWAP[type(op)]()
                self.add(node, path, scope, "compare", swapped)
        elif isinstance(node, ast.BinOp) and type(node.op) in _BIN_SWAP:
            self.add(node, path, scope, "arith", ast.BinOp(node.left, _BIN_SWAP[type(node.op)](), node.right))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            self.add(node, path, scope, "arith", node.operand)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.add(node, path, scope, "bool", node.operand)
        elif isinstance(node, ast.BoolOp):
            other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            self.add(node, path, scope, "bool", ast.BoolOp(other, node.values))
        elif isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                self.add(node, path, scope, "const", ast.Constant(not v))
            elif isinstance(v, int) and abs(v) < BIG_INT:
                self.add(node, path, scope, "const", ast.Constant(v + 1))
        elif isinstance(node, ast.Name) and node.id in _COLOURS:
            self.add(node, path, scope, "colour", ast.Name(_COLOURS[node.id], node.ctx))
        elif isinstance(node, ast.Attribute) and node.attr in _COLOURS:
            self.add(node, path, scope, "colour", ast.Attribute(node.value, _COLOURS[node.attr], node.ctx))
        elif isinstance(node, ast.Attribute) and node.attr == "opponent":
            self.add(node, path, scope, "colour", node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CALL_SWAP:
            self.add(
                node,
                path,
                scope,
                "call",
                ast.Call(ast.Name(_CALL_SWAP[node.func.id]), node.args, node.keywords),
            )
        if isinstance(node, ast.IfExp):
            self.add(node.test, [*path, ("test", -1)], scope, "negate", ast.UnaryOp(ast.Not(), node.test))
        if isinstance(node, ast.comprehension):
            pass
        for name, value in ast.iter_fields(node):
            if name in ("ctx",):
                continue
            if isinstance(value, list):
                for j, v in enumerate(value):
                    if isinstance(v, ast.expr):
                        self.expr(v, [*path, (name, j)], scope)
                    elif isinstance(v, ast.comprehension):
                        sub = [*path, (name, j)]
                        self.expr(v.iter, [*sub, ("iter", -1)], scope)
                        for k, cond in enumerate(v.ifs):
                            self.add(cond, [*sub, ("ifs", k)], scope, "negate", ast.UnaryOp(ast.Not(), cond))
                            self.expr(cond, [*sub, ("ifs", k)], scope)
                    elif isinstance(v, ast.keyword):
                        self.expr(v.value, [*path, (name, j), ("value", -1)], scope)
            elif isinstance(value, ast.expr):
                self.expr(value, [*path, (name, -1)], scope)


def _fields(m: Mutant) -> dict:
    return {f: getattr(m, f) for f in m.__dataclass_fields__}


def module_files() -> list[tuple[str, str]]:
    """(repository-relative path, import name) of every module of ``refimpl/jpdref``."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out.append((rel, name))
    return out


def enumerate_mutants(files: list[tuple[str, str]] | None = None) -> list[Mutant]:
    out: list[Mutant] = []
    for rel, name in files or module_files():
        tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"), rel)
        out.extend(_Enumerator(rel, name, tree).run())
    return out


def sample(mutants: list[Mutant], size: int, seed: int, minimum: int = 8) -> list[Mutant]:
    """A deterministic sample of about ``size`` mutants, every module represented.

    Each module gets its share of ``size`` in proportion to its mutants (at least ``minimum``,
    or all it has), drawn with a generator seeded by ``seed`` and the module's path, so a change
    in one module does not redraw the others.
    """
    by_file: dict[str, list[Mutant]] = defaultdict(list)
    for m in mutants:
        by_file[m.file].append(m)
    total = len(mutants)
    chosen: list[Mutant] = []
    for file, ms in sorted(by_file.items()):
        share = max(minimum, round(size * len(ms) / total)) if total else 0
        rng = random.Random(f"{seed}:{file}")
        picked = ms if share >= len(ms) else rng.sample(ms, share)
        chosen.extend(sorted(picked, key=lambda m: (m.line, m.key)))
    return chosen


# -- applying a mutant -------------------------------------------------------------------------


def _locate(tree: ast.AST, path) -> tuple[ast.AST, str, int]:
    """(parent, field, index) of the node at ``path`` (index -1: a single node, not a list)."""
    parent: ast.AST = tree
    for name, index in path[:-1]:
        value = getattr(parent, name)
        parent = value[index] if index >= 0 else value
    name, index = path[-1]
    return parent, name, index


def mutated_tree(m: Mutant) -> ast.Module:
    """The module's AST with ``m`` applied."""
    tree = ast.parse((ROOT / m.file).read_text(encoding="utf-8"), m.file)
    parent, name, index = _locate(tree, m.node_path)
    node = getattr(parent, name)[index] if index >= 0 else getattr(parent, name)
    new = _apply(m, node)
    ast.copy_location(new, node)
    ast.fix_missing_locations(new)
    if index >= 0:
        getattr(parent, name)[index] = new
    else:
        setattr(parent, name, new)
    if _short(node) != m.before:
        raise RuntimeError(f"{m.key}: the source changed (found {_short(node)!r})")
    return tree


def _apply(m: Mutant, node: ast.AST) -> ast.AST:
    op = m.operator
    if op == "delete":
        return ast.Pass()
    if op == "negate":
        return ast.UnaryOp(ast.Not(), node)
    if op == "compare":
        for j, o in enumerate(node.ops):
            candidate = copy.deepcopy(node)
            candidate.ops[j] = _CMP_SWAP[type(o)]()
            if _short(candidate) == m.after:
                return candidate
        raise RuntimeError(f"{m.key}: no such comparison")
    if op == "arith":
        if isinstance(node, ast.UnaryOp):
            return node.operand
        return ast.BinOp(node.left, _BIN_SWAP[type(node.op)](), node.right)
    if op == "bool":
        if isinstance(node, ast.UnaryOp):
            return node.operand
        return ast.BoolOp(ast.Or() if isinstance(node.op, ast.And) else ast.And(), node.values)
    if op == "const":
        return ast.Constant(not node.value if isinstance(node.value, bool) else node.value + 1)
    if op == "colour":
        if isinstance(node, ast.Name):
            return ast.Name(_COLOURS[node.id], node.ctx)
        if node.attr == "opponent":
            return node.value
        return ast.Attribute(node.value, _COLOURS[node.attr], node.ctx)
    if op == "call":
        return ast.Call(ast.Name(_CALL_SWAP[node.func.id], ast.Load()), node.args, node.keywords)
    raise RuntimeError(f"unknown operator {op}")


def _raw(obj):
    """The plain function behind a method, property, static/class method or cache wrapper."""
    if isinstance(obj, property):
        return obj.fget
    if isinstance(obj, staticmethod | classmethod):
        return obj.__func__
    while hasattr(obj, "__wrapped__"):
        obj = obj.__wrapped__
    return obj


def _project_modules() -> list[types.ModuleType]:
    return [
        mod for name, mod in list(sys.modules.items()) if name.split(".")[0] in ("jpdref", "jpdtools") and mod
    ]


def patch(m: Mutant) -> None:
    """Make the running interpreter behave as if ``m``'s module had been imported mutated."""
    tree = mutated_tree(m)
    module = importlib.import_module(m.module)  # jpd run imports it lazily; import it as it would
    index = m.node_path[0][1]
    stmt = tree.body[index]
    namespace = dict(module.__dict__)
    if isinstance(stmt, ast.FunctionDef):
        code = compile(ast.Module([stmt], []), str(ROOT / m.file), "exec")
        exec(code, namespace)
        _transplant(module.__dict__[stmt.name], namespace[stmt.name])
        return
    if isinstance(stmt, ast.ClassDef):
        method = tree.body[index].body[m.node_path[1][1]]
        shell = ast.ClassDef(stmt.name, [], [], [method], [])  # a __class__ cell for super()
        ast.copy_location(shell, stmt)
        code = compile(ast.fix_missing_locations(ast.Module([shell], [])), str(ROOT / m.file), "exec")
        exec(code, namespace)
        live = getattr(module, stmt.name).__dict__[method.name]
        _transplant(live, namespace[stmt.name].__dict__[method.name])
        return
    # a module-level value: compute it once, mutated, and rebind it wherever it was imported
    code = compile(ast.Module([stmt], []), str(ROOT / m.file), "exec")
    exec(code, namespace)
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    for name in names:
        old, new = module.__dict__[name], namespace[name]
        shared = isinstance(old, int | str | float | bool | type(None))  # interned: identity says little
        for mod in _project_modules():
            if vars(mod).get(name) is old:
                setattr(mod, name, new)
            if shared:
                continue
            for value in list(vars(mod).values()):
                if isinstance(value, types.FunctionType):
                    _rebind_default(value, old, new)
                elif isinstance(value, type) and value.__module__ == mod.__name__:
                    for member in vars(value).values():
                        fn = _raw(member)
                        if isinstance(fn, types.FunctionType):
                            _rebind_default(fn, old, new)


def _rebind_default(fn: types.FunctionType, old, new) -> None:
    fn = _raw(fn)
    if fn.__defaults__ and any(d is old for d in fn.__defaults__):
        fn.__defaults__ = tuple(new if d is old else d for d in fn.__defaults__)
    if fn.__kwdefaults__ and any(d is old for d in fn.__kwdefaults__.values()):
        fn.__kwdefaults__ = {k: new if d is old else d for k, d in fn.__kwdefaults__.items()}


def _transplant(live, mutated) -> None:
    """Give the live function the mutated one's code and defaults (identity kept)."""
    if hasattr(live, "cache_clear"):
        live.cache_clear()
    target, source = _raw(live), _raw(mutated)
    target.__code__ = source.__code__
    target.__defaults__ = source.__defaults__
    target.__kwdefaults__ = source.__kwdefaults__


# -- the test: jpd run ---------------------------------------------------------------------------


class Suite:
    """``jpd run`` over ``conformance/``, split so that a child can reuse what the parent loaded."""

    def __init__(self) -> None:
        from jpdtools.diskcache import CacheDirs
        from jpdtools.presets import load_presets
        from jpdtools.run.adapters import ReferenceAdapter
        from jpdtools.run.runner import Filters, parsing_loader, plan_paths

        self._load_presets, self._plan_paths, self._filters = load_presets, plan_paths, Filters
        self._no_cache = CacheDirs()  # no folder to read or write
        self.loader = parsing_loader()
        self.adapter = ReferenceAdapter()
        self.load()

    def load(self) -> None:
        # Parsed, not taken from the disk cache: its key holds the code of jpdref, so jpd run from
        # a mutated checkout never finds an entry and parses the presets file (Rules.from_mapping,
        # Rules.__post_init__ run while loading).
        self.presets = self._load_presets(dirs=self._no_cache)
        self.plan = self._plan_paths([ROOT / "conformance"], self.presets, self._filters(), self.loader)

    def first_failure(self, items: list[int] | None = None) -> str | None:
        """The name of the first failing item (or the load failure), None if the run is green.

        ``items``: the indices of the plan's items to run, in that order (default: all)."""
        from jpdtools.run.compare import Status
        from jpdtools.run.runner import execute_item

        if self.plan.failures:
            return f"load: {self.plan.failures[0]}"
        bad = (Status.FAIL, Status.ERROR)
        for result in self.plan.errors:
            if result.status in bad:
                return f"{result.case_id}[{result.ruleset}]"
        plan_items = self.plan.items
        for n in range(len(plan_items)) if items is None else items:
            result = execute_item(plan_items[n], self.adapter, self.presets, self.loader)
            if result.status in bad:
                return f"{result.case_id}[{result.ruleset}]"
        return None

    def run_items(self, lines: set[tuple[str, int]], record) -> None:
        """Run every item once, unmutated, calling ``record(n)`` after item ``n`` with the lines it
        executed in ``lines`` (the caller's tracer fills it). Memoised values are cleared before
        each item, so that a line a cached function runs is counted for every item that uses it."""
        from jpdtools.run.compare import Status
        from jpdtools.run.runner import execute_item

        if self.plan.failures or any(r.status in (Status.FAIL, Status.ERROR) for r in self.plan.errors):
            raise SystemExit("the unmutated suite does not pass: fix that first")
        for n, item in enumerate(self.plan.items):
            _clear_caches()
            lines.clear()
            result = execute_item(item, self.adapter, self.presets, self.loader)
            if result.status in (Status.FAIL, Status.ERROR):
                raise SystemExit(f"the unmutated suite does not pass ({result.case_id}): fix that first")
            record(n)


def _clear_caches() -> None:
    """Forget every memoised value of jpdref and jpdtools (it is computed again when next used)."""
    for module in _project_modules():
        for value in list(vars(module).values()):
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


@dataclass
class Coverage:
    """Lines of ``refimpl/jpdref`` the unmutated suite executes: while loading, and per item."""

    loading: set[tuple[str, int]]
    items_of: dict[tuple[str, int], list[int]]  # line -> the indices of the items that execute it

    @property
    def running(self) -> set[tuple[str, int]]:
        return set(self.items_of)

    def items(self, m: Mutant) -> list[int]:
        """The items that execute one of ``m``'s lines, in plan order."""
        found: set[int] = set()
        for line in _span(m):
            found.update(self.items_of.get(line, ()))
        return sorted(found)


def coverage(suite: Suite, run: bool = True) -> Coverage:
    """Lines of ``refimpl/jpdref`` executed while loading the suite and (``run``) by each item."""
    prefix = str(PACKAGE)
    lines: set[tuple[str, int]] = set()

    def local(frame, event, arg):
        if event == "line":
            lines.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def tracer(frame, event, arg):
        if frame.f_code.co_filename.startswith(prefix):
            lines.add((frame.f_code.co_filename, frame.f_lineno))
            return local
        return None

    items_of: dict[tuple[str, int], list[int]] = defaultdict(list)

    def record(n: int) -> None:
        for line in lines:
            items_of[line].append(n)

    _clear_caches()  # computed-once values must be computed again, traced
    sys.settrace(tracer)
    try:
        suite.load()
        loading = set(lines)
        if run:
            suite.run_items(lines, record)
    finally:
        sys.settrace(None)
    return Coverage(loading, dict(items_of))


@dataclass
class Result:
    key: str
    status: str  # killed | survived | not-reached | error
    by: str = ""  # the first failing item, or why
    seconds: float = 0.0


def run_mutant(
    m: Mutant, suite: Suite, reload: bool, timeout: float, items: list[int] | None = None
) -> Result:
    """Run the suite (or only ``items``) against ``m`` in a forked child; the parent is never changed."""
    started = time.perf_counter()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        try:
            try:
                patch(m)
                _clear_caches()  # no value computed by the unmutated code is reused
                if reload:
                    suite.load()
                failed = suite.first_failure(None if reload else items)
                outcome = ("killed", failed) if failed else ("survived", "")
            except Exception as err:  # a crash of jpd run (at import or while running) kills
                outcome = ("killed", f"crash: {type(err).__name__}: {err}"[:200])
            os.write(write, json.dumps(outcome).encode())
        finally:
            os._exit(0)
    os.close(write)
    ready, _, _ = select.select([read], [], [], timeout)
    if not ready:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(read)
        return Result(m.key, "killed", f"timeout after {timeout:g} s", time.perf_counter() - started)
    data = b""
    while chunk := os.read(read, 65536):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    if not data:
        return Result(m.key, "error", "the child died", time.perf_counter() - started)
    status, by = json.loads(data)
    return Result(m.key, status, by, time.perf_counter() - started)


# -- equivalents, cache, report ----------------------------------------------------------------


def load_equivalents(path: Path = EQUIVALENT) -> dict[str, str]:
    """``key<TAB>reason`` lines (``#`` comments and blank lines ignored)."""
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        key, tab, reason = line.partition("\t")
        if not tab or not reason.strip():
            raise SystemExit(f"{path}:{n}: expected 'mutant key<TAB>reason'")
        out[key] = reason.strip()
    return out


def load_cache() -> dict[str, dict]:
    try:
        return json.loads(CACHE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def save_cache(cache: dict[str, dict]) -> None:
    CACHE.write_text(json.dumps(cache, indent=0, ensure_ascii=False), encoding="utf-8")


def score_table(mutants: list[Mutant], results: dict[str, Result], equivalent: dict[str, str]) -> str:
    rows = []
    totals = Counter()
    by_file: dict[str, list[Mutant]] = defaultdict(list)
    for m in mutants:
        by_file[m.file].append(m)
    for file, ms in sorted(by_file.items()):
        c = Counter()
        for m in ms:
            r = results[m.key]
            c["sampled"] += 1
            if m.key in equivalent:
                c["equivalent"] += 1
            elif r.status == "killed":
                c["killed"] += 1
            else:
                c["survived"] += 1
        totals.update(c)
        rows.append((file.removeprefix("refimpl/jpdref/"), c))
    rows.append(("total", totals))
    out = ["| module | sampled | equivalent | killed / non-equivalent | score |", "|---|---|---|---|---|"]
    for name, c in rows:
        live = c["sampled"] - c["equivalent"]
        pct = f"{100 * c['killed'] / live:.1f} %" if live else "—"
        bold = "**" if name == "total" else ""
        out.append(
            f"| {bold}{name}{bold} | {c['sampled']} | {c['equivalent']} | {c['killed']} / {live} | {pct} |"
        )
    return "\n".join(out)


def _span(m: Mutant) -> set[tuple[str, int]]:
    path = str(ROOT / m.file)
    return {(path, line) for line in range(m.line, m.end_line + 1)}


def _needs_reload(m: Mutant, loading: set[tuple[str, int]]) -> bool:
    """Module-level values and defaults are computed at import; other lines only if loading ran them."""
    signature = any(name == "args" and index == -1 for name, index in m.node_path)
    return m.top_level or signature or bool(_span(m) & loading)


def _timeout(suite: Suite, given: float | None) -> float:
    """Per mutant: the given limit, else 10 × an unmutated load and run (so load on the machine
    scales it), at least 10 s."""
    if given:
        return given
    started = time.perf_counter()
    suite.load()
    if suite.first_failure() is not None:
        raise SystemExit("the unmutated suite does not pass: fix that first")
    return max(10.0, 10 * (time.perf_counter() - started))


def _run_listed(
    keys: list[str], population: list[Mutant], timeout: float | None, listing: Path
) -> list[tuple[Mutant, Result]]:
    """Run the mutants named by ``keys`` (the lines of ``listing``), each against every item (the
    suite reloaded where the mutated lines run while loading, as for a campaign), printing each
    result. A key that names no mutant any more (the code changed) is reported and skipped."""
    by_key = {m.key: m for m in population}
    for key in keys:
        if key not in by_key:
            where = listing.relative_to(ROOT)
            print(f"stale entry (the code changed; update {where}): {key}", file=sys.stderr)
    present = [by_key[k] for k in keys if k in by_key]
    if not present:
        return []
    suite = Suite()
    limit = _timeout(suite, timeout)
    loading = coverage(suite, run=False).loading
    out = []
    for m in present:
        r = run_mutant(m, suite, _needs_reload(m, loading), limit)
        print(f"{r.status:9} {r.seconds:5.1f} s  {m.file}:{m.line}: {m.key}  {r.by}")
        out.append((m, r))
    return out


def smoke(
    keys: list[str], population: list[Mutant], equivalent: dict[str, str], timeout: float | None
) -> int:
    """CI: the fixed mutants of ``smoke.txt`` must all be killed, and each must still exist: a key
    that names no mutant any more (the code changed) fails, so that the list is kept current."""
    results = _run_listed(keys, population, timeout, SMOKE)
    if len(results) < len(keys):
        print(f"smoke: {len(keys) - len(results)} listed mutant(s) no longer exist", file=sys.stderr)
        return 1
    survivors = sum(1 for m, r in results if r.status != "killed" and m.key not in equivalent)
    print(f"smoke: {len(results) - survivors} of {len(results)} mutants killed")
    return 1 if survivors else 0


SURVIVORS_HEADER = (
    "# Mutants of refimpl/jpdref that jpd run did not kill: status<TAB>mutant key, written by\n"
    "# benchmarks/mutate.py --write-survivors (a campaign, or --recheck of this list).\n"
)


def survivor_keys(text: str) -> list[str]:
    """The mutant keys of a survivors listing: ``status<TAB>key`` lines (``#`` comments and blank
    lines ignored)."""
    return [
        line.partition("\t")[2] for line in text.splitlines() if line.strip() and not line.startswith("#")
    ]


def recheck(population: list[Mutant], equivalent: dict[str, str], timeout: float | None, write: bool) -> int:
    """Run the survivors of ``survivors.txt`` again, each against every item; those now listed in
    ``equivalent.txt`` are not run. With ``write``, the file keeps only those that still survive."""
    keys = survivor_keys(SURVIVORS.read_text(encoding="utf-8"))
    listed = [k for k in keys if k in equivalent]
    for key in listed:
        print(f"{'listed':9}          {key}  equivalent.txt: {equivalent[key]}")
    results = _run_listed([k for k in keys if k not in equivalent], population, timeout, SURVIVORS)
    left = [(m, r) for m, r in results if r.status != "killed"]
    stale = len(keys) - len(listed) - len(results)
    print(
        f"recheck: {len(keys)} survivors listed; {len(results) - len(left)} killed now, "
        f"{len(listed)} listed equivalent, {stale} stale, {len(left)} still surviving"
    )
    if write:
        text = "".join(f"{r.status}\t{m.key}\n" for m, r in left)
        SURVIVORS.write_text(SURVIVORS_HEADER + text, encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sample", type=int, default=600, metavar="N", help="mutants to sample (default 600)"
    )
    parser.add_argument("--seed", type=int, default=14, help="sampling seed (default 14)")
    parser.add_argument("--all", action="store_true", help="every mutant, no sampling")
    parser.add_argument(
        "--module",
        action="append",
        default=[],
        metavar="GLOB",
        help="only modules whose path matches (e.g. '*game.py'; repeatable)",
    )
    parser.add_argument(
        "--rerun",
        choices=("none", "survivors", "all"),
        default="survivors",
        help="which cached results to run again (default: survivors)",
    )
    parser.add_argument("--timeout", type=float, help="seconds per mutant (default: 10 x an unmutated run)")
    parser.add_argument(
        "--smoke", action="store_true", help=f"CI: run the mutants of {SMOKE.name}; exit 1 on a survivor"
    )
    parser.add_argument(
        "--recheck",
        action="store_true",
        help=f"run the mutants of {SURVIVORS.name} again against every item "
        "(with --write-survivors: keep those that still survive)",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="run every item against every mutant (default: only the items that execute its lines)",
    )
    parser.add_argument(
        "--check-equivalents",
        action="store_true",
        help=f"run the mutants listed in {EQUIVALENT.name} too (default: scored equivalent, not run)",
    )
    parser.add_argument("--list", action="store_true", help="list the sampled mutants and exit")
    parser.add_argument("--write-survivors", action="store_true", help=f"write {SURVIVORS.relative_to(ROOT)}")
    args = parser.parse_args(argv)

    files = [
        f for f in module_files() if not args.module or any(fnmatch.fnmatch(f[0], g) for g in args.module)
    ]
    population = enumerate_mutants(files)
    equivalent = load_equivalents()
    if args.smoke:
        keys = [
            k for k in SMOKE.read_text(encoding="utf-8").splitlines() if k.strip() and not k.startswith("#")
        ]
        return smoke(keys, population, equivalent, args.timeout)
    if args.recheck:
        return recheck(population, equivalent, args.timeout, args.write_survivors)
    chosen = population if args.all else sample(population, args.sample, args.seed)
    if args.list:
        for m in chosen:
            print(f"{m.file}:{m.line}: {m.key}")
        print(f"{len(chosen)} of {len(population)} mutants", file=sys.stderr)
        return 0
    started = time.perf_counter()
    suite = Suite()
    limit = _timeout(suite, args.timeout)
    cache = load_cache()
    results: dict[str, Result] = {}
    todo = []
    for m in chosen:
        cached = cache.get(m.key)
        if m.key in equivalent and not args.check_equivalents:
            results[m.key] = Result(m.key, "equivalent", "listed in equivalent.txt; not run")
        elif cached and (args.rerun == "none" or (args.rerun, cached["status"]) == ("survivors", "killed")):
            results[m.key] = Result(**cached)
        else:
            todo.append(m)
    listed = sum(1 for m in chosen if m.key in equivalent)
    print(
        f"{len(chosen)} mutants sampled of {len(population)}; {len(todo)} to run"
        + ("" if args.check_equivalents else f" ({listed} listed equivalent, not run)"),
        file=sys.stderr,
    )
    cov = coverage(suite) if todo else Coverage(set(), {})
    reached = cov.loading | cov.running
    for n, m in enumerate(todo, 1):
        signature = any(name == "args" and index == -1 for name, index in m.node_path)
        if not m.top_level and not signature and not _span(m) & reached:
            result = Result(m.key, "not-reached", "no item executes these lines")
        else:
            reload = _needs_reload(m, cov.loading)
            items = None if reload or args.full else cov.items(m)
            result = run_mutant(m, suite, reload, limit, items)
        results[m.key] = result
        cache[m.key] = asdict(result)
        if n % 20 == 0:
            save_cache(cache)
        mark = {"killed": ".", "survived": "S", "not-reached": "N"}.get(result.status, "E")
        print(mark, end="" if n % 80 else "\n", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    save_cache(cache)
    survivors = [m for m in chosen if results[m.key].status != "killed" and m.key not in equivalent]
    for m in survivors:
        r = results[m.key]
        print(f"{m.file}:{m.line}: [{r.status}] {m.key.split('::', 1)[1]}")
    print(score_table(chosen, results, equivalent))
    stale = sorted(set(equivalent) - {m.key for m in population})
    if stale and not args.module:
        print(
            f"\n{len(stale)} equivalent entries name no mutant any more (the code changed):", file=sys.stderr
        )
        for key in stale:
            print(f"  {key}", file=sys.stderr)
    if args.write_survivors:
        text = "".join(f"{results[m.key].status}\t{m.key}\n" for m in survivors)
        SURVIVORS.write_text(SURVIVORS_HEADER + text, encoding="utf-8")
    print(f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
