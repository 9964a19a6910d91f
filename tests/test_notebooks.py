"""Executing notebooks with papermill, normalising them, and the nbval settings (starts four kernels)."""

from __future__ import annotations

import contextlib
import io
import json
import platform
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output
from nbval.plugin import get_sanitize_patterns

from sudoku_course.teaching import notebooks
from sudoku_course.teaching.notebooks import (
    course_metadata,
    course_notebooks,
    expand,
    hygiene_problems,
    normalise,
    notebook_text,
    pytest_collection_modifyitems,
)

DATA = Path(__file__).parent / "data"
SANITIZE = Path(__file__).parent / "nbval_sanitize.cfg"
ENVIRONMENT_CELL = (
    "import os\n"
    'print(*(os.environ.get(name) for name in ("PYTHONHASHSEED", "SUDOKU_COURSE_STRICT", "SUDOKU_COURSE_PROGRESS")))'
)


def sanitized(text: str) -> str:
    """`text` as nbval sees it with the course's sanitize file."""
    for regex, replacement in get_sanitize_patterns(SANITIZE.read_text(encoding="utf-8")):
        text = re.sub(regex, replacement, text)
    return text


# -------------------------------------------------------------- normalise
def papermill_output() -> nbformat.NotebookNode:
    """A notebook as papermill leaves it."""
    nb = new_notebook(
        cells=[
            new_code_cell("seed = 0", metadata={"tags": ["parameters"]}, execution_count=1),
            new_code_cell("seed = 1", metadata={"tags": ["injected-parameters"]}, execution_count=2),
            new_code_cell("print(seed)", execution_count=3, outputs=[new_output("stream", name="stdout", text="1\n")]),
        ],
        metadata={"papermill": {"duration": 2.0}, "language_info": {"name": "python", "version": "3.11.7"}},
    )
    for cell in nb.cells:
        cell.metadata["papermill"] = {"status": "completed"}
        cell.metadata["execution"] = {"iopub.status.busy": "2026-01-01T00:00:00Z"}
    nb.cells[2].metadata["tags"] = []
    return nb


def test_normalise_drops_papermill_traces_and_keeps_outputs():
    nb = normalise(papermill_output())
    assert nb.metadata == course_metadata()
    assert [cell.source for cell in nb.cells] == ["seed = 0", "print(seed)"]
    assert [cell.metadata for cell in nb.cells] == [{"tags": ["parameters"]}, {}]
    assert [cell.execution_count for cell in nb.cells] == [1, 3]
    assert nb.cells[1].outputs[0].text == "1\n"


def test_normalise_writes_the_metadata_jupyterlab_writes():
    nb = normalise(papermill_output())
    assert nb.metadata.kernelspec == {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    assert nb.metadata.language_info.pygments_lexer == "ipython3"
    assert nb.metadata.language_info.version == platform.python_version()


def test_normalise_merges_consecutive_streams_of_one_name():
    nb = papermill_output()
    nb.cells[2].outputs = [
        new_output("stream", name="stdout", text="a\n"),
        new_output("stream", name="stdout", text="b\n"),
        new_output("stream", name="stderr", text="w\n"),
        new_output("stream", name="stderr", text="x\n"),
        new_output("display_data", data={"text/plain": "d"}),
        new_output("stream", name="stdout", text="c\n"),
    ]
    outputs = normalise(nb).cells[1].outputs
    assert [(out.output_type, out.get("name"), out.get("text")) for out in outputs] == [
        ("stream", "stdout", "a\nb\n"),
        ("stream", "stderr", "w\nx\n"),
        ("display_data", None, None),
        ("stream", "stdout", "c\n"),
    ]


def test_normalise_only_rewrites_without_executing(tmp_path, capsys):
    path = tmp_path / "x.ipynb"
    notebooks.write_notebook(papermill_output(), path)
    expected = notebook_text(normalise(nbformat.read(path, as_version=4)))
    assert notebooks.main(["--normalise-only", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == expected
    assert "normalised" in capsys.readouterr().out


def test_normalise_gives_ids_to_cells_without_one():
    nb = papermill_output()
    nb.nbformat_minor = 4
    for cell in nb.cells:
        del cell["id"]
    nb = normalise(nb)
    assert all(cell.id for cell in nb.cells) and nb.nbformat_minor == 5
    nbformat.validate(nb)


def test_notebook_text_is_sorted_json_with_a_final_newline():
    text = notebook_text(normalise(papermill_output()))
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    assert notebook_text(normalise(nbformat.reads(text, as_version=4))) == text  # normalising again changes nothing


def test_course_order_and_folder_expansion(tmp_path):
    for name in ("notebooks/01-b.ipynb", "notebooks/00-a.ipynb", "solutions/00-a.ipynb", "exercises/00-a.ipynb"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).touch()
    assert [str(p.relative_to(tmp_path)) for p in course_notebooks(tmp_path)] == [
        "notebooks/00-a.ipynb",
        "notebooks/01-b.ipynb",
        "solutions/00-a.ipynb",
    ]
    assert expand([tmp_path / "exercises", tmp_path / "x.ipynb"]) == [
        tmp_path / "exercises/00-a.ipynb",
        tmp_path / "x.ipynb",
    ]


def test_missing_paths_are_refused(tmp_path, capsys):
    assert notebooks.main([str(tmp_path / "nowhere")]) == 2
    assert "not found" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("durée : 0.000027 s", "durée : 12.5 s"),
        ("1.23 ms ± 45.6 µs per loop", "980 μs ± 3 us per loop"),
        ("3.5 secondes, 2 min", "4 secondes, 10 min"),
        ("<object object at 0x7fe0b761d160>", "<object object at 0x7f9c72531100>"),
        ("<Figure size 640x480 with 1 Axes>", "<Figure size 800x400.5 with 2 Axes>"),
        ("2026-11-30 09:47:06.511392", "2027-01-01T00:00:00"),
    ],
)
def test_sanitize_file_hides_what_changes_between_runs(first, second):
    assert sanitized(first) == sanitized(second)


@pytest.mark.parametrize("text", ["12 solutions", "81 cases, 36 vides", "seed = 0"])
def test_sanitize_file_keeps_results(text):
    assert sanitized(text) == text


def test_nbval_plugin_stops_comparing_stderr():
    class NotebookFile:
        skip_compare = ("metadata", "traceback")

    class Cell:
        parent = NotebookFile()

    items = [Cell(), Cell()]
    pytest_collection_modifyitems(items)
    assert items[0].parent.skip_compare == ("metadata", "traceback", "stderr")


# -------------------------------------------------------------- execution
@dataclass
class CourseRun:
    root: Path
    returncode: int
    printed: str
    wrong_before: bytes  # solutions/01-wrong.ipynb before the run


@pytest.fixture(scope="module")
def executed_course(tmp_path_factory) -> CourseRun:
    """The demo in solutions/ (passes), a wrong copy in solutions/ (strict: fails) and in notebooks/ (passes)."""
    root = tmp_path_factory.mktemp("course")
    (root / "solutions").mkdir()
    (root / "notebooks").mkdir()
    good = nbformat.read(DATA / "demo_solution.ipynb", as_version=4)
    good.cells.append(new_code_cell(ENVIRONMENT_CELL))
    notebooks.write_notebook(good, root / "solutions/00-demo.ipynb")
    wrong = nbformat.from_dict(good)
    wrong.cells[8].source = wrong.cells[8].source.replace("return 2 * x", "return x + 2")
    notebooks.write_notebook(wrong, root / "solutions/01-wrong.ipynb")
    notebooks.write_notebook(wrong, root / "notebooks/01-wrong.ipynb")
    paths = [root / "solutions/00-demo.ipynb", root / "solutions/01-wrong.ipynb", root / "notebooks/01-wrong.ipynb"]
    before = (root / "solutions/01-wrong.ipynb").read_bytes()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        returncode = notebooks.main([str(path) for path in paths])
    return CourseRun(root, returncode, printed.getvalue(), before)


def test_run_reports_each_notebook_and_fails_if_one_fails(executed_course):
    lines = executed_course.printed.splitlines()
    assert executed_course.returncode == 1
    assert lines[0].startswith("ok") and lines[0].endswith("00-demo.ipynb")
    assert lines[1].startswith("ÉCHEC") and "01-wrong.ipynb" in lines[1]
    assert "AssertionError" in lines[2] and "double" in lines[2]
    assert lines[3].startswith("ok") and lines[3].endswith("notebooks/01-wrong.ipynb")
    assert lines[4].startswith("2/3 notebooks ok")


def test_failed_run_keeps_the_committed_notebook(executed_course):
    assert (executed_course.root / "solutions/01-wrong.ipynb").read_bytes() == executed_course.wrong_before


def test_second_run_changes_nothing_but_the_volatile_cell(executed_course):
    first = executed_course.root / "solutions/00-demo.ipynb"
    again = executed_course.root / "solutions/00-again.ipynb"
    again.write_bytes(first.read_bytes())
    assert notebooks.execute_notebook(again).ok

    def without_volatile_outputs(path: Path) -> str:
        nb = nbformat.read(path, as_version=4)
        next(cell for cell in nb.cells if cell.id == "volatile").outputs = []
        return notebook_text(nb)

    assert again.read_bytes() != first.read_bytes()  # the volatile cell did change
    assert without_volatile_outputs(again) == without_volatile_outputs(first)


def test_run_writes_normalised_outputs_in_place(executed_course):
    root = executed_course.root
    nb = nbformat.read(root / "solutions/00-demo.ipynb", as_version=4)
    assert hygiene_problems(nb, executed=True) == []
    assert nb.metadata == course_metadata()
    assert nb.cells[-1].outputs[0].text == "0 1 0\n"  # PYTHONHASHSEED=0, strict mode in solutions/, no progress
    lesson = nbformat.read(root / "notebooks/01-wrong.ipynb", as_version=4)
    assert lesson.cells[-1].outputs[0].text == "0 None 0\n"  # not strict outside solutions/
    assert "1/3 cas réussis" in lesson.cells[9].outputs[0].data["text/plain"]
