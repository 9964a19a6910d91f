"""Hill climbing by swaps, the local search that memetic variants add to a population method.

A memetic algorithm alternates a global search (a swarm, a population) with a
local search that polishes one grid. Here the local search swaps two free cells
of the same group (a row or a box), so a grid whose rows (or boxes) are
permutations keeps that property. Each swap's cost change comes from a
`ConflictTable` in constant time.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ..cost import ConflictTable
from ..grid import SudokuGrid
from .base import RunLedger

GROUP_KINDS = ("rows", "boxes")


def free_cell_groups(puzzle: SudokuGrid, kind: str = "rows") -> list[list[int]]:
    """Flat indices of the free (non-given) cells of each row or box, leaving out groups of fewer than 2 cells."""
    if kind not in GROUP_KINDS:
        raise ValueError(f"unknown group kind {kind!r}; expected one of {list(GROUP_KINDS)}")
    units = puzzle.layout.rows if kind == "rows" else puzzle.layout.boxes
    givens = puzzle.givens.ravel()
    groups = [[cell for cell in unit if not givens[cell]] for unit in units]
    return [group for group in groups if len(group) >= 2]


def hill_climb(
    table: ConflictTable,
    groups: Sequence[Sequence[int]],
    run: RunLedger | None = None,
    candidates: Sequence[int] | None = None,
) -> int:
    """Swap cells inside the groups while some swap lowers the cost; return the number of swaps made.

    First improvement: every pair of each group is tried in turn, and a swap
    that lowers the cost is made at once. The climb ends after a full pass
    without improvement (a local optimum) or at cost 0. `table` is modified in
    place. Each swap tried counts as one evaluation of `run`, and the climb
    stops early once the run's budget is spent. With `candidates` (one mask per
    flat cell, bit d set when digit d is allowed), swaps that would put a digit
    outside its cell's candidates are skipped, uncounted.
    """
    swaps = 0
    improved = table.cost > 0
    cells = table.cells
    while improved:
        improved = False
        for group in groups:
            for i, j in combinations(group, 2):
                if candidates is not None and not (candidates[i] >> cells[j]) & (candidates[j] >> cells[i]) & 1:
                    continue
                if run is not None:
                    if run.exhausted():
                        return swaps
                    run.count()
                if table.delta_swap_cells(i, j) < 0:
                    table.swap_cells(i, j)
                    swaps += 1
                    improved = True
                    if table.cost == 0:
                        return swaps
    return swaps
