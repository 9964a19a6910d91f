"""Exact solvers side by side: ours, the plain baseline, OR-Tools CP-SAT and Z3, on the hard and expert banks.

Run: .venv/bin/python benchmarks/bench_exact.py [--full]
Quick mode (default): the first 10 puzzles of each bank, best of 3 runs per puzzle (Z3: 1 run).
--full: every puzzle of each bank, best of 5 runs per puzzle (Z3: 1 run).
Targets: our exact solver's full `solve` call at most 1.1 times the plain solver of benchmarks/plain_solver.py
(ratio of the mean times) on the expert bank, or on the hard bank while there is no expert bank;
our exact solver's mean at most 10 ms on the hard bank.
The solvers take turns on each puzzle, so that a change of load on the machine hits them alike. Each gets
the puzzle in its own ready-made form: a SudokuGrid for ours and the engines, an 81-character string for
the plain solver.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from plain_solver import solve as plain_solve

from sudoku_course.grid import SudokuGrid
from sudoku_course.puzzles import load_bank, open_cells, reference
from sudoku_course.solvers import get_solver

RATIO_TARGET = 1.1
HARD_MEAN_TARGET_MS = 10.0
QUICK_PUZZLES = 10
SOLVER_NAMES = ("exact", "plain", "cp-sat", "z3")
SINGLE_RUN = {"z3"}  # too slow to repeat (tenths of a second a puzzle); its spread is small beside its time


def solvers() -> dict[str, Callable[[SudokuGrid, str], bool]]:
    """Each solver as a call on (grid, string) that returns True when it solved the puzzle."""
    engines = {name: get_solver(name) for name in ("exact", "cp-sat", "z3")}

    def ours(name: str) -> Callable[[SudokuGrid, str], bool]:
        return lambda grid, text: engines[name].solve(grid, seed=0).solved

    return {
        "exact": ours("exact"),
        "plain": lambda grid, text: plain_solve(text)[0] is not None,
        "cp-sat": ours("cp-sat"),
        "z3": ours("z3"),
    }


def banks(full: bool) -> dict[str, list[SudokuGrid]]:
    """The hard bank and, once it exists, the expert bank (a quick run takes the first puzzles only)."""
    found = {}
    for name in ("hard", "expert"):
        try:
            puzzles = load_bank(name)
        except ValueError:  # no expert bank yet
            continue
        found[name] = puzzles if full else puzzles[:QUICK_PUZZLES]
    return found


def best_times_ms(puzzles: list[SudokuGrid], calls: dict, repeats: int) -> dict[str, list[float]]:
    """Best wall time (ms) of each solver on each puzzle, the solvers taking turns on every puzzle."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for puzzle in puzzles:
        text = puzzle.to_string()
        best = dict.fromkeys(calls, float("inf"))
        for repeat in range(repeats):
            for name, call in calls.items():
                if repeat and name in SINGLE_RUN:
                    continue
                start = time.perf_counter()
                solved = call(puzzle, text)
                best[name] = min(best[name], (time.perf_counter() - start) * 1000)
                if not solved:
                    raise AssertionError(f"{name} failed on {text}")
        for name in calls:
            times[name].append(best[name])
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="every puzzle, more repeats (the targets)")
    args = parser.parse_args()
    repeats = 5 if args.full else 3

    calls = solvers()
    temoin = reference()
    for call in calls.values():  # warm-up: first calls pay one-off costs (imports, engine start)
        call(temoin, temoin.to_string())

    ratios = {}
    print(f"{'mode: full' if args.full else 'mode: quick (--full for the targets)'}, best of {repeats} runs per puzzle")
    for bank, puzzles in banks(args.full).items():
        empty = statistics.mean(p.empty_count for p in puzzles)
        left = statistics.mean(open_cells(p) for p in puzzles)
        print(f"\n{bank} bank, {len(puzzles)} puzzles: {empty:.1f} empty cells, {left:.1f} open after singles (means)")
        print(f"  {'solver':8s} {'mean ms':>9s} {'median ms':>10s} {'max ms':>9s}")
        times = best_times_ms(puzzles, calls, repeats)
        for name in SOLVER_NAMES:
            row = times[name]
            print(f"  {name:8s} {statistics.mean(row):9.2f} {statistics.median(row):10.2f} {max(row):9.2f}")
        ratios[bank] = sum(times["exact"]) / sum(times["plain"])
        print(f"  exact / plain: {ratios[bank]:.3f}")
        if bank == "hard":
            mean = statistics.mean(times["exact"])
            verdict = "met" if mean <= HARD_MEAN_TARGET_MS else "MISSED"
            print(f"  exact mean {mean:.2f} ms (target: <= {HARD_MEAN_TARGET_MS:.0f} ms): {verdict}")

    target_bank = "expert" if "expert" in ratios else "hard"
    ratio = ratios[target_bank]
    verdict = "met" if ratio <= RATIO_TARGET else "MISSED"
    print(f"\ntarget: exact / plain on the {target_bank} bank {ratio:.3f} (<= {RATIO_TARGET}): {verdict}")


if __name__ == "__main__":
    main()
