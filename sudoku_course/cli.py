"""The `sudoku-course` command: solve, bench, campaign, generate, list-solvers, exercises, grade.

Each sub-command has an `_add_<name>` function that declares its arguments and
a `_run_<name>` function that does the work and returns the exit code. Bad
input ends with a one-line message on stderr and exit code 2, after the prefix that
every command shares (`messages.print_error`). Outputs are English.

Heavy modules (pandas, nbformat, Dask, the solvers' libraries) are imported only
by the commands that use them, so that `--help` and `solve` start fast.
"""

from __future__ import annotations

import argparse
import math
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .grid import InvalidPuzzleError, SudokuGrid
from .messages import counted, print_error
from .puzzles import BANKS, bank_names, generate, load_bank, read_puzzles
from .solvers import Budget, Solver, available_solvers, get_solver, registered, solver_description
from .solvers.exact import count_solutions

if TYPE_CHECKING:
    import pandas as pd

USAGE_ERROR = 2
TABLE_WIDTH = 100
"""Characters per line of the printed tables: the bench summary (unless --wide) and the list of solvers."""
NARROW_COLUMNS = {
    "solver": "solver",
    "difficulty": "difficulty",
    "mean_empty_cells": "empty",
    "mean_open_cells": "open",
    "solved": "solved",
    "success_rate": "success",
    "median_seconds": "med time",
    "max_seconds": "max time",
    "median_evaluations": "med evals",
    "disqualified": "disqualified",
}
"""Summary column -> its header in the default (narrow) table, where "solved" reads "solved/runs";
--wide shows every column."""
LABEL_WIDTH = 15
"""Longest solver or bank label in the narrow table; longer ones are cut with an ellipsis."""


class UsageError(Exception):
    """Bad command-line input, reported in one line with exit code 2."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors become a UsageError instead of usage text and an exit.

    `declare`, if given, adds the arguments when the parser is first used: a sub-command
    whose arguments live in a heavy module imports it only when that command is run.
    """

    def __init__(self, *args, declare: Callable[[argparse.ArgumentParser], None] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._declare = declare

    def parse_known_args(self, args=None, namespace=None):
        if self._declare is not None:
            declare, self._declare = self._declare, None
            declare(self)
        return super().parse_known_args(args, namespace)

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
        print_error(error)
        return USAGE_ERROR


def build_parser() -> argparse.ArgumentParser:
    """The parser with one sub-parser per sub-command."""
    parser = _Parser(prog="sudoku-course", description="Solve, benchmark and generate Sudoku puzzles.")
    commands = parser.add_subparsers(title="commands", dest="command", required=True, metavar="COMMAND")
    for add_command in (
        _add_solve,
        _add_bench,
        _add_campaign,
        _add_generate,
        _add_list_solvers,
        _add_exercises,
        _add_grade,
    ):
        add_command(commands)
    return parser


# ------------------------------------------------------------------ solve
def _add_solve(commands) -> None:
    parser = commands.add_parser("solve", help="solve a puzzle, or every puzzle of a file, and print the grids")
    parser.add_argument("puzzle", help="81 characters (row by row, . or 0 for empty) or a file of puzzles")
    parser.add_argument("--index", type=_non_negative_int, help="solve only this puzzle of the file, from 0")
    parser.add_argument("--solver", default="exact", help="registered solver name (see list-solvers)")
    parser.add_argument("--seed", type=_non_negative_int, default=0, help="random seed (default 0)")
    _add_budget_arguments(parser, default_time_limit=None)
    parser.set_defaults(handler=_run_solve)


def _run_solve(args: argparse.Namespace) -> int:
    """Exit code 0 if every puzzle is solved, 1 if one is not (budget spent, or no solution)."""
    puzzles = _puzzles_to_solve(args.puzzle, args.index)
    solver = get_solver(args.solver)
    if len(puzzles) == 1:
        return 0 if _solve_one(solver, puzzles[0][1], args) else 1
    solved = 0
    for label, puzzle in puzzles:
        print(label)
        solved += _solve_one(solver, puzzle, args)
        print()
    print(f"solved {solved} of {counted(len(puzzles), 'puzzle')}")
    return 0 if solved == len(puzzles) else 1


def _solve_one(solver: Solver, puzzle: SudokuGrid, args: argparse.Namespace) -> bool:
    """Print the solver's grid and outcome, or that the puzzle has no solution; True if solved."""
    if count_solutions(puzzle, limit=1) == 0:
        print("no solution: the exact solver proves that no grid completes these givens")
        return False
    result = solver.solve(puzzle, seed=args.seed, budget=_budget(args))
    print(result.grid)
    print(result)
    return result.solved


def _puzzles_to_solve(text: str, index: int | None) -> list[tuple[str, SudokuGrid]]:
    """(label, puzzle) pairs: the puzzle written in `text`, or the puzzles of the file it names (or its index-th)."""
    path = _puzzle_file(text)
    if path is None:
        if index is not None:
            raise UsageError("--index only applies to a file of puzzles")
        try:
            return [("", SudokuGrid.from_string(text))]
        except InvalidPuzzleError as error:
            raise InvalidPuzzleError(f"invalid puzzle: {error}") from error
    puzzles = _read_puzzle_file(path)
    if index is None:
        return [(f"{path.name} #{number}", puzzle) for number, puzzle in enumerate(puzzles)]
    if index >= len(puzzles):
        raise UsageError(f"{path} holds {counted(len(puzzles), 'puzzle')}; --index {index} is out of range")
    return [(f"{path.name} #{index}", puzzles[index])]


def _puzzle_file(text: str) -> Path | None:
    """The file of puzzles named by `text`, or None if `text` does not look like a path."""
    if not text.strip():
        raise UsageError("empty argument: expected a puzzle or a file of puzzles")
    path = Path(text)
    if path.is_dir():
        raise UsageError(f"{text} is a directory, not a file of puzzles")
    if path.exists():
        return path
    if "/" in text or "\\" in text or path.suffix in {".txt", ".sdk"}:
        raise UsageError(f"no such file: {text}")
    return None


def _read_puzzle_file(path: Path) -> list[SudokuGrid]:
    """The puzzles of a file, at least one."""
    puzzles = read_puzzles(path)
    if not puzzles:
        raise UsageError(f"{path} holds no puzzle")
    return puzzles


# ------------------------------------------------------------------ bench
def _add_bench(commands) -> None:
    parser = commands.add_parser("bench", help="benchmark solvers on puzzle banks and print a summary")
    parser.add_argument("--solvers", nargs="+", default=["exact"], metavar="NAME", help="solver names")
    parser.add_argument(
        "--bank",
        action="append",
        metavar="NAME|FILE",
        help=f"a bundled bank ({', '.join(bank_names())}) or a file of puzzles, repeatable (default: easy)",
    )
    parser.add_argument("--seeds", type=_positive_int, default=1, help="number of seeds per puzzle: 0, 1, ...")
    parser.add_argument(
        "--jobs", type=_positive_int, default=1, help="worker processes on this machine (or in the local Dask cluster)"
    )
    parser.add_argument("--limit", type=_positive_int, help="only the first K puzzles of each bank")
    parser.add_argument("--csv", type=Path, help="also write one row per run to this CSV file")
    parser.add_argument("--disqualify", action="store_true", help="apply the disqualification rule")
    parser.add_argument("--wide", action="store_true", help=f"show every summary column (default: {TABLE_WIDTH} wide)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument("--backend", default="local", help="local (this machine, the default) or dask (a Dask cluster)")
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler address such as tcp://10.0.0.5:8786 (default with --backend dask: "
        "a local cluster of --jobs workers)",
    )
    _add_budget_arguments(parser, default_time_limit=10.0)
    parser.set_defaults(handler=_run_bench)


def _run_bench(args: argparse.Namespace) -> int:
    """Print which puzzles have no solution (they are not run), then the summary of the runs."""
    from .bench import benchmark, summarize  # imported here: pandas is slow to import

    if args.csv and not args.csv.parent.is_dir():
        raise UsageError(f"cannot write {args.csv}: folder {args.csv.parent} does not exist")
    if args.csv and args.csv.is_dir():
        raise UsageError(f"cannot write {args.csv}: it is a directory")
    if args.scheduler is not None and args.backend != "dask":
        raise UsageError("--scheduler only applies with --backend dask")
    banks = _banks(args.bank or ["easy"], args.limit)
    solvers = {name: get_solver(name) for name in args.solvers}
    solvable = {label: _with_solution(puzzles) for label, puzzles in banks.items()}
    _report_without_solution(banks, solvable)
    runs = benchmark(
        solvers,
        {label: [banks[label][index] for index in indices] for label, indices in solvable.items() if indices},
        seeds=range(args.seeds),
        budget=args.budget,
        time_limit=args.time_limit,
        n_jobs=args.jobs,
        progress=not args.no_progress,
        backend=args.backend,
        scheduler=args.scheduler,
    )
    runs["puzzle"] = runs["puzzle"].map(_places_in_banks(solvable))
    if args.csv:
        runs.to_csv(args.csv, index=False)
    print(_summary_table(summarize(runs, disqualify=args.disqualify), wide=args.wide))
    return 0


def _with_solution(puzzles: list[SudokuGrid]) -> list[int]:
    """The indices of the puzzles that have a solution (the exact solver proves that the others have none)."""
    return [index for index, puzzle in enumerate(puzzles) if count_solutions(puzzle, limit=1) > 0]


def _report_without_solution(banks: dict[str, list[SudokuGrid]], solvable: dict[str, list[int]]) -> None:
    """For each bank holding puzzles without solution, one line that names and counts them (they are not run)."""
    for label, puzzles in banks.items():
        missing = [index for index in range(len(puzzles)) if index not in solvable[label]]
        if missing:
            numbers = ", ".join(f"#{index}" for index in missing)
            print(f"no solution: {label} {numbers} ({counted(len(missing), 'puzzle')} left out of the runs)")


def _places_in_banks(solvable: dict[str, list[int]]) -> dict[str, str]:
    """The id `benchmark` gives a puzzle it ran (its rank among the puzzles run) -> the id of its place in its bank,
    so that the runs, the --index of solve and the no-solution lines number the puzzles alike."""
    from .bench import puzzle_id  # imported here: pandas is slow to import

    return {
        puzzle_id(label, rank): puzzle_id(label, index)
        for label, indices in solvable.items()
        for rank, index in enumerate(indices)
    }


def _banks(texts: list[str], limit: int | None) -> dict[str, list[SudokuGrid]]:
    """Label -> puzzles of every --bank: a bundled bank by its name, a file by its name without suffix."""
    banks: dict[str, list[SudokuGrid]] = {}
    for text in texts:
        if text in bank_names():
            label, puzzles = text, load_bank(text)
        else:
            path = _puzzle_file(text)
            if path is None:
                raise UsageError(f"unknown bank {text!r}: give one of {', '.join(bank_names())} or a file of puzzles")
            label, puzzles = path.stem, _read_puzzle_file(path)
        if label in banks:
            raise UsageError(f"two banks are labelled {label!r}: give each bank once, and files distinct names")
        banks[label] = puzzles[:limit]
    return banks


# --------------------------------------------------------------- campaign
def _add_campaign(commands) -> None:
    parser = commands.add_parser(
        "campaign", help="run a declared campaign and write its rows and provenance into data/ (or --list them)"
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="registered campaign names (see --list)")
    parser.add_argument("--all", action="store_true", help="run every registered campaign, in order")
    parser.add_argument("--list", action="store_true", help="print each campaign's name, runs and description")
    parser.add_argument("--jobs", type=_positive_int, help="worker processes on this machine (default: every core)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address such as tcp://10.0.0.5:8786")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(handler=_run_campaign)


def _run_campaign(args: argparse.Namespace) -> int:
    from . import campaigns  # imported here: pandas is slow to import

    if args.list:
        for name in campaigns.campaign_names():
            campaign = campaigns.get_campaign(name)
            print(
                f"{name}: {counted(campaign.runs, 'run')} of {counted(campaign.budget, 'evaluation')}. "
                f"{campaign.description}"
            )
        return 0
    names = campaigns.campaign_names() if args.all else args.names
    if not names or (args.all and args.names):
        raise UsageError("give campaign names, or --all, or --list")
    chosen = [campaigns.get_campaign(name) for name in names]  # every name checked before any run
    for campaign in chosen:
        rows = campaigns.run_campaign(
            campaign, n_jobs=args.jobs, scheduler=args.scheduler, progress=not args.no_progress
        )
        folder = campaigns.data_folder()
        solved = int(rows["solved"].sum())
        print(f"{campaign.name}: {counted(len(rows), 'run')}, {solved} solved -> {folder}/{campaign.name}.csv")
    return 0


# --------------------------------------------------------------- generate
def _add_generate(commands) -> None:
    parser = commands.add_parser("generate", help="generate puzzles with a unique solution, one per line")
    parser.add_argument("--difficulty", default="easy", choices=BANKS, help="default: easy")
    parser.add_argument("-n", "--count", type=_positive_int, default=1, help="number of puzzles")
    parser.add_argument("--seed", type=_non_negative_int, default=0, help="seed of the first puzzle; then +1, +2...")
    parser.set_defaults(handler=_run_generate)


def _run_generate(args: argparse.Namespace) -> int:
    for offset in range(args.count):
        print(generate(args.seed + offset, args.difficulty).to_string(), flush=True)
    return 0


# ----------------------------------------------------------- list-solvers
def _add_list_solvers(commands) -> None:
    parser = commands.add_parser(
        "list-solvers", help="print each registered solver's name, family, lesson and description"
    )
    parser.set_defaults(handler=_run_list_solvers)


def _run_list_solvers(args: argparse.Namespace) -> int:
    rows = [
        (name, registered(name).family, registered(name).lesson or "-", solver_description(name))
        for name in available_solvers()
    ]
    print(_table_wrapping_the_last_column(("name", "family", "lesson", "description"), rows))
    return 0


# ------------------------------------------------- exercises and grade
def _add_exercises(commands) -> None:
    def declare(parser: argparse.ArgumentParser) -> None:
        from .teaching import authoring  # imported here: nbformat is slow to import

        authoring.add_arguments(parser).set_defaults(handler=authoring.run)

    commands.add_parser("exercises", help="generate exercises/ from solutions/ (or --check for drift)", declare=declare)


def _add_grade(commands) -> None:
    def declare(parser: argparse.ArgumentParser) -> None:
        from .teaching import grading  # imported here: nbformat is slow to import

        grading.add_arguments(parser).set_defaults(handler=grading.run)

    commands.add_parser(
        "grade",
        help="grade SUBMISSIONS/<student>/<NN-name>.ipynb in a sandbox: grades, gradebook, feedback",
        declare=declare,
    )


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


def _summary_table(summary: pd.DataFrame, wide: bool = False) -> str:
    """The summary as aligned text, rates in percent and times in ms or s; without `wide`, only the main
    columns, with short headers and labels, in at most TABLE_WIDTH characters per line."""
    text = summary.copy()
    for column in text.columns:
        if column.endswith("_seconds"):
            text[column] = text[column].map(_human_time)
    text["success_rate"] = text["success_rate"].map("{:.0%}".format)
    for column in ("mean_empty_cells", "mean_open_cells"):
        text[column] = text[column].map(_mean)
    text["median_evaluations"] = text["median_evaluations"].map(_count)
    if not wide:
        text = text[[column for column in NARROW_COLUMNS if column in text.columns]].rename(columns=NARROW_COLUMNS)
        text["solved"] = [f"{solved}/{runs}" for solved, runs in zip(summary["solved"], summary["runs"], strict=True)]
        text["solver"] = text["solver"].map(_short_label)
        text["difficulty"] = text["difficulty"].map(_short_label)
    return text.to_string(index=False)


def _short_label(label: str) -> str:
    return label if len(label) <= LABEL_WIDTH else label[: LABEL_WIDTH - 1] + "…"


def _human_time(seconds: float) -> str:
    """0.46 ms, 12.3 ms, 1.50 s, 75.0 s, 1234 s: about three significant digits."""
    value, unit = (seconds * 1000, "ms") if seconds < 1 else (seconds, "s")
    decimals = 2 if value < 10 else 1 if value < 100 else 0
    return f"{value:.{decimals}f} {unit}"


def _mean(value: float) -> str:
    """41.5; "-" for a missing value (no puzzle with a solution)."""
    return "-" if math.isnan(value) else f"{value:.1f}"


def _count(value: float) -> str:
    """1,234,567; "-" for a missing value (every run failed)."""
    return "-" if math.isnan(value) else f"{value:,.0f}"


def _table_wrapping_the_last_column(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    """Aligned columns, two spaces apart; the last column is wrapped so that lines fit in TABLE_WIDTH characters."""
    widths = [max(len(row[column]) for row in (header, *rows)) + 2 for column in range(len(header) - 1)]
    indent = sum(widths)
    lines = []
    for row in (header, *rows):
        first, *more = textwrap.wrap(row[-1], TABLE_WIDTH - indent, break_on_hyphens=False) or [""]
        lines.append("".join(cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=True)) + first)
        lines.extend(" " * indent + part for part in more)
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
