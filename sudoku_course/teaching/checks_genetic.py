"""Checks of the lesson 01 exercises (genetic algorithm), built on the machinery of checks.py.

Each `check_*` function runs hidden cases against a student's function and shows a French verdict per
case; checks.py describes what every check shares (deep copies, time limit, stubs, strict mode,
grading record). The operators are judged on properties (each segment still a permutation, whole
segments copied from the parents, randomness drawn from the GA instance only): each operator is called
twice with the same GA seed, the global generators of numpy and Python seeded differently before each
call, and the two results must agree. The weighted fitness is compared with the package's
`weighted_conflicts`; the encoding comparison with runs the check makes itself with the same seeds,
since a seeded run is reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import cache
from types import SimpleNamespace
from typing import Any

import numpy as np

from ..cost import weighted_conflicts
from ..grid import SudokuGrid
from ..puzzles import load_bank
from ..solvers.genetic import GeneticSolver
from ..spaces import CellSpace, RowPermutationSpace
from .checks import DEFAULT_TIME_LIMIT, TEMOIN, TEMOIN_SOLUTION, Case, CheckReport, Judge, run_check

STUDY_TIME_LIMIT = 30.0  # seconds per case for the check that runs the GA
INTERLEAVED = [np.array([0, 2, 4, 6]), np.array([1, 3, 5]), np.array([7])]
"""Segments that are not contiguous slices of the chromosome (and one too short to swap)."""


# ------------------------------------------------------------ shared helpers
def ga_instance(seed: int) -> SimpleNamespace:
    """What an operator may use of a pygad.GA: its seeded numpy generator `numpy_random_generator`."""
    return SimpleNamespace(numpy_random_generator=np.random.RandomState(seed))


def chromosomes(space, count: int, seed: int) -> np.ndarray:
    """`count` random chromosomes of a space, one per row."""
    rng = np.random.default_rng(seed)
    return np.array([space.random(rng) for _ in range(count)])


def interleaved_population(count: int, seed: int) -> np.ndarray:
    """Chromosomes of 8 genes where each INTERLEAVED segment holds a permutation of its own digits."""
    rng = np.random.default_rng(seed)
    population = np.zeros((count, 8), dtype=np.int64)
    for chromosome in population:
        for segment in INTERLEAVED:
            chromosome[segment] = rng.permutation(np.arange(len(segment)) + 10 * (segment[0] + 1))
    return population


def twice(operator: Callable, make_args: Callable[[], tuple]) -> tuple[Any, Any]:
    """Two calls of `operator` on fresh arguments, numpy's and Python's global generators seeded differently."""
    results = []
    for global_seed in (1, 2):
        np.random.seed(global_seed)
        random.seed(global_seed)
        results.append(operator(*make_args()))
    return results[0], results[1]


def array_problem(result: Any, shape: tuple[int, ...]) -> str | None:
    """Why `result` is not a numpy array of `shape`, in French, or None."""
    if not isinstance(result, np.ndarray):
        return f"la fonction doit renvoyer un tableau numpy, elle a renvoyé un {type(result).__name__}"
    if result.shape != shape:
        return f"le tableau renvoyé a la forme {result.shape}, attendu {shape}"
    return None


def reproducibility_problem(first: np.ndarray, second: np.ndarray) -> str | None:
    """A French sentence if two calls with the same GA seed disagree, else None."""
    if np.array_equal(first, second):
        return None
    return (
        "deux appels avec la même graine de ga_instance donnent des résultats différents : "
        "tirez tous vos nombres de ga_instance.numpy_random_generator"
    )


# ------------------------------------------------------------ exercise 1: weighted fitness
def close_to(expected: float) -> Judge:
    """A judge accepting a number equal to `expected` up to rounding errors."""

    def judge(result: Any) -> str | None:
        if isinstance(result, (bool, np.bool_)) or not isinstance(result, (int, float, np.integer, np.floating)):
            return f"la fonction doit renvoyer un nombre, elle a renvoyé {type(result).__name__}"
        if math.isclose(float(result), expected, abs_tol=1e-9):
            return None
        return f"attendu {expected:g}, obtenu {float(result):g}"

    return judge


def weighted_fitness_cases() -> list[Case]:
    temoin = SudokuGrid.from_string(TEMOIN)
    rows_space, cells_space = RowPermutationSpace(temoin), CellSpace(temoin)
    rows_grid = rows_space.decode(chromosomes(rows_space, 1, 3)[0])
    cells_grid = cells_space.decode(chromosomes(cells_space, 1, 4)[0])
    rows, columns = np.indices((9, 9))
    latin = SudokuGrid((rows + columns) % 9 + 1)  # rows and columns right, boxes wrong
    small = SudokuGrid(np.array([[1, 2, 3, 4], [1, 2, 3, 4], [4, 3, 2, 1], [2, 1, 4, 3]]))
    grids = [
        ("la solution du témoin : aucune pénalité", SudokuGrid.from_string(TEMOIN_SOLUTION), (1, 1, 1)),
        ("une grille aux lignes permutées, poids 1", rows_grid, (1, 1, 1)),
        ("la même grille, les lignes pèsent double (elles n'ont aucun conflit)", rows_grid, (2, 1, 1)),
        ("la même grille, poids (1, 3, 0.5)", rows_grid, (1, 3, 0.5)),
        ("une grille tirée case par case, poids (0.5, 1, 2)", cells_grid, (0.5, 1, 2)),
        ("lignes et colonnes justes, blocs faux, poids 1", latin, (1, 1, 1)),
        ("la même grille, les blocs ne pèsent rien", latin, (5, 5, 0)),
        ("une grille 4 x 4 (la taille se lit dans la grille), poids (1, 2, 4)", small, (1, 2, 4)),
    ]
    cases = []
    for label, grid, (w_row, w_col, w_box) in grids:
        expected = weighted_conflicts(grid, {"rows": w_row, "columns": w_col, "boxes": w_box})
        weights = {"w_row": float(w_row), "w_col": float(w_col), "w_box": float(w_box)}
        cases.append(Case(label, (grid.cells.copy(),), close_to(expected), kwargs=weights))
    return cases


def check_weighted_fitness(
    weighted_fitness: Callable[..., float], *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `weighted_fitness(cells, w_row=1.0, w_col=1.0, w_box=1.0) -> float`: for a full n x n grid,
    the sum over its rows, columns and boxes of the kind's weight times (n - distinct digits of the unit)."""
    cases = weighted_fitness_cases()
    return run_check("weighted_fitness", weighted_fitness, cases, time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 2: swap mutation
def _mutate(swap_mutation: Callable) -> Callable:
    """Call the student's mutation twice (see `twice`); keep the offspring as it was before."""

    def call(offspring: np.ndarray, segments: list[np.ndarray], seed: int) -> tuple:
        first, second = twice(swap_mutation, lambda: (offspring.copy(), ga_instance(seed), segments))
        return offspring, first, second

    return call


def _swapped(segments: Sequence[np.ndarray]) -> Judge:
    """Each child: exactly two genes of one segment exchanged, nothing else; the same result twice."""
    segment_of = {int(k): s for s, segment in enumerate(segments) for k in segment}

    def judge(outcome: tuple) -> str | None:
        before, mutated, again = outcome
        problem = array_problem(mutated, before.shape) or reproducibility_problem(mutated, again)
        if problem:
            return problem
        for child, (old, new) in enumerate(zip(before, mutated, strict=True)):
            changed = [int(k) for k in np.flatnonzero(old != new)]
            if len(changed) != 2:
                return f"l'enfant {child} a {len(changed)} gène(s) modifié(s) au lieu de 2"
            i, j = changed
            if segment_of[i] != segment_of[j]:
                return f"l'enfant {child} échange les gènes {i} et {j}, qui ne sont pas dans le même segment"
            if (new[i], new[j]) != (old[j], old[i]):
                return f"l'enfant {child} : les gènes {i} et {j} ont changé sans être échangés"
        return None

    return judge


def _varied(segments: Sequence[np.ndarray]) -> Judge:
    """Over many children, the swaps fall in several segments."""
    segment_of = {int(k): s for s, segment in enumerate(segments) for k in segment}

    def judge(outcome: tuple) -> str | None:
        before, mutated, _ = outcome
        problem = array_problem(mutated, before.shape)
        if problem:
            return problem
        changed = [np.flatnonzero(old != new) for old, new in zip(before, mutated, strict=True)]
        touched = {segment_of[int(places[0])] for places in changed if len(places)}
        if len(touched) < len(segments) // 2:
            return (
                f"en {len(before)} enfants, les échanges ne touchent que {len(touched)} segment(s) sur {len(segments)}"
            )
        return None

    return judge


def swap_mutation_cases() -> list[Case]:
    space = RowPermutationSpace(SudokuGrid.from_string(TEMOIN))
    one_segment = [np.array([0]), np.array([1, 2, 3]), np.array([4])]
    lonely = np.array([[7, 1, 2, 3, 8], [7, 3, 1, 2, 8], [7, 2, 3, 1, 8]])
    return [
        Case(
            "30 enfants du témoin, segments = lignes",
            (chromosomes(space, 30, 5), space.segments, 0),
            _swapped(space.segments),
        ),
        Case(
            "segments non contigus dans le chromosome",
            (interleaved_population(20, 1), INTERLEAVED, 1),
            _swapped(INTERLEAVED),
        ),
        Case("un seul segment a au moins deux gènes", (lonely, one_segment, 2), _swapped(one_segment)),
        Case(
            "sur 200 enfants, les échanges tombent dans plusieurs lignes",
            (chromosomes(space, 200, 6), space.segments, 3),
            _varied(space.segments),
        ),
    ]


def check_swap_mutation(
    swap_mutation: Callable, *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `swap_mutation(offspring, ga_instance, segments) -> np.ndarray`: each child exchanges the genes of
    two positions of one segment (among those with two genes or more), drawn from
    ga_instance.numpy_random_generator."""
    call = _mutate(swap_mutation)
    return run_check("swap_mutation", call, swap_mutation_cases(), time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 3: compare encodings
def success_rates(puzzle, encodings: Sequence[str], seeds: Sequence[int], budget: int) -> dict[str, float]:
    """The reference: per encoding, the share of seeds for which GeneticSolver solves the puzzle."""
    return {
        encoding: sum(GeneticSolver(encoding=encoding).solve(puzzle, seed=s, budget=budget).solved for s in seeds)
        / len(seeds)
        for encoding in encodings
    }


def rates_like(expected: dict[str, float]) -> Judge:
    """A judge accepting a dict with the same keys, in the same order, and the same rates."""

    def judge(result: Any) -> str | None:
        if not isinstance(result, dict):
            return f"la fonction doit renvoyer un dictionnaire, elle a renvoyé un {type(result).__name__}"
        if list(result) != list(expected):
            return f"clés attendues {list(expected)}, obtenu {list(result)}"
        for encoding, rate in expected.items():
            if not math.isclose(float(result[encoding]), rate, abs_tol=1e-9):
                return f"taux de succès de {encoding!r} : attendu {rate:g}, obtenu {result[encoding]!r}"
        return None

    return judge


@cache
def compare_encodings_cases() -> tuple[Case, ...]:
    """Hidden cases of check_compare_encodings (computed once: their expected rates come from GA runs)."""
    temoin = SudokuGrid.from_string(TEMOIN)
    easy = load_bank("easy")[5]
    studies = [
        ("témoin, lignes contre cases, 3 graines", temoin, ("rows", "cells"), (0, 1, 2), 3_000),
        ("témoin, blocs seuls, budget trop petit pour réussir", temoin, ("boxes",), (0, 1), 200),
        ("une grille facile, lignes puis blocs, 4 graines", easy, ("rows", "boxes"), (10, 11, 12, 13), 6_000),
    ]
    return tuple(
        Case(label, (puzzle, encodings, seeds, budget), rates_like(success_rates(puzzle, encodings, seeds, budget)))
        for label, puzzle, encodings, seeds, budget in studies
    )


def check_compare_encodings(
    compare_encodings: Callable, *, time_limit: float = STUDY_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `compare_encodings(puzzle, encodings, seeds, budget) -> dict[str, float]`: for each encoding, in
    the given order, the share of seeds for which GeneticSolver(encoding=...) solves the puzzle within the budget."""
    cases = compare_encodings_cases()
    return run_check("compare_encodings", compare_encodings, cases, time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 4: uniform crossover
def _cross(uniform_crossover: Callable) -> Callable:
    """Call the student's crossover twice (see `twice`); keep the parents as they were before."""

    def call(parents: np.ndarray, count: int, segments: list[np.ndarray], seed: int) -> tuple:
        size = (count, parents.shape[1])
        kept = parents.copy()
        first, second = twice(uniform_crossover, lambda: (parents, size, ga_instance(seed), segments))
        return kept, parents, size, first, second

    return call


def _uniform(segments: Sequence[np.ndarray], min_parents: int = 2) -> Judge:
    """Children of the right shape, each segment copied whole from one of two parents, parents untouched,
    a fifth of the children at least mixing two parents, `min_parents` parents used, the same result twice."""

    def judge(outcome: tuple) -> str | None:
        kept, parents, size, children, again = outcome
        if not np.array_equal(kept, parents):
            return "les parents ont été modifiés : un croisement doit créer de nouveaux enfants"
        problem = array_problem(children, size) or reproducibility_problem(children, again)
        if problem:
            return problem
        mixed, used = 0, set()
        for number, child in enumerate(children):
            # sources[s]: the parents whose segment s is exactly the child's segment s
            sources = [{int(p) for p in np.flatnonzero((kept[:, s] == child[s]).all(axis=1))} for s in segments]
            if not all(sources):
                return f"un segment de l'enfant {number} ne vient tel quel d'aucun parent"
            candidates = sorted(set.union(*sources))
            pairs = [{a, b} for k, a in enumerate(candidates) for b in candidates[k:]]
            if not any(all(pair & source for source in sources) for pair in pairs):
                return f"l'enfant {number} prend ses segments chez plus de deux parents"
            mixed += not set.intersection(*sources)  # no single parent gave every segment
            used |= set.union(*sources)
        if mixed < len(children) / 5:
            return f"seulement {mixed} enfant(s) sur {len(children)} mélangent deux parents"
        if len(used) < min_parents:
            return f"les enfants ne viennent que de {len(used)} parent(s) sur {len(kept)}"
        return None

    return judge


def uniform_crossover_cases() -> list[Case]:
    space = RowPermutationSpace(SudokuGrid.from_string(TEMOIN))
    return [
        Case(
            "2 parents du témoin, 40 enfants",
            (chromosomes(space, 2, 7), 40, space.segments, 0),
            _uniform(space.segments),
        ),
        Case(
            "10 parents, 100 enfants : plusieurs parents servent",
            (chromosomes(space, 10, 8), 100, space.segments, 1),
            _uniform(space.segments, min_parents=5),
        ),
        Case(
            "segments non contigus dans le chromosome",
            (interleaved_population(6, 2), 60, INTERLEAVED[:2], 2),
            _uniform(INTERLEAVED[:2]),
        ),
    ]


def check_uniform_crossover(
    uniform_crossover: Callable, *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `uniform_crossover(parents, offspring_size, ga_instance, segments) -> np.ndarray`: each child has
    two parents and takes each segment whole from one of them (probability 1/2), drawn from
    ga_instance.numpy_random_generator."""
    call = _cross(uniform_crossover)
    return run_check("uniform_crossover", call, uniform_crossover_cases(), time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 5: time ratio
def ratio_like(expected_ratio: float, expected_magnitude: int) -> Judge:
    """A judge accepting (ratio, order of magnitude) with the ratio up to rounding errors."""

    def judge(result: Any) -> str | None:
        if not isinstance(result, tuple) or len(result) != 2:
            return f"la fonction doit renvoyer un couple (rapport, ordre de grandeur), obtenu {result!r}"
        ratio, magnitude = result
        if not math.isclose(float(ratio), expected_ratio, rel_tol=1e-9):
            return f"rapport attendu {expected_ratio:g}, obtenu {ratio!r}"
        if magnitude != expected_magnitude:
            return f"ordre de grandeur attendu {expected_magnitude}, obtenu {magnitude!r}"
        return None

    return judge


def time_ratio_cases() -> list[Case]:
    pairs = [
        ("le GA met 2 s, le solveur exact 1 ms", 2.0, 0.001, 2000.0, 3),
        ("les deux mettent 0,5 s", 0.5, 0.5, 1.0, 0),
        ("30 fois plus lent", 0.03, 0.001, 30.0, 1),
        ("le GA est plus rapide (rapport inférieur à 1)", 0.0009, 0.001, 0.9, -1),
        ("un rapport de 999 : pas encore trois ordres de grandeur", 9.99, 0.01, 999.0, 2),
        ("12 s contre 4 ms", 12.0, 0.004, 3000.0, 3),
    ]
    return [Case(label, (ga, exact), ratio_like(ratio, magnitude)) for label, ga, exact, ratio, magnitude in pairs]


def check_time_ratio(
    ratio_and_magnitude: Callable, *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `ratio_and_magnitude(ga_seconds, exact_seconds) -> (ratio, magnitude)`: the ratio of the two times
    and its order of magnitude, the integer part (rounded down) of its base-10 logarithm."""
    return run_check(
        "ratio_and_magnitude", ratio_and_magnitude, time_ratio_cases(), time_limit=time_limit, strict=strict
    )
