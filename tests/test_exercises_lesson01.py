"""Lesson 01 exercises: the references pass, plausible wrong answers fail without seeing the expected value."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

from sudoku_course.puzzles import reference
from sudoku_course.solvers.genetic import GeneticSolver
from sudoku_course.teaching.checks import evaluate
from sudoku_course.teaching.exercises import exercise, lesson_exercises
from sudoku_course.teaching.exercises.lesson01 import cases
from sudoku_course.teaching.exercises.lesson01 import references as lesson01
from sudoku_course.teaching.exercises.lesson01.provided import BUDGET, evolve, population_costs, random_population

REFERENCES = {
    "weighted_fitness": (lesson01.weighted_fitness,),
    "swap_mutation": (lesson01.swap_mutation,),
    "uniform_crossover": (lesson01.uniform_crossover,),
    "tournament_selection": (lesson01.tournament_selection,),
    "next_generation": (lesson01.next_generation,),
    "compare_encodings": (lesson01.compare_encodings,),
    "time_ratio": (lesson01.time_ratio,),
}


def test_every_exercise_of_the_lesson_is_tested_here():
    assert [item.name for item in lesson_exercises("01-algorithme-genetique")] == list(REFERENCES)


@pytest.mark.parametrize("name", REFERENCES)
def test_the_reference_passes(name, passes):
    passes(name, *REFERENCES[name])


# ------------------------------------------------------------ weighted_fitness
def without_weights(cells, w_row=1.0, w_col=1.0, w_box=1.0):
    return lesson01.weighted_fitness(cells)


def columns_and_boxes_swapped(cells, w_row=1.0, w_col=1.0, w_box=1.0):
    return lesson01.weighted_fitness(cells, w_row, w_box, w_col)


def nine_by_nine_boxes(cells, w_row=1.0, w_col=1.0, w_box=1.0):
    boxes = [cells[r : r + 3, c : c + 3].ravel() for r in range(0, 9, 3) for c in range(0, 9, 3)]
    return lesson01.weighted_fitness(cells, w_row, w_col, 0.0) + w_box * sum(9 - len(set(b.tolist())) for b in boxes)


def counting_pairs(cells, w_row=1.0, w_col=1.0, w_box=1.0):
    n = cells.shape[0]
    b = math.isqrt(n)
    boxes = [cells[r : r + b, c : c + b].ravel() for r in range(0, n, b) for c in range(0, n, b)]

    def pairs(units):
        return sum(math.comb(int(k), 2) for unit in units for k in np.bincount(unit))

    return w_row * pairs(cells) + w_col * pairs(cells.T) + w_box * pairs(boxes)


def fitness_sign(cells, w_row=1.0, w_col=1.0, w_box=1.0):
    return -lesson01.weighted_fitness(cells, w_row, w_col, w_box)


def shifts_the_grid(cells, w_row=1.0, w_col=1.0, w_box=1.0):
    cells -= 1  # digits from 0, for np.bincount... and never shifted back: the right penalty, a changed grid
    return lesson01.weighted_fitness(cells + 1, w_row, w_col, w_box)


# ------------------------------------------------------------ PyGAD operators
class GlobalGA:
    """A ga_instance whose generator is numpy's global one."""

    numpy_random_generator = np.random


def mutation_with_global_random(offspring, ga_instance, segments):
    return lesson01.swap_mutation(offspring, GlobalGA(), segments)


def mutation_across_segments(offspring, ga_instance, segments):
    random = ga_instance.numpy_random_generator
    mutated = offspring.copy()
    for child in range(len(mutated)):
        i, j = random.choice(offspring.shape[1], size=2, replace=False)
        mutated[child, [i, j]] = mutated[child, [j, i]]
    return mutated


def mutation_of_one_child(offspring, ga_instance, segments):
    mutated = lesson01.swap_mutation(offspring, ga_instance, segments)
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


def crossover_gene_by_gene(parents, offspring_size, ga_instance, segments):
    random = ga_instance.numpy_random_generator
    first = parents[random.randint(len(parents), size=offspring_size[0])]
    second = parents[random.randint(len(parents), size=offspring_size[0])]
    return np.where(random.random_sample(offspring_size) < 0.5, first, second)


def crossover_copying_one_parent(parents, offspring_size, ga_instance, segments):
    return parents[ga_instance.numpy_random_generator.randint(len(parents), size=offspring_size[0])].copy()


def crossover_with_global_random(parents, offspring_size, ga_instance, segments):
    return lesson01.uniform_crossover(parents, offspring_size, GlobalGA(), segments)


def crossover_with_one_parent_twice(parents, offspring_size, ga_instance, segments):
    random = ga_instance.numpy_random_generator
    children = np.empty(offspring_size, dtype=parents.dtype)
    for k in range(offspring_size[0]):
        first, second = random.randint(len(parents)), random.randint(len(parents))  # may be the same parent
        children[k] = parents[first]
        for segment in segments:
            if random.random_sample() < 0.5:
                children[k, segment] = parents[second, segment]
    return children


def crossover_with_a_quarter(parents, offspring_size, ga_instance, segments):
    random = ga_instance.numpy_random_generator
    children = np.empty(offspring_size, dtype=parents.dtype)
    for k in range(offspring_size[0]):
        first, second = random.choice(len(parents), size=2, replace=False)
        children[k] = parents[first]
        for segment in segments:
            if random.random_sample() < 0.25:
                children[k, segment] = parents[second, segment]
    return children


def crossover_pygad_pairs(parents, offspring_size, ga_instance, segments):
    random = ga_instance.numpy_random_generator
    children = np.empty(offspring_size, dtype=parents.dtype)
    for k in range(offspring_size[0]):
        first, second = k % len(parents), (k + 1) % len(parents)  # PyGAD's own pairing
        children[k] = parents[first]
        for segment in segments:
            if random.random_sample() < 0.5:
                children[k, segment] = parents[second, segment]
    return children


def crossover_one_point(parents, offspring_size, ga_instance, segments):
    random = ga_instance.numpy_random_generator
    children = np.empty(offspring_size, dtype=parents.dtype)
    for k in range(offspring_size[0]):
        first, second = random.choice(len(parents), size=2, replace=False)
        children[k] = parents[first]
        for segment in segments[random.randint(1, len(segments)) :]:
            children[k, segment] = parents[second, segment]
    return children


def crossover_returning_nothing(parents, offspring_size, ga_instance, segments):
    lesson01.uniform_crossover(parents, offspring_size, ga_instance, segments)


def crossover_in_place(parents, offspring_size, ga_instance, segments):
    children = lesson01.uniform_crossover(parents, offspring_size, ga_instance, segments)
    parents[0] = children[0]
    return children


# ------------------------------------------------------------ tournament_selection
def worst_wins(costs, count, rng, tournament_size=3):
    contestants = [rng.choice(len(costs), size=tournament_size, replace=False) for _ in range(count)]
    return np.array([c[np.argmax(costs[c])] for c in contestants])


def position_among_contestants(costs, count, rng, tournament_size=3):
    draws = [rng.choice(len(costs), size=tournament_size, replace=False) for _ in range(count)]
    return np.array([np.argmin(costs[contestants]) for contestants in draws])


def tournament_with_global_random(costs, count, rng, tournament_size=3):
    return lesson01.tournament_selection(costs, count, np.random.default_rng(np.random.randint(1000)), tournament_size)


def first_individual_of_the_best_cost(costs, count, rng, tournament_size=3):
    contestants = [rng.choice(len(costs), size=tournament_size, replace=False) for _ in range(count)]
    return np.array([list(costs).index(costs[c].min()) for c in contestants])  # may be a non-participant


def contestants_with_replacement(costs, count, rng, tournament_size=3):
    contestants = rng.integers(len(costs), size=(count, tournament_size))
    return contestants[np.arange(count), np.argmin(costs[contestants], axis=1)]


def the_best_ones(costs, count, rng, tournament_size=3):
    return np.resize(np.argsort(costs), count)


def one_contestant_more(costs, count, rng, tournament_size=3):
    return lesson01.tournament_selection(costs, count, rng, min(tournament_size + 1, len(costs)))


def sorts_the_costs(costs, count, rng, tournament_size=3):
    winners = lesson01.tournament_selection(costs, count, rng, tournament_size)
    costs.sort()
    return winners


# ------------------------------------------------------------ next_generation
def generation_with(population, costs, givens, rng, elitism=2, *, elites=None, cross=True, mutate=True, swap=None):
    """The reference generation with one ingredient changed (for the wrong answers below)."""
    size, n = population.shape[0], population.shape[1]
    elites = elitism if elites is None else elites
    count = size - elites
    kept = population[np.argsort(costs, kind="stable")[:elites]]
    first, second = lesson01.tournament_selection(costs, 2 * count, rng).reshape(2, count)
    children = population[first].copy()
    if cross:
        children = np.where((rng.random((count, n)) < 0.5)[:, :, None], population[second], children)
    if mutate:
        (swap or lesson01.swap_two_free_cells)(children, givens, rng)
    return np.concatenate([kept, children])


def swap_any_cells(grids, givens, rng):
    rows = rng.integers(grids.shape[1], size=len(grids))
    for grid, row in zip(grids, rows, strict=True):
        i, j = rng.choice(grids.shape[1], size=2, replace=False)
        grid[row, [i, j]] = grid[row, [j, i]]


def no_elitism(population, costs, givens, rng, elitism=2):
    return generation_with(population, costs, givens, rng, elites=0)


def one_elite_too_many(population, costs, givens, rng, elitism=2):
    return generation_with(population, costs, givens, rng, elites=elitism + 1)


def no_crossover(population, costs, givens, rng, elitism=2):
    return generation_with(population, costs, givens, rng, elitism, cross=False)


def no_mutation(population, costs, givens, rng, elitism=2):
    return generation_with(population, costs, givens, rng, elitism, mutate=False)


def mutation_moves_givens(population, costs, givens, rng, elitism=2):
    return generation_with(population, costs, givens, rng, elitism, swap=swap_any_cells)


def crossover_cell_by_cell(population, costs, givens, rng, elitism=2):
    new = lesson01.next_generation(population, costs, givens, rng, elitism)
    mask = rng.random(new[elitism:].shape) < 0.5
    new[elitism:] = np.where(mask, new[elitism:], new[elitism:][::-1])
    return new


def generation_with_global_random(population, costs, givens, rng, elitism=2):
    return lesson01.next_generation(population, costs, givens, np.random.default_rng(np.random.randint(1000)), elitism)


def nine_hard_coded(population, costs, givens, rng, elitism=2):
    if population.shape[1] != 9:
        raise IndexError("index 4 is out of bounds for axis 0 with size 4")
    return lesson01.next_generation(population, costs, givens, rng, elitism)


def mutates_the_population(population, costs, givens, rng, elitism=2):
    new = lesson01.next_generation(population, costs, givens, rng, elitism)
    population[elitism:] = new[elitism:]
    return new


def random_parents(population, costs, givens, rng, elitism=2):
    return lesson01.next_generation(population, rng.permutation(costs), givens, rng, elitism)


def best_as_second_parent(population, costs, givens, rng, elitism=2):
    """Each child: a tournament winner crossed with the population's best grid."""
    size, n = population.shape[:2]
    order = np.argsort(costs, kind="stable")
    children = []
    for _ in range(size - elitism):
        first = lesson01.tournament_selection(costs, 1, rng)[0]
        child = np.where((rng.random(n) < 0.5)[:, None], population[order[0]], population[first])
        lesson01.swap_two_free_cells(child[None], givens, rng)
        children.append(child)
    return np.concatenate([population[order[:elitism]], np.array(children).reshape(-1, n, n)])


def parents_drawn_uniformly(population, costs, givens, rng, elitism=2):
    """Both parents drawn at random, whatever their costs."""
    size, n = population.shape[:2]
    order = np.argsort(costs, kind="stable")
    children = []
    for _ in range(size - elitism):
        first, second = rng.integers(size, size=2)
        child = np.where((rng.random(n) < 0.5)[:, None], population[second], population[first])
        lesson01.swap_two_free_cells(child[None], givens, rng)
        children.append(child)
    return np.concatenate([population[order[:elitism]], np.array(children).reshape(-1, n, n)])


# ------------------------------------------------------------ compare_encodings, time_ratio
def rates_as_counts(puzzle, encodings, seeds, budget):
    return {e: r * len(seeds) for e, r in lesson01.compare_encodings(puzzle, encodings, seeds, budget).items()}


def rates_with_one_seed(puzzle, encodings, seeds, budget):
    return lesson01.compare_encodings(puzzle, encodings, [seeds[0]] * len(seeds), budget)


def rates_sorted_by_name(puzzle, encodings, seeds, budget):
    return lesson01.compare_encodings(puzzle, sorted(encodings), seeds, budget)


def seeds_from_zero(puzzle, encodings, seeds, budget):
    return lesson01.compare_encodings(puzzle, encodings, range(len(seeds)), budget)


def with_failures(seconds, solved, baseline):
    return lesson01.time_ratio(seconds, [True] * len(seconds), baseline)[:2] + (solved.count(False),)


def solved_times(seconds, solved, baseline):
    pairs = [(t, b) for t, ok, b in zip(seconds, solved, baseline, strict=True) if ok]
    return [t for t, _ in pairs], [b for _, b in pairs], len(seconds) - len(pairs)


def mean_times(seconds, solved, baseline):
    times, baselines, failures = solved_times(seconds, solved, baseline)
    if not times:
        return None, None, failures
    ratio = (sum(times) / len(times)) / (sum(baselines) / len(baselines))
    return ratio, math.floor(math.log10(ratio)), failures


def upper_median(seconds, solved, baseline):
    times, baselines, failures = solved_times(seconds, solved, baseline)
    if not times:
        return None, None, failures
    ratio = sorted(times)[len(times) // 2] / sorted(baselines)[len(baselines) // 2]
    return ratio, math.floor(math.log10(ratio)), failures


def lower_median(seconds, solved, baseline):
    times, baselines, failures = solved_times(seconds, solved, baseline)
    if not times:
        return None, None, failures
    ratio = statistics.median_low(times) / statistics.median_low(baselines)
    return ratio, math.floor(math.log10(ratio)), failures


def baseline_of_every_run(seconds, solved, baseline):
    times, _, failures = solved_times(seconds, solved, baseline)
    if not times:
        return None, None, failures
    ratio = float(np.median(times) / np.median(baseline))  # the baseline's median over the failed runs too
    return ratio, math.floor(math.log10(ratio)), failures


def rounded_order(seconds, solved, baseline):
    ratio, _, failures = lesson01.time_ratio(seconds, solved, baseline)
    return ratio, None if ratio is None else round(math.log10(ratio)), failures


def truncated_order(seconds, solved, baseline):
    ratio, _, failures = lesson01.time_ratio(seconds, solved, baseline)
    return ratio, None if ratio is None else int(math.log10(ratio)), failures


def inverted(seconds, solved, baseline):
    ratio, _, failures = lesson01.time_ratio(seconds, solved, baseline)
    return (None, None, failures) if ratio is None else (1 / ratio, math.floor(-math.log10(ratio)), failures)


WRONG = {
    "weighted_fitness": [
        without_weights,
        columns_and_boxes_swapped,
        nine_by_nine_boxes,
        counting_pairs,
        fitness_sign,
        shifts_the_grid,
    ],
    "swap_mutation": [
        mutation_with_global_random,
        mutation_across_segments,
        mutation_of_one_child,
        mutation_in_any_segment,
    ],
    "uniform_crossover": [
        crossover_gene_by_gene,
        crossover_copying_one_parent,
        crossover_with_global_random,
        crossover_in_place,
        crossover_with_one_parent_twice,
        crossover_with_a_quarter,
        crossover_pygad_pairs,
        crossover_one_point,
        crossover_returning_nothing,
    ],
    "tournament_selection": [
        worst_wins,
        position_among_contestants,
        first_individual_of_the_best_cost,
        tournament_with_global_random,
        contestants_with_replacement,
        the_best_ones,
        one_contestant_more,
        sorts_the_costs,
    ],
    "next_generation": [
        no_elitism,
        one_elite_too_many,
        no_crossover,
        no_mutation,
        mutation_moves_givens,
        crossover_cell_by_cell,
        generation_with_global_random,
        nine_hard_coded,
        mutates_the_population,
        random_parents,
        best_as_second_parent,
        parents_drawn_uniformly,
    ],
    "compare_encodings": [rates_as_counts, rates_with_one_seed, rates_sorted_by_name, seeds_from_zero],
    "time_ratio": [
        with_failures,
        mean_times,
        upper_median,
        lower_median,
        baseline_of_every_run,
        rounded_order,
        truncated_order,
        inverted,
    ],
}
CASES = [pytest.param(name, wrong, id=f"{name}-{wrong.__name__}") for name, wrongs in WRONG.items() for wrong in wrongs]


def test_every_exercise_has_three_wrong_answers():
    assert set(WRONG) == set(REFERENCES) and all(len(wrongs) >= 3 for wrongs in WRONG.values())


@pytest.mark.parametrize(("name", "wrong"), CASES)
def test_a_wrong_answer_fails(name, wrong, fails_without_leak):
    fails_without_leak(name, wrong)


# ------------------------------------------------------------ what the verdicts say
def failed_details(report) -> list[str]:
    return [result.detail for result in report.details if not result.passed]


def test_a_generation_without_elitism_is_told_about_the_elites(fails_without_leak):
    details = failed_details(fails_without_leak("next_generation", no_elitism))
    assert any("recopiée telle quelle" in detail for detail in details)
    assert any("meilleur coût remonte" in detail for detail in details)


def test_a_mutation_that_moves_givens_is_told_where(fails_without_leak):
    details = failed_details(fails_without_leak("next_generation", mutation_moves_givens))
    assert any("chiffre donné" in detail for detail in details)


@pytest.mark.parametrize(
    ("wrong", "told"),
    [
        (best_as_second_parent, "pas la meilleure grille de la population"),
        (parents_drawn_uniformly, "les parents ne penchent pas vers les grilles de bas coût"),
        (random_parents, "les parents ne penchent pas vers les grilles de bas coût"),
    ],
)
def test_parents_not_chosen_by_tournament_are_told_so(wrong, told, fails_without_leak):
    report = fails_without_leak("next_generation", wrong)
    assert any(told in result.detail for result in report.details if "gagnants de tournois" in result.label)


GENERATION_OF_THE_NOTEBOOK = """
def next_generation(population, costs, givens, rng, elitism=2):
    size, n = population.shape[0], population.shape[1]
    new = [population[k].copy() for k in np.argsort(costs, kind="stable")[:elitism]]
    free = [np.flatnonzero(~givens[row]) for row in range(n)]
    swappable = [row for row in range(n) if len(free[row]) >= 2]
    while len(new) < size:
        first, second = tournament_selection(costs, 2, rng)
        child = np.where((rng.random(n) < 0.5)[:, None], population[second], population[first])
        row = swappable[rng.integers(len(swappable))]
        i, j = rng.choice(free[row], size=2, replace=False)
        child[row, i], child[row, j] = child[row, j], child[row, i]
        new.append(child)
    return np.array(new)
"""


def test_a_generation_failing_through_a_wrong_tournament_names_the_tournament(not_strict):
    """The generation is right; the notebook's tournament_selection, which it calls, lets the worst win."""
    notebook = {"np": np, "tournament_selection": worst_wins}
    exec(GENERATION_OF_THE_NOTEBOOK, notebook)
    report = evaluate(exercise("next_generation"), [notebook["next_generation"]])
    assert not report.ok and [name for name, _ in report.suspects] == ["tournament_selection"]
    assert "votre tournament_selection, que next_generation appelle, ne passe pas sa propre vérification" in (
        report.text()
    )
    notebook["tournament_selection"] = lesson01.tournament_selection
    assert evaluate(exercise("next_generation"), [notebook["next_generation"]]).ok


def test_a_generation_without_mutation_fails_on_identical_grids(fails_without_leak):
    report = fails_without_leak("next_generation", no_mutation)
    assert not next(result for result in report.details if "10 copies" in result.label).passed


def selection_only(population, costs, givens, rng, elitism=2):
    return generation_with(population, costs, givens, rng, elitism, cross=False, mutate=False)


def test_children_copied_from_the_old_grids_are_told(fails_without_leak):
    details = failed_details(fails_without_leak("next_generation", selection_only))
    assert any("sont des copies de grilles de l'ancienne" in detail for detail in details)


def test_one_child_equal_to_an_old_grid_by_chance_is_not_a_failure():
    population = np.arange(4 * 9 * 9).reshape(4, 9, 9)
    new = np.concatenate([population[:2], population[3:], population[:1] + 1000])
    assert cases._copies_problem(new, population, elitism=2) is None
    assert "copies" in cases._copies_problem(np.concatenate([population[:2], population[2:]]), population, 2)


def test_a_tournament_of_the_worst_reads_its_mean_rank(fails_without_leak):
    details = failed_details(fails_without_leak("tournament_selection", worst_wins))
    assert any("seul un individu de plus bas coût peut gagner" in detail for detail in details)


def test_a_grid_changed_by_the_fitness_is_told(fails_without_leak):
    details = failed_details(fails_without_leak("weighted_fitness", shifts_the_grid))
    assert details and all("grille reçue a été modifiée" in detail for detail in details)


@pytest.mark.parametrize(
    ("wrong", "told"),
    [
        (crossover_with_a_quarter, "une chance sur deux"),
        (crossover_one_point, "une chance sur deux"),
        (crossover_with_one_parent_twice, "deux parents différents"),
        (crossover_pygad_pairs, "au hasard parmi tous les parents"),
    ],
)
def test_a_biased_crossover_is_told_the_rule_it_breaks(wrong, told, fails_without_leak):
    details = failed_details(fails_without_leak("uniform_crossover", wrong))
    assert any(told in detail for detail in details)


def test_an_operator_that_returns_nothing_is_told_so(fails_without_leak):
    details = failed_details(fails_without_leak("uniform_crossover", crossover_returning_nothing))
    assert details and all("aucune valeur (None)" in detail for detail in details)


def test_a_tournament_won_outside_its_contestants_fails_on_ties(fails_without_leak):
    report = fails_without_leak("tournament_selection", first_individual_of_the_best_cost)
    failed = [result.label for result in report.details if not result.passed]
    assert any("ex æquo deux à deux" in label for label in failed)


def test_the_time_ratio_order_is_read_from_the_students_own_ratio(fails_without_leak):
    details = failed_details(fails_without_leak("time_ratio", rounded_order))
    assert any("partie entière par défaut" in detail for detail in details)


# ------------------------------------------------------------ the harness
def test_evolve_with_the_reference_solves_the_temoin_for_every_pinned_seed():
    puzzle = reference()
    for seed in range(cases.OUTCOME_SEEDS):
        run = evolve(puzzle, lesson01.next_generation, seed=seed)
        assert run["cost"] == 0 and run["evaluations"] <= BUDGET
        assert np.array_equal(run["grid"][puzzle.givens], puzzle.cells[puzzle.givens])
        assert run["history"] == sorted(run["history"], reverse=True)


def test_evolve_refuses_a_population_of_the_wrong_shape():
    with pytest.raises(ValueError, match="shape"):
        evolve(reference(), lambda population, *args: population[:-1], seed=0)


def test_the_reference_generation_keeps_rows_givens_and_the_input():
    puzzle = reference()
    rng = np.random.default_rng(0)
    population = random_population(puzzle, 12, rng)
    costs = population_costs(population, 3)
    before = population.copy()
    new = lesson01.next_generation(population, costs, puzzle.givens, rng)
    assert np.array_equal(population, before) and new.shape == population.shape
    assert np.array_equal(new[0], population[np.argmin(costs)])
    assert all(sorted(row) == list(range(1, 10)) for grid in new for row in grid.tolist())
    assert (new[:, puzzle.givens] == puzzle.cells[puzzle.givens]).all()


def test_compare_encodings_reference_reads_geneticsolver():
    rates = lesson01.compare_encodings(reference(), ["rows"], [0, 1], 3_000)
    solved = [GeneticSolver().solve(reference(), seed=seed, budget=3_000).solved for seed in (0, 1)]
    assert rates == {"rows": sum(solved) / 2}
