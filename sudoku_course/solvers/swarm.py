"""Particle swarms for Sudoku: three ways to carry the swarm idea into a discrete problem.

- `WorkerExplorerSwarm` ("swarm"): the discrete swarm of the original course.
  Grids are box-valid by construction; workers (most of the hive) swap two
  cells of a box and keep the swap when it lowers the error, explorers draw a
  fresh grid at every iteration, and after each iteration the best worker and the best
  explorer are merged box by box into the worst worker. No velocity here.
- `SwapPSO` ("swap-pso"): the canonical PSO recurrence rewritten on row swaps.
  A position is a grid whose rows are permutations; a velocity is a list of
  row swaps; `apply_velocity` (x + v), `velocity_difference` (p - x) and
  `scale_velocity` (k * v) play the vector operations. `local_search_every`
  adds a hill climb on every particle's best position (the memetic variant).
- `MealpyPSO` ("mealpy-pso"): mealpy's canonical velocity PSO on a continuous
  encoding (`ContinuousSpace`, decoded by rounding, or `RandomKeySpace`,
  decoded by ranking keys within each row).
- `SpacePSO` ("space-pso"): the cross-study's PSO (lesson 04), one engine for
  every search space: the recurrence written with the space's velocity algebra.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..cost import ConflictTable, conflicts, conflicts_of_many
from ..grid import SudokuGrid
from ..propagation import propagated_candidates
from ..spaces import CONTINUOUS_SPACES, BoxPermutationSpace, RowPermutationSpace, Space, space_class
from .base import CountedObjective, RunLedger, Solver
from .local_search import free_cell_groups, hill_climb
from .mealpy_adapter import run_mealpy

RESTRICTED_DESCENT = 30
"""Default descent_moves of the restricted swap PSO (0 without restriction)."""
RESTRICTED_C2 = 0.5
"""Default c2 of the restricted swap PSO (2.0 without restriction): a weaker pull towards the swarm's best."""


# ======================================================================================
# The worker / explorer swarm
# ======================================================================================
class WorkerExplorerSwarm(Solver):
    """The discrete worker/explorer swarm of the original course, on box-valid grids.

    Lesson 03, section 3 (un essaim discret : ouvrières et exploratrices).

    A hive of `population_size` grids, the first `worker_ratio` of them workers and
    the rest explorers. One iteration:

    1. each worker swaps two free cells of a box and keeps the neighbour if it
       has fewer conflicts, or with probability `mutation_rate` anyway; a worker
       that failed to improve for more than `max_age` iterations gets a fresh grid;
    2. each explorer draws a fresh random grid;
    3. the best worker and the best explorer are merged box by box (each box
       from the explorer with probability 1/2) into the worst worker.

    The best grid ever seen is kept. After `max_iterations` iterations without a
    solution the hive restarts from scratch (the generator continues, so each
    attempt starts from new random grids), up to `max_restarts` restarts (so
    max_restarts + 1 attempts) when the run has no budget; a run given a budget
    of evaluations or seconds starts new attempts until it is spent.
    With `stagnation`, a best grid that has not improved for that many
    iterations is polished by a hill climb over box swaps (the hybrid variant).

    With `restrict`, the hive lives in the restricted box space: cells fixed by
    naked and hidden singles are givens, fresh grids are random matchings of each
    box's cells to its digits within their candidates, and a worker's move turns a
    cycle of cells of a box started from a cell in conflict, within the candidates
    (`BoxPermutationSpace.conflict_cycles`, the restricted annealer's move). A
    restricted worker also keeps a move that leaves its conflicts as they were: on
    the hard bank (first 10 puzzles, 10^6 evaluations) the plain restricted hive
    solves 6, with cycles 7, and with cycles kept when they do not worsen 10 (median
    15 000 evaluations). Merging whole boxes keeps the candidates.

    The hive moves in lockstep: every worker's move is drawn and evaluated in
    one numpy operation. An iteration costs one evaluation per organism, plus the
    merge and the fresh grids of reset workers; the run stops at the end of the
    iteration during which the evaluation budget runs out.
    """

    name = "swarm"

    def __init__(
        self,
        population_size: int = 200,
        max_iterations: int = 3000,
        max_restarts: int = 9,
        worker_ratio: float = 0.9,
        max_age: int = 1000,
        mutation_rate: float = 0.001,
        stagnation: int | None = None,
        restrict: bool = False,
    ) -> None:
        workers = int(population_size * worker_ratio)
        if workers < 1 or workers >= population_size:
            raise ValueError(
                f"the hive needs at least one worker and one explorer: population_size={population_size} and "
                f"worker_ratio={worker_ratio} give {workers} workers and {population_size - workers} explorers"
            )
        for label, value in (("max_iterations", max_iterations), ("max_age", max_age)):
            if value < 1:
                raise ValueError(f"{label} must be at least 1, got {value}")
        if max_restarts < 0:
            raise ValueError(f"max_restarts must be at least 0, got {max_restarts}")
        if not 0 <= mutation_rate <= 1:
            raise ValueError(f"mutation_rate must lie in [0, 1], got {mutation_rate}")
        if stagnation is not None and stagnation < 1:
            raise ValueError(f"stagnation must be at least 1 (or None), got {stagnation}")
        self.population_size = population_size
        self.max_iterations = max_iterations
        self.max_restarts = max_restarts
        self.worker_ratio = worker_ratio
        self.max_age = max_age
        self.mutation_rate = mutation_rate
        self.stagnation = stagnation
        self.restrict = restrict

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        candidates = propagated_candidates(puzzle) if self.restrict else None
        space = BoxPermutationSpace(puzzle, candidates)
        hive = Hive(space, self.population_size, int(self.population_size * self.worker_ratio), rng, run)
        attempt = 0
        while hive.best_error > 0 and (attempt <= self.max_restarts or run.budget.limited):
            if attempt:
                run.restarts += 1
                hive.populate()
            if self._attempt(hive, run):
                break
            attempt += 1
        run.stats.update(worker_resets=hive.resets, local_searches=hive.local_searches)
        return puzzle.with_cells(hive.best_cells.reshape(puzzle.cells.shape))

    def _attempt(self, hive: Hive, run: RunLedger) -> bool:
        """Run the iterations of one attempt; True if the run must stop (solved, budget spent or callback)."""
        stagnant = 0
        for _ in range(self.max_iterations):
            previous_best = hive.best_error
            hive.work(self.mutation_rate, self.max_age)
            hive.explore()
            hive.merge()
            stagnant = 0 if hive.best_error < previous_best else stagnant + 1
            if self.stagnation is not None and stagnant >= self.stagnation:
                hive.polish_best()
                stagnant = 0
            if run.record(hive.best_error):
                return True
        return False


class Hive:
    """The organisms of a WorkerExplorerSwarm: flat grids, errors and ages, workers first."""

    def __init__(
        self, space: BoxPermutationSpace, organisms: int, workers: int, rng: np.random.Generator, run: RunLedger
    ) -> None:
        self.puzzle, self.rng, self.run = space.puzzle, rng, run
        self.organisms, self.workers = organisms, workers
        self.space = space
        puzzle = space.puzzle
        # Free cells of each box with 2+ of them, padded with -1 into one table for lockstep draws.
        swappable = [self.space.free_cells[segment] for segment in self.space.segments if len(segment) >= 2]
        self.box_sizes = np.array([len(cells) for cells in swappable], dtype=np.int64)
        self.box_cells = np.full((len(swappable), max(self.box_sizes, default=0)), -1, dtype=np.int64)
        for k, cells in enumerate(swappable):
            self.box_cells[k, : len(cells)] = cells
        self.boxes = [np.array(box) for box in puzzle.layout.boxes]
        self.best_error = np.iinfo(np.int64).max
        self.best_cells = puzzle.cells.ravel().copy()
        self.resets = 0
        self.local_searches = 0
        self.populate()

    # --------------------------------------------------------------- helpers
    def random_grids(self, count: int) -> np.ndarray:
        """`count` random box-valid flat grids: each box's free cells get a shuffle of its missing digits
        (restricted: a random matching within the candidates)."""
        grids = np.tile(self.puzzle.cells.ravel(), (count, 1))
        if self.space.restricted:
            for grid in grids:
                grid[self.space.free_cells] = self.space.random(self.rng)
            return grids
        for segment, digits in zip(self.space.segments, self.space.missing, strict=True):
            shuffled = self.rng.permuted(np.tile(digits, (count, 1)), axis=1)
            grids[:, self.space.free_cells[segment]] = shuffled
        return grids

    def evaluate(self, grids: np.ndarray) -> np.ndarray:
        """Conflicts of flat grids, counted as evaluations of the run."""
        self.run.count(len(grids))
        n = self.puzzle.size
        return conflicts_of_many(grids.reshape(-1, n, n), self.puzzle.box_size)

    def remember_best(self) -> None:
        """Keep the best grid of the hive if it beats the best ever seen."""
        k = int(np.argmin(self.errors))
        if self.errors[k] < self.best_error:
            self.best_error = int(self.errors[k])
            self.best_cells = self.cells[k].copy()

    # ------------------------------------------------------------------ steps
    def populate(self) -> None:
        """A fresh hive of random grids, all ages 0."""
        self.cells = self.random_grids(self.organisms)
        self.errors = self.evaluate(self.cells)
        self.ages = np.zeros(self.workers, dtype=np.int64)
        self.remember_best()

    def work(self, mutation_rate: float, max_age: int) -> None:
        """Every worker tries a swap of two free cells of one box (restricted: a cycle from a cell in conflict);
        stale workers get a fresh grid."""
        if not len(self.box_sizes):
            return  # no box has two free cells: nothing can move
        w = self.workers
        neighbours = self.cells[:w].copy()
        if self.space.restricted:  # a cycle of a box within the candidates, from a cell in conflict
            free = self.space.free_cells
            neighbours[:, free] = self.space.conflict_cycles(neighbours[:, free], self.rng)
        else:
            box = self.rng.integers(len(self.box_sizes), size=w)
            first = self.rng.integers(self.box_sizes[box])
            second = self.rng.integers(self.box_sizes[box] - 1)  # one of the other cells of the box:
            second += second >= first  # skip the first one
            i, j, rows = self.box_cells[box, first], self.box_cells[box, second], np.arange(w)
            neighbours[rows, i], neighbours[rows, j] = neighbours[rows, j], neighbours[rows, i]
        errors = self.evaluate(neighbours)
        improved = errors < self.errors[:w]
        kept = errors <= self.errors[:w] if self.space.restricted else improved  # restricted: sideways too
        accepted = kept | (self.rng.random(w) < mutation_rate)
        self.cells[:w][accepted] = neighbours[accepted]
        self.errors[:w][accepted] = errors[accepted]
        self.ages[improved] = 0
        self.ages[~accepted] += 1
        self.remember_best()
        stale = np.flatnonzero(self.ages > max_age)
        if len(stale):
            self.cells[stale] = self.random_grids(len(stale))
            self.errors[stale] = self.evaluate(self.cells[stale])
            self.ages[stale] = 0
            self.resets += len(stale)
            self.remember_best()

    def explore(self) -> None:
        """Every explorer draws a fresh random grid."""
        explorers = self.organisms - self.workers
        self.cells[self.workers :] = self.random_grids(explorers)
        self.errors[self.workers :] = self.evaluate(self.cells[self.workers :])
        self.remember_best()

    def merge(self) -> None:
        """Best worker and best explorer, mixed box by box, replace the worst worker."""
        w = self.workers
        best_worker = int(np.argmin(self.errors[:w]))
        best_explorer = w + int(np.argmin(self.errors[w:]))
        worst_worker = int(np.argmax(self.errors[:w]))
        merged = self.cells[best_worker].copy()
        for box in self.boxes:
            if self.rng.random() < 0.5:
                merged[box] = self.cells[best_explorer, box]
        self.cells[worst_worker] = merged
        self.errors[worst_worker] = self.evaluate(merged[None, :])[0]
        self.ages[worst_worker] = 0
        self.remember_best()

    def polish_best(self) -> None:
        """Hill-climb the best grid by box swaps; an improvement replaces the worst worker too."""
        self.local_searches += 1
        table = ConflictTable(self.puzzle.with_cells(self.best_cells.reshape(self.puzzle.cells.shape)))
        hill_climb(table, free_cell_groups(self.puzzle, "boxes"), self.run, self.space.candidates)
        if table.cost < self.best_error:
            worst_worker = int(np.argmax(self.errors[: self.workers]))
            self.cells[worst_worker] = table.cells
            self.errors[worst_worker] = table.cost
            self.ages[worst_worker] = 0
            self.remember_best()


# ======================================================================================
# Swap-based discrete PSO
# ======================================================================================
class RowSwap(NamedTuple):
    """Exchange the contents of columns `col_a` and `col_b` of row `row`."""

    row: int
    col_a: int
    col_b: int


Velocity = list[RowSwap]
"""A velocity of the swap PSO: swaps applied one after the other."""


def apply_velocity(position: np.ndarray, velocity: Velocity) -> np.ndarray:
    """x + v: a copy of the grid `position` with the swaps of `velocity` applied in order."""
    moved = position.copy()
    for row, a, b in velocity:
        moved[row, a], moved[row, b] = moved[row, b], moved[row, a]
    return moved


def velocity_difference(target: np.ndarray, position: np.ndarray, row_order=None) -> Velocity:
    """p - x: row swaps that turn `position` into `target` (at most one per misplaced cell).

    Walking each row from left to right, a cell that does not hold the target's
    digit swaps with the cell (further right) that holds it. Both grids must
    hold the same digits in each row. Rows are listed in `row_order` (default:
    top to bottom). Swaps of different rows commute, so the order does not
    change the full move; it decides which rows a truncated velocity fixes.
    """
    rows = range(position.shape[0]) if row_order is None else row_order
    current_rows, goal_rows = position.tolist(), target.tolist()
    swaps: Velocity = []
    for row in rows:
        current, goal = current_rows[row], goal_rows[row]
        for col, wanted in enumerate(goal):
            if current[col] != wanted:
                if wanted not in current[col + 1 :]:
                    raise ValueError(f"row {row + 1} of the two grids does not hold the same digits")
                other = current.index(wanted, col + 1)
                swaps.append(RowSwap(int(row), col, other))
                current[col], current[other] = current[other], current[col]
    return swaps


def scale_velocity(k: float, velocity: Velocity) -> Velocity:
    """k * v: the first floor(k * len(v)) swaps of v repeated end to end (truncated if k < 1)."""
    if k < 0:
        raise ValueError(f"a velocity can only be scaled by k >= 0, got {k}")
    length = int(k * len(velocity))
    return [velocity[i % len(velocity)] for i in range(length)]


class RowCycle(NamedTuple):
    """Rotate the digits of row `row` round `columns`: each column takes the digit of the next one, the last
    column that of the first (the swaps (c0, c1), (c1, c2), ... made in turn)."""

    row: int
    columns: tuple[int, ...]


def cycle_difference(target: np.ndarray, position: np.ndarray, row_order=None) -> list[RowCycle]:
    """p - x as cycles: for each row (in `row_order`), the cycles of cells whose digits must rotate to turn
    `position` into `target`.

    The swaps of `velocity_difference`, grouped by cycle: a cycle applied whole gives each of its cells the
    target's digit, so between two grids whose cells hold their candidates it never leaves them, where one
    swap of a longer cycle alone could.
    """
    rows = range(position.shape[0]) if row_order is None else row_order
    current_rows, goal_rows = position.tolist(), target.tolist()
    cycles: list[RowCycle] = []
    for row in rows:
        current, goal = current_rows[row], goal_rows[row]
        if current == goal:
            continue
        column_of = {digit: col for col, digit in enumerate(current)}
        if len(column_of) != len(goal) or not column_of.keys() >= set(goal):
            raise ValueError(f"row {row + 1} of the two grids does not hold the same digits")
        placed = [a == b for a, b in zip(current, goal, strict=True)]
        for start in range(len(goal)):
            columns, col = [], start
            while not placed[col]:
                placed[col] = True
                columns.append(col)
                col = column_of[goal[col]]  # the cell that holds the digit `col` needs
            if columns:
                cycles.append(RowCycle(int(row), tuple(columns)))
    return cycles


def apply_cycles(position: np.ndarray, cycles: list[RowCycle], masks: list[list[int]]) -> np.ndarray:
    """x + v for a velocity of cycles: a copy of `position` with each cycle applied in turn, except those that
    would put a digit outside its cell's candidates (`masks[row][col]`: bit d set when digit d is allowed)."""
    moved = position.tolist()
    for row, columns in cycles:
        digits, allowed = moved[row], masks[row]
        incoming = [digits[col] for col in columns[1:]] + [digits[columns[0]]]
        if all(allowed[col] >> digit & 1 for col, digit in zip(columns, incoming, strict=True)):
            for col, digit in zip(columns, incoming, strict=True):
                digits[col] = digit
    return np.array(moved, dtype=position.dtype)


@dataclass
class Particle:
    """A particle of the swap PSO: where it is, how it moves, and the best place it has seen."""

    position: np.ndarray
    cost: int
    velocity: Velocity | list[RowCycle] = field(default_factory=list)
    best: np.ndarray = field(init=False)
    best_cost: int = field(init=False)

    def __post_init__(self) -> None:
        self.best, self.best_cost = self.position.copy(), self.cost

    def remember(self) -> None:
        """Keep the current position as the particle's best if it is better."""
        if self.cost < self.best_cost:
            self.best, self.best_cost = self.position.copy(), self.cost


class SwapPSO(Solver):
    """The PSO recurrence on row permutations, a velocity being a list of row swaps.

    Lesson 03, section 9 (le PSO à échanges).

    Each particle has a position x (a grid whose rows are permutations), a
    velocity v and its best position p; g is the swarm's best. Per iteration t,
    with r1 and r2 uniform in [0, 1):

        v <- w(t) * v  +  (c1 r1) * (p - x)  +  (c2 r2) * (g - x)      (+ is concatenation)
        x <- x + v

    The inertia w(t) falls linearly from `inertia_start` to `inertia_end`:
    wide moves first, then small corrections. With c1 = c2 = 2 (the values of
    Kennedy and Eberhart), c r averages 1: a particle goes as far as p or g on
    average, sometimes short of it, sometimes past it. The differences list
    rows in a random order, so that a truncated difference fixes random rows.

    With `local_search_every` = N > 0 (the memetic variant), every N
    iterations a hill climb over row swaps polishes every particle's best
    position, the swarm's best included.

    A run without a budget stops after `max_iterations` iterations (a restricted
    one often sooner, see `stagnation` below); a run given
    a budget of evaluations or seconds then starts a new swarm (a restart,
    keeping the best grid found) until the budget is spent.

    With `restrict`, positions live in the restricted row space: cells fixed by
    naked and hidden singles are givens, the first positions are random
    matchings of each row's cells to its digits within their candidates, and
    every position keeps its cells within their candidates:
    - a difference is a list of cycles (`cycle_difference`), scaled like a list
      of swaps, and a cycle that would take a cell out of its candidates is
      skipped (`apply_cycles`);
    - a particle that lands on the swarm's best makes one random move of the
      space (a swap or a rotation within the candidates), or it would stay
      there: its own best, the swarm's best and itself would coincide;
    - such a swarm gathers on its best in a few dozen iterations, so it ends
      after `stagnation` iterations without a better best (a new swarm starts
      if the budget allows);
    - the hill climb skips swaps that leave the candidates;
    - after each step of the recurrence, the whole swarm makes `descent_moves`
      moves in lockstep (`_lockstep_descent`): each particle turns a cycle of a
      row started from a cell in conflict (`RowPermutationSpace.conflict_cycles`,
      the restricted annealer's move) and keeps it unless its conflicts rise.

    - its pull towards the swarm's best is weaker: c2 = 0.5 by default (c1 stays 2).

    Measured on the first 10 puzzles of the hard bank, 500 000 evaluations each,
    c2 = 2: without descent the restricted swarm solves 3; with 10 moves of
    descent 6, with 30 moves 8, with 100 moves 7; with 30 moves and no recurrence
    at all (each particle descends alone) 10. With 30 moves, on the first 30 hard
    puzzles and 300 000 evaluations: c2 = 2 solves 24, c2 = 0.5 all 30 (median
    15 000 evaluations). On such puzzles a low state carries little of the solution
    (the restricted annealer's stalled states share a third of their free cells with
    it), so a strong pull towards the swarm's best undoes more than it brings.
    """

    name = "swap-pso"

    def __init__(
        self,
        population_size: int = 40,
        max_iterations: int = 300,
        c1: float = 2.0,
        c2: float | None = None,
        inertia_start: float = 0.9,
        inertia_end: float = 0.3,
        local_search_every: int = 0,
        restrict: bool = False,
        stagnation: int = 30,
        descent_moves: int | None = None,
    ) -> None:
        if population_size < 1 or max_iterations < 1:
            raise ValueError(
                f"population_size and max_iterations must be at least 1, got {population_size}, {max_iterations}"
            )
        if c2 is None:
            c2 = RESTRICTED_C2 if restrict else 2.0
        if min(c1, c2, inertia_start, inertia_end) < 0:
            raise ValueError("c1, c2, inertia_start and inertia_end must be >= 0")
        if local_search_every < 0:
            raise ValueError(f"local_search_every must be >= 0 (0: no local search), got {local_search_every}")
        if stagnation < 1:
            raise ValueError(f"stagnation must be at least 1, got {stagnation}")
        if descent_moves is not None and descent_moves < 0:
            raise ValueError(f"descent_moves must be >= 0 (0: no descent), got {descent_moves}")
        self.population_size = population_size
        self.max_iterations = max_iterations
        self.c1 = c1
        self.c2 = c2
        self.inertia_start = inertia_start
        self.inertia_end = inertia_end
        self.local_search_every = local_search_every
        self.restrict = restrict
        self.stagnation = stagnation
        self.descent_moves = descent_moves

    def inertia(self, iteration: int) -> float:
        """w(t): from inertia_start at t = 0 down to inertia_end at t = max_iterations."""
        return self.inertia_start - (self.inertia_start - self.inertia_end) * iteration / self.max_iterations

    def move(
        self,
        particle: Particle,
        swarm_best: np.ndarray,
        w: float,
        rng: np.random.Generator,
        masks: list[list[int]] | None = None,
    ) -> None:
        """One step of the recurrence: the particle's new velocity, then its new position.

        With the candidate `masks` of a restricted space, differences are cycles and stay within the candidates."""
        n = particle.position.shape[0]
        difference = velocity_difference if masks is None else cycle_difference
        towards_own_best = difference(particle.best, particle.position, rng.permutation(n))
        towards_swarm_best = difference(swarm_best, particle.position, rng.permutation(n))
        particle.velocity = (
            scale_velocity(w, particle.velocity)
            + scale_velocity(self.c1 * rng.random(), towards_own_best)
            + scale_velocity(self.c2 * rng.random(), towards_swarm_best)
        )
        if masks is None:
            particle.position = apply_velocity(particle.position, particle.velocity)
        else:
            particle.position = apply_cycles(particle.position, particle.velocity, masks)

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        space = RowPermutationSpace(puzzle, propagated_candidates(puzzle) if self.restrict else None)
        best, best_cost = None, np.inf
        run.stats["local_searches"] = 0
        while True:
            cells, cost = self._fly(space, rng, run)
            if cost < best_cost:
                best, best_cost = cells, cost
            if best_cost == 0 or run.exhausted() or not run.budget.limited:
                return puzzle.with_cells(best)
            run.restarts += 1

    def _fly(self, space: RowPermutationSpace, rng: np.random.Generator, run: RunLedger) -> tuple[np.ndarray, int]:
        """One swarm of `population_size` particles for at most `max_iterations` iterations (restricted: until
        `stagnation` iterations bring no better best): its best grid and cost."""
        puzzle = space.puzzle
        masks = np.reshape(space.candidates, puzzle.cells.shape).tolist() if space.restricted else None
        swarm = []
        for _ in range(self.population_size):
            position = space.decode(space.random(rng)).cells
            swarm.append(Particle(position, _evaluate(puzzle, position, run)))
        leader = min(swarm, key=lambda particle: particle.best_cost)
        best, best_cost = leader.best.copy(), leader.best_cost
        stagnant = 0
        descent_moves = self.descent_moves
        if descent_moves is None:
            descent_moves = RESTRICTED_DESCENT if self.restrict else 0
        for t in range(1, self.max_iterations + 1):
            if best_cost == 0:
                break
            previous_best_cost = best_cost
            for particle in swarm:
                if run.exhausted():
                    break
                self.move(particle, best, self.inertia(t), rng, masks)
                if masks is not None and np.array_equal(particle.position, best):
                    particle.position = _nudged(space, particle.position, rng)
                particle.cost = _evaluate(puzzle, particle.position, run)
                particle.remember()
                if particle.cost < best_cost:
                    best, best_cost = particle.position.copy(), particle.cost
            if descent_moves:
                _lockstep_descent(space, swarm, descent_moves, rng, run)
                leader = min(swarm, key=lambda particle: particle.best_cost)
                if leader.best_cost < best_cost:
                    best, best_cost = leader.best.copy(), leader.best_cost
            if self.local_search_every and t % self.local_search_every == 0:
                for particle in swarm:
                    particle.best, particle.best_cost = _polish(puzzle, particle.best, run, space.candidates)
                run.stats["local_searches"] += 1
                leader = min(swarm, key=lambda particle: particle.best_cost)
                if leader.best_cost < best_cost:
                    best, best_cost = leader.best.copy(), leader.best_cost
            if run.record(min([best_cost, *run.history[-1:]])):  # the history holds the run's best, across swarms
                break
            stagnant = 0 if best_cost < previous_best_cost else stagnant + 1
            if masks is not None and stagnant >= self.stagnation:
                break
        return best, best_cost


def _lockstep_descent(
    space: RowPermutationSpace, swarm: list[Particle], moves: int, rng: np.random.Generator, run: RunLedger
) -> None:
    """`moves` steps of the whole swarm at once: each particle turns a cycle of a row started from a cell in
    conflict (`space.conflict_cycles`) and keeps it unless its conflicts rise; then each remembers its best.
    One evaluation per particle and step; it stops early at cost 0 or when the run's budget is spent."""
    shape, free = swarm[0].position.shape, space.free_cells
    grids = np.array([particle.position.ravel() for particle in swarm])
    costs = np.array([particle.cost for particle in swarm])
    for _ in range(moves):
        if costs.min() == 0 or run.exhausted():
            break
        moved = grids.copy()
        moved[:, free] = space.conflict_cycles(grids[:, free], rng)
        run.count(len(moved))
        moved_costs = conflicts_of_many(moved, space.puzzle.box_size)
        kept = moved_costs <= costs
        grids[kept], costs[kept] = moved[kept], moved_costs[kept]
    for particle, cells, cost in zip(swarm, grids, costs, strict=True):
        particle.position, particle.cost = cells.reshape(shape), int(cost)
        particle.remember()


def _nudged(space: RowPermutationSpace, cells: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The grid `cells` moved by one random move of the restricted `space` (a swap or a rotation of a row's
    cells within their candidates)."""
    flat = cells.ravel().copy()
    flat[space.free_cells] = space.neighbour(flat[space.free_cells], rng)
    return flat.reshape(cells.shape)


def _evaluate(puzzle: SudokuGrid, cells: np.ndarray, run: RunLedger) -> int:
    """Conflicts of a full grid given as cells, counted as one evaluation."""
    run.count()
    return conflicts(puzzle.with_cells(cells))


def _polish(
    puzzle: SudokuGrid, cells: np.ndarray, run: RunLedger, candidates: list[int] | None = None
) -> tuple[np.ndarray, int]:
    """Hill-climb a grid by row swaps (within `candidates`, if given); return the new cells and their cost."""
    table = ConflictTable(puzzle.with_cells(cells))
    hill_climb(table, free_cell_groups(puzzle, "rows"), run, candidates)
    return np.reshape(table.cells, cells.shape), table.cost


# ======================================================================================
# mealpy's canonical PSO on a continuous encoding
# ======================================================================================
class MealpyPSO(Solver):
    """mealpy's OriginalPSO (constant inertia, coefficients c1 and c2) over a continuous encoding of the free cells.

    Lesson 03, sections 8 (encodage continu) and 10 (clés aléatoires).

    Defaults are Clerc's constriction values (inertia = 0.7298, c1 = c2 = 1.49618); mealpy calls the
    inertia w.
    `space` is "continuous" (one real in [1, n + 1) per free cell, decoded by
    rounding down) or "random-key" (one key in [0, 1) per free cell, each row's
    missing digits handed out in the order of its keys). mealpy is imported on
    first use (it takes seconds); it is seeded through `solve(..., seed=...)`
    and kept silent. Each epoch is one iteration of the run.
    """

    name = "mealpy-pso"

    def __init__(
        self,
        space: str = "continuous",
        population_size: int = 60,
        max_iterations: int = 300,
        inertia: float = 0.7298,
        c1: float = 1.49618,
        c2: float = 1.49618,
    ) -> None:
        space_class(space, CONTINUOUS_SPACES)
        if population_size < 5 or max_iterations < 1:
            raise ValueError(
                f"mealpy needs population_size >= 5 and max_iterations >= 1, got {population_size} and {max_iterations}"
            )
        self.space = space
        self.population_size = population_size
        self.max_iterations = max_iterations
        self.inertia = inertia
        self.c1 = c1
        self.c2 = c2

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        from mealpy.swarm_based.PSO import OriginalPSO

        params = {
            "epoch": self.max_iterations,
            "pop_size": self.population_size,
            "c1": self.c1,
            "c2": self.c2,
            "w": self.inertia,
        }
        return run_mealpy(OriginalPSO, params, space_class(self.space)(puzzle), run, rng)


# ======================================================================================
# The cross-study's PSO: one engine for every space
# ======================================================================================
@dataclass
class SpaceParticle:
    """A particle of SpacePSO: a candidate of the space, its velocity, and the best candidate it has seen."""

    position: np.ndarray
    cost: int
    velocity: np.ndarray  # a velocity of the space (`spaces.Velocity`)
    best: np.ndarray = field(init=False)
    best_cost: int = field(init=False)

    def __post_init__(self) -> None:
        self.best, self.best_cost = self.position, self.cost


class SpacePSO(Solver):
    """The PSO recurrence over any search space: the cross-study's PSO engine.

    The algorithm fixes the recurrence, its coefficients and how bests are kept; the space supplies the
    velocity algebra.

    Lesson 04 (un moteur par algorithme).

    Each particle has a position x (a candidate of the space), a velocity v and its best position p; g is
    the swarm's best (gbest topology). Per iteration t, each particle in turn, with r1 and r2 uniform in
    [0, 1) drawn for that particle:

        v <- clamp(w(t) * v  +  (c1 r1) * (p - x)  +  (c2 r2) * (g - x))
        x <- x + v

    where -, *, + and clamp are the space's `difference`, `scale`, `add` and `clamp`, and x + v its `move`:
    real vectors in the cell and real spaces (the velocity cut to a share of each coordinate's range),
    sequences of swaps in a permutation space (lesson 03's swap PSO). The inertia w(t) falls linearly from
    `inertia_start` to `inertia_end` over max_iterations. Velocities start at zero (the difference of a
    position with itself). A particle's best is replaced by its new position when that is not worse, and
    the swarm's best by a particle's best when that is not worse, so bests can drift along plateaus.

    The first swarm costs `population_size` evaluations and each iteration as many; a run spends at most
    population_size x max_iterations evaluations, fewer if it solves the puzzle or is given a smaller
    budget. The first swarm is iteration 1. The defaults are the cross-study's values (`crossstudy.ENGINES`).
    """

    name = "space-pso"

    def __init__(
        self,
        space: str = "rows",
        population_size: int = 40,
        max_iterations: int = 200,
        inertia_start: float = 0.9,
        inertia_end: float = 0.4,
        c1: float = 2.0,
        c2: float = 2.0,
    ) -> None:
        space_class(space)
        if population_size < 1 or max_iterations < 1:
            raise ValueError(
                f"population_size and max_iterations must be at least 1, got {population_size}, {max_iterations}"
            )
        if min(c1, c2, inertia_start, inertia_end) < 0:
            raise ValueError("c1, c2, inertia_start and inertia_end must be >= 0")
        self.space = space
        self.population_size = population_size
        self.max_iterations = max_iterations
        self.inertia_start = inertia_start
        self.inertia_end = inertia_end
        self.c1 = c1
        self.c2 = c2

    def inertia(self, iteration: int) -> float:
        """w(t): inertia_start at iteration 1, inertia_end at iteration max_iterations."""
        if self.max_iterations == 1:
            return self.inertia_start
        share = (iteration - 1) / (self.max_iterations - 1)
        return self.inertia_start + (self.inertia_end - self.inertia_start) * share

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        run.cap(self.population_size * self.max_iterations)
        space = space_class(self.space)(puzzle)
        cost = CountedObjective(space, run)
        swarm: list[SpaceParticle] = []
        for _ in range(self.population_size):
            if run.exhausted() or cost.best_cost == 0:
                break
            position = space.random(rng)
            swarm.append(SpaceParticle(position, int(cost(position)), space.difference(position, position, rng)))
        best = min(swarm, key=lambda particle: particle.best_cost).best
        iteration = 1
        while not run.record(cost.best_cost):
            iteration += 1
            for particle in swarm:
                if run.exhausted() or cost.best_cost == 0:
                    break
                self.move(space, particle, best, self.inertia(iteration), rng)
                particle.cost = int(cost(particle.position))
                if particle.cost <= particle.best_cost:
                    particle.best, particle.best_cost = particle.position, particle.cost
                if particle.best_cost <= cost.best_cost:
                    best = particle.best
        return cost.best_grid

    def move(
        self, space: Space, particle: SpaceParticle, best: np.ndarray, inertia: float, rng: np.random.Generator
    ) -> None:
        """One step of the recurrence: the particle's new velocity, then its new position."""
        towards_own_best = space.difference(particle.best, particle.position, rng)
        towards_swarm_best = space.difference(best, particle.position, rng)
        velocity = space.add(
            space.add(space.scale(inertia, particle.velocity), space.scale(self.c1 * rng.random(), towards_own_best)),
            space.scale(self.c2 * rng.random(), towards_swarm_best),
        )
        particle.velocity = space.clamp(velocity)
        particle.position = space.move(particle.position, particle.velocity)
