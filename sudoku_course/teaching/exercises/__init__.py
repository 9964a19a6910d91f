"""The exercise registry: every exercise of the course described once, as data.

One package per lesson (`lesson00`, `lesson01`, ...), split along the sandbox wall:

- `references`: the reference answers. The grader's sandbox never sees this module (its copy of the package
  holds none: `grading.view`); it is imported only where references may be, the grader's process and the
  checks in class, and only when a reference is needed (`Exercise.references`).
- `provided`: what the students import (the loops that run their functions, such as lesson 01's `evolve`).
- `cases`: the case builders (`make_cases`) and their judges; the builders run inside the sandbox too, so
  they never import the references (a judge, which runs in the grader only, may import them when called).
- the package itself (`__init__`): the registration, one `register(Exercise(...))` per exercise.

The shared probes and building blocks (calls, comparisons, judges, puzzles) are in `common`.
The same description serves the check cells of the exercise notebooks
(`sudoku_course.teaching.checks.check`) and the grader
(`sudoku_course.teaching.grading`).

The contract that the checks and the grader share:

- An `Exercise` names the functions (or values) the student writes, in the
  order its cases pass them, and the module holding the references under the
  same names (`reference_module`). Its `make_cases(seed)` builds the cases:
  `seed=None` gives the public cases of the check cells in class; an integer
  gives hidden cases drawn from that seed (the grader derives one per
  student), which `Exercise.cases` also shuffles with the seed. Building
  cases is deterministic: the same seed gives the same cases, in the same
  order, in any process. Cases whose inputs only a reference can make get
  them as data: `Exercise.prepare` names a function of the reference module,
  run where the references are, whose plain data the sandbox receives
  (`make_cases(seed, prepared)`).
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
  of the exercise (a submission that uses one of them earns no points; so
  does any use of `sudoku_course.teaching` from exercise code).
- For the grader, `call` runs in a sandboxed process that executes only the
  submission's definitions, and its output crosses as JSON; `make_cases`
  runs on both sides and must give the same cases for the same seed.
  Points: a student earns `Exercise.points` (the public cases' points) times
  the share of the hidden cases' points passed.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
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
    inputs: str = ""
    """The inputs of the call in a few French words, shown with an « erreur » verdict when the label does not
    already say them; by default those of a call that knows them (`common.calling`)."""

    def __post_init__(self) -> None:
        if not self.inputs:
            object.__setattr__(self, "inputs", getattr(self.call, "inputs", ""))


@dataclass(frozen=True)
class Exercise:
    """One exercise: the functions the student writes, where their references are, the cases, points and limits."""

    name: str
    lesson: str
    functions: tuple[str, ...]
    reference_module: str
    """Dotted name of the module defining the references, one per name of `functions` and under that name."""
    make_cases: Callable[..., list[Case]]
    time_limit: float = 2.0
    answers: tuple[str, ...] = ()
    level: str = "intermédiaire"
    minutes: int = 15
    essential: bool = True
    """False for an exercise « pour aller plus loin », outside a session's essential path (`teaching.durations`)."""
    cells: tuple[str, ...] = field(default_factory=tuple)
    """Ids of the solution cells the grader also runs (exercises whose answer is a value, not a function)."""
    calls: tuple[str, ...] = ()
    """Exercises whose function the student's functions call (next_generation calls tournament_selection): when
    a check fails, the one among them that fails its own check is named as the likely cause."""
    prepare: str = ""
    """Name of a function of the reference module, prepare(seed) -> plain data, for cases whose inputs only a
    reference can make; make_cases then takes that data: make_cases(seed, prepared)."""

    @property
    def references(self) -> tuple[Any, ...]:
        """The references, in the order of `functions`, imported from `reference_module` now: call this only
        where references may be (the grader's process, a check in class), never inside the sandbox."""
        module = import_module(self.reference_module)
        return tuple(getattr(module, name) for name in self.functions)

    def prepared(self, seed: int | None) -> Plain:
        """The data `prepare` computes for the cases of `seed` (None without `prepare`); needs the references."""
        return plain(getattr(import_module(self.reference_module), self.prepare)(seed)) if self.prepare else None

    def cases(self, seed: int | None = None, prepared: Plain = None) -> list[Case]:
        """The public cases (seed None, in their order) or the hidden cases drawn from `seed`, in an order
        shuffled by `seed` too: a table of answers by position fits no other student.

        `prepared`: the data of `prepare` for this seed, computed here when not given (the sandbox is given it).
        """
        if self.prepare:
            cases = self.make_cases(seed, self.prepared(seed) if prepared is None else prepared)
        else:
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
    REGISTRY[exercise.name] = exercise
    return exercise


def load_all() -> dict[str, Exercise]:
    """Import every lesson package (which registers its exercises) and return the registry."""
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


# numpy's own, taken when the registry is imported (before any student code runs), so that a submission that
# rebinds numpy's names (`np.asarray = ...`) does not change the conversion
_ndarray, _generic, _asarray = np.ndarray, np.generic, np.asarray


def plain(value: Any) -> Plain:
    """`value` as JSON data: numpy arrays and scalars, tuples and sets become lists and Python numbers.

    Only the base types' own methods are called (`np.ndarray.tolist(np.asarray(x))`, `list.__iter__`,
    `dict.items`, `int.__index__`...), never a method of the object itself: a subclass whose `tolist`,
    `__iter__` or `__eq__` lies is converted to what it holds. NotPlainError (a TypeError) for anything else: a
    student's object never crosses as itself.
    """
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str.__str__(value)  # a subclass (with its own ==) becomes a plain str
    if isinstance(value, _ndarray):
        return plain(_ndarray.tolist(_asarray(value)))  # a subclass is seen as the plain array it holds
    if isinstance(value, _generic):
        return plain(_generic.tolist(value))  # a numpy scalar as the Python scalar it holds
    if isinstance(value, int):
        return int.__index__(value)
    if isinstance(value, float):
        number = float.__float__(value)
        return number if math.isfinite(number) else str(number)
    if isinstance(value, dict):
        return {str(plain(key)): plain(item) for key, item in dict.items(value)}
    for sequence in (list, tuple, range):
        if isinstance(value, sequence):
            return [plain(item) for item in sequence.__iter__(value)]
    for collection in (set, frozenset):
        if isinstance(value, collection):
            return sorted(plain(item) for item in collection.__iter__(value))
    raise NotPlainError(f"not plain data: {type(value).__name__}")
