"""The solver contract of solvers/base.py and the solver registry."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import numpy as np
import pytest

from sudoku_course.cost import conflicts
from sudoku_course.grid import InvalidPuzzleError, SudokuGrid
from sudoku_course.solvers import (
    FAMILIES,
    REGISTRY,
    Budget,
    RunLedger,
    Solver,
    SolveResult,
    available_solvers,
    get_solver,
    registered,
    solver_class,
    solver_description,
)

TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
TEMOIN_SOLUTION = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"


class Oracle(Solver):
    """Returns the known solution of the témoin."""

    name = "oracle"

    def _search(self, puzzle, rng, run):
        run.count()
        run.record(0)
        return SudokuGrid.from_string(TEMOIN_SOLUTION)


class RandomFill(Solver):
    """Fills the empty cells at random, over and over, until its budget or the callback stops it."""

    name = "random-fill"

    def _search(self, puzzle, rng, run):
        best, best_cost = puzzle, None
        empty = puzzle.cells == 0
        while True:
            cells = puzzle.cells.copy()
            cells[empty] = rng.integers(1, puzzle.size + 1, size=int(empty.sum()))
            candidate = puzzle.with_cells(cells)
            cost = conflicts(candidate)
            run.count()
            if best_cost is None or cost < best_cost:
                best, best_cost = candidate, cost
            if run.record(best_cost):
                return best


class GivenChanger(Solver):
    """A buggy solver that returns a new grid whose first given is changed."""

    name = "given-changer"

    def _search(self, puzzle, rng, run):
        cells = puzzle.cells.copy()
        cells[0, 0] = cells[0, 0] % 9 + 1
        return SudokuGrid(cells, givens=puzzle.givens)


class InPlaceGivenChanger(Solver):
    """A buggy solver that overwrites the first given of the grid it receives."""

    name = "in-place-given-changer"

    def _search(self, puzzle, rng, run):
        puzzle.cells[0, 0] = puzzle.cells[0, 0] % 9 + 1
        return puzzle


class InPlaceFiller(Solver):
    """Writes its answer into the grid it receives (allowed: it is a private copy)."""

    name = "in-place"

    def _search(self, puzzle, rng, run):
        puzzle.cells[:] = SudokuGrid.from_string(TEMOIN_SOLUTION).cells
        return puzzle


# ---------------------------------------------------------------- Budget
@pytest.mark.parametrize("value", [1, 500, np.int64(7)])
def test_budget_coerce_accepts_a_positive_number_of_evaluations(value):
    assert Budget.coerce(value) == Budget(evaluations=int(value))


def test_budget_coerce_keeps_a_budget_and_maps_none_to_unlimited():
    budget = Budget(evaluations=3, seconds=1.5)
    assert Budget.coerce(budget) is budget
    assert Budget.coerce(None) == Budget(evaluations=None, seconds=None)


@pytest.mark.parametrize("value", [0, -5, True, 2.5, "100", [10]])
def test_budget_coerce_rejects_anything_else_with_the_value_in_the_message(value):
    with pytest.raises(ValueError, match="budget must be a positive number") as error:
        Budget.coerce(value)
    assert repr(value) in str(error.value)


# ------------------------------------------------------------------- RunLedger
def test_run_counts_evaluations_and_remaining_budget():
    run = RunLedger(Budget(evaluations=10))
    run.count()
    run.count(4)
    assert run.evaluations == 5
    assert run.remaining() == 5
    assert not run.exhausted()
    run.count(7)
    assert run.remaining() == 0
    assert run.exhausted()


def test_run_without_limits_is_never_exhausted():
    run = RunLedger(Budget())
    run.count(10**6)
    assert run.remaining() is None
    assert not run.exhausted()


def test_run_with_a_zero_second_limit_is_exhausted_at_once():
    assert RunLedger(Budget(seconds=0.0)).exhausted()


def test_run_record_keeps_history_and_stops_at_cost_zero():
    run = RunLedger(Budget())
    assert run.record(np.int64(5)) is False
    assert run.record(2) is False
    assert run.record(0) is True
    assert run.iterations == 3
    assert run.history == [5, 2, 0]
    assert all(type(cost) is int for cost in run.history)


def test_run_record_stops_when_the_budget_is_spent():
    run = RunLedger(Budget(evaluations=2))
    run.count()
    assert run.record(4) is False
    run.count()
    assert run.record(4) is True


def test_run_record_calls_the_callback_and_stops_when_it_returns_true():
    calls = []

    def callback(iteration, best_cost):
        calls.append((iteration, best_cost))
        return iteration == 2

    run = RunLedger(Budget(), callback)
    assert run.record(7) is False
    assert run.record(6) is True
    assert calls == [(1, 7), (2, 6)]
    assert run.stopped and run.exhausted()


# ------------------------------------------------------------ Solver.solve
def test_solve_returns_a_complete_result():
    result = Oracle().solve(TEMOIN, seed=3)
    assert result.solved and result.cost == 0
    assert result.grid.to_string() == TEMOIN_SOLUTION
    assert (result.evaluations, result.iterations, result.history) == (1, 1, [0])
    assert (result.seed, result.solver) == (3, "oracle")
    assert result.seconds >= 0
    assert "oracle: solved" in str(result)


@pytest.mark.parametrize(
    "make_puzzle",
    [
        lambda: SudokuGrid.from_string(TEMOIN),
        lambda: SudokuGrid.from_string(TEMOIN).cells.copy(),
        lambda: SudokuGrid.from_string(TEMOIN).cells.ravel().tolist(),
    ],
    ids=["grid", "array", "list"],
)
def test_solve_never_modifies_its_input(make_puzzle):
    puzzle = make_puzzle()
    before = np.array(puzzle if not isinstance(puzzle, SudokuGrid) else puzzle.cells).copy()
    result = InPlaceFiller().solve(puzzle, seed=0)
    after = np.array(puzzle if not isinstance(puzzle, SudokuGrid) else puzzle.cells)
    assert result.solved
    assert np.array_equal(before, after)


def test_solve_catches_a_solver_that_changes_a_given():
    puzzle = SudokuGrid.from_string(TEMOIN)
    with pytest.raises(RuntimeError, match="given-changer changed a given"):
        GivenChanger().solve(puzzle, seed=0)
    assert puzzle.to_string() == TEMOIN


def test_solve_catches_a_solver_that_changes_a_given_in_place():
    puzzle = SudokuGrid.from_string(TEMOIN)
    with pytest.raises(RuntimeError, match="in-place-given-changer changed a given"):
        InPlaceGivenChanger().solve(puzzle, seed=0)
    assert puzzle.to_string() == TEMOIN


def test_solve_rejects_conflicting_givens_before_searching():
    clash = "99" + TEMOIN[2:]
    with pytest.raises(InvalidPuzzleError, match="digit 9 appears twice in row 1"):
        Oracle().solve(clash)


def test_unsolved_result_reports_its_conflicts():
    result = RandomFill().solve(TEMOIN, seed=1, budget=5)
    assert not result.solved
    assert result.cost == conflicts(result.grid) > 0
    assert "not solved" in str(result)


@pytest.mark.parametrize(
    ("count", "conflict", "evaluation", "iteration", "restart"),
    [
        (1, "1 conflict", "1 evaluation", "1 iteration", "1 restart"),
        (0, "0 conflicts", "0 evaluations", "0 iterations", "0 restarts"),
        (12000, "12,000 conflicts", "12,000 evaluations", "12,000 iterations", "12,000 restarts"),
    ],
)
def test_a_result_reads_as_one_english_line_with_singulars_and_plurals(count, conflict, evaluation, iteration, restart):
    grid = SudokuGrid.from_string(TEMOIN)
    counts = {"cost": count, "evaluations": count, "iterations": count, "restarts": count}
    result = SolveResult(grid, solved=False, **counts, seconds=0.0123, solver="s", stats={"nodes": 3})
    assert str(result) == f"s: not solved ({conflict} left) in 12.3 ms, {evaluation}, {iteration}, {restart}, nodes=3"


def test_same_seed_gives_the_same_result():
    first = RandomFill().solve(TEMOIN, seed=42, budget=30)
    second = RandomFill().solve(TEMOIN, seed=42, budget=30)
    other = RandomFill().solve(TEMOIN, seed=43, budget=30)
    assert first.grid == second.grid
    assert first.history == second.history
    assert first.grid != other.grid


def test_a_missing_seed_is_drawn_and_recorded_so_the_run_can_be_replayed():
    first = RandomFill().solve(TEMOIN, budget=10)
    replay = RandomFill().solve(TEMOIN, seed=first.seed, budget=10)
    assert isinstance(first.seed, int)
    assert replay.grid == first.grid


def test_the_evaluation_budget_is_respected():
    result = RandomFill().solve(TEMOIN, seed=0, budget=25)
    assert result.evaluations == 25
    assert result.iterations == len(result.history) == 25
    assert result.history == sorted(result.history, reverse=True)


def test_a_callback_can_stop_the_run():
    result = RandomFill().solve(TEMOIN, seed=0, callback=lambda iteration, cost: iteration >= 4)
    assert result.iterations == 4


# -------------------------------------------------------------- registry
def test_available_solvers_is_sorted_and_holds_the_exact_solvers():
    names = available_solvers()
    assert names == sorted(REGISTRY)
    assert {"exact", "backtracking"} <= set(names)


def test_unknown_solver_name_error_lists_the_available_names():
    with pytest.raises(ValueError, match="unknown solver 'nope'") as error:
        get_solver("nope")
    for name in available_solvers():
        assert name in str(error.value)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_each_registered_class_is_a_solver_carrying_its_registry_name(name):
    cls = solver_class(name)
    assert issubclass(cls, Solver)
    assert cls.name == name


LESSONS = Path(__file__).resolve().parents[1] / "notebooks"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_each_registered_solver_has_a_family_a_lesson_and_a_one_line_description(name):
    entry = registered(name)
    assert entry.family in FAMILIES
    assert entry.lesson is None or len(list(LESSONS.glob(f"{entry.lesson}-*.ipynb"))) == 1, entry.lesson
    docstring = inspect.getdoc(solver_class(name))
    summary, *rest = docstring.split("\n")
    assert solver_description(name) == summary  # read from the source, without importing the module
    assert summary.endswith(".") and (not rest or rest[0] == ""), "the docstring starts with a one-line summary"
    named = re.search(r"\bLesson (\d\d)", docstring)  # a docstring that names its lesson agrees with the registry
    assert (named.group(1) if named else None) == entry.lesson


def test_get_solver_builds_a_fresh_instance_each_time():
    assert get_solver("exact") is not get_solver("exact")
    assert isinstance(get_solver("exact"), Solver)
