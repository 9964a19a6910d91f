"""Exercise notebooks generated from the solution notebooks, and the drift check.

`python -m sudoku_course.teaching.authoring solutions exercises` (what
`make exercises` calls) writes `exercises/NN-name.ipynb` for every
`solutions/NN-name.ipynb`; `--check` writes nothing and exits 1 when the
committed exercises differ from what generation gives.

Conventions for lesson authors, in a solution notebook:

- `### BEGIN SOLUTION` and `### END SOLUTION`, each alone on its line, at the
  same indentation, inside a function body: the lines between them (and the
  markers) become `# À COMPLÉTER` and `raise NotImplementedError("À compléter")`
  at the markers' indentation. Code before or after the block stays.
- A top-level one-line assignment ending with `# SOLUTION`, such as
  `budget = 2 * n  # SOLUTION`, becomes `budget = ...`.
- A cell tagged `solution` (code or prose) is left out of the exercise.
- A cell tagged `exercice` is meant for the student (say, "essayez ici").
  It stays in the solution notebook and runs there too, so it must be
  harmless (comments, or a call that also works on the solution); the tag only
  marks it. Keeping it in the solution keeps the cell ids of both notebooks
  aligned, which nbdime relies on (and the grader, for the cells of value
  exercises that the registry names by id).
- A cell tagged `check` calls a check of `sudoku_course.teaching.checks` and
  holds its own import. The grader does not run these cells (it judges the
  cases itself); in the exercise they are marked read-only and undeletable
  for JupyterLab.

Markers must be exact: a line that looks like a marker but is not spelled
exactly, an END without BEGIN, nested or unclosed blocks, a BEGIN outside a
function body, a `# SOLUTION` line that is not a top-level assignment, or
markers in an `exercice` cell stop generation with an error naming the
notebook, the cell and the line. Generated exercises keep the solution's
cell ids and tags, lose outputs, execution counts and other metadata, and are
written as deterministic JSON: generating twice gives the same bytes.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import nbformat

from ..messages import print_error
from .notebooks import course_metadata, notebook_text, tags, write_notebook

BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
STUB_COMMENT = "# À COMPLÉTER"
STUB_RAISE = 'raise NotImplementedError("À compléter")'
SOLUTION_TAG = "solution"
EXERCISE_TAG = "exercice"
CHECK_TAG = "check"
LOOKS_LIKE_BLOCK_MARKER = re.compile(r"#.*\b(BEGIN|END)\s*SOLUTION\b", re.IGNORECASE)
ANSWER_MARKER = re.compile(r"#\s*SOLUTION\s*$")
ANSWER_STUB = re.compile(r"^\S.*=\s*\.\.\.\s*$")


class MarkerError(ValueError):
    """A solution marker that cannot be turned into an exercise, with where it is."""


# ------------------------------------------------------------ one code cell
def _indentation(line: str) -> int:
    return len(line) - len(line.lstrip())


def _marker_kind(line: str) -> str | None:
    """'begin', 'end', 'answer' or None; MarkerError for a line that only looks like a block marker."""
    stripped = line.strip()
    if stripped == BEGIN:
        return "begin"
    if stripped == END:
        return "end"
    if LOOKS_LIKE_BLOCK_MARKER.search(line):
        raise MarkerError(f"malformed marker {stripped!r}: write exactly {BEGIN!r} or {END!r} on its own line")
    return "answer" if ANSWER_MARKER.search(line) else None


def _function_spans(source: str) -> list[tuple[int, int, int]]:
    """(def line, last line, indentation of `def`) of every function of the cell, lines counted from 1."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        raise MarkerError(
            f"a cell with solution markers must be plain Python; line {error.lineno}: {error.msg}"
        ) from None
    return [
        (node.lineno, node.end_lineno, node.col_offset)
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]


def _check_in_function(spans: list[tuple[int, int, int]], number: int, indent: int) -> None:
    if not any(first < number <= last and indent > column for first, last, column in spans):
        raise MarkerError(f"{BEGIN!r} must be inside a function body, before the statements it hides")


def _blank_answer(line: str) -> str:
    """`name = expr  # SOLUTION` -> `name = ...`."""
    if _indentation(line):
        raise MarkerError("a '# SOLUTION' line must be a top-level assignment (not indented)")
    try:
        statements = ast.parse(line).body
    except SyntaxError:
        statements = []
    if len(statements) != 1 or not isinstance(statements[0], (ast.Assign, ast.AnnAssign)) or not statements[0].value:
        raise MarkerError("a '# SOLUTION' line must be a one-line assignment such as 'value = expr  # SOLUTION'")
    value_start = statements[0].value.col_offset  # counted in UTF-8 bytes
    return line.encode()[:value_start].decode().rstrip() + " ..."


def exercise_source(source: str) -> str:
    """The exercise version of a solution code cell (MarkerError on a bad marker, naming the line)."""
    lines = source.split("\n")
    spans: list[tuple[int, int, int]] | None = None
    output: list[str] = []
    block: tuple[int, int] | None = None  # (line number, indentation) of the open BEGIN
    for number, line in enumerate(lines, start=1):
        try:
            kind = _marker_kind(line)
            if block is not None:
                _inside_block(kind, line, block, output)
                if kind == "end":
                    block = None
                continue
            if kind == "begin":
                spans = _function_spans(source) if spans is None else spans
                _check_in_function(spans, number, _indentation(line))
                block = (number, _indentation(line))
            elif kind == "end":
                raise MarkerError(f"{END!r} without a {BEGIN!r} before it")
            else:
                output.append(_blank_answer(line) if kind == "answer" else line)
        except MarkerError as error:
            raise MarkerError(f"line {number}: {error}") from None
    if block is not None:
        raise MarkerError(f"line {block[0]}: {BEGIN!r} is never closed by {END!r}")
    result = "\n".join(output)
    if spans is not None:
        _check_parses(result)
    return result


def _inside_block(kind: str | None, line: str, block: tuple[int, int], output: list[str]) -> None:
    """Handle one line between BEGIN and END: drop it, or on END write the stub."""
    begin_line, indent = block
    if kind == "begin":
        raise MarkerError(f"nested {BEGIN!r} (the block opened at line {begin_line} is not closed)")
    if kind == "answer":
        raise MarkerError(f"a '# SOLUTION' line inside the block opened at line {begin_line}")
    if kind == "end":
        if _indentation(line) != indent:
            raise MarkerError(f"{END!r} is not at the indentation of its {BEGIN!r} (line {begin_line})")
        prefix = line[:indent]  # the marker's own indentation, spaces or tabs
        output += [prefix + STUB_COMMENT, prefix + STUB_RAISE]
    elif line.strip() and _indentation(line) < indent:
        raise MarkerError(f"this line is less indented than the {BEGIN!r} at line {begin_line}")


def _check_parses(source: str) -> None:
    try:
        ast.parse(source)
    except SyntaxError as error:
        raise MarkerError(f"the exercise version does not parse: line {error.lineno}: {error.msg}") from None


# -------------------------------------------------------------- notebooks
def _exercise_cell(cell: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The exercise version of a kept cell: same id, source and tags; no output or other metadata."""
    cell_tags = tags(cell)
    source = exercise_source(cell.source) if cell.cell_type == "code" else cell.source
    if EXERCISE_TAG in cell_tags and source != cell.source:
        raise MarkerError(f"solution markers in a cell tagged {EXERCISE_TAG!r}")
    metadata = {"tags": cell_tags} if cell_tags else {}
    if CHECK_TAG in cell_tags:
        metadata.update(editable=False, deletable=False)
    new = nbformat.from_dict({"cell_type": cell.cell_type, "id": cell.id, "metadata": metadata, "source": source})
    if cell.cell_type == "code":
        new.update(execution_count=None, outputs=[])
    elif "attachments" in cell:
        new.attachments = cell.attachments
    return new


def exercise_notebook(solution: nbformat.NotebookNode, name: str = "notebook") -> nbformat.NotebookNode:
    """The exercise generated from a solution notebook; MarkerError names the notebook, cell and line."""
    cells = []
    for index, cell in enumerate(solution.cells):
        cell_tags = tags(cell)
        if SOLUTION_TAG in cell_tags and EXERCISE_TAG in cell_tags:
            raise MarkerError(f"{name}, cell {index}: tagged both {SOLUTION_TAG!r} and {EXERCISE_TAG!r}")
        if SOLUTION_TAG in cell_tags:
            continue
        if not cell.get("id"):
            raise MarkerError(f"{name}, cell {index}: no cell id (save it with JupyterLab 4 or run `make run`)")
        try:
            cells.append(_exercise_cell(cell))
        except MarkerError as error:
            raise MarkerError(f"{name}, cell {index}, {error}") from None
    return nbformat.v4.new_notebook(cells=cells, metadata=course_metadata())


def exercise_text(solution_path: Path) -> str:
    """The exact text of the exercise generated from the solution notebook at `solution_path`."""
    solution = nbformat.read(solution_path, as_version=4)
    return notebook_text(exercise_notebook(solution, solution_path.name))


def stub_count(nb: nbformat.NotebookNode) -> int:
    """How many stubs (`raise NotImplementedError("À compléter")` or `name = ...`) the code cells hold."""
    lines = [line for cell in nb.cells if cell.cell_type == "code" for line in cell.source.split("\n")]
    return sum(line.strip() == STUB_RAISE or bool(ANSWER_STUB.match(line)) for line in lines)


def generate_exercises(solutions_dir: Path, exercises_dir: Path) -> list[Path]:
    """Write the exercise of every solution notebook; return the paths written."""
    exercises_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for solution_path in sorted(solutions_dir.glob("*.ipynb")):
        solution = nbformat.read(solution_path, as_version=4)
        target = exercises_dir / solution_path.name
        write_notebook(exercise_notebook(solution, solution_path.name), target)
        written.append(target)
    return written


def find_drift(solutions_dir: Path, exercises_dir: Path) -> list[str]:
    """Why the committed exercises differ from generation (missing, extra, outdated, stub-less); [] if none."""
    solutions = {path.name for path in solutions_dir.glob("*.ipynb")}
    exercises = {path.name for path in exercises_dir.glob("*.ipynb")}
    problems = [f"{exercises_dir / name}: missing (run `make exercises`)" for name in sorted(solutions - exercises)]
    problems += [f"{exercises_dir / name}: no solution notebook of that name" for name in sorted(exercises - solutions)]
    for name in sorted(solutions & exercises):
        committed = (exercises_dir / name).read_text(encoding="utf-8")
        if committed != exercise_text(solutions_dir / name):
            problems.append(f"{exercises_dir / name}: differs from its solution (run `make exercises`)")
        elif stub_count(nbformat.reads(committed, as_version=4)) == 0:
            problems.append(f"{exercises_dir / name}: holds no stub for the student to complete")
    return problems


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the generator's options to `parser` (also used by `sudoku-course exercises`)."""
    parser.add_argument("solutions", type=Path, nargs="?", default=Path("solutions"), help="default: solutions")
    parser.add_argument("exercises", type=Path, nargs="?", default=Path("exercises"), help="default: exercises")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the exercises are out of date")
    return parser


def run(args: argparse.Namespace) -> int:
    """Generate the exercises, or with --check report drift; 1 on drift or on a bad marker."""
    try:
        if args.check:
            problems = find_drift(args.solutions, args.exercises)
            print("\n".join(problems) or "exercises are up to date")
            return 1 if problems else 0
        for path in generate_exercises(args.solutions, args.exercises):
            print(f"written {path}")
    except MarkerError as error:
        print_error(error)
        return 1
    solutions = {path.name for path in args.solutions.glob("*.ipynb")}
    for stale in sorted(path for path in args.exercises.glob("*.ipynb") if path.name not in solutions):
        print(f"warning: {stale} has no solution notebook (delete it if it is stale)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: `python -m sudoku_course.teaching.authoring [SOLUTIONS EXERCISES] [--check]`."""
    parser = argparse.ArgumentParser(
        prog="python -m sudoku_course.teaching.authoring", description=__doc__.split("\n")[0]
    )
    return run(add_arguments(parser).parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
