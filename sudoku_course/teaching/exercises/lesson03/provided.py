"""Lesson 03 (particle swarms): what the students import, the loops that run their functions.

- `hybrid_swarm` (shown in the solution notebook) is the worker/explorer swarm of the lesson whose local search
  the student places: after each iteration, their `hybrid_step` names the workers their descent polishes.
- `swarm_loop` (shown in the solution notebook) runs a whole swarm of `swap_pso_step` calls on a puzzle, as the
  check of that exercise does. Positions are plain numpy grids (n x n arrays whose rows are permutations) and a
  velocity is a list of swaps `(row, column_a, column_b)`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ....cost import conflicts_of_many
from ....grid import SudokuGrid
from ....solvers.base import Budget, RunLedger
from ....solvers.swarm import Hive, WorkerExplorerSwarm
from ....spaces import BoxPermutationSpace, RowPermutationSpace

Swap = tuple[int, int, int]
"""Exchange the digits of columns a and b of one row: (row, a, b)."""


HIVE = WorkerExplorerSwarm()
"""The lesson's swarm with its default settings: the hive of `hybrid_swarm` works as its hive does."""


@dataclass(frozen=True)
class HybridRun:
    """What `hybrid_swarm` returns: the best grid seen, its cost, the iterations, the grids polished."""

    cells: np.ndarray
    cost: int
    iterations: int
    polished: int
    """Grids that the descent polished."""
    history: list[int] = field(default_factory=list)
    """Best cost seen so far, after each iteration."""

    @property
    def solved(self) -> bool:
        """True if the best grid seen has no conflict."""
        return self.cost == 0


def hybrid_swarm(
    puzzle: SudokuGrid,
    hybrid_step: Callable,
    descent: Callable[[SudokuGrid], SudokuGrid],
    seed: int,
    *,
    population_size: int = 100,
    max_iterations: int = 500,
    stagnation: int = 50,
) -> HybridRun:
    """One attempt of the lesson's worker/explorer swarm on `puzzle`, whose local search `hybrid_step` places.

    Each iteration, the hive works as WorkerExplorerSwarm's does (workers swap two cells of a box, explorers
    draw fresh grids, the best of both are merged into the worst worker); then, with `stale` the iterations
    since the hive's best grid last improved, hybrid_step(errors, stale, stagnation, rng) names the workers
    (indices into `errors`, a copy of the workers' conflicts) whose grid `descent` polishes: the polished grid
    replaces the worker's. Stops when a grid is solved or after `max_iterations` iterations.
    """
    rng = np.random.default_rng(seed)
    shape = puzzle.cells.shape
    workers = int(population_size * HIVE.worker_ratio)
    hive = Hive(BoxPermutationSpace(puzzle), population_size, workers, rng, RunLedger(Budget()))
    stale, polished, history = 0, 0, []
    while hive.best_error > 0 and len(history) < max_iterations:
        previous = hive.best_error
        hive.work(HIVE.mutation_rate, HIVE.max_age)
        hive.explore()
        hive.merge()
        stale = 0 if hive.best_error < previous else stale + 1
        for worker in hybrid_step(hive.errors[:workers].copy(), stale, stagnation, rng):
            grid = descent(puzzle.with_cells(hive.cells[worker].reshape(shape)))
            hive.cells[worker] = np.asarray(grid.cells).ravel()
            hive.errors[worker] = hive.evaluate(hive.cells[worker][None, :])[0]
            polished += 1
        hive.remember_best()
        history.append(int(hive.best_error))
    return HybridRun(hive.best_cells.reshape(shape), int(hive.best_error), len(history), polished, history)


@dataclass(frozen=True)
class SwarmRun:
    """What `swarm_loop` returns: the best grid seen, its cost, and what the run spent."""

    cells: np.ndarray
    cost: int
    evaluations: int
    attempts: int
    history: list[int] = field(default_factory=list)
    """Best cost seen so far, after each iteration."""

    @property
    def solved(self) -> bool:
        """True if the best grid seen has no conflict."""
        return self.cost == 0


def swarm_loop(
    puzzle: SudokuGrid,
    step: Callable,
    seed: int,
    *,
    population_size: int = 50,
    max_iterations: int = 60,
    stagnation: int = 15,
    c1: float = 2.0,
    c2: float = 2.0,
    inertia_start: float = 0.5,
    inertia_end: float = 0.1,
    budget: int = 30_000,
) -> SwarmRun:
    """A swap PSO whose particles move by `step`, run on `puzzle` until solved or out of budget.

    Each attempt starts `population_size` particles at random grids whose rows are permutations,
    with empty velocities. At each iteration t the inertia falls linearly from inertia_start
    towards inertia_end over `max_iterations` iterations; every particle makes one `step` towards
    its own best grid and the swarm's best; then all new positions are evaluated at once and the
    bests updated (one evaluation per particle). An attempt ends when the swarm's best is solved,
    after `stagnation` iterations without progress, or after `max_iterations` iterations; then a
    new attempt starts from fresh grids, while evaluations remain in `budget`.

    Not the loop of `solvers.swarm.SwapPSO`, which moves and evaluates its particles one by one: here the
    student's step moves plain arrays, and the whole swarm is evaluated at once after every step.
    """
    if budget < population_size:
        raise ValueError(f"a budget of {budget} evaluations cannot evaluate a swarm of {population_size} particles")
    rng = np.random.default_rng(seed)
    space = RowPermutationSpace(puzzle)
    best, best_cost, evaluations, attempts, history = puzzle.cells, math.inf, 0, 0, []
    while best_cost > 0 and evaluations + population_size <= budget:
        # A new attempt: random grids, empty velocities; each particle's best is where it starts.
        attempts += 1
        positions = [space.decode(space.random(rng)).cells for _ in range(population_size)]
        velocities = [[] for _ in range(population_size)]
        own_bests = [cells.copy() for cells in positions]
        own_costs = conflicts_of_many(np.array(positions), puzzle.box_size)
        evaluations += population_size
        leader, stale = int(np.argmin(own_costs)), 0  # own_bests[leader] is the swarm's best grid
        for t in range(1, max_iterations + 1):
            if own_costs[leader] == 0 or stale == stagnation or evaluations + population_size > budget:
                break
            inertia = inertia_start - (inertia_start - inertia_end) * t / max_iterations
            for i in range(population_size):  # every particle takes one step
                positions[i], velocities[i] = step(
                    positions[i], velocities[i], own_bests[i], own_bests[leader], inertia, c1, c2, rng
                )
            costs = conflicts_of_many(np.array(positions), puzzle.box_size)  # one evaluation per particle
            evaluations += population_size
            for i in np.flatnonzero(costs < own_costs):
                own_bests[i], own_costs[i] = np.array(positions[i], copy=True), costs[i]
            previous, leader = own_costs[leader], int(np.argmin(own_costs))
            stale = 0 if own_costs[leader] < previous else stale + 1
            history.append(int(min(best_cost, own_costs[leader])))
        if own_costs[leader] < best_cost:  # the attempt is over: keep its best grid if it beats the others
            best, best_cost = own_bests[leader], int(own_costs[leader])
    return SwarmRun(np.array(best, copy=True), int(best_cost), evaluations, attempts, history)
