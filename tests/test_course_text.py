"""The committed lessons and solutions as a student reads them: every figure an interpretation reads is printed
above it, few « see the third line » pointers, a stated duration no shorter than the computed one, an essential
path that fits a session, and one term per notion (the glossary's retired variants never appear)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from sudoku_course.teaching.durations import SESSION_MINUTES, durations, stated_durations
from sudoku_course.teaching.prose import pointing_phrases, unquoted_figures

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
MAX_POINTING_PHRASES = 10
RETIRED_TERMS = ("ruche", "organismes", "GA (lignes)")


def student_text(path: Path) -> str:
    """The markdown and the text outputs of a notebook (no images), as one string."""
    notebook = nbformat.read(path, as_version=4)
    parts = []
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            parts.append(cell.source)
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            parts.extend(str(value) for kind, value in output.get("data", {}).items() if kind.startswith("text/"))
    return "\n".join(parts)


def test_there_are_five_lessons_and_five_solutions():
    assert len(LESSONS) == len(SOLUTIONS) == 5


@pytest.mark.parametrize("path", LESSONS + SOLUTIONS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_interpreted_figure_is_printed_above_it(path):
    assert [str(item) for item in unquoted_figures(path)] == []


def test_pointing_phrases_are_few_across_the_course():
    assert sum(pointing_phrases(path) for path in LESSONS + SOLUTIONS) <= MAX_POINTING_PHRASES


@pytest.mark.parametrize("path", LESSONS, ids=lambda path: path.name)
def test_the_stated_duration_is_no_shorter_than_the_computed_one(path):
    computed, stated = durations(path), stated_durations(path)
    assert stated, f"{path.name} has no « **Durée.** » line"
    assert stated["parcours essentiel"] >= computed.essential_path
    assert stated["lecture"] >= computed.essential_reading
    assert stated["exercices essentiels"] >= computed.essential_exercises
    assert stated["tout compris"] >= computed.everything


@pytest.mark.parametrize("path", LESSONS, ids=lambda path: path.name)
def test_the_essential_path_fits_a_session(path):
    assert durations(path).essential_path <= SESSION_MINUTES


@pytest.mark.parametrize("path", LESSONS + SOLUTIONS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_retired_terms_never_appear(path):
    text = student_text(path).casefold()
    assert [term for term in RETIRED_TERMS if term.casefold() in text] == []
