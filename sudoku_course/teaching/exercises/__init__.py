"""The exercise registry: every exercise of the course described once, as data.

One module per lesson (`lesson00`, `lesson01`, ...) registers its exercises.
The same description serves the check cells of the exercise notebooks
(`sudoku_course.teaching.checks.check`) and the grader
(`sudoku_course.teaching.grading`).

The contract that the checks and the grader share:

- An `Exercise` names the functions (or values) the student writes, in the
  order its cases pass them, and holds the reference implementations in the
  same order. Its `make_cases(seed)` builds the cases: `seed=None` gives the
  public cases of the check cells in class; an integer gives hidden cases
  drawn from that seed (the grader derives one per student), which
  `Exercise.cases` also shuffles with the seed. Building cases is
  deterministic: the same seed gives the same cases, in the same order, in
  any process.
- A `Case` has a French `label` and a `call(*functions)` that runs the
  student's functions on the case's inputs and returns **plain data** (None,
  bool, int, float, str, and lists and dicts of them; see `plain`). That is
  the only part that runs student code; it may run in another process (a
  sandbox, or a child process that can be killed), and only its plain result
  comes back. A result that is not plain data raises `NotPlainError` (a
  TypeError), which the check reports as an unusable result.
- Judging happens where the student's code does not run. `judge(output)`
  checks properties of the output alone and returns None or a French
  sentence (at most about 300 characters) built from the case's inputs and
  the student's output. `agree(output, reference_output)` compares the output
  with what `call(*references)` returns, and returns only a boolean: when it
  is False the fixed `disagree` sentence is shown. So no verdict can show a
  hidden expected value.
- `answers` lists the dotted names of package functions that are the answer
  of the exercise (a submission that uses one of them earns no points; the
  references of this registry count as answers too, and so does any use of
  `sudoku_course.teaching` from exercise code).
- For the grader, `call` runs in a sandboxed process that executes only the
  submission's definitions, and its output crosses as JSON; `make_cases`
  runs on both sides and must give the same cases for the same seed.
  Points: a student earns `Exercise.points` (the public cases' points) times
  the share of the hidden cases' points passed.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

import numpy as np

Plain = Any
"""JSON data: None, bool, int, float, str, and lists and dicts (str keys) of them."""

LESSON_MODULES = ("lesson00", "lesson01", "lesson02", "lesson03", "lesson04")
LEVELS = ("échauffement", "intermédiaire", "avancé")


def no_problem(output: Plain) -> str | None:
    """The default judge: every output is acceptable (the comparison with the reference decides)."""
    return None


@dataclass(frozen=True)
class Case:
    """One case of an exercise: what it checks, how to run it, how to judge it."""

    label: str
    call: Callable[..., Plain]
    judge: Callable[[Plain], str | None] = no_problem
    agree: Callable[[Plain, Plain], bool] | None = None
    disagree: str = "le résultat n'est pas le bon pour ce cas"
    points: float = 1.0


@dataclass(frozen=True)
class Exercise:
    """One exercise: the functions the student writes, their references, the cases, points and limits."""

    name: str
    lesson: str
    functions: tuple[str, ...]
    references: tuple[Callable, ...]
    make_cases: Callable[[int | None], list[Case]]
    time_limit: float = 2.0
    answers: tuple[str, ...] = ()
    level: str = "intermédiaire"
    minutes: int = 15
    cells: tuple[str, ...] = field(default_factory=tuple)
    """Ids of the solution cells the grader also runs (exercises whose answer is a value, not a function)."""

    def cases(self, seed: int | None = None) -> list[Case]:
        """The public cases (seed None, in their order) or the hidden cases drawn from `seed`, in an order
        shuffled by `seed` too: a table of answers by position fits no other student."""
        cases = self.make_cases(seed)
        if seed is None:
            return cases
        order = np.random.default_rng([seed, zlib.crc32(self.name.encode())]).permutation(len(cases))
        return [cases[index] for index in order]

    @property
    def points(self) -> float:
        """Points of the exercise: the sum of its public cases' points."""
        return sum(case.points for case in self.cases(None))


REGISTRY: dict[str, Exercise] = {}


def register(exercise: Exercise) -> Exercise:
    """Add an exercise to the registry (names are unique across the course)."""
    if exercise.name in REGISTRY and REGISTRY[exercise.name] is not exercise:
        raise ValueError(f"exercise {exercise.name!r} is registered twice")
    if exercise.level not in LEVELS:
        raise ValueError(f"exercise {exercise.name!r}: level must be one of {LEVELS}, got {exercise.level!r}")
    if len(exercise.functions) != len(exercise.references):
        raise ValueError(f"exercise {exercise.name!r}: one reference per student function")
    REGISTRY[exercise.name] = exercise
    return exercise


def load_all() -> dict[str, Exercise]:
    """Import every lesson module (which registers its exercises) and return the registry."""
    for module in LESSON_MODULES:
        import_module(f"{__name__}.{module}")
    return REGISTRY


def exercise(name: str) -> Exercise:
    """The exercise registered under `name`."""
    exercises = load_all()
    if name not in exercises:
        raise KeyError(f"unknown exercise {name!r}; known: {', '.join(sorted(exercises))}")
    return exercises[name]


def lesson_exercises(lesson: str) -> list[Exercise]:
    """The exercises of one lesson (notebook stem such as '02-recuit-simule'), in registration order."""
    return [item for item in load_all().values() if item.lesson == lesson]


class NotPlainError(TypeError):
    """A value that is not plain data (see `plain`)."""


def plain(value: Any) -> Plain:
    """`value` as JSON data: numpy arrays and scalars, tuples and sets become lists and Python numbers.

    NotPlainError (a TypeError) for anything else: a student's object never crosses as itself.
    """
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str.__str__(value)  # a subclass (with its own ==) becomes a plain str
    if isinstance(value, (np.bool_,)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int.__index__(value) if isinstance(value, int) else int(value)
    if isinstance(value, (float, np.floating)):
        number = float.__float__(value) if isinstance(value, float) else float(value)
        return number if math.isfinite(number) else str(number)
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)) or (isinstance(value, Sequence) and not isinstance(value, bytes)):
        return [plain(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(plain(item) for item in value)
    raise NotPlainError(f"not plain data: {type(value).__name__}")
