"""The restricted representation in the GA and the swarms: moves and runs stay inside the candidates."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course.cost import conflicts, unit_conflicts
from sudoku_course.grid import SudokuGrid
from sudoku_course.propagation import propagated_candidates
from sudoku_course.puzzles import load_bank
from sudoku_course.solvers.base import Budget, RunLedger
from sudoku_course.solvers.exact import solve_exact
from sudoku_course.solvers.genetic import GeneticSolver, cycle_mutation, order_crossover, repaired
from sudoku_course.solvers.swarm import (
    Particle,
    RowCycle,
    SwapPSO,
    WorkerExplorerSwarm,
    _lockstep_descent,
    apply_cycles,
    cycle_difference,
    velocity_difference,
)
from sudoku_course.spaces import BoxPermutationSpace, RowPermutationSpace

SEEDS = st.integers(0, 2**32 - 1)
FAST = settings(max_examples=8, deadline=None)


class FakeGA:
    """The only part of a pygad.GA that the operators use: its seeded numpy generator."""

    def __init__(self, seed: int) -> None:
        self.numpy_random_generator = np.random.RandomState(seed % 2**32)


def within_candidates(puzzle: SudokuGrid, grid: SudokuGrid) -> bool:
    """True if every cell of `grid` holds one of the puzzle's propagated candidates and the givens are kept."""
    candidates = propagated_candidates(puzzle)
    cells = grid.cells.ravel().tolist()
    kept = (grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()
    return bool(kept) and all(candidates[cell] >> digit & 1 for cell, digit in enumerate(cells))


# ------------------------------------------------------------------ GA operators
@FAST
@given(seed=SEEDS, space_class=st.sampled_from([RowPermutationSpace, BoxPermutationSpace]))
def test_restricted_ga_operators_keep_units_and_candidates(seed, space_class):
    puzzle = load_bank("medium")[seed % 5]
    space = space_class(puzzle, propagated_candidates(puzzle))
    rng = np.random.default_rng(seed)
    parents = np.array([space.random(rng) for _ in range(12)])
    crossover = repaired(partial(order_crossover, segments=space.segments), space)  # as the GA binds it
    children = crossover(parents, (20, space.dimension), FakeGA(seed))
    mutated = cycle_mutation(children, FakeGA(seed + 1), space)
    for chromosome in [*children, *mutated]:
        assert space.is_valid(chromosome)  # units are permutations and every cell keeps a candidate
        assert within_candidates(puzzle, space.decode(chromosome))
    units = space._cycle_structure[0]
    for child, mutant in zip(children, mutated, strict=True):  # at most one cycle of one unit per child
        assert len({units[k] for k in np.flatnonzero(child != mutant)}) <= 1
    assert np.array_equal(mutated, cycle_mutation(children, FakeGA(seed + 1), space))  # same seed, same mutants


# ------------------------------------------------------------------ swap-PSO cycles
def restricted_row_grids(seed: int, count: int) -> tuple[RowPermutationSpace, np.ndarray, list[np.ndarray]]:
    """A restricted row space of a medium puzzle, its candidate masks as a grid, and `count` random grids of it."""
    puzzle = load_bank("medium")[seed % 5]
    space = RowPermutationSpace(puzzle, propagated_candidates(puzzle))
    rng = np.random.default_rng(seed)
    masks = np.reshape(space.candidates, puzzle.cells.shape)
    return space, masks, [space.decode(space.random(rng)).cells for _ in range(count)]


def holds_candidates(cells: np.ndarray, masks: np.ndarray) -> bool:
    return bool(((masks >> cells) & 1).all())


@FAST
@given(seed=SEEDS)
def test_cycles_are_the_swaps_of_the_difference_grouped_and_each_keeps_the_candidates(seed):
    space, masks, (x, p) = restricted_row_grids(seed, 2)
    order = np.random.default_rng(seed).permutation(9)
    cycles = cycle_difference(p, x, order)
    assert np.array_equal(apply_cycles(x, cycles, masks), p)  # x + (p - x) = p
    assert sum(len(cycle.columns) - 1 for cycle in cycles) == len(velocity_difference(p, x))  # the same swaps
    cells = [{(cycle.row, col) for col in cycle.columns} for cycle in cycles]
    assert sum(map(len, cells)) == len(set().union(*cells)) == int((x != p).sum())  # disjoint, every misplaced cell
    assert [cycle.row for cycle in cycles] == sorted((cycle.row for cycle in cycles), key=order.tolist().index)
    for cycle in cycles:  # each cycle alone moves its cells to p's digits, within their candidates
        moved = apply_cycles(x, [cycle], masks)
        changed = moved != x
        assert holds_candidates(moved, masks) and changed.sum() == len(cycle.columns)
        assert np.array_equal(moved[changed], p[changed])
    assert cycle_difference(x, x) == []


@FAST
@given(seed=SEEDS)
def test_applying_cycles_never_leaves_the_candidates_and_skips_a_cycle_that_would(seed):
    space, masks, (x, p, q) = restricted_row_grids(seed, 3)
    before = x.copy()
    moved = apply_cycles(x, cycle_difference(p, q), masks)  # cycles computed elsewhere: some must be skipped
    assert np.array_equal(x, before) and holds_candidates(moved, masks)
    assert np.array_equal(np.sort(moved, axis=1), np.sort(x, axis=1))
    assert np.array_equal(moved[space.puzzle.givens], x[space.puzzle.givens])


def test_a_cycle_leaving_the_candidates_is_skipped_whole():
    masks = [[0b0110, 0b1110, 0b1100]]  # the cells allow {1, 2}, {1, 2, 3} and {2, 3}
    x = np.array([[1, 2, 3]])
    assert np.array_equal(apply_cycles(x, [RowCycle(0, (0, 1))], masks), [[2, 1, 3]])  # allowed: made
    assert np.array_equal(apply_cycles(x, [RowCycle(0, (0, 2))], masks), x)  # 3 in the first cell: skipped
    rotation = RowCycle(0, (0, 1, 2))  # 2 3 1: its first swap alone is allowed, not the whole cycle
    assert np.array_equal(apply_cycles(x, [rotation, RowCycle(0, (0, 1))], masks), [[2, 1, 3]])
    assert np.array_equal(apply_cycles(x, [RowCycle(0, (1, 2, 0))], [[0b1110] * 3]), [[2, 3, 1]])  # a rotation
    with pytest.raises(ValueError, match="same digits"):
        cycle_difference(np.array([[1, 2, 4]]), x)


@FAST
@given(seed=SEEDS)
def test_the_lockstep_descent_keeps_rows_and_candidates_and_never_raises_a_cost(seed):
    space, masks, grids = restricted_row_grids(seed, 6)
    swarm = [Particle(cells, conflicts(space.puzzle.with_cells(cells))) for cells in grids]
    twin = [Particle(cells.copy(), particle.cost) for cells, particle in zip(grids, swarm, strict=True)]
    starts = [particle.cost for particle in swarm]
    run = RunLedger(Budget(), None)
    _lockstep_descent(space, swarm, 20, np.random.default_rng(seed), run)
    assert run.evaluations <= 20 * len(swarm)
    for particle, start in zip(swarm, starts, strict=True):
        assert particle.cost == conflicts(space.puzzle.with_cells(particle.position)) <= start
        assert holds_candidates(particle.position, masks)
        assert unit_conflicts(space.puzzle.with_cells(particle.position))["rows"] == 0
        assert particle.best_cost <= particle.cost
    _lockstep_descent(space, twin, 20, np.random.default_rng(seed), RunLedger(Budget(), None))
    assert all(np.array_equal(a.position, b.position) for a, b in zip(swarm, twin, strict=True))  # same seed


def test_a_lone_restricted_particle_still_moves_and_a_stalled_swarm_ends():
    puzzle = load_bank("medium")[0]
    lone = SwapPSO(restrict=True, population_size=1, max_iterations=200, stagnation=200).solve(puzzle, seed=1)
    assert lone.history[-1] < lone.history[0]  # it is always on the swarm's best, so only its random moves move it
    stalled = SwapPSO(restrict=True, population_size=10, max_iterations=10_000, stagnation=5).solve(puzzle, seed=1)
    assert not stalled.solved and stalled.iterations < 1_000  # without a budget, stagnation ends the swarm
    with pytest.raises(ValueError, match="stagnation"):
        SwapPSO(stagnation=0)


# ------------------------------------------------------------------ whole runs
RESTRICTED = {
    "genetic": (lambda: GeneticSolver(restrict=True, population_size=20), "rows"),
    "genetic-boxes": (lambda: GeneticSolver(restrict=True, encoding="boxes", population_size=20), "boxes"),
    "swap-pso": (lambda: SwapPSO(restrict=True, population_size=10), "rows"),
    "memetic": (lambda: SwapPSO(restrict=True, population_size=10, local_search_every=5), "rows"),
    "swarm": (lambda: WorkerExplorerSwarm(restrict=True, population_size=40), "boxes"),
}


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000), index=st.integers(0, 49))
@pytest.mark.parametrize("label", list(RESTRICTED))
def test_restricted_runs_keep_givens_units_and_candidates_and_repeat_with_a_seed(label, seed, index):
    build, unit_kind = RESTRICTED[label]
    puzzle = load_bank("hard")[index]
    before = puzzle.copy()
    first = build().solve(puzzle, seed=seed, budget=600)
    second = build().solve(puzzle, seed=seed, budget=600)
    assert puzzle == before  # the input is left alone
    assert first.grid.is_complete() and unit_conflicts(first.grid)[unit_kind] == 0
    assert within_candidates(puzzle, first.grid) and np.array_equal(first.grid.givens, puzzle.givens)
    assert first.cost == conflicts(first.grid) and first.evaluations <= 600 + 2 * 40 + 1
    assert first.grid == second.grid and (first.history, first.evaluations) == (second.history, second.evaluations)


@pytest.mark.parametrize("label", list(RESTRICTED))
def test_restricted_runs_solve_a_medium_puzzle(label):
    puzzle = load_bank("medium")[4]
    result = RESTRICTED[label][0]().solve(puzzle, seed=0, budget=60_000)
    assert result.solved and result.grid == solve_exact(puzzle).grid


def test_restriction_needs_a_permutation_encoding_and_the_course_operators():
    with pytest.raises(ValueError, match="permutation encoding"):
        GeneticSolver(encoding="cells", restrict=True)
    with pytest.raises(ValueError, match="PyGAD's 'random'"):
        GeneticSolver(mutation="random", restrict=True)


# ------------------------------------------------------------------ a budget is used whole
@pytest.mark.parametrize(
    ("solver", "slack"),
    [
        # the GA starts no new population that the rest of the budget cannot pay for (twice its size)
        (GeneticSolver(population_size=10, max_population=40, max_evaluations=300, stagnation=3), 2 * 40),
        (SwapPSO(population_size=10, max_iterations=5), 0),
        (SwapPSO(population_size=10, max_iterations=5, restrict=True), 10),  # its descent steps count the swarm
        (WorkerExplorerSwarm(population_size=20, max_iterations=5, max_restarts=0), 2 * 20 + 1),  # ends its last epoch
    ],
    ids=["genetic", "swap-pso", "swap-pso-restricted", "swarm"],
)
def test_a_budget_is_used_whole_whatever_the_solver_caps(solver, slack):
    puzzle = load_bank("hard")[0]
    budgeted = solver.solve(puzzle, seed=0, budget=3_000)
    capped = solver.solve(puzzle, seed=0)
    assert not budgeted.solved and budgeted.restarts > 0
    assert 3_000 - slack <= budgeted.evaluations <= 3_000 + slack
    assert capped.evaluations < 2_000  # without a budget the caps stop the run
