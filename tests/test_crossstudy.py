"""The cross-study (crossstudy.py): engines of the design, runs, cross table, preregistered verdict, causes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course.crossstudy import (
    BUDGET,
    EFFECT_COLUMNS,
    EFFECTS,
    OUTCOMES,
    SEEDS,
    CrossDesign,
    bootstrap_effects,
    candidate_profile,
    cross_table,
    distinct_grids,
    distinct_per_generation,
    effects_verdict,
    effects_verdicts,
    engine,
    population_trace,
    position_between,
    run_design,
    sample_candidates,
    space_of,
    verdict,
    verdicts,
)
from sudoku_course.grid import SudokuGrid
from sudoku_course.puzzles import load_bank, reference
from sudoku_course.solvers.annealing import SpaceAnnealing
from sudoku_course.solvers.genetic import MealpyGA, PermutationGA
from sudoku_course.solvers.swarm import MealpyPSO, SwapPSO
from sudoku_course.spaces import ContinuousSpace, RandomKeySpace, RowPermutationSpace

SOURCE_COSTS = {  # the source's 2 x 2 run: conflicts left for seeds 0, 1, 7, 42
    ("R1", "PSO"): [46, 50, 39, 44],
    ("R1", "GA"): [4, 8, 13, 15],
    ("R2", "PSO"): [6, 2, 6, 13],
    ("R2", "GA"): [0, 0, 0, 0],
}


def runs_from(costs: dict[tuple[str, str], list[int]], puzzle: str = "p", evaluations: int = BUDGET) -> pd.DataFrame:
    """A runs table as run_design gives it, from the conflicts left per cell."""
    rows = [
        {
            "puzzle": puzzle,
            "representation": rep,
            "algorithm": algo,
            "seed": seed,
            "cost": cost,
            "solved": cost == 0,
            "evaluations": evaluations if cost else evaluations // 10,
            "seconds": 0.1,
        }
        for (rep, algo), values in costs.items()
        for seed, cost in zip(SEEDS, values, strict=False)
    ]
    return pd.DataFrame(rows)


def table_of(costs, puzzle: str = "p") -> pd.DataFrame:
    return cross_table(runs_from(costs, puzzle))


# ------------------------------------------------------------------ engines of the design
@pytest.mark.parametrize(
    ("rep", "algo", "cls", "params"),
    [
        ("R1", "PSO", MealpyPSO, {"space": "continuous", "population_size": 40, "max_iterations": 200}),
        ("R3", "PSO", MealpyPSO, {"space": "random-key", "population_size": 40, "max_iterations": 200}),
        ("R2", "PSO", SwapPSO, {"population_size": 40, "max_iterations": 200}),
        ("R1", "GA", MealpyGA, {"space": "continuous", "population_size": 40, "max_iterations": 200}),
        ("R2", "GA", PermutationGA, {"space": "rows", "population_size": 40, "max_iterations": 200}),
        ("R1", "SA", SpaceAnnealing, {"space": "continuous", "chain_length": 40, "max_iterations": 200}),
        ("R2", "SA", SpaceAnnealing, {"space": "rows", "chain_length": 40, "max_iterations": 200}),
    ],
)
def test_each_cell_gets_its_engine_with_the_protocol_settings(rep, algo, cls, params):
    solver = engine(rep, algo)
    assert type(solver) is cls
    assert {key: getattr(solver, key) for key in params} == params


def test_unknown_levels_and_observers_outside_the_ga_are_refused():
    with pytest.raises(ValueError, match="unknown representation 'R4'"):
        engine("R4", "GA")
    with pytest.raises(ValueError, match="unknown algorithm 'ACO'"):
        engine("R1", "ACO")
    with pytest.raises(ValueError, match="only the GA engines"):
        engine("R2", "PSO", observer=print)


def test_space_of_each_representation():
    assert type(space_of("R1", reference())) is ContinuousSpace
    assert type(space_of("R2", reference())) is RowPermutationSpace
    assert type(space_of("R3", reference().to_string())) is RandomKeySpace


# ------------------------------------------------------------------ the design and its runs
def test_design_defaults_follow_the_protocol():
    design = CrossDesign({"témoin": reference()})
    assert design.budget == BUDGET == 40 * 200
    assert design.seeds == (0, 1, 7, 42)
    assert design.cells == [("R1", "PSO"), ("R1", "GA"), ("R2", "PSO"), ("R2", "GA")]
    assert design.runs == 16
    assert list(design.engines()) == ["R1 × PSO", "R1 × GA", "R2 × PSO", "R2 × GA"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"puzzles": {}}, "at least one puzzle"),
        ({"representations": ("R1", "R9")}, "unknown representation"),
        ({"algorithms": ("GA", "tabu")}, "unknown algorithm"),
        ({"seeds": ()}, "at least one seed"),
        ({"population_size": 9}, "population_size >= 10"),
        ({"max_iterations": 0}, "max_iterations >= 1"),
    ],
)
def test_bad_designs_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        CrossDesign(**{"puzzles": {"témoin": reference()}, **kwargs})


def test_a_72_character_line_is_refused_when_the_design_is_built():
    with pytest.raises(ValueError, match="81 cells"):
        CrossDesign({"second": reference().to_string()[9:]})


@pytest.fixture(scope="module")
def small_runs() -> pd.DataFrame:
    design = CrossDesign(
        {"a": load_bank("medium")[0], "b": load_bank("easy")[1]},
        algorithms=("PSO", "GA", "SA"),
        seeds=(0, 5),
        population_size=10,
        max_iterations=6,
    )
    return run_design(design)


def test_run_design_gives_one_row_per_run_in_design_order(small_runs):
    assert list(small_runs.columns) == [
        "puzzle",
        "representation",
        "algorithm",
        "seed",
        "cost",
        "solved",
        "evaluations",
        "seconds",
    ]
    assert len(small_runs) == 2 * 2 * 3 * 2
    first = small_runs.iloc[:6]
    assert list(zip(first["representation"], first["algorithm"], first["seed"], strict=True)) == [
        ("R1", "PSO", 0),
        ("R1", "PSO", 5),
        ("R1", "GA", 0),
        ("R1", "GA", 5),
        ("R1", "SA", 0),
        ("R1", "SA", 5),
    ]
    assert list(pd.unique(small_runs["puzzle"])) == ["a", "b"]


def test_every_unsolved_run_spends_exactly_the_budget(small_runs):
    unsolved = small_runs[~small_runs["solved"]]
    assert len(unsolved) and (unsolved["evaluations"] == 60).all()
    assert (small_runs["evaluations"] <= 60).all()
    assert ((small_runs["cost"] == 0) == small_runs["solved"]).all()


def test_run_design_is_reproducible(small_runs):
    design = CrossDesign(
        {"a": load_bank("medium")[0]},
        algorithms=("PSO", "GA", "SA"),
        seeds=(0, 5),
        population_size=10,
        max_iterations=6,
    )
    again = run_design(design)
    expected = small_runs[small_runs["puzzle"] == "a"].reset_index(drop=True)
    columns = ["representation", "algorithm", "seed", "cost", "evaluations"]
    pd.testing.assert_frame_equal(again[columns], expected[columns])


# ------------------------------------------------------------------ the cross table
def test_cross_table_of_the_source_run():
    table = table_of(SOURCE_COSTS)
    assert list(table.columns) == [
        "puzzle",
        "representation",
        "algorithm",
        "runs",
        "median",
        "min",
        "max",
        "solved",
        "mean_evaluations",
    ]
    first = table.iloc[0]
    assert (first["representation"], first["algorithm"]) == ("R1", "PSO")
    assert (first["median"], first["min"], first["max"], first["solved"]) == (45.0, 39, 50, 0)
    last = table.iloc[-1]
    assert (last["median"], last["solved"], last["mean_evaluations"]) == (0.0, 4, BUDGET / 10)


def test_cross_table_needs_the_run_columns():
    with pytest.raises(ValueError, match="lacks the column"):
        cross_table(pd.DataFrame({"puzzle": ["p"], "cost": [3]}))


# ------------------------------------------------------------------ the verdict
def test_source_run_reads_as_comparable_with_the_pso_column_dominated():
    result = verdict(table_of(SOURCE_COSTS))
    assert result.outcome == "comparable"
    assert {algo: gap.size for algo, gap in result.representation_gaps.items()} == {"PSO": 39.0, "GA": 10.5}
    assert {rep: gap.size for rep, gap in result.algorithm_gaps.items()} == {"R1": 34.5, "R2": 6.0}
    assert result.dominated_columns == {"PSO": True, "GA": False}
    assert result.representation_gaps["PSO"].best == "R2"
    assert result.smallest_representation_gap.within == "GA" and result.largest_algorithm_gap.within == "R1"
    assert result.ratio == pytest.approx(34.5 / 10.5)


def test_representation_dominates_when_every_column_gap_beats_every_row_gap():
    costs = {
        ("R1", "PSO"): [40, 42, 44, 46],
        ("R1", "GA"): [30, 31, 33, 35],
        ("R2", "PSO"): [5, 6, 7, 8],
        ("R2", "GA"): [0, 0, 1, 2],
    }
    result = verdict(table_of(costs))
    assert result.outcome == "representation dominates"
    assert all(result.dominated_columns.values())


def test_overlapping_dispersions_make_it_inconclusive_first():
    costs = {
        ("R1", "PSO"): [10, 20, 30, 40],
        ("R1", "GA"): [10, 12, 14, 16],
        ("R2", "PSO"): [0, 5, 9, 12],
        ("R2", "GA"): [0, 0, 0, 1],
    }
    result = verdict(table_of(costs))
    assert result.outcome == "inconclusive"
    assert result.representation_gaps["PSO"].overlap and result.overlapping_columns == ["PSO"]


def test_touching_ranges_count_as_overlapping():
    costs = {
        ("R1", "PSO"): [5, 6, 6, 7],
        ("R1", "GA"): [5, 6, 6, 7],
        ("R2", "PSO"): [1, 2, 3, 5],
        ("R2", "GA"): [1, 1, 2, 2],
    }
    assert verdict(table_of(costs)).outcome == "inconclusive"


def test_algorithm_dominates_when_more_than_an_order_of_magnitude_apart():
    costs = {
        ("R1", "PSO"): [50, 51, 52, 53],
        ("R1", "GA"): [4, 4, 4, 4],
        ("R2", "PSO"): [46, 47, 48, 49],
        ("R2", "GA"): [1, 1, 1, 1],
    }
    result = verdict(table_of(costs))
    assert result.outcome == "algorithm dominates"
    assert result.algorithm_gaps["R1"].size == 47.5 and result.representation_gaps["GA"].size == 3.0


def test_the_same_order_threshold_is_ten_times():
    # rep gap in the GA column 2, algo gap in the R1 row 20: ten times -> still comparable
    costs = {
        ("R1", "PSO"): [40, 40, 40, 40],
        ("R1", "GA"): [20, 20, 20, 20],
        ("R2", "PSO"): [30, 30, 30, 30],
        ("R2", "GA"): [18, 18, 18, 18],
    }
    assert verdict(table_of(costs)).outcome == "comparable"
    costs[("R1", "PSO")] = [41, 41, 41, 41]  # now 21 / 2 > 10
    assert verdict(table_of(costs)).outcome == "algorithm dominates"


def test_three_algorithms_use_the_range_of_the_medians():
    costs = {**SOURCE_COSTS, ("R1", "SA"): [20, 20, 21, 22], ("R2", "SA"): [0, 0, 0, 1]}
    table = table_of({key: costs[key] for key in sorted(costs)})
    result = verdict(table)
    assert result.algorithm_gaps["R1"].size == 45.0 - 10.5
    assert result.representation_gaps["SA"].size == 20.5


def test_verdict_refuses_tables_it_cannot_read():
    two_puzzles = pd.concat([table_of(SOURCE_COSTS, "a"), table_of(SOURCE_COSTS, "b")])
    with pytest.raises(ValueError, match="one puzzle"):
        verdict(two_puzzles)
    with pytest.raises(ValueError, match="two representations and two algorithms"):
        verdict(table_of({key: value for key, value in SOURCE_COSTS.items() if key[0] == "R1"}))
    assert list(verdicts(two_puzzles)) == ["a", "b"]


cost_lists = st.lists(st.integers(0, 60), min_size=3, max_size=3)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(cost_lists, min_size=4, max_size=4),
    shift=st.integers(0, 30),
    scale=st.integers(1, 5),
)
def test_verdict_ignores_the_unit_and_origin_of_the_cost(values, shift, scale):
    costs = dict(zip(SOURCE_COSTS, values, strict=True))
    moved = {key: [scale * cost + shift for cost in value] for key, value in costs.items()}
    first, second = verdict(table_of(costs)), verdict(table_of(moved))
    assert first.outcome == second.outcome in OUTCOMES
    if first.outcome == "representation dominates":
        assert all(first.dominated_columns.values())


# ------------------------------------------------------------------ a third representation
def test_position_between_two_representations():
    costs = {
        ("R1", "GA"): [10, 10, 10, 10],
        ("R2", "GA"): [0, 0, 0, 0],
        ("R3", "GA"): [4, 4, 4, 4],
        ("R1", "PSO"): [5, 5, 5, 5],
        ("R2", "PSO"): [5, 5, 5, 5],
        ("R3", "PSO"): [1, 1, 1, 1],
    }
    position = position_between(table_of(costs), "R3").set_index("algorithm")
    assert position.loc["GA", "share"] == pytest.approx(0.6)
    assert np.isnan(position.loc["PSO", "share"])  # R1 and R2 tie: no scale
    with pytest.raises(ValueError, match="no representation 'R3'"):
        position_between(table_of(SOURCE_COSTS), "R3")


# ------------------------------------------------------------------ cause analysis
def test_random_candidates_of_rounded_reals_fall_outside_the_admissible_space():
    r1 = sample_candidates(space_of("R1", reference()), count=50, seed=7)
    r2 = sample_candidates(space_of("R2", reference()), count=50, seed=7)
    assert (r1["conflicts"] == r1[["rows", "columns", "boxes"]].sum(axis=1)).all()
    assert r1["outside"].mean() > 0.9 and not r2["outside"].any() and (r2["rows"] == 0).all()
    assert r1["conflicts"].mean() > r2["conflicts"].mean()
    pd.testing.assert_frame_equal(r1, sample_candidates(space_of("R1", reference()), count=50, seed=7))


def test_candidate_profile_one_row_per_representation():
    profile = candidate_profile(reference(), ("R1", "R2", "R3"), count=30)
    assert list(profile["representation"]) == ["R1", "R2", "R3"]
    assert list(profile["outside"])[1:] == [0, 0] and profile["outside_share"].iloc[0] > 0.9
    assert (profile["min_conflicts"] <= profile["mean_conflicts"]).all()
    assert (profile["mean_conflicts"] <= profile["max_conflicts"]).all()


def test_distinct_grids_counts_decoded_grids_not_vectors():
    puzzle = reference()
    space = space_of("R1", puzzle)
    base = space.encode(SudokuGrid(np.where(puzzle.givens, puzzle.cells, 5), 3, puzzle.givens))
    assert distinct_grids(space, [base, base + 0.3, base - 0.4]) == 1
    other = base.copy()
    other[0] += 1
    assert distinct_grids(space, [base, base + 0.3, other]) == 2
    assert distinct_grids(space, []) == 0


def test_population_trace_and_its_distinct_grids():
    """The budget is population x generations and the first population takes one generation's share."""
    trace = population_trace("R2", load_bank("hard")[0], seed=0, population_size=10, max_iterations=8)
    assert len(trace) == 7 and all(population.shape == (10, trace[0].shape[1]) for population in trace)
    counts = distinct_per_generation("R2", load_bank("hard")[0], trace)
    assert len(counts) == 7 and all(1 <= count <= 10 for count in counts)


# ------------------------------------------------------------------ effects, bootstrap intervals, the course's rule
def seeded_runs(costs: dict[tuple[str, str], list[float]], puzzle: str = "p") -> pd.DataFrame:
    """A runs table with seeds 0, 1, ... in each cell (any number of seeds)."""
    rows = [
        {"puzzle": puzzle, "representation": rep, "algorithm": algo, "seed": seed, "cost": cost}
        for (rep, algo), values in costs.items()
        for seed, cost in enumerate(values)
    ]
    return pd.DataFrame(rows)


def noisy_cells(means: dict[tuple[str, str], float], seeds: int, spread: float = 3.0, seed: int = 0):
    """Per cell, `seeds` draws around its mean (a normal noise of standard deviation `spread`)."""
    rng = np.random.default_rng(seed)
    return {cell: (mean + spread * rng.standard_normal(seeds)).tolist() for cell, mean in means.items()}


def constant_cells(means: dict[tuple[str, str], float], seeds: int = 4):
    return {cell: [mean] * seeds for cell, mean in means.items()}


def test_effects_of_the_source_run():
    effects = bootstrap_effects(runs_from(SOURCE_COSTS))
    # cell means: R1 PSO 44.75, R1 GA 10, R2 PSO 6.75, R2 GA 0
    assert effects.estimates["representation"] == pytest.approx(((6.75 - 44.75) + (0 - 10)) / 2)
    assert effects.estimates["algorithm"] == pytest.approx(((10 - 44.75) + (0 - 6.75)) / 2)
    assert effects.estimates["interaction"] == pytest.approx((0 - 10) - (6.75 - 44.75))
    assert effects.representations == ("R1", "R2") and effects.algorithms == ("PSO", "GA")
    assert effects.seeds == {cell: 4 for cell in SOURCE_COSTS}
    for name, (low, high) in effects.intervals.items():
        assert low <= effects.estimates[name] <= high
    table = effects.table()
    assert list(table.columns) == list(EFFECT_COLUMNS) and list(table["effect"]) == list(EFFECTS)


def test_a_pure_main_effect_has_no_interaction():
    means = {("R1", "PSO"): 40, ("R1", "GA"): 40, ("R2", "PSO"): 10, ("R2", "GA"): 10}
    effects = bootstrap_effects(seeded_runs(constant_cells(means)))
    assert effects.estimates == {"representation": -30, "algorithm": 0, "interaction": 0}
    assert effects.intervals["algorithm"] == (0, 0) and effects.intervals["interaction"] == (0, 0)
    result = effects_verdict(effects)
    assert result.outcome == "representation dominates" and not result.interaction_excludes_zero


def test_a_pure_interaction_has_no_main_effect():
    means = {("R1", "PSO"): 20, ("R1", "GA"): 10, ("R2", "PSO"): 10, ("R2", "GA"): 20}
    effects = bootstrap_effects(seeded_runs(noisy_cells(means, seeds=20, spread=1.0)))
    assert effects.estimates["representation"] == pytest.approx(0, abs=1.5)
    assert effects.estimates["algorithm"] == pytest.approx(0, abs=1.5)
    assert effects.estimates["interaction"] == pytest.approx(20, abs=2)
    assert not effects.excludes_zero("representation") and not effects.excludes_zero("algorithm")
    result = effects_verdict(effects)
    assert result.outcome == "inconclusive" and result.interaction_excludes_zero


def test_noise_alone_is_inconclusive():
    means = {cell: 20 for cell in SOURCE_COSTS}
    effects = bootstrap_effects(seeded_runs(noisy_cells(means, seeds=10)))
    assert all(low < 0 < high for low, high in effects.intervals.values())
    assert effects_verdict(effects).outcome == "inconclusive"


def test_the_bootstrap_is_reproducible_with_its_seed():
    runs = runs_from(SOURCE_COSTS)
    assert bootstrap_effects(runs).intervals == bootstrap_effects(runs).intervals
    assert bootstrap_effects(runs, seed=1).intervals != bootstrap_effects(runs, seed=2).intervals


def test_intervals_shrink_as_seeds_are_added():
    means = {("R1", "PSO"): 45, ("R1", "GA"): 10, ("R2", "PSO"): 5, ("R2", "GA"): 1}
    many = noisy_cells(means, seeds=80, spread=5.0)
    widths = []
    for seeds in (5, 20, 80):
        effects = bootstrap_effects(seeded_runs({cell: values[:seeds] for cell, values in many.items()}))
        widths.append({name: high - low for name, (low, high) in effects.intervals.items()})
    for name in EFFECTS:
        assert widths[0][name] > widths[1][name] > widths[2][name]


def test_more_confidence_gives_wider_intervals():
    runs = runs_from(SOURCE_COSTS)
    narrow, wide = bootstrap_effects(runs, confidence=0.5), bootstrap_effects(runs, confidence=0.99)
    for name in EFFECTS:
        assert wide.intervals[name][0] <= narrow.intervals[name][0] <= narrow.intervals[name][1]
        assert narrow.intervals[name][1] <= wide.intervals[name][1]


def swapped(costs: dict[tuple[str, str], list[float]]) -> dict[tuple[str, str], list[float]]:
    """The same design with the two factors swapped: representation levels become algorithm levels."""
    names = {"R1": "PSO", "R2": "GA", "PSO": "R1", "GA": "R2"}
    return {(names[algo], names[rep]): values for (rep, algo), values in costs.items()}


MIRRORED = {
    "representation dominates": "algorithm dominates",
    "algorithm dominates": "representation dominates",
    "comparable": "comparable",
    "inconclusive": "inconclusive",
}


@pytest.mark.parametrize(
    ("means", "outcome"),
    [
        ({("R1", "PSO"): 40, ("R1", "GA"): 38, ("R2", "PSO"): 5, ("R2", "GA"): 3}, "representation dominates"),
        ({("R1", "PSO"): 40, ("R1", "GA"): 5, ("R2", "PSO"): 38, ("R2", "GA"): 3}, "algorithm dominates"),
        ({("R1", "PSO"): 40, ("R1", "GA"): 20, ("R2", "PSO"): 20, ("R2", "GA"): 0}, "comparable"),
        ({("R1", "PSO"): 20, ("R1", "GA"): 20, ("R2", "PSO"): 20, ("R2", "GA"): 20}, "inconclusive"),
    ],
)
def test_each_outcome_and_its_mirror_when_the_factors_are_swapped(means, outcome):
    costs = noisy_cells(means, seeds=12, spread=2.0)
    result = effects_verdict(bootstrap_effects(seeded_runs(costs)))
    mirror = effects_verdict(bootstrap_effects(seeded_runs(swapped(costs))))
    assert result.outcome == outcome
    assert mirror.outcome == MIRRORED[outcome]
    assert (mirror.representation, mirror.algorithm) == (result.algorithm, result.representation)


@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.lists(st.integers(0, 60), min_size=2, max_size=6), min_size=4, max_size=4))
def test_the_rule_is_symmetric_in_the_two_factors(values):
    costs = dict(zip(SOURCE_COSTS, values, strict=True))
    result = effects_verdict(bootstrap_effects(seeded_runs(costs), resamples=500))
    mirror = effects_verdict(bootstrap_effects(seeded_runs(swapped(costs)), resamples=500))
    assert mirror.outcome == MIRRORED[result.outcome]


def test_effects_refuse_designs_they_cannot_read():
    with pytest.raises(ValueError, match="one puzzle"):
        bootstrap_effects(pd.concat([runs_from(SOURCE_COSTS, "a"), runs_from(SOURCE_COSTS, "b")]))
    three = {**SOURCE_COSTS, ("R1", "SA"): [1, 2, 3, 4], ("R2", "SA"): [0, 0, 1, 1]}
    with pytest.raises(ValueError, match="2 x 2"):
        bootstrap_effects(runs_from(three))
    with pytest.raises(ValueError, match="resamples"):
        bootstrap_effects(runs_from(SOURCE_COSTS), resamples=0)


def test_effects_verdicts_per_puzzle():
    runs = pd.concat([runs_from(SOURCE_COSTS, "a"), runs_from(SOURCE_COSTS, "b")])
    results = effects_verdicts(runs, resamples=1000)
    assert list(results) == ["a", "b"]
    assert results["a"].effects.intervals == results["b"].effects.intervals
