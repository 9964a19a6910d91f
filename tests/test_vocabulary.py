"""One vocabulary: every solver's and the cross-study's parameter names are defined in the solvers' glossary.

The glossary is the docstring of `sudoku_course.solvers`: each entry is a line "- name, name: meaning".
A solver's constructor parameters are all checked; for the cross-study's public functions and classes,
the settings are (the parameters with a default): the others are the data a function works on (a puzzle,
a runs table, a design), not names of concepts.
"""

from __future__ import annotations

import inspect
import re

import pytest

from sudoku_course import crossstudy, solvers

ENTRY = re.compile(r"^- ([a-z0-9_]+(?:, [a-z0-9_]+)*): ", re.MULTILINE)
RETIRED = ("max_attempts", "patience", "stagnation_limit", "t_max", "t_end", "w", "pm", "pc", "steps", "generations")
"""Names the vocabulary replaced (by max_restarts, stagnation, t0, t_min, inertia, mutation_rate,
crossover_rate, max_moves, max_iterations): none may come back."""
VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def glossary() -> list[str]:
    """The names the glossary defines, in order (an entry may define several)."""
    return [name for names in ENTRY.findall(solvers.__doc__) for name in names.split(", ")]


def parameters(function) -> list[inspect.Parameter]:
    """The named parameters of a function or a class's constructor (self, *args and **kwargs left out)."""
    return [p for p in inspect.signature(function).parameters.values() if p.kind not in VARIADIC and p.name != "self"]


def undefined(function, settings_only: bool = False) -> list[str]:
    """The parameter names of `function` (only those with a default if `settings_only`) that the glossary lacks."""
    names = [p.name for p in parameters(function) if not settings_only or p.default is not inspect.Parameter.empty]
    return [name for name in names if name not in glossary()]


def crossstudy_api() -> dict[str, object]:
    """The public functions and classes that crossstudy itself defines."""
    return {
        name: value
        for name, value in vars(crossstudy).items()
        if not name.startswith("_")
        and (inspect.isfunction(value) or inspect.isclass(value))
        and value.__module__ == crossstudy.__name__
    }


def test_the_glossary_defines_each_name_once_and_the_core_terms():
    names = glossary()
    assert len(names) == len(set(names)), sorted(name for name in set(names) if names.count(name) > 1)
    core = ("population_size", "max_iterations", "max_evaluations", "max_restarts", "stagnation", "t0", "t_min")
    assert set(core) <= set(names)
    assert set(("inertia", "inertia_start", "inertia_end", "mutation_rate", "crossover_rate", "elitism")) <= set(names)


def test_the_glossary_has_no_retired_name():
    assert not set(RETIRED) & set(glossary())


@pytest.mark.parametrize("name", solvers.available_solvers())
def test_every_constructor_parameter_of_a_registered_solver_is_defined(name):
    missing = undefined(solvers.solver_class(name).__init__)
    assert not missing, f"{name}: {missing} not in the glossary of sudoku_course.solvers"


def test_every_setting_of_the_crossstudy_is_defined():
    api = crossstudy_api()
    assert {"engine", "CrossDesign", "run_design", "population_trace"} <= set(api)
    missing = [f"{name}({parameter})" for name, value in api.items() for parameter in undefined(value, True)]
    assert not missing, f"{missing} not in the glossary of sudoku_course.solvers"


def test_the_check_catches_a_name_outside_the_glossary():
    def solver_like(puzzle, population_size: int = 40, patience: int = 50, *args, **kwargs) -> None:
        """A function with data (puzzle), a defined setting and a retired one."""

    assert undefined(solver_like, settings_only=True) == ["patience"]
    assert undefined(solver_like) == ["puzzle", "patience"]
