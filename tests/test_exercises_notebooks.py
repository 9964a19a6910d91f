"""Every exercise notebook runs to the end with its stubs, with a broken answer everywhere, and with every
function returning None (the commonest bug: a forgotten `return`).

Each run executes a copy in a temporary folder. A first cell shortens the time limits (0.3 s per case,
2 s per experiment) so that the answers that loop forever cost little.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell

from sudoku_course.teaching.authoring import CHECK_TAG, STUB_RAISE
from sudoku_course.teaching.notebooks import execute_notebook, tags

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
NOTEBOOKS = sorted(path.name for path in EXERCISES.glob("*.ipynb"))
BROKEN = [
    'raise ValueError("réponse cassée")',
    "return object()",
    'return sum(__import__("itertools").count())',
]
SHORT_LIMITS = """import dataclasses

from sudoku_course.teaching import experiments
from sudoku_course.teaching.exercises import REGISTRY, load_all

experiments.DEFAULT_TIME_LIMIT = 2.0
for name, item in list(load_all().items()):
    REGISTRY[name] = dataclasses.replace(item, time_limit=0.3)"""


def break_every_answer(nb: nbformat.NotebookNode, answers: list[str] = BROKEN) -> int:
    """Replace each stub by a broken answer, in turn one of `answers`; return how many were replaced."""
    count = 0
    for cell in nb.cells:
        while cell.cell_type == "code" and STUB_RAISE in cell.source:
            cell.source = cell.source.replace(STUB_RAISE, answers[count % len(answers)], 1)
            count += 1
    return count


def run(nb: nbformat.NotebookNode, folder: Path, name: str) -> nbformat.NotebookNode:
    """Execute a copy of `nb` with short time limits; the executed notebook."""
    nb.cells.insert(0, new_code_cell(SHORT_LIMITS))
    path = folder / name
    nbformat.write(nb, path)
    outcome = execute_notebook(path)
    assert outcome.ok, outcome.error
    return nbformat.read(path, as_version=4)


def check_outputs(nb: nbformat.NotebookNode) -> list[str]:
    """The text each check cell printed."""
    texts = []
    for cell in nb.cells:
        if CHECK_TAG in tags(cell):
            texts.append("".join(output.get("data", {}).get("text/plain", "") for output in cell.outputs))
    return texts


def printed(nb: nbformat.NotebookNode) -> str:
    return "".join(output.get("text", "") for cell in nb.cells if cell.cell_type == "code" for output in cell.outputs)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_with_every_stub_each_check_says_not_done(name, tmp_path, not_strict):
    nb = run(nbformat.read(EXERCISES / name, as_version=4), tmp_path, name)
    outputs = check_outputs(nb)
    assert outputs and all("pas encore fait" in text for text in outputs), outputs


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_with_a_broken_answer_everywhere_each_check_reports_a_failure(name, tmp_path, not_strict):
    nb = nbformat.read(EXERCISES / name, as_version=4)
    assert break_every_answer(nb) >= len(BROKEN) - 1
    nb = run(nb, tmp_path, name)
    outputs = check_outputs(nb)
    assert outputs and all("Vérification de" in text for text in outputs), outputs
    assert not any("bravo" in text or "pas encore fait" in text for text in outputs), outputs
    if "00" not in name:  # lessons 01 to 04 run the student's functions in experiments
        text = printed(nb)
        assert "sautée : votre code a levé" in text and "abandonnée : pas de résultat après 2 s" in text


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_with_every_function_returning_none_the_notebook_runs_to_the_end(name, tmp_path, not_strict):
    nb = nbformat.read(EXERCISES / name, as_version=4)
    assert break_every_answer(nb, ["return None"]) >= 1
    nb = run(nb, tmp_path, name)
    outputs = check_outputs(nb)
    assert outputs and all("Vérification de" in text and "bravo" not in text for text in outputs), outputs
    if "00" not in name:  # lessons 01 to 04 run the student's functions in experiments
        text = printed(nb)
        assert "non faite" in text and "a renvoyé None" in text, text
