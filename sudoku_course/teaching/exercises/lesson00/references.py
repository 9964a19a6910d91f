"""Lesson 00 (the grid): the reference answers. Never inside the grader's sandbox (see the registry's package)."""

from __future__ import annotations

import numpy as np

from ....grid import SudokuGrid


def box_index(row: int, col: int, box_size: int = 3) -> int:
    """Reference: number of the box holding (row, col), boxes numbered left to right, then top to bottom."""
    return (row // box_size) * box_size + col // box_size


def is_valid_solution(grid: SudokuGrid, puzzle: SudokuGrid | None = None) -> bool:
    """Reference: True if every unit of `grid` holds 1..n once and the givens of `puzzle` (if any) are kept."""
    digits = set(range(1, grid.size + 1))
    if any({int(grid.cells[r, c]) for r, c in unit} != digits for unit in grid.units):
        return False
    return puzzle is None or bool(np.array_equal(grid.cells[puzzle.givens], puzzle.cells[puzzle.givens]))
