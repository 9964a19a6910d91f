"""The PyGAD genetic algorithm: fitness, structure-preserving operators, restarts, budget, reproducibility."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course.cost import conflicts, unit_conflicts
from sudoku_course.grid import SudokuGrid
from sudoku_course.solvers import get_solver
from sudoku_course.solvers.exact import solve_exact
from sudoku_course.solvers.genetic import (
    GeneticSolver,
    PopulationFitness,
    order_crossover,
    order_crossover_segment,
    segments_of,
    swap_mutation,
    uniform_crossover,
)
from sudoku_course.spaces import BoxPermutationSpace, CellSpace, RowPermutationSpace

TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
TEMOIN_SOLUTION = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"
MEDIUM = "850002400720000009004000000000107002305000900040000000000080070017000000000036040"
PERMUTATION_SPACES = [RowPermutationSpace, BoxPermutationSpace]


class FakeGA:
    """The only part of a pygad.GA that our operators use: its seeded numpy generator."""

    def __init__(self, seed: int) -> None:
        self.numpy_random_generator = np.random.RandomState(seed)


def population(space, count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([space.random(rng) for _ in range(count)])


# ------------------------------------------------------------------ fitness
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), space_class=st.sampled_from([CellSpace, *PERMUTATION_SPACES]))
def test_population_fitness_is_minus_the_conflicts_of_each_decoded_grid(seed, space_class):
    space = space_class(SudokuGrid.from_string(TEMOIN))
    chromosomes = population(space, 6, seed)
    fitness = PopulationFitness(space)
    expected = [-conflicts(space.decode(chromosome)) for chromosome in chromosomes]
    assert fitness(None, chromosomes, list(range(6))).tolist() == expected


def test_fitness_of_the_solution_is_zero():
    space = RowPermutationSpace(SudokuGrid.from_string(TEMOIN))
    solution = space.encode(SudokuGrid.from_string(TEMOIN_SOLUTION))
    assert PopulationFitness(space).conflicts(solution[None, :]).tolist() == [0]


# ---------------------------------------------------------------- operators
@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    space_class=st.sampled_from(PERMUTATION_SPACES),
    crossover=st.sampled_from([order_crossover, uniform_crossover]),
)
def test_crossovers_keep_every_segment_a_permutation(seed, space_class, crossover):
    space = space_class(SudokuGrid.from_string(MEDIUM))
    parents = population(space, 6, seed)
    before = parents.copy()
    children = crossover(parents, (10, space.dimension), FakeGA(seed), segments=space.segments)
    assert children.shape == (10, space.dimension)
    assert all(space.is_valid(child) for child in children)
    assert np.array_equal(parents, before)


class FixedEnds:
    """A stand-in generator whose randint returns chosen slice ends."""

    def __init__(self, ends) -> None:
        self.ends = np.array(ends)

    def randint(self, low, high, size):
        return self.ends


def test_order_crossover_keeps_a_slice_of_the_first_parent_and_the_order_of_the_second():
    first = np.array([[1, 2, 3, 4, 5, 6]])
    second = np.array([[6, 5, 4, 3, 2, 1]])
    child = order_crossover_segment(first, second, FixedEnds([[3, 1]]))  # slice 1..3 (ends are sorted)
    assert child.tolist() == [[6, 2, 3, 4, 5, 1]]  # 2 3 4 kept; 6 5 1 in the second parent's order


def test_uniform_crossover_copies_each_segment_whole_from_one_of_two_parents():
    space = RowPermutationSpace(SudokuGrid.from_string(MEDIUM))
    parents = population(space, 8, 1)
    children = uniform_crossover(parents, (20, space.dimension), FakeGA(2), segments=space.segments)
    for child in children:
        # matches[p, s]: segment s of the child equals segment s of parent p
        matches = np.array([[np.array_equal(parent[s], child[s]) for s in space.segments] for parent in parents])
        assert any((matches[a] | matches[b]).all() for a in range(len(parents)) for b in range(len(parents)))


@pytest.mark.parametrize("space_class", PERMUTATION_SPACES)
def test_swap_mutation_swaps_two_places_of_one_segment_in_every_child(space_class):
    space = space_class(SudokuGrid.from_string(MEDIUM))
    offspring = population(space, 30, 3)
    before = offspring.copy()
    mutated = swap_mutation(offspring, FakeGA(4), segments=space.segments)
    assert np.array_equal(offspring, before)
    segment_of = {int(k): s for s, segment in enumerate(space.segments) for k in segment}
    for old, new in zip(before, mutated, strict=True):
        changed = np.flatnonzero(old != new)
        assert len(changed) == 2
        assert segment_of[int(changed[0])] == segment_of[int(changed[1])]
        assert space.is_valid(new)


def test_swap_mutation_rate_zero_changes_nothing():
    space = RowPermutationSpace(SudokuGrid.from_string(MEDIUM))
    offspring = population(space, 10, 5)
    assert np.array_equal(swap_mutation(offspring, FakeGA(0), space.segments, rate=0.0), offspring)


def test_operators_draw_from_the_ga_generator_only():
    space = RowPermutationSpace(SudokuGrid.from_string(MEDIUM))
    parents = population(space, 6, 7)
    runs = []
    for _ in range(2):
        ga = FakeGA(11)
        children = order_crossover(parents, (8, space.dimension), ga, segments=space.segments)
        runs.append(swap_mutation(children, ga, segments=space.segments))
    assert np.array_equal(runs[0], runs[1])


def test_cells_space_segments_are_its_rows():
    space = CellSpace(SudokuGrid.from_string(TEMOIN))
    rows = space.free_cells // 9
    for row, segment in enumerate(segments_of(space)):
        assert (rows[segment] == row).all() and len(segment) == (rows == row).sum()


# ------------------------------------------------------------------- solver
def test_row_permutation_ga_solves_the_temoin_under_ten_seeds():
    puzzle = SudokuGrid.from_string(TEMOIN)
    solver = GeneticSolver()
    for seed in range(10):
        result = solver.solve(puzzle, seed=seed)
        assert result.solved, f"seed {seed}: {result}"
        assert result.grid == solve_exact(puzzle).grid
        assert result.history[-1] == 0


def test_box_permutation_ga_solves_the_temoin():
    result = GeneticSolver(encoding="boxes").solve(TEMOIN, seed=0)
    assert result.solved and result.grid.to_string() == TEMOIN_SOLUTION


def test_cells_ga_fails_on_the_temoin():
    result = GeneticSolver(encoding="cells").solve(TEMOIN, seed=0, budget=10_000)
    assert not result.solved and result.cost > 0


@pytest.mark.parametrize(("encoding", "kind"), [("rows", "rows"), ("boxes", "boxes")])
def test_permutation_encodings_never_break_their_units(encoding, kind):
    result = GeneticSolver(encoding=encoding).solve(MEDIUM, seed=1, budget=500)
    assert not result.solved
    assert unit_conflicts(result.grid)[kind] == 0
    assert result.grid.is_complete()


def test_givens_kept_input_untouched_and_cost_is_the_best_of_the_history():
    puzzle = SudokuGrid.from_string(MEDIUM)
    before = puzzle.copy()
    result = GeneticSolver().solve(puzzle, seed=2, budget=3_000)
    assert puzzle == before and np.array_equal(puzzle.givens, before.givens)
    assert (result.grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()
    assert result.cost == min(result.history) == conflicts(result.grid)
    assert len(result.history) == result.iterations


def test_same_seed_same_result():
    solver = GeneticSolver(encoding="boxes")
    first, second = (solver.solve(MEDIUM, seed=5, budget=4_000) for _ in range(2))
    assert first.grid == second.grid
    assert (first.history, first.evaluations, first.restarts) == (second.history, second.evaluations, second.restarts)
    third = solver.solve(MEDIUM, seed=6, budget=4_000)
    assert third.history != first.history


@pytest.mark.parametrize("budget", [8, 150, 999, 5_000])
def test_budget_is_never_exceeded(budget):
    result = GeneticSolver(stagnation=5).solve(MEDIUM, seed=0, budget=budget)
    assert 0 < result.evaluations <= budget


def test_a_budget_too_small_for_a_population_is_refused():
    with pytest.raises(ValueError, match="budget of 7 evaluations"):
        GeneticSolver().solve(TEMOIN, seed=0, budget=7)


def test_default_budget_is_max_evaluations():
    result = GeneticSolver(max_evaluations=600, stagnation=3).solve(MEDIUM, seed=0)
    assert 0 < result.evaluations <= 600


def test_evaluations_are_the_chromosomes_the_fitness_saw(monkeypatch):
    seen = []
    original = PopulationFitness.__call__

    def counting(self, ga_instance, solutions, indices):
        seen.append(len(solutions))
        return original(self, ga_instance, solutions, indices)

    monkeypatch.setattr(PopulationFitness, "__call__", counting)
    result = GeneticSolver(population_size=20, stagnation=3).solve(MEDIUM, seed=0, budget=2_000)
    assert result.evaluations == sum(seen) > 0


def test_stagnation_restarts_with_a_doubled_population_up_to_the_limit():
    solver = GeneticSolver(population_size=10, max_population=40, stagnation=2)
    result = solver.solve(MEDIUM, seed=0, budget=3_000)
    assert result.restarts >= 3
    assert result.stats["population"] == 40


def test_callback_can_stop_the_run():
    result = GeneticSolver().solve(MEDIUM, seed=0, callback=lambda iteration, cost: iteration >= 3)
    assert result.iterations == 3 and result.restarts == 0


def test_a_full_grid_is_returned_as_is():
    result = GeneticSolver().solve(TEMOIN_SOLUTION, seed=0)
    assert result.solved and result.grid.to_string() == TEMOIN_SOLUTION


def test_custom_operators_receive_the_segments():
    calls = []

    def keep_first_parent(parents, offspring_size, ga_instance, segments):
        calls.append(len(segments))
        return parents[np.arange(offspring_size[0]) % len(parents)].copy()

    result = GeneticSolver(crossover=keep_first_parent).solve(TEMOIN, seed=0, budget=1_000)
    assert calls and set(calls) == {9}
    assert unit_conflicts(result.grid)["rows"] == 0


def test_pygad_builtin_operators_can_be_named():
    result = GeneticSolver(encoding="cells", crossover="uniform", mutation="random").solve(TEMOIN, seed=0, budget=600)
    assert result.grid.is_complete() and result.evaluations <= 600


def test_parallel_evaluation_gives_the_same_run():
    sequential = GeneticSolver().solve(TEMOIN, seed=4, budget=800)
    parallel = GeneticSolver(parallel=2).solve(TEMOIN, seed=4, budget=800)
    assert (sequential.grid, sequential.history, sequential.evaluations) == (
        parallel.grid,
        parallel.history,
        parallel.evaluations,
    )


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"encoding": "genes"}, "unknown encoding"),
        ({"encoding": "cells", "crossover": "order"}, "permutation encoding"),
        ({"population_size": 2}, "population_size"),
        ({"population_size": 300}, "max_population"),
        ({"elitism": 100}, "elitism"),
        ({"parents_share": 0}, "parents_share"),
        ({"mutation_rate": 1.5}, "mutation_rate"),
        ({"stagnation": 0}, "stagnation"),
    ],
)
def test_bad_parameters_are_refused_with_a_message(params, message):
    with pytest.raises(ValueError, match=message):
        GeneticSolver(**params)


def test_registered_as_genetic():
    solver = get_solver("genetic", encoding="boxes")
    assert isinstance(solver, GeneticSolver) and solver.encoding == "boxes"
    assert GeneticSolver().encoding == "rows"


def test_an_operator_error_reaches_the_caller_without_a_pygad_log(capsys):
    def unfinished(offspring, ga_instance, segments):
        raise NotImplementedError("À compléter")

    with pytest.raises(NotImplementedError, match="À compléter"):
        GeneticSolver(mutation=unfinished).solve(TEMOIN, seed=0)
    assert capsys.readouterr() == ("", "")
