"""CP-SAT and Z3 behind the solver contract, and CP-SAT's count of solutions against ours."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course.bench import benchmark
from sudoku_course.cli import main
from sudoku_course.grid import InvalidPuzzleError, SudokuGrid, as_grid
from sudoku_course.puzzles import bank_names, load_bank
from sudoku_course.solvers import Budget, get_solver, industrial
from sudoku_course.solvers.exact import count_solutions, solve_exact
from sudoku_course.solvers.industrial import CpSatSolver, Z3Solver, count_solutions_cp_sat

TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
UNSOLVABLE = "123456780" + "000000009" + "0" * 63  # r1c9 can hold no digit
SOLVERS = [CpSatSolver, Z3Solver]
Z3_SAMPLE = 8  # puzzles per bank for Z3, up to about 0.4 s each
STAT_KEYS = {"branches", "conflicts", "wall_time", "infeasible"}


def check_contract(solver, puzzle: SudokuGrid) -> None:
    """Solved, valid, givens kept and marked, input untouched, engine statistics reported."""
    before_cells, before_givens = puzzle.cells.copy(), puzzle.givens.copy()
    result = solver.solve(puzzle, seed=0)
    assert result.solved and result.cost == 0 and result.grid.is_solved(), puzzle.to_string()
    assert (result.grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()
    assert (result.grid.givens == puzzle.givens).all()
    assert (puzzle.cells == before_cells).all() and (puzzle.givens == before_givens).all()
    assert set(result.stats) >= STAT_KEYS and result.stats["infeasible"] == 0
    assert result.evaluations == result.stats["branches"]
    assert result.solver == solver.name


@pytest.mark.parametrize("bank", bank_names())
def test_cp_sat_solves_every_bank_puzzle_under_the_contract(bank):
    solver = CpSatSolver()
    for puzzle in load_bank(bank):
        check_contract(solver, puzzle)


@pytest.mark.parametrize("bank", bank_names())
def test_z3_solves_a_sample_of_every_bank_under_the_contract(bank):
    solver = Z3Solver()
    puzzles = load_bank(bank)
    for index in np.random.default_rng(15).choice(len(puzzles), Z3_SAMPLE, replace=False):
        check_contract(solver, puzzles[index])


@pytest.mark.parametrize("cls", SOLVERS, ids=lambda cls: cls.name)
def test_solutions_agree_with_the_exact_solver_on_4x4_9x9_and_16x16(cls):
    solver = cls()
    full_16 = solve_exact("0" * 256).grid.cells
    puzzle_16 = np.where(np.random.default_rng(0).random((16, 16)) < 0.5, full_16, 0)
    for puzzle in ["0" * 16, "1000000000000000", TEMOIN, SudokuGrid(puzzle_16)]:
        check_contract(solver, as_grid(puzzle))
    assert solver.solve(TEMOIN, seed=0).grid == solve_exact(TEMOIN).grid  # one solution: the same one


@pytest.mark.parametrize("cls", SOLVERS, ids=lambda cls: cls.name)
def test_bad_input_is_rejected_with_a_clear_error(cls):
    with pytest.raises(InvalidPuzzleError, match="digit 9 appears twice in row 1"):
        cls().solve("99" + TEMOIN[2:], seed=0)
    with pytest.raises(InvalidPuzzleError, match="unknown character '\\?'"):
        cls().solve("?" + TEMOIN[1:], seed=0)
    with pytest.raises(InvalidPuzzleError, match="found 80"):
        cls().solve(TEMOIN[1:], seed=0)


@pytest.mark.parametrize("cls", SOLVERS, ids=lambda cls: cls.name)
def test_an_unsolvable_puzzle_is_reported_as_not_solved_and_proved_infeasible(cls):
    result = cls().solve(UNSOLVABLE, seed=0)
    assert not result.solved and result.cost > 0
    assert result.grid == SudokuGrid.from_string(UNSOLVABLE)
    assert result.stats["infeasible"] == 1


@pytest.mark.parametrize("cls", SOLVERS, ids=lambda cls: cls.name)
def test_an_evaluation_budget_is_ignored_and_said_so(cls):
    result = cls().solve(TEMOIN, seed=0, budget=3)
    assert result.solved
    assert result.stats["ignored_evaluation_budget"] == 3
    assert "ignored_evaluation_budget" not in cls().solve(TEMOIN, seed=0).stats


@pytest.mark.parametrize("cls", SOLVERS, ids=lambda cls: cls.name)
def test_same_seed_same_search(cls):
    puzzle = load_bank("hard")[0]
    first, second = cls().solve(puzzle, seed=7), cls().solve(puzzle, seed=7)
    assert first.grid == second.grid
    assert first.stats["branches"] == second.stats["branches"]
    assert first.stats["conflicts"] == second.stats["conflicts"]


@pytest.mark.parametrize("cls", SOLVERS, ids=lambda cls: cls.name)
def test_workers_default_to_one_and_must_be_a_positive_integer(cls):
    assert cls().workers == 1
    assert cls(workers=2).solve(TEMOIN, seed=0).solved
    for bad in (0, -1, 1.5, "2", True):
        with pytest.raises(ValueError, match="workers must be a positive integer"):
            cls(workers=bad)


def test_cp_sat_gets_the_seed_workers_and_time_limit():
    engine = industrial._cp_sat_engine(3, 42, 2.5)
    assert engine.parameters.num_workers == 3
    assert engine.parameters.random_seed == 42
    assert engine.parameters.max_time_in_seconds == 2.5


def test_z3_gets_the_seed_workers_and_time_limit(monkeypatch):
    settings_given = []
    original = industrial.z3.Solver.set

    def spy(self, *args):
        settings_given.append(args)
        return original(self, *args)

    monkeypatch.setattr(industrial.z3.Solver, "set", spy)
    Z3Solver(workers=2).solve(TEMOIN, seed=0, budget=Budget(seconds=2.5))
    names = dict(settings_given)
    assert names["threads"] == 2 and names["timeout"] == 2500
    assert isinstance(names["random_seed"], int)


@pytest.mark.parametrize("cls", SOLVERS, ids=lambda cls: cls.name)
def test_a_time_budget_that_runs_out_gives_an_unsolved_result(cls):
    # An empty 25 x 25 grid takes CP-SAT seconds and Z3 minutes: a microsecond is far too short.
    puzzle = SudokuGrid(np.zeros((25, 25), dtype=int))
    result = cls().solve(puzzle, seed=0, budget=Budget(seconds=1e-6))
    assert not result.solved
    assert result.grid == puzzle and result.stats["infeasible"] == 0


# ------------------------------------------------------------ uniqueness
@pytest.mark.parametrize("bank", bank_names())
def test_cp_sat_confirms_the_unique_solution_of_a_sample_of_every_bank(bank):
    puzzles = load_bank(bank)
    for index in np.random.default_rng(12).choice(len(puzzles), 10, replace=False):
        assert count_solutions_cp_sat(puzzles[index]) == count_solutions(puzzles[index]) == 1


def test_cp_sat_and_our_count_agree_when_a_clue_is_removed():
    # Removing a clue from a minimal puzzle (the hard bank's are) gives several solutions: both counts must see it.
    puzzle = load_bank("hard")[0].cells.copy()
    for cell in np.flatnonzero(puzzle)[:5]:
        fewer = puzzle.copy()
        fewer.ravel()[cell] = 0
        assert count_solutions_cp_sat(fewer, limit=3) == count_solutions(fewer, limit=3) >= 2


@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.integers(0, 4), min_size=16, max_size=16))
def test_cp_sat_count_matches_ours_on_random_4x4_puzzles(values):
    puzzle = SudokuGrid.from_array(np.reshape(values, (4, 4)), validate=False)
    if puzzle.conflicting_cells().any():
        with pytest.raises(InvalidPuzzleError):
            count_solutions_cp_sat(puzzle)
        return
    assert count_solutions_cp_sat(puzzle, limit=5) == count_solutions(puzzle, limit=5)


def test_count_solutions_cp_sat_rejects_a_limit_below_one():
    with pytest.raises(ValueError, match="limit"):
        count_solutions_cp_sat(TEMOIN, limit=0)


# --------------------------------------------------- registry and campaigns
def test_both_are_registered_and_picklable():
    assert isinstance(get_solver("cp-sat"), CpSatSolver) and isinstance(get_solver("z3", workers=2), Z3Solver)
    copy = pickle.loads(pickle.dumps(get_solver("cp-sat", workers=2)))
    assert copy.workers == 2 and copy.solve(TEMOIN, seed=0).solved


def test_importing_the_package_loads_neither_engine():
    code = (
        "import sys, sudoku_course, sudoku_course.solvers, sudoku_course.bench, sudoku_course.cli\n"
        "sudoku_course.solvers.solver_class('exact')\n"
        "print(sorted({'ortools', 'z3'} & set(sys.modules)))"
    )
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.strip() == "[]"


def test_a_campaign_with_an_evaluation_budget_still_runs_them():
    df = benchmark(["exact", "cp-sat", "z3"], [TEMOIN], budget=50, progress=False)
    assert df["solved"].all() and (df["error"] == "").all()
    assert df["solver"].tolist() == ["exact", "cp-sat", "z3"]


def test_the_cli_solves_and_benchmarks_with_both_engines(capsys):
    assert main(["solve", "--solver", "cp-sat", TEMOIN]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert SudokuGrid.from_string("\n".join(lines[:-1])) == solve_exact(TEMOIN).grid
    assert lines[-1].startswith("cp-sat: solved")
    argv = ["bench", "--solvers", "exact", "cp-sat", "z3", "--bank", "hard", "--limit", "2", "--no-progress"]
    assert main(argv) == 0
    rows = [line.split()[:2] + line.split()[4:6] for line in capsys.readouterr().out.splitlines()[1:]]
    assert rows == [[name, "hard", "2/2", "100%"] for name in ("exact", "cp-sat", "z3")]
