"""Exact solvers side by side: ours, the plain baseline, OR-Tools CP-SAT and Z3, on the banks and held-out sets.

Run: .venv/bin/python benchmarks/bench_exact.py [--full] [--held-out FILE ...]
Quick mode (default): the first 10 puzzles of each set, best of 3 runs per puzzle (Z3: 1 run).
--full: every puzzle of each set, best of 5 runs per puzzle (Z3: 1 run).
--held-out FILE: a set of puzzles the project never saw (one per line, e.g. Norvig's top95 and « hardest »),
measured like the banks; repeat the option for several files.

Targets (ratios of the summed best times of the full `solve` call, guesses counted by each solver):
- on the expert bank: our exact solver at most 1.1 times the plain solver of benchmarks/plain_solver.py;
- on the hard bank: our exact solver's mean at most 10 ms;
- on the diabolique bank (once it exists) and on every held-out set (top95-like depth): our exact solver
  at most 1.0 times the plain solver, with no more guesses in total than the plain solver.
The plain solver guesses like the banks' rating (`search_effort`): the first cell with the fewest
candidates; ours picks among the tied cells the pair with the most paired peers (`exact.most_linked_pair`).
The solvers take turns on each puzzle, so that a change of load on the machine hits them alike. Each gets
the puzzle in its own ready-made form: a SudokuGrid for ours and the engines, an 81-character string for
the plain solver. The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from plain_solver import solve as plain_solve

from sudoku_course.grid import SudokuGrid
from sudoku_course.puzzles import load_bank, open_cells, read_puzzles, reference
from sudoku_course.solvers import get_solver

EXPERT_RATIO_TARGET = 1.1
DEEP_RATIO_TARGET = 1.0
HARD_MEAN_TARGET_MS = 10.0
QUICK_PUZZLES = 10
BANKS = ("hard", "expert", "diabolique")
DEEP_BANK = "diabolique"
SOLVER_NAMES = ("exact", "plain", "cp-sat", "z3")
SINGLE_RUN = {"z3"}  # too slow to repeat (tenths of a second a puzzle); its spread is small beside its time

Call = Callable[[SudokuGrid, str], int]
"""A solver as a call on (grid, string) that returns its guesses (-1 when it does not count them);
it raises if the puzzle is left unsolved."""


def solvers() -> dict[str, Call]:
    """Each solver as a Call."""
    engines = {name: get_solver(name) for name in ("exact", "cp-sat", "z3")}

    def ours(name: str) -> Call:
        def call(grid: SudokuGrid, text: str) -> int:
            result = engines[name].solve(grid, seed=0)
            if not result.solved:
                raise AssertionError(f"{name} failed on {text}")
            return result.stats.get("guesses", -1)

        return call

    def plain(grid: SudokuGrid, text: str) -> int:
        solution, guesses = plain_solve(text)
        if solution is None:
            raise AssertionError(f"plain failed on {text}")
        return guesses

    return {"exact": ours("exact"), "plain": plain, "cp-sat": ours("cp-sat"), "z3": ours("z3")}


def puzzle_sets(full: bool, held_out: list[str]) -> dict[str, list[SudokuGrid]]:
    """The bundled banks that exist, then the held-out files (a quick run takes the first puzzles only)."""
    found = {}
    for name in BANKS:
        try:
            found[name] = load_bank(name)
        except ValueError:  # a bank not made yet
            continue
    for path in held_out:
        found[Path(path).stem] = read_puzzles(path)
    return {name: puzzles if full else puzzles[:QUICK_PUZZLES] for name, puzzles in found.items()}


def measure(puzzles: list[SudokuGrid], calls: dict[str, Call], repeats: int) -> dict[str, tuple[list[float], int]]:
    """For each solver: its best wall time (ms) on each puzzle and its total guesses, the solvers taking turns
    on every puzzle."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    guesses = dict.fromkeys(calls, 0)
    for puzzle in puzzles:
        text = puzzle.to_string()
        best = dict.fromkeys(calls, float("inf"))
        for repeat in range(repeats):
            for name, call in calls.items():
                if repeat and name in SINGLE_RUN:
                    continue
                start = time.perf_counter()
                counted = call(puzzle, text)
                best[name] = min(best[name], (time.perf_counter() - start) * 1000)
                if not repeat:
                    guesses[name] = -1 if counted < 0 else guesses[name] + counted
        for name in calls:
            times[name].append(best[name])
    return {name: (times[name], guesses[name]) for name in calls}


def verdict(ok: bool) -> str:
    return "met" if ok else "not met"


def targets(name: str, measured: dict[str, tuple[list[float], int]], held_out: bool) -> list[str]:
    """The target lines of one set, each ending with « met » or « not met »."""
    (exact_times, exact_guesses), (plain_times, plain_guesses) = measured["exact"], measured["plain"]
    ratio = sum(exact_times) / sum(plain_times)
    lines = []
    if name == "expert":
        lines.append(f"exact / plain {ratio:.3f} (<= {EXPERT_RATIO_TARGET}): {verdict(ratio <= EXPERT_RATIO_TARGET)}")
    if name == "hard":
        mean = statistics.mean(exact_times)
        ok = mean <= HARD_MEAN_TARGET_MS
        lines.append(f"exact mean {mean:.2f} ms (<= {HARD_MEAN_TARGET_MS:.0f} ms): {verdict(ok)}")
    if name == DEEP_BANK or held_out:
        lines.append(f"exact / plain {ratio:.3f} (<= {DEEP_RATIO_TARGET}): {verdict(ratio <= DEEP_RATIO_TARGET)}")
        fewer = exact_guesses <= plain_guesses
        lines.append(f"exact guesses {exact_guesses} (<= plain's {plain_guesses}): {verdict(fewer)}")
    return [f"{name}: {line}" for line in lines]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="every puzzle, more repeats (the targets)")
    parser.add_argument("--held-out", action="append", default=[], metavar="FILE", help="a held-out puzzle file")
    args = parser.parse_args()
    repeats = 5 if args.full else 3

    calls = solvers()
    temoin = reference()
    for call in calls.values():  # warm-up: first calls pay one-off costs (imports, engine start)
        call(temoin, temoin.to_string())

    mode = "mode: full" if args.full else "mode: quick (--full for the targets)"
    print(f"{mode}, best of {repeats} runs per puzzle; load average before: {os.getloadavg()[0]:.2f}")
    held_out_names = {Path(path).stem for path in args.held_out}
    verdicts = []
    for name, puzzles in puzzle_sets(args.full, args.held_out).items():
        empty = statistics.mean(p.empty_count for p in puzzles)
        left = statistics.mean(open_cells(p) for p in puzzles)
        print(f"\n{name}, {len(puzzles)} puzzles: {empty:.1f} empty cells, {left:.1f} open after singles (means)")
        print(f"  {'solver':8s} {'mean ms':>9s} {'median ms':>10s} {'max ms':>9s} {'guesses':>8s}")
        measured = measure(puzzles, calls, repeats)
        for solver in SOLVER_NAMES:
            times, guesses = measured[solver]
            counted = f"{guesses:8d}" if guesses >= 0 else f"{'-':>8s}"
            spread = f"{statistics.mean(times):9.2f} {statistics.median(times):10.2f} {max(times):9.2f}"
            print(f"  {solver:8s} {spread} {counted}")
        print(f"  exact / plain: {sum(measured['exact'][0]) / sum(measured['plain'][0]):.3f}", flush=True)
        verdicts += targets(name, measured, name in held_out_names)

    print(f"\ntargets (load average after: {os.getloadavg()[0]:.2f})")
    for line in verdicts:
        print(f"  {line}")


if __name__ == "__main__":
    main()
