"""Conflict counting: the one cost every lesson uses.

For a full grid, conflicts = sum over rows, columns and boxes of
(n - number of distinct values). An empty cell holds no value, so on a
partial grid each empty cell also counts as a missing digit of its units.

`ConflictTable` keeps the digit counts of every unit of a full grid so that
the cost change of swapping two cells is found in constant time, without
recounting the whole grid.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .grid import SudokuGrid, layout

UNIT_KINDS = ("rows", "columns", "boxes")


def _distinct(units: np.ndarray, n: int) -> int:
    """Sum over the rows of `units` of the number of distinct non-zero values."""
    present = np.zeros((units.shape[0], n + 1), dtype=bool)
    present[np.arange(units.shape[0])[:, None], units] = True
    return int(present[:, 1:].sum())


def _units_by_kind(grid: SudokuGrid) -> dict[str, np.ndarray]:
    """The grid's units as arrays, one unit per row: {"rows": .., "columns": .., "boxes": ..}."""
    return dict(zip(UNIT_KINDS, (grid.cells, grid.cells.T, grid.box_array()), strict=True))


def unit_conflicts(grid: SudokuGrid) -> dict[str, int]:
    """Conflicts per kind of unit: {"rows": .., "columns": .., "boxes": ..}."""
    n = grid.size
    return {kind: n * n - _distinct(units, n) for kind, units in _units_by_kind(grid).items()}


def conflicts(grid: SudokuGrid) -> int:
    """Total conflicts of the grid (0 exactly when it is solved)."""
    return sum(unit_conflicts(grid).values())


def conflicts_of_many(grids: np.ndarray, box_size: int) -> np.ndarray:
    """Conflicts of many full grids at once: shape (count, n, n) or (count, n * n) -> (count,).

    The same numbers as `conflicts`, computed for a whole population with a few
    numpy operations instead of one Python call per grid.
    """
    units = _unit_indices(box_size)  # 3n units x n flat cell indices
    values = np.asarray(grids).reshape(len(grids), -1)[:, units]  # grids x units x cells
    present = np.zeros((*values.shape[:2], box_size**2 + 1), dtype=bool)
    np.put_along_axis(present, values, True, axis=2)  # present[g, u, d]: digit d appears in unit u
    return units.size - present[:, :, 1:].sum(axis=(1, 2))


@cache
def _unit_indices(box_size: int) -> np.ndarray:
    return np.array(layout(box_size).units)


def weighted_conflicts(grid: SudokuGrid, weights: dict[str, float] | None = None) -> float:
    """Sum of weight[kind] * conflicts of that kind; a kind left out weighs 1."""
    weights = weights or {}
    unknown = sorted(set(weights) - set(UNIT_KINDS))
    if unknown:
        raise ValueError(f"unknown unit kind(s) {unknown} in weights; expected some of {list(UNIT_KINDS)}")
    return sum(weights.get(kind, 1) * count for kind, count in unit_conflicts(grid).items())


def givens_conflicts(grid: SudokuGrid) -> int:
    """Duplicated digits of a partial grid: per unit, filled cells minus distinct digits, summed."""
    n = grid.size
    return sum(int((units != 0).sum()) - _distinct(units, n) for units in _units_by_kind(grid).values())


class ConflictTable:
    """Digit counts of every row, column and box of a full grid, for O(1) swap deltas.

    The cost is the number of (unit, digit) pairs whose count is 0, which is
    the same number as `conflicts(grid)`. Swapping two cells that hold a and b
    only changes the units that contain one cell but not the other: such a
    unit loses one a and gains one b (or the reverse). So a swap's delta reads
    at most 12 counts, whatever the size of the grid.

    The counts live in plain Python lists, not numpy arrays: reading one
    element of a numpy array creates a numpy scalar object, which is several
    times slower than reading a list. Numpy pays off on whole arrays; this
    code reads a handful of single numbers per move.
    """

    def __init__(self, grid: SudokuGrid) -> None:
        if not grid.is_complete():
            raise ValueError(f"ConflictTable needs a full grid; this one has {grid.empty_count} empty cells")
        n = self.size = grid.size
        box_of = grid.layout.box_of
        self.cells: list[int] = grid.cells.ravel().tolist()
        # counts[unit][digit]: how many cells of that unit hold that digit, for each kind of unit.
        rows, columns, boxes = ([[0] * (n + 1) for _ in range(n)] for _ in UNIT_KINDS)
        # For each cell, the counts of its row, its column and its box (the same list objects).
        self._unit_counts = [(rows[r], columns[c], boxes[box_of(r, c)]) for r in range(n) for c in range(n)]
        for cell, value in enumerate(self.cells):
            for counts in self._unit_counts[cell]:
                counts[value] += 1
        self.cost = sum(counts[1:].count(0) for counts in rows + columns + boxes)

    def delta_swap_cells(self, i: int, j: int) -> int:
        """Cost change if flat cells i and j swapped their values (nothing is changed)."""
        a, b = self.cells[i], self.cells[j]
        if a == b:
            return 0
        units_i, units_j = self._unit_counts[i], self._unit_counts[j]
        delta = 0
        for kind in range(3):  # row, column, box
            counts_i, counts_j = units_i[kind], units_j[kind]
            if counts_i is not counts_j:  # a unit holding both cells keeps the same digits
                # In the unit of i an `a` becomes `b`, in the unit of j a `b` becomes `a`. Losing the
                # last copy of a digit makes it missing (+1); bringing its first copy back fixes it (-1).
                delta += (counts_i[a] == 1) - (counts_i[b] == 0) + (counts_j[b] == 1) - (counts_j[a] == 0)
        return delta

    def swap_cells(self, i: int, j: int) -> None:
        """Swap the values of flat cells i and j, updating the counts and the cost."""
        a, b = self.cells[i], self.cells[j]
        self.cost += self.delta_swap_cells(i, j)
        for counts_i, counts_j in zip(self._unit_counts[i], self._unit_counts[j], strict=True):
            if counts_i is not counts_j:
                _replace(counts_i, a, b)
                _replace(counts_j, b, a)
        self.cells[i], self.cells[j] = b, a

    def in_conflict(self, cell: int) -> bool:
        """True if the digit of flat cell `cell` also appears elsewhere in its row, its column or its box."""
        digit = self.cells[cell]
        row, column, box = self._unit_counts[cell]
        return row[digit] > 1 or column[digit] > 1 or box[digit] > 1

    def delta_swap(self, r: int, c1: int, c2: int) -> int:
        """Cost change if cells (r, c1) and (r, c2) of row r swapped their values."""
        return self.delta_swap_cells(r * self.size + c1, r * self.size + c2)

    def swap(self, r: int, c1: int, c2: int) -> None:
        """Swap cells (r, c1) and (r, c2) of row r."""
        self.swap_cells(r * self.size + c1, r * self.size + c2)

    def to_grid(self, puzzle: SudokuGrid) -> SudokuGrid:
        """The current cells as a grid with the puzzle's givens."""
        return puzzle.with_cells(np.reshape(self.cells, (self.size, self.size)))


def _replace(unit_counts: list[int], old: int, new: int) -> None:
    """Record in one unit's counts that an `old` digit became `new`."""
    unit_counts[old] -= 1
    unit_counts[new] += 1
