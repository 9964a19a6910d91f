"""What the grader takes from a submission's code: the definitions it runs, and the answers it uses.

Both sides read a submission the same way, from its code cells: the grader
(to plan the run and scan the source) and the runner in the sandbox (to
execute it). A submission is never run as a notebook: only these top-level
statements of its code cells are executed (`definitions`):

- every statement of the cell tagged `parameters`;
- imports, function and class definitions;
- assignments of a literal value (`BUDGET = 10_000`, `NAMES = ("a", "b")`).

Everything else (the lesson's experiments, prints, plots, check calls) is
left out. Each kept statement is one `Chunk`, run on its own, so that one
that fails or hangs costs itself only. For an exercise whose answer is a
value, the cells the registry names (`Exercise.cells`, by cell id; for a
notebook without cell ids, the cells assigning one of its names) are run
whole (`value_cells`).

`answers_used` reads the source of an exercise's code (the functions it
names, the helpers they call, the imports they rely on) and lists the
package names it uses that are answers of the exercise: a reading of the
source, so a determined student can hide a use (`getattr` on a computed
name): best effort.
"""

from __future__ import annotations
import __future__

import ast
import importlib
import inspect
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from ..exercises import Exercise

PARAMETERS_TAG = "parameters"
CHECK_TAG = "check"
# Exercise code never needs the teaching tools: any use of them counts as using an answer.
TEACHING_PACKAGES = (
    "sudoku_course.teaching.exercises",
    "sudoku_course.teaching.checks",
    "sudoku_course.teaching.grading",
)
# Annotations stay unevaluated strings: they run no code at definition time.
COMPILE_FLAGS = __future__.annotations.compiler_flag


@dataclass(frozen=True)
class CodeCell:
    """One code cell of a submission: its position among all cells, id (None before nbformat 4.5), tags, source."""

    index: int
    id: str | None
    tags: tuple[str, ...]
    source: str

    def as_dict(self) -> dict:
        """The cell as JSON data (the scratch copy the sandbox reads)."""
        return {"index": self.index, "id": self.id, "tags": list(self.tags), "source": self.source}

    @classmethod
    def from_dict(cls, data: dict) -> CodeCell:
        """A cell from `as_dict` data."""
        tags = tuple(str(tag) for tag in data.get("tags") or ())
        return cls(int(data["index"]), data.get("id"), tags, str(data["source"]))


@dataclass(frozen=True)
class Chunk:
    """One top-level statement to run: the cell it comes from, its line in the cell, the statement."""

    cell: CodeCell
    statement: ast.stmt

    @property
    def where(self) -> str:
        """In French: « cellule 4, ligne 2 » (cells counted from 1, as JupyterLab shows them)."""
        return f"cellule {self.cell.index + 1}, ligne {self.statement.lineno}"

    def code(self):
        """The statement compiled as a module of its own (file name: the cell)."""
        module = ast.Module(body=[self.statement], type_ignores=[])
        return compile(module, f"<cellule {self.cell.index + 1}>", "exec", flags=COMPILE_FLAGS, dont_inherit=True)


def code_cells(notebook: dict) -> list[CodeCell]:
    """The code cells of a notebook (a dict in nbformat 4 layout), in order."""
    cells = []
    for index, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        tags = (cell.get("metadata") or {}).get("tags") or ()
        cells.append(CodeCell(index, cell.get("id"), tuple(str(tag) for tag in tags), source))
    return cells


def parse(source: str) -> ast.Module | None:
    """The cell's syntax tree; IPython syntax (magics, `!commands`) turned into Python first; None if unreadable."""
    for attempt in (source, None):
        try:
            return ast.parse(attempt if attempt is not None else _without_ipython_syntax(source))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return None


def _without_ipython_syntax(source: str) -> str:
    from IPython.core.inputtransformer2 import TransformerManager  # only for cells that are not plain Python

    return TransformerManager().transform_cell(source)


def _is_literal(node: ast.expr | None) -> bool:
    if node is None:
        return True
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return False
    return True


def _names(target: ast.expr) -> bool:
    if isinstance(target, ast.Name):
        return True
    return isinstance(target, (ast.Tuple, ast.List)) and all(_names(item) for item in target.elts)


def is_definition(statement: ast.stmt) -> bool:
    """True for an import, a function or class definition, or the assignment of a literal to names."""
    if isinstance(statement, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return True
    if isinstance(statement, ast.Assign):
        return all(map(_names, statement.targets)) and _is_literal(statement.value)
    if isinstance(statement, ast.AnnAssign):
        return isinstance(statement.target, ast.Name) and _is_literal(statement.value)
    return False


def definitions(cells: Sequence[CodeCell]) -> list[Chunk]:
    """The statements the grader runs, in notebook order (check cells left out: the grader judges)."""
    chunks = []
    for cell in cells:
        if CHECK_TAG in cell.tags:
            continue
        tree = parse(cell.source)
        if tree is None:
            continue
        everything = PARAMETERS_TAG in cell.tags
        chunks += [Chunk(cell, statement) for statement in tree.body if everything or is_definition(statement)]
    return chunks


def unreadable_cells(cells: Sequence[CodeCell]) -> list[CodeCell]:
    """The code cells that are not Python (even after IPython's syntax is translated)."""
    return [cell for cell in cells if parse(cell.source) is None]


def _assigned_names(tree: ast.Module) -> set[str]:
    names = set()
    for statement in tree.body:
        targets = statement.targets if isinstance(statement, ast.Assign) else [getattr(statement, "target", None)]
        for target in targets:
            if target is not None:
                names |= {node.id for node in ast.walk(target) if isinstance(node, ast.Name)}
    return names


def value_cells(cells: Sequence[CodeCell], item: Exercise) -> list[CodeCell]:
    """The cells to run whole for a value exercise: by id, or (no id matches) the cells assigning its names."""
    if not item.cells:
        return []
    by_id = [cell for cell in cells if cell.id in item.cells]
    if by_id:
        return by_id
    wanted = set(item.functions)
    return [cell for cell in cells if (tree := parse(cell.source)) is not None and _assigned_names(tree) & wanted]


# ------------------------------------------------------------ answers used
@dataclass(frozen=True)
class Answers:
    """What counts as using the answer of one exercise: dotted names, method names (`grid.is_solved()`),
    and the answers' own names as strings (`getattr(module, "givens_conflicts")`)."""

    dotted: tuple[str, ...]
    methods: tuple[str, ...]
    words: tuple[str, ...]

    def matches(self, name: str) -> str | None:
        """The answer that the dotted `name` uses, or None."""
        for prefix in TEACHING_PACKAGES:
            if name.startswith(prefix):
                return prefix
        for answer in self.dotted:
            if name == answer or name.startswith(answer + "."):
                return answer
        return None


def _dotted_name(function) -> str:
    return f"{function.__module__}.{function.__qualname__}"


@cache
def _is_method(answer: str) -> bool:
    """True if `answer` names an attribute of a class (a method), found by importing its module."""
    parts = answer.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            owner = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for part in parts[cut:-1]:
                owner = getattr(owner, part)
        except AttributeError:
            return False
        return inspect.isclass(owner)
    return False


def answers_of(item: Exercise) -> Answers:
    """The names whose use gives no points for `item`: its answers, and its references in the registry."""
    dotted = tuple(dict.fromkeys([*item.answers, *map(_dotted_name, item.references)]))
    methods = tuple(name.rpartition(".")[2] for name in item.answers if _is_method(name))
    return Answers(dotted, methods, tuple(name.rpartition(".")[2] for name in item.answers))


class _Aliases:
    """Local names bound by imports -> the dotted names they stand for."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.star_modules: list[str] = []

    def add(self, statement: ast.Import | ast.ImportFrom) -> None:
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.asname:
                    self.names[alias.asname] = alias.name
                else:
                    top = alias.name.partition(".")[0]
                    self.names[top] = top
            return
        module = statement.module or ""
        for alias in statement.names:
            if alias.name == "*":
                self.star_modules.append(module)
            else:
                self.names[alias.asname or alias.name] = f"{module}.{alias.name}"

    def resolve(self, node: ast.expr) -> list[str]:
        """The dotted names `node` (a name or a chain of attributes) may stand for."""
        attributes = []
        while isinstance(node, ast.Attribute):
            attributes.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return []
        suffix = "".join(f".{attribute}" for attribute in reversed(attributes))
        if node.id in self.names:
            return [self.names[node.id] + suffix]
        return [f"{module}.{node.id}{suffix}" for module in self.star_modules]


def _top_level(cells: Sequence[CodeCell]) -> Iterator[ast.stmt]:
    for cell in cells:
        if CHECK_TAG not in cell.tags and (tree := parse(cell.source)) is not None:
            yield from tree.body


def _exercise_code(statements: Sequence[ast.stmt], item: Exercise, extra: Iterable[ast.stmt]) -> list[ast.AST]:
    """The definitions of the exercise's names and, transitively, of the top-level helpers they use."""
    defined = {}
    for statement in statements:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.setdefault(statement.name, []).append(statement)
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            for alias in statement.names:
                bound = alias.asname or alias.name.partition(".")[0]
                defined.setdefault(bound, []).append(statement)
    code, seen, waiting = list(extra), set(), list(item.functions)
    for node in list(code):
        waiting += [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
    while waiting:
        name = waiting.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in defined.get(name, []):
            code.append(node)
            waiting += [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
    return code


def _as_path(package: str) -> str:
    """`sudoku_course.teaching.exercises` -> `teaching/exercises`."""
    return package.replace(".", "/").partition("/")[2]


def _uses(node: ast.AST, aliases: _Aliases, answers: Answers) -> Iterator[str]:
    for child in ast.walk(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            modules = [alias.name for alias in child.names] if isinstance(child, ast.Import) else [child.module or ""]
            if isinstance(child, ast.ImportFrom):
                modules += [f"{child.module}.{alias.name}" for alias in child.names]
            yield from filter(None, map(answers.matches, modules))
        elif isinstance(child, (ast.Name, ast.Attribute)):
            yield from filter(None, map(answers.matches, aliases.resolve(child)))
            if isinstance(child, ast.Attribute) and child.attr in answers.methods:
                yield next(name for name in answers.dotted if name.endswith("." + child.attr))
        elif isinstance(child, ast.Constant) and isinstance(child.value, str):
            text = child.value
            # a dotted name, or a path to the package's files (`teaching/exercises/lesson00.py`)
            yield from (name for name in TEACHING_PACKAGES if name in text or _as_path(name) in text)
            yield from (name for name in answers.dotted if name in text)
            if text in answers.words:
                yield next(name for name in answers.dotted if name.rpartition(".")[2] == text)


def answers_used(cells: Sequence[CodeCell], item: Exercise) -> list[str]:
    """The answers of `item` that the submission's code for it imports or calls (sorted, without repeats)."""
    statements = list(_top_level(cells))
    aliases = _Aliases()
    for statement in statements:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            aliases.add(statement)
    whole_cells = [tree for cell in value_cells(cells, item) if (tree := parse(cell.source)) is not None]
    for tree in whole_cells:
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                aliases.add(node)
    answers = answers_of(item)
    found = set()
    for node in _exercise_code(statements, item, whole_cells):
        local = _Aliases()
        local.names, local.star_modules = dict(aliases.names), list(aliases.star_modules)
        for inner in ast.walk(node):
            if isinstance(inner, (ast.Import, ast.ImportFrom)):
                local.add(inner)
        found.update(_uses(node, local, answers))
    return sorted(found)
