"""Generating exercises from solutions: markers, tags, ids, determinism, errors and the drift check."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import nbformat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from sudoku_course.teaching.authoring import (
    MarkerError,
    exercise_notebook,
    exercise_source,
    find_drift,
    generate_exercises,
    main,
    stub_count,
)
from sudoku_course.teaching.notebooks import course_metadata, notebook_text, write_notebook

DEMO = Path(__file__).parent / "data" / "demo_solution.ipynb"


def demo() -> nbformat.NotebookNode:
    return nbformat.read(DEMO, as_version=4)


def cell_by_id(nb: nbformat.NotebookNode, cell_id: str) -> nbformat.NotebookNode:
    return next(cell for cell in nb.cells if cell.id == cell_id)


# ----------------------------------------------------------- code cells
def test_block_becomes_a_stub_at_the_marker_indentation():
    source = '''def total(values):
    """Sum of values."""
    result = 0
    for value in values:
        ### BEGIN SOLUTION
        result += value
        ### END SOLUTION
    return result'''
    assert (
        exercise_source(source)
        == '''def total(values):
    """Sum of values."""
    result = 0
    for value in values:
        # À COMPLÉTER
        raise NotImplementedError("À compléter")
    return result'''
    )


def test_blocks_in_methods_and_several_functions():
    source = """class Walker:
    def step(self):
        ### BEGIN SOLUTION
        return 1
        ### END SOLUTION


async def fetch():
    ### BEGIN SOLUTION
    return 2
    ### END SOLUTION"""
    result = exercise_source(source)
    assert result.count('raise NotImplementedError("À compléter")') == 2
    assert "return 1" not in result and "return 2" not in result
    ast.parse(result)


@pytest.mark.parametrize(
    ("line", "stub"),
    [
        ("budget = 2 * 81  # SOLUTION", "budget = ..."),
        ("rate: float = 0.5 # SOLUTION", "rate: float = ..."),
        ("résultat = f(x, y=2)  #SOLUTION", "résultat = ..."),
        ("first, second = 1, 2  # SOLUTION", "first, second = ..."),
    ],
)
def test_answer_line_becomes_ellipsis(line, stub):
    assert exercise_source(f"x = 1\n{line}\nprint(x)") == f"x = 1\n{stub}\nprint(x)"


@settings(max_examples=40, deadline=None)
@given(secrets=st.integers(1, 5), depth=st.integers(0, 2), before=st.booleans(), after=st.booleans())
def test_generated_block_hides_every_solution_line_and_is_stable(secrets, depth, before, after):
    indent = "    " * (depth + 1)
    lines = ["def f(values):"] + [f"{'    ' * (level + 1)}for v{level} in values:" for level in range(depth)]
    lines += [f"{indent}kept_before = 0"] if before else []
    lines += [f"{indent}### BEGIN SOLUTION"] + [f"{indent}secret_{k} = {k}" for k in range(secrets)]
    lines += [f"{indent}### END SOLUTION"] + ([f"{indent}kept_after = 1"] if after else [])
    exercise = exercise_source("\n".join(lines))
    assert "secret_" not in exercise and "SOLUTION" not in exercise
    assert f'{indent}raise NotImplementedError("À compléter")' in exercise.split("\n")
    assert ("kept_before" in exercise) == before and ("kept_after" in exercise) == after
    ast.parse(exercise)
    assert exercise_source(exercise) == exercise


def test_cell_without_markers_is_unchanged_even_with_magics():
    source = "%matplotlib inline\nprint('# SOLUTIONS are elsewhere')"
    assert exercise_source(source) == source


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def f():\n    ### BEGIN SOLUTION\n    return 1", "line 2: '### BEGIN SOLUTION' is never closed"),
        (
            "def f():\n    ### BEGIN SOLUTION\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION",
            "line 3: nested",
        ),
        ("def f():\n    return 1\n    ### END SOLUTION", "line 3: '### END SOLUTION' without"),
        ("### BEGIN SOLUTION\nx = 1\n### END SOLUTION", "line 1: '### BEGIN SOLUTION' must be inside a function"),
        (
            "def f():\n    ### BEGIN SOLUTION\n    x = 1  # SOLUTION\n    ### END SOLUTION",
            "line 3: a '# SOLUTION' line inside the block",
        ),
        (
            "def f():\n    if True:\n        ### BEGIN SOLUTION\n        return 1\n    ### END SOLUTION",
            "line 5: '### END SOLUTION' is not at the indentation",
        ),
        ("def f():\n    ## BEGIN SOLUTION\n    return 1", "line 2: malformed marker"),
        ("def f():\n    ### end solution\n", "line 2: malformed marker"),
        ("def f():\n    x = 1  # SOLUTION\n    return x", "line 2: a '# SOLUTION' line must be a top-level"),
        ("print(1)  # SOLUTION", "line 1: a '# SOLUTION' line must be a one-line assignment"),
        ("%time x = 1\ndef f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION", "plain Python"),
        (
            "def f():\n    return 1\n\n\n### BEGIN SOLUTION\nx = 2\n### END SOLUTION",
            "line 5: '### BEGIN SOLUTION' must be inside a function",
        ),
    ],
)
def test_bad_markers_are_refused_with_their_line(source, message):
    with pytest.raises(MarkerError, match=message.replace("(", r"\(")):
        exercise_source(source)


# ------------------------------------------------------------- notebooks
def test_demo_exercise_cells_tags_and_ids():
    solution = demo()
    exercise = exercise_notebook(solution, "demo.ipynb")
    kept = [cell.id for cell in solution.cells if "solution" not in cell.metadata.get("tags", [])]
    assert [cell.id for cell in exercise.cells] == kept
    assert {"worked-answer", "worked-example"}.isdisjoint(kept)
    assert cell_by_id(exercise, "try-here").source == cell_by_id(solution, "try-here").source
    assert cell_by_id(exercise, "answer").source == "answer = ...\nprint(answer)"
    assert "return 2 * x" not in cell_by_id(exercise, "exercise-2").source
    assert cell_by_id(exercise, "check-1").metadata == {"tags": ["check"], "editable": False, "deletable": False}
    assert stub_count(exercise) == 3
    assert exercise.metadata == course_metadata()
    for cell in exercise.cells:
        if cell.cell_type == "code":
            ast.parse(cell.source)


def test_outputs_counts_and_metadata_of_the_solution_do_not_reach_the_exercise():
    clean = demo()
    executed = demo()
    executed.metadata["papermill"] = {"duration": 1.0}
    executed.metadata["language_info"] = {"name": "python", "version": "3.11.7"}
    for count, cell in enumerate(c for c in executed.cells if c.cell_type == "code"):
        cell.execution_count = count + 1
        cell.outputs = [new_output("stream", name="stdout", text="sortie\n")]
        cell.metadata["papermill"] = {"status": "completed"}
        cell.metadata["collapsed"] = True
    expected = notebook_text(exercise_notebook(clean))
    assert notebook_text(exercise_notebook(executed)) == expected
    assert '"outputs": []' in expected and '"execution_count": null' in expected


def test_error_names_notebook_cell_and_line():
    nb = new_notebook(
        cells=[
            new_markdown_cell("# Titre"),
            new_code_cell("x = 1"),
            new_code_cell("def f():\n    ### BEGIN SOLUTION\n    return 1"),
        ]
    )
    with pytest.raises(MarkerError, match=r"broken\.ipynb, cell 2, line 2: '### BEGIN SOLUTION' is never closed"):
        exercise_notebook(nb, "broken.ipynb")


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        (new_code_cell("x = 1  # SOLUTION", metadata={"tags": ["exercice"]}), "markers in a cell tagged 'exercice'"),
        (new_code_cell("x = 1", metadata={"tags": ["exercice", "solution"]}), "tagged both"),
    ],
)
def test_contradictory_tags_are_refused(cell, message):
    with pytest.raises(MarkerError, match=message):
        exercise_notebook(new_notebook(cells=[cell]), "nb.ipynb")


def test_cells_without_id_are_refused():
    nb = new_notebook(cells=[new_code_cell("x = 1")])
    del nb.cells[0]["id"]
    with pytest.raises(MarkerError, match="no cell id"):
        exercise_notebook(nb, "old.ipynb")


# ------------------------------------------------ files, drift, command line
@pytest.fixture
def course(tmp_path: Path) -> tuple[Path, Path]:
    solutions, exercises = tmp_path / "solutions", tmp_path / "exercises"
    solutions.mkdir()
    shutil.copy(DEMO, solutions / "00-demo.ipynb")
    shutil.copy(DEMO, solutions / "01-demo.ipynb")
    return solutions, exercises


def test_generation_is_byte_identical_and_drift_free(course):
    solutions, exercises = course
    written = generate_exercises(solutions, exercises)
    assert [path.name for path in written] == ["00-demo.ipynb", "01-demo.ipynb"]
    first = [path.read_bytes() for path in written]
    generate_exercises(solutions, exercises)
    assert [path.read_bytes() for path in written] == first
    assert first[0].endswith(b"}\n") and "À COMPLÉTER".encode() in first[0]
    assert find_drift(solutions, exercises) == []


def test_drift_is_found(course):
    solutions, exercises = course
    generate_exercises(solutions, exercises)
    edited = exercises / "00-demo.ipynb"
    edited.write_text(edited.read_text(encoding="utf-8").replace("À COMPLÉTER", "fait"), encoding="utf-8")
    (exercises / "01-demo.ipynb").unlink()
    shutil.copy(edited, exercises / "02-extra.ipynb")
    assert find_drift(solutions, exercises) == [
        f"{exercises / '01-demo.ipynb'}: missing (run `make exercises`)",
        f"{exercises / '02-extra.ipynb'}: no solution notebook of that name",
        f"{exercises / '00-demo.ipynb'}: differs from its solution (run `make exercises`)",
    ]


def test_exercise_without_stub_is_drift(course):
    solutions, exercises = course
    (solutions / "01-demo.ipynb").unlink()
    write_notebook(
        new_notebook(cells=[new_code_cell("x = 1", metadata={"tags": ["parameters"]})]), solutions / "00-demo.ipynb"
    )
    generate_exercises(solutions, exercises)
    assert find_drift(solutions, exercises) == [
        f"{exercises / '00-demo.ipynb'}: holds no stub for the student to complete"
    ]


def test_command_line(course, capsys):
    solutions, exercises = course
    assert main([str(solutions), str(exercises)]) == 0
    assert main(["--check", str(solutions), str(exercises)]) == 0
    (exercises / "01-demo.ipynb").write_text("{}", encoding="utf-8")
    assert main(["--check", str(solutions), str(exercises)]) == 1
    assert "01-demo.ipynb: differs" in capsys.readouterr().out


def test_command_line_reports_bad_markers(course, capsys):
    solutions, exercises = course
    nb = nbformat.read(solutions / "00-demo.ipynb", as_version=4)
    cell_by_id(nb, "exercise-2").source += "\n    ### END SOLUTION"
    write_notebook(nb, solutions / "00-demo.ipynb")
    assert main([str(solutions), str(exercises)]) == 1
    assert "error: 00-demo.ipynb, cell 8, line 6: '### END SOLUTION' without" in capsys.readouterr().err
