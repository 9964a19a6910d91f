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
metadata, any injected-parameters cell. The notebook metadata is exactly what
JupyterLab and the IPython kernel write (kernelspec and language_info of the
running interpreter), and consecutive stream outputs of one name are merged
as JupyterLab merges them, so opening and saving a notebook in JupyterLab
changes nothing. The JSON is written the way nbformat does (indent 1, sorted
keys) with a final newline, so an unchanged notebook is byte-identical after a
run. `--normalise-only` rewrites notebooks this way without executing them.

Progress bars are off during these runs (`SUDOKU_COURSE_PROGRESS=0`), so that
no progress output is ever committed.

This module is also a small pytest plugin for nbval (`pytest -p
sudoku_course.teaching.notebooks --nbval ...`): it stops nbval from comparing
stderr, where warnings and progress bars vary from run to run.
"""

from __future__ import annotations

import argparse
import copy
import os
import platform
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbformat.corpus.words import generate_corpus_id

from ..progress import PROGRESS_SWITCH

COURSE_FOLDERS = ("notebooks", "solutions")
STRICT_FOLDER = "solutions"
KERNEL_NAME = "python3"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": KERNEL_NAME}
VOLATILE_CELL_METADATA = ("papermill", "execution", "collapsed", "scrolled")
PARAMETERS_TAG = "parameters"
INJECTED_TAG = "injected-parameters"
WIDGET_MIMETYPE = "application/vnd.jupyter.widget-view+json"


@dataclass
class NotebookExecution:
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
def course_metadata(python_version: str | None = None) -> dict:
    """The metadata JupyterLab writes with the IPython kernel of this interpreter (or of `python_version`)."""
    language_info = {
        "codemirror_mode": {"name": "ipython", "version": 3},
        "file_extension": ".py",
        "mimetype": "text/x-python",
        "name": "python",
        "nbconvert_exporter": "python",
        "pygments_lexer": "ipython3",
        "version": python_version or platform.python_version(),
    }
    return {"kernelspec": dict(KERNELSPEC), "language_info": language_info}


def tags(cell: dict) -> list[str]:
    """The tags of a cell (an empty list when it has none)."""
    return list(cell.get("metadata", {}).get("tags", []))


def merged_streams(outputs: list) -> list:
    """The outputs with each run of consecutive stream outputs of one name merged into one, as JupyterLab does."""
    merged = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if output.output_type == "stream" and previous and previous.get("name") == output.name:
            previous.text += output.text
        else:
            merged.append(output)
    return merged


def normalise(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Strip run-dependent metadata and injected cells, merge stream outputs; keep outputs and execution counts."""
    nb.metadata = nbformat.from_dict(course_metadata())
    nb.cells = [cell for cell in nb.cells if INJECTED_TAG not in tags(cell)]
    for cell in nb.cells:
        for key in VOLATILE_CELL_METADATA:
            cell.metadata.pop(key, None)
        if cell.metadata.get("tags") == []:
            del cell.metadata["tags"]
        if not cell.get("id"):
            cell.id = generate_corpus_id()
        if "outputs" in cell:
            cell.outputs = merged_streams(cell.outputs)
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

    Every notebook starts with a code cell tagged `parameters`, holds the
    metadata JupyterLab writes (`course_metadata`, any Python version) and no
    papermill leftovers. An executed notebook (lessons, solutions) has
    execution counts 1..n in order (empty cells, which never run, aside), no
    error output, no progress bar output and no stream output split the way
    JupyterLab would merge it; an exercise (`executed=False`) has no output and
    no execution count at all.
    """
    problems = []
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    if not code_cells or PARAMETERS_TAG not in tags(code_cells[0]):
        problems.append("the first code cell is not tagged 'parameters'")
    problems += metadata_problems(nb.metadata)
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
        problems += [f"cell {index} has a progress bar output" for index, out in outputs if is_progress_bar(out)]
        problems += [
            f"cell {index} has consecutive stream outputs of one name (JupyterLab merges them)"
            for index, cell in enumerate(nb.cells)
            if len(merged_streams(copy.deepcopy(cell.get("outputs", [])))) != len(cell.get("outputs", []))
        ]
    else:
        if any(count is not None for count in counts):
            problems.append("an exercise must have no execution count")
        if outputs:
            problems.append(f"an exercise must have no output (cell {outputs[0][0]} has one)")
    return problems


def metadata_problems(metadata: dict) -> list[str]:
    """How the notebook metadata differs from what JupyterLab writes (the Python version may be any)."""
    if "papermill" in metadata:
        return ["notebook metadata holds papermill data"]
    version = metadata.get("language_info", {}).get("version")
    if not version:
        return ["notebook metadata has no language_info version (JupyterLab would add it)"]
    if metadata != course_metadata(version):
        return ["notebook metadata differs from what JupyterLab writes (see course_metadata)"]
    return []


def is_progress_bar(output: dict) -> bool:
    """Whether an output is a progress bar: a widget (tqdm in Jupyter) or text redrawn with carriage returns."""
    if output.output_type == "stream":
        return "\r" in output.text
    return WIDGET_MIMETYPE in output.get("data", {})


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


def execute_notebook(path: Path, *, write: bool = True, timeout: float | None = None) -> NotebookExecution:
    """Execute one notebook with papermill; normalise and write it back if ok.

    The kernel starts in the notebook's folder with PYTHONHASHSEED=0 and progress
    bars off. A notebook inside a `solutions` folder runs in strict mode (a
    failed check raises).
    """
    import papermill  # slow to import: only when executing

    path = Path(path)
    strict = "1" if path.parent.name == STRICT_FOLDER else None
    start = time.perf_counter()
    variables = {"PYTHONHASHSEED": "0", "SUDOKU_COURSE_STRICT": strict, PROGRESS_SWITCH: "0"}
    with tempfile.TemporaryDirectory() as scratch, _environment(**variables):
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
            return NotebookExecution(path, False, time.perf_counter() - start, _describe(error))
        if write:
            write_notebook(normalise(nbformat.read(output, as_version=4)), path)
    return NotebookExecution(path, True, time.perf_counter() - start)


def run_notebooks(
    paths: Sequence[Path], *, write: bool = True, timeout: float | None = None
) -> list[NotebookExecution]:
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
    parser.add_argument(
        "--normalise-only", action="store_true", help="do not execute: rewrite metadata and merge stream outputs"
    )
    args = parser.parse_args(argv)
    missing = [str(path) for path in args.paths if not path.exists()]
    if missing:
        print(f"error: not found: {', '.join(missing)}", file=sys.stderr)
        return 2
    paths = expand(args.paths) if args.paths else course_notebooks()
    if not paths:
        print("no notebook to execute")
        return 0
    if args.normalise_only:
        for path in paths:
            write_notebook(normalise(nbformat.read(path, as_version=4)), path)
            print(f"normalised {path}")
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
