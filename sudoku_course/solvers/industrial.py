"""Industrial exact solvers as baselines: OR-Tools CP-SAT and Z3 (benchmarks/bench_exact.py; no lesson shows them yet).

Both get the same model of the puzzle: one integer variable per cell with domain 1..n, a given's
variable fixed to its digit, and an "all different" constraint on every row, column and box. The
engine then searches on its own (propagation, clause learning, restarts): like our exact solver,
it either finds a solution or proves there is none, if its time budget lets it finish.

The solver registry imports this module only when one of its solvers is asked for, so importing
the package loads neither engine (OR-Tools alone takes about a second to import).
"""

from __future__ import annotations

from abc import abstractmethod
from numbers import Integral

import numpy as np
import z3
from ortools.sat.python import cp_model

from ..grid import SudokuGrid, as_grid
from .base import RunLedger, Solver

MAX_ENGINE_SEED = 2**31 - 1
"""Both engines take a 32-bit seed; ours is drawn from the run's generator, so the same seed gives the same run."""


class _EngineSolver(Solver):
    """What CP-SAT and Z3 share: a number of workers, the engine seed, the budgets the engine can use."""

    def __init__(self, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, Integral) or workers < 1:
            raise ValueError(f"workers must be a positive integer, got {workers!r}")
        self.workers = int(workers)

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        """Run the engine once with the run's time budget; the puzzle itself if it found no solution."""
        if run.budget.evaluations is not None:
            run.stats["ignored_evaluation_budget"] = run.budget.evaluations
        digits, stats = self._run_engine(puzzle, int(rng.integers(MAX_ENGINE_SEED)), run.budget.seconds)
        run.count(stats["branches"])
        run.stats.update(stats)
        return puzzle.with_cells(digits) if digits is not None else puzzle

    @abstractmethod
    def _run_engine(
        self, puzzle: SudokuGrid, seed: int, seconds: float | None
    ) -> tuple[list[int] | None, dict[str, int | float]]:
        """The solution's digits (None if the engine found none) and the engine's statistics."""


class CpSatSolver(_EngineSolver):
    """OR-Tools CP-SAT on the all-different model.

    No lesson section: a baseline of benchmarks/bench_exact.py (issue 15).

    workers: CP-SAT search workers (1 by default, for fair comparisons with single-threaded solvers).
    The seed sets CP-SAT's random_seed and a time budget its max_time_in_seconds; an evaluation
    budget means nothing to it and is ignored (stats["ignored_evaluation_budget"] records it).
    Stats: branches, conflicts, wall_time (seconds, CP-SAT's own clock) and infeasible (1 if
    CP-SAT proved there is no solution); evaluations = branches.
    """

    name = "cp-sat"

    def _run_engine(self, puzzle, seed, seconds):
        model, cells = _cp_sat_model(puzzle)
        engine = _cp_sat_engine(self.workers, seed, seconds)
        status = engine.solve(model)
        found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        stats = {
            "branches": engine.num_branches,
            "conflicts": engine.num_conflicts,
            "wall_time": engine.wall_time,
            "infeasible": int(status == cp_model.INFEASIBLE),
        }
        return ([engine.value(cell) for cell in cells] if found else None), stats


class Z3Solver(_EngineSolver):
    """Z3 on the all-different model (integer cells, `Distinct` per unit).

    No lesson section: a baseline of benchmarks/bench_exact.py (issue 15).

    workers: Z3 threads (1 by default). The seed sets Z3's random_seed and a time budget its
    timeout; an evaluation budget is ignored (stats["ignored_evaluation_budget"] records it).
    Stats: branches (Z3's decisions), conflicts, wall_time (seconds, Z3's own clock) and
    infeasible (1 if Z3 proved there is no solution); evaluations = branches.
    """

    name = "z3"

    def _run_engine(self, puzzle, seed, seconds):
        context = z3.Context()  # a fresh context each run: the same seed then gives the same search
        engine = z3.Solver(ctx=context)
        engine.set("random_seed", seed)
        engine.set("threads", self.workers)
        if seconds is not None:
            engine.set("timeout", max(1, round(seconds * 1000)))  # milliseconds; 0 would mean no limit
        n = puzzle.size
        cells = [z3.Int(f"r{cell // n + 1}c{cell % n + 1}", context) for cell in range(n * n)]
        for cell, digit in zip(cells, puzzle.cells.ravel().tolist(), strict=True):
            engine.add(cell == digit if digit else z3.And(cell >= 1, cell <= n))
        for unit in puzzle.layout.units:
            engine.add(z3.Distinct([cells[i] for i in unit]))
        status = engine.check()
        counters = dict(iter(engine.statistics()))  # (name, value) pairs; a name is absent when zero
        stats = {
            "branches": counters.get("decisions", 0),
            "conflicts": counters.get("conflicts", 0),
            "wall_time": float(counters.get("time", 0.0)),
            "infeasible": int(status == z3.unsat),
        }
        if status != z3.sat:
            return None, stats
        solution = engine.model()
        return [solution.eval(cell).as_long() for cell in cells], stats


def _cp_sat_model(puzzle: SudokuGrid):
    """The CP-SAT model of `puzzle` and its cell variables, in flat order."""
    model = cp_model.CpModel()
    n = puzzle.size
    cells = [
        model.new_int_var(digit or 1, digit or n, f"r{cell // n + 1}c{cell % n + 1}")
        for cell, digit in enumerate(puzzle.cells.ravel().tolist())
    ]
    for unit in puzzle.layout.units:
        model.add_all_different([cells[i] for i in unit])
    return model, cells


def _cp_sat_engine(workers: int, seed: int, seconds: float | None):
    """A CP-SAT solver with its workers, seed and time limit set."""
    engine = cp_model.CpSolver()
    engine.parameters.num_workers = workers
    engine.parameters.random_seed = seed
    if seconds is not None:
        engine.parameters.max_time_in_seconds = seconds
    return engine


def count_solutions_cp_sat(puzzle, limit: int = 2, seed: int = 0) -> int:
    """Number of solutions of `puzzle` found by CP-SAT, no further than `limit`: each solve
    excludes the solutions already found (at least one cell must differ from each of them).

    The counterpart of exact.count_solutions, for checking our uniqueness test with another engine.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    grid = as_grid(puzzle)
    grid.check_givens()
    model, cells = _cp_sat_model(grid)
    engine = _cp_sat_engine(1, seed, None)
    found = 0
    while found < limit and engine.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        found += 1
        differs = []
        for cell in cells:
            changed = model.new_bool_var("")
            model.add(cell != engine.value(cell)).only_enforce_if(changed)
            differs.append(changed)
        model.add_bool_or(differs)
    return found
