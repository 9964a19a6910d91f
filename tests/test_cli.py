"""The `sudoku-course` command (cli.py), called in-process through main()."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from distributed import LocalCluster

from sudoku_course import campaigns
from sudoku_course.bench import SUMMARY_COLUMNS
from sudoku_course.campaigns import TEMOIN as TEMOIN_BANK
from sudoku_course.campaigns import Campaign, Configuration, PuzzleSet, Slice, campaign_names
from sudoku_course.cli import TABLE_WIDTH, main
from sudoku_course.grid import SudokuGrid
from sudoku_course.messages import ERROR_PREFIX
from sudoku_course.puzzles import load_bank, open_cells
from sudoku_course.solvers import available_solvers, registered, solver_description
from sudoku_course.solvers.exact import count_solutions

TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
TEMOIN_SOLUTION = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"
NO_SOLUTION = "123456780" + "000000009" + "0" * 63
"""No given conflicts, but the last cell of row 1 has no candidate left: 9 is already in its column."""
HEAVY_MODULES = [
    *("pandas", "nbformat", "nbclient", "papermill", "matplotlib", "numba", "mealpy", "pygad", "simanneal"),
    *("ortools", "z3", "dask", "distributed", "joblib"),
]
"""Modules that take long to import: `--help` and the light commands must not import them."""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Call main(argv); return the exit code, stdout and stderr."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_usage_error(code: int, out: str, err: str, *fragments: str) -> None:
    """Exit code 2, nothing on stdout, one line on stderr holding every fragment, no traceback."""
    assert code == 2
    assert out == ""
    assert err.startswith(ERROR_PREFIX) and err.count("\n") == 1
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


def test_solve_counts_in_the_singular_and_the_plural(capsys):
    out = run(capsys, "solve", TEMOIN)[1]  # propagation alone solves the témoin: one evaluation, no iteration
    assert re.search(r"exact: solved in [\d.]+ ms, 1 evaluation, 0 iterations, 0 restarts, nodes=1", out)
    out = run(capsys, "solve", TEMOIN, "--solver", "backtracking", "--budget", "1")[1]
    assert ", 1 evaluation, 0 iterations, 0 restarts" in out
    assert re.search(r"not solved \(\d+ conflicts left\)", out)


def test_solve_exits_1_when_the_budget_runs_out(capsys):
    code, out, _ = run(capsys, "solve", TEMOIN, "--solver", "backtracking", "--budget", "5", "--seed", "3")
    assert code == 1
    assert "backtracking: not solved" in out


def grids_of(out: str) -> list[SudokuGrid]:
    """Every grid printed in `out` (9 digit lines between separators)."""
    lines = [line for line in out.splitlines() if re.fullmatch(r"[0-9 |]+", line) and len(line) == 21]
    return [SudokuGrid.from_string("\n".join(lines[start : start + 9])) for start in range(0, len(lines), 9)]


def test_solve_reads_every_puzzle_of_a_file_or_the_chosen_one(capsys, tmp_path):
    path = tmp_path / "mine.txt"
    second = load_bank("easy")[1]
    path.write_text(f"# two puzzles\n{TEMOIN}\n\n{second.to_string(empty='.')}\n")
    code, out, _ = run(capsys, "solve", str(path), "--index", "1", "--time-limit", "5")
    assert code == 0
    [solution] = grids_of(out)
    assert solution.is_solved()
    assert (solution.cells[second.givens] == second.cells[second.givens]).all()
    code, out, _ = run(capsys, "solve", str(path))
    assert code == 0
    assert [grid.is_solved() for grid in grids_of(out)] == [True, True]
    assert grids_of(out)[0].to_string() == TEMOIN_SOLUTION
    assert "mine.txt #0" in out and "mine.txt #1" in out
    assert out.splitlines()[-1] == "solved 2 of 2 puzzles"


def test_a_puzzle_without_solution_is_reported_as_such(capsys, tmp_path):
    for solver in ("exact", "annealing"):
        code, out, _ = run(capsys, "solve", NO_SOLUTION, "--solver", solver)
        assert code == 1
        assert out == "no solution: the exact solver proves that no grid completes these givens\n"
    path = tmp_path / "some.txt"
    path.write_text(f"{TEMOIN}\n{NO_SOLUTION}\n")
    code, out, _ = run(capsys, "solve", str(path))
    assert code == 1
    assert len(grids_of(out)) == 1 and "some.txt #1\nno solution" in out
    assert out.splitlines()[-1] == "solved 1 of 2 puzzles"


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["solve", TEMOIN[9:]], ["invalid puzzle", "found 72"]),
        (["solve", "99" + TEMOIN[2:]], ["digit 9 appears twice in row 1"]),
        (["solve", "missing/puzzles.txt"], ["no such file: missing/puzzles.txt"]),
        (["solve", ""], ["empty argument"]),
        (["solve", "   "], ["empty argument"]),
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
    assert_usage_error(*run(capsys, "solve", str(good), "--index", "3"), "holds 1 puzzle;", "--index 3")
    assert_usage_error(*run(capsys, "solve", str(tmp_path)), "is a directory, not a file of puzzles")
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing yet\n")
    assert_usage_error(*run(capsys, "solve", str(empty)), "empty.txt holds no puzzle")


def test_a_bad_character_in_a_file_names_its_line_once_with_the_column_and_the_character(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{TEMOIN}\n{TEMOIN[:11]}a{TEMOIN[12:]}\n")
    code, out, err = run(capsys, "solve", str(bad))
    assert_usage_error(code, out, err)
    assert err == f"{ERROR_PREFIX}bad.txt, line 2: character 'a' at column 12 is not a symbol of a 9 x 9 grid (1-9)\n"
    code, out, err = run(capsys, "solve", TEMOIN[:11] + "g" + TEMOIN[12:])
    assert_usage_error(code, out, err, "character 'g' at line 1, column 12 is not a symbol of a 9 x 9 grid (1-9)")


# ------------------------------------------------------------------- bench
def test_bench_prints_a_summary_and_writes_the_runs(capsys, tmp_path):
    csv = tmp_path / "runs.csv"
    argv = ["bench", "--solvers", "exact", "backtracking", "--bank", "easy", "--bank", "medium", "--limit", "2"]
    code, out, _ = run(capsys, *argv, "--seeds", "2", "--csv", str(csv), "--disqualify", "--no-progress")
    assert code == 0
    header, *rows = out.splitlines()
    assert header.split() == [
        "solver",
        "difficulty",
        "empty",
        "open",
        "solved",
        "success",
        "med",
        "time",
        "max",
        "time",
        "med",
        "evals",
        "disqualified",
    ]
    easy, medium = (load_bank(name)[:2] for name in ("easy", "medium"))
    described = {
        name: [f"{sum(p.empty_count for p in bank) / 2:.1f}", f"{sum(open_cells(p) for p in bank) / 2:.1f}"]
        for name, bank in (("easy", easy), ("medium", medium))
    }
    assert [row.split()[:6] for row in rows] == [
        ["exact", "easy", *described["easy"], "4/4", "100%"],
        ["exact", "medium", *described["medium"], "4/4", "100%"],
        ["backtracking", "easy", *described["easy"], "4/4", "100%"],
        ["backtracking", "medium", *described["medium"], "4/4", "100%"],
    ]
    runs = pd.read_csv(csv)
    assert len(runs) == 2 * 2 * 2 * 2
    assert runs["solved"].all()
    assert sorted(set(runs["puzzle"])) == ["easy-00", "easy-01", "medium-00", "medium-01"]


TIME = r"\d+(?:\.\d+)? m?s"


def test_the_summary_fits_in_100_columns_with_human_units(capsys, tmp_path):
    long_name = tmp_path / "a-bank-with-a-very-long-file-name.txt"
    long_name.write_text(f"{TEMOIN}\n")
    argv = ["bench", "--solvers", "naive-annealing", "exact", "--bank", "easy", "--bank", str(long_name)]
    code, out, _ = run(capsys, *argv, "--limit", "2", "--budget", "20000", "--disqualify", "--no-progress")
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= TABLE_WIDTH
    for row in lines[1:]:
        assert len(re.findall(TIME, row)) == 2
        assert re.fullmatch(r"\d{1,3}(,\d{3})*", row.split()[-2])
    assert [row.split()[1] for row in lines[1:]] == ["easy", "a-bank-with-a-…"] * 2


def test_bench_wide_shows_every_column(capsys):
    code, out, _ = run(capsys, "bench", "--limit", "2", "--wide", "--no-progress", "--disqualify")
    assert code == 0
    header, row = out.splitlines()
    assert header.split() == [*SUMMARY_COLUMNS, "disqualified"]
    assert len(re.findall(TIME, row)) == 3
    assert row.split()[:7] == ["exact", "easy", "41.5", "0.0", "2", "2", "100%"]


def test_bench_takes_files_of_puzzles_besides_bank_names(capsys, tmp_path):
    mine, theirs = tmp_path / "mine.txt", tmp_path / "theirs.sdk"
    mine.write_text(f"{TEMOIN}\n{load_bank('hard')[0].to_string()}\n")
    theirs.write_text(f"{TEMOIN}\n")
    csv = tmp_path / "runs.csv"
    argv = ["bench", "--bank", str(mine), "--bank", "easy", "--bank", str(theirs), "--limit", "2"]
    code, out, _ = run(capsys, *argv, "--csv", str(csv), "--no-progress")
    assert code == 0
    assert [row.split()[:2] + row.split()[4:5] for row in out.splitlines()[1:]] == [
        ["exact", "mine", "2/2"],
        ["exact", "easy", "2/2"],
        ["exact", "theirs", "1/1"],
    ]
    assert pd.read_csv(csv)["puzzle"].tolist() == ["mine-00", "mine-01", "easy-00", "easy-01", "theirs-00"]
    assert_usage_error(*run(capsys, "bench", "--bank", str(mine), "--bank", str(mine)), "two banks are labelled 'mine'")


def test_bench_defaults_to_the_easy_bank_with_the_exact_solver(capsys):
    code, out, err = run(capsys, "bench", "--limit", "3")
    assert code == 0
    assert out.splitlines()[1].split()[:5] == ["exact", "easy", "41.7", "0.0", "3/3"]
    assert "exact: 100%" in err  # the progress bar, which names only the solvers (no French in the command line)


def test_bench_names_the_puzzles_without_solution_and_counts_them_apart(capsys, tmp_path):
    mine, theirs = tmp_path / "mine.txt", tmp_path / "theirs.txt"
    mine.write_text(f"{TEMOIN}\n{NO_SOLUTION}\n{TEMOIN}\n{NO_SOLUTION}\n")
    theirs.write_text(f"{NO_SOLUTION}\n{TEMOIN}\n")
    csv = tmp_path / "runs.csv"
    argv = ["bench", "--bank", str(mine), "--bank", "easy", "--bank", str(theirs), "--limit", "4", "--seeds", "2"]
    code, out, _ = run(capsys, *argv, "--csv", str(csv), "--no-progress")
    assert code == 0
    lines = out.splitlines()
    assert lines[:2] == [
        "no solution: mine #1, #3 (2 puzzles left out of the runs)",
        "no solution: theirs #0 (1 puzzle left out of the runs)",
    ]
    assert [row.split()[1] + " " + row.split()[4] for row in lines[3:]] == ["mine 4/4", "easy 8/8", "theirs 2/2"]
    puzzles = pd.read_csv(csv)["puzzle"].tolist()  # named by their place in their bank, as in the lines above
    assert (
        puzzles
        == ["mine-00"] * 2 + ["mine-02"] * 2 + [f"easy-0{k}" for k in range(4) for _ in range(2)] + ["theirs-01"] * 2
    )


def test_bench_on_puzzles_that_all_lack_a_solution_names_them_and_runs_nothing(capsys, tmp_path):
    none = tmp_path / "none.txt"
    none.write_text(f"{NO_SOLUTION}\n")
    code, out, err = run(capsys, "bench", "--bank", str(none), "--no-progress")
    assert code == 2
    assert out == "no solution: none #0 (1 puzzle left out of the runs)\n"
    assert err == f"{ERROR_PREFIX}no puzzle to benchmark\n"


def test_bench_runs_on_a_dask_cluster_given_its_address(capsys, tmp_path):
    argv = ["bench", "--solvers", "exact", "annealing", "--limit", "2", "--seeds", "2", "--budget", "300"]
    argv += ["--time-limit", "100", "--no-progress"]
    local, on_dask = tmp_path / "local.csv", tmp_path / "dask.csv"
    assert run(capsys, *argv, "--csv", str(local))[0] == 0
    with LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster:
        code, out, _ = run(
            capsys, *argv, "--csv", str(on_dask), "--backend", "dask", "--scheduler", cluster.scheduler_address
        )
    assert code == 0
    assert [row.split()[:5] for row in out.splitlines()[1:]] == [
        ["exact", "easy", "41.5", "0.0", "4/4"],
        ["annealing", "easy", "41.5", "0.0", "0/4"],
    ]
    columns = ["solver", "puzzle", "seed", "solved", "cost", "evaluations"]
    pd.testing.assert_frame_equal(pd.read_csv(local)[columns], pd.read_csv(on_dask)[columns])


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["bench", "--bank", "impossible"], ["unknown bank 'impossible'", "easy", "a file of puzzles"]),
        (["bench", "--bank", ""], ["empty argument"]),
        (["bench", "--bank", "missing/bank.txt"], ["no such file: missing/bank.txt"]),
        (["bench", "--backend", "spark"], ["unknown backend 'spark'"]),
        (["bench", "--scheduler", "tcp://127.0.0.1:8786"], ["--scheduler only applies with --backend dask"]),
        (["bench", "--solvers", "exact", "nope"], ["unknown solver 'nope'"]),
        (["bench", "--seeds", "0"], ["--seeds", "positive integer"]),
        (["bench", "--jobs", "two"], ["--jobs", "'two'"]),
        (["bench", "--limit", "-3"], ["--limit"]),
        (["bench", "--csv", "missing/runs.csv"], ["folder missing does not exist"]),
        (["bench", "--csv", "."], ["cannot write .: it is a directory"]),
    ],
)
def test_bench_bad_input(capsys, argv, fragments):
    assert_usage_error(*run(capsys, *argv), *fragments)


# ---------------------------------------------------------------- generate
# --------------------------------------------------------------- campaign
TINY = Campaign(
    name="tiny",
    description="one annealer on the témoin",
    configurations=(Configuration("rows", "space-annealing", {"chain_length": 10, "max_iterations": 10}),),
    puzzles=(PuzzleSet(TEMOIN_BANK),),
    seeds=(0, 1),
    budget=100,
    slice=Slice(("rows",), (0,)),
)


def test_campaign_lists_the_registered_campaigns(capsys):
    code, out, _ = run(capsys, "campaign", "--list")
    assert code == 0
    assert [line.split(":")[0] for line in out.splitlines()] == campaign_names()
    assert "crossstudy-exploration: 36 runs of 8,000 evaluations." in out


def test_campaign_runs_a_registered_campaign_into_the_data_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(campaigns.CAMPAIGNS, "tiny", f"{__name__}:TINY")
    monkeypatch.setattr(campaigns, "data_folder", lambda: tmp_path)
    code, out, _ = run(capsys, "campaign", "tiny", "--jobs", "1", "--no-progress")
    assert code == 0 and out.startswith("tiny: 2 runs, ")
    assert len(pd.read_csv(tmp_path / "tiny.csv")) == 2 and (tmp_path / "tiny.json").exists()


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["campaign"], ["give campaign names, or --all, or --list"]),
        (["campaign", "--all", "crossstudy-exploration"], ["give campaign names, or --all"]),
        (["campaign", "nope"], ["unknown campaign 'nope'"]),
        (["campaign", "crossstudy-exploration", "--jobs", "0"], ["expected a positive integer"]),
    ],
)
def test_campaign_bad_input(capsys, argv, fragments):
    assert_usage_error(*run(capsys, *argv), *fragments)


def test_campaign_help_imports_no_heavy_module():
    assert heavy_modules_after("campaign", "--help") == []


def test_generate_prints_distinct_unique_puzzles_reproducibly(capsys):
    code, out, _ = run(capsys, "generate", "--difficulty", "easy", "-n", "3", "--seed", "7")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3 == len(set(lines))
    assert all(count_solutions(SudokuGrid.from_string(line)) == 1 for line in lines)
    assert run(capsys, "generate", "--difficulty", "easy", "-n", "3", "--seed", "7")[1] == out


def test_generate_makes_expert_puzzles(capsys):
    code, out, _ = run(capsys, "generate", "--difficulty", "expert", "--seed", "4001")
    assert code == 0 and out.split() == [load_bank("expert")[0].to_string()]


def test_generate_bad_input(capsys):
    assert_usage_error(*run(capsys, "generate", "--difficulty", "extreme"), "invalid choice: 'extreme'")
    assert_usage_error(*run(capsys, "generate", "-n", "0"), "-n/--count", "positive integer")


# ----------------------------------------------------------------- others
def test_list_solvers_shows_each_solvers_family_lesson_and_description(capsys):
    code, out, _ = run(capsys, "list-solvers")
    assert code == 0
    header, *lines = out.splitlines()
    assert header.split() == ["name", "family", "lesson", "description"]
    description_column = header.index("description")
    assert all(len(line) <= TABLE_WIDTH for line in lines)
    rows = [line for line in lines if not line.startswith(" ")]  # a long description goes on in the next line
    assert [row.split()[0] for row in rows] == available_solvers()
    for row in rows:
        name, family, lesson = row.split()[:3]
        assert (family, lesson) == (registered(name).family, registered(name).lesson or "-")
    assert _descriptions(lines, description_column) == [solver_description(name) for name in available_solvers()]


def _descriptions(lines: list[str], column: int) -> list[str]:
    """The description column of a table whose descriptions go on in indented lines."""
    descriptions: list[str] = []
    for line in lines:
        if line.startswith(" "):
            descriptions[-1] += " " + line[column:]
        else:
            descriptions.append(line[column:])
    return descriptions


def test_help_exits_0(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("solve", "bench", "campaign", "generate", "list-solvers", "exercises", "grade"):
        assert command in out
    code, out, _ = run(capsys, "grade", "--help")
    assert code == 0 and "--no-sandbox" in out and "--jobs" in out


def heavy_modules_after(*argv: str) -> list[str]:
    """The heavy modules imported by a fresh interpreter that runs `sudoku-course ARGV`."""
    script = (
        "import contextlib, io, sys\n"
        "from sudoku_course.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main({list(argv)!r})\n"
        "assert code == 0, code\n"
        f"print(' '.join(sorted(name for name in {HEAVY_MODULES!r} if name in sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.split()


@pytest.mark.parametrize("argv", [["--help"], ["bench", "--help"], ["solve", TEMOIN], ["list-solvers"]])
def test_help_and_light_commands_import_no_heavy_module(argv):
    assert heavy_modules_after(*argv) == []


def test_heavy_modules_come_with_the_commands_that_need_them():
    assert heavy_modules_after("exercises", "--help") == ["nbformat"]
    assert heavy_modules_after("grade", "--help") == []  # nbformat comes when submissions are read


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


def test_exercises_reports_a_bad_marker_with_the_prefix_of_every_command(capsys, tmp_path):
    solutions = tmp_path / "solutions"
    solutions.mkdir()
    broken = nbformat.v4.new_code_cell("def f():\n    ### END SOLUTION\n    return 1\n")
    nbformat.write(nbformat.v4.new_notebook(cells=[broken]), solutions / "00-broken.ipynb")
    assert main(["exercises", str(solutions), str(tmp_path / "exercises")]) == 1
    reason = "'### END SOLUTION' without a '### BEGIN SOLUTION' before it"
    assert capsys.readouterr().err == f"{ERROR_PREFIX}00-broken.ipynb, cell 0, line 2: {reason}\n"


def test_grade_refuses_a_missing_folder_with_exit_code_2(capsys, tmp_path):
    assert main(["grade", str(tmp_path / "nowhere")]) == 2
    assert "nowhere" in capsys.readouterr().err
