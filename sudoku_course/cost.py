"""Conflict counting: the one cost every lesson uses.

For a full grid, conflicts = sum over rows, columns and boxes of
(n - number of distinct values). An empty cell holds no value, so on a
partial grid each empty cell also counts as a missing digit of its units.
"""

from __future__ import annotations

import numpy as np

from .grid import SudokuGrid

UNIT_KINDS = ("rows", "columns", "boxes")


def _missing(units: np.ndarray, n: int) -> int:
    """Sum over the rows of `units` of (n - distinct non-zero values)."""
    present = np.zeros((units.shape[0], n + 1), dtype=bool)
    present[np.arange(units.shape[0])[:, None], units] = True
    return int(n * units.shape[0] - present[:, 1:].sum())


def unit_conflicts(grid: SudokuGrid) -> dict[str, int]:
    """Conflicts per kind of unit: {"rows": .., "columns": .., "boxes": ..}."""
    n = grid.size
    return {
        kind: _missing(units, n)
        for kind, units in zip(UNIT_KINDS, (grid.cells, grid.cells.T, grid.box_array()), strict=True)
    }


def conflicts(grid: SudokuGrid) -> int:
    """Total conflicts of the grid (0 exactly when it is solved)."""
    return sum(unit_conflicts(grid).values())
