"""Solvers and their registry: `get_solver(name, **params)` builds one by name.

The registry maps a name to "module:Class" so that importing this package does
not import every solver's libraries (mealpy alone takes seconds to import).

Glossary (the same words in every solver):

- evaluation: one computation of the cost (the conflicts) of one candidate grid.
  `SolveResult.evaluations` counts them; a budget of evaluations is reproducible.
- iteration: one step of a solver's main loop, one entry of `SolveResult.history`
  (the best cost so far): a generation of a GA, an epoch of a swarm or of mealpy,
  one chain of moves at one temperature for an annealer.
- population_size: how many candidates a population solver keeps at once (the
  individuals of a GA, the particles of a PSO, the organisms of the hive).
- max_iterations: the iterations of one run, or of one attempt of a solver that
  restarts (generations, epochs, temperature chains).
- max_evaluations, max_restarts, max_attempts (and max_iterations): the solver's
  own caps. A run of the annealer, the GA, the swap PSO or the hive given a budget
  (`Budget(evaluations=...)` or `Budget(seconds=...)`) uses its whole budget,
  restarting as often as it needs: the caps only stop runs without one. mealpy's
  PSO and the lesson-04 engines (perm-ga, mealpy-ga, space-annealing) stop after max_iterations anyway.
- restart (attempt): a new start from fresh random candidates, the best grid
  found so far being kept.
- stagnation: iterations without a better best after which the GA (and the
  restricted swap PSO) restarts.
- restrict: the restricted representation: cells fixed by naked and hidden
  singles become givens and every other cell keeps one of its candidates.
"""

from __future__ import annotations

from importlib import import_module

from .base import Budget, Run, Solver, SolveResult

REGISTRY: dict[str, str] = {
    "exact": "sudoku_course.solvers.exact:ExactSolver",
    "backtracking": "sudoku_course.solvers.exact:NaiveBacktracking",
    "annealing": "sudoku_course.solvers.annealing:AnnealingSolver",
    "simanneal": "sudoku_course.solvers.annealing:SimannealSolver",
    "naive-annealing": "sudoku_course.solvers.annealing:NaiveAnnealer",
    "genetic": "sudoku_course.solvers.genetic:GeneticSolver",
    "swarm": "sudoku_course.solvers.swarm:WorkerExplorerSwarm",
    "swap-pso": "sudoku_course.solvers.swarm:SwapPSO",
    "mealpy-pso": "sudoku_course.solvers.swarm:MealpyPSO",
    "perm-ga": "sudoku_course.solvers.genetic:PermutationGA",
    "mealpy-ga": "sudoku_course.solvers.genetic:MealpyGA",
    "space-annealing": "sudoku_course.solvers.annealing:SpaceAnnealing",
    "cp-sat": "sudoku_course.solvers.industrial:CpSatSolver",
    "z3": "sudoku_course.solvers.industrial:Z3Solver",
}


def available_solvers() -> list[str]:
    """Names accepted by get_solver, sorted."""
    return sorted(REGISTRY)


def solver_class(name: str) -> type[Solver]:
    """The class registered under `name`."""
    if name not in REGISTRY:
        raise ValueError(f"unknown solver {name!r}; available: {', '.join(available_solvers())}")
    module, cls = REGISTRY[name].split(":")
    return getattr(import_module(module), cls)


def get_solver(name: str, **params) -> Solver:
    """Build the solver registered under `name` with its constructor parameters."""
    return solver_class(name)(**params)


__all__ = ["Budget", "Run", "SolveResult", "Solver", "available_solvers", "get_solver", "solver_class"]
