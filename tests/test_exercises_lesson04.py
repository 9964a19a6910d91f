"""Lesson 04 exercises: the references pass, plausible wrong answers fail without seeing the expected value."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_course.crossstudy import (
    SEEDS,
    CrossDesign,
    bootstrap_effects,
    cross_table,
    effects_verdict,
    run_design,
    verdict,
)
from sudoku_course.teaching.display import NARROW_SPACE
from sudoku_course.teaching.exercises import lesson_exercises
from sudoku_course.teaching.exercises.lesson04 import LESSON, cases
from sudoku_course.teaching.exercises.lesson04 import references as lesson04

REFERENCES = {
    "effects_2x2": lesson04.effects_2x2,
    "bootstrap_gap": lesson04.bootstrap_gap,
    "percentile_interval": lesson04.percentile_interval,
    "cross_study": lesson04.cross_study,
    "annealing_design": lesson04.annealing_design,
    "grid_change_rate": lesson04.grid_change_rate,
    "count_distinct_grids": lesson04.count_distinct_grids,
}


def test_every_exercise_of_the_lesson_is_tested_here():
    assert [item.name for item in lesson_exercises(LESSON)] == list(REFERENCES)


@pytest.mark.parametrize("name", REFERENCES)
def test_the_reference_passes(name, passes):
    passes(name, REFERENCES[name])


def test_the_reference_effects_of_the_source_table():
    representation, algorithm, interaction = lesson04.effects_2x2(cases.SOURCE_MEANS)
    assert (representation, algorithm, interaction) == pytest.approx((-24.0, -20.75, 28.0))


def test_the_reference_bootstrap_agrees_with_the_package():
    """Resampling one cell against a constant one gives the spread of the package's bootstrap of a cell mean."""
    first, second = cases.SOURCE_COSTS["R1", "PSO"], [0, 0, 0, 0]
    gaps = lesson04.bootstrap_gap(first, second, np.random.default_rng(0), 20_000)
    assert gaps.mean() == pytest.approx(-np.mean(first), abs=0.1)
    assert gaps.std() == pytest.approx(np.std(first) / 2, rel=0.03)
    low, high = lesson04.percentile_interval(gaps)
    assert low < -np.mean(first) < high


# ------------------------------------------------------------ effects_2x2
def interaction_halved(means):
    rows, columns, interaction = lesson04.effects_2x2(means)
    return rows, columns, interaction / 2


def first_column_only(means):
    cells = means.to_numpy()
    return (
        cells[1, 0] - cells[0, 0],
        cells[0, 1] - cells[0, 0],
        (cells[1, 1] - cells[0, 1]) - (cells[1, 0] - cells[0, 0]),
    )


def first_minus_second(means):
    return tuple(-effect for effect in lesson04.effects_2x2(means))


def labels_hard_coded(means):
    r1, r2 = means.loc["R1"], means.loc["R2"]
    by_row = r2 - r1
    return by_row.mean(), ((r1["GA"] - r1["PSO"]) + (r2["GA"] - r2["PSO"])) / 2, by_row["GA"] - by_row["PSO"]


def sorted_first(means):
    return lesson04.effects_2x2(means.sort_index().sort_index(axis=1))


def interaction_reversed(means):
    rows, columns, interaction = lesson04.effects_2x2(means)
    return rows, columns, -interaction


def sums_not_means(means):
    cells = means.to_numpy()
    by_row, by_column = cells[1] - cells[0], cells[:, 1] - cells[:, 0]
    return by_row.sum(), by_column.sum(), by_row[1] - by_row[0]


def rows_and_columns_swapped(means):
    rows, columns, interaction = lesson04.effects_2x2(means)
    return columns, rows, interaction


WRONG_EFFECTS = {  # wrong answer -> what its first verdict must say
    interaction_halved: "ne divise pas par 2",
    interaction_reversed: "l'interaction (3e nombre) a le mauvais signe",
    first_minus_second: "mauvais signe",
    sums_not_means: "la somme des deux écarts, pas leur moyenne",
    rows_and_columns_swapped: "échangés",
    first_column_only: "ne suit pas sa définition",
    labels_hard_coded: "",
    sorted_first: "",
}


@pytest.mark.parametrize("wrong", WRONG_EFFECTS)
def test_wrong_effects_fail_and_name_the_broken_definition(wrong, fails_without_leak):
    report = fails_without_leak("effects_2x2", wrong)
    first = next(result.detail for result in report.details if result.detail)
    assert WRONG_EFFECTS[wrong] in first


def test_effects_read_by_position_and_returned_as_an_array_pass(passes):
    def by_position(means):
        gaps = means.iloc[1] - means.iloc[0]
        algorithm_gaps = means.iloc[:, 1] - means.iloc[:, 0]
        return np.array([gaps.mean(), algorithm_gaps.mean(), gaps.iloc[1] - gaps.iloc[0]])

    passes("effects_2x2", by_position)


def test_a_modified_table_is_reported(fails_without_leak):
    def in_place(means):
        effects = lesson04.effects_2x2(means)
        means.iloc[0, 0] = 0
        return effects

    report = fails_without_leak("effects_2x2", in_place)
    assert "modifié" in report.details[0].detail


# ------------------------------------------------------------ bootstrap_gap
def pooled(first, second, rng, resamples=2000):
    both = np.concatenate([first, second]).astype(float)
    draws = rng.choice(both, size=(resamples, len(both)))
    return draws[:, len(first) :].mean(axis=1) - draws[:, : len(first)].mean(axis=1)


def global_generator(first, second, rng, resamples=2000):
    first_means = np.random.choice(first, size=(resamples, len(first))).mean(axis=1)
    second_means = np.random.choice(second, size=(resamples, len(second))).mean(axis=1)
    return second_means - first_means


def without_replacement(first, second, rng, resamples=2000):
    return np.array([rng.permutation(second).mean() - rng.permutation(first).mean() for _ in range(resamples)])


def one_draw_short(first, second, rng, resamples=2000):
    first, second = np.asarray(first), np.asarray(second)
    return np.array(
        [
            second[rng.integers(0, len(second), len(second) - 1)].mean()
            - first[rng.integers(0, len(first), len(first) - 1)].mean()
            for _ in range(resamples)
        ]
    )


def last_seed_never_drawn(first, second, rng, resamples=2000):
    first, second = np.asarray(first), np.asarray(second)
    picks = lambda cell: cell[rng.integers(0, len(cell) - 1, size=(resamples, len(cell)))].mean(axis=1)  # noqa: E731
    return picks(second) - picks(first)


def four_seeds_hard_coded(first, second, rng, resamples=2000):
    return rng.choice(second, size=(resamples, 4)).mean(axis=1) - rng.choice(first, size=(resamples, 4)).mean(axis=1)


def reversed_gap(first, second, rng, resamples=2000):
    return -lesson04.bootstrap_gap(first, second, rng, resamples)


def sorts_its_input(first, second, rng, resamples=2000):
    first.sort()
    return lesson04.bootstrap_gap(first, second, rng, resamples)


def two_thousand_hard_coded(first, second, rng, resamples=2000):
    return lesson04.bootstrap_gap(first, second, rng, 2000)


@pytest.mark.parametrize(
    "wrong",
    [
        pooled,
        global_generator,
        without_replacement,
        one_draw_short,
        last_seed_never_drawn,
        four_seeds_hard_coded,
        reversed_gap,
        sorts_its_input,
        two_thousand_hard_coded,
    ],
)
def test_wrong_bootstraps_fail(wrong, fails_without_leak):
    fails_without_leak("bootstrap_gap", wrong)


def test_drawing_without_replacement_is_told_to_draw_with_replacement(fails_without_leak):
    details = [result.detail for result in fails_without_leak("bootstrap_gap", without_replacement).details]
    failed = [detail for detail in details if detail]
    assert failed and all("tirez AVEC remise" in detail for detail in failed)
    assert not any("le hasard doit venir de rng" in detail for detail in details)


def test_a_reversed_gap_is_told_its_sign(fails_without_leak):
    details = [result.detail for result in fails_without_leak("bootstrap_gap", reversed_gap).details]
    failed = [detail for detail in details if detail]
    assert failed and all("mauvais signe" in detail for detail in failed)
    assert not any("rééchantillonnez first parmi ses valeurs" in detail for detail in details)


def test_the_global_generator_is_named_in_the_verdict(fails_without_leak):
    report = fails_without_leak("bootstrap_gap", global_generator)
    assert "rng reçu" in report.details[0].detail


# ------------------------------------------------------------ percentile_interval
def normal_approximation(samples, confidence=0.95):
    values = np.asarray(samples, dtype=float)
    return values.mean() - 1.96 * values.std(), values.mean() + 1.96 * values.std()


def quantile_unit(samples, confidence=0.95):
    tail = (1 - confidence) / 2
    return tuple(np.percentile(samples, [tail, 1 - tail]))


def confidence_hard_coded(samples, confidence=0.95):
    return tuple(np.percentile(samples, [2.5, 97.5]))


def whole_tail_on_each_side(samples, confidence=0.95):
    tail = 100 * (1 - confidence)
    return tuple(np.percentile(samples, [tail, 100 - tail]))


def unsorted_ranks(samples, confidence=0.95):
    tail = (1 - confidence) / 2
    return samples[int(tail * len(samples))], samples[int((1 - tail) * len(samples)) - 1]


def ties_ignored(samples, confidence=0.95):
    return lesson04.percentile_interval(np.unique(samples), confidence)


def sorts_in_place(samples, confidence=0.95):
    samples.sort()
    tail = (1 - confidence) / 2
    return samples[int(tail * len(samples))], samples[int((1 - tail) * len(samples)) - 1]


@pytest.mark.parametrize(
    "wrong",
    [
        normal_approximation,
        quantile_unit,
        confidence_hard_coded,
        whole_tail_on_each_side,
        unsorted_ranks,
        ties_ignored,
        sorts_in_place,
    ],
)
def test_wrong_intervals_fail(wrong, fails_without_leak):
    fails_without_leak("percentile_interval", wrong)


def test_an_interval_from_sorted_ranks_passes(passes):
    def ranks(samples, confidence=0.95):
        values = sorted(samples)
        tail = (1 - confidence) / 2
        return values[int(tail * len(values))], values[int((1 - tail) * len(values)) - 1]

    passes("percentile_interval", ranks)


# ------------------------------------------------------------ cross_study
def source_rule(puzzle, seeds=SEEDS, population_size=40, max_iterations=200):
    design = CrossDesign(
        {"grille": puzzle}, seeds=tuple(seeds), population_size=population_size, max_iterations=max_iterations
    )
    table = cross_table(run_design(design, progress=False))
    return table, verdict(table)


def protocol_seeds_always(puzzle, seeds=SEEDS, population_size=40, max_iterations=200):
    return lesson04.cross_study(puzzle, SEEDS[: len(seeds)], population_size, max_iterations)


def refuses_nothing(puzzle, seeds=SEEDS, population_size=40, max_iterations=200):
    try:
        return lesson04.cross_study(puzzle, seeds, population_size, max_iterations)
    except ValueError:
        return None


def runs_not_table(puzzle, seeds=SEEDS, population_size=40, max_iterations=200):
    design = CrossDesign(
        {"grille": puzzle}, seeds=tuple(seeds), population_size=population_size, max_iterations=max_iterations
    )
    runs = run_design(design, progress=False)
    return runs, effects_verdict(bootstrap_effects(runs))


def effects_not_verdict(puzzle, seeds=SEEDS, population_size=40, max_iterations=200):
    design = CrossDesign(
        {"grille": puzzle}, seeds=tuple(seeds), population_size=population_size, max_iterations=max_iterations
    )
    runs = run_design(design, progress=False)
    return cross_table(runs), bootstrap_effects(runs)


@pytest.mark.parametrize(
    "wrong", [source_rule, protocol_seeds_always, refuses_nothing, runs_not_table, effects_not_verdict]
)
def test_wrong_cross_studies_fail(wrong, fails_without_leak):
    fails_without_leak("cross_study", wrong)


def test_effects_without_the_rule_are_sent_to_effects_verdict(fails_without_leak):
    report = fails_without_leak("cross_study", effects_not_verdict)
    assert "effects_verdict" in report.details[0].detail


# ------------------------------------------------------------ annealing_design
def without_annealing(puzzle, seeds=SEEDS):
    return CrossDesign({"grille": puzzle}, seeds=tuple(seeds))


def half_the_budget(puzzle, seeds=SEEDS):
    return CrossDesign({"grille": puzzle}, ("R1", "R2"), ("PSO", "GA", "SA"), tuple(seeds), max_iterations=100)


def protocol_seeds(puzzle, seeds=SEEDS):
    return CrossDesign({"grille": puzzle}, ("R1", "R2"), ("PSO", "GA", "SA"), SEEDS)


def three_representations(puzzle, seeds=SEEDS):
    return CrossDesign({"grille": puzzle}, ("R1", "R2", "R3"), ("PSO", "GA", "SA"), tuple(seeds))


@pytest.mark.parametrize("wrong", [without_annealing, half_the_budget, protocol_seeds, three_representations])
def test_wrong_annealing_designs_fail(wrong, fails_without_leak):
    fails_without_leak("annealing_design", wrong)


def test_the_protocol_budget_is_written_the_french_way(fails_without_leak):
    report = fails_without_leak("annealing_design", half_the_budget)
    assert f"8{NARROW_SPACE}000 évaluations" in report.details[0].detail


def test_annealing_designs_in_another_order_pass(passes):
    def other_order(puzzle, seeds=SEEDS):
        return CrossDesign({"témoin": puzzle}, ["R2", "R1"], ["SA", "PSO", "GA"], list(seeds), 40, 200)

    passes("annealing_design", other_order)


# ------------------------------------------------------------ grid_change_rate
def vectors_compared(space, seed, samples=1000):
    rng = np.random.default_rng(seed)
    changed = 0
    for _ in range(samples):
        start = space.random(rng)
        changed += not np.array_equal(space.neighbour(start, rng), start)
    return changed / samples


def in_percent(space, seed, samples=1000):
    return 100 * lesson04.grid_change_rate(space, seed, samples)


def unseeded(space, seed, samples=1000):
    return lesson04.grid_change_rate(space, int(np.random.randint(10**6)), samples)


def one_sample_too_few(space, seed, samples=1000):
    return lesson04.grid_change_rate(space, seed, samples) * samples / (samples - 1)


def share_unchanged(space, seed, samples=1000):
    return 1 - lesson04.grid_change_rate(space, seed, samples)


def one_chain_of_moves(space, seed, samples=1000):
    rng = np.random.default_rng(seed)
    current, changed = space.random(rng), 0
    for _ in range(samples):
        moved = space.neighbour(current, rng)
        changed += space.decode(moved) != space.decode(current)
        current = moved
    return changed / samples


@pytest.mark.parametrize(
    "wrong", [vectors_compared, in_percent, unseeded, one_sample_too_few, share_unchanged, one_chain_of_moves]
)
def test_wrong_change_rates_fail(wrong, fails_without_leak):
    fails_without_leak("grid_change_rate", wrong)


def test_a_change_rate_with_the_starts_drawn_first_passes(passes):
    def starts_first(space, seed, samples=1000):
        rng = np.random.default_rng(seed)
        starts = [space.random(rng) for _ in range(samples)]
        changed = [space.decode(space.neighbour(start, rng)) != space.decode(start) for start in starts]
        return float(np.mean(changed))

    passes("grid_change_rate", starts_first)


# ------------------------------------------------------------ count_distinct_grids
def distinct_vectors(space, population):
    return len({tuple(np.asarray(candidate).tolist()) for candidate in population})


def population_size(space, population):
    return len(population)


def decoded_once_too_many(space, population):
    return lesson04.count_distinct_grids(space, population) + 1


def rounded_by_hand(space, population):
    return len({tuple(np.round(np.asarray(candidate, dtype=float)).tolist()) for candidate in population})


@pytest.mark.parametrize("wrong", [distinct_vectors, population_size, decoded_once_too_many, rounded_by_hand])
def test_wrong_counts_fail(wrong, fails_without_leak):
    fails_without_leak("count_distinct_grids", wrong)
