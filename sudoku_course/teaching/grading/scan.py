"""The answers scan: what an exercise's code uses, read from the submission's source in the grader's process.

For each exercise, the code that counts is what the runner runs
(`program.definitions`) for its names: their definitions and, transitively,
those of the top-level names they use (helpers, imports, module-level
assignments such as `ENERGY = cost.givens_conflicts` in the parameters cell),
plus the value cells the registry names. The scan reports two things:

- **answers used**: every import of the submission is resolved here, to the
  object it names (only modules of `sudoku_course` and numpy are imported for
  that, and modules the grader has already imported: never student code), and
  every name or attribute chain of the exercise code is followed to its
  object. An object that *is* an answer of the exercise (`Exercise.answers`),
  whatever path reached it (a re-export, a private module, an alias), counts;
  so does any object of the teaching package, and a method named like an
  answer (`grid.is_solved()`). The registry's references need no watching:
  they are not in the sandbox's copy of the package (`view`).
- **dynamic code**: `exec`, `eval`, `compile`, `__import__`, `importlib`,
  `sys.modules`, `gc`, `inspect`, `ctypes`, frame walking (`sys._getframe`,
  `__globals__`, `f_back`, `tb_frame`...), `getattr`/`setattr` with a name
  that is not a literal. Honest answers never need them; they are the ways to reach
  what a reading of the source cannot follow. Code that runs when the
  definitions are loaded (the parameters cell, class bodies, decorators,
  default values) counts for every exercise of the notebook.

The scan is linear in the size of the code (each statement is read once) and
bounded (`MAX_NODES`, `MAX_SECONDS`): a submission over the bound is flagged
(`TOO_LARGE`), never waited on.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import time
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, partial

from ..exercises import Exercise
from ..isolation import VALUE, Outcome, run_call
from .program import PARAMETERS_TAG, CodeCell, as_python, definitions, parse, value_cells

# Exercise code never needs the teaching tools: any use of them counts as using an answer.
TEACHING_PACKAGES = (
    "sudoku_course.teaching.exercises",
    "sudoku_course.teaching.checks",
    "sudoku_course.teaching.grading",
)
IMPORTABLE_ROOTS = ("sudoku_course", "numpy")
"""Modules the scan may import to resolve a submission's imports (the course's own code and numpy)."""
DYNAMIC_NAMES = frozenset(
    {"exec", "eval", "compile", "__import__", "globals", "locals", "vars", "breakpoint", "__builtins__"}
)
DYNAMIC_MODULES = frozenset(
    {
        "importlib",
        "gc",
        "inspect",
        "ctypes",
        "_ctypes",
        "builtins",
        # modules that import, unpickle or run code named by a string
        "runpy",
        "pkgutil",
        "zipimport",
        "pickle",
        "_pickle",
        "marshal",
        "copyreg",
        "shelve",
        "dill",
        "cloudpickle",
        "code",
        "codeop",
        "pydoc",
        "timeit",
        "doctest",
        "cProfile",
        "profile",
        "pdb",
        "trace",
        "subprocess",
    }
)
DYNAMIC_ATTRIBUTES = frozenset(
    {
        "modules",
        "_getframe",
        "__globals__",
        "__builtins__",
        "__code__",
        "__closure__",
        "__dict__",
        "__subclasses__",
        "f_back",
        "f_globals",
        "f_locals",
        "tb_frame",
        "gi_frame",
        "cr_frame",
        "ag_frame",
        "attrgetter",
        "methodcaller",
        "__getattribute__",
    }
)
NAMED_ACCESS = frozenset({"getattr", "setattr", "delattr", "hasattr"})
COMPUTED_NAME = "getattr (nom calculé)"
TOO_LARGE = "code trop volumineux pour être analysé"
MAX_NODES = 200_000
MAX_SECONDS = 10.0


class ScanLimit(Exception):
    """The submission is too large to scan within the bounds."""


@dataclass(frozen=True)
class Findings:
    """What one exercise's code uses: answers (dotted names) and dynamic code (tokens), sorted."""

    answers: list[str] = field(default_factory=list)
    dynamic: list[str] = field(default_factory=list)


# ------------------------------------------------------------ resolving names to objects
def _module(name: str):
    """The module `name`: imported only if it belongs to the course or numpy, else only if already imported."""
    if name in sys.modules:
        return sys.modules[name]
    if name.partition(".")[0] not in IMPORTABLE_ROOTS or "__main__" in name.split("."):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return importlib.import_module(name)
    except Exception:  # a module that does not exist or fails to import resolves to nothing
        return None


def _attribute(owner, name: str):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(owner, name)
    except Exception:  # a missing or failing attribute resolves to nothing
        return None


def resolve_dotted(dotted: str):
    """The object a dotted name stands for (`numpy._core.function_base.linspace`), or None."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        owner = _module(".".join(parts[:cut]))
        if owner is None:
            continue
        for part in parts[cut:]:
            owner = _attribute(owner, part)
            if owner is None:
                return None
        return owner
    return None


def _home(value) -> str:
    """The module a resolved object comes from ('' if unknown)."""
    if inspect.ismodule(value):
        return value.__name__
    module = getattr(value, "__module__", None)
    return module if isinstance(module, str) else ""


@cache
def _is_method(answer: str) -> bool:
    """True if `answer` names an attribute of a class (a method)."""
    owner = resolve_dotted(answer.rpartition(".")[0])
    return inspect.isclass(owner)


@dataclass(frozen=True)
class Answers:
    """What counts as using the answer of one exercise: the answer objects (by identity), their dotted names,
    method names (`grid.is_solved()`), and the answers' own names as strings (`getattr(m, "is_solved")`)."""

    objects: dict[int, str]
    dotted: tuple[str, ...]
    methods: tuple[str, ...]
    words: tuple[str, ...]


def answers_of(item: Exercise) -> Answers:
    """The objects and names whose use gives no points for `item`: its answers (`Exercise.answers`)."""
    objects = {}
    for name in item.answers:
        value = resolve_dotted(name)
        if value is not None:
            objects[id(value)] = name
    methods = tuple(name.rpartition(".")[2] for name in item.answers if _is_method(name))
    words = tuple(name.rpartition(".")[2] for name in item.answers)
    return Answers(objects, tuple(dict.fromkeys(item.answers)), methods, words)


# ------------------------------------------------------------ reading each statement once
@dataclass
class _Uses:
    """What one statement (or value cell) uses."""

    names: set[str] = field(default_factory=set)
    objects: dict[int, object] = field(default_factory=dict)
    imported: set[str] = field(default_factory=set)
    attributes: set[str] = field(default_factory=set)
    strings: set[str] = field(default_factory=set)
    dynamic: set[str] = field(default_factory=set)


class _Imports:
    """Local names bound by the submission's imports -> the objects they stand for (resolved once)."""

    def __init__(self) -> None:
        self.bound: dict[str, object] = {}
        self.star: dict[int, object] = {}
        self.found: dict[str, object] = {}

    def add(self, statement: ast.Import | ast.ImportFrom) -> None:
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.asname:
                    self._bind(alias.asname, resolve_dotted(alias.name))
                else:
                    resolve_dotted(alias.name)  # imports the submodules, as Python does
                    top = alias.name.partition(".")[0]
                    self._bind(top, _module(top))
            return
        module = statement.module or ""
        owner = resolve_dotted(module) if module and not statement.level else None
        for alias in statement.names:
            if alias.name == "*":
                if owner is not None:
                    self.star[id(owner)] = owner
                continue
            value = _attribute(owner, alias.name) if owner is not None else None
            if value is None and owner is not None:
                value = resolve_dotted(f"{module}.{alias.name}")
            self._bind(alias.asname or alias.name, value)

    def _bind(self, name: str, value) -> None:
        if value is not None:
            self.bound[name] = value

    def resolve(self, node: ast.expr) -> list[object]:
        """The objects along a name or attribute chain (`np`, `np.linspace`), as far as they resolve."""
        attributes = []
        while isinstance(node, ast.Attribute):
            attributes.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return []
        value, found = self.bound.get(node.id), []
        if value is None and self.star:
            if node.id not in self.found:
                owners = self.star.values()
                self.found[node.id] = next(((o, v) for o in owners if (v := _attribute(o, node.id)) is not None), None)
            if self.found[node.id] is not None:
                owner, value = self.found[node.id]
                found.append(owner)  # the module the star import took it from is used too
        for attribute in [None, *reversed(attributes)]:
            if attribute is not None:
                value = _attribute(value, attribute)
            if value is None:
                break
            found.append(value)
        return found


def _literal_name(call: ast.Call) -> str | None:
    """For getattr(x, "name"): the name; None if the name is computed."""
    if len(call.args) >= 2 and isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str):
        return call.args[1].value
    return None


def _import_paths(statement: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(statement, ast.Import):
        return [alias.name for alias in statement.names]
    module = statement.module or ""
    return [module, *(f"{module}.{alias.name}" for alias in statement.names)]


class _Budget:
    def __init__(self) -> None:
        self.nodes = 0
        self.deadline = time.monotonic() + MAX_SECONDS

    def spend(self) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES or (self.nodes % 1000 == 0 and time.monotonic() > self.deadline):
            raise ScanLimit


def _read(node: ast.AST, imports: _Imports, budget: _Budget) -> _Uses:
    """What `node` uses: names, resolved objects, attributes, strings, dynamic code."""
    uses = _Uses()
    seen_chains: set[int] = set()
    literal_access: set[int] = set()  # getattr & co. called with a literal name (a call is walked before its parts)
    for child in ast.walk(node):
        budget.spend()
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            for path in _import_paths(child):
                uses.imported.add(path)
                if path.partition(".")[0] in DYNAMIC_MODULES or path in ("sys.modules", "sys._getframe"):
                    uses.dynamic.add(path.partition(".")[0] if path.partition(".")[0] in DYNAMIC_MODULES else path)
            if isinstance(child, ast.ImportFrom):
                uses.dynamic |= {a.name for a in child.names} & (DYNAMIC_ATTRIBUTES | DYNAMIC_NAMES)
        elif isinstance(child, ast.Name):
            uses.names.add(child.id)
            if child.id in DYNAMIC_NAMES:
                uses.dynamic.add(child.id)
            if child.id in NAMED_ACCESS and id(child) not in literal_access:  # `g = getattr`, `map(getattr, ...)`
                uses.dynamic.add(COMPUTED_NAME)
        elif isinstance(child, ast.Attribute):
            uses.attributes.add(child.attr)
            if child.attr in DYNAMIC_ATTRIBUTES or child.attr in DYNAMIC_NAMES:
                uses.dynamic.add(child.attr)
        elif isinstance(child, ast.Constant) and isinstance(child.value, str):
            uses.strings.add(child.value[:1000])
        elif isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id in NAMED_ACCESS:
            name = _literal_name(child)
            if name is None:
                uses.dynamic.add(COMPUTED_NAME)
            else:
                literal_access.add(id(child.func))
                uses.attributes.add(name)
                if name in DYNAMIC_ATTRIBUTES or name in DYNAMIC_NAMES:
                    uses.dynamic.add(name)
        if isinstance(child, (ast.Name, ast.Attribute)) and id(child) not in seen_chains:
            inner = child
            while isinstance(inner, ast.Attribute):  # the chain's inner nodes are resolved with it
                inner = inner.value
                seen_chains.add(id(inner))
            for value in imports.resolve(child):
                uses.objects[id(value)] = value
    for value in uses.objects.values():
        home = _home(value)
        if home.partition(".")[0] in DYNAMIC_MODULES:
            uses.dynamic.add(home.partition(".")[0])
        if value is sys.modules:
            uses.dynamic.add("sys.modules")
    return uses


DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _binds(node: ast.AST) -> list[str]:
    """The names one syntax node binds in the scope it is in (or, for `global` and `nonlocal`, declares)."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return [node.id]
    if isinstance(node, (*DEFINITIONS, ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        return [node.name] if node.name else []
    if isinstance(node, ast.MatchMapping):
        return [node.rest] if node.rest else []
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [alias.asname or alias.name.partition(".")[0] for alias in node.names]
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return list(node.names)
    return []


def _bound_names(statement: ast.stmt) -> list[str]:
    """The top-level names a top-level statement may bind.

    A definition binds its name, and the names that a `global` or `nonlocal` declaration anywhere inside it
    reaches (a decorator's function, a class body or a nested function that binds the exercise's name) or an
    assignment expression (`:=`) sets. Any other statement (an assignment, an import, or a block of the
    parameters cell: `if`, `with`, `try`, `for`) binds every name bound anywhere inside it.
    """
    if not isinstance(statement, DEFINITIONS):
        return [name for node in ast.walk(statement) for name in _binds(node)]
    inner = [node for node in ast.walk(statement) if isinstance(node, (ast.Global, ast.Nonlocal, ast.NamedExpr))]
    reached = [name for node in inner for name in _binds(node.target if isinstance(node, ast.NamedExpr) else node)]
    return [statement.name, *reached]


def _at_definition_time(statement: ast.stmt) -> list[ast.AST]:
    """The parts of a kept top-level definition that run when it is loaded."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return [*statement.decorator_list, *statement.args.defaults, *filter(None, statement.args.kw_defaults)]
    if isinstance(statement, ast.ClassDef):
        body = [s for s in statement.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
        methods = [s for s in statement.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
        loaded = [*statement.decorator_list, *statement.bases, *(k.value for k in statement.keywords), *body]
        return loaded + [part for method in methods for part in _at_definition_time(method)]
    return []


class Scan:
    """One submission read once: each statement's uses, then per exercise the closure of its code."""

    def __init__(self, cells: Sequence[CodeCell]) -> None:
        self.cells = list(cells)
        self.too_large = False
        self.statements: list[ast.stmt] = []
        self.uses: dict[int, _Uses] = {}
        self.defined: dict[str, list[int]] = {}
        self.starred: list[int] = []
        self.loading: _Uses = _Uses()
        self.imports = _Imports()
        self.budget = _Budget()
        try:
            self._read_all()
        except (ScanLimit, RecursionError, MemoryError):
            self.too_large = True

    def _read_all(self) -> None:
        chunks = definitions(self.cells)  # what the runner runs, and nothing else
        self.statements = [chunk.statement for chunk in chunks]
        parameters = [chunk.statement for chunk in chunks if PARAMETERS_TAG in chunk.cell.tags]
        for statement in self.statements:  # every import binds before any use is resolved
            for node in ast.walk(statement):
                self.budget.spend()
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    self.imports.add(node)
        for index, statement in enumerate(self.statements):
            self.uses[index] = _read(statement, self.imports, self.budget)
            for name in dict.fromkeys(_bound_names(statement)):
                self.defined.setdefault(name, []).append(index)
            if isinstance(statement, ast.ImportFrom) and any(alias.name == "*" for alias in statement.names):
                self.starred.append(index)  # may bind any name, the exercise's own included
        loading = [part for s in self.statements for part in _at_definition_time(s)] + parameters
        for part in loading:
            self._merge(self.loading, _read(part, self.imports, self.budget))
        self.loading = self._closure(self.loading, list(self.loading.names))  # a decorator's body runs too

    @staticmethod
    def _merge(into: _Uses, uses: _Uses) -> None:
        into.names |= uses.names
        into.objects.update(uses.objects)
        into.imported |= uses.imported
        into.attributes |= uses.attributes
        into.strings |= uses.strings
        into.dynamic |= uses.dynamic

    def _code_of(self, item: Exercise) -> _Uses:
        """The uses of the exercise's code: its names' definitions, transitively, and its value cells whole."""
        total = _Uses()
        waiting = [*item.functions, "*"]
        for cell in value_cells(self.cells, item):
            if (tree := parse(cell.source)) is not None:
                uses = _read(tree, self.imports, self.budget)
                self._merge(total, uses)
                waiting += uses.names
        return self._closure(total, waiting)

    def _closure(self, total: _Uses, waiting: list[str]) -> _Uses:
        """`total` with the uses of the statements binding the names of `waiting`, and of the names they use."""
        seen: set[str] = set()
        taken: set[int] = set()
        while waiting:
            name = waiting.pop()
            if name in seen:
                continue
            seen.add(name)
            for index in self.starred if name == "*" else self.defined.get(name, ()):
                if index not in taken:
                    taken.add(index)
                    self._merge(total, self.uses[index])
                    waiting += self.uses[index].names
        return total

    def findings(self, item: Exercise) -> Findings:
        """The answers of `item` and the dynamic code that the submission's code for it uses."""
        if self.too_large:
            return Findings([], [TOO_LARGE])
        try:
            uses = self._code_of(item)
        except (ScanLimit, RecursionError, MemoryError):
            return Findings([], [TOO_LARGE])
        return Findings(sorted(set(_answers_in(uses, answers_of(item)))), sorted(uses.dynamic | self.loading.dynamic))


def _as_path(package: str) -> str:
    """`sudoku_course.teaching.exercises` -> `teaching/exercises`."""
    return package.replace(".", "/").partition("/")[2]


def _teaching(name: str) -> str | None:
    return next((p for p in TEACHING_PACKAGES if name == p or name.startswith(p + ".")), None)


def _answers_in(uses: _Uses, answers: Answers) -> Iterable[str]:
    for value_id, value in uses.objects.items():
        if value_id in answers.objects:
            yield answers.objects[value_id]
        if package := _teaching(_home(value)):
            yield package
    for path in uses.imported:
        if package := _teaching(path):
            yield package
        yield from (name for name in answers.dotted if path == name or path.startswith(name + "."))
    for attribute in uses.attributes & set(answers.methods):
        yield next(name for name in answers.dotted if name.endswith("." + attribute))
    for text in uses.strings:
        # a dotted name, or a path to the package's files (`teaching/exercises/lesson00/cases.py`)
        yield from (name for name in TEACHING_PACKAGES if name in text or _as_path(name) in text)
        yield from (name for name in answers.dotted if name in text)
        if text in answers.words:
            yield next(name for name in answers.dotted if name.rpartition(".")[2] == text)


def answers_used(cells: Sequence[CodeCell], item: Exercise) -> list[str]:
    """The answers of `item` that the submission's code for it uses (sorted, without repeats)."""
    return Scan(cells).findings(item).answers


def dynamic_code(cells: Sequence[CodeCell], item: Exercise) -> list[str]:
    """The dynamic code (tokens such as `exec`, `sys.modules`) that the submission's code for `item` uses."""
    return Scan(cells).findings(item).dynamic


# ------------------------------------------------------------ the scan step: the text read in a child process
@dataclass(frozen=True)
class Reading:
    """What the grader takes from a notebook's text (`read_code`)."""

    cells: list[CodeCell]
    """The code cells in Python, IPython's syntax translated (`program.as_python`): what the runner runs."""
    places: list[str]
    """Where each definition is (`Chunk.where`), in the order the runner runs them."""
    notes: list[str]
    """French notes on the cells that are not Python (their definitions are ignored)."""
    findings: dict[str, Findings]
    """What each exercise's code uses (answers, dynamic code), by exercise name."""


def read_code(cells: Sequence[CodeCell], items: Sequence[Exercise]) -> Reading:
    """The notebook's cells in Python, its definitions, and the scan of each exercise of `items`."""
    python, notes = as_python(cells)
    scan = Scan(python)
    places = [chunk.where for chunk in definitions(python)]
    return Reading(python, places, notes, {item.name: scan.findings(item) for item in items})


def scan_notebook(cells: Sequence[CodeCell], items: Sequence[Exercise], seconds: float) -> Reading | Outcome:
    """Step 3: `read_code` in a child process stopped after `seconds` (the notebook's time limit), so that no
    text a student wrote holds the grader; the Reading, or the Outcome (timeout, error, crash) that stopped it."""
    outcome = run_call(partial(read_code, cells, items), seconds)
    return outcome.value if outcome.kind == VALUE else outcome
