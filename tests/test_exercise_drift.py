"""The committed exercises are exactly what `make exercises` generates from the solutions."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from sudoku_course.teaching.authoring import generate_exercises, stub_count

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))


def name(path: Path) -> str:
    return path.name


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> Path:
    """A fresh generation of every exercise, in a temporary folder."""
    folder = tmp_path_factory.mktemp("exercises")
    generate_exercises(ROOT / "solutions", folder)
    return folder


def test_solutions_and_exercises_hold_the_same_names():
    assert [p.name for p in SOLUTIONS] == [p.name for p in EXERCISES], "run `make exercises`"


@pytest.mark.parametrize("solution", SOLUTIONS, ids=name)
def test_committed_exercise_is_byte_identical_to_generation(solution, regenerated):
    committed = ROOT / "exercises" / solution.name
    assert committed.is_file(), f"{committed} is missing: run `make exercises`"
    assert committed.read_bytes() == (regenerated / solution.name).read_bytes(), "run `make exercises`"


@pytest.mark.parametrize("exercise", EXERCISES, ids=name)
def test_each_exercise_has_a_stub(exercise):
    assert stub_count(nbformat.read(exercise, as_version=4)) >= 1
