"""Notebook hygiene: the rules, then every committed notebook of the course against them."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from sudoku_course.teaching.notebooks import WIDGET_MIMETYPE, course_metadata, hygiene_problems

ROOT = Path(__file__).resolve().parents[1]
EXECUTED = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "solutions").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ------------------------------------------------------------------ rules
def executed_notebook() -> nbformat.NotebookNode:
    """A clean executed notebook: parameters first, counts 1..n, outputs without errors."""
    return new_notebook(
        cells=[
            new_markdown_cell("# Titre"),
            new_code_cell("seed = 0", metadata={"tags": ["parameters"]}, execution_count=1),
            new_code_cell("print(seed)", execution_count=2, outputs=[new_output("stream", name="stdout", text="0\n")]),
        ],
        metadata=course_metadata("3.11.7"),
    )


def exercise_notebook() -> nbformat.NotebookNode:
    nb = executed_notebook()
    for cell in nb.cells[1:]:
        cell.execution_count, cell.outputs = None, []
    return nb


def test_clean_notebooks_have_no_problem():
    assert hygiene_problems(executed_notebook(), executed=True) == []
    assert hygiene_problems(exercise_notebook(), executed=False) == []


def test_first_code_cell_must_be_tagged_parameters():
    nb = executed_notebook()
    nb.cells[1].metadata = {}
    assert hygiene_problems(nb, executed=True) == ["the first code cell is not tagged 'parameters'"]


def test_execution_counts_must_run_1_to_n():
    nb = executed_notebook()
    nb.cells[2].execution_count = 5
    assert hygiene_problems(nb, executed=True) == ["execution counts are [1, 5], expected 1..2 in order"]
    nb.cells[2].execution_count = None
    assert hygiene_problems(nb, executed=True) == ["execution counts are [1, None], expected 1..2 in order"]


def test_empty_code_cells_are_not_counted():
    nb = executed_notebook()
    nb.cells.insert(2, new_code_cell(""))
    assert hygiene_problems(nb, executed=True) == []


def test_error_outputs_are_refused():
    nb = executed_notebook()
    nb.cells[2].outputs.append(new_output("error", ename="ValueError", evalue="x", traceback=[]))
    assert hygiene_problems(nb, executed=True) == ["cell 2 has an error output"]


def test_papermill_leftovers_are_refused():
    nb = executed_notebook()
    nb.metadata["papermill"] = {"duration": 1.0}
    nb.cells[2].metadata["papermill"] = {"status": "completed"}
    nb.cells.insert(2, new_code_cell("seed = 1", metadata={"tags": ["injected-parameters"]}, execution_count=2))
    nb.cells[3].execution_count = 3
    assert hygiene_problems(nb, executed=True) == [
        "notebook metadata holds papermill data",
        "cell 2 is a papermill injected-parameters cell",
        "cell 3 holds papermill or timing metadata",
    ]


def test_metadata_must_be_what_jupyterlab_writes_with_any_python_version():
    nb = executed_notebook()
    nb.metadata.language_info.version = "3.13.1"  # another interpreter only changes the version
    assert hygiene_problems(nb, executed=True) == []
    del nb.metadata.language_info["version"]
    assert hygiene_problems(nb, executed=True) == [
        "notebook metadata has no language_info version (JupyterLab would add it)"
    ]
    nb = executed_notebook()
    nb.metadata.language_info.pop("pygments_lexer")
    assert hygiene_problems(nb, executed=True) == [
        "notebook metadata differs from what JupyterLab writes (see course_metadata)"
    ]
    nb = executed_notebook()
    nb.metadata["widgets"] = {}
    assert hygiene_problems(nb, executed=True) == [
        "notebook metadata differs from what JupyterLab writes (see course_metadata)"
    ]


def test_split_stream_outputs_are_refused():
    nb = executed_notebook()
    nb.cells[2].outputs.append(new_output("stream", name="stdout", text="1\n"))
    assert hygiene_problems(nb, executed=True) == [
        "cell 2 has consecutive stream outputs of one name (JupyterLab merges them)"
    ]
    nb.cells[2].outputs.insert(1, new_output("stream", name="stderr", text="warning\n"))
    assert hygiene_problems(nb, executed=True) == []


def test_progress_bar_outputs_are_refused():
    nb = executed_notebook()
    nb.cells[2].outputs.append(new_output("stream", name="stderr", text="benchmark:  50%|#####     | 1/2\r"))
    nb.cells[1].outputs.append(new_output("display_data", data={WIDGET_MIMETYPE: {"model_id": "abc"}}))
    assert hygiene_problems(nb, executed=True) == [
        "cell 1 has a progress bar output",
        "cell 2 has a progress bar output",
    ]


def test_exercises_hold_no_output_and_no_count():
    nb = executed_notebook()
    assert hygiene_problems(nb, executed=False) == [
        "an exercise must have no execution count",
        "an exercise must have no output (cell 2 has one)",
    ]


# --------------------------------------------------- the course's notebooks
def test_every_notebook_records_one_python_version():
    versions = {
        nbformat.read(path, as_version=4).metadata.language_info.get("version") for path in EXECUTED + EXERCISES
    }
    assert len(versions) == 1, f"notebooks written by several interpreters: {sorted(map(str, versions))}"


@pytest.mark.parametrize("path", EXECUTED, ids=relative)
def test_executed_notebook_is_clean(path):
    assert hygiene_problems(nbformat.read(path, as_version=4), executed=True) == []


@pytest.mark.parametrize("path", EXERCISES, ids=relative)
def test_exercise_notebook_is_clean(path):
    assert hygiene_problems(nbformat.read(path, as_version=4), executed=False) == []
