"""Execute the course notebooks with papermill and normalise them for committing.

`python -m sudoku_course.teaching.notebooks [PATH ...]` (what `make run` calls)
executes every notebook of `notebooks/` then `solutions/` (sorted), or the
notebooks and folders given, with their parameters at their defaults and
`PYTHONHASHSEED=0`. Notebooks of a `solutions` folder run with
`SUDOKU_COURSE_STRICT=1`, so that a failing check stops them. Each notebook is
written back in place only when it ran without error; a broken run leaves the
committed file untouched. `--no-write` only executes (used on `exercises/`).

The normaliser keeps what a reader needs (sources, outputs, execution counts,
tags, cell ids) and drops what changes from run to run: papermill and timing
metadata, any injected-parameters cell, the Python version in the notebook
metadata. The JSON is written the way nbformat does (indent 1, sorted keys)
with a final newline, so an unchanged notebook is byte-identical after a run.

This module is also a small pytest plugin for nbval (`pytest -p
sudoku_course.teaching.notebooks --nbval ...`): it stops nbval from comparing
stderr, where warnings and progress bars vary from run to run.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbformat.corpus.words import generate_corpus_id

COURSE_FOLDERS = ("notebooks", "solutions")
STRICT_FOLDER = "solutions"
KERNEL_NAME = "python3"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": KERNEL_NAME}
VOLATILE_CELL_METADATA = ("papermill", "execution", "collapsed", "scrolled")
PARAMETERS_TAG = "parameters"
INJECTED_TAG = "injected-parameters"


@dataclass
class NotebookRun:
    """Outcome of executing one notebook."""

    path: Path
    ok: bool
    seconds: float
    error: str = ""

    def line(self) -> str:
        """One line for the console: status, duration, path and the error if any."""
        status = "ok" if self.ok else "ÉCHEC"
        text = f"{status:<6} {self.seconds:7.1f} s  {self.path}"
        return f"{text}\n       {self.error}" if self.error else text


# --------------------------------------------------------------- normalising
def course_metadata() -> dict:
    """The metadata of every course notebook: the standard Python kernel, no version, no papermill."""
    return {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}}


def tags(cell: dict) -> list[str]:
    """The tags of a cell (an empty list when it has none)."""
    return list(cell.get("metadata", {}).get("tags", []))


def normalise(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Strip run-dependent metadata and injected cells; keep outputs and execution counts."""
    nb.metadata = nbformat.from_dict(course_metadata())
    nb.cells = [cell for cell in nb.cells if INJECTED_TAG not in tags(cell)]
    for cell in nb.cells:
        for key in VOLATILE_CELL_METADATA:
            cell.metadata.pop(key, None)
        if cell.metadata.get("tags") == []:
            del cell.metadata["tags"]
        if not cell.get("id"):
            cell.id = generate_corpus_id()
    nb.nbformat, nb.nbformat_minor = 4, 5
    return nb


def notebook_text(nb: nbformat.NotebookNode) -> str:
    """The notebook as deterministic JSON (nbformat's layout) ending with a newline."""
    text = nbformat.writes(nb, version=4)
    return text if text.endswith("\n") else text + "\n"


def write_notebook(nb: nbformat.NotebookNode, path: Path) -> None:
    """Write `nb` to `path` as UTF-8 with '\\n' line endings on every platform."""
    with open(path, "w", encoding="utf-8", newline="\n") as file:
        file.write(notebook_text(nb))


# ----------------------------------------------------------------- hygiene
def hygiene_problems(nb: nbformat.NotebookNode, *, executed: bool) -> list[str]:
    """What breaks the course's notebook rules; an empty list when the notebook is clean.

    Every notebook starts with a code cell tagged `parameters` and holds no
    papermill leftovers. An executed notebook (lessons, solutions) has
    execution counts 1..n in order (empty cells, which never run, aside) and
    no error output; an exercise (`executed=False`) has no output and no
    execution count at all.
    """
    problems = []
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    if not code_cells or PARAMETERS_TAG not in tags(code_cells[0]):
        problems.append("the first code cell is not tagged 'parameters'")
    if "papermill" in nb.metadata:
        problems.append("notebook metadata holds papermill data")
    for index, cell in enumerate(nb.cells):
        if "papermill" in cell.metadata or "execution" in cell.metadata:
            problems.append(f"cell {index} holds papermill or timing metadata")
        if INJECTED_TAG in tags(cell):
            problems.append(f"cell {index} is a papermill injected-parameters cell")
    counts = [cell.execution_count for cell in code_cells if cell.source.strip()]  # empty cells never run
    outputs = [(index, output) for index, cell in enumerate(nb.cells) for output in cell.get("outputs", [])]
    if executed:
        if counts != list(range(1, len(counts) + 1)):
            problems.append(f"execution counts are {counts}, expected 1..{len(counts)} in order")
        problems += [f"cell {index} has an error output" for index, out in outputs if out.output_type == "error"]
    else:
        if any(count is not None for count in counts):
            problems.append("an exercise must have no execution count")
        if outputs:
            problems.append(f"an exercise must have no output (cell {outputs[0][0]} has one)")
    return problems


# --------------------------------------------------------------- execution
def course_notebooks(root: Path = Path(".")) -> list[Path]:
    """The notebooks `make run` executes: notebooks/ then solutions/, each sorted by name."""
    return [path for folder in COURSE_FOLDERS for path in sorted((root / folder).glob("*.ipynb"))]


def expand(paths: Iterable[Path]) -> list[Path]:
    """Replace each folder by its notebooks (sorted); keep files as given."""
    return [notebook for path in paths for notebook in (sorted(path.glob("*.ipynb")) if path.is_dir() else [path])]


@contextmanager
def _environment(**variables: str | None) -> Iterator[None]:
    """Set (or, with None, remove) environment variables, restoring them afterwards."""
    saved = {name: os.environ.get(name) for name in variables}
    try:
        for name, value in variables.items():
            _set_variable(name, value)
        yield
    finally:
        for name, value in saved.items():
            _set_variable(name, value)


def _set_variable(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def _describe(error: Exception) -> str:
    """A one-line account of a papermill failure: cell, exception type and message."""
    if hasattr(error, "cell_index"):
        return f"cell {error.cell_index}: {error.ename}: {error.evalue}"
    return f"{type(error).__name__}: {error}"


def execute_notebook(path: Path, *, write: bool = True, timeout: float | None = None) -> NotebookRun:
    """Execute one notebook with papermill (kernel inherits PYTHONHASHSEED=0); normalise and write it back if ok.

    The kernel starts in the notebook's folder. A notebook inside a `solutions`
    folder runs in strict mode (a failed check raises).
    """
    import papermill  # slow to import: only when executing

    path = Path(path)
    strict = "1" if path.parent.name == STRICT_FOLDER else None
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch, _environment(PYTHONHASHSEED="0", SUDOKU_COURSE_STRICT=strict):
        output = Path(scratch) / path.name
        try:
            papermill.execute_notebook(
                path,
                output,
                kernel_name=KERNEL_NAME,
                cwd=path.parent.resolve(),
                progress_bar=False,
                request_save_on_cell_execute=False,
                execution_timeout=timeout,
            )
        except Exception as error:  # any failure keeps the committed notebook as it was
            return NotebookRun(path, False, time.perf_counter() - start, _describe(error))
        if write:
            write_notebook(normalise(nbformat.read(output, as_version=4)), path)
    return NotebookRun(path, True, time.perf_counter() - start)


def run_notebooks(paths: Sequence[Path], *, write: bool = True, timeout: float | None = None) -> list[NotebookRun]:
    """Execute the notebooks in order, printing each one's status and duration."""
    runs = []
    for path in paths:
        run = execute_notebook(path, write=write, timeout=timeout)
        print(run.line(), flush=True)
        runs.append(run)
    return runs


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: execute the course (or the given notebooks and folders); 1 if one fails."""
    parser = argparse.ArgumentParser(
        prog="python -m sudoku_course.teaching.notebooks", description=__doc__.split("\n")[0]
    )
    parser.add_argument("paths", nargs="*", type=Path, help="notebooks or folders (default: notebooks/ solutions/)")
    parser.add_argument("--no-write", action="store_true", help="only execute: leave the files untouched")
    parser.add_argument("--timeout", type=float, default=None, help="time limit per cell, in seconds")
    args = parser.parse_args(argv)
    missing = [str(path) for path in args.paths if not path.exists()]
    if missing:
        print(f"error: not found: {', '.join(missing)}", file=sys.stderr)
        return 2
    paths = expand(args.paths) if args.paths else course_notebooks()
    if not paths:
        print("no notebook to execute")
        return 0
    runs = run_notebooks(paths, write=not args.no_write, timeout=args.timeout)
    failed = [run for run in runs if not run.ok]
    print(f"{len(runs) - len(failed)}/{len(runs)} notebooks ok, {sum(run.seconds for run in runs):.1f} s in all")
    return 1 if failed else 0


# ------------------------------------------------------------ pytest plugin
def pytest_collection_modifyitems(items: list) -> None:
    """nbval: never compare stderr (warnings and progress bars differ between runs)."""
    for item in items:
        notebook = getattr(item, "parent", None)
        skip = getattr(notebook, "skip_compare", None)
        if skip is not None and "stderr" not in skip:
            notebook.skip_compare = (*skip, "stderr")


if __name__ == "__main__":
    sys.exit(main())
