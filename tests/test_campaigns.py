"""Campaigns (campaigns.py): declarations, runs with joblib and on Dask, the data and what made them, stale data,
and the preregistration's order in the history."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from sudoku_course import campaigns
from sudoku_course.campaigns import (
    TEMOIN,
    Campaign,
    Configuration,
    PuzzleSet,
    Slice,
    StaleCampaign,
    campaign_names,
    check_slice,
    get_campaign,
    load_campaign,
    load_record,
    run_campaign,
)
from sudoku_course.teaching.labels import COLUMN_LABELS

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
ROWS = {"space": "rows", "chain_length": 40, "max_iterations": 50}  # solves the témoin within 2,000 evaluations
REALS = {"space": "continuous", "chain_length": 10, "max_iterations": 10}  # solves nothing in 100
TINY = Campaign(
    name="tiny",
    description="two annealers on two easy puzzles",
    configurations=(
        Configuration("rows", "space-annealing", ROWS, {"kind": "R2"}),
        Configuration("reals", "space-annealing", REALS, {"kind": "R1"}),
    ),
    puzzles=(PuzzleSet(TEMOIN), PuzzleSet("easy", (3,))),
    seeds=(0, 5),
    budget=2000,
    slice=Slice(("reals",), (5,)),
)
COLUMNS = [
    "campaign",
    "configuration",
    "kind",
    "solver",
    "puzzle",
    "seed",
    "solved",
    "cost",
    "evaluations",
    "evaluations_to_solve",
    "seconds",
]


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory) -> tuple[pd.DataFrame, Path]:
    folder = tmp_path_factory.mktemp("data")
    return run_campaign(TINY, n_jobs=2, progress=False, folder=folder), folder


def test_a_campaign_writes_one_tidy_row_per_run(tiny_data):
    rows, folder = tiny_data
    assert list(rows.columns) == COLUMNS and len(rows) == TINY.runs == 2 * 2 * 2
    assert list(zip(rows["configuration"], rows["puzzle"], rows["seed"], strict=True))[:4] == [
        ("rows", "témoin", 0),
        ("rows", "témoin", 5),
        ("rows", "easy-03", 0),
        ("rows", "easy-03", 5),
    ]
    assert (rows["campaign"] == "tiny").all() and (rows["solver"] == "space-annealing").all()
    assert list(rows["kind"]) == ["R2"] * 4 + ["R1"] * 4
    solved, unsolved = rows[rows["solved"]], rows[~rows["solved"]]
    assert len(solved) and len(unsolved)
    assert (solved["evaluations_to_solve"] == solved["evaluations"]).all() and (solved["cost"] == 0).all()
    assert unsolved["evaluations_to_solve"].isna().all()
    assert (unsolved["evaluations"] == unsolved["configuration"].map({"rows": 2000, "reals": 100})).all()
    pd.testing.assert_frame_equal(load_campaign(TINY, folder), rows)
    assert ",," in (folder / "tiny.csv").read_text()  # an unsolved run leaves evaluations_to_solve empty


def test_a_campaign_records_what_made_its_rows(tiny_data):
    _, folder = tiny_data
    record = load_record(TINY, folder)
    assert record["campaign"] == "tiny" and record["declaration_hash"] == TINY.digest()
    assert record["declaration"] == json.loads(json.dumps(TINY.declaration()))
    assert record["declaration"]["puzzles"]["témoin"].startswith("902005403")
    assert set(record["versions"]) == {"numpy", "pandas", "pygad", "mealpy", "numba"}
    assert len(record["commit"]) == 40 and isinstance(record["dirty"], bool)
    assert {"python", "machine", "date"} <= set(record) and record["machine"]["cpus"] >= 1


def test_the_slice_reproduces_the_data_and_stale_data_are_caught(tiny_data, tmp_path):
    rows, folder = tiny_data
    again = check_slice(TINY, folder=folder, progress=False)
    assert list(zip(again["configuration"], again["puzzle"], again["seed"], strict=True)) == [
        ("reals", "témoin", 5),
        ("reals", "easy-03", 5),
    ]
    tampered = rows.copy()
    tampered.loc[(tampered["configuration"] == "reals") & (tampered["seed"] == 5), "cost"] += 1
    tampered.to_csv(tmp_path / "tiny.csv", index=False)
    (tmp_path / "tiny.json").write_text((folder / "tiny.json").read_text())
    with pytest.raises(StaleCampaign, match="differs from its data"):
        check_slice(TINY, folder=tmp_path, progress=False)
    with pytest.raises(StaleCampaign, match="changed since its data"):
        check_slice(replace(TINY, budget=301), folder=folder, progress=False)


@pytest.fixture(scope="module")
def dask_scheduler():
    """The address of a 2-worker Dask cluster of processes; under CI a cluster that cannot start fails the test."""
    from distributed import LocalCluster

    try:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    except Exception as error:  # no cluster on this machine: only CI must have one
        if os.environ.get("CI"):
            pytest.fail(f"cannot start a Dask LocalCluster: {error}")
        pytest.skip(f"cannot start a Dask LocalCluster: {error}")
    with cluster:
        yield cluster.scheduler_address


def test_a_campaign_on_a_dask_cluster_gives_the_same_rows(tiny_data, dask_scheduler, tmp_path):
    rows, _ = tiny_data
    on_dask = run_campaign(TINY, scheduler=dask_scheduler, progress=False, folder=tmp_path)
    pd.testing.assert_frame_equal(on_dask.drop(columns="seconds"), rows.drop(columns="seconds"))
    assert (tmp_path / "tiny.csv").exists() and (tmp_path / "tiny.json").exists()


# ------------------------------------------------------------------ declarations and the registry
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"configurations": ()}, "distinct labels"),
        ({"configurations": TINY.configurations[:1] * 2}, "distinct labels"),
        ({"seeds": (0, 0)}, "distinct seeds"),
        ({"budget": 0}, "positive budget"),
        ({"slice": Slice(("nope",), (0,))}, "among its configurations"),
        ({"slice": Slice(("rows",), (9,))}, "among its configurations and seeds"),
        ({"slice": Slice(("rows",), (0,), ("hard-00",))}, "among its puzzles"),
    ],
)
def test_bad_declarations_are_refused(change, message):
    with pytest.raises(ValueError, match=message):
        replace(TINY, **change)


def test_configurations_must_share_their_factors():
    other = Configuration("other", "space-annealing", {}, {"shape": "R1"})
    with pytest.raises(ValueError, match="same factors"):
        replace(TINY, configurations=(*TINY.configurations, other))
    clash = Configuration("clash", "space-annealing", {}, {"cost": "R1"})
    with pytest.raises(ValueError, match="same factors"):
        replace(TINY, configurations=(clash,), slice=Slice(("clash",), (0,)))


def test_the_declaration_hash_follows_every_change():
    assert TINY.digest() == replace(TINY).digest()
    assert TINY.digest() != replace(TINY, seeds=(0, 6), slice=Slice(("reals",), (6,))).digest()
    assert TINY.digest() != replace(TINY, puzzles=(PuzzleSet(TEMOIN), PuzzleSet("easy", (4,)))).digest()


def test_the_registry_finds_each_campaign_by_name():
    assert campaign_names() == ["crossstudy-exploration", "crossstudy-confirmatory"]
    assert all(get_campaign(name).name == name for name in campaign_names())
    with pytest.raises(ValueError, match="unknown campaign 'nope'"):
        get_campaign("nope")


def test_a_preregistered_campaign_runs_only_once_its_protocol_is_committed(tmp_path):
    unwritten = replace(TINY, protocol="studies/not-written-yet.md")
    with pytest.raises(ValueError, match="runs only once its protocol"):
        run_campaign(unwritten, folder=tmp_path, progress=False)
    assert not list(tmp_path.iterdir())


def test_every_column_of_a_campaign_has_a_french_label():
    assert set(campaigns.TABLE_NAMES) <= set(COLUMN_LABELS)


# ------------------------------------------------------------------ the committed data
COMMITTED = sorted(path.stem for path in DATA.glob("*.json"))


def test_every_committed_campaign_has_its_rows_and_is_registered():
    assert sorted(path.stem for path in DATA.glob("*.csv")) == COMMITTED
    assert set(COMMITTED) <= set(campaign_names())


@pytest.mark.parametrize("name", COMMITTED)
def test_committed_data_are_not_stale(name):
    """The declaration is the one that made the data, and its slice, run again, gives the same rows."""
    campaign = get_campaign(name)
    assert load_record(name)["declaration_hash"] == campaign.digest()
    assert len(load_campaign(name)) == campaign.runs
    check_slice(name, progress=False)


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize("name", [name for name in campaign_names() if get_campaign(name).protocol])
def test_a_protocol_is_committed_before_its_data_and_never_edited_after(name):
    protocol = get_campaign(name).protocol
    assert (ROOT / protocol).is_file(), f"campaign {name} names a protocol that does not exist: {protocol}"
    protocol_commits = git("log", "--format=%H", "--", protocol).split()
    data_commits = git("log", "--format=%H", "--", f"data/{name}.csv").split()
    if not data_commits:  # no data yet: nothing to order
        return
    assert protocol_commits, f"{protocol} was never committed"
    first_data = data_commits[-1]
    for commit in protocol_commits:
        subprocess.run(["git", "-C", str(ROOT), "merge-base", "--is-ancestor", commit, first_data], check=True)
        assert commit != first_data, f"{protocol} changed in the commit that brought the data of {name}"
    assert load_record(name)["protocol_commit"] == protocol_commits[0]
