"""Search spaces: the representations of a Sudoku candidate that the lessons compare.

A space turns a puzzle into a vector of numbers, one per free cell (a cell
that is not a given). Every space offers the same methods: draw a random
candidate, decode it into a grid (the givens are never touched), encode a
full grid back, make a neighbour one move away, check the space's
invariant, and give the cost (conflicts of the decoded grid).

- CellSpace: one digit per free cell; no invariant beyond 1..n.
- RowPermutationSpace: each row's free cells hold a permutation of the row's
  missing digits, so rows never conflict; a move swaps two free cells of a row.
- BoxPermutationSpace: the same, box by box.
- ContinuousSpace: one real per free cell in [1, n + 1), decoded by floor.
- RandomKeySpace: one real key per free cell in [0, 1); each row's missing
  digits go to its free cells in the order of their keys, so rows never conflict.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable

import numpy as np

from .cost import conflicts
from .grid import SudokuGrid, as_grid


class Space(ABC):
    """A representation of the candidates of one puzzle, and its moves."""

    def __init__(self, puzzle: SudokuGrid) -> None:
        self.puzzle = as_grid(puzzle)
        self.puzzle.check_givens()
        self.free_cells = self._order_free_cells()
        self.dimension = len(self.free_cells)

    def _order_free_cells(self) -> np.ndarray:
        """Flat indices of the cells that are not givens, in the order of the candidate (row-major here)."""
        return np.flatnonzero(~self.puzzle.givens)

    # ------------------------------------------------------------ interface
    @abstractmethod
    def random(self, rng: np.random.Generator) -> np.ndarray:
        """A random candidate that satisfies the space's invariant."""

    @abstractmethod
    def neighbour(self, candidate: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """A new candidate one move away; the argument is left unchanged."""

    @abstractmethod
    def is_valid(self, candidate: np.ndarray) -> bool:
        """True if the candidate has the right length and satisfies the space's invariant."""

    def _digits(self, candidate: np.ndarray) -> np.ndarray:
        """The digit of each free cell, in the order of free_cells (here the candidate holds the digits)."""
        return candidate.astype(np.int64)

    def _from_digits(self, digits: np.ndarray) -> np.ndarray:
        """A candidate whose free cells decode to `digits` (here the digits themselves)."""
        return digits.astype(np.int64)

    # --------------------------------------------------------------- shared
    def decode(self, candidate: np.ndarray) -> SudokuGrid:
        """The puzzle with its free cells filled from the candidate; givens kept."""
        cells = self.puzzle.cells.ravel().copy()
        cells[self.free_cells] = self._digits(self._checked(candidate))
        return self.puzzle.with_cells(cells.reshape(self.puzzle.cells.shape))

    def encode(self, grid: SudokuGrid) -> np.ndarray:
        """The candidate of a full grid that agrees with the givens (decode(encode(grid)) == grid)."""
        self._check_fits(grid)
        digits = grid.cells.ravel()[self.free_cells]
        candidate = self._from_digits(digits)
        if not (self.is_valid(candidate) and np.array_equal(self._digits(candidate), digits)):
            raise ValueError(f"this grid breaks the invariant of {type(self).__name__}; it cannot be encoded")
        return candidate

    def cost(self, candidate: np.ndarray) -> int:
        """Conflicts of the decoded grid."""
        return conflicts(self.decode(candidate))

    def _has_shape(self, candidate: np.ndarray) -> bool:
        """True if the candidate is a flat vector of `dimension` numbers."""
        return np.shape(candidate) == (self.dimension,)

    def _checked(self, candidate: np.ndarray) -> np.ndarray:
        """The candidate as an array, or ValueError if its shape is wrong."""
        if not self._has_shape(candidate):
            raise ValueError(
                f"{type(self).__name__} expects a candidate of shape ({self.dimension},), got {np.shape(candidate)}"
            )
        return np.asarray(candidate)

    def _check_fits(self, grid: SudokuGrid) -> None:
        """Raise ValueError unless `grid` is full, of the puzzle's size, and keeps the givens."""
        if grid.size != self.puzzle.size:
            raise ValueError(f"grid of side {grid.size} does not fit a puzzle of side {self.puzzle.size}")
        if not grid.is_complete():
            raise ValueError(f"only a full grid can be encoded; this one has {grid.empty_count} empty cells")
        changed = np.argwhere(self.puzzle.givens & (grid.cells != self.puzzle.cells))
        if len(changed):
            r, c = changed[0]
            raise ValueError(f"grid changes the given at row {r + 1}, column {c + 1}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(dimension={self.dimension})"


class CellSpace(Space):
    """One digit 1..n per free cell; a move gives one free cell another digit."""

    def random(self, rng: np.random.Generator) -> np.ndarray:
        return rng.integers(1, self.puzzle.size + 1, size=self.dimension)

    def neighbour(self, candidate: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        new = np.array(self._checked(candidate))
        if self.dimension:
            k = rng.integers(self.dimension)
            digit = rng.integers(1, self.puzzle.size)  # one of the n - 1 other digits:
            new[k] = digit + (digit >= new[k])  # skip the current one
        return new

    def is_valid(self, candidate: np.ndarray) -> bool:
        values = np.asarray(candidate)
        return (
            self._has_shape(values)
            and np.issubdtype(values.dtype, np.integer)
            and bool(((values >= 1) & (values <= self.puzzle.size)).all())
        )


def _segments(
    puzzle: SudokuGrid, free_cells: np.ndarray, units: tuple[tuple[int, ...], ...]
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """For each unit: the candidate positions of its free cells, and its missing digits (sorted)."""
    position = {int(cell): k for k, cell in enumerate(free_cells)}
    flat, givens = puzzle.cells.ravel(), puzzle.givens.ravel()
    every_digit = set(range(1, puzzle.size + 1))
    segments, missing = [], []
    for unit in units:
        segments.append(np.array([position[cell] for cell in unit if cell in position], dtype=np.int64))
        given_digits = {int(flat[cell]) for cell in unit if givens[cell]}
        missing.append(np.array(sorted(every_digit - given_digits), dtype=np.int64))
    return segments, missing


class PermutationSpace(Space):
    """Free cells grouped by unit; each group holds a permutation of its unit's missing digits.

    Subclasses choose the kind of unit (`unit_kind`, "rows" or "boxes"). A move
    swaps two free cells of one unit, so the invariant always holds.
    """

    unit_kind: str

    def __init__(self, puzzle: SudokuGrid) -> None:
        super().__init__(puzzle)
        self.segments, self.missing = _segments(self.puzzle, self.free_cells, self._units())
        self._swappable = [segment for segment in self.segments if len(segment) >= 2]

    def _units(self) -> tuple[tuple[int, ...], ...]:
        return getattr(self.puzzle.layout, self.unit_kind)

    def _order_free_cells(self) -> np.ndarray:
        """Free cells unit by unit, so that each segment is a contiguous slice of the candidate."""
        givens = self.puzzle.givens.ravel()
        return np.array([cell for unit in self._units() for cell in unit if not givens[cell]], dtype=np.int64)

    def random(self, rng: np.random.Generator) -> np.ndarray:
        candidate = np.zeros(self.dimension, dtype=np.int64)
        for segment, digits in zip(self.segments, self.missing, strict=True):
            candidate[segment] = rng.permutation(digits)
        return candidate

    def random_swap(self, rng: np.random.Generator) -> tuple[int, int]:
        """Two distinct candidate positions of one segment, the segment drawn among those with 2+ free cells."""
        if not self._swappable:
            raise ValueError(f"none of the {self.unit_kind} of this puzzle has two free cells to swap")
        segment = self._swappable[rng.integers(len(self._swappable))]
        first = rng.integers(len(segment))
        second = rng.integers(len(segment) - 1)  # one of the other positions:
        second += second >= first  # skip the first one
        return int(segment[first]), int(segment[second])

    def neighbour(self, candidate: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Swap two positions of one segment (a copy if no segment has two free cells)."""
        new = np.array(self._checked(candidate))
        if self._swappable:
            i, j = self.random_swap(rng)
            new[i], new[j] = new[j], new[i]
        return new

    def is_valid(self, candidate: np.ndarray) -> bool:
        values = np.asarray(candidate)
        return self._has_shape(values) and all(
            np.array_equal(np.sort(values[segment]), digits)
            for segment, digits in zip(self.segments, self.missing, strict=True)
        )


class RowPermutationSpace(PermutationSpace):
    """Each row's free cells hold a permutation of the row's missing digits (0 row conflicts)."""

    unit_kind = "rows"


class BoxPermutationSpace(PermutationSpace):
    """Each box's free cells hold a permutation of the box's missing digits (0 box conflicts)."""

    unit_kind = "boxes"


class ContinuousSpace(Space):
    """One real per free cell in [1, n + 1), decoded by floor then clamping to 1..n.

    Rounding rule: digit = floor(x) clamped to [1, n]. Each digit d owns the
    interval [d, d + 1) of the same width, so no digit is favoured
    (9.999 -> 9, 1.0 -> 1); values outside the interval are clamped (0.3 -> 1,
    12.5 -> 9 for n = 9). A move adds a gaussian step of standard deviation
    `sigma` to one coordinate and clips it back into [1, n + 1).
    """

    def __init__(self, puzzle: SudokuGrid, sigma: float = 1.0) -> None:
        if not sigma > 0:
            raise ValueError(f"sigma must be positive, got {sigma!r}")
        super().__init__(puzzle)
        self.sigma = sigma
        self.low = 1.0
        self.high = float(self.puzzle.size + 1)  # excluded

    def _clip(self, values: np.ndarray) -> np.ndarray:
        """Values clipped into [low, high), high itself excluded."""
        return np.clip(values, self.low, np.nextafter(self.high, self.low))

    def random(self, rng: np.random.Generator) -> np.ndarray:
        return self._clip(rng.uniform(self.low, self.high, size=self.dimension))

    def neighbour(self, candidate: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        new = np.array(self._checked(candidate), dtype=float)
        if self.dimension:
            k = rng.integers(self.dimension)
            new[k] = self._clip(new[k] + rng.normal(0.0, self.sigma))
        return new

    def is_valid(self, candidate: np.ndarray) -> bool:
        values = np.asarray(candidate)
        return (
            self._has_shape(values)
            and np.issubdtype(values.dtype, np.floating)
            and bool(((values >= self.low) & (values < self.high)).all())
        )

    def _digits(self, candidate: np.ndarray) -> np.ndarray:
        if not np.isfinite(candidate).all():
            raise ValueError("a continuous candidate must hold finite numbers")
        return np.clip(np.floor(candidate), 1, self.puzzle.size).astype(np.int64)

    def _from_digits(self, digits: np.ndarray) -> np.ndarray:
        """Each coordinate at the centre of its digit's interval: d + 0.5."""
        return digits + 0.5


class RandomKeySpace(Space):
    """One key in [0, 1) per free cell; within each row, keys rank the free cells.

    Decoding gives the row's smallest missing digit to the free cell with the
    smallest key, the next digit to the next key, and so on (a stable sort, so
    equal keys keep the column order). Every row is therefore a permutation of
    its missing digits. A move draws a new key for one free cell.
    """

    def __init__(self, puzzle: SudokuGrid) -> None:
        super().__init__(puzzle)
        self.segments, self.missing = _segments(self.puzzle, self.free_cells, self.puzzle.layout.rows)

    def random(self, rng: np.random.Generator) -> np.ndarray:
        return rng.random(self.dimension)

    def neighbour(self, candidate: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        new = np.array(self._checked(candidate), dtype=float)
        if self.dimension:
            new[rng.integers(self.dimension)] = rng.random()
        return new

    def is_valid(self, candidate: np.ndarray) -> bool:
        values = np.asarray(candidate)
        return (
            self._has_shape(values)
            and np.issubdtype(values.dtype, np.floating)
            and bool(((values >= 0) & (values < 1)).all())
        )

    def _digits(self, candidate: np.ndarray) -> np.ndarray:
        digits = np.zeros(self.dimension, dtype=np.int64)
        for segment, missing in zip(self.segments, self.missing, strict=True):
            ranked = segment[np.argsort(candidate[segment], kind="stable")]
            digits[ranked] = missing
        return digits

    def _from_digits(self, digits: np.ndarray) -> np.ndarray:
        """Keys (rank + 0.5) / row length, where rank is the digit's place among the row's missing digits."""
        keys = np.zeros(self.dimension)
        for segment, missing in zip(self.segments, self.missing, strict=True):
            ranks = np.searchsorted(missing, digits[segment])
            keys[segment] = (ranks + 0.5) / len(segment)
        return keys


SPACES: dict[str, type[Space]] = {
    "cells": CellSpace,
    "rows": RowPermutationSpace,
    "boxes": BoxPermutationSpace,
    "continuous": ContinuousSpace,
    "random-key": RandomKeySpace,
}
"""Every representation by the name solvers take as their `space` parameter."""
PERMUTATION_SPACES = ("rows", "boxes")
CONTINUOUS_SPACES = ("continuous", "random-key")


def space_class(name: str, allowed: Iterable[str] = tuple(SPACES)) -> type[Space]:
    """The space named `name`, if it is one of `allowed`; otherwise ValueError naming the accepted ones."""
    allowed = tuple(allowed)
    if name not in allowed:
        raise ValueError(f"unknown space {name!r}; expected one of {sorted(allowed)}")
    return SPACES[name]
