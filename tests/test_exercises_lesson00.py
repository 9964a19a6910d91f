"""Lesson 00 exercises: the references pass, plausible wrong answers fail without seeing the expected value."""

from __future__ import annotations

import pytest

from sudoku_course.grid import SudokuGrid
from sudoku_course.teaching.exercises import lesson_exercises
from sudoku_course.teaching.exercises.common import temoin, temoin_solution
from sudoku_course.teaching.exercises.lesson00 import references

REFERENCES = {"box_index": references.box_index, "is_valid_solution": references.is_valid_solution}


def test_every_exercise_of_the_lesson_is_tested_here():
    assert [item.name for item in lesson_exercises("00-environnement")] == list(REFERENCES)


def test_the_temoin_solution_solves_the_temoin():
    assert temoin_solution().is_solved()
    assert (temoin_solution().cells[temoin().givens] == temoin().cells[temoin().givens]).all()


@pytest.mark.parametrize("name", REFERENCES)
def test_the_reference_passes(name, passes):
    passes(name, REFERENCES[name])


def student_is_valid_solution(grid: SudokuGrid, puzzle: SudokuGrid | None = None) -> bool:
    """A right answer written another way, with numpy arrays and boxes sliced by hand."""
    n, b = grid.size, grid.box_size
    boxes = [grid.cells[r : r + b, c : c + b].ravel() for r in range(0, n, b) for c in range(0, n, b)]
    units = [*grid.cells, *grid.cells.T, *boxes]
    if any(sorted(unit.tolist()) != list(range(1, n + 1)) for unit in units):
        return False
    return puzzle is None or bool((grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all())


def test_another_right_answer_passes(passes):
    passes("is_valid_solution", student_is_valid_solution)
    passes("box_index", lambda row, col, box_size=3: box_size * (row // box_size) + (col // box_size))


WRONG_BOX_INDEX = {
    "columns of boxes first": lambda row, col, box_size=3: (col // box_size) * box_size + row // box_size,
    "hard-coded 3": lambda row, col, box_size=3: (row // 3) * 3 + col // 3,
    "forgets the width of a band": lambda row, col, box_size=3: row // box_size + col // box_size,
    "numbered from 1": lambda row, col, box_size=3: (row // box_size) * box_size + col // box_size + 1,
    "a float": lambda row, col, box_size=3: float((row // box_size) * box_size + col // box_size),
}


def rows_only(grid, puzzle=None):
    return all(set(row) == set(range(1, grid.size + 1)) for row in grid.cells.tolist())


def ignores_givens(grid, puzzle=None):
    return student_is_valid_solution(grid)


def sums_to_45(grid, puzzle=None):
    return all(sum(int(grid.cells[r, c]) for r, c in unit) == 45 for unit in grid.units)


def no_conflict_only(grid, puzzle=None):
    """Looks for repeated digits but forgets that a solution has no empty cell."""
    kept = puzzle is None or bool((grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all())
    return not grid.conflicting_cells().any() and kept


def hard_coded_nine(grid, puzzle=None):
    digits = set(range(1, 10))
    return all({int(grid.cells[r, c]) for r, c in unit} == digits for unit in grid.units) and (
        puzzle is None or bool((grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all())
    )


def scribbles_on_its_input(grid, puzzle=None):
    answer = student_is_valid_solution(grid, puzzle)
    grid.cells[:] = 0
    return answer


def givens_of_the_grid(grid, puzzle=None):
    """Compares the givens where the grid marks them, instead of where the puzzle does."""
    valid = student_is_valid_solution(grid)
    return valid and (puzzle is None or bool((grid.cells[grid.givens] == puzzle.cells[grid.givens]).all()))


def returns_an_int(grid, puzzle=None):
    return int(student_is_valid_solution(grid, puzzle))


WRONG_IS_VALID = {
    "rows only": rows_only,
    "ignores the givens": ignores_givens,
    "sums to 45": sums_to_45,
    "forgets empty cells": no_conflict_only,
    "hard-coded 9": hard_coded_nine,
    "mutates its input": scribbles_on_its_input,
    "the grid's givens, not the puzzle's": givens_of_the_grid,
    "an int, not a bool": returns_an_int,
}


@pytest.mark.parametrize("wrong", WRONG_BOX_INDEX.values(), ids=WRONG_BOX_INDEX)
def test_wrong_box_index_fails(wrong, fails_without_leak):
    fails_without_leak("box_index", wrong)


@pytest.mark.parametrize("wrong", WRONG_IS_VALID.values(), ids=WRONG_IS_VALID)
def test_wrong_is_valid_solution_fails(wrong, fails_without_leak):
    fails_without_leak("is_valid_solution", wrong)


def test_a_mutated_input_is_named_in_the_verdict(fails_without_leak):
    report = fails_without_leak("is_valid_solution", scribbles_on_its_input)
    assert "une grille reçue a été modifiée" in report.details[0].detail
