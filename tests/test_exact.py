"""Tests of the exact solver, count_solutions, search_effort and the naive backtracking."""

from __future__ import annotations

import json
from functools import cache
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course.grid import InvalidPuzzleError, SudokuGrid, layout
from sudoku_course.puzzles import BANKS, load_bank
from sudoku_course.solvers import get_solver
from sudoku_course.solvers.exact import (
    ExactSolver,
    NaiveBacktracking,
    count_solutions,
    first_fewest,
    most_linked_pair,
    rating_solution,
    search_effort,
    solve_exact,
)

TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
TEMOIN_SOLUTION_START = "962185473"
# No given conflicts, yet r1c9 can hold no digit: its row holds 1..8 and its column a 9.
UNSOLVABLE = "123456780" + "000000009" + "0" * 63
# A minimal puzzle that needs many guesses (from the hard bank).
HARD = "006400000400005003085209070000180060800000000000000490304000900200003001000050000"


@cache
def all_4x4_solutions() -> tuple[tuple[int, ...], ...]:
    """Every solved 4 x 4 grid (there are 288), built row by row from all permutations."""
    grids: list[tuple[tuple[int, ...], ...]] = [()]
    for _ in range(4):
        grids = [rows + (row,) for rows in grids for row in permutations(range(1, 5)) if _fits(rows, row)]
    return tuple(sum(rows, ()) for rows in grids)


def _fits(rows: tuple[tuple[int, ...], ...], row: tuple[int, ...]) -> bool:
    """True if `row` repeats no digit of the columns above it, nor of its left box (then the right box is fine too)."""
    if any(above[c] == row[c] for above in rows for c in range(4)):
        return False
    return len(rows) % 2 == 0 or {*rows[-1][:2], *row[:2]} == {1, 2, 3, 4}


def brute_force_solutions(puzzle: SudokuGrid) -> list[tuple[int, ...]]:
    """The solved 4 x 4 grids that agree with every filled cell of `puzzle`."""
    values = puzzle.cells.ravel().tolist()
    return [s for s in all_4x4_solutions() if all(v in (0, d) for v, d in zip(values, s, strict=True))]


def test_brute_force_finds_the_288_grids_of_size_4():
    assert len(all_4x4_solutions()) == 288
    assert all(SudokuGrid(np.reshape(solution, (4, 4))).is_solved() for solution in all_4x4_solutions())
    assert count_solutions("0" * 16, limit=1000) == 288


# --------------------------------------------------------------------- témoin
def test_solves_the_temoin_with_singles_alone():
    result = solve_exact(TEMOIN)
    assert result.solved and result.cost == 0
    assert result.grid.to_string().startswith(TEMOIN_SOLUTION_START)
    assert result.stats == {"nodes": 1, "guesses": 0}
    assert result.evaluations == 1
    assert result.solver == "exact"


def test_temoin_has_exactly_one_solution():
    assert count_solutions(TEMOIN) == 1
    assert count_solutions(TEMOIN, limit=10) == 1


def test_solution_keeps_the_givens_and_marks_them():
    puzzle = SudokuGrid.from_string(TEMOIN)
    result = solve_exact(puzzle)
    assert (result.grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()
    assert (result.grid.givens == puzzle.givens).all()


@pytest.mark.parametrize("solver", [ExactSolver(), NaiveBacktracking()], ids=lambda s: s.name)
def test_solvers_never_modify_their_input(solver):
    puzzle = SudokuGrid.from_string(TEMOIN)
    before_cells, before_givens = puzzle.cells.copy(), puzzle.givens.copy()
    solver.solve(puzzle, seed=0)
    count_solutions(puzzle)
    search_effort(puzzle)
    assert (puzzle.cells == before_cells).all() and (puzzle.givens == before_givens).all()


def test_exact_solver_ignores_the_seed():
    first, second = ExactSolver().solve(HARD, seed=1), ExactSolver().solve(HARD, seed=2)
    assert first.grid == second.grid and first.stats == second.stats


def test_hard_puzzle_needs_guesses_and_is_solved():
    result = solve_exact(HARD)
    assert result.solved
    assert result.stats["guesses"] > 0
    assert result.evaluations == result.stats["nodes"] > result.stats["guesses"]


# ------------------------------------------------------------ branching rules
def test_first_fewest_takes_the_first_cell_with_the_fewest_candidates():
    peer_bits = [sum(1 << peer for peer in peers) for peers in layout(3).peers]
    candidates = [0b1] * 81
    candidates[5], candidates[40], candidates[70] = 0b111, 0b11, 0b110
    assert first_fewest(candidates, peer_bits) == 40
    assert first_fewest([0b1] * 81, peer_bits) is None


def test_most_linked_pair_takes_the_pair_with_the_most_paired_peers():
    peer_bits = [sum(1 << peer for peer in peers) for peers in layout(3).peers]
    candidates = [0b1] * 81
    # cell 0 has one paired peer (cell 1); cell 40 has two (cells 41 and 49); cell 80 none but a triple
    for cell in (0, 1, 40, 41, 49):
        candidates[cell] = 0b11
    candidates[80] = 0b111
    assert most_linked_pair(candidates, peer_bits) == 40
    assert first_fewest(candidates, peer_bits) == 0
    candidates = [0b1] * 81
    candidates[7], candidates[60] = 0b11110, 0b111
    assert most_linked_pair(candidates, peer_bits) == 60  # no pair: the first cell with the fewest candidates


def test_the_solver_guesses_less_than_the_rating_on_the_hard_puzzle():
    # The rating's rule (first cell with the fewest candidates) guesses 12 times here, the solver's rule 6 times.
    assert solve_exact(HARD).stats["guesses"] < search_effort(HARD)["guesses"]


# ------------------------------------------------- unsolvable and ambiguous
def test_unsolvable_puzzle_gives_an_unsolved_result_and_no_solution():
    result = solve_exact(UNSOLVABLE)
    assert not result.solved
    assert result.grid == SudokuGrid.from_string(UNSOLVABLE)
    assert count_solutions(UNSOLVABLE) == 0
    with pytest.raises(ValueError, match="no solution"):
        search_effort(UNSOLVABLE)


def test_conflicting_givens_are_rejected_by_the_solvers():
    conflicting = "99" + "0" * 79
    with pytest.raises(InvalidPuzzleError, match="givens in conflict"):
        solve_exact(conflicting)
    with pytest.raises(InvalidPuzzleError, match="givens in conflict"):
        NaiveBacktracking().solve(conflicting, seed=0)


@pytest.mark.parametrize("form", ["string", "array", "grid"])
def test_exact_solver_checks_the_givens_of_every_input_form(form):
    clash = "99" + TEMOIN[2:]
    puzzle = {
        "string": clash,
        "array": [int(c) for c in clash],
        "grid": SudokuGrid.from_array([int(c) for c in clash], validate=False),
    }[form]
    with pytest.raises(InvalidPuzzleError, match="digit 9 appears twice in row 1"):
        ExactSolver().solve(puzzle)


def test_an_unsolved_result_holds_a_copy_of_the_puzzle_not_the_puzzle_itself():
    puzzle = SudokuGrid.from_string(UNSOLVABLE)
    result = ExactSolver().solve(puzzle)
    assert result.grid == puzzle and result.grid is not puzzle
    result.grid.cells[0, 0] = 9
    assert puzzle.to_string() == UNSOLVABLE


def test_exact_solver_records_the_seed_and_refuses_a_bad_budget():
    assert ExactSolver().solve(TEMOIN, seed=5).seed == 5
    assert ExactSolver().solve(TEMOIN, budget=1).solved  # an evaluation budget does not stop it
    with pytest.raises(ValueError, match="budget must be"):
        ExactSolver().solve(TEMOIN, budget=-1)


def test_conflicting_filled_cells_have_no_solution():
    grid = SudokuGrid.from_array([9, 9] + [0] * 79, validate=False)
    assert count_solutions(grid) == 0


def test_count_solutions_stops_at_the_limit():
    assert count_solutions("0" * 81) == 2
    assert count_solutions("0" * 81, limit=7) == 7
    assert count_solutions(TEMOIN[:-4] + "0000", limit=1) == 1


def test_count_solutions_rejects_a_limit_below_one():
    with pytest.raises(ValueError, match="limit"):
        count_solutions(TEMOIN, limit=0)


def test_puzzle_with_two_solutions_is_counted_and_still_solved():
    # The témoin's solution with a "deadly rectangle" emptied: two digits can swap in four cells.
    solution = solve_exact(TEMOIN).grid.cells.copy()
    rectangle = _swappable_rectangle(solution)
    solution.ravel()[list(rectangle)] = 0
    assert count_solutions(solution) == 2
    assert solve_exact(solution).solved


def _swappable_rectangle(cells: np.ndarray) -> tuple[int, int, int, int]:
    """Four cells (r1,c1) (r1,c2) (r2,c1) (r2,c2) within two boxes holding a, b / b, a: swapping keeps it solved."""
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    same_band, same_stack = r1 // 3 == r2 // 3, c1 // 3 == c2 // 3
                    a, b = cells[r1, c1], cells[r1, c2]
                    if (same_band or same_stack) and cells[r2, c1] == b and cells[r2, c2] == a:
                        return r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2
    raise AssertionError("no swappable rectangle in this grid")


# ------------------------------------------------------ brute force on 4 x 4
cells_4x4 = st.lists(st.integers(0, 4), min_size=16, max_size=16)


@settings(max_examples=300, deadline=None)
@given(values=cells_4x4, keep=st.lists(st.booleans(), min_size=16, max_size=16))
def test_matches_brute_force_on_4x4(values, keep):
    # Thin out the random values so that solvable, unsolvable and ambiguous puzzles all occur.
    puzzle = SudokuGrid.from_array(np.where(keep, values, 0).reshape(4, 4), validate=False)
    expected = brute_force_solutions(puzzle)
    if puzzle.conflicting_cells().any():
        assert count_solutions(puzzle) == 0
        with pytest.raises(InvalidPuzzleError):
            solve_exact(puzzle)
        return
    assert count_solutions(puzzle, limit=1000) == len(expected)
    assert count_solutions(puzzle) == min(len(expected), 2)
    result = solve_exact(puzzle)
    assert result.solved == bool(expected)
    if expected:
        assert tuple(result.grid.cells.ravel().tolist()) in expected
        assert search_effort(puzzle)["singles_only"] == (result.stats["guesses"] == 0)


@settings(max_examples=100, deadline=None)
@given(index=st.integers(0, 287), keep=st.lists(st.booleans(), min_size=16, max_size=16))
def test_masked_solutions_of_4x4_are_solved_by_both_solvers(index, keep):
    solution = np.array(all_4x4_solutions()[index]).reshape(4, 4)
    puzzle = SudokuGrid(np.where(np.reshape(keep, (4, 4)), solution, 0))
    exact, naive = solve_exact(puzzle), NaiveBacktracking().solve(puzzle, seed=0)
    assert exact.solved and naive.solved
    if len(brute_force_solutions(puzzle)) == 1:
        assert (exact.grid.cells == solution).all() and (naive.grid.cells == solution).all()


# ------------------------------------------------------------------ 16 x 16
def test_solves_16x16_grids():
    full = solve_exact("0" * 256)
    assert full.solved
    puzzle = full.grid.cells.copy()
    puzzle.ravel()[np.random.default_rng(0).permutation(256)[:120]] = 0
    result = solve_exact(SudokuGrid(puzzle))
    assert result.solved
    assert (result.grid.cells[puzzle != 0] == puzzle[puzzle != 0]).all()


# --------------------------------------------------------- naive backtracking
def test_naive_backtracking_counts_its_calls_on_the_temoin():
    result = NaiveBacktracking().solve(TEMOIN, seed=0)
    assert result.solved
    assert result.grid == solve_exact(TEMOIN).grid
    assert result.stats == {"calls": 49}
    assert result.evaluations == 49


def test_naive_backtracking_stops_when_the_budget_is_spent():
    result = NaiveBacktracking().solve(HARD, seed=0, budget=500)
    assert not result.solved
    assert result.evaluations == result.stats["calls"] == 500
    assert result.grid == SudokuGrid.from_string(HARD)


def test_naive_backtracking_reports_an_unsolvable_puzzle():
    result = NaiveBacktracking().solve(UNSOLVABLE, seed=0)
    assert not result.solved
    assert result.grid == SudokuGrid.from_string(UNSOLVABLE)


# ------------------------------------------------------------------ registry
def test_both_solvers_are_registered():
    assert isinstance(get_solver("exact"), ExactSolver)
    assert isinstance(get_solver("backtracking"), NaiveBacktracking)
    assert get_solver("exact").name == "exact" and get_solver("backtracking").name == "backtracking"


def test_search_effort_tells_singles_from_guesses():
    assert search_effort(TEMOIN) == {"nodes": 1, "guesses": 0, "singles_only": True}
    effort = search_effort(HARD)
    assert not effort["singles_only"] and effort["guesses"] > 0


# ------------------------------------------------------- the rating is pinned
BANK_EFFORTS = Path(__file__).parent / "data" / "bank_efforts.json"
"""Nodes and guesses of search_effort for every puzzle of the committed banks, recorded before the
exact solver was made faster (the diabolique bank's when it was made, with a solver these pins had kept):
speed-ups must leave the rating (and so the banks) where it was."""


@pytest.mark.parametrize("bank", BANKS)
def test_the_search_effort_of_the_committed_banks_has_not_moved(bank):
    recorded = json.loads(BANK_EFFORTS.read_text(encoding="utf-8"))[bank]
    puzzles = load_bank(bank)
    assert [p.to_string() for p in puzzles] == list(recorded)
    for puzzle in puzzles:
        effort = search_effort(puzzle)
        assert [effort["nodes"], effort["guesses"]] == recorded[puzzle.to_string()], puzzle.to_string()


def test_rating_solution_follows_the_rating_search():
    assert rating_solution(TEMOIN).to_string().startswith(TEMOIN_SOLUTION_START)
    assert rating_solution(UNSOLVABLE) is None
    # an empty grid has many solutions: the rating's order (first cell, smallest digit) fills row 1 with 1..9
    assert rating_solution("0" * 81).to_string().startswith("123456789")
