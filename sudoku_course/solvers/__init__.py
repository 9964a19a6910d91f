"""Solvers and their registry: `get_solver(name, **params)` builds one by name.

The registry maps a name to "module:Class", the solver's family and its lesson, so that
importing this package (and listing the solvers) does not import every solver's libraries
(mealpy alone takes seconds to import).

Glossary: the one definition of the words of the solvers, the cross-study and the
command line. Every constructor parameter of a registered solver, and every setting
(a parameter with a default) of the cross-study's functions and classes, is one of
the names defined below; tests/test_vocabulary.py reads this list and checks it.

Counting
- evaluation: one computation of the cost (the conflicts) of one candidate grid.
  `SolveResult.evaluations` counts them; a budget of evaluations is reproducible.
- iteration: one step of a solver's main loop, one entry of `SolveResult.history`
  (the best cost so far): a generation of a GA, an epoch of a swarm or of mealpy,
  one chain of moves at one temperature for an annealer, one report of simanneal.
- restart: a new start from fresh random candidates (or, for the GA, a new
  population), the best grid found so far being kept; an attempt is the search
  between two restarts, so a run makes restarts + 1 attempts.

Sizes, caps and stopping rules
- population_size: how many candidates a population solver keeps at once (the
  individuals of a GA, the particles of a PSO, the organisms of the hive); in the
  cross-study, also the moves of one chain of the annealer.
- max_iterations: the iterations of one run, or of one attempt of a solver that
  restarts (generations, epochs, temperature chains).
- max_evaluations: the evaluations a run of the GA may spend when solve() gets no budget.
- max_restarts: the restarts after which a run without a budget gives up (None: never).
- max_moves: the moves of one run of simanneal (its `steps`), which has no chains and
  no restarts of its own.
- max_population: the GA's largest population, as each restart doubles it.
- stagnation: iterations without a better best after which the solver reacts: the GA
  and the restricted swap PSO restart, the annealer reheats (or restarts), the hive
  polishes its best grid by a hill climb.
  The caps (max_*) only stop runs without a budget: a run of the annealer, the GA,
  the swap PSO or the hive given a budget (`Budget(evaluations=...)` or
  `Budget(seconds=...)`) uses its whole budget, restarting as often as it needs.
  mealpy's PSO and GA stop after max_iterations anyway; the cross-study's engines
  (space-ga, space-pso, space-annealing) spend at most population_size x max_iterations
  evaluations (chain_length x max_iterations for the annealer), whatever their budget.

Annealing
- t0: the initial temperature (None: derived from the spread of random moves' deltas).
- t_min: the final temperature: the annealer restarts below it, the cross-study's
  annealer and simanneal end their cooling there.
- alpha: the geometric cooling factor, T <- alpha * T after each chain.
- chain_length: moves tried at one temperature (one chain, one iteration).
- chain_factor: the annealer's default chain_length, per cell its moves touch.
- reheat: on stagnation, set T back to reheat * t0 and go on from the current state
  instead of restarting (None: restart; "auto": 0.5 with restrict, None without).
- adaptive: adapt alpha after each chain from the share of moves accepted.
- rotation_share: the share of each chain's moves that rotate three cells of a unit.
- moves: the annealer's kind of move: "swaps" (random swaps, and rotations per
  rotation_share) or "cycles" (cycles of cells of a unit, each started from a cell in
  conflict); "auto": cycles with restrict, swaps without.

Evolution
- crossover, mutation: the GA's operators, by name or as functions.
- crossover_rate: the probability that two parents are crossed.
- mutation_rate: the probability that a child is mutated (or that a gene is redrawn,
  for gene-wise mutations); for the hive, that a worker keeps a move that does not
  improve it.
- elitism: the best individuals copied unchanged into the next generation.
- selection: the GA's parent selection (PyGAD's name, such as "tournament").
- tournament_size: the individuals drawn per tournament of a tournament selection.
- parents_share: the share of the population selected to mate.

Swarms
- inertia: the constant inertia weight of a PSO (mealpy calls it w).
- inertia_start, inertia_end: a PSO's inertia weight, falling linearly from the first
  to the second over max_iterations.
- c1, c2: a PSO's pull towards the particle's own best and towards the swarm's best
  (the restricted swap PSO's c2 is 0.5 unless given).
- worker_ratio: the share of the hive's organisms that are workers (the rest explore).
- max_age: iterations without improvement after which a worker gets a fresh grid.
- local_search_every: every this many iterations, a hill climb polishes every
  particle's best position (0: never; the memetic swap PSO).
- descent_moves: after each step of the swap PSO's recurrence, the moves the whole
  swarm makes in lockstep, each particle keeping a move (a cycle from a cell in
  conflict) unless its conflicts rise (None: 30 with restrict, 0 without).

Representation and running
- space: the search space, by name (see `spaces.SPACES`): "cells", "rows", "boxes",
  "continuous" or "random-key".
- encoding: the GA's search space ("cells", "rows" or "boxes"), as lesson 01 names it.
- restrict: the restricted representation: cells fixed by naked and hidden singles
  become givens and every other cell keeps one of its candidates.
- observer: a function called with the population (one candidate per row) after each
  generation.
- engine: the code that runs the annealer's chains ("python" or "numba"); in the
  cross-study, the solver of one cell of the design (`crossstudy.engine`).
- trace: record one entry per chain in `SolveResult.trace`.
- updates: simanneal's reports per run, each one iteration of the history.
- verbose: print simanneal's reports.
- parallel: worker processes that evaluate the GA's fitness (None: sequential).
- workers: the search threads of CP-SAT or Z3.
- seed: the seed of the run's own random generator; same seed, same run.
- budget: the evaluations (or a `Budget` of evaluations and seconds) a run may spend.
- callback: a function called as callback(iteration, best_cost) after each
  iteration; True stops the run.

Campaigns and the cross-study
- representations, algorithms: the levels of the cross-study's two factors
  ("R1", "R2", "R3"; "PSO", "GA", "SA").
- seeds: the seeds of a campaign, one run per seed.
- n_jobs, backend, scheduler: where the runs of a campaign go (see `bench.benchmark`).
- progress: show a progress bar (None: yes, unless SUDOKU_COURSE_PROGRESS=0).
- resamples, confidence: the bootstrap's resamples and the central share of its intervals.
- outcome: the column of a runs table an effect is measured on ("cost": conflicts left,
  "solved": success, "evaluations": evaluations spent).
- per_puzzle: also give each puzzle's effects, besides those of every puzzle together.
- count: how many random candidates a profile draws.
- low, high: the two representations that a third one is placed between.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path

from .base import Budget, RunLedger, Solver, SolveResult

FAMILIES = ("exact", "genetic", "annealing", "swarm")
"""The families of algorithms, in the order of the lessons (the constraint solvers CP-SAT and Z3 are exact)."""


@dataclass(frozen=True)
class Registered:
    """A registered solver: its class as "module:Class", its family and the lesson that shows it
    ("00" to "04"; None: no lesson, a benchmark baseline). Its description is its class docstring's first line."""

    target: str
    family: str
    lesson: str | None


REGISTRY: dict[str, Registered] = {
    "exact": Registered("sudoku_course.solvers.exact:ExactSolver", "exact", "00"),
    "backtracking": Registered("sudoku_course.solvers.exact:NaiveBacktracking", "exact", "00"),
    "annealing": Registered("sudoku_course.solvers.annealing:AnnealingSolver", "annealing", "02"),
    "simanneal": Registered("sudoku_course.solvers.annealing:SimannealSolver", "annealing", "02"),
    "naive-annealing": Registered("sudoku_course.solvers.annealing:NaiveAnnealer", "annealing", "02"),
    "genetic": Registered("sudoku_course.solvers.genetic:GeneticSolver", "genetic", "01"),
    "swarm": Registered("sudoku_course.solvers.swarm:WorkerExplorerSwarm", "swarm", "03"),
    "swap-pso": Registered("sudoku_course.solvers.swarm:SwapPSO", "swarm", "03"),
    "mealpy-pso": Registered("sudoku_course.solvers.swarm:MealpyPSO", "swarm", "03"),
    "mealpy-ga": Registered("sudoku_course.solvers.genetic:MealpyGA", "genetic", "04"),
    "space-ga": Registered("sudoku_course.solvers.genetic:SpaceGA", "genetic", "04"),
    "space-pso": Registered("sudoku_course.solvers.swarm:SpacePSO", "swarm", "04"),
    "space-annealing": Registered("sudoku_course.solvers.annealing:SpaceAnnealing", "annealing", "04"),
    "cp-sat": Registered("sudoku_course.solvers.industrial:CpSatSolver", "exact", None),
    "z3": Registered("sudoku_course.solvers.industrial:Z3Solver", "exact", None),
}


def available_solvers() -> list[str]:
    """Names accepted by get_solver, sorted."""
    return sorted(REGISTRY)


def registered(name: str) -> Registered:
    """The registry entry of `name`."""
    if name not in REGISTRY:
        raise ValueError(f"unknown solver {name!r}; available: {', '.join(available_solvers())}")
    return REGISTRY[name]


def solver_class(name: str) -> type[Solver]:
    """The class registered under `name`."""
    module, cls = registered(name).target.split(":")
    return getattr(import_module(module), cls)


def solver_description(name: str) -> str:
    """The first line of the docstring of the class registered under `name`.

    Read from the module's source, not imported: some solvers' modules import libraries that take
    seconds to load (mealpy), and `sudoku-course list-solvers` must stay fast.
    """
    module, cls = registered(name).target.split(":")
    tree = ast.parse(Path(find_spec(module).origin).read_text(encoding="utf-8"))
    [node] = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == cls]
    return (ast.get_docstring(node) or "").split("\n", 1)[0]


def get_solver(name: str, **params) -> Solver:
    """Build the solver registered under `name` with its constructor parameters."""
    return solver_class(name)(**params)


__all__ = [
    "FAMILIES",
    "Budget",
    "Registered",
    "RunLedger",
    "SolveResult",
    "Solver",
    "available_solvers",
    "get_solver",
    "registered",
    "solver_class",
    "solver_description",
]
