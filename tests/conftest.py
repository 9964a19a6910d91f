"""Shared test settings and fixtures.

Under CI (the CI environment variable is set), hypothesis draws the same examples on every run, so a red
build always means a change, never a rare draw; on a developer's machine it keeps exploring new examples.

Fixtures for the exercise checks: `not_strict` (a check never raises, whatever the environment), and
`passes` / `fails_without_leak`, which evaluate an answer on an exercise of the registry quietly and assert
its outcome; the second also scans the verdicts for the reference's outputs.

`bubblewrap`: the grader's sandbox needs it; a test that uses it fails under CI when it is missing (.ci/run
installs it) and is skipped elsewhere. `package_view`: the copy of the package without the references that a
sandbox shows in place of the package (made once per test session, as the grader makes one per grading run).
"""

from __future__ import annotations

import contextlib
import math
import os
import shutil

import numpy as np
import pytest
from hypothesis import settings

from sudoku_course.teaching.checks import CheckReport, evaluate
from sudoku_course.teaching.exercises import exercise
from sudoku_course.teaching.grading import view

settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

SEEDS = (None, 1, 2, 3)
"""The public cases, then the hidden cases of three seeds."""


@pytest.fixture
def not_strict(monkeypatch):
    """Checks in this test never raise, even if SUDOKU_COURSE_STRICT is set around the test run."""
    monkeypatch.delenv("SUDOKU_COURSE_STRICT", raising=False)


def stub(*args, **kwargs):
    """A function not written yet."""
    raise NotImplementedError("À compléter")


def _leaves(value) -> list:
    """The numbers of a value: nested lists, tuples, dicts, numpy arrays and grids flattened."""
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _leaves(item)]
    if isinstance(value, (np.ndarray, np.generic)):
        return _leaves(value.tolist())
    if hasattr(value, "cells"):
        return _leaves(value.cells)
    return [value] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


class _Captured(Exception):
    pass


def _inputs(case, count: int) -> list:
    """The numbers a case passes to the student's first function (a verdict may show them)."""
    captured = []

    def spy(*args, **kwargs):
        captured.append((args, kwargs))
        raise _Captured

    with contextlib.suppress(_Captured):
        case.call(*[spy] * count)
    return _leaves(captured)


def _spellings(number: float) -> set[str]:
    """How a verdict could write a hidden number: repr, %g, rounded, with a point or a French comma, with a
    hyphen or a true minus sign (« −2,5 », as french_number writes it)."""
    texts = {repr(number), f"{number:g}", f"{number:.6g}", str(round(number, 6))}
    texts |= {text.replace(".", ",") for text in texts}
    return texts | {text.replace("-", "\u2212") for text in texts}


def leaked(report: CheckReport, name: str, seed: int | None) -> list[str]:
    """Hidden values of the reference found in the explanations of the verdicts.

    Whole outputs, decimal numbers, and integers of two digits or more are looked for, unless the case's
    label shows them or they are among the case's inputs (a verdict may name the input); small integers
    such as 3 are everywhere in a French sentence.
    """
    item = exercise(name)
    found = []
    for case, result in zip(item.cases(seed), report.details, strict=False):
        if not result.detail or result.detail == case.disagree:  # a fixed sentence, the same for every answer
            continue
        reference = case.call(*item.references)
        if isinstance(reference, (list, dict)) and str(reference) in result.detail:
            found.append(f"{case.label}: {reference}")
        inputs = _inputs(case, len(item.functions))
        for leaf in _leaves(reference):
            integral = float(leaf).is_integer()
            if integral and (abs(leaf) < 10 or str(int(leaf)) in case.label):
                continue
            if not math.isfinite(leaf) or any(math.isclose(leaf, given) for given in inputs):
                continue
            spellings = {str(int(leaf)), str(int(leaf)).replace("-", "\u2212")} if integral else _spellings(leaf)
            found += [f"{case.label}: {text}" for text in spellings if text in result.detail]
    return found


@pytest.fixture(scope="session")
def bubblewrap() -> None:
    """Fail under CI, skip elsewhere, when bubblewrap (the grader's sandbox) is not installed."""
    if shutil.which("bwrap") is None:
        if os.environ.get("CI"):
            pytest.fail("bubblewrap is missing: apt-get install bubblewrap (.ci/run does it)")
        pytest.skip("bubblewrap is missing (apt-get install bubblewrap)")


@pytest.fixture(scope="module", autouse=True)
def grading_cache(request, tmp_path_factory):
    """The grading tests' own cache folder: the grader records there the solutions that passed their own cases
    (`reading.passed_record`), so no test reads a record of an earlier run or leaves one in the user's cache."""
    if not request.module.__name__.startswith("test_grading"):
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(scope="session")
def package_view():
    """The sandbox's copy of the package (no references), for the session."""
    with view.package_view() as package:
        yield package


@pytest.fixture
def passes(not_strict):
    """passes(name, *functions): the answer passes the public cases and the hidden cases of SEEDS."""

    def run(name: str, *functions) -> None:
        for seed in SEEDS:
            report = evaluate(exercise(name), functions, seed)
            assert report.ok, f"seed {seed}:\n{report.text()}"

    return run


@pytest.fixture
def fails_without_leak(not_strict):
    """fails_without_leak(name, *functions): the answer fails on the public cases and under every seed of
    SEEDS, and no verdict shows a hidden value of the reference. Returns the public report."""

    def run(name: str, *functions) -> CheckReport:
        reports = {seed: evaluate(exercise(name), functions, seed) for seed in SEEDS}
        for seed, report in reports.items():
            assert not report.ok and not report.stub, f"seed {seed}: the wrong answer passed\n{report.text()}"
            assert not leaked(report, name, seed), f"seed {seed}: {leaked(report, name, seed)}\n{report.text()}"
            assert all(len(result.detail) <= 300 for result in report.details)
        return reports[None]

    return run
