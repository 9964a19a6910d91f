"""The `sudoku-course` command: solve, bench, generate, list-solvers, exercises, grade.

Each sub-command has an `_add_<name>` function that declares its arguments and
a `_run_<name>` function that does the work and returns the exit code. Bad
input ends with a one-line message on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from .bench import benchmark, summarize
from .grid import InvalidPuzzleError, SudokuGrid
from .puzzles import DIFFICULTIES, generate, load_bank, read_puzzles
from .solvers import Budget, available_solvers, get_solver
from .teaching import authoring, grading

USAGE_ERROR = 2


class UsageError(Exception):
    """Bad command-line input, reported in one line with exit code 2."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors become a UsageError instead of usage text and an exit."""

    def error(self, message: str):
        raise UsageError(f"{message} (see '{self.prog} --help')")


def main(argv: list[str] | None = None) -> int:
    """Entry point of `sudoku-course`; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return args.handler(args)
    except SystemExit as stop:  # argparse exits after printing --help
        return int(stop.code or 0)
    except (UsageError, ValueError, OSError) as error:
        print(f"sudoku-course: error: {_one_line(error)}", file=sys.stderr)
        return USAGE_ERROR


def build_parser() -> argparse.ArgumentParser:
    """The parser with one sub-parser per sub-command."""
    parser = _Parser(prog="sudoku-course", description="Solve, benchmark and generate Sudoku puzzles.")
    commands = parser.add_subparsers(title="commands", dest="command", required=True, metavar="COMMAND")
    for add_command in (_add_solve, _add_bench, _add_generate, _add_list_solvers, _add_exercises, _add_grade):
        add_command(commands)
    return parser


# ------------------------------------------------------------------ solve
def _add_solve(commands) -> None:
    parser = commands.add_parser("solve", help="solve one puzzle and print the grid")
    parser.add_argument("puzzle", help="81 characters (row by row, . or 0 for empty) or a file of puzzles")
    parser.add_argument("--index", type=_non_negative_int, default=0, help="puzzle of the file to solve, from 0")
    parser.add_argument("--solver", default="exact", help="registered solver name (see list-solvers)")
    parser.add_argument("--seed", type=_non_negative_int, default=0, help="random seed (default 0)")
    _add_budget_arguments(parser, default_time_limit=None)
    parser.set_defaults(handler=_run_solve)


def _run_solve(args: argparse.Namespace) -> int:
    puzzle = _read_puzzle(args.puzzle, args.index)
    solver = get_solver(args.solver)
    result = solver.solve(puzzle, seed=args.seed, budget=_budget(args))
    print(result.grid)
    print(result)
    return 0 if result.solved else 1


def _read_puzzle(text: str, index: int) -> SudokuGrid:
    """The puzzle written in `text`, or the index-th puzzle of the file named `text`."""
    path = Path(text)
    if path.exists():
        puzzles = read_puzzles(path)
        if index >= len(puzzles):
            raise UsageError(f"{path} holds {len(puzzles)} puzzle(s); --index {index} is out of range")
        return puzzles[index]
    if "/" in text or "\\" in text or path.suffix in {".txt", ".sdk"}:
        raise UsageError(f"no such file: {text}")
    if index:
        raise UsageError("--index only applies to a file of puzzles")
    try:
        return SudokuGrid.from_string(text)
    except InvalidPuzzleError as error:
        raise InvalidPuzzleError(f"invalid puzzle: {error}") from error


# ------------------------------------------------------------------ bench
def _add_bench(commands) -> None:
    parser = commands.add_parser("bench", help="benchmark solvers on puzzle banks and print a summary")
    parser.add_argument("--solvers", nargs="+", default=["exact"], metavar="NAME", help="solver names")
    parser.add_argument("--bank", action="append", metavar="NAME", help="puzzle bank, repeatable (default: easy)")
    parser.add_argument("--seeds", type=_positive_int, default=1, help="number of seeds per puzzle: 0, 1, ...")
    parser.add_argument("--jobs", type=_positive_int, default=1, help="parallel worker processes")
    parser.add_argument("--limit", type=_positive_int, help="only the first K puzzles of each bank")
    parser.add_argument("--csv", type=Path, help="also write one row per run to this CSV file")
    parser.add_argument("--disqualify", action="store_true", help="apply the disqualification rule")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    _add_budget_arguments(parser, default_time_limit=10.0)
    parser.set_defaults(handler=_run_bench)


def _run_bench(args: argparse.Namespace) -> int:
    if args.csv and not args.csv.parent.is_dir():
        raise UsageError(f"cannot write {args.csv}: folder {args.csv.parent} does not exist")
    puzzles = {name: load_bank(name)[: args.limit] for name in args.bank or ["easy"]}
    solvers = {name: get_solver(name) for name in args.solvers}
    runs = benchmark(
        solvers,
        puzzles,
        seeds=range(args.seeds),
        budget=args.budget,
        time_limit=args.time_limit,
        n_jobs=args.jobs,
        progress=not args.no_progress,
    )
    if args.csv:
        runs.to_csv(args.csv, index=False)
    print(_summary_table(summarize(runs, disqualify=args.disqualify)))
    return 0


# --------------------------------------------------------------- generate
def _add_generate(commands) -> None:
    parser = commands.add_parser("generate", help="generate puzzles with a unique solution, one per line")
    parser.add_argument("--difficulty", default="easy", choices=DIFFICULTIES, help="default: easy")
    parser.add_argument("-n", "--count", type=_positive_int, default=1, help="number of puzzles")
    parser.add_argument("--seed", type=_non_negative_int, default=0, help="seed of the first puzzle; then +1, +2...")
    parser.set_defaults(handler=_run_generate)


def _run_generate(args: argparse.Namespace) -> int:
    for offset in range(args.count):
        print(generate(args.seed + offset, args.difficulty).to_string(), flush=True)
    return 0


# ----------------------------------------------------------- list-solvers
def _add_list_solvers(commands) -> None:
    parser = commands.add_parser("list-solvers", help="print the registered solver names")
    parser.set_defaults(handler=_run_list_solvers)


def _run_list_solvers(args: argparse.Namespace) -> int:
    print("\n".join(available_solvers()))
    return 0


# ------------------------------------------------- exercises and grade
def _add_exercises(commands) -> None:
    parser = commands.add_parser("exercises", help="generate exercises/ from solutions/ (or --check for drift)")
    authoring.add_arguments(parser).set_defaults(handler=authoring.run)


def _add_grade(commands) -> None:
    parser = commands.add_parser("grade", help="grade SUBMISSIONS/<student>/<NN-name>.ipynb into grades.csv")
    grading.add_arguments(parser).set_defaults(handler=grading.run)


# ---------------------------------------------------------------- helpers
def _add_budget_arguments(parser: argparse.ArgumentParser, default_time_limit: float | None) -> None:
    parser.add_argument("--budget", type=_positive_int, help="evaluations per run (default: unlimited)")
    parser.add_argument(
        "--time-limit",
        type=_positive_float,
        default=default_time_limit,
        help=f"seconds per run (default: {default_time_limit or 'none'})",
    )


def _budget(args: argparse.Namespace) -> Budget:
    """The run budget given by --budget and --time-limit."""
    return Budget(evaluations=args.budget, seconds=args.time_limit)


def _positive_int(text: str) -> int:
    value = _non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _summary_table(summary: pd.DataFrame) -> str:
    """The summary as aligned text: rates in percent, times with 4 significant digits."""
    formatters = {column: "{:.4g}".format for column in summary.columns if column.endswith("_seconds")}
    formatters.update(success_rate="{:.0%}".format, median_evaluations="{:.0f}".format)
    return summary.to_string(index=False, formatters=formatters)


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split()) or type(error).__name__


if __name__ == "__main__":
    sys.exit(main())
