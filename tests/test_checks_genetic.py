"""The lesson 01 checks: each passes the reference answer and fails deliberately wrong answers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import stub

from sudoku_course.solvers.genetic import GeneticSolver
from sudoku_course.teaching.checks_genetic import (
    check_compare_encodings,
    check_swap_mutation,
    check_time_ratio,
    check_uniform_crossover,
    check_weighted_fitness,
)

pytestmark = pytest.mark.usefixtures("not_strict")


# ------------------------------------------------------------ reference answers (as in the solutions)
def weighted_fitness(cells, w_row=1.0, w_col=1.0, w_box=1.0):
    n = cells.shape[0]
    b = math.isqrt(n)
    boxes = [cells[r : r + b, c : c + b].ravel() for r in range(0, n, b) for c in range(0, n, b)]

    def missing(units):
        return sum(n - len(set(unit.tolist())) for unit in units)

    return w_row * missing(cells) + w_col * missing(cells.T) + w_box * missing(boxes)


def swap_mutation(offspring, ga_instance, segments):
    random = ga_instance.numpy_random_generator
    swappable = [segment for segment in segments if len(segment) >= 2]
    mutated = offspring.copy()
    for child in range(len(mutated)):
        segment = swappable[random.randint(len(swappable))]
        i, j = random.choice(segment, size=2, replace=False)
        mutated[child, [i, j]] = mutated[child, [j, i]]
    return mutated


def compare_encodings(puzzle, encodings, seeds, budget):
    rates = {}
    for encoding in encodings:
        solver = GeneticSolver(encoding=encoding)
        solved = [solver.solve(puzzle, seed=seed, budget=budget).solved for seed in seeds]
        rates[encoding] = sum(solved) / len(seeds)
    return rates


def uniform_crossover(parents, offspring_size, ga_instance, segments):
    random = ga_instance.numpy_random_generator
    children = np.empty(offspring_size, dtype=parents.dtype)
    for k in range(offspring_size[0]):
        first, second = random.choice(len(parents), size=2, replace=False)
        children[k] = parents[first]
        for segment in segments:
            if random.random_sample() < 0.5:
                children[k, segment] = parents[second, segment]
    return children


def ratio_and_magnitude(ga_seconds, exact_seconds):
    ratio = ga_seconds / exact_seconds
    return ratio, math.floor(math.log10(ratio))


# ------------------------------------------------------------ wrong answers
def weighted_without_weights(cells, w_row=1.0, w_col=1.0, w_box=1.0):
    return weighted_fitness(cells)


def weighted_columns_and_boxes_swapped(cells, w_row=1.0, w_col=1.0, w_box=1.0):
    return weighted_fitness(cells, w_row, w_box, w_col)


def weighted_nine_by_nine_only(cells, w_row=1.0, w_col=1.0, w_box=1.0):
    boxes = [cells[r : r + 3, c : c + 3].ravel() for r in range(0, 9, 3) for c in range(0, 9, 3)]
    missing = sum(9 - len(set(unit.tolist())) for unit in boxes)
    return weighted_fitness(cells, w_row, w_col, 0.0) + w_box * missing


def weighted_counting_pairs(cells, w_row=1.0, w_col=1.0, w_box=1.0):
    n = cells.shape[0]
    b = math.isqrt(n)
    boxes = [cells[r : r + b, c : c + b].ravel() for r in range(0, n, b) for c in range(0, n, b)]

    def pairs(units):
        return sum(math.comb(int(k), 2) for unit in units for k in np.bincount(unit))

    return w_row * pairs(cells) + w_col * pairs(cells.T) + w_box * pairs(boxes)


def mutation_with_global_random(offspring, ga_instance, segments):
    return swap_mutation(offspring, type("GA", (), {"numpy_random_generator": np.random})(), segments)


def mutation_across_segments(offspring, ga_instance, segments):
    random = ga_instance.numpy_random_generator
    mutated = offspring.copy()
    for child in range(len(mutated)):
        i, j = random.choice(offspring.shape[1], size=2, replace=False)
        mutated[child, [i, j]] = mutated[child, [j, i]]
    return mutated


def mutation_of_one_child(offspring, ga_instance, segments):
    mutated = swap_mutation(offspring, ga_instance, segments)
    mutated[1:] = offspring[1:]
    return mutated


def mutation_in_any_segment(offspring, ga_instance, segments):
    random = ga_instance.numpy_random_generator
    mutated = offspring.copy()
    for child in range(len(mutated)):
        segment = segments[random.randint(len(segments))]
        if len(segment) >= 2:
            i, j = random.choice(segment, size=2, replace=False)
            mutated[child, [i, j]] = mutated[child, [j, i]]
    return mutated


def rates_as_counts(puzzle, encodings, seeds, budget):
    return {e: rate * len(seeds) for e, rate in compare_encodings(puzzle, encodings, seeds, budget).items()}


def rates_with_one_seed(puzzle, encodings, seeds, budget):
    return compare_encodings(puzzle, encodings, [seeds[0]] * len(seeds), budget)


def rates_sorted_by_name(puzzle, encodings, seeds, budget):
    return compare_encodings(puzzle, sorted(encodings), seeds, budget)


def crossover_gene_by_gene(parents, offspring_size, ga_instance, segments):
    random = ga_instance.numpy_random_generator
    first = parents[random.randint(len(parents), size=offspring_size[0])]
    second = parents[random.randint(len(parents), size=offspring_size[0])]
    return np.where(random.random_sample(offspring_size) < 0.5, first, second)


def crossover_copying_one_parent(parents, offspring_size, ga_instance, segments):
    random = ga_instance.numpy_random_generator
    return parents[random.randint(len(parents), size=offspring_size[0])].copy()


def crossover_with_global_random(parents, offspring_size, ga_instance, segments):
    return uniform_crossover(parents, offspring_size, type("GA", (), {"numpy_random_generator": np.random})(), segments)


def crossover_in_place(parents, offspring_size, ga_instance, segments):
    children = uniform_crossover(parents, offspring_size, ga_instance, segments)
    parents[0] = children[0]
    return children


def magnitude_rounded(ga_seconds, exact_seconds):
    ratio = ga_seconds / exact_seconds
    return ratio, round(math.log10(ratio))


def magnitude_truncated(ga_seconds, exact_seconds):
    ratio = ga_seconds / exact_seconds
    return ratio, int(math.log10(ratio))


def ratio_inverted(ga_seconds, exact_seconds):
    return ratio_and_magnitude(exact_seconds, ga_seconds)


# ------------------------------------------------------------ the tests
CHECKS = {
    check_weighted_fitness: (
        weighted_fitness,
        [
            weighted_without_weights,
            weighted_columns_and_boxes_swapped,
            weighted_nine_by_nine_only,
            weighted_counting_pairs,
        ],
    ),
    check_swap_mutation: (
        swap_mutation,
        [mutation_with_global_random, mutation_across_segments, mutation_of_one_child, mutation_in_any_segment],
    ),
    check_compare_encodings: (compare_encodings, [rates_as_counts, rates_with_one_seed, rates_sorted_by_name]),
    check_uniform_crossover: (
        uniform_crossover,
        [crossover_gene_by_gene, crossover_copying_one_parent, crossover_with_global_random, crossover_in_place],
    ),
    check_time_ratio: (ratio_and_magnitude, [magnitude_rounded, magnitude_truncated, ratio_inverted]),
}


@pytest.mark.parametrize("check", list(CHECKS), ids=lambda check: check.__name__)
def test_reference_answer_passes(check):
    reference, _ = CHECKS[check]
    report = check(reference)
    assert report.ok, report.text()


@pytest.mark.parametrize(
    ("check", "wrong"),
    [(check, wrong) for check, (_, wrongs) in CHECKS.items() for wrong in wrongs],
    ids=lambda item: item.__name__,
)
def test_wrong_answer_fails(check, wrong):
    report = check(wrong)
    assert not report.ok and not report.stub, report.text()


@pytest.mark.parametrize("check", list(CHECKS), ids=lambda check: check.__name__)
def test_stub_is_reported_as_not_done(check):
    report = check(stub)
    assert report.stub and "pas encore fait" in report.summary()


def test_strict_mode_raises_on_a_wrong_answer(monkeypatch):
    monkeypatch.setenv("SUDOKU_COURSE_STRICT", "1")
    with pytest.raises(AssertionError):
        check_time_ratio(ratio_inverted)
