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
  Both take optional `candidates` (the restricted representation): a cell with a
  single candidate becomes a given, and every free cell keeps one of its
  candidates. A random candidate is then a random matching of each unit's cells
  to its digits (`random_matching`), a move swaps two cells or rotates three of
  one unit within their candidates (`conflict_cycles` turns a cycle of any length
  started from a cell in conflict), and `repair` re-matches the units whose
  cells left their candidates.
- ContinuousSpace: one real per free cell in [1, n + 1), decoded by floor.
- RandomKeySpace: one real key per free cell in [0, 1); each row's missing
  digits go to its free cells in the order of their keys, so rows never conflict.

The generic engines of the cross-study (lesson 04) reach a space only through these
methods, plus the operators each space supplies to an algorithm:
- `crossover(first, second, rng)`: a child of two candidates (whole units from one
  parent or the other in a permutation space, each coordinate from one or the other
  elsewhere);
- the velocity algebra of a particle swarm: `difference(target, position, rng)`
  (p - x), `scale(k, velocity)` (k * v), `add(first, second)` (v + w), `move(position,
  velocity)` (x + v) and `clamp(velocity)`. A velocity is a real vector in the cell and
  real spaces, clamped to VELOCITY_LIMIT of a coordinate's range per step; in a
  permutation space it is a sequence of swaps (lesson 03's swap PSO), never clamped.
  In every space, move(x, difference(p, x)) == p (up to rounding for real vectors).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from itertools import combinations

import numpy as np

from .cost import conflicts
from .grid import InvalidPuzzleError, SudokuGrid, as_grid
from .propagation import fixed_by_candidates

VELOCITY_LIMIT = 0.2
"""The largest step a velocity may make along one coordinate of a cell or real space, as a share of that
coordinate's range (a usual choice for a particle swarm: from 0.1 to 0.2 of the range)."""
Velocity = np.ndarray
"""A particle's velocity: a real vector of `dimension` numbers, or in a permutation space an array of swaps,
one row (i, j) per swap of candidate positions i and j, applied in order."""
RESTRICTED_MOVE_TRIES = 16
"""Random moves a restricted space draws for each candidate of `neighbours`; it makes the first that keeps
every cell within its candidates (if none does, the candidate stays as is)."""


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

    # --------------------------------------------- operators of the generic engines (vectors here)
    def crossover(self, first: np.ndarray, second: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """A child of two candidates: each coordinate from one parent or the other, with probability 1/2."""
        first, second = self._checked(first), self._checked(second)
        return np.where(rng.random(self.dimension) < 0.5, first, second)

    def difference(self, target: np.ndarray, position: np.ndarray, rng: np.random.Generator) -> Velocity:
        """p - x: the velocity that takes `position` to `target` (here their difference as real vectors;
        `rng` serves the permutation spaces)."""
        return np.asarray(self._checked(target), dtype=float) - np.asarray(self._checked(position), dtype=float)

    def scale(self, k: float, velocity: Velocity) -> Velocity:
        """k * v."""
        return k * velocity

    def add(self, first: Velocity, second: Velocity) -> Velocity:
        """v + w."""
        return first + second

    def move(self, position: np.ndarray, velocity: Velocity) -> np.ndarray:
        """x + v: the candidate `position` moved by `velocity`, brought back into the space."""
        return self._bounded(np.asarray(self._checked(position), dtype=float) + velocity)

    def clamp(self, velocity: Velocity) -> Velocity:
        """The velocity with each coordinate cut to at most VELOCITY_LIMIT of the coordinate's range."""
        limit = VELOCITY_LIMIT * self._span()
        return np.clip(velocity, -limit, limit)

    def _bounded(self, values: np.ndarray) -> np.ndarray:
        """A real vector brought back into the space: the nearest digits 1..n here."""
        return np.clip(np.rint(values), 1, self.puzzle.size).astype(np.int64)

    def _span(self) -> float:
        """The range of one coordinate: n - 1 here (digits 1 to n)."""
        return float(self.puzzle.size - 1)

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

    With `candidates` (one mask per flat cell of the puzzle, bit d set when digit d
    is allowed, as `propagation.propagated_candidates` gives them), the space is
    restricted: cells with a single candidate become givens of `self.puzzle`, and
    the invariant also asks every free cell to hold one of its candidates. Swaps
    alone do not connect the restricted candidates of a unit (cells allowed {1, 2},
    {2, 3} and {1, 3} hold 1 2 3 or 2 3 1, and only a rotation of the three links
    them), so a move is a swap or a rotation of three cells, drawn at random among
    those that keep every cell within its candidates.
    """

    unit_kind: str

    def __init__(self, puzzle: SudokuGrid, candidates: Sequence[int] | None = None) -> None:
        if candidates is not None:
            puzzle = as_grid(puzzle)
            if len(candidates) != puzzle.cells.size:
                raise ValueError(f"expected {puzzle.cells.size} candidate masks, one per cell, got {len(candidates)}")
            puzzle = fixed_by_candidates(puzzle, candidates)
        super().__init__(puzzle)
        self.segments, self.missing = _segments(self.puzzle, self.free_cells, self._units())
        self._swappable = [segment for segment in self.segments if len(segment) >= 2]
        self.candidates = None if candidates is None else list(candidates)
        self._every_digit = [(1 << (self.puzzle.size + 1)) - 2] * self.puzzle.cells.size  # bits 1..n
        # allowed[k]: the candidate mask of position k (every digit when the space is not restricted)
        self.allowed = np.array(self.candidates or self._every_digit, dtype=np.int64)[self.free_cells]

    def _units(self) -> tuple[tuple[int, ...], ...]:
        return getattr(self.puzzle.layout, self.unit_kind)

    def _order_free_cells(self) -> np.ndarray:
        """Free cells unit by unit, so that each segment is a contiguous slice of the candidate."""
        givens = self.puzzle.givens.ravel()
        return np.array([cell for unit in self._units() for cell in unit if not givens[cell]], dtype=np.int64)

    @property
    def restricted(self) -> bool:
        """True if every free cell must keep one of its candidates."""
        return self.candidates is not None

    def random(self, rng: np.random.Generator) -> np.ndarray:
        candidate = np.zeros(self.dimension, dtype=np.int64)
        for segment, digits in zip(self.segments, self.missing, strict=True):
            if self.restricted:
                cells = self.free_cells[segment].tolist()
                candidate[segment] = random_matching(cells, digits.tolist(), self.candidates, rng)
            else:
                candidate[segment] = rng.permutation(digits)
        return candidate

    def within_candidates(self, candidate: np.ndarray) -> np.ndarray:
        """For each position, True if its digit is one of its cell's candidates (always, unrestricted)."""
        return (self.allowed >> np.asarray(candidate, dtype=np.int64)) & 1 == 1

    def repair(self, candidate: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The candidate with every unit that breaks the invariant re-matched; other units unchanged.

        A unit that holds its digits but has cells outside their candidates first re-matches those cells
        alone, among their own digits; if that is impossible, or if the unit does not hold its digits, the
        whole unit is re-matched, its cells keeping their digits when they can (`random_matching` tries
        each cell's current digit first). Only the unit's own cells and digits are matched: no search
        over the grid.
        """
        repaired = np.array(self._checked(candidate), dtype=np.int64)
        inside = self.within_candidates(repaired)
        masks = self.candidates or self._every_digit
        for segment, digits in zip(self.segments, self.missing, strict=True):
            values = repaired[segment]
            if not np.array_equal(np.sort(values), digits):  # not a permutation: match the whole unit again
                cells, wrong = self.free_cells[segment].tolist(), segment
            elif inside[segment].all():
                continue
            else:  # a permutation with cells outside their candidates: first re-match those cells alone
                wrong = segment[~inside[segment]]
                cells = self.free_cells[wrong].tolist()
                try:
                    repaired[wrong] = random_matching(cells, repaired[wrong].tolist(), masks, rng)
                    continue
                except InvalidPuzzleError:  # their digits cannot go round them: match the whole unit
                    cells, wrong = self.free_cells[segment].tolist(), segment
            preferred = dict(zip(cells, values.tolist(), strict=True))
            repaired[wrong] = random_matching(cells, digits.tolist(), masks, rng, preferred)
        return repaired

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
        """Swap two positions of one segment (a copy if no segment has two free cells).

        Restricted: one move of `neighbours`, a swap or a rotation that keeps every cell within its candidates.
        """
        new = np.array(self._checked(candidate))
        if self.restricted:
            return self.neighbours(new[None, :], rng)[0]
        if self._swappable:
            i, j = self.random_swap(rng)
            new[i], new[j] = new[j], new[i]
        return new

    def neighbours(self, batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One move for each candidate of `batch` (one per row), all drawn at once; `batch` is left unchanged.

        A move swaps two positions of one segment, or (one time in two, when some segment has three
        positions) rotates three: the first takes the digit of the second, the second that of the
        third, the third that of the first. In a restricted space the moves are drawn among those whose
        cells share candidates (`unit_swaps`, `unit_rotations`), RESTRICTED_MOVE_TRIES at a time, and a
        candidate makes the first one that keeps every cell within its candidates (none: it stays as is).
        """
        batch = np.array(batch, dtype=np.int64)
        swaps, rotations = self._moves
        if not len(swaps) and not len(rotations):
            return batch
        count, tries = len(batch), RESTRICTED_MOVE_TRIES if self.restricted else 1
        rotate = rng.random((count, tries)) < (0.5 if len(swaps) else 1.0)
        if not len(rotations):
            rotate[:] = False
        picks = np.where(
            rotate,
            len(swaps) + rng.integers(max(1, len(rotations)), size=(count, tries)),
            rng.integers(max(1, len(swaps)), size=(count, tries)),
        )
        i, j, k = np.moveaxis(np.concatenate([swaps, rotations])[picks], -1, 0)  # k = -1 for a swap
        k = np.where(rotate, k, j)  # a swap as a rotation (i, j, j): i takes j's digit, then j takes i's
        rows = np.arange(count)[:, None]
        digit_i, digit_j, digit_k = batch[rows, i], batch[rows, j], batch[rows, k]
        allowed = self.allowed
        fits = (allowed[i] >> digit_j) & (allowed[j] >> digit_k) & (allowed[k] >> digit_i) & 1 == 1
        first = fits.argmax(axis=1)
        moving = np.flatnonzero(fits[np.arange(count), first])
        pick = first[moving]
        i, j, k = i[moving, pick], j[moving, pick], k[moving, pick]
        digit_i, digit_j, digit_k = batch[moving, i], batch[moving, j], batch[moving, k]
        # in that order: for a swap (k == j), j is written twice and keeps the digit of i
        batch[moving, i], batch[moving, j], batch[moving, k] = digit_j, digit_k, digit_i
        return batch

    def conflict_cycles(self, batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One cycle move for each candidate of `batch` (one per row), all drawn at once; `batch` is unchanged.

        The vectorised form of the restricted annealer's move (`solvers.annealing.cycle_from`): a walk starts
        from a position in conflict (its digit repeats in a row, a column or a box of the decoded grid; any
        movable position if none is) and goes through the positions of its unit, each time to one whose digit
        the current position may take, until it reaches one that may take the first position's digit; then
        every position of the cycle takes the digit of the next one. Cycles of any length link every filling
        of a unit within its candidates, where swaps and rotations of three do not always. A candidate whose
        walk does not close stays as is.
        """
        batch = np.array(batch, dtype=np.int64)
        segment_of, segment_positions, units_of_cell = self._cycle_structure
        movable = segment_of >= 0
        if not len(batch) or not movable.any():
            return batch
        rows = np.arange(len(batch))
        in_conflict = self._in_conflict(batch, units_of_cell) & movable
        pool = np.where(in_conflict.any(axis=1)[:, None], in_conflict, movable)
        start = np.argmax(rng.random(batch.shape) * pool, axis=1)  # a random position of each row's pool
        width = segment_positions.shape[1]
        cycle = np.full((len(batch), width), -1, dtype=np.int64)
        cycle[:, 0] = start
        length = np.ones(len(batch), dtype=np.int64)
        first, current = batch[rows, start], start
        unit = segment_positions[segment_of[start]]  # the positions of each walk's unit (-1: padding)
        unit_digits = batch[rows[:, None], np.maximum(unit, 0)]
        walking, closed = np.ones(len(batch), dtype=bool), np.zeros(len(batch), dtype=bool)
        for step in range(1, width):
            options = (unit >= 0) & ((self.allowed[current][:, None] >> unit_digits) & 1 == 1)
            options &= ~(unit[:, :, None] == cycle[:, None, :]).any(axis=2) & walking[:, None]
            walking &= options.any(axis=1)
            following = unit[rows, np.argmax(rng.random(options.shape) * options, axis=1)]
            cycle[walking, step] = following[walking]
            length += walking
            current = np.where(walking, following, current)
            closing = walking & ((self.allowed[current] >> first) & 1 == 1)
            closed |= closing
            walking &= ~closing
            if not walking.any():
                break
        moved = batch.copy()
        rank = np.arange(width)[None, :]
        turned = closed[:, None] & (rank < length[:, None])  # the places of each closed cycle
        following = cycle[rows[:, None], (rank + 1) % length[:, None]]  # the next position round the cycle
        row, place = np.nonzero(turned)
        moved[row, cycle[row, place]] = batch[row, following[row, place]]
        return moved

    def _in_conflict(self, batch: np.ndarray, units_of_cell: np.ndarray) -> np.ndarray:
        """For each candidate of `batch` and each position, True if its digit repeats in one of its cell's units."""
        grids = np.tile(self.puzzle.cells.ravel(), (len(batch), 1))
        grids[:, self.free_cells] = batch
        n, rows = self.puzzle.size, np.arange(len(batch))[:, None, None]
        counts = np.zeros((len(batch), 3 * n, n + 1), dtype=np.int64)  # counts[g, u, d]: digit d in unit u of grid g
        np.add.at(counts, (rows, units_of_cell[None], grids[:, :, None]), 1)
        repeated = (counts[rows, units_of_cell[None], grids[:, :, None]] > 1).any(axis=2)
        return repeated[:, self.free_cells]

    @cached_property
    def _cycle_structure(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The segment of each position (-1 if alone in it: it cannot move), the positions of each segment
        (one row each, padded with -1), and the row, column and box numbers of each flat cell (0..3n-1)."""
        segment_of = np.full(self.dimension, -1, dtype=np.int64)
        width = max((len(segment) for segment in self.segments), default=0)
        segment_positions = np.full((len(self.segments), width), -1, dtype=np.int64)
        for k, segment in enumerate(self.segments):
            if len(segment) >= 2:
                segment_of[segment] = k
                segment_positions[k, : len(segment)] = segment
        layout = self.puzzle.layout
        units_of_cell = np.zeros((self.puzzle.cells.size, 3), dtype=np.int64)
        for kind, units in enumerate((layout.rows, layout.columns, layout.boxes)):
            for k, unit in enumerate(units):
                units_of_cell[list(unit), kind] = kind * self.puzzle.size + k
        return segment_of, segment_positions, units_of_cell

    # ------------------------------------------------ operators of the generic engines: whole units, swaps
    def crossover(self, first: np.ndarray, second: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """A child of two candidates: each unit (segment) copied whole from one parent or the other, with
        probability 1/2, so every unit stays a permutation (within its candidates, when restricted)."""
        child = np.array(self._checked(first))
        second = self._checked(second)
        for segment, from_second in zip(self.segments, rng.random(len(self.segments)) < 0.5, strict=True):
            if from_second:
                child[segment] = second[segment]
        return child

    def difference(self, target: np.ndarray, position: np.ndarray, rng: np.random.Generator) -> Velocity:
        """p - x: the swaps that turn `position` into `target` (lesson 03's swap PSO), one row (i, j) each.

        The units come in a random order (drawn from `rng`), so that a truncated velocity (`scale` by k < 1)
        fixes random units. Within a unit, walking its positions in order, a position that does not hold
        the target's digit swaps with the later position that holds it: at most one swap per misplaced cell.
        Both candidates must hold the same digits in each unit.
        """
        current, goal = np.array(self._checked(position)).tolist(), np.asarray(self._checked(target)).tolist()
        swaps = []
        for k in rng.permutation(len(self.segments)).tolist():
            segment = self._segment_lists[k]
            holder = {current[i]: i for i in segment}  # digit -> the position that holds it now
            if len(holder) != len(segment) or holder.keys() != {goal[i] for i in segment}:
                raise ValueError(f"the two candidates do not hold the same digits in {self.unit_kind} unit {k}")
            for i in segment:
                wanted, j = goal[i], holder[goal[i]]
                if i != j:
                    holder[current[i]], holder[wanted] = j, i
                    current[i], current[j] = wanted, current[i]
                    swaps.append((i, j))
        return np.array(swaps, dtype=np.int64).reshape(-1, 2)

    def scale(self, k: float, velocity: Velocity) -> Velocity:
        """k * v: the first floor(k * len(v)) swaps of v, repeated end to end when k > 1 (lesson 03)."""
        if k < 0:
            raise ValueError(f"a sequence of swaps can only be scaled by k >= 0, got {k}")
        return velocity[np.arange(int(k * len(velocity))) % max(1, len(velocity))]

    def add(self, first: Velocity, second: Velocity) -> Velocity:
        """v + w: the swaps of v, then those of w."""
        return np.concatenate([first, second])

    def move(self, position: np.ndarray, velocity: Velocity) -> np.ndarray:
        """x + v: a copy of `position` with the swaps of `velocity` made in order.

        A swap inside a unit keeps it a permutation, but not its cells within their candidates: a restricted
        space refuses to move.
        """
        if self.restricted:
            raise ValueError("a restricted space has no velocity algebra: swaps would leave the candidates")
        moved = np.asarray(self._checked(position)).tolist()
        for i, j in velocity.tolist():
            moved[i], moved[j] = moved[j], moved[i]
        return np.array(moved, dtype=np.int64)

    def clamp(self, velocity: Velocity) -> Velocity:
        """The velocity unchanged: a sequence of swaps has no coordinate to cut (lesson 03's swap PSO)."""
        return velocity

    @cached_property
    def _segment_lists(self) -> list[list[int]]:
        """The segments as lists of positions (quicker to walk in Python than arrays)."""
        return [segment.tolist() for segment in self.segments]

    @cached_property
    def _moves(self) -> tuple[np.ndarray, np.ndarray]:
        """The swaps (rows (i, j, -1)) and rotations (rows (i, j, k)) a move draws from, as candidate positions;
        unrestricted, the swaps of every pair of positions of a segment and no rotation."""
        segments = [segment.tolist() for segment in self.segments]
        masks = self.allowed.tolist()
        swaps = [(i, j, -1) for i, j in unit_swaps(segments, masks)]
        rotations = unit_rotations(segments, masks) if self.restricted else []
        return np.array(swaps, dtype=np.int64).reshape(-1, 3), np.array(rotations, dtype=np.int64).reshape(-1, 3)

    def is_valid(self, candidate: np.ndarray) -> bool:
        values = np.asarray(candidate)
        return (
            self._has_shape(values)
            and all(
                np.array_equal(np.sort(values[segment]), digits)
                for segment, digits in zip(self.segments, self.missing, strict=True)
            )
            and bool(self.within_candidates(values).all())
        )


def unit_swaps(units: Sequence[Sequence[int]], candidates: Sequence[int]) -> list[tuple[int, int]]:
    """Every pair of cells of one unit that share two candidates or more (the only pairs a swap can exchange
    while both keep a candidate). `candidates[cell]`: bit d set when digit d is allowed in that cell."""
    return [
        (i, j)
        for unit in units
        for a, i in enumerate(unit)
        for j in unit[a + 1 :]
        if (candidates[i] & candidates[j]).bit_count() >= 2
    ]


def unit_rotations(units: Sequence[Sequence[int]], candidates: Sequence[int]) -> list[tuple[int, int, int]]:
    """Every rotation (i, j, k) of three cells of one unit, in both directions (i takes the digit of j, j that
    of k, k that of i), leaving out those where two of the cells share no candidate (one could never take the
    other's digit)."""
    return [
        rotation
        for unit in units
        for i, j, k in combinations(unit, 3)
        if candidates[i] & candidates[j] and candidates[j] & candidates[k] and candidates[k] & candidates[i]
        for rotation in ((i, j, k), (i, k, j))
    ]


def random_matching(
    cells: list[int],
    digits: list[int],
    candidates: Sequence[int],
    rng: np.random.Generator,
    preferred: Mapping[int, int] | None = None,
) -> list[int]:
    """A random assignment of distinct `digits` to the flat `cells` of one unit (the digit of each cell, in
    order), each cell getting one of its candidates (`candidates[cell]`: bit d set when digit d is allowed).

    Augmenting paths (Kuhn's algorithm) over the unit's cells and digits, visited in random order; a
    cell tries its `preferred` digit first, if it has one. Raises InvalidPuzzleError when no such
    assignment exists (the puzzle has no solution).
    """
    owner: dict[int, int] = {}  # digit -> cell
    preferred = preferred or {}
    wanted = set(digits)
    # One random order of the digits, each cell reading it from its own random start: two draws per call,
    # instead of one shuffle per visit of a cell (augmenting paths visit cells many times).
    order = rng.permutation(digits).tolist()
    start = dict(zip(cells, rng.integers(len(order), size=len(cells)).tolist(), strict=True))

    def place(cell: int, seen: set[int]) -> bool:
        first = start[cell]
        tried = order[first:] + order[:first]
        if preferred.get(cell) in wanted:
            tried.insert(0, preferred[cell])
        mask = candidates[cell]
        for digit in tried:
            if mask >> digit & 1 and digit not in seen:
                seen.add(digit)
                if digit not in owner or place(owner[digit], seen):
                    owner[digit] = cell
                    return True
        return False

    for cell in rng.permutation(cells).tolist():
        if not place(cell, set()):
            row, column = divmod(cell, math.isqrt(len(candidates)))
            raise InvalidPuzzleError(
                f"the puzzle has no solution: no digit left for the cell at row {row + 1}, column {column + 1}",
                "no-solution",
                cells=((row, column),),
            )
    digit_of = {cell: digit for digit, cell in owner.items()}
    return [digit_of[cell] for cell in cells]


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

    def _bounded(self, values: np.ndarray) -> np.ndarray:
        return self._clip(values)

    def _span(self) -> float:
        return self.high - self.low

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

    def _bounded(self, values: np.ndarray) -> np.ndarray:
        return np.clip(values, 0.0, np.nextafter(1.0, 0.0))

    def _span(self) -> float:
        return 1.0

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
