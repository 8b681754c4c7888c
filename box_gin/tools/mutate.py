"""Mutation testing of the katas' fixed cases: let a tool write the wrong answers.

    python -m box_gin.tools.mutate [--jobs 2] [--kata best_melds] [--sample N]

For each kata judged on cases, the *units* are its reference solution (the solution
notebook's code, ``solutions/0N_*.ipynb``: the kata's function and the helpers it
calls) and the right answers written differently in ``tests/alternatives/`` (each file
lists the katas it answers in ``PASSES``).  A small AST mutator writes the mutants of
every function a unit's kata function reaches: comparisons flipped or off by one
(``<`` and ``<=``), arithmetic swapped, constants +-1, ``and``/``or``, ``not`` dropped, a
condition negated, a statement removed, ``break``/``continue`` swapped or made an early
``return``, slice bounds dropped, ``min``/``max`` and ``any``/``all`` swapped.

Each mutant is graded by the deterministic part of every grading run, the public and
fixed hidden cases, the way ``check`` calls a function (``feedback.call_once``: the
grader's wire encoding, its CPU timer per call), stopping at the first failing case.
Each runs in a forked child with a deadline on the clock (a mutant may loop forever or
eat memory), ``--jobs`` at a time.  A mutant that no fixed case fails either is listed
as equivalent in ``tests/mutants.json`` (with the reason) or is a hole in the cases.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import multiprocessing
import resource
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from ..katas.core import Args, Kata, problem
from ..katas.feedback import call_once, engine_answers_hidden, sent
from ..katas.specs import CASE_KATAS, NOTEBOOKS

ROOT = Path(__file__).resolve().parents[2]
#: Where the alternatives and the list of equivalent mutants live.
ALTERNATIVES = Path("tests") / "alternatives"
EQUIVALENTS = Path("tests") / "mutants.json"
#: Seconds on the clock one mutant may take in all (its calls have their CPU timer).
DEADLINE = 30.0
#: The address space a mutant's child may add to what it inherits.
MEMORY = 1 << 30


@dataclass(frozen=True)
class Unit:
    """One right answer to a kata, as source: ``name`` is ``reference`` or the
    alternative's file name."""

    kata: str
    name: str
    source: str


@dataclass(frozen=True)
class Mutant:
    """One mutant of a unit: ``key`` names it stably (kata, unit, function, the line
    before and after), ``source`` is the whole mutated unit."""

    unit: Unit
    key: str
    source: str


# -- the units -----------------------------------------------------------------------

_KEEP = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign)


def _definitions(source: str) -> str:
    """Only a cell's imports, definitions and assignments (no examples that run)."""
    tree = ast.parse(source)
    tree.body = [s for s in tree.body if isinstance(s, _KEEP)]
    return ast.unparse(tree)


def reference_units(root: Path = ROOT) -> list[Unit]:
    """The solution notebooks' answers, one unit per kata (the notebook's code)."""
    out = []
    for number, stem in sorted(NOTEBOOKS.items()):
        cells = json.loads((root / "solutions" / f"{stem}.ipynb").read_text())["cells"]
        parts = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        source = "\n".join(_definitions(p) for p in parts
                           if "HIDDEN TESTS" not in p and not p.startswith("check("))
        out += [Unit(k.name, "reference", source) for k in CASE_KATAS if k.notebook == number]
    return out


def passes(source: str) -> list[str]:
    """The ``PASSES`` list of an alternative's source."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "PASSES":
            return [str(v) for v in ast.literal_eval(node.value)]
    return []


def alternative_units(root: Path = ROOT) -> list[Unit]:
    """The right answers written differently, one unit per kata each file answers."""
    out = []
    for path in sorted((root / ALTERNATIVES).glob("*.py")):
        if path.name == "conftest.py":
            continue
        source = path.read_text()
        out += [Unit(kata, path.stem, source) for kata in passes(source)]
    return out


def units(root: Path = ROOT) -> list[Unit]:
    """Every unit, the reference first, in the katas' order."""
    order = {k.name: i for i, k in enumerate(CASE_KATAS)}
    return sorted(reference_units(root) + alternative_units(root),
                  key=lambda u: (order[u.kata], u.name != "reference", u.name))


# -- the mutants ---------------------------------------------------------------------


def reached(tree: ast.Module, name: str) -> set[str]:
    """The module's functions that function ``name`` reaches (itself included)."""
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    seen: set[str] = set()
    todo = [name]
    while todo:
        fn = todo.pop()
        if fn in seen or fn not in defs:
            continue
        seen.add(fn)
        todo += [n.id for n in ast.walk(defs[fn]) if isinstance(n, ast.Name)]
    return seen


_COMPARE: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Lt: (ast.LtE, ast.Gt), ast.LtE: (ast.Lt, ast.GtE), ast.Gt: (ast.GtE, ast.Lt),
    ast.GtE: (ast.Gt, ast.LtE), ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,),
    ast.In: (ast.NotIn,), ast.NotIn: (ast.In,), ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,),
}
_ARITH: dict[type[ast.operator], tuple[type[ast.operator], ...]] = {
    ast.Add: (ast.Sub,), ast.Sub: (ast.Add,), ast.Mult: (ast.FloorDiv,),
    ast.FloorDiv: (ast.Mult,), ast.Div: (ast.Mult,), ast.Mod: (ast.FloorDiv,),
}
_SWAP_CALL = {"min": "max", "max": "min", "any": "all", "all": "any"}


class _Mutator(ast.NodeTransformer):
    """Counts the mutation points inside the chosen functions; with ``target`` set,
    applies the one of that number."""

    def __init__(self, functions: set[str], target: int = -1) -> None:
        self.functions = functions
        self.target = target
        self.count = 0
        self.inside = 0

    def _hit(self) -> bool:
        hit = self.count == self.target
        self.count += 1
        return hit

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        mine = self.inside > 0 or node.name in self.functions
        self.inside += mine
        node.body = self._body(node.body) if mine else node.body
        self.generic_visit(node)
        self.inside -= mine
        return node

    def _body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out = []
        for i, stmt in enumerate(body):
            docstring = i == 0 and isinstance(stmt, ast.Expr) and isinstance(
                stmt.value, ast.Constant)
            if not docstring and not isinstance(stmt, ast.Pass) and self._hit():
                stmt = ast.Pass()
            out.append(stmt)
        return out

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if self.inside and not isinstance(node, ast.FunctionDef):
            for field in ("body", "orelse"):
                value = getattr(node, field, None)
                if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                    setattr(node, field, self._body(value))
        return super().generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        if self.inside:
            for i, op in enumerate(node.ops):
                for new in _COMPARE.get(type(op), ()):
                    if self._hit():
                        node.ops[i] = new()
        return self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        if self.inside:
            for new in _ARITH.get(type(node.op), ()):
                if self._hit():
                    node.op = new()
        return self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        if self.inside:
            for new in _ARITH.get(type(node.op), ()):
                if self._hit():
                    node.op = new()
        return self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        if self.inside and self._hit():
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        return self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        if self.inside and isinstance(node.op, ast.Not | ast.USub) and self._hit():
            operand: ast.AST = self.visit(node.operand)
            return operand
        return self.generic_visit(node)

    def visit_If(self, node: ast.If) -> ast.AST:
        if self.inside and self._hit():
            node.test = ast.UnaryOp(ast.Not(), node.test)
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if not self.inside:
            return node
        if isinstance(node.value, bool):
            if self._hit():
                return ast.Constant(not node.value)
        elif isinstance(node.value, int):
            for step in (1, -1):
                if self._hit():
                    return ast.Constant(node.value + step)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if self.inside and isinstance(node.func, ast.Name) and node.func.id in _SWAP_CALL \
                and self._hit():
            node.func = ast.Name(_SWAP_CALL[node.func.id], ast.Load())
        return self.generic_visit(node)

    def visit_Slice(self, node: ast.Slice) -> ast.AST:
        if self.inside:
            if node.lower is not None and self._hit():
                node.lower = None
            if node.upper is not None and self._hit():
                node.upper = None
        return self.generic_visit(node)

    def visit_Break(self, node: ast.Break) -> ast.AST:
        if self.inside:
            if self._hit():
                return ast.Continue()
            if self._hit():
                return ast.Return(None)
        return node

    def visit_Continue(self, node: ast.Continue) -> ast.AST:
        if self.inside:
            if self._hit():
                return ast.Break()
            if self._hit():
                return ast.Return(None)
        return node


def _change(before: str, after: str) -> str:
    """The first line that differs, before and after: ``x < y => x <= y``."""
    a, b = before.splitlines(), after.splitlines()
    for tag, i1, _i2, j1, _j2 in difflib.SequenceMatcher(a=a, b=b).get_opcodes():
        if tag != "equal":
            old = a[i1].strip() if i1 < len(a) else ""
            new = b[j1].strip() if j1 < len(b) else ""
            return f"{old} => {new}"
    return "="


def mutants(unit: Unit) -> list[Mutant]:
    """Every distinct mutant of the functions the unit's kata function reaches."""
    tree = ast.parse(unit.source)
    functions = reached(tree, unit.kata)
    counter = _Mutator(functions)
    counter.visit(ast.parse(unit.source))
    original = ast.unparse(tree)
    defs = {n.name: ast.unparse(n) for n in tree.body
            if isinstance(n, ast.FunctionDef) and n.name in functions}
    seen = {original}
    keys: dict[str, int] = {}
    out = []
    for target in range(counter.count):
        # A tree of its own for each mutant: parsed again (many times faster than a deep
        # copy), and only written out again, never compiled (so no locations needed).
        mutated = _Mutator(functions, target).visit(ast.parse(unit.source))
        after = {n.name: ast.unparse(n) for n in mutated.body
                 if isinstance(n, ast.FunctionDef) and n.name in functions}
        fn = next((f for f in sorted(functions) if defs[f] != after.get(f)), None)
        if fn is None:
            continue
        # Only the mutated function is written again: the rest is the unit's own text.
        source = original.replace(defs[fn], after[fn], 1)
        if source in seen:
            continue
        seen.add(source)
        key = f"{unit.kata} {unit.name} {fn}: {_change(defs[fn], after[fn])}"
        keys[key] = keys.get(key, 0) + 1
        if keys[key] > 1:
            key += f" #{keys[key]}"
        out.append(Mutant(unit, key, source))
    return out


# -- grading -------------------------------------------------------------------------

_FIXED: dict[str, tuple[list[Args], list[Any], list[Any]]] = {}


def fixed(kata: Kata) -> tuple[list[Args], list[Any], list[Any]]:
    """The deterministic cases (public, then fixed hidden), their expected answers, and
    the cases as the grader sends them."""
    if kata.name not in _FIXED:
        cases = [*kata.public, *kata.hidden_cases()]
        expected = [*map(kata.expected, kata.public), *kata.hidden_expected()]
        _FIXED[kata.name] = (cases, expected, sent(cases))
    return _FIXED[kata.name]


def first_failure(kata: Kata, source: str) -> str | None:
    """Why the first deterministic case the unit's source fails fails, or None when it
    passes them all (in this process: call it in a child for a mutant)."""
    cases, expected, batch = fixed(kata)
    ns: dict[str, Any] = {"__name__": "__mutant__"}
    try:
        exec(compile(source, "<mutant>", "exec"), ns)
    except Exception as exc:
        return f"the module fails: {type(exc).__name__}"
    fn = ns.get(kata.name)
    if not callable(fn):
        return "no function"
    with engine_answers_hidden(kata.hide):
        for i, data in enumerate(batch):
            why = problem(kata, cases[i], expected[i],
                          call_once(fn, data, kata.call_timeout, kata.params))
            if why is not None:
                return f"case {i}: {why}"
    return None


def _child(kata: Kata, source: str, conn: Connection) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    used = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (used + MEMORY, hard))
    conn.send(first_failure(kata, source))
    conn.close()


@dataclass(frozen=True)
class Verdict:
    """A mutant's fate: ``killed`` (``why``: the first case it failed, or the deadline)."""

    mutant: Mutant
    killed: bool
    why: str | None


def grade(kata: Kata, batch: Sequence[Mutant], jobs: int = 2,
          deadline: float = DEADLINE) -> list[Verdict]:
    """Every mutant of ``batch`` graded in a forked child, ``jobs`` at a time."""
    fixed(kata)  # computed once, before the children are forked
    ctx = multiprocessing.get_context("fork")
    todo = list(enumerate(batch))
    running: dict[int, tuple[Any, Connection, float]] = {}
    out: dict[int, Verdict] = {}
    while todo or running:
        while todo and len(running) < jobs:
            i, m = todo.pop(0)
            reader, writer = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(kata, m.source, writer), daemon=True)
            proc.start()
            writer.close()
            running[i] = (proc, reader, time.monotonic() + deadline)
        for i, (proc, reader, end) in list(running.items()):
            why: str | None = "deadline"
            if reader.poll(0.01):
                try:
                    why = reader.recv()
                except EOFError:
                    why = "the child died"
            elif proc.is_alive() and time.monotonic() < end:
                continue
            elif not proc.is_alive() and not reader.poll(0):
                why = "the child died"
            proc.kill()
            proc.join()
            reader.close()
            del running[i]
            out[i] = Verdict(batch[i], why is not None, why)
    return [out[i] for i in range(len(batch))]


def equivalents(root: Path = ROOT) -> dict[str, str]:
    """The mutants known to be equivalent, by key, with the reason."""
    path = root / EQUIVALENTS
    if not path.exists():
        return {}
    return {e["mutant"]: e["why"] for e in json.loads(path.read_text())["equivalent"]}


@dataclass
class Row:
    """One kata's line of the table."""

    kata: str
    mutants: int = 0
    killed: int = 0
    survived: int = 0
    equivalent: int = 0
    seconds: float = 0.0


def run(katas: Sequence[str] | None = None, *, jobs: int = 2, sample: int = 0,
        root: Path = ROOT, deadline: float = DEADLINE
        ) -> tuple[list[Row], list[Verdict]]:
    """The mutation run: a row per kata, and the survivors not known equivalent.
    ``sample``: only the first ``sample`` mutants of each unit (0: all of them)."""
    known = equivalents(root)
    by_kata: dict[str, list[Mutant]] = {}
    for unit in units(root):
        if katas and unit.kata not in katas:
            continue
        found = mutants(unit)
        by_kata.setdefault(unit.kata, []).extend(found[:sample] if sample else found)
    rows, survivors = [], []
    by_name = {k.name: k for k in CASE_KATAS}
    for name, batch in by_kata.items():
        start = time.monotonic()
        verdicts = grade(by_name[name], batch, jobs, deadline)
        row = Row(name, len(batch), seconds=time.monotonic() - start)
        for v in verdicts:
            if v.killed:
                row.killed += 1
            elif v.mutant.key in known:
                row.equivalent += 1
            else:
                row.survived += 1
                survivors.append(v)
        rows.append(row)
    return rows, survivors


def table(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table, with a total and each kata's score (killed among
    the mutants that are not equivalent)."""
    lines = ["| kata | mutants | killed | survived | equivalent | score | seconds |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    total = Row("all")
    for r in [*rows, total]:
        if r is not total:
            total.mutants += r.mutants
            total.killed += r.killed
            total.survived += r.survived
            total.equivalent += r.equivalent
            total.seconds += r.seconds
        live = r.mutants - r.equivalent
        score = f"{100 * r.killed / live:.0f}%" if live else "-"
        lines.append(f"| {r.kata} | {r.mutants} | {r.killed} | {r.survived} | "
                     f"{r.equivalent} | {score} | {r.seconds:.0f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the mutation run, print the table and the survivors; exit 1 if any."""
    parser = argparse.ArgumentParser(prog="python -m box_gin.tools.mutate",
                                     description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--kata", action="append", help="only this kata (repeatable)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sample", type=int, default=0,
                        help="only the first N mutants of each unit")
    parser.add_argument("--deadline", type=float, default=DEADLINE)
    parser.add_argument("--find", action="store_true",
                        help="search a small counterexample for each survivor")
    args = parser.parse_args(argv)
    rows, survivors = run(args.kata, jobs=args.jobs, sample=args.sample,
                          deadline=args.deadline)
    print(table(rows))
    for v in survivors:
        print(f"survived: {v.mutant.key}")
        if args.find:
            print(f"    killed by: {counterexample(v.mutant)!r}")
    return 1 if survivors else 0


def counterexample(mutant: Mutant, tries: int = 4000) -> Args | None:
    """The smallest input found on which a surviving mutant fails: generated inputs
    searched, the first failure shrunk as ``check`` shrinks (None: none found)."""
    from ..katas.core import Failure, judge_cases, shrink_failure
    from ..katas.feedback import local_oracle

    kata = next(k for k in CASE_KATAS if k.name == mutant.unit.kata)
    ns: dict[str, Any] = {"__name__": "__mutant__"}
    exec(compile(mutant.source, "<mutant>", "exec"), ns)
    oracle = local_oracle(ns[kata.name], kata)
    cases = sorted(kata.random_cases(tries, seed=37), key=kata.size)
    found: list[Failure] = []
    for start in range(0, len(cases), 200):
        found = judge_cases(kata, cases[start:start + 200], oracle(cases[start:start + 200]))
        if found:
            break
    if not found:
        return None
    return shrink_failure(kata, found[0], oracle).args


def show(key: str, root: Path = ROOT) -> Iterator[str]:
    """The source of the mutant named ``key`` (for a test or a look)."""
    kata = key.split(" ", 1)[0]
    for unit in units(root):
        if unit.kata == kata:
            yield from (m.source for m in mutants(unit) if m.key == key)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
