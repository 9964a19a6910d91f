"""The cross-study (crossstudy.py): engines of the design, runs, cross table, effects, verdicts, causes, campaigns."""

from __future__ import annotations

import hashlib
import inspect
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course.crossstudy import (
    ALGORITHMS,
    BUDGET,
    CONFIRMATORY,
    EFFECT_COLUMNS,
    EFFECTS,
    ENGINES,
    EXPLORATION,
    OUTCOMES,
    POOLED,
    REPRESENTATIONS,
    RUN_COLUMNS,
    SEEDS,
    SIMPLE_EFFECT_COLUMNS,
    CrossDesign,
    bootstrap_effects,
    candidate_profile,
    confirmatory_seeds,
    cross_table,
    distinct_grids,
    distinct_per_generation,
    effects_verdict,
    effects_verdicts,
    engine,
    engine_spec,
    factor_roles,
    mealpy_cross_check,
    median_puzzle,
    population_trace,
    position_between,
    protocol_verdict,
    run_design,
    sample_candidates,
    simple_effects,
    space_of,
    verdict,
    verdicts,
)
from sudoku_course.grid import SudokuGrid
from sudoku_course.puzzles import load_bank, open_cells, reference
from sudoku_course.solvers.annealing import SpaceAnnealing
from sudoku_course.solvers.genetic import SpaceGA
from sudoku_course.solvers.swarm import SpacePSO
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
@pytest.mark.parametrize("algo", ALGORITHMS)
def test_each_algorithm_runs_one_engine_class_with_the_same_parameters_in_every_representation(algo):
    solvers = {rep: engine(rep, algo) for rep in REPRESENTATIONS}
    assert len({type(solver) for solver in solvers.values()}) == 1
    settings = [{key: value for key, value in vars(solver).items() if key != "space"} for solver in solvers.values()]
    assert all(values == settings[0] for values in settings)
    assert {rep: solver.space for rep, solver in solvers.items()} == REPRESENTATIONS


@pytest.mark.parametrize(
    ("algo", "cls", "sizes"),
    [
        ("PSO", SpacePSO, {"population_size": 40, "max_iterations": 200}),
        ("GA", SpaceGA, {"population_size": 40, "max_iterations": 200}),
        ("SA", SpaceAnnealing, {"chain_length": 40, "max_iterations": 200}),
    ],
)
def test_each_engine_has_the_protocol_budget_and_its_tuned_parameters_as_defaults(algo, cls, sizes):
    solver = engine("R2", algo)
    name, params = ENGINES[algo]
    assert type(solver) is cls and solver.name == name
    assert {key: getattr(solver, key) for key in sizes} == sizes
    defaults = {key: value.default for key, value in inspect.signature(cls).parameters.items()}
    assert {key: defaults[key] for key in params} == params == {key: getattr(solver, key) for key in params}


def test_factor_roles_give_each_component_to_the_algorithm_or_the_representation():
    roles = factor_roles()
    assert list(roles.columns) == ["component", "role", "PSO", "GA", "SA"]
    assert set(roles["role"]) == {"representation", "algorithm", "design"}
    by_component = roles.set_index("component")
    assert by_component.loc["variation", "role"] == "representation"
    assert by_component.loc["selection", "role"] == "algorithm"
    assert "tournament_size = 3" in by_component.loc["selection", "GA"]
    assert f"elitism = {ENGINES['GA'][1]['elitism']}" in by_component.loc["replacement", "GA"]


def test_unknown_levels_and_observers_outside_the_ga_are_refused():
    with pytest.raises(ValueError, match="unknown representation 'R4'"):
        engine("R4", "GA")
    with pytest.raises(ValueError, match="unknown algorithm 'ACO'"):
        engine("R1", "ACO")
    with pytest.raises(ValueError, match="only the GA engine"):
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
        ({"population_size": 4}, "population_size >= 5"),
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
    """The budget is population x iterations: the first population, then generations of population - elitism
    children (the last one cut short), each population seen once."""
    trace = population_trace("R2", load_bank("hard")[0], seed=0, population_size=10, max_iterations=8)
    elitism = ENGINES["GA"][1]["elitism"]
    assert len(trace) == 1 + math.ceil((80 - 10) / (10 - elitism))
    assert trace[0].shape[0] == 10 and all(len(population) <= 10 for population in trace)
    counts = distinct_per_generation("R2", load_bank("hard")[0], trace)
    assert len(counts) == len(trace) and all(1 <= count <= 10 for count in counts)


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


# ------------------------------------------------------------------ simple effects and the protocol's verdict
def two_puzzle_runs(means: dict[tuple[str, str], float], seeds: int = 12, spread: float = 2.0) -> pd.DataFrame:
    """Runs of two puzzles around the same cell means."""
    return pd.concat(
        [seeded_runs(noisy_cells(means, seeds, spread, seed=k), puzzle) for k, puzzle in enumerate(("a", "b"))],
        ignore_index=True,
    )


THREE_BY_TWO = {  # R1/R2 x PSO/GA/SA, no interaction: the representation gains 30, the algorithm up to 10
    ("R1", "PSO"): 40,
    ("R1", "GA"): 35,
    ("R1", "SA"): 45,
    ("R2", "PSO"): 10,
    ("R2", "GA"): 5,
    ("R2", "SA"): 15,
}


def test_simple_effects_read_each_factor_within_each_level_of_the_other():
    effects = simple_effects(seeded_runs(constant_cells(THREE_BY_TWO)), per_puzzle=False, resamples=200)
    assert list(effects.columns) == SIMPLE_EFFECT_COLUMNS
    representation = effects[effects["factor"] == "representation"].set_index("within")
    assert list(representation.index) == ["PSO", "GA", "SA"]
    assert (representation["estimate"] == -30).all() and (representation["low"] == -30).all()
    algorithm = effects[effects["factor"] == "algorithm"]
    assert list(zip(algorithm["within"], algorithm["first"], algorithm["second"], strict=True)) == [
        ("R1", "PSO", "GA"),
        ("R1", "PSO", "SA"),
        ("R1", "GA", "SA"),
        ("R2", "PSO", "GA"),
        ("R2", "PSO", "SA"),
        ("R2", "GA", "SA"),
    ]
    assert list(algorithm["estimate"]) == [-5, 5, 10, -5, 5, 10]
    assert (effects["puzzle"] == POOLED).all()


def test_simple_effects_pooled_then_per_puzzle_resampling_seeds_within_each_puzzle():
    runs = two_puzzle_runs(THREE_BY_TWO)
    effects = simple_effects(runs, resamples=2000)
    assert list(pd.unique(effects["puzzle"])) == [POOLED, "a", "b"]
    pooled, first = effects[effects["puzzle"] == POOLED], effects[effects["puzzle"] == "a"]
    expected = runs.groupby(["representation", "algorithm"])["cost"].mean()
    assert pooled["estimate"].iloc[0] == pytest.approx(expected["R2", "PSO"] - expected["R1", "PSO"])
    assert pooled["excludes_zero"].all()
    widths = lambda table: (table["high"] - table["low"]).to_numpy()  # noqa: E731
    assert widths(pooled).mean() < 0.8 * widths(first).mean()  # twice the runs: narrower intervals
    assert ((effects["low"] <= effects["estimate"]) & (effects["estimate"] <= effects["high"])).all()
    pd.testing.assert_frame_equal(effects, simple_effects(runs, resamples=2000))


def test_success_rate_effects_read_the_solved_column():
    runs = seeded_runs(constant_cells({("R1", "PSO"): 1, ("R1", "GA"): 1, ("R2", "PSO"): 0, ("R2", "GA"): 1}))
    runs["solved"] = runs["cost"] == 0
    effects = simple_effects(runs, outcome="solved", per_puzzle=False, resamples=100)
    assert list(effects["estimate"]) == [1.0, 0.0, 0.0, -1.0]


def test_simple_effects_refuse_designs_they_cannot_read():
    with pytest.raises(ValueError, match="two representations and two algorithms"):
        simple_effects(seeded_runs(constant_cells({("R1", "PSO"): 1, ("R1", "GA"): 2})))
    with pytest.raises(ValueError, match="lacks the column"):
        simple_effects(seeded_runs(constant_cells(THREE_BY_TWO)), outcome="evaluations")
    runs = two_puzzle_runs(THREE_BY_TWO)
    with pytest.raises(ValueError, match="lacks runs in some cell"):
        simple_effects(runs.drop(runs.index[(runs["puzzle"] == "b") & (runs["algorithm"] == "SA")]))


def test_protocol_reads_main_effects_when_the_interaction_is_small():
    result = protocol_verdict(two_puzzle_runs(THREE_BY_TWO), resamples=2000)
    assert not result.by_cell and result.outcome == "representation dominates"
    assert result.main_effects["representation"] == pytest.approx(30, abs=1.5)
    assert set(result.gaps["within"]) == {"mean"} and list(result.gaps["factor"]) == ["representation", "algorithm"]
    assert len(result.effects) == 3 + 6


def test_protocol_reads_by_cell_when_the_interaction_exceeds_a_main_effect():
    """The source's 2 x 2 pattern: within the GA the representation gains little, within R1 the algorithm a lot."""
    means = {("R1", "PSO"): 45, ("R1", "GA"): 10, ("R2", "PSO"): 7, ("R2", "GA"): 0}
    result = protocol_verdict(two_puzzle_runs(means, seeds=30, spread=1.0), resamples=2000)
    assert result.by_cell and result.interaction == pytest.approx(28, abs=1.5)
    assert result.main_effects["algorithm"] == pytest.approx(21, abs=1.5)
    assert result.main_effects["algorithm"] < result.interaction
    gaps = result.gaps.set_index(["factor", "within"])["estimate"]
    assert gaps["representation", "PSO"] == pytest.approx(-38, abs=1.5)
    assert gaps["algorithm", "R1"] == pytest.approx(-35, abs=1.5)
    # on the averages the representation (-24) beats the algorithm (-21); read by cell, neither dominates
    assert result.outcome == "comparable"


@pytest.mark.parametrize(
    ("means", "outcome"),
    [
        ({("R1", "PSO"): 40, ("R1", "GA"): 38, ("R2", "PSO"): 5, ("R2", "GA"): 3}, "representation dominates"),
        ({("R1", "PSO"): 40, ("R1", "GA"): 5, ("R2", "PSO"): 38, ("R2", "GA"): 3}, "algorithm dominates"),
        ({("R1", "PSO"): 40, ("R1", "GA"): 20, ("R2", "PSO"): 20, ("R2", "GA"): 0}, "comparable"),
    ],
)
def test_each_protocol_outcome_and_its_mirror(means, outcome):
    costs = noisy_cells(means, seeds=12, spread=2.0)
    result = protocol_verdict(seeded_runs(costs), resamples=2000)
    mirror = protocol_verdict(seeded_runs(swapped(costs)), resamples=2000)
    assert result.outcome == outcome and mirror.outcome == MIRRORED[outcome]


def test_cells_that_share_one_spread_of_costs_are_inconclusive():
    costs = {cell: [16, 18, 20, 22, 24] * 2 for cell in SOURCE_COSTS}
    result = protocol_verdict(seeded_runs(costs), resamples=2000)
    assert result.outcome == "inconclusive" and not result.effects["excludes_zero"].any()


@settings(max_examples=25, deadline=None)
@given(values=st.lists(st.lists(st.integers(0, 60), min_size=2, max_size=5), min_size=4, max_size=4))
def test_the_protocol_rule_is_symmetric_and_ignores_the_unit_of_the_cost(values):
    costs = dict(zip(SOURCE_COSTS, values, strict=True))
    result = protocol_verdict(seeded_runs(costs), resamples=300)
    assert result.outcome in OUTCOMES
    assert protocol_verdict(seeded_runs(swapped(costs)), resamples=300).outcome == MIRRORED[result.outcome]
    scaled = {cell: [3 * value + 7 for value in values] for cell, values in costs.items()}
    assert protocol_verdict(seeded_runs(scaled), resamples=300).outcome == result.outcome


# ------------------------------------------------------------------ the campaigns
def test_the_campaigns_cross_every_representation_with_every_algorithm():
    for campaign in (EXPLORATION, CONFIRMATORY):
        assert [c.label for c in campaign.configurations] == [
            f"{rep} × {algo}" for rep in REPRESENTATIONS for algo in ALGORITHMS
        ]
        for configuration in campaign.configurations:
            rep, algo = configuration.factors["representation"], configuration.factors["algorithm"]
            assert (configuration.solver, configuration.params) == engine_spec(rep, algo)
        assert campaign.budget == BUDGET
    assert EXPLORATION.seeds == SEEDS and list(EXPLORATION.grids()) == ["témoin"]
    assert list(CONFIRMATORY.grids()) == ["témoin", "medium-47", "hard-49"]
    assert CONFIRMATORY.runs == 9 * 3 * 30 and CONFIRMATORY.protocol == "studies/crossstudy-protocol.md"


def test_the_confirmatory_grids_follow_their_rule():
    assert (median_puzzle("medium"), median_puzzle("hard")) == (47, 49)
    medium = sorted(open_cells(grid) for grid in load_bank("medium"))
    assert open_cells(load_bank("medium")[47]) == medium[24]


def test_the_confirmatory_seeds_follow_their_rule_and_are_new():
    seeds = confirmatory_seeds()
    assert len(seeds) == len(set(seeds)) == 30 and all(0 <= seed < 2**31 for seed in seeds)
    first = int.from_bytes(hashlib.sha256(b"sudoku-course crossstudy confirmatory seed 0").digest()[:4], "big") >> 1
    assert seeds[0] == first and seeds == CONFIRMATORY.seeds
    root = Path(__file__).resolve().parents[1]
    earlier = [
        path
        for folder in ("notebooks", "solutions", "exercises", "data", "puzzles")
        for path in (root / folder).rglob("*")
        if path.is_file() and not path.name.startswith("crossstudy-confirmatory")
    ]
    numbers = {int(number) for path in earlier for number in re.findall(r"\d+", path.read_text(errors="ignore"))}
    assert not set(seeds) & numbers


def test_mealpy_cross_check_runs_outside_the_design_with_its_budget():
    runs = mealpy_cross_check({"témoin": reference()}, seeds=(0,), population_size=10, max_iterations=5)
    assert list(runs.columns) == RUN_COLUMNS
    assert list(runs["algorithm"]) == ["PSO", "GA"] and set(runs["representation"]) == {"R1"}
    assert (runs["evaluations"] == 50).all() and (runs["puzzle"] == "témoin").all()
