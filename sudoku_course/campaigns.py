"""Campaigns: the runs the lessons conclude from, declared as data, run once, kept in the repository's data/.

A campaign is a named, declared set of runs: configurations (a label, a registered solver and its
parameters, and the levels of the study's factors), puzzles (a bank and indices, or the témoin), seeds,
and a budget in evaluations (plus seconds where time is the point). Every configuration runs on every
puzzle with every seed. Its declared `slice` (a few seeds of a few configurations) is small enough for a
lesson to re-run live and compare with the data.

    run_campaign("crossstudy-exploration")                  # joblib on the local cores
    run_campaign(name, scheduler="tcp://10.0.0.5:8786")     # on a Dask cluster
    rows = load_campaign("crossstudy-exploration")          # one row per run
    check_slice("crossstudy-exploration")                   # the slice again: the data's rows, or StaleCampaign

`run_campaign` writes data/<name>.csv, one row per run (campaign, configuration, the factors, solver,
puzzle, seed, solved, cost, evaluations, evaluations_to_solve (empty when unsolved), seconds), and
data/<name>.json, what made them: commit and dirty flag, package versions, python, machine, date, the
declaration and its hash. Runs are bounded by evaluations and seeded, so every column but seconds is the
same on any machine (unless a seconds budget stops a run). A campaign that names a preregistered
`protocol` runs only once that file is committed, unchanged since.

Campaigns are registered by name in CAMPAIGNS ("name" -> "module:attribute", like the solvers), so that a
study declares its campaigns next to its analysis (the cross-study's are in `crossstudy`).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import platform
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module, metadata, resources
from pathlib import Path

import pandas as pd

from .bench import Task, puzzle_id, run_tasks
from .grid import SudokuGrid
from .progress import progress_bar
from .puzzles import load_bank, reference
from .solvers import Budget, get_solver

CAMPAIGNS: dict[str, str] = {
    "crossstudy-exploration": "sudoku_course.crossstudy:EXPLORATION",
    "crossstudy-confirmatory": "sudoku_course.crossstudy:CONFIRMATORY",
}
"""Campaign name -> "module:attribute" of its declaration."""
TEMOIN = "témoin"
"""The bank name that stands for the témoin (the first easy puzzle), whose puzzle id is "témoin" too."""
DATA_PACKAGE = "sudoku_course.data"
"""The repository's data/ folder, installed as this package so that lessons load the data from anywhere."""
ROOT = Path(__file__).resolve().parents[1]
"""The repository (when the package runs from it): where the commit and the protocols are read."""
VERSIONS = ("numpy", "pandas", "pygad", "mealpy", "numba")
"""The packages whose versions a campaign's record keeps."""
ROW_COLUMNS = ["campaign", "configuration", "solver", "puzzle", "seed", "solved", "cost", "evaluations"]
TIME_COLUMNS = ["evaluations_to_solve", "seconds"]
TABLE_NAMES = (*ROW_COLUMNS, *TIME_COLUMNS)
"""Every English column name of a campaign's rows but its factors (a notebook shows them in French)."""


class StaleCampaign(Exception):
    """The data of a campaign no longer match its declaration or the code that runs it."""


@dataclass(frozen=True)
class Configuration:
    """One configuration of a campaign: a label, a registered solver with its constructor parameters, and the
    level of each factor of the study (the factors become columns of the rows)."""

    label: str
    solver: str
    params: Mapping[str, object] = field(default_factory=dict)
    factors: Mapping[str, str] = field(default_factory=dict)

    def build(self):
        """The solver of this configuration."""
        return get_solver(self.solver, **self.params)


@dataclass(frozen=True)
class PuzzleSet:
    """Puzzles of a campaign: the indices of a bank (ids "medium-07"...), or the témoin (bank TEMOIN)."""

    bank: str
    indices: tuple[int, ...] = (0,)

    def grids(self) -> dict[str, SudokuGrid]:
        """Puzzle id -> grid."""
        if self.bank == TEMOIN:
            return {TEMOIN: reference()}
        puzzles = load_bank(self.bank)
        return {puzzle_id(self.bank, index): puzzles[index] for index in self.indices}


@dataclass(frozen=True)
class Slice:
    """The runs of a campaign that a lesson re-runs live: some configurations, seeds and puzzles (None: all)."""

    configurations: tuple[str, ...]
    seeds: tuple[int, ...]
    puzzles: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Campaign:
    """A named, declared set of runs: every configuration on every puzzle with every seed, `budget` evaluations
    each (and at most `seconds`, if given). `protocol`: the repository path of the preregistered protocol that
    must be committed, unchanged, before the campaign runs."""

    name: str
    description: str
    configurations: tuple[Configuration, ...]
    puzzles: tuple[PuzzleSet, ...]
    seeds: tuple[int, ...]
    budget: int
    slice: Slice
    seconds: float | None = None
    protocol: str | None = None

    def __post_init__(self) -> None:
        labels = [configuration.label for configuration in self.configurations]
        if not labels or len(set(labels)) != len(labels):
            raise ValueError(f"campaign {self.name!r} needs configurations with distinct labels, got {labels}")
        factors = {tuple(configuration.factors) for configuration in self.configurations}
        if len(factors) != 1 or set(next(iter(factors))) & {*TABLE_NAMES}:
            raise ValueError(f"campaign {self.name!r}: every configuration must name the same factors, not columns")
        if not self.seeds or len(set(self.seeds)) != len(self.seeds) or self.budget < 1:
            raise ValueError(f"campaign {self.name!r} needs distinct seeds and a positive budget")
        if not set(self.slice.configurations) <= set(labels) or not set(self.slice.seeds) <= set(self.seeds):
            raise ValueError(f"the slice of campaign {self.name!r} must pick among its configurations and seeds")
        if not set(self.slice.puzzles or ()) <= set(self.grids()):
            raise ValueError(f"the slice of campaign {self.name!r} must pick among its puzzles")

    @property
    def factors(self) -> tuple[str, ...]:
        """The names of the study's factors, in declaration order."""
        return tuple(self.configurations[0].factors)

    @property
    def runs(self) -> int:
        """Number of runs: configurations x puzzles x seeds."""
        return len(self.configurations) * len(self.grids()) * len(self.seeds)

    def grids(self) -> dict[str, SudokuGrid]:
        """Puzzle id -> grid, in declaration order."""
        return {key: grid for puzzles in self.puzzles for key, grid in puzzles.grids().items()}

    def declaration(self) -> dict:
        """The campaign as plain data (JSON), each puzzle written out: what its hash covers."""
        return {
            "name": self.name,
            "description": self.description,
            "configurations": [
                {"label": c.label, "solver": c.solver, "params": dict(c.params), "factors": dict(c.factors)}
                for c in self.configurations
            ],
            "puzzles": {key: grid.to_string() for key, grid in self.grids().items()},
            "seeds": list(self.seeds),
            "budget": self.budget,
            "seconds": self.seconds,
            "slice": {
                "configurations": list(self.slice.configurations),
                "seeds": list(self.slice.seeds),
                "puzzles": None if self.slice.puzzles is None else list(self.slice.puzzles),
            },
            "protocol": self.protocol,
        }

    def digest(self) -> str:
        """SHA-256 of the declaration's canonical JSON: it changes whenever the declaration does."""
        text = json.dumps(self.declaration(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def tasks(self, only: Slice | None = None) -> list[Task]:
        """The runs of the campaign (or of a slice of it), in row order: configuration, puzzle, seed."""
        grids = self.grids()
        return [
            Task(configuration.label, configuration.build(), key, key, grid, seed)
            for configuration in self.configurations
            if only is None or configuration.label in only.configurations
            for key, grid in grids.items()
            if only is None or only.puzzles is None or key in only.puzzles
            for seed in self.seeds
            if only is None or seed in only.seeds
        ]


# ---------------------------------------------------------------- the registry
def campaign_names() -> list[str]:
    """The registered campaigns, in registry order."""
    return list(CAMPAIGNS)


def get_campaign(name: str) -> Campaign:
    """The campaign registered under `name`."""
    if name not in CAMPAIGNS:
        raise ValueError(f"unknown campaign {name!r}; registered: {', '.join(campaign_names())}")
    module, attribute = CAMPAIGNS[name].split(":")
    campaign = getattr(import_module(module), attribute)
    if campaign.name != name:
        raise ValueError(f"{CAMPAIGNS[name]} declares campaign {campaign.name!r}, not {name!r}")
    return campaign


def _campaign(campaign: str | Campaign) -> Campaign:
    return get_campaign(campaign) if isinstance(campaign, str) else campaign


# ---------------------------------------------------------------- running
def run_campaign(
    campaign: str | Campaign,
    n_jobs: int | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    folder: Path | None = None,
) -> pd.DataFrame:
    """Run every run of a campaign, write data/<name>.csv and data/<name>.json, and return the rows.

    n_jobs: worker processes on this machine (joblib; None: every core). scheduler: the address of a Dask
    scheduler ("tcp://10.0.0.5:8786"): the runs go to its workers instead. progress: a progress bar
    (None: yes, unless SUDOKU_COURSE_PROGRESS=0). folder: where to write (default: the data folder).
    """
    campaign = _campaign(campaign)
    record = {"campaign": campaign.name, "declaration_hash": campaign.digest(), **provenance()}
    if campaign.protocol:
        record["protocol_commit"] = committed_protocol(campaign)
    record["declaration"] = campaign.declaration()
    rows = _run(campaign, campaign.tasks(), n_jobs, scheduler, progress)
    folder = data_folder() if folder is None else Path(folder)
    rows.to_csv(folder / f"{campaign.name}.csv", index=False)
    text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    (folder / f"{campaign.name}.json").write_text(text, encoding="utf-8")
    return rows


def _run(
    campaign: Campaign, tasks: list[Task], n_jobs: int | None, scheduler: str | None, progress: bool | None
) -> pd.DataFrame:
    """The rows of `tasks`, run on local processes or on the Dask cluster at `scheduler`."""
    budget = Budget(evaluations=campaign.budget, seconds=campaign.seconds)
    if scheduler is None:
        results = run_tasks(tasks, budget, n_jobs=-1 if n_jobs is None else n_jobs)
    else:
        results = run_tasks(tasks, budget, backend="dask", scheduler=scheduler)
    factors = {c.label: dict(c.factors) for c in campaign.configurations}
    solvers = {c.label: c.solver for c in campaign.configurations}
    rows = []
    for result in progress_bar(results, total=len(tasks), desc=campaign.name, progress=progress):  # a name: no language
        if result["error"]:
            raise RuntimeError(f"{result['solver']} on {result['puzzle']}, seed {result['seed']}: {result['error']}")
        rows.append(
            {
                "campaign": campaign.name,
                "configuration": result["solver"],
                **factors[result["solver"]],
                "solver": solvers[result["solver"]],
                "puzzle": result["puzzle"],
                "seed": result["seed"],
                "solved": result["solved"],
                "cost": result["cost"],
                "evaluations": result["evaluations"],
                "evaluations_to_solve": result["evaluations"] if result["solved"] else None,
                "seconds": round(result["seconds"], 4),
            }
        )
    columns = ["campaign", "configuration", *campaign.factors, *ROW_COLUMNS[2:], *TIME_COLUMNS]
    return _typed(pd.DataFrame(rows, columns=columns))


def _typed(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows with their column types: evaluations_to_solve may be missing (an unsolved run)."""
    types = {"seed": int, "solved": bool, "cost": int, "evaluations": int, "evaluations_to_solve": "Int64"}
    return rows.astype({**types, "seconds": float})


def provenance() -> dict:
    """What makes a campaign's rows: the commit (and whether the tracked files but data/ differ from it),
    package versions, python, machine and date."""
    return {
        "commit": _git("rev-parse", "HEAD"),
        "dirty": bool(_git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)data")),
        "versions": {name: metadata.version(name) for name in VERSIONS},
        "python": platform.python_version(),
        "machine": {"system": platform.platform(), "processor": platform.machine(), "cpus": os.cpu_count()},
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def _git(*args: str) -> str | None:
    """The output of a git command in the repository, or None outside one."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip()


def committed_protocol(campaign: Campaign) -> str:
    """The commit of the campaign's protocol file; ValueError unless that file is committed and unchanged."""
    path = campaign.protocol
    if _git("ls-files", "--error-unmatch", "--", path) is None:
        raise ValueError(f"campaign {campaign.name!r} runs only once its protocol {path} is committed")
    if _git("status", "--porcelain", "--", path):
        raise ValueError(f"the protocol {path} of campaign {campaign.name!r} differs from its commit")
    return _git("log", "-n", "1", "--format=%H", "--", path)


# ---------------------------------------------------------------- the data
def data_folder() -> Path:
    """The folder of the campaigns' data (the repository's data/, installed as sudoku_course.data)."""
    return Path(str(resources.files(DATA_PACKAGE)))


def load_campaign(campaign: str | Campaign, folder: Path | None = None) -> pd.DataFrame:
    """The rows of a campaign, as `run_campaign` wrote them."""
    name = _campaign(campaign).name
    path = (data_folder() if folder is None else Path(folder)) / f"{name}.csv"
    if not path.exists():
        raise FileNotFoundError(f"no data for campaign {name!r}: run `sudoku-course campaign {name}`")
    rows = pd.read_csv(path, dtype={"puzzle": str, "configuration": str})
    return _typed(rows)


def load_record(campaign: str | Campaign, folder: Path | None = None) -> dict:
    """What made a campaign's rows (data/<name>.json): commit, versions, machine, date, declaration and hash."""
    name = _campaign(campaign).name
    path = (data_folder() if folder is None else Path(folder)) / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def check_slice(
    campaign: str | Campaign, n_jobs: int = 1, progress: bool | None = None, folder: Path | None = None
) -> pd.DataFrame:
    """Re-run the campaign's slice and return its rows; StaleCampaign if the declaration changed since the
    data were made, or if a row differs from the data in any column but seconds."""
    campaign = _campaign(campaign)
    if load_record(campaign, folder)["declaration_hash"] != campaign.digest():
        raise StaleCampaign(f"campaign {campaign.name!r} changed since its data: run `sudoku-course campaign`")
    again = _run(campaign, campaign.tasks(campaign.slice), n_jobs, None, progress)
    keys = ["configuration", "puzzle", "seed"]
    stored = again[keys].merge(load_campaign(campaign, folder), on=keys, how="left")  # in the slice's order
    compared = [column for column in again.columns if column != "seconds"]
    try:
        pd.testing.assert_frame_equal(again[compared], stored[compared], check_dtype=False)
    except AssertionError as difference:
        raise StaleCampaign(f"the slice of campaign {campaign.name!r} differs from its data: {difference}") from None
    return again
