"""Lesson 02 (simulated annealing): the reference answers. Never inside the grader's sandbox (see the registry)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ....cost import ConflictTable, givens_conflicts
from ....grid import SudokuGrid


def partial_energy(grid: SudokuGrid) -> int:
    """Reference: duplicated digits among the filled cells, summed over every row, column and box."""
    return givens_conflicts(grid)


def block_swap_neighbour(cells: np.ndarray, givens: np.ndarray, rng: np.random.Generator):
    """Reference: a copy of `cells` where two free cells of one random box are swapped, and the two cells."""
    size = cells.shape[0]
    box_size = math.isqrt(size)
    boxes = []
    for top in range(0, size, box_size):
        for left in range(0, size, box_size):
            free = [
                (top + r, left + c) for r in range(box_size) for c in range(box_size) if not givens[top + r, left + c]
            ]
            if len(free) >= 2:
                boxes.append(free)
    free = boxes[rng.integers(len(boxes))]
    first, second = rng.choice(len(free), size=2, replace=False)
    neighbour = cells.copy()
    neighbour[free[first]], neighbour[free[second]] = cells[free[second]], cells[free[first]]
    return neighbour, (free[first], free[second])


def metropolis_accept(delta: float, temperature: float, u: float) -> bool:
    """Reference: accept a move that does not raise the energy; a worse one if u < exp(-delta / temperature)."""
    return delta <= 0 or u < math.exp(-delta / temperature)


def _chain(table: ConflictTable, moves, rng, temperature: float, length: int, best: int, best_cells: list[int]):
    """One chain of Metropolis moves on `table`, stopped at energy 0; returns (acceptance, best, best_cells)."""
    accepted = tried = 0
    while tried < length and best > 0:
        i, j = moves[rng.integers(len(moves))]
        tried += 1
        if metropolis_accept(table.delta_swap_cells(i, j), temperature, rng.random()):
            table.swap_cells(i, j)
            accepted += 1
            if table.cost < best:
                best, best_cells = table.cost, list(table.cells)
    return accepted / tried, best, best_cells


def anneal(
    state: SudokuGrid,
    moves: list[tuple[int, int]],
    rng: np.random.Generator,
    *,
    t0: float,
    alpha: float,
    t_min: float,
    chain_length: int,
) -> tuple[SudokuGrid, int, list[dict]]:
    """Reference: chains of `chain_length` moves at T = t0, t0 * alpha, ... while T >= t_min, stopped as soon as
    the energy is 0. Returns (best grid, its energy, trace: one record of TRACE_KEYS per chain)."""
    table = ConflictTable(state)
    best, best_cells = table.cost, list(table.cells)
    trace, temperature = [], t0
    while temperature >= t_min and best > 0:
        acceptance, best, best_cells = _chain(table, moves, rng, temperature, chain_length, best, best_cells)
        trace.append({"temperature": temperature, "energy": table.cost, "best": best, "acceptance": acceptance})
        temperature *= alpha
    return state.with_cells(np.reshape(best_cells, state.cells.shape)), best, trace


def exponential_cooling(t0: float, t_min: float, alpha: float) -> list[float]:
    """Reference: t0 * alpha**k for k = 0, 1, ... while the temperature stays at or above t_min."""
    temperatures, temperature = [], t0
    while temperature >= t_min:
        temperatures.append(temperature)
        temperature *= alpha
    return temperatures


def linear_cooling(t0: float, t_min: float, max_iterations: int) -> list[float]:
    """Reference: `max_iterations` temperatures (one per chain) evenly spaced from t0 down to t_min, both included."""
    return [t0 + (t_min - t0) * k / (max_iterations - 1) for k in range(max_iterations)]


def next_temperature(
    temperature: float, stale: int, *, t0: float, alpha: float, stagnation: int, reheat: float
) -> tuple[float, int]:
    """Reference: reheat to reheat * t0 after `stagnation` stale chains, otherwise cool by alpha."""
    if stale >= stagnation:
        return reheat * t0, 0
    return temperature * alpha, stale


def adapt_alpha(alpha: float, acceptance: float) -> float:
    """Reference: alpha squared above 50 % acceptance, its square root below 5 %, kept within [0.8, 0.999]."""
    if acceptance > 0.5:
        alpha = alpha**2
    elif acceptance < 0.05:
        alpha = math.sqrt(alpha)
    return min(0.999, max(0.8, alpha))


def anneal_with_rule(
    state: SudokuGrid,
    moves: list[tuple[int, int]],
    rng: np.random.Generator,
    rule: Callable[[float, int, float], tuple[float, int]],
    *,
    t0: float,
    chain_length: int,
    max_iterations: int,
) -> tuple[SudokuGrid, int, list[dict]]:
    """Reference: the loop of `anneal`, where rule(temperature, stale, acceptance) -> (temperature, stale) gives
    the temperature of the next chain (stale: chains in a row without a new best energy); at most `max_iterations`
    chains, stopped as soon as the energy is 0."""
    table = ConflictTable(state)
    best, best_cells = table.cost, list(table.cells)
    trace, temperature, stale = [], t0, 0
    while len(trace) < max_iterations and best > 0:
        before = best
        acceptance, best, best_cells = _chain(table, moves, rng, temperature, chain_length, best, best_cells)
        trace.append({"temperature": temperature, "energy": table.cost, "best": best, "acceptance": acceptance})
        stale = 0 if best < before else stale + 1
        temperature, stale = rule(temperature, stale, acceptance)
    return state.with_cells(np.reshape(best_cells, state.cells.shape)), best, trace


def extended_move(cells: np.ndarray, givens: np.ndarray, rng: np.random.Generator, use_extended: float):
    """Reference: swap two free cells in place, of rows r and r + 1 with probability use_extended, else of one row."""
    size = cells.shape[0]

    def free_columns(row):
        return [c for c in range(size) if not givens[row, c]]

    if rng.random() < use_extended:
        while True:
            row = int(rng.integers(size - 1))
            top, bottom = free_columns(row), free_columns(row + 1)
            if top and bottom:
                break
        kind, params = "inter", (row, top[rng.integers(len(top))], row + 1, bottom[rng.integers(len(bottom))])
    else:
        while True:
            row = int(rng.integers(size))
            free = free_columns(row)
            if len(free) >= 2:
                break
        first, second = rng.choice(len(free), size=2, replace=False)
        kind, params = "intra", (row, free[first], row, free[second])
    r1, c1, r2, c2 = params
    cells[r1, c1], cells[r2, c2] = cells[r2, c2], cells[r1, c1]
    return kind, params


def undo_move(cells: np.ndarray, kind: str, params: tuple) -> None:
    """Reference: put back the two cells that extended_move swapped."""
    r1, c1, r2, c2 = params
    cells[r1, c1], cells[r2, c2] = cells[r2, c2], cells[r1, c1]


def ratios(annealing: list[float], backtracking: list[float]) -> list[float]:
    """Reference: annealing[k] / backtracking[k] for each puzzle k."""
    return [a / b for a, b in zip(annealing, backtracking, strict=True)]


def growth_class(empty_cells: list[int], values: list[float]) -> str:
    """Reference: "linéaire", "polynomial", "exponentiel" or "autre", from the first and last values."""
    growth = values[-1] / values[0]
    if growth <= 1:
        return "autre"
    exponent = math.log(growth) / math.log(empty_cells[-1] / empty_cells[0])
    if exponent <= 1.5:
        return "linéaire"
    return "polynomial" if exponent <= 4 else "exponentiel"
