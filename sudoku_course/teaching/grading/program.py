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

What an exercise's code uses (answers, dynamic code) is read by `scan`.
"""

from __future__ import annotations
import __future__

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..exercises import Exercise

PARAMETERS_TAG = "parameters"
CHECK_TAG = "check"
# Annotations stay unevaluated strings: they run no code at definition time.
COMPILE_FLAGS = __future__.annotations.compiler_flag
IPYTHON_LINE = re.compile(r"^(?:[ \t]*[%!?,;/]|.*=[ \t]*[%!]|.*\?[ \t]*$).*$", re.MULTILINE)
"""A line that may hold IPython syntax: `%magic`, `!command`, autocall (`,;/` first), `x = !ls`, `name?`."""
MAX_TRANSLATION_WORK = 20_000
"""What translating a notebook's IPython syntax may cost in all (`_translation_work`): a second or two (IPython
takes about 0.05 ms per line read). An honest cell (`%matplotlib inline` above 100 lines) costs 200."""
LINE_LENGTH = 80


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
    """The syntax tree of a cell already in Python (`as_python`); None if it is not Python."""
    try:
        return ast.parse(source)
    except Exception:  # SyntaxError, ValueError (null bytes), RecursionError, MemoryError: not a readable cell
        return None


def _translation_work(source: str) -> int:
    """What IPython's translation of `source` costs: it reads the whole cell again (line by line) for each line
    it changes, so (lines that may hold IPython syntax + 1) x (lines + characters / 80)."""
    lines = source.count("\n") + 1
    return (len(IPYTHON_LINE.findall(source)) + 1) * (lines + len(source) // LINE_LENGTH)


def _translated(source: str) -> str | None:
    """`source` with IPython's syntax translated to Python, or None if that is not Python either."""
    from IPython.core.inputtransformer2 import TransformerManager  # only for cells that are not plain Python

    try:
        python = TransformerManager().transform_cell(source)
    except Exception:  # past 500 changes IPython raises RuntimeError; any failure leaves the cell unreadable
        return None
    return python if parse(python) is not None else None


def as_python(cells: Sequence[CodeCell]) -> tuple[list[CodeCell], list[str]]:
    """The cells in Python, IPython's syntax (magics, `!commands`) translated, and a French note for each cell
    that is not Python even so: its definitions are ignored.

    Bounded before it starts: the translation of a notebook may cost `MAX_TRANSLATION_WORK` in all
    (`_translation_work`); a cell past what is left is not translated, and said so.
    """
    python, notes, budget = [], [], MAX_TRANSLATION_WORK
    for cell in cells:
        if CHECK_TAG in cell.tags or parse(cell.source) is not None:  # a check cell is never run: left as it is
            python.append(cell)
            continue
        work = _translation_work(cell.source)
        if work > budget:
            translated, why = None, "n'est pas lue (trop de syntaxe IPython, % ou !, dans le notebook)"
        else:
            budget -= work
            translated, why = _translated(cell.source), "n'est pas du Python valide"
        if translated is None:
            notes.append(f"la cellule {cell.index + 1} {why} : ses définitions sont ignorées")
        python.append(replace(cell, source=cell.source if translated is None else translated))
    return python, notes


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
