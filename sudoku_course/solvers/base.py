"""The solver contract: `solve(puzzle, *, seed, budget, callback) -> SolveResult`.

Every solver subclasses `Solver` and implements `_search`. The base class
checks the puzzle, copies it (the caller's grid is never modified), times the
run, counts evaluations through a `RunLedger`, and builds the `SolveResult`.
`CountedObjective` is the instrumented cost shared by the engines that evaluate
every candidate through a space (the cross-study's GAs and annealer, mealpy).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from ..cost import conflicts
from ..grid import SudokuGrid, as_grid
from ..messages import counted
from ..spaces import Space

Callback = Callable[[int, int], "bool | None"]
"""Called as callback(iteration, best_cost) after each iteration; return True to stop."""
Observer = Callable[[np.ndarray], None]
"""Called with the population (one candidate per row) after each generation: the cross-study measures with it
how many distinct grids a population holds."""


@dataclass(frozen=True)
class Budget:
    """Limits of one run: evaluations of the cost (reproducible) and/or seconds."""

    evaluations: int | None = None
    seconds: float | None = None

    @property
    def limited(self) -> bool:
        """True if evaluations or seconds bound the run. A solver's own caps (max_restarts, max_evaluations,
        max_iterations...) only stop runs that are not limited: a limited run uses its whole budget."""
        return self.evaluations is not None or self.seconds is not None

    @classmethod
    def coerce(cls, budget: Budget | int | None) -> Budget:
        """Accept a Budget, a number of evaluations, or None (no limit)."""
        if budget is None or isinstance(budget, Budget):
            return budget or cls()
        if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget <= 0:
            raise ValueError(f"budget must be a positive number of evaluations or a Budget, got {budget!r}")
        return cls(evaluations=int(budget))


@dataclass
class SolveResult:
    """What every solver returns."""

    grid: SudokuGrid
    solved: bool
    cost: int
    evaluations: int
    iterations: int = 0
    restarts: int = 0
    seconds: float = 0.0
    history: list[int] = field(default_factory=list)
    seed: int | None = None
    solver: str = ""
    stats: dict[str, int | float] = field(default_factory=dict)
    trace: list[dict[str, float]] = field(default_factory=list)
    """Optional per-iteration records of solvers that offer one (AnnealingSolver(trace=True)); empty otherwise."""

    def __str__(self) -> str:
        """One English line: "exact: solved in 0.1 ms, 1 evaluation, 0 iterations, 0 restarts, nodes=1"."""
        status = "solved" if self.solved else f"not solved ({counted(self.cost, 'conflict')} left)"
        extra = "".join(f", {k}={v:.4g}" if isinstance(v, float) else f", {k}={v}" for k, v in self.stats.items())
        return (
            f"{self.solver}: {status} in {self.seconds * 1000:.1f} ms, {counted(self.evaluations, 'evaluation')}, "
            f"{counted(self.iterations, 'iteration')}, {counted(self.restarts, 'restart')}{extra}"
        )


class RunLedger:
    """The book-keeping of one solver run: evaluations, iterations, restarts, history, stats and trace,
    kept against the run's budget and callback (it says when the run must stop)."""

    def __init__(self, budget: Budget, callback: Callback | None = None) -> None:
        self.budget = budget
        self.callback = callback
        self.evaluations = 0
        self.iterations = 0
        self.restarts = 0
        self.history: list[int] = []
        self.stats: dict[str, int | float] = {}
        self.trace: list[dict[str, float]] = []
        self.stopped = False
        self._start = time.perf_counter()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self._start

    def count(self, evaluations: int = 1) -> None:
        """Record evaluations of the cost function."""
        self.evaluations += evaluations

    def cap(self, evaluations: int) -> None:
        """Spend at most `evaluations` in this run, whatever its budget (an engine's own limit)."""
        if self.budget.evaluations is None or evaluations < self.budget.evaluations:
            self.budget = replace(self.budget, evaluations=evaluations)

    def remaining(self) -> int | None:
        """Evaluations left in the budget (None: unlimited)."""
        if self.budget.evaluations is None:
            return None
        return max(0, self.budget.evaluations - self.evaluations)

    def exhausted(self) -> bool:
        """True once the evaluation or time budget is spent, or a callback asked to stop."""
        if self.stopped:
            return True
        if self.budget.evaluations is not None and self.evaluations >= self.budget.evaluations:
            return True
        return self.budget.seconds is not None and self.seconds >= self.budget.seconds

    def record(self, best_cost: int) -> bool:
        """End an iteration with its best cost; return True if the run must stop."""
        self.iterations += 1
        self.history.append(int(best_cost))
        if self.callback is not None and self.callback(self.iterations, int(best_cost)):
            self.stopped = True
        return best_cost == 0 or self.exhausted()


class StopSearch(Exception):
    """Raised by CountedObjective once the grid is solved or the budget is spent: it stops a library's loop
    (mealpy's) from inside."""


class CountedObjective:
    """The instrumented cost of the engines that evaluate through a space (the cross-study's): conflicts of
    the decoded grid, one evaluation counted per call, best grid kept. Two engines given the same budget
    so spend the same number of evaluations, whatever the representation."""

    def __init__(self, space: Space, run: RunLedger) -> None:
        self.space, self.run = space, run
        self.best_cost = np.iinfo(np.int64).max
        self.best_grid: SudokuGrid | None = None

    def __call__(self, candidate: np.ndarray) -> float:
        if self.run.exhausted() or self.best_cost == 0:
            raise StopSearch
        self.run.count()
        grid = self.space.decode(candidate)
        cost = conflicts(grid)
        if cost < self.best_cost:
            self.best_cost, self.best_grid = cost, grid
        return float(cost)


class Solver(ABC):
    """Base class of every solver; parameters go in the constructor."""

    name = "solver"

    def solve(self, puzzle, *, seed: int | None = None, budget=None, callback: Callback | None = None) -> SolveResult:
        """Solve `puzzle` (a SudokuGrid, a string or an array) without modifying it."""
        grid = as_grid(puzzle)
        grid.check_givens()
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % 2**32)
        run = RunLedger(Budget.coerce(budget), callback)
        best = self._search(grid.copy(), np.random.default_rng(seed), run)
        if not (best.cells[grid.givens] == grid.cells[grid.givens]).all():
            raise RuntimeError(f"{self.name} changed a given: this is a bug")
        return SolveResult(
            grid=best,
            solved=best.is_solved(),
            cost=conflicts(best),
            evaluations=run.evaluations,
            iterations=run.iterations,
            restarts=run.restarts,
            seconds=run.seconds,
            history=run.history,
            seed=seed,
            solver=self.name,
            stats=run.stats,
            trace=run.trace,
        )

    @abstractmethod
    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        """Search from `puzzle` (a private copy) and return the best grid found."""

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({params})"
