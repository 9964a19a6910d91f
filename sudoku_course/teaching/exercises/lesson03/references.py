"""Lesson 03 (particle swarms): the reference answers. Never inside the grader's sandbox (see the registry)."""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Sequence

import numpy as np

from ....cost import conflicts
from ....grid import SudokuGrid
from ....solvers.swarm import WorkerExplorerSwarm
from ....spaces import BoxPermutationSpace
from ..common import temoin
from .cases import box_pairs, swapped
from .provided import Swap


# ====================================================================== the swap algebra
def apply_swaps(position: np.ndarray, swaps: Sequence[Swap]) -> np.ndarray:
    """Reference x + v: a copy of `position` with the swaps applied one after the other."""
    moved = np.array(position, copy=True)
    for row, a, b in swaps:
        moved[row, a], moved[row, b] = moved[row, b], moved[row, a]
    return moved


def swap_difference(target: np.ndarray, position: np.ndarray, rows: Sequence[int]) -> list[Swap]:
    """Reference p - x: swaps turning `position` into `target`, row after row in the order of `rows`.

    In each row, from left to right, a cell that does not hold the target's digit swaps with the
    cell further right that holds it: every swap puts at least one digit in its place.
    """
    goal, current = np.asarray(target).tolist(), np.asarray(position).tolist()
    swaps = []
    for row in rows:
        cells = current[row]
        for col, wanted in enumerate(goal[row]):
            if cells[col] != wanted:
                other = cells.index(wanted, col + 1)
                swaps.append((int(row), col, other))
                cells[col], cells[other] = wanted, cells[col]
    return swaps


def scale_swaps(k: float, swaps: Sequence[Swap]) -> list[Swap]:
    """Reference k * v: the first floor(k * len(v)) swaps of v read cyclically (truncated if k < 1)."""
    length = math.floor(k * len(swaps))
    return [swaps[i % len(swaps)] for i in range(length)]


def swap_pso_step(position, velocity, own_best, swarm_best, inertia: float, c1: float, c2: float, rng):
    """Reference: one step of the swap PSO for one particle; (new position, new velocity).

    r1, r2 = rng.random(), rng.random(); rows = rng.permutation(n);
    v <- inertia * v + (c1 r1) * (own_best - x) + (c2 r2) * (swarm_best - x), both differences taken
    row by row in the order `rows`; x <- x + v.
    """
    r1, r2 = rng.random(), rng.random()
    rows = rng.permutation(len(position))
    velocity = (
        scale_swaps(inertia, velocity)
        + scale_swaps(c1 * r1, swap_difference(own_best, position, rows))
        + scale_swaps(c2 * r2, swap_difference(swarm_best, position, rows))
    )
    return apply_swaps(position, velocity), velocity


# ====================================================================== the studies
def swarm_size_study(puzzles: list[SudokuGrid], sizes: list[int], seeds: list[int], budget: int) -> list[dict]:
    """Reference: per hive size, success rate, median evaluations and median seconds of the worker/explorer
    swarm over every puzzle and seed with `budget` evaluations."""
    rows = []
    for size in sizes:
        solver = WorkerExplorerSwarm(population_size=size)
        results = [solver.solve(puzzle, seed=seed, budget=budget) for puzzle in puzzles for seed in seeds]
        rows.append(
            {
                "population_size": size,
                "success_rate": statistics.mean(r.solved for r in results),
                "median_evaluations": statistics.median(r.evaluations for r in results),
                "median_seconds": statistics.median(r.seconds for r in results),
            }
        )
    return rows


def track_convergence(puzzle: SudokuGrid, max_iterations: int, seed: int) -> list[int]:
    """Reference: best cost after each iteration of one attempt of a 100-organism worker/explorer swarm."""
    costs = []
    solver = WorkerExplorerSwarm(population_size=100, max_iterations=max_iterations, max_restarts=0)
    solver.solve(puzzle, seed=seed, callback=lambda epoch, best: costs.append(best))
    return costs


def box_descent(grid: SudokuGrid) -> SudokuGrid:
    """Reference: best-improvement descent by swaps of two free cells of one box, down to a local optimum."""
    current, cost = grid.copy(), conflicts(grid)
    while True:
        neighbours = [swapped(current, i, j) for i, j in box_pairs(current)]
        best = min(neighbours, key=conflicts, default=current)
        if conflicts(best) >= cost:
            return current
        current, cost = best, conflicts(best)


def hybrid_step(errors: np.ndarray, stale: int, stagnation: int, rng: np.random.Generator) -> list[int]:
    """Reference: after every `stagnation` iterations without progress (stale a positive multiple of it), the best
    worker (the first on ties) and two other workers drawn at random; otherwise none."""
    if stale == 0 or stale % stagnation:
        return []
    best = int(np.argmin(errors))
    others = [k for k in range(len(errors)) if k != best]
    return [best, *(int(k) for k in rng.choice(others, size=min(2, len(others)), replace=False))]


def best_descent_ends(grid: SudokuGrid, limit: int = 400) -> set[str] | None:
    """The grids (as strings) where a best-improvement box descent from `grid` may end, whichever of several
    equally good swaps it takes at each step; None if the descents meet more than `limit` grids on the way."""
    ends: set[str] = set()
    seen: set[str] = set()
    waiting = [grid]
    while waiting:
        current = waiting.pop()
        if current.to_string() in seen:
            continue
        seen.add(current.to_string())
        if len(seen) > limit:
            return None
        neighbours = [swapped(current, i, j) for i, j in box_pairs(current)]
        lowest = min(map(conflicts, neighbours), default=conflicts(current))
        if lowest >= conflicts(current):
            ends.add(current.to_string())
        else:
            waiting += [neighbour for neighbour in neighbours if conflicts(neighbour) == lowest]
    return ends


def first_improvement(grid: SudokuGrid, reverse: bool = False) -> SudokuGrid:
    """The descent that takes the first improving swap in box order (or in reverse order): a wrong answer."""
    current, cost = grid, conflicts(grid)
    while True:
        pairs = box_pairs(current)
        better = (swapped(current, i, j) for i, j in (pairs[::-1] if reverse else pairs))
        found = next((neighbour for neighbour in better if conflicts(neighbour) < cost), None)
        if found is None:
            return current
        current, cost = found, conflicts(found)


FIRST_IS_NOT_BEST = [
    "972915483143263125568487769826359641157218297394674538249537672735296384186841951",
    "962925413134863825578417967426359641157812297398674538241538621765276384983941957",
]
"""The public cases' starts, pinned: the first two that `descent_starts` finds with the generator [37]."""


def descent_starts(seed: int | None, count: int = 2) -> list[str]:
    """The prepared data of the box_descent cases: `count` box-valid grids of the témoin (as strings) from which
    a descent taking the first improving swap, in box order or in reverse, ends where no best-improvement descent
    can; the pinned FIRST_IS_NOT_BEST for the public cases (the search takes a few seconds)."""
    if seed is None:
        return FIRST_IS_NOT_BEST
    space = BoxPermutationSpace(temoin())
    rng = np.random.default_rng([seed, 37])
    starts: list[str] = []
    while len(starts) < count:
        start = space.decode(space.random(rng))
        ends = best_descent_ends(start)
        if ends and all(first_improvement(start, reverse).to_string() not in ends for reverse in (False, True)):
            starts.append(start.to_string())
    return starts


def grid_search(evaluate: Callable, param_grid: dict[str, list], seeds: list[int]) -> list[dict]:
    """Reference: every combination of param_grid (in the order of itertools.product) run with every seed by
    evaluate(params, seed) -> (solved, evaluations); one row per combination, best first: success rate
    decreasing, then median evaluations increasing, then the order of enumeration."""
    rows = []
    for values in itertools.product(*param_grid.values()):
        params = dict(zip(param_grid, values, strict=True))
        runs = [evaluate(params, seed) for seed in seeds]
        rows.append(
            {
                **params,
                "success_rate": statistics.mean(bool(solved) for solved, _ in runs),
                "median_evaluations": statistics.median(evaluations for _, evaluations in runs),
            }
        )
    return sorted(rows, key=lambda row: (-row["success_rate"], row["median_evaluations"]))
