"""Running a mealpy optimiser as one of our solvers: counted, seeded, silent and stoppable.

mealpy minimises a function of a real vector inside a box. The adapter hands it
the conflicts of the grid that a space decodes the vector to, counts each call in
the run, records each epoch's best cost, and stops mealpy's loop from inside once
the grid is solved or the budget is spent (mealpy has no hook for that). It is
seeded only through `model.solve(problem, seed=...)`: mealpy ignores a seed given
to the optimiser's constructor. mealpy itself is imported by the callers on first
use, since importing it takes seconds.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..grid import SudokuGrid
from ..spaces import ContinuousSpace, Space
from .base import CountedObjective, Observer, RunLedger, StopSearch


def mealpy_problem(space: Space, objective: Callable[[np.ndarray], float]) -> dict:
    """The problem mealpy minimises: `objective` over the space's box of real vectors, silently."""
    from mealpy import FloatVar

    low, high = (space.low, space.high) if isinstance(space, ContinuousSpace) else (0.0, 1.0)
    return {
        "obj_func": objective,
        "bounds": FloatVar(lb=[low] * space.dimension, ub=[high] * space.dimension),
        "minmax": "min",
        "log_to": None,
    }


def run_mealpy(
    optimizer: type,
    params: dict,
    space: Space,
    run: RunLedger,
    rng: np.random.Generator,
    observer: Observer | None = None,
) -> SudokuGrid:
    """Run mealpy's `optimizer(**params)` on `space` within `run`; return the best grid decoded."""
    objective = CountedObjective(space, run)

    class Recording(optimizer):
        def check_termination(self, mode="start", termination=None, epoch=None):
            if mode == "start":
                return super().check_termination(mode, termination, epoch)
            if observer is not None:
                observer(np.array([agent.solution for agent in self.pop]))
            return run.record(objective.best_cost)

    try:
        Recording(**params).solve(mealpy_problem(space, objective), seed=int(rng.integers(2**31)))
    except StopSearch:
        run.record(objective.best_cost)  # the interrupted epoch
    return objective.best_grid if objective.best_grid is not None else space.puzzle
