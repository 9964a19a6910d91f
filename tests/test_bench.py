"""Benchmark campaigns (bench.py): run table, failures, parallel runs, Dask campaigns and summaries."""

from __future__ import annotations

import pandas as pd
import pytest
from distributed import LocalCluster
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course import bench
from sudoku_course.bench import COLUMNS, benchmark, summarize
from sudoku_course.cost import conflicts
from sudoku_course.crossstudy import CrossDesign, run_design
from sudoku_course.grid import InvalidPuzzleError, SudokuGrid
from sudoku_course.puzzles import load_bank, open_cells
from sudoku_course.solvers import Solver, get_solver

TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
SECOND = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
UNSOLVABLE = "123456780" + "000000009" + "0" * 63  # row 1 needs a 9 where its box already has one


class RandomFill(Solver):
    """Fills the empty cells at random until its evaluation budget is spent (never solves in practice)."""

    name = "random-fill"

    def _search(self, puzzle, rng, run):
        empty = puzzle.cells == 0
        while True:
            cells = puzzle.cells.copy()
            cells[empty] = rng.integers(1, puzzle.size + 1, size=int(empty.sum()))
            candidate = puzzle.with_cells(cells)
            run.count()
            if run.record(conflicts(candidate)):
                return candidate


class Boom(Solver):
    """Always raises."""

    name = "boom"

    def _search(self, puzzle, rng, run):
        raise RuntimeError("boom at work")


class BudgetEcho(Solver):
    """Fails with a message that shows the budget it was given."""

    name = "echo"

    def _search(self, puzzle, rng, run):
        raise ValueError(f"evaluations={run.budget.evaluations} seconds={run.budget.seconds}")


def test_one_row_per_run_in_solver_puzzle_seed_order():
    df = benchmark({"a": RandomFill(), "b": Boom()}, [TEMOIN, SECOND], seeds=(5, 6), budget=3, progress=False)
    assert list(df.columns) == COLUMNS
    assert len(df) == 2 * 2 * 2
    assert df["solver"].tolist() == ["a"] * 4 + ["b"] * 4
    assert df["puzzle"].tolist() == ["custom-00", "custom-00", "custom-01", "custom-01"] * 2
    assert set(df["difficulty"]) == {"custom"}
    assert df["seed"].tolist() == [5, 6, 5, 6] * 2


def test_rows_describe_each_puzzle_by_its_empty_and_open_cells():
    hard = load_bank("hard")[0]
    df = benchmark("exact", {"easy": [TEMOIN], "hard": [hard], "custom": [UNSOLVABLE]}, progress=False)
    assert df["empty_cells"].tolist() == [36, hard.empty_count, UNSOLVABLE.count("0")]
    assert df["open_cells"].tolist()[:2] == [0, open_cells(hard)] and pd.isna(df["open_cells"].iloc[2])
    summary = summarize(df)
    assert summary["mean_empty_cells"].tolist() == [36, hard.empty_count, UNSOLVABLE.count("0")]


def test_row_values_of_successful_and_failed_runs():
    df = benchmark({"fill": RandomFill(), "boom": Boom()}, [TEMOIN], seeds=(0,), budget=4, progress=False)
    fill, boom = df.iloc[0], df.iloc[1]
    assert not fill["solved"] and fill["cost"] > 0 and fill["evaluations"] == 4 and fill["error"] == ""
    assert not boom["solved"]
    assert pd.isna(boom["cost"]) and pd.isna(boom["evaluations"])
    assert boom["error"] == "RuntimeError: boom at work"
    assert (df["seconds"] >= 0).all()
    assert df["solved"].dtype == bool and str(df["cost"].dtype) == "Int64"


def test_a_failing_run_does_not_stop_the_campaign():
    df = benchmark({"exact": get_solver("exact"), "boom": Boom()}, [TEMOIN, SECOND], seeds=(0, 1), progress=False)
    exact = df[df["solver"] == "exact"]
    assert exact["solved"].all() and (exact["error"] == "").all() and (exact["cost"] == 0).all()
    assert (df.loc[df["solver"] == "boom", "error"] == "RuntimeError: boom at work").all()


def test_budget_and_time_limit_reach_the_solver():
    df = benchmark([BudgetEcho()], [TEMOIN], budget=17, time_limit=2.5, progress=False)
    assert df["error"].tolist() == ["ValueError: evaluations=17 seconds=2.5"]
    df = benchmark([BudgetEcho()], [TEMOIN], time_limit=None, progress=False)
    assert df["error"].tolist() == ["ValueError: evaluations=None seconds=None"]


# ----------------------------------------------------------- solver forms
def test_solvers_given_by_name_are_built_from_the_registry():
    df = benchmark(["exact", "backtracking"], [TEMOIN], progress=False)
    assert df["solver"].tolist() == ["exact", "backtracking"]
    assert df["solved"].all()
    assert benchmark("exact", [TEMOIN], progress=False)["solver"].tolist() == ["exact"]


def test_solver_instances_are_labelled_by_their_name():
    df = benchmark([RandomFill(), Boom()], [TEMOIN], budget=1, progress=False)
    assert df["solver"].tolist() == ["random-fill", "boom"]


def test_two_solvers_with_one_label_are_refused():
    with pytest.raises(ValueError, match="two solvers are labelled 'random-fill'"):
        benchmark([RandomFill(), RandomFill()], [TEMOIN], progress=False)


def test_bad_solvers_are_refused_before_any_run():
    with pytest.raises(ValueError, match="unknown solver 'nope'"):
        benchmark(["exact", "nope"], [TEMOIN], progress=False)
    with pytest.raises(TypeError, match="solver 'x' is a str, not a Solver"):
        benchmark({"x": "exact"}, [TEMOIN], progress=False)
    with pytest.raises(ValueError, match="no solver"):
        benchmark([], [TEMOIN], progress=False)


# ----------------------------------------------------------- puzzle forms
def test_a_dict_of_puzzles_gives_difficulties_and_ids():
    df = benchmark("exact", {"mine": [TEMOIN], "theirs": [SECOND, TEMOIN]}, progress=False)
    assert df["difficulty"].tolist() == ["mine", "theirs", "theirs"]
    assert df["puzzle"].tolist() == ["mine-00", "theirs-00", "theirs-01"]


def test_grids_strings_and_arrays_are_accepted_and_never_modified():
    grid = SudokuGrid.from_string(TEMOIN)
    df = benchmark("exact", [grid, TEMOIN, grid.cells], progress=False)
    assert df["solved"].all()
    assert grid.to_string() == TEMOIN


def test_bank_names_load_the_bundled_banks(monkeypatch):
    loaded = []

    def fake_load_bank(name):
        loaded.append(name)
        return [TEMOIN] if name == "easy" else [SECOND]

    monkeypatch.setattr(bench, "load_bank", fake_load_bank)
    assert benchmark("exact", "easy", progress=False)["puzzle"].tolist() == ["easy-00"]
    df = benchmark("exact", ["easy", "hard"], progress=False)
    assert df["puzzle"].tolist() == ["easy-00", "hard-00"]
    assert loaded == ["easy", "easy", "hard"]


def test_the_real_easy_bank_is_solved_by_the_exact_solver():
    df = benchmark("exact", "easy", progress=False)
    assert len(df) >= 50
    assert df["solved"].all()
    assert df["puzzle"].iloc[0] == "easy-00"


def test_a_bad_puzzle_is_reported_by_its_id_before_any_run():
    with pytest.raises(InvalidPuzzleError, match="puzzle custom-01: .*found 72"):
        benchmark([Boom()], [TEMOIN, TEMOIN[9:]], progress=False)
    with pytest.raises(ValueError, match="unknown bank 'impossible'"):
        benchmark("exact", "impossible", progress=False)
    with pytest.raises(ValueError, match="no puzzle"):
        benchmark("exact", [], progress=False)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seeds": 3}, "seeds must be a sequence"),
        ({"seeds": ()}, "no seed"),
        ({"budget": 0}, "budget must be a positive number"),
        ({"time_limit": 0}, "time_limit must be a positive number"),
        ({"time_limit": -1.0}, "time_limit must be a positive number"),
    ],
)
def test_bad_campaign_settings_are_refused(kwargs, message):
    with pytest.raises((TypeError, ValueError), match=message):
        benchmark("exact", [TEMOIN], progress=False, **kwargs)


# ------------------------------------------------------ parallel, progress
def test_parallel_runs_give_the_same_rows_in_the_same_order():
    solvers = {"fill": RandomFill(), "boom": Boom(), "exact": get_solver("exact")}
    puzzles = {"a": [TEMOIN, SECOND], "b": [SECOND]}
    args = dict(seeds=range(3), budget=20, progress=False)
    serial = benchmark(solvers, puzzles, n_jobs=1, **args)
    parallel = benchmark(solvers, puzzles, n_jobs=2, **args)
    pd.testing.assert_frame_equal(serial.drop(columns="seconds"), parallel.drop(columns="seconds"))


# ------------------------------------------------------------ Dask backend
@pytest.fixture(scope="module")
def dask_scheduler():
    """The address of a 2-worker Dask cluster of processes (Dask is locked: no skip, missing it fails)."""
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def test_a_dask_campaign_gives_the_sequential_table(dask_scheduler):
    solvers = {"fill": RandomFill(), "boom": Boom(), "exact": get_solver("exact"), "annealing": get_solver("annealing")}
    puzzles = {"a": [TEMOIN, SECOND], "b": [SECOND]}
    args = dict(seeds=range(2), budget=200, time_limit=None, progress=False)
    sequential = benchmark(solvers, puzzles, **args)
    on_dask = benchmark(solvers, puzzles, backend="dask", scheduler=dask_scheduler, **args)
    pd.testing.assert_frame_equal(sequential.drop(columns="seconds"), on_dask.drop(columns="seconds"))
    assert (on_dask["seconds"] > 0).all()
    assert (sequential.loc[sequential["solver"] == "annealing", "evaluations"] == 200).any()


def test_the_lesson_04_design_runs_on_dask(dask_scheduler):
    design = CrossDesign({"a": TEMOIN, "b": SECOND}, ("R1", "R2", "R3"), ("SA",), seeds=(0, 3), max_iterations=3)
    sequential = run_design(design)
    on_dask = run_design(design, backend="dask", scheduler=dask_scheduler)
    pd.testing.assert_frame_equal(sequential.drop(columns="seconds"), on_dask.drop(columns="seconds"))
    assert list(pd.unique(on_dask["puzzle"])) == ["a", "b"]


def test_without_a_scheduler_the_dask_backend_starts_a_local_cluster():
    df = benchmark("exact", [TEMOIN, SECOND], backend="dask", n_jobs=2, progress=False)
    assert df["solved"].all() and df["puzzle"].tolist() == ["custom-00", "custom-01"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"backend": "spark"}, "unknown backend 'spark'"),
        ({"scheduler": "tcp://127.0.0.1:8786"}, "only applies to backend='dask'"),
        ({"backend": "dask", "n_jobs": 0}, "positive number of Dask workers"),
    ],
)
def test_bad_backends_are_refused_before_any_run(kwargs, message):
    with pytest.raises(ValueError, match=message):
        benchmark([Boom()], [TEMOIN], progress=False, **kwargs)


def test_progress_bar_is_shown_only_when_asked(capsys):
    benchmark("exact", [TEMOIN], progress=True)
    assert "exact: 100%" in capsys.readouterr().err
    benchmark("exact", [TEMOIN], progress=False)
    assert capsys.readouterr().err == ""


# --------------------------------------------------------------- summarize
def _runs() -> pd.DataFrame:
    rows = [
        ("b", "easy-00", "easy", 40, 0, 0, True, 0, 10, 0.5, ""),
        ("b", "easy-01", "easy", 44, 0, 0, True, 0, 30, 1.5, ""),
        ("b", "hard-00", "hard", 57, 50, 0, False, 4, 99, 3.0, ""),
        ("a", "easy-00", "easy", 40, 0, 0, True, 0, 1, 0.1, ""),
        ("a", "easy-01", "easy", 44, 0, 0, True, 0, 3, 0.2, ""),
        ("a", "hard-00", "hard", 57, 50, 0, False, None, None, 0.4, "RuntimeError: x"),
        ("a", "hard-01", "hard", 59, None, 0, True, 0, 5, 0.6, ""),
    ]
    return pd.DataFrame(rows, columns=COLUMNS).astype(bench.COLUMN_TYPES)


def test_summarize_counts_and_times_per_solver_and_difficulty():
    summary = summarize(_runs())
    assert list(summary.columns) == bench.SUMMARY_COLUMNS
    assert list(zip(summary["solver"], summary["difficulty"], strict=True)) == [
        ("b", "easy"),
        ("b", "hard"),
        ("a", "easy"),
        ("a", "hard"),
    ]
    assert summary["runs"].tolist() == [2, 1, 2, 2]
    assert summary["solved"].tolist() == [2, 0, 2, 1]
    assert summary["success_rate"].tolist() == [1.0, 0.0, 1.0, 0.5]
    assert summary["median_seconds"].tolist() == pytest.approx([1.0, 3.0, 0.15, 0.5])
    assert summary["min_seconds"].tolist() == pytest.approx([0.5, 3.0, 0.1, 0.4])
    assert summary["max_seconds"].tolist() == pytest.approx([1.5, 3.0, 0.2, 0.6])
    assert summary["median_evaluations"].tolist() == pytest.approx([20, 99, 2, 5])
    assert summary["mean_empty_cells"].tolist() == pytest.approx([42, 57, 42, 58])
    assert summary["mean_open_cells"].tolist() == pytest.approx([0, 50, 0, 50])  # a missing count is left out
    assert "disqualified" not in summary


def test_summarize_disqualifies_a_solver_that_fails_one_run_of_a_difficulty():
    summary = summarize(_runs(), disqualify=True)
    assert summary["disqualified"].tolist() == [False, True, False, True]


def test_summarize_of_a_real_campaign():
    df = benchmark({"exact": get_solver("exact"), "boom": Boom()}, {"easy": [TEMOIN, SECOND]}, progress=False)
    summary = summarize(df, disqualify=True)
    assert summary[["solver", "runs", "solved", "disqualified"]].values.tolist() == [
        ["exact", 2, 2, False],
        ["boom", 2, 0, True],
    ]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["x", "y", "z"]), st.sampled_from(["easy", "hard"]), st.booleans(), st.floats(0, 9)),
        min_size=1,
        max_size=30,
    ),
    st.booleans(),
)
def test_summarize_invariants(runs, disqualify):
    rows = [(s, f"{d}-00", d, 50, 40, 0, ok, 0, 1, t, "") for s, d, ok, t in runs]
    df = pd.DataFrame(rows, columns=COLUMNS).astype(bench.COLUMN_TYPES)
    summary = summarize(df, disqualify=disqualify)
    assert summary["runs"].sum() == len(df)
    assert summary["solved"].sum() == df["solved"].sum()
    assert (summary["min_seconds"] <= summary["median_seconds"]).all()
    assert (summary["median_seconds"] <= summary["max_seconds"]).all()
    assert not summary.duplicated(["solver", "difficulty"]).any()
    assert summary.equals(summarize(df, disqualify=disqualify))
    if disqualify:
        assert (summary["disqualified"] == (summary["success_rate"] < 1)).all()


# ------------------------------------------------------------ run-time distributions and intervals
def runs_of(configurations: dict[str, list[tuple[str, bool, int]]]) -> pd.DataFrame:
    """Runs as (puzzle, solved, evaluations spent) per configuration; cost 0 when solved, else 3."""
    rows = [
        {"configuration": label, "puzzle": puzzle, "solved": solved, "evaluations": spent, "cost": 0 if solved else 3}
        for label, runs in configurations.items()
        for puzzle, solved, spent in runs
    ]
    return pd.DataFrame(rows).assign(seconds=lambda table: table["evaluations"] / 1000)


RTD_RUNS = {
    "fast": [("a", True, 100), ("a", True, 300), ("b", True, 300), ("b", False, 1000)],
    "never": [("a", False, 1000), ("b", False, 1000)],
}


def test_the_run_time_distribution_counts_every_run_and_never_the_unsolved_ones():
    rtd = bench.run_time_distribution(runs_of(RTD_RUNS), resamples=2000)
    assert list(rtd.columns) == ["configuration", "evaluations", *bench.RTD_COLUMNS]
    fast = rtd[rtd["configuration"] == "fast"]
    assert list(fast["evaluations"]) == [100, 300, 1000]  # each solve time, then the largest budget spent
    assert list(fast["solved_share"]) == [0.25, 0.75, 0.75]  # the unsolved run keeps the curve below 1
    never = rtd[rtd["configuration"] == "never"]
    assert list(never["evaluations"]) == [1000] and list(never[["solved_share", "low", "high"]].iloc[0]) == [0, 0, 0]
    assert ((rtd["low"] <= rtd["solved_share"]) & (rtd["solved_share"] <= rtd["high"])).all()
    assert (fast["low"].diff().dropna() >= 0).all() and (fast["high"].diff().dropna() >= 0).all()
    pd.testing.assert_frame_equal(rtd, bench.run_time_distribution(runs_of(RTD_RUNS), resamples=2000))


def test_the_band_resamples_runs_within_each_puzzle():
    """Puzzle a always solves, puzzle b never: each resample keeps two runs of each, so the share stays 1/2."""
    runs = runs_of({"split": [("a", True, 10), ("a", True, 10), ("b", False, 50), ("b", False, 50)]})
    rtd = bench.run_time_distribution(runs, resamples=500)
    assert list(rtd["solved_share"]) == [0.5, 0.5] and list(rtd["low"]) == [0.5, 0.5] == list(rtd["high"])


def test_the_run_time_distribution_against_seconds():
    rtd = bench.run_time_distribution(runs_of(RTD_RUNS), against="seconds", resamples=100)
    assert list(rtd.columns)[:2] == ["configuration", "seconds"]
    assert list(rtd.loc[rtd["configuration"] == "fast", "seconds"]) == [0.1, 0.3, 1.0]


def test_interval_summary_gives_success_and_median_with_their_intervals():
    summary = bench.interval_summary(runs_of(RTD_RUNS), resamples=2000).set_index("configuration")
    assert list(summary.columns) == bench.INTERVAL_SUMMARY_COLUMNS
    fast, never = summary.loc["fast"], summary.loc["never"]
    assert (fast["runs"], fast["solved"], fast["success_rate"], fast["median_cost"]) == (4, 3, 0.75, 0.0)
    assert fast["success_low"] == 0.5 and fast["success_high"] == 1.0  # b's runs resampled within b
    assert (never["success_rate"], never["success_low"], never["success_high"]) == (0, 0, 0)
    assert never["median_cost"] == never["median_low"] == never["median_high"] == 3


@settings(max_examples=30, deadline=None)
@given(outcomes=st.lists(st.tuples(st.sampled_from("ab"), st.booleans(), st.integers(1, 100)), min_size=1, max_size=12))
def test_interval_summary_and_distribution_invariants(outcomes):
    runs = runs_of({"c": outcomes})
    summary = bench.interval_summary(runs, resamples=200).iloc[0]
    assert summary["success_low"] <= summary["success_rate"] <= summary["success_high"]
    assert summary["median_low"] <= summary["median_cost"] <= summary["median_high"]
    rtd = bench.run_time_distribution(runs, resamples=200)
    assert (rtd["solved_share"].diff().dropna() >= 0).all()
    assert rtd["solved_share"].iloc[-1] == pytest.approx(summary["success_rate"])
