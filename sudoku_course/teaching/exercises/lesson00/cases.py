"""Lesson 00 (the grid): the cases of `box_index` and `is_valid_solution`, and their judges."""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np

from ....grid import SudokuGrid
from .. import Case, Plain, plain
from ..common import (
    SMALL_SOLUTION,
    boolean,
    box_of,
    calling,
    inputs_after,
    integer,
    shuffled_solution,
    temoin_solution,
    unchanged,
)

# ------------------------------------------------------------ box_index
PUBLIC_CELLS = [
    ("case (0, 0) : le premier bloc", 0, 0, 3),
    ("case (0, 8) : dernier bloc de la première bande", 0, 8, 3),
    ("case (4, 4) : le bloc central", 4, 4, 3),
    ("case (8, 0) : premier bloc de la dernière bande", 8, 0, 3),
    ("case (5, 6) : les blocs se numérotent bande par bande", 5, 6, 3),
    ("case (8, 8) : le dernier bloc", 8, 8, 3),
    ("grille 4 x 4 (box_size = 2), case (3, 1)", 3, 1, 2),
    ("grille 16 x 16 (box_size = 4), case (9, 13)", 9, 13, 4),
]


def revealing_cell(rng: np.random.Generator, box_size: int) -> tuple[int, int]:
    """A random cell whose box changes if rows and columns are swapped, or if the box size is taken as 3."""
    while True:
        row, col = (int(x) for x in rng.integers(box_size * box_size, size=2))
        box = box_of(row, col, box_size)
        if row // box_size >= 1 and box != box_of(col, row, box_size) and (box_size == 3 or box != box_of(row, col, 3)):
            return row, col


def box_index_cases(seed: int | None) -> list[Case]:
    """The cells above, or for a seed: four cells of a 9 x 9 grid, one of a 4 x 4 and one of a 16 x 16 grid."""
    cells = PUBLIC_CELLS
    if seed is not None:
        rng = np.random.default_rng(seed)
        cells = []
        for box_size in (3, 3, 3, 3, 2, 4):
            row, col = revealing_cell(rng, box_size)
            size = box_size * box_size
            cells.append((f"grille {size} x {size} (box_size = {box_size}), case ({row}, {col})", row, col, box_size))
    return [
        Case(
            label,
            calling(row, col, box_size=box_size),
            integer,
            agree=lambda out, ref: out == ref,
            disagree="ce n'est pas le numéro du bloc de cette case (blocs numérotés à partir de 0, bande par bande)",
        )
        for label, row, col, box_size in cells
    ]


# ------------------------------------------------------------ is_valid_solution
def validating(grid: SudokuGrid, puzzle: SudokuGrid | None = None) -> Callable[..., Plain]:
    """A call: the answer on copies of the grids, and the copies as they are after the call (plain data,
    compared with the grids by the judge, outside the student's process)."""

    def call(function: Callable) -> Plain:
        grids = copy.deepcopy((grid,) if puzzle is None else (grid, puzzle))
        answer = plain(function(*grids))
        return {"answer": answer, "after": inputs_after(*grids)}

    return call


def answer_judge(grid: SudokuGrid, puzzle: SudokuGrid | None = None) -> Callable[[Plain], str | None]:
    """Judge: the grids must come back unchanged and the answer be a boolean."""
    grids = (grid,) if puzzle is None else (grid, puzzle)

    def judge(output: Plain) -> str | None:
        if not unchanged(output["after"], *grids):
            return "une grille reçue a été modifiée : une vérification ne doit rien changer"
        return boolean(output["answer"])

    return judge


def with_swap(grid: SudokuGrid, first: tuple[int, int], second: tuple[int, int]) -> SudokuGrid:
    """A copy of `grid` (same givens) whose cells `first` and `second` are swapped."""
    cells = grid.cells.copy()
    cells[first], cells[second] = cells[second], cells[first]
    return SudokuGrid(cells, grid.box_size, grid.givens)


def is_valid_solution_cases(seed: int | None) -> list[Case]:
    """Right and wrong grids built from the témoin's solution (for a seed: from a shuffled copy of it)."""
    rng = np.random.default_rng(seed)
    solution = temoin_solution() if seed is None else shuffled_solution(rng)
    puzzle = SudokuGrid(np.where(solution.givens, solution.cells, 0), 3, solution.givens)
    small = SudokuGrid.from_string(SMALL_SOLUTION)
    n = solution.size
    rows, cols = np.indices((n, n))
    row, band_column = (0, 3) if seed is None else (int(rng.integers(n)), 3 * int(rng.integers(3)))
    column, band_row = (1, 0) if seed is None else (int(rng.integers(n)), 3 * int(rng.integers(3)))
    free = np.argwhere(~solution.givens)
    emptied = solution.cells.copy()
    emptied[tuple(free[0 if seed is None else rng.integers(len(free))])] = 0
    shift = 1 if seed is None else int(rng.integers(1, n))
    relabelled = SudokuGrid((solution.cells + shift - 1) % n + 1)  # every digit d becomes d + shift (mod n)
    if seed is not None:
        small = SudokuGrid(rng.permutation(4)[small.cells - 1] + 1)
    grids = [
        ("la solution du témoin, avec sa grille de départ", solution, puzzle),
        ("la même solution, sans grille de départ", solution, None),
        ("une grille 4 x 4 résolue (la taille se lit dans la grille)", small, None),
        (
            "deux chiffres échangés dans une ligne et un bloc (deux colonnes ont un doublon)",
            with_swap(solution, (row, band_column), (row, band_column + 1)),
            None,
        ),
        (
            "deux chiffres échangés dans une colonne et un bloc (deux lignes ont un doublon)",
            with_swap(solution, (band_row, column), (band_row + 1, column)),
            None,
        ),
        ("lignes et colonnes correctes, mais les blocs ont des doublons", SudokuGrid((rows + cols) % n + 1), None),
        ("chaque ligne, colonne et bloc a pour somme 45, avec des répétitions", SudokuGrid(np.full((n, n), 5)), None),
        ("une case est restée vide", SudokuGrid(emptied, 3, solution.givens), puzzle),
        ("une grille résolue qui ne respecte pas les chiffres donnés", relabelled, puzzle),
        ("la même grille, sans grille de départ (elle est correcte)", relabelled, None),
        (
            "une grille résolue sans chiffre donné marqué, qui ne respecte pas ceux de la grille de départ",
            SudokuGrid(relabelled.cells, 3, np.zeros((n, n), dtype=bool)),
            puzzle,
        ),
    ]
    return [
        Case(
            label,
            validating(grid, given),
            answer_judge(grid, given),
            agree=lambda out, ref: out["answer"] is ref["answer"],
            disagree="la réponse ne convient pas pour cette grille",
        )
        for label, grid, given in grids
    ]
