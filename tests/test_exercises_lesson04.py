"""Lesson 04 exercises: the references pass, plausible wrong answers fail without seeing the expected value."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sudoku_course.campaigns import load_campaign
from sudoku_course.crossstudy import (
    ALGORITHMS,
    SEEDS,
    CrossDesign,
    bootstrap_effects,
    confirmatory_seeds,
    cross_table,
    effects_verdict,
    engine,
    protocol_verdict,
    run_design,
    simple_effects,
    space_of,
    verdict,
)
from sudoku_course.puzzles import reference
from sudoku_course.teaching.display import NARROW_SPACE
from sudoku_course.teaching.exercises import lesson_exercises
from sudoku_course.teaching.exercises.lesson04 import LESSON, cases
from sudoku_course.teaching.exercises.lesson04 import references as lesson04
from sudoku_course.teaching.exercises.lesson04.provided import ALGORITHM, anneal_in_design
from sudoku_course.teaching.experiments import UnusableResult

REFERENCES = {
    "effects_2x2": lesson04.effects_2x2,
    "bootstrap_gap": lesson04.bootstrap_gap,
    "percentile_interval": lesson04.percentile_interval,
    "anneal_in_space": lesson04.anneal_in_space,
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


# ------------------------------------------------------------ anneal_in_space
@pytest.mark.parametrize("representation", ["R1", "R2", "R3"])
def test_the_reference_annealer_repeats_the_course_engine(representation):
    """Same seed, same draws as space-annealing: the same best cost after the same evaluations."""
    for seed in (0, 5):
        grid, cost, evaluations = lesson04.anneal_in_space(
            space_of(representation, reference()), np.random.default_rng(seed), budget=1200, chain_length=40
        )
        run = engine(representation, "SA", 40, 30).solve(reference(), seed=seed, budget=1200)
        assert (cost, evaluations) == (run.cost, run.evaluations) and grid == run.grid


def test_the_harness_runs_the_annealer_in_the_design_as_the_campaign_did():
    seeds = confirmatory_seeds()[:3]
    rows = anneal_in_design(lesson04.anneal_in_space, {"témoin": reference()}, ("R2",), seeds, progress=False)
    data = load_campaign("crossstudy-confirmatory")
    campaign = data[(data["configuration"] == "R2 × SA") & (data["puzzle"] == "témoin") & data["seed"].isin(seeds)]
    assert list(rows["algorithm"]) == [ALGORITHM] * 3
    assert rows[["seed", "cost", "solved", "evaluations"]].equals(
        campaign[["seed", "cost", "solved", "evaluations"]].reset_index(drop=True)
    )


def test_the_harness_says_what_it_cannot_use():
    with pytest.raises(UnusableResult, match="renvoyé None"):
        anneal_in_design(lambda space, rng, **settings: None, {"témoin": reference()}, ("R2",), (0,), progress=False)


def annealer(
    accept=None,
    *,
    every_move=True,
    start_counted=True,
    stops=True,
    move=None,
    schedule="chains",
    recounts=False,
    returns="best",
):
    """An annealer over the Space interface with one fault (or none): each keyword changes one step."""

    def anneal(space, rng, budget=8000, t0=1.0, t_min=0.1, chain_length=40):
        chains = budget // chain_length
        current = space.random(rng)
        current_cost = space.cost(current)
        best, best_cost, evaluations = current, current_cost, int(start_counted)
        temperature = t0
        for k in range(chains):
            if schedule == "chains":
                temperature = t0 * (t_min / t0) ** (k / (chains - 1))
            for _ in range(chain_length):
                if evaluations >= budget or (stops and best_cost == 0):
                    break
                candidate = move(space, current, rng) if move else space.neighbour(current, rng)
                candidate_cost = space.cost(candidate)
                if recounts:
                    current_cost = space.cost(current)
                evaluations += 1
                if schedule == "moves":
                    temperature = max(t_min, temperature * (t_min / t0) ** (1 / (chains - 1)))
                delta = candidate_cost - current_cost
                rule = accept or (lambda delta, temperature, rng: rng.random() < math.exp(-delta / temperature))
                if delta <= 0 and accept is None or rule(delta, temperature, rng):
                    current, current_cost = candidate, candidate_cost
                    if every_move and current_cost < best_cost:
                        best, best_cost = current, current_cost
            if current_cost < best_cost:
                best, best_cost = current, current_cost
        kept, kept_cost = (current, current_cost) if returns == "current" else (best, best_cost)
        return space.decode(kept), kept_cost, evaluations

    return anneal


def swap_by_hand(space, candidate, rng):
    new = candidate.copy()
    i, j = rng.choice(len(new), size=2, replace=False)
    new[[i, j]] = new[[j, i]]
    return new


WRONG_ANNEALERS = {  # wrong answer -> what its first verdict must say
    "greedy": (annealer(lambda delta, temperature, rng: delta <= 0), "n'accepte aucune hausse"),
    "inverted rule": (
        annealer(lambda delta, temperature, rng: delta <= 0 or rng.random() > math.exp(-delta / temperature)),
        "exp(−Δ/T)",
    ),
    "Δ times T": (
        annealer(lambda delta, temperature, rng: delta <= 0 or rng.random() < math.exp(-delta * temperature)),
        "exp(−Δ/T)",
    ),
    "ties refused": (annealer(lambda delta, temperature, rng: delta < 0), "(Δ ≤ 0) doit toujours être accepté"),
    "global generator": (
        annealer(lambda delta, temperature, rng: delta <= 0 or np.random.random() < math.exp(-delta / temperature)),
        "tirez tout le hasard du rng reçu",
    ),
    "best forgotten": (annealer(returns="current"), "gardez le meilleur candidat vu"),
    "start not counted": (annealer(start_counted=False), "celle du départ comprise"),
    "never stops": (annealer(stops=False), "s'arrêter dès qu'un candidat de coût 0"),
    "own move": (annealer(move=swap_by_hand), "un candidat que l'espace n'a pas produit"),
    "no cooling": (annealer(schedule="none"), "la température descend de t0 à t_min"),
    "cools at every move": (annealer(schedule="moves"), "ne baisse qu'après chaque chaîne"),
    "current cost recounted": (annealer(recounts=True), "n'est évalué qu'une fois"),
    "space's dimension read": (
        annealer(move=lambda space, candidate, rng: space.neighbour(candidate, rng) if space.dimension else None),
        "il a demandé space.dimension",
    ),
}


@pytest.mark.parametrize("name", WRONG_ANNEALERS)
def test_wrong_annealers_fail_and_name_their_fault(name, fails_without_leak):
    wrong, fault = WRONG_ANNEALERS[name]
    details = [result.detail for result in fails_without_leak("anneal_in_space", wrong).details if result.detail]
    assert fault in details[0]


def test_the_best_kept_only_at_the_end_of_chains_is_caught(fails_without_leak):
    details = [result.detail for result in fails_without_leak("anneal_in_space", annealer(every_move=False)).details]
    assert any("pas seulement en fin de chaîne" in detail for detail in details)


def test_annealers_written_another_way_pass(passes):
    """One loop over the moves, a draw before every move, the temperature multiplied after each chain, copies."""

    def one_loop(space, rng, budget=8000, t0=1.0, t_min=0.1, chain_length=40):
        alpha = (t_min / t0) ** (1 / (budget // chain_length - 1))
        current = space.random(rng)
        current_cost, evaluations, temperature = space.cost(current), 1, t0
        best, best_cost = current.copy(), current_cost
        while evaluations < budget and best_cost > 0:
            candidate = space.neighbour(current, rng)
            draw = rng.random()
            candidate_cost = space.cost(candidate)
            evaluations += 1
            if draw < math.exp(-max(0, candidate_cost - current_cost) / temperature):
                current, current_cost = candidate, candidate_cost
            if current_cost < best_cost:
                best, best_cost = current.copy(), current_cost
            if (evaluations - 1) % chain_length == 0:
                temperature *= alpha
        return space.decode(best), np.int64(best_cost), evaluations

    passes("anneal_in_space", one_loop)


# ------------------------------------------------------------ cross_study
def runs_of(puzzle, seeds, population_size, max_iterations, algorithms=ALGORITHMS):
    design = CrossDesign({"grille": puzzle}, ("R1", "R2"), algorithms, tuple(seeds), population_size, max_iterations)
    return run_design(design, progress=False)


def source_rule(puzzle, seeds=SEEDS, population_size=40, max_iterations=200):
    table = cross_table(runs_of(puzzle, seeds, population_size, max_iterations))
    return table, verdict(table)


def exploratory_rule(puzzle, seeds=SEEDS, population_size=40, max_iterations=200):
    runs = runs_of(puzzle, seeds, population_size, max_iterations, ("PSO", "GA"))
    return cross_table(runs), effects_verdict(bootstrap_effects(runs))


def protocol_seeds_always(puzzle, seeds=SEEDS, population_size=40, max_iterations=200):
    return lesson04.cross_study(puzzle, SEEDS[: len(seeds)], population_size, max_iterations)


def refuses_nothing(puzzle, seeds=SEEDS, population_size=40, max_iterations=200):
    try:
        return lesson04.cross_study(puzzle, seeds, population_size, max_iterations)
    except ValueError:
        return None


def runs_not_table(puzzle, seeds=SEEDS, population_size=40, max_iterations=200):
    runs = runs_of(puzzle, seeds, population_size, max_iterations)
    return runs, protocol_verdict(runs)


def effects_not_verdict(puzzle, seeds=SEEDS, population_size=40, max_iterations=200):
    runs = runs_of(puzzle, seeds, population_size, max_iterations)
    return cross_table(runs), simple_effects(runs)


@pytest.mark.parametrize(
    "wrong",
    [source_rule, exploratory_rule, protocol_seeds_always, refuses_nothing, runs_not_table, effects_not_verdict],
)
def test_wrong_cross_studies_fail(wrong, fails_without_leak):
    fails_without_leak("cross_study", wrong)


def test_effects_without_the_rule_are_sent_to_protocol_verdict(fails_without_leak):
    report = fails_without_leak("cross_study", effects_not_verdict)
    assert "protocol_verdict" in report.details[0].detail


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
