"""Building blocks shared by the lessons' cases: calls, probes, comparisons, judges, puzzles.

- `calling(*args, **kwargs)` builds a `Case.call` that passes deep copies of
  the arguments to the student's (first) function and returns its plain result;
  it knows its inputs (`described`), shown with an « erreur » verdict.
- Probes, written once for every lesson:
  - input unchanged: a call that must leave its inputs alone returns them as
    data after the student's function ran (`as_data`), and the judge, in the
    grader, compares them with its own inputs (`unchanged`);
  - generator discipline: `seed_global_generators` seeds numpy's and Python's
    global generators before a run, so that two runs with the same generator
    and other global seeds show whether the function draws from it alone;
  - `box_of(row, col, box_size)`: the box holding a cell.
- `close(output, reference)` is the one tolerance comparison of the course
  (numbers, and lists and dicts of them, equal up to rounding errors);
  `same_word(output, reference)` compares words ignoring accents, case and
  surrounding spaces.
- `integer`, `boolean`, `number`, `numbers` are judges of the output's type.
- `french(x)` writes a number the French way for a verdict (« 0,5 »).
"""

from __future__ import annotations

import copy
import math
import random
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...grid import SudokuGrid, layout
from . import NotPlainError, Plain, plain

TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
TEMOIN_SOLUTION = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"
SMALL_SOLUTION = "1234341221434321"  # a solved 4 x 4 grid
RELATIVE_TOLERANCE = 1e-9
ABSOLUTE_TOLERANCE = 1e-12


# ------------------------------------------------------------------ calls
@dataclass(frozen=True)
class Calling:
    """A Case.call: the first student function on deep copies of args and kwargs, its result as plain data;
    it knows its inputs, which a Case shows with an « erreur » verdict."""

    args: tuple
    kwargs: dict

    def __call__(self, function: Callable, *others: Callable) -> Plain:
        return plain(function(*copy.deepcopy(self.args), **copy.deepcopy(self.kwargs)))

    @property
    def inputs(self) -> str:
        """The arguments, as a French text: « (0,5 ; [1 ; 2] ; budget = 200) »."""
        shown = [described(value) for value in self.args]
        shown += [f"{name} = {described(value)}" for name, value in self.kwargs.items()]
        return f"({' ; '.join(shown)})"


def calling(*args: Any, **kwargs: Any) -> Calling:
    """A Case.call: the first student function on deep copies of args and kwargs, its result as plain data."""
    return Calling(args, kwargs)


def described(value: Any, items: int = 6) -> str:
    """A short French text for an input of a case: numbers the French way, lists cut after `items` values,
    grids and tables by their size."""
    if isinstance(value, SudokuGrid):
        return f"une grille {value.size} × {value.size}"
    if isinstance(value, np.ndarray) and (value.ndim > 1 or value.size > items):
        return f"un tableau de forme {' × '.join(map(str, value.shape))}"
    if isinstance(value, (np.ndarray, list, tuple, range)):
        values = list(np.asarray(value).tolist() if isinstance(value, np.ndarray) else value)
        more = " ; …" if len(values) > items else ""
        return "[" + " ; ".join(described(item, items) for item in values[:items]) + more + "]"
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, float, np.number)):
        return french(value)
    if isinstance(value, str):
        return f"« {value} »"
    return type(value).__name__


def case_rng(seed: int | None, salt: int) -> np.random.Generator:
    """The generator that draws one exercise's cases: fixed for the public cases (seed None), else from the seed.

    `salt` tells the exercises of a lesson apart, so that two of them never draw the same cases.
    """
    return np.random.default_rng(salt if seed is None else [salt, seed])


# ------------------------------------------------------------ probes
def as_data(value: Any) -> Plain:
    """An input of a call as plain data, to compare what a call left of it with what it was: a grid's
    cells and givens, a pandas table's labels and values, anything else as `plain` gives it.

    A call returns its inputs as they are after the student's function ran (`as_data` of its copies); the
    judge, in the grader's process, compares them with `as_data` of its own inputs (`unchanged`). So a
    student's code cannot make its sandbox say « unchanged » (by patching numpy, for example). No method of
    the input itself is called: a grid's attributes are read from the object (`plain` converts them), a
    table is read by pandas' own methods, and a grid or a table whose class the call changed is not plain
    data.
    """
    if isinstance(value, SudokuGrid):
        fields = object.__getattribute__(_exactly(value, SudokuGrid), "__dict__")
        return {"cells": plain(fields["cells"]), "givens": plain(fields["givens"])}
    pandas = sys.modules.get("pandas")  # a pandas table, without importing pandas
    if pandas is not None and isinstance(value, pandas.DataFrame):
        frame = _exactly(value, pandas.DataFrame)
        labels = [frame.index, frame.columns]
        if not all(type(axis).__module__.partition(".")[0] == "pandas" for axis in labels):  # pandas' own classes
            raise NotPlainError("not plain data: a table's labels of another class than pandas' own")
        index, columns = (plain(pandas.Index.to_numpy(axis)) for axis in labels)
        return {"index": index, "columns": columns, "values": plain(pandas.DataFrame.to_numpy(frame))}
    return plain(value)


def _exactly(value: Any, kind: type) -> Any:
    """`value`, whose class must be exactly `kind` (a call may not change the class of an input, nor put an
    object of its own in it): then only `kind`'s own methods and attributes are used. NotPlainError otherwise."""
    if type(value) is not kind:
        raise NotPlainError(f"not plain data: {type(value).__name__} in place of {kind.__name__}")
    return value


def inputs_after(*copies: Any) -> Plain:
    """What a call returns of its copies of the inputs once the student's function ran, for `unchanged`."""
    return [as_data(value) for value in copies]


def unchanged(after: Plain, *inputs: Any) -> bool:
    """True if `after` (the call's `inputs_after` of its copies of the inputs) is `as_data` of `inputs`."""
    return after == inputs_after(*inputs)


def seed_global_generators(seed: int) -> None:
    """Seed numpy's and Python's global generators.

    A case that runs a student's function twice with the same generator, the global generators seeded
    differently before each run, sees from the two outputs alone whether the function draws only from the
    generator it is given.
    """
    np.random.seed(seed)
    random.seed(seed)


def box_of(row: int, col: int, box_size: int) -> int:
    """The number of the box holding (row, col), boxes numbered row by row (the grid's own layout)."""
    return layout(box_size).box_of(row, col)


# ------------------------------------------------------------ comparisons
def close(output: Plain, reference: Plain) -> bool:
    """True if output equals reference, numbers compared up to rounding errors (lists and dicts element-wise)."""
    if isinstance(reference, bool) or isinstance(output, bool):
        return output is reference
    if isinstance(reference, (int, float)) and isinstance(output, (int, float)):
        return math.isclose(output, reference, rel_tol=RELATIVE_TOLERANCE, abs_tol=ABSOLUTE_TOLERANCE)
    if isinstance(reference, list) and isinstance(output, list):
        return len(output) == len(reference) and all(map(close, output, reference))
    if isinstance(reference, dict) and isinstance(output, dict):
        return output.keys() == reference.keys() and all(close(output[key], reference[key]) for key in reference)
    return output == reference


def normal_word(word: str) -> str:
    """`word` without accents, in lower case, without surrounding spaces: « Linéaire » -> « lineaire »."""
    decomposed = unicodedata.normalize("NFKD", word.strip().casefold())
    return "".join(character for character in decomposed if not unicodedata.combining(character))


def same_word(output: Plain, reference: Plain) -> bool:
    """True if output is a string that is the word `reference`, accents, case and surrounding spaces aside."""
    return isinstance(output, str) and normal_word(output) == normal_word(reference)


# ----------------------------------------------------------------- judges
def french(value: float) -> str:
    """A number written for a French sentence: 0.5 -> « 0,5 »."""
    return f"{value:g}".replace(".", ",")


def kind_of(output: Plain) -> str:
    """The French name of the type of a plain output, for a verdict."""
    names = {bool: "un booléen", int: "un entier", float: "un nombre décimal", str: "un texte", list: "une liste"}
    return names.get(type(output), "rien (None)" if output is None else "un dictionnaire")


def boolean(output: Plain) -> str | None:
    """Judge: the output must be True or False."""
    return None if isinstance(output, bool) else f"la fonction doit renvoyer True ou False, pas {kind_of(output)}"


def integer(output: Plain) -> str | None:
    """Judge: the output must be an integer (not a boolean)."""
    if isinstance(output, int) and not isinstance(output, bool):
        return None
    return f"la fonction doit renvoyer un entier, pas {kind_of(output)}"


def is_number(output: Plain) -> bool:
    """True for an int or a float (not a boolean)."""
    return isinstance(output, (int, float)) and not isinstance(output, bool)


def number(output: Plain) -> str | None:
    """Judge: the output must be a number."""
    return None if is_number(output) else f"la fonction doit renvoyer un nombre, pas {kind_of(output)}"


def numbers(length: int | None = None) -> Callable[[Plain], str | None]:
    """Judge: the output must be a list of numbers (of `length` numbers when given)."""

    def judge(output: Plain) -> str | None:
        if not isinstance(output, list) or not all(map(is_number, output)):
            return f"la fonction doit renvoyer une liste de nombres, pas {kind_of(output)}"
        if length is not None and len(output) != length:
            return f"la liste renvoyée a {len(output)} élément(s) au lieu de {length} (un par entrée)"
        return None

    return judge


# ---------------------------------------------------------------- puzzles
def temoin() -> SudokuGrid:
    """The témoin puzzle of the course."""
    return SudokuGrid.from_string(TEMOIN)


def temoin_solution() -> SudokuGrid:
    """The solution of the témoin, with the témoin's givens."""
    return SudokuGrid(SudokuGrid.from_string(TEMOIN_SOLUTION).cells, 3, temoin().givens)


def shuffled_solution(rng: np.random.Generator) -> SudokuGrid:
    """Another solved 9 x 9 grid drawn from the témoin's solution (digits relabelled, rows and columns permuted
    within bands and stacks, bands and stacks permuted), with the témoin's givens moved along."""
    cells, givens = temoin_solution().cells, temoin().givens
    digits = np.concatenate([[0], rng.permutation(9) + 1])
    rows = np.concatenate([band * 3 + rng.permutation(3) for band in rng.permutation(3)])
    columns = np.concatenate([stack * 3 + rng.permutation(3) for stack in rng.permutation(3)])
    return SudokuGrid(digits[cells][np.ix_(rows, columns)], 3, givens[np.ix_(rows, columns)])


def row_permuted_state(puzzle: SudokuGrid, rng: np.random.Generator) -> np.ndarray:
    """A full grid of `puzzle` whose rows hold a random permutation of their missing digits."""
    cells = puzzle.cells.copy()
    for row in range(puzzle.size):
        free = np.flatnonzero(~puzzle.givens[row])
        missing = sorted(set(range(1, puzzle.size + 1)) - set(cells[row].tolist()))
        cells[row, free] = rng.permutation(missing)
    return cells
