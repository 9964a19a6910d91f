"""The `sudoku-course` command (cli.py), called in-process through main()."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from sudoku_course.cli import main
from sudoku_course.grid import SudokuGrid
from sudoku_course.puzzles import load_bank
from sudoku_course.solvers import available_solvers
from sudoku_course.solvers.exact import count_solutions

TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
TEMOIN_SOLUTION = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Call main(argv); return the exit code, stdout and stderr."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_usage_error(code: int, out: str, err: str, *fragments: str) -> None:
    """Exit code 2, nothing on stdout, one line on stderr holding every fragment, no traceback."""
    assert code == 2
    assert out == ""
    assert err.startswith("sudoku-course: error: ") and err.count("\n") == 1
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err


# ------------------------------------------------------------------- solve
def test_solve_prints_the_solution_and_exits_0(capsys):
    code, out, err = run(capsys, "solve", TEMOIN)
    assert code == 0
    lines = out.splitlines()
    assert SudokuGrid.from_string("\n".join(lines[:-1])).to_string() == TEMOIN_SOLUTION
    assert lines[-1].startswith("exact: solved")


def test_solve_exits_1_when_the_budget_runs_out(capsys):
    code, out, _ = run(capsys, "solve", TEMOIN, "--solver", "backtracking", "--budget", "5", "--seed", "3")
    assert code == 1
    assert "backtracking: not solved" in out


def test_solve_reads_the_chosen_puzzle_of_a_file(capsys, tmp_path):
    path = tmp_path / "mine.txt"
    second = load_bank("easy")[1]
    path.write_text(f"# two puzzles\n{TEMOIN}\n\n{second.to_string(empty='.')}\n")
    code, out, _ = run(capsys, "solve", str(path), "--index", "1", "--time-limit", "5")
    assert code == 0
    solution = SudokuGrid.from_string("\n".join(out.splitlines()[:-1]))
    assert solution.is_solved()
    assert (solution.cells[second.givens] == second.cells[second.givens]).all()
    code, out, _ = run(capsys, "solve", str(path))
    assert code == 0 and SudokuGrid.from_string("\n".join(out.splitlines()[:-1])).to_string() == TEMOIN_SOLUTION


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["solve", TEMOIN[9:]], ["invalid puzzle", "found 72"]),
        (["solve", "99" + TEMOIN[2:]], ["digit 9 appears twice in row 1"]),
        (["solve", "missing/puzzles.txt"], ["no such file: missing/puzzles.txt"]),
        (["solve", TEMOIN, "--solver", "nope"], ["unknown solver 'nope'", "exact"]),
        (["solve", TEMOIN, "--budget", "0"], ["--budget", "positive integer"]),
        (["solve", TEMOIN, "--budget", "many"], ["--budget", "'many'"]),
        (["solve", TEMOIN, "--time-limit", "-1"], ["--time-limit", "positive number"]),
        (["solve", TEMOIN, "--seed", "-1"], ["--seed", "non-negative"]),
        (["solve", TEMOIN, "--index", "1"], ["--index only applies to a file"]),
        (["solve"], ["required: puzzle"]),
        ([], ["required: COMMAND"]),
        (["fly"], ["invalid choice: 'fly'"]),
    ],
)
def test_bad_input_gives_one_line_and_exit_code_2(capsys, argv, fragments):
    assert_usage_error(*run(capsys, *argv), *fragments)


def test_bad_puzzle_files_give_one_line_and_exit_code_2(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{TEMOIN}\n{TEMOIN[9:]}\n")
    assert_usage_error(*run(capsys, "solve", str(bad), "--index", "1"), "bad.txt, line 2", "found 72")
    good = tmp_path / "good.txt"
    good.write_text(TEMOIN + "\n")
    assert_usage_error(*run(capsys, "solve", str(good), "--index", "3"), "holds 1 puzzle", "--index 3")
    assert_usage_error(*run(capsys, "solve", str(tmp_path)), "directory")


# ------------------------------------------------------------------- bench
def test_bench_prints_a_summary_and_writes_the_runs(capsys, tmp_path):
    csv = tmp_path / "runs.csv"
    argv = ["bench", "--solvers", "exact", "backtracking", "--bank", "easy", "--bank", "medium", "--limit", "2"]
    code, out, _ = run(capsys, *argv, "--seeds", "2", "--csv", str(csv), "--disqualify", "--no-progress")
    assert code == 0
    header, *rows = out.splitlines()
    assert header.split()[:5] == ["solver", "difficulty", "runs", "solved", "success_rate"]
    assert "disqualified" in header
    assert [row.split()[:4] for row in rows] == [
        ["exact", "easy", "4", "4"],
        ["exact", "medium", "4", "4"],
        ["backtracking", "easy", "4", "4"],
        ["backtracking", "medium", "4", "4"],
    ]
    runs = pd.read_csv(csv)
    assert len(runs) == 2 * 2 * 2 * 2
    assert runs["solved"].all()
    assert sorted(set(runs["puzzle"])) == ["easy-00", "easy-01", "medium-00", "medium-01"]


def test_bench_defaults_to_the_easy_bank_with_the_exact_solver(capsys):
    code, out, err = run(capsys, "bench", "--limit", "3")
    assert code == 0
    assert out.splitlines()[1].split()[:4] == ["exact", "easy", "3", "3"]
    assert "benchmark" in err  # the progress bar


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["bench", "--bank", "impossible"], ["unknown bank 'impossible'"]),
        (["bench", "--solvers", "exact", "nope"], ["unknown solver 'nope'"]),
        (["bench", "--seeds", "0"], ["--seeds", "positive integer"]),
        (["bench", "--jobs", "two"], ["--jobs", "'two'"]),
        (["bench", "--limit", "-3"], ["--limit"]),
        (["bench", "--csv", "missing/runs.csv"], ["folder missing does not exist"]),
    ],
)
def test_bench_bad_input(capsys, argv, fragments):
    assert_usage_error(*run(capsys, *argv), *fragments)


# ---------------------------------------------------------------- generate
def test_generate_prints_distinct_unique_puzzles_reproducibly(capsys):
    code, out, _ = run(capsys, "generate", "--difficulty", "easy", "-n", "3", "--seed", "7")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3 == len(set(lines))
    assert all(count_solutions(SudokuGrid.from_string(line)) == 1 for line in lines)
    assert run(capsys, "generate", "--difficulty", "easy", "-n", "3", "--seed", "7")[1] == out


def test_generate_bad_input(capsys):
    assert_usage_error(*run(capsys, "generate", "--difficulty", "extreme"), "invalid choice: 'extreme'")
    assert_usage_error(*run(capsys, "generate", "-n", "0"), "-n/--count", "positive integer")


# ----------------------------------------------------------------- others
def test_list_solvers_prints_every_registered_name(capsys):
    code, out, _ = run(capsys, "list-solvers")
    assert code == 0
    assert out.splitlines() == available_solvers()


def test_help_exits_0(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("solve", "bench", "generate", "list-solvers"):
        assert command in out


def test_the_installed_script_runs_in_its_own_process():
    script = Path(sys.executable).with_name("sudoku-course")
    done = subprocess.run([str(script), "solve", TEMOIN[9:]], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == (
        "sudoku-course: error: invalid puzzle: expected 81 cells for a 9 x 9 grid (or 16, 256, 625), found 72"
    )


def test_exercises_generates_then_reports_no_drift(capsys, tmp_path):
    solutions, exercises = tmp_path / "solutions", tmp_path / "exercises"
    solutions.mkdir()
    (solutions / "00-demo.ipynb").write_bytes((Path(__file__).parent / "data" / "demo_solution.ipynb").read_bytes())
    assert main(["exercises", str(solutions), str(exercises), "--check"]) == 1
    assert main(["exercises", str(solutions), str(exercises)]) == 0
    assert (exercises / "00-demo.ipynb").exists()
    assert main(["exercises", str(solutions), str(exercises), "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_grade_refuses_a_missing_folder_with_exit_code_2(capsys, tmp_path):
    assert main(["grade", str(tmp_path / "nowhere")]) == 2
    assert "nowhere" in capsys.readouterr().err
