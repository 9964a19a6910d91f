"""Reading a submission without running it: code cells, the definitions kept, value cells, answers used, files."""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from sudoku_course.teaching.exercises import Exercise, exercise, lesson_exercises, load_all, plain
from sudoku_course.teaching.exercises.common import calling
from sudoku_course.teaching.grading.program import CodeCell, as_python, definitions, value_cells
from sudoku_course.teaching.grading.reading import (
    MAX_NOTEBOOK_BYTES,
    Rejected,
    Student,
    Unreadable,
    find_students,
    notebook_cells,
    read_submission,
    student_labels,
)
from sudoku_course.teaching.grading.scan import Findings, Scan, answers_used, dynamic_code, resolve_dotted

SOLUTIONS = Path(__file__).parent.parent / "solutions"


def cells_of(*sources: str, tags: dict[int, list[str]] | None = None) -> list[CodeCell]:
    tags = tags or {}
    return [CodeCell(i, f"c{i}", tuple(tags.get(i, ())), source) for i, source in enumerate(sources)]


def kept(cells: list[CodeCell]) -> list[str]:
    return [type(chunk.statement).__name__ for chunk in definitions(cells)]


# ------------------------------------------------------------ definitions
def test_only_parameters_imports_definitions_and_literal_constants_are_kept():
    cells = cells_of(
        "SEED = 3\nBUDGET = 2 * SEED\nprint('parameters run whole')",
        "import numpy as np\nfrom math import sqrt\nT0, ALPHA = 2.0, 0.97\nNAMES: tuple = ('a', 'b')",
        "def f(x):\n    return x\n\nclass A:\n    pass\n\nresult = f(3)\nprint(result)\nf(4)",
        "rows = run_the_experiment()\nfor row in rows:\n    print(row)",
        "from sudoku_course.teaching.checks import check\n\ncheck('box_index', f)",
        tags={0: ["parameters"], 4: ["check"]},
    )
    assert kept(cells) == ["Assign", "Assign", "Expr", "Import", "ImportFrom", "Assign", "AnnAssign"] + [
        "FunctionDef",
        "ClassDef",
    ]
    chunk = definitions(cells)[-2]
    assert chunk.where == "cellule 3, ligne 1"


def test_ipython_syntax_is_translated_and_a_broken_cell_is_skipped():
    cells = cells_of("%matplotlib inline\n!ls\ndef f():\n    return 1", "def g(:\n    pass", "def h():\n    return 2")
    python, notes = as_python(cells)
    assert [getattr(chunk.statement, "name", None) for chunk in definitions(python)] == ["f", "h"]
    assert notes == ["la cellule 2 n'est pas du Python valide : ses définitions sont ignorées"]


def test_annotations_are_never_evaluated_at_definition_time():
    (chunk,) = definitions(cells_of("def f(x: UndefinedType) -> AlsoUndefined:\n    return x"))
    namespace: dict = {}
    exec(chunk.code(), namespace)
    assert namespace["f"](5) == 5


def test_value_cells_by_id_or_by_the_names_they_assign():
    item = Exercise("value_demo", "99-demo", ("verdicts",), __name__, lambda seed: [], cells=("answer",))
    with_ids = [CodeCell(0, "x", (), "verdicts = 1"), CodeCell(1, "answer", (), "verdicts = [True]\nprint(verdicts)")]
    assert [cell.index for cell in value_cells(with_ids, item)] == [1]
    without_ids = [CodeCell(0, None, (), "x = 1"), CodeCell(1, None, (), "verdicts = [v for v in range(3)]")]
    assert [cell.index for cell in value_cells(without_ids, item)] == [1]
    assert value_cells(with_ids, exercise("box_index")) == []


# ------------------------------------------------------------ answers used
BOX = exercise("box_index")
VALID = exercise("is_valid_solution")


@pytest.mark.parametrize(
    ("item", "sources", "expected"),
    [
        (
            VALID,
            ["def is_valid_solution(grid, puzzle=None):\n    return grid.is_solved()"],
            ["sudoku_course.grid.SudokuGrid.is_solved"],
        ),
        (
            BOX,
            ["from sudoku_course.grid import layout", "def box_index(r, c, b=3):\n    return layout(b).box_of(r, c)"],
            ["sudoku_course.grid.Layout.box_of"],
        ),
        (
            BOX,
            ["from sudoku_course.teaching.exercises.lesson00.references import box_index"],
            ["sudoku_course.teaching.exercises"],
        ),
        (
            BOX,
            [
                "import sudoku_course.teaching.exercises.lesson00.references as ref",
                "def box_index(r, c, b=3):\n    return ref.box_index(r, c, b)",
            ],
            ["sudoku_course.teaching.exercises"],
        ),
        (
            BOX,
            [
                "from sudoku_course.teaching.checks import *",
                "def box_index(r, c, b=3):\n    return exercise('box_index')",
            ],
            ["sudoku_course.teaching.checks", "sudoku_course.teaching.exercises"],
        ),
        (
            BOX,
            [
                "import importlib",
                "def helper(r, c, b):\n"
                "    m = importlib.import_module('sudoku_course.teaching.exercises.lesson00.references')\n"
                "    return m.box_index(r, c, b)",
                "def box_index(r, c, b=3):\n    return helper(r, c, b)",
            ],
            ["sudoku_course.teaching.exercises"],
        ),
        (
            BOX,
            [
                "import sudoku_course, pathlib",
                "def box_index(r, c, b=3):\n    folder = pathlib.Path(sudoku_course.__file__).parent\n"
                "    exec((folder / 'teaching/exercises/lesson00/references.py').read_text(), space := {})\n"
                "    return space['box_index'](r, c, b)",
            ],
            ["sudoku_course.teaching.exercises"],
        ),
        (
            BOX,
            [
                "def box_index(row, col, box_size=3):\n    return (row // box_size) * box_size + col // box_size",
                "from sudoku_course.teaching.exercises.lesson00.references import *",
            ],
            ["sudoku_course.teaching.exercises"],
        ),
        (
            exercise("partial_energy"),
            ["def partial_energy(grid):\n    from sudoku_course.cost import givens_conflicts as g\n    return g(grid)"],
            ["sudoku_course.cost.givens_conflicts"],
        ),
        (
            exercise("linear_cooling"),
            [
                "import numpy as np",
                "def linear_cooling(t0, t_min, steps):\n    return list(np.linspace(t0, t_min, steps))",
            ],
            ["numpy.linspace"],
        ),
        (
            BOX,
            [
                "import numpy as np\nfrom sudoku_course.grid import SudokuGrid",
                "def box_index(row, col, box_size=3):\n    return (row // box_size) * box_size + col // box_size",
                "def unrelated(grid):\n    return grid.is_solved()",
            ],
            [],
        ),
    ],
)
def test_answers_used_by_the_exercise_code(item, sources, expected):
    assert answers_used(cells_of(*sources), item) == expected


def test_every_answer_the_registry_lists_names_an_object_of_the_package_or_numpy():
    for item in load_all().values():
        assert all(resolve_dotted(name) is not None for name in item.answers), item.name


def test_the_solutions_use_no_answer_and_no_dynamic_code():
    for path in sorted(SOLUTIONS.glob("0*.ipynb")):
        scan = Scan(notebook_cells(path.read_bytes()))
        for item in lesson_exercises(path.stem):
            assert scan.findings(item) == Findings(), (path.name, item.name)


REEXPORT = """import math
from sudoku_course.crossstudy import unit_conflicts{alias}
from sudoku_course.grid import SudokuGrid
def weighted_fitness(cells, w_row=1.0, w_col=1.0, w_box=1.0):
    counts = {name}(SudokuGrid(cells, math.isqrt(cells.shape[0])))
    return w_row * counts["rows"] + w_col * counts["columns"] + w_box * counts["boxes"]"""


@pytest.mark.parametrize(
    ("name", "sources", "expected"),
    [
        ("weighted_fitness", [REEXPORT.format(alias="", name="unit_conflicts")], "sudoku_course.cost.unit_conflicts"),
        (
            "weighted_fitness",
            [REEXPORT.format(alias=" as per_kind", name="per_kind")],
            "sudoku_course.cost.unit_conflicts",
        ),
        (
            "linear_cooling",
            [
                "from numpy._core.function_base import linspace as spaced",
                "def linear_cooling(t0, t_min, steps):\n    return spaced(t0, t_min, steps).tolist()",
            ],
            "numpy.linspace",
        ),
        (
            "partial_energy",
            [
                "import sudoku_course.cost as cost_module\nENERGY = cost_module.givens_conflicts",
                "def partial_energy(grid):\n    return ENERGY(grid)",
            ],
            "sudoku_course.cost.givens_conflicts",
        ),
        (
            "partial_energy",
            ["import sudoku_course\ndef partial_energy(grid):\n    return sudoku_course.cost.givens_conflicts(grid)"],
            "sudoku_course.cost.givens_conflicts",
        ),
    ],
)
def test_answers_are_found_by_identity_whatever_the_path(name, sources, expected):
    cells = cells_of(*sources, tags={0: ["parameters"]})
    assert expected in answers_used(cells, exercise(name))


@pytest.mark.parametrize(
    ("name", "source", "token"),
    [
        (
            "partial_energy",
            "def partial_energy(grid):\n    namespace = {}\n"
            "    exec('from sudoku_course.cost import givens_conflicts as answer', namespace)\n"
            "    return namespace['answer'](grid)",
            "exec",
        ),
        (
            "partial_energy",
            "import importlib\ndef partial_energy(grid):\n"
            "    return importlib.import_module('sudoku_course.cost').givens_conflicts(grid)",
            "importlib",
        ),
        (
            "is_valid_solution",
            "def is_valid_solution(grid, puzzle=None):\n    return getattr(grid, '_'.join(['is', 'solved']))()",
            "getattr (nom calculé)",
        ),
        (
            "is_valid_solution",
            "import sys\n_PATTERN = [True]\ndef is_valid_solution(grid, puzzle=None):\n"
            "    frame = sys._getframe(1)\n    while frame.f_code.co_name != 'call_case':\n"
            "        frame = frame.f_back\n    return _PATTERN[frame.f_locals['index']]",
            "_getframe",
        ),
        (
            "box_index",
            "import sys\ndef _reference_of(name):\n    for module in list(sys.modules.values()):\n"
            "        registry = getattr(module, 'REGISTRY', None)\n        if isinstance(registry, dict):\n"
            "            for item in registry.values():\n                return item.references[0]\n"
            "def _delegate(function):\n    def wrapper(*args, **kwargs):\n"
            "        return _reference_of(function.__name__)(*args, **kwargs)\n    return wrapper\n"
            "@_delegate\ndef box_index(*args, **kwargs):\n    pass",
            "modules",
        ),
        ("box_index", "from sys import modules\ndef box_index(r, c, b=3):\n    return len(modules)", "modules"),
        (
            "box_index",
            "import gc\nclass _Leak:\n    found = gc.get_objects()\ndef box_index(r, c, b=3):\n    return 0",
            "gc",
        ),
        ("box_index", "import ctypes as ct\ndef box_index(r, c, b=3):\n    return ct.sizeof(ct.c_int)", "ctypes"),
        ("box_index", "def box_index(r, c, b=3):\n    return box_index.__globals__['x']", "__globals__"),
        (
            "box_index",
            "def box_index(r, c, b=3):\n    try:\n        1 / 0\n    except Exception as e:\n"
            "        return e.__traceback__.tb_frame",
            "tb_frame",
        ),
    ],
)
def test_dynamic_code_in_exercise_code_is_flagged(name, source, token):
    assert token in dynamic_code(cells_of(source), exercise(name))


def test_dynamic_code_in_the_parameters_cell_flags_every_exercise_but_unrelated_functions_do_not():
    parameters = "N_PUZZLES = 5\nimport os\nfor _ in range(3):\n    eval('1')"
    exercise_code = "def box_index(r, c, b=3):\n    return (r // b) * b + c // b"
    unrelated = "def plot(grid, name):\n    return getattr(grid, name)"
    cells = cells_of(parameters, exercise_code, unrelated, tags={0: ["parameters"]})
    assert dynamic_code(cells, BOX) == ["eval"]
    assert dynamic_code(cells[1:], BOX) == []


def test_the_scan_is_linear_and_bounded(monkeypatch):
    from sudoku_course.teaching.grading import scan as scanning

    def bomb(aliases: int) -> list[CodeCell]:
        imports = ", ".join(f"os as n{i}" for i in range(aliases))
        body = " + ".join(f"len(n{i}.sep)" for i in range(aliases))
        return cells_of(f"import {imports}", f"def box_index(r, c, b=3):\n    return {body}")

    def work(aliases: int) -> int:  # syntax nodes read: counted, not timed (the machine is noisy)
        spent = []
        original = scanning._Budget.spend
        monkeypatch.setattr(scanning._Budget, "spend", lambda budget: (spent.append(1), original(budget))[1])
        Scan(bomb(aliases)).findings(BOX)
        monkeypatch.setattr(scanning._Budget, "spend", original)
        return len(spent)

    small, large = work(1000), work(4000)
    assert small >= 1000 and large <= 4.5 * small  # four times the code, about four times the work
    monkeypatch.setattr(scanning, "MAX_NODES", 5000)
    assert Scan(bomb(2000)).findings(BOX).dynamic == [scanning.TOO_LARGE]


# ------------------------------------------------------------ reading files
def demo_notebook() -> nbformat.NotebookNode:
    return new_notebook(
        cells=[new_markdown_cell("# titre"), new_code_cell("x = 1"), new_code_cell("def f():\n    pass")]
    )


def test_every_nbformat_version_is_read_by_position():
    modern = demo_notebook()
    old = nbformat.from_dict(json.loads(nbformat.writes(modern)))
    old.nbformat_minor = 4
    for cell in old.cells:
        del cell["id"]
    v3 = nbformat.writes(nbformat.convert(modern, 3), version=3)
    for text in (nbformat.writes(modern), json.dumps(old), v3):
        cells = notebook_cells(text.encode())
        assert [(cell.index, cell.source) for cell in cells] == [(1, "x = 1"), (2, "def f():\n    pass")]


@pytest.mark.parametrize("content", [b'{"cells": [', b"\xff\xfe", b"[]", b"[" * 100_000 + b"]" * 100_000])
def test_a_file_that_is_not_a_notebook_is_unreadable(content):
    with pytest.raises(Unreadable):
        notebook_cells(content)


def test_links_folders_and_huge_files_are_rejected_and_unknown_names_reported(tmp_path):
    root, outside = tmp_path / "rendus", tmp_path / "solutions"
    outside.mkdir()
    (outside / "00-demo.ipynb").write_text(nbformat.writes(demo_notebook()), encoding="utf-8")
    for name in ("linked", "hard", "folder", "huge", "good"):
        (root / name).mkdir(parents=True)
    (root / "linked" / "00-demo.ipynb").symlink_to(outside / "00-demo.ipynb")
    os.link(outside / "00-demo.ipynb", root / "hard" / "00-demo.ipynb")
    (root / "folder" / "00-demo.ipynb").mkdir()
    (root / "huge" / "00-demo.ipynb").write_bytes(b" " * (MAX_NOTEBOOK_BYTES + 1))
    (root / "good" / "00-demo.ipynb").write_text(nbformat.writes(demo_notebook()), encoding="utf-8")
    (root / "good" / "00-dmeo.ipynb").write_text("{}", encoding="utf-8")
    (root / "good" / ".ipynb_checkpoints").mkdir()
    (root / "everything").symlink_to(outside, target_is_directory=True)
    (root / "notes.txt").write_text("not a student", encoding="utf-8")
    (root / ".git").mkdir()

    students, skipped = find_students(root, ["00-demo"])
    assert skipped == {
        ".git": "a hidden entry (its name starts with a dot), not a student folder",
        "notes.txt": f"not a folder (expected {root}/<student>/<NN-name>.ipynb)",
    }
    by_name = {student.name: student for student in students}
    assert sorted(by_name) == ["everything", "folder", "good", "hard", "huge", "linked"]
    assert by_name["good"].unknown == ["00-dmeo.ipynb"]
    assert len(read_submission(by_name["good"], "00-demo")) == 2
    reasons = {}
    for name in ("everything", "linked", "hard", "folder", "huge"):
        with pytest.raises(Rejected) as error:
            read_submission(by_name[name], "00-demo")
        reasons[name] = str(error.value)
    assert reasons == {
        "everything": "the folder is a symbolic link",
        "linked": "a symbolic link",
        "hard": "a hard link to another file",
        "folder": "not a regular file",
        "huge": "larger than 20 MB",
    }


def test_case_calls_used_by_the_runner_return_plain_data():
    assert calling(2, 3)(lambda a, b: (a, b)) == [2, 3]


# ------------------------------------------------------------ the runner, in this process
def test_the_runner_runs_definitions_value_cells_then_cases(monkeypatch, tmp_path):
    from sudoku_course.teaching.exercises import REGISTRY, Case, plain
    from sudoku_course.teaching.grading.runner import serve

    item = Exercise(
        "value_demo",
        "99-demo",
        ("total", "double"),
        __name__,
        lambda seed: [Case("la somme, doublée", lambda total, double: plain(double(total)))],
        cells=("answer",),
    )
    monkeypatch.setitem(REGISTRY, item.name, item)
    cells = [
        CodeCell(0, "parameters", ("parameters",), "N = 5"),
        CodeCell(1, "answer", (), "total = sum(range(N))\nprint(total)"),
        CodeCell(2, "exercise", (), "def double(x):\n    return 2 * x\n\ndouble(1 / 0)"),
        CodeCell(3, "broken", (), "def missing(:"),
    ]
    (tmp_path / "cells.json").write_text(json.dumps([c.as_dict() for c in cells]), encoding="utf-8")
    steps = [["setup"], ["chunk", 0], ["chunk", 1], ["cells", "value_demo"], ["case", "value_demo", 0, 5]]
    steps.append(["case", "box_index", 0, 5])

    reading, writing = os.pipe()
    if os.fork() == 0:  # the runner empties the registry of its process: a child's, not this one's
        os.close(reading)
        try:
            lessons = ["sudoku_course.teaching.exercises.lesson00"]
            request = {"cells": str(tmp_path / "cells.json"), "seed": None, "lessons": lessons, "steps": steps}
            serve(request, partial(os.write, writing))
        finally:
            os._exit(0)
    os.close(writing)
    with os.fdopen(reading, "rb") as channel:
        lines = channel.read().splitlines()
    answers = [json.loads(line) for line in lines]
    assert [answer["step"] for answer in answers] == list(range(len(steps)))
    assert answers[4] == {"step": 4, "kind": "value", "value": 20}
    assert answers[5]["kind"] == "error" and answers[5]["error"] == "MissingDefinition"
    assert answers[5]["message"] == "box_index"


WITHOUT_REFERENCES = """
import json, sys
class NoReferences:
    def find_spec(self, name, path=None, target=None):
        if name.endswith(".references"):
            raise ModuleNotFoundError(name)
sys.meta_path.insert(0, NoReferences())
from sudoku_course.teaching.exercises import load_all
prepared = json.loads(sys.argv[1])
for seed in (None, 7):
    for item in load_all().values():
        cases = item.cases(seed, prepared[str(seed)].get(item.name))
        assert cases and all(case.label for case in cases), item.name
print(sorted(name for name in sys.modules if "references" in name))
"""


def test_every_exercise_builds_its_cases_where_no_reference_can_be_imported():
    """As the runner does in the sandbox, whose copy of the package holds no reference: the data that only a
    reference makes (`Exercise.prepare`) comes from here, as the grader sends it."""
    import subprocess
    import sys

    items = [item for item in load_all().values() if item.prepare]
    prepared = {str(seed): {item.name: item.prepared(seed) for item in items} for seed in (None, 7)}
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_REFERENCES, json.dumps(prepared)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]" and items


def test_hidden_cases_come_in_an_order_shuffled_by_the_seed_and_the_same_one_again():
    item = exercise("is_valid_solution")
    assert [case.label for case in item.cases(None)] == [case.label for case in item.make_cases(None)]
    drawn = {seed: [case.label for case in item.cases(seed)] for seed in range(1, 9)}
    assert all(sorted(labels) == sorted(case.label for case in item.make_cases(seed)) for seed, labels in drawn.items())
    assert any(labels != [case.label for case in item.make_cases(seed)] for seed, labels in drawn.items())
    assert drawn == {seed: [case.label for case in item.cases(seed)] for seed in range(1, 9)}
    # a table of answers by position (the same for every student before) now fits few of them
    patterns = {seed: [case.call(*item.references)["answer"] for case in item.cases(seed)] for seed in range(1, 9)}
    assert len({tuple(pattern) for pattern in patterns.values()}) > 4


def test_inputs_kept_are_judged_from_the_data_returned_not_from_a_flag_computed_by_the_students_code():
    import numpy as np

    from sudoku_course.teaching.checks import evaluate

    def keep_lie(grid, puzzle=None):
        answer = grid.is_solved() and (puzzle is None or bool((grid.cells == puzzle.cells)[puzzle.givens].all()))
        grid.cells[:] = 0  # destroys the grid it was given...
        np.array_equal = lambda *args, **kwargs: True  # ... and makes « grids kept » look true in its process
        return answer

    report = evaluate(exercise("is_valid_solution"), [keep_lie], seed=5)  # run in a forked child
    assert report.passed == 0
    assert {detail.detail for detail in report.details} == {
        "une grille reçue a été modifiée : une vérification ne doit rien changer"
    }


def test_folders_shown_alike_get_labels_of_their_own_and_a_warning():
    names = ["alice", "caf\\xe9", os.fsdecode(b"caf\xe9"), "caf\\xe9 (2)"]
    labels, warnings = student_labels([Student(name, Path(name)) for name in names])
    assert labels == {
        "alice": "alice",
        "caf\\xe9": "caf\\xe9",
        os.fsdecode(b"caf\xe9"): "caf\\xe9 (2)",
        "caf\\xe9 (2)": "caf\\xe9 (2) (2)",
    }
    assert len(set(labels.values())) == len(names) and len(warnings) == 2


# ------------------------------------------------------------ every parse of student text bounded
ECHO_CELL = "\n".join(f"x{k} = !echo {'a' * 330}" for k in range(490))


@pytest.mark.parametrize("source", [ECHO_CELL, "\n".join(["%pwd"] * 600)])
def test_a_cell_too_costly_to_translate_is_left_unread_without_calling_ipython(monkeypatch, source):
    from sudoku_course.teaching.grading import program

    translated = []
    monkeypatch.setattr(program, "_translated", translated.append)
    cells = cells_of("def f():\n    return 1", source, "%matplotlib inline\ndef g():\n    return 2")
    python, notes = as_python(cells)
    assert translated == [cells[2].source]  # the cheap cell only
    assert notes[0] == (
        "la cellule 2 n'est pas lue (trop de syntaxe IPython, % ou !, dans le notebook) : ses définitions sont ignorées"
    )


def test_an_error_of_ipythons_translation_is_a_note_not_a_crash(monkeypatch):
    from IPython.core import inputtransformer2

    monkeypatch.setattr(inputtransformer2, "TRANSFORM_LOOP_LIMIT", 3)  # 500 in IPython: then RuntimeError
    python, notes = as_python(cells_of("\n".join(["%pwd"] * 5) + "\ndef f():\n    return 1"))
    assert notes == ["la cellule 1 n'est pas du Python valide : ses définitions sont ignorées"]
    assert definitions(python) == []


def test_the_runner_receives_the_cells_in_python():
    python, _ = as_python(cells_of("%matplotlib inline\nx = !ls\ndef f():\n    return 1"))
    assert "get_ipython()" in python[0].source and "%" not in python[0].source
    assert [chunk.statement.name for chunk in definitions(python)] == ["f"]


# ------------------------------------------------------------ the answers scan, closed on every route
BOX_BY_LAYOUT = "layout(box_size).box_of(row, col)"
ROUTES = {
    "if": (
        "if True:\n    from sudoku_course.grid import layout\n"
        f"    def box_index(row, col, box_size=3):\n        return {BOX_BY_LAYOUT}",
        "",
    ),
    "with": (
        "import contextlib\nwith contextlib.suppress(Exception):\n    from sudoku_course.grid import layout\n"
        f"    box_index = lambda row, col, box_size=3: {BOX_BY_LAYOUT}",
        "",
    ),
    "try": (
        "try:\n    from sudoku_course.grid import layout\nexcept ImportError:\n    pass\n"
        f"else:\n    def box_index(row, col, box_size=3):\n        return {BOX_BY_LAYOUT}",
        "",
    ),
    "for": (
        "for _ in range(1):\n    from sudoku_course.grid import layout\n"
        f"    def box_index(row, col, box_size=3):\n        return {BOX_BY_LAYOUT}",
        "",
    ),
    "walrus": (
        "N = 1",
        "from sudoku_course.grid import layout\n"
        f"def unrelated(_=(box_index := lambda row, col, box_size=3: {BOX_BY_LAYOUT})):\n    pass",
    ),
    "decorator": (
        "N = 1",
        "from sudoku_course.grid import layout\ndef install(function):\n    global box_index\n"
        f"    def box_index(row, col, box_size=3):\n        return {BOX_BY_LAYOUT}\n    return function\n"
        "@install\ndef unrelated():\n    pass",
    ),
    "class body": (
        "N = 1",
        "from sudoku_course.grid import layout\nclass Holder:\n    global box_index\n"
        f"    def box_index(row, col, box_size=3):\n        return {BOX_BY_LAYOUT}",
    ),
    "nested": (
        "N = 1",
        "from sudoku_course.grid import layout\ndef outer():\n    def inner():\n"
        f"        global box_index\n        box_index = lambda row, col, box_size=3: {BOX_BY_LAYOUT}\n"
        "    inner()\ndef unrelated(_=outer()):\n    pass",
    ),
    "nonlocal": (
        "N = 1",
        "from sudoku_course.grid import layout\ndef outer():\n    box_index = None\n"
        "    def inner():\n        nonlocal box_index\n"
        f"        box_index = lambda row, col, box_size=3: {BOX_BY_LAYOUT}\n    inner()",
    ),
    "runpy": (
        "N = 1",
        "import runpy\ndef box_index(row, col, box_size=3):\n"
        "    return runpy.run_module('sudoku_course.grid')['layout'](box_size).box_of(row, col)",
    ),
    "pkgutil": (
        "N = 1",
        "from pkgutil import resolve_name\ndef box_index(row, col, box_size=3):\n"
        "    return resolve_name('sudoku_course.grid:lay' + 'out')(box_size).box_of(row, col)",
    ),
    "pickle": (
        "N = 1",
        "import pickle as p\ndef box_index(row, col, box_size=3):\n"
        "    return p.loads(b'csudoku_course.grid\\nlay' + b'out\\n.')(box_size).box_of(row, col)",
    ),
    "marshal": ("N = 1", "import marshal\ndef box_index(row, col, box_size=3):\n    return marshal.loads(b'')"),
    "copyreg": (
        "N = 1",
        "from copyreg import _reconstructor\ndef box_index(row, col, box_size=3):\n    return _reconstructor",
    ),
    "builtins subscript": (
        "N = 1",
        "def box_index(row, col, box_size=3):\n    return __builtins__['ev' + 'al']('row + col')",
    ),
    "getattr renamed": (
        "fetch = getattr",
        "import sudoku_course.grid as grid\ndef box_index(row, col, box_size=3):\n"
        "    return fetch(fetch(grid, 'lay' + 'out')(box_size), 'box' + '_of')(row, col)",
    ),
    "getattr passed": (
        "N = 1",
        "import functools, sudoku_course.grid as grid\ndef box_index(row, col, box_size=3):\n"
        "    return functools.partial(getattr, grid)('lay' + 'out')(box_size).box_of(row, col)",
    ),
    "getattribute": (
        "N = 1",
        "import sudoku_course.grid as grid\ndef box_index(row, col, box_size=3):\n"
        "    return object.__getattribute__(grid, 'lay' + 'out')(box_size).box_of(row, col)",
    ),
}


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_every_route_to_an_answer_or_to_hidden_code_is_found(route):
    parameters, code = ROUTES[route]
    cells = cells_of(parameters, code, tags={0: ["parameters"]})
    found = Scan(cells).findings(BOX)
    assert found.answers or found.dynamic, route


def test_names_bound_in_an_unrelated_function_do_not_pull_its_code_in():
    cells = cells_of(
        "import numpy as np\ndef plot(name):\n    box_index = 0\n    return getattr(np, name)",
        "def box_index(row, col, box_size=3):\n    return (row // box_size) * box_size + col // box_size",
    )
    assert Scan(cells).findings(BOX) == Findings()


# ------------------------------------------------------------ plain data, by the base types' own methods
class LyingArray(np.ndarray):
    def tolist(self):
        return [[1, 2], [3, 4]]

    def __iter__(self):
        return iter([[1, 2], [3, 4]])


class LyingList(list):
    def __iter__(self):
        return iter([1, 2, 3])


class LyingDict(dict):
    def items(self):
        return [("a", 1)]


class LyingInt(np.int64):
    def __int__(self):
        return 7

    __index__ = __int__

    def item(self):
        return 7


def test_plain_data_never_calls_a_method_of_the_object():
    assert plain(np.zeros((2, 2), dtype=int).view(LyingArray)) == [[0, 0], [0, 0]]
    assert plain(LyingList([9])) == [9]
    assert plain(LyingDict(b=2)) == {"b": 2}
    assert plain(LyingInt(3)) == 3 and type(plain(LyingInt(3))) is int
    assert plain(np.array([np.float32(0.5), None], dtype=object)) == [0.5, None]


def test_an_input_whose_class_the_call_changed_is_not_plain_data():
    from sudoku_course.grid import SudokuGrid
    from sudoku_course.teaching.exercises import NotPlainError
    from sudoku_course.teaching.exercises.common import as_data, temoin

    class Kept(SudokuGrid):
        pass

    grid = temoin()
    assert as_data(grid)["cells"] == grid.cells.tolist()
    grid.cells = grid.cells.view(LyingArray)
    assert as_data(grid)["cells"] == temoin().cells.tolist()  # the values it holds, not what tolist says
    grid.__class__ = Kept
    with pytest.raises(NotPlainError):
        as_data(grid)


def test_a_function_that_zeroes_its_grid_behind_an_array_whose_tolist_lies_fails_every_case(not_strict):
    from sudoku_course.teaching.checks import evaluate

    class Kept(np.ndarray):
        def tolist(self):
            return self.before

    def keep_lie(grid, puzzle=None):
        answer = grid.is_solved() and (puzzle is None or bool((grid.cells == puzzle.cells)[puzzle.givens].all()))
        before = grid.cells.tolist()
        grid.cells[:] = 0
        grid.cells = grid.cells.view(Kept)
        grid.cells.before = before
        return answer

    report = evaluate(exercise("is_valid_solution"), [keep_lie], seed=5)
    assert report.passed == 0
