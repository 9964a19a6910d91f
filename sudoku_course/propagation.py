"""Constraint propagation: candidates as bitmasks, naked and hidden singles, propagated candidates.

Each cell keeps a bitmask of the digits still possible there (bit d - 1 set means
digit d is possible), and two deductions are repeated until neither applies:

- naked single: a cell with one candidate removes it from its peers;
- hidden single: a digit possible in only one cell of a unit goes there.

The exact solver (`solvers.exact`) searches on top of these deductions; the banks
(`puzzles.open_cells`) and the restricted representations of the metaheuristics
(`spaces`, `solvers.annealing`, `solvers.genetic`, `solvers.swarm`) use the
candidates they leave, through `propagated_candidates` and `fixed_by_candidates`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .grid import InvalidPuzzleError, Layout, SudokuGrid, as_grid

Candidates = list[int]
"""One bitmask per cell (flat index row * n + column): bit d - 1 set means digit d is possible."""


class Propagator:
    """Naked and hidden singles on the candidate bitmasks of one layout (grid size and units)."""

    def __init__(self, layout: Layout) -> None:
        self.peers = layout.peers
        self.units = layout.units
        self.full = (1 << layout.size) - 1

    def initial(self, values: list[int]) -> tuple[Candidates, list[int]]:
        """Candidates of a flat list of values (0 = empty), and the filled cells still to propagate."""
        candidates = [1 << (v - 1) if v else self.full for v in values]
        return candidates, [cell for cell, v in enumerate(values) if v]

    def propagate(self, candidates: Candidates, fixed: list[int]) -> bool:
        """Apply naked and hidden singles in place until stable; False on a contradiction.

        `fixed` lists the cells that became single and whose digit must still be removed from their peers.
        """
        while fixed:
            if not self._naked_singles(candidates, fixed):
                return False
            fixed = self._hidden_singles(candidates)
            if fixed is None:
                return False
        return True

    def _naked_singles(self, candidates: Candidates, fixed: list[int]) -> bool:
        """Remove the digit of every cell of `fixed` from its peers, and so on for the peers that become single;
        False on a contradiction (a cell left without a candidate)."""
        peers = self.peers
        for cell in fixed:  # this loop also visits the peers appended to `fixed` below
            bit = candidates[cell]
            for peer in peers[cell]:
                mask = candidates[peer]
                if mask & bit:
                    mask ^= bit
                    if not mask:
                        return False
                    candidates[peer] = mask
                    if not mask & (mask - 1):
                        fixed.append(peer)
        return True

    def _hidden_singles(self, candidates: Candidates) -> list[int] | None:
        """Place every digit that has one possible cell in a unit; return the cells placed, None on a contradiction."""
        placed, full = [], self.full
        for unit in self.units:
            once = twice = settled = 0
            for cell in unit:
                mask = candidates[cell]
                twice |= once & mask
                once |= mask
                if not mask & (mask - 1):
                    settled |= mask  # a digit already placed in this unit
            if once != full:
                return None  # some digit has no place left in this unit
            hidden = once & ~twice & ~settled  # digits with one possible cell, not yet placed there
            if not hidden:
                continue  # most units, once most digits are placed: the second pass is skipped
            for cell in unit:
                forced = candidates[cell] & hidden
                if forced:
                    if forced & (forced - 1):
                        return None  # one cell is the only place for two digits
                    candidates[cell] = forced
                    placed.append(cell)
        return placed


def propagate(puzzle) -> Candidates | None:
    """Candidates of every flat cell after naked and hidden singles (bit d - 1 set: digit d possible).

    None if the deductions reach a contradiction, i.e. the puzzle has no solution.
    """
    grid = as_grid(puzzle)
    propagator = Propagator(grid.layout)
    candidates, fixed = propagator.initial(grid.cells.ravel().tolist())
    return candidates if propagator.propagate(candidates, fixed) else None


def propagated_candidates(puzzle) -> list[int]:
    """Candidates of every flat cell after naked and hidden singles, as masks with bit d set when digit d is
    possible (bit 0 unused, unlike `propagate`): the restricted representations of the metaheuristics.

    Raises InvalidPuzzleError if the deductions reach a contradiction (the puzzle has no solution).
    """
    masks = propagate(puzzle)
    if masks is None:
        raise InvalidPuzzleError(
            "the puzzle has no solution: constraint propagation reached a contradiction", "no-solution"
        )
    return [mask << 1 for mask in masks]  # bit d - 1 becomes bit d


def fixed_by_candidates(puzzle: SudokuGrid, candidates: Sequence[int]) -> SudokuGrid:
    """The puzzle with every cell that has a single candidate filled and treated as a given
    (`candidates` as `propagated_candidates` gives them: bit d set when digit d is possible)."""
    digits = [mask.bit_length() - 1 if (mask & (mask - 1)) == 0 else 0 for mask in candidates]
    cells = np.where(puzzle.cells.ravel() != 0, puzzle.cells.ravel(), digits)
    return SudokuGrid(cells.reshape(puzzle.cells.shape), puzzle.box_size)
