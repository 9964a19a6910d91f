"""Lesson 00 (the grid): the exercises `box_index` and `is_valid_solution`, registered.

`references` holds the answers (never inside the grader's sandbox), `cases` the cases and their judges.
"""

from __future__ import annotations

from .. import Exercise, register
from . import cases

LESSON = "00-environnement"
REFERENCES = f"{__name__}.references"

register(
    Exercise(
        name="box_index",
        lesson=LESSON,
        functions=("box_index",),
        reference_module=REFERENCES,
        make_cases=cases.box_index_cases,
        answers=("sudoku_course.grid.Layout.box_of",),
        level="échauffement",
        minutes=5,
    )
)
register(
    Exercise(
        name="is_valid_solution",
        lesson=LESSON,
        functions=("is_valid_solution",),
        reference_module=REFERENCES,
        make_cases=cases.is_valid_solution_cases,
        answers=("sudoku_course.grid.SudokuGrid.is_solved",),
        level="intermédiaire",
        minutes=15,
    )
)
