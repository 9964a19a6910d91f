"""Grading a class on lesson 00: honest, wrong, clumsy and hostile submissions in one sandboxed run.

Every attack of the grading issue is a student here. For each: no point that its code did not earn, no file
outside its scratch copy changed (checksums of the solutions, of every submission and of the package before
and after), and a row for everyone in grades.csv and gradebook.csv. The run needs bubblewrap: without it the
module is skipped on a developer's machine and fails under CI=true.
"""

from __future__ import annotations

import csv
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from conftest import leaked

from sudoku_course.teaching.authoring import exercise_notebook
from sudoku_course.teaching.checks import CheckReport, evaluate
from sudoku_course.teaching.exercises import exercise
from sudoku_course.teaching.grading import GradingError, GradingSettings, grade, main, student_seed
from sudoku_course.teaching.grading.sandbox import course_folder
from sudoku_course.teaching.notebooks import write_notebook

ROOT = Path(__file__).parent.parent
LESSON = "00-environnement"
SOLUTION = ROOT / "solutions" / f"{LESSON}.ipynb"
PACKAGE = ROOT / "sudoku_course"
SECRET = b"the secret of the test class"
SETTINGS = GradingSettings(time_factor=1.5, definition_limit=8, notebook_limit=120)

CAROL_BOX = '''def box_index(row, col, box_size=3):
    """Hard-codes boxes of 3."""
    return (row // 3) * 3 + col // 3'''
CAROL_VALID = '''def is_valid_solution(grid, puzzle=None):
    """Looks at the rows only."""
    return all(sorted(row) == list(range(1, grid.size + 1)) for row in grid.cells.tolist())'''


def carol_box(row, col, box_size=3):
    return (row // 3) * 3 + col // 3


def carol_valid(grid, puzzle=None):
    return all(sorted(row) == list(range(1, grid.size + 1)) for row in grid.cells.tolist())


def solution() -> nbformat.NotebookNode:
    return nbformat.read(SOLUTION, as_version=4)


def cell(nb: nbformat.NotebookNode, cell_id: str) -> nbformat.NotebookNode:
    return next(c for c in nb.cells if c.get("id") == cell_id)


def with_code(nb: nbformat.NotebookNode, **sources: str) -> nbformat.NotebookNode:
    """The notebook with the cells of these ids (exercise_1=..., with _ for -) given new sources."""
    for cell_id, source in sources.items():
        cell(nb, cell_id.replace("_", "-")).source = source
    return nb


def with_cell(nb: nbformat.NotebookNode, source: str) -> nbformat.NotebookNode:
    """The notebook with one more code cell, at the end."""
    nb.cells.append(nbformat.v4.new_code_cell(source))
    return nb


def without_ids(nb: nbformat.NotebookNode) -> dict:
    data = json.loads(nbformat.writes(nb))
    data["nbformat_minor"] = 4
    for c in data["cells"]:
        c.pop("id", None)
    return data


def hostile_sources(root: Path, outputs: Path) -> dict[str, dict[str, str]]:
    """The attacks, by student: sources of the imports cell and of the two exercise cells."""
    targets = [root / "solutions" / f"{LESSON}.ipynb", root / "rendus" / "alice" / f"{LESSON}.ipynb"]
    targets += [PACKAGE / "grid.py", outputs / "grades.csv"]
    escape = f"""import glob, os
TARGETS = {[str(t) for t in targets]!r}
PLANTED = {str(PACKAGE / "planted_by_a_student.py")!r}
def spoil(*args, **kwargs):
    for path in TARGETS + glob.glob("/proc/*/cwd/solutions/*.ipynb") + glob.glob("/proc/*/cwd/grades.csv"):
        for action in (lambda: open(path, "w").write("{{}}"), lambda: os.remove(path),
                       lambda: os.symlink("/etc/passwd", path), lambda: os.mkdir(path)):
            try:
                action()
            except Exception:
                pass
    try:
        open(PLANTED, "w").write("print('owned')")
    except Exception:
        pass
    if os.fork() == 0:  # a child that outlives the case, to try again later
        import time
        time.sleep(3)
        spoil()
        os._exit(0)
    return spoil
@spoil
def box_index(row, col, box_size=3, _=spoil()):
    spoil()
    return 0
class Spoiler:
    spoil()
def is_valid_solution(grid, puzzle=None):
    spoil()
    return None"""
    monkey = """import json
import sudoku_course.teaching.checks as checks
from sudoku_course.teaching.checks import CaseResult
def patch():
    checks.check = lambda *a, **k: print("box_index : bravo, les 8 cas sont réussis")
    checks.case_verdict = lambda case, *a: CaseResult(case.label, "réussi")
    checks.evaluate = lambda *a, **k: None
    getattr(checks, "_record", print)({"exercise": "box_index", "passed": 8, "total": 8})
    print(json.dumps({"exercise": "is_valid_solution", "passed": 10, "total": 10}))
def unrelated(_=patch()):
    pass
def box_index(row, col, box_size=3):
    patch()
    return -1
def is_valid_solution(grid, puzzle=None):
    return None"""
    key = '''import gc, glob, os
def box_index(row, col, box_size=3):
    found = [open(p, "rb").read() for p in glob.glob("/proc/*/environ") + glob.glob("/proc/*/cmdline")]
    found += [o for o in gc.get_objects() if isinstance(o, bytes) and len(o) == 64]
    for path in (os.path.expanduser("~/.config/sudoku-course/grading-secret"),):
        try:
            found.append(open(path, "rb").read())
        except OSError:
            pass
    return len(found) * 1000
def is_valid_solution(grid, puzzle=None):
    return "True"'''
    equal = """class AlwaysEqual:
    def __eq__(self, other):
        return True
    __hash__ = object.__hash__
class Word(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__
class Number(int):
    def __eq__(self, other):
        return True
    __hash__ = int.__hash__
def box_index(row, col, box_size=3):
    return Number(-1)
def is_valid_solution(grid, puzzle=None):
    return AlwaysEqual()"""
    answers = """from sudoku_course.grid import layout
from sudoku_course.teaching.exercises.lesson00.references import is_valid_solution
def box_index(row, col, box_size=3):
    return layout(box_size).box_of(row, col)"""
    loop = """import itertools, math
import numpy as np
from sudoku_course.grid import SudokuGrid
def helper(x=sum(itertools.count())):
    return x
def box_index(row: int, col: int, box_size: int = 3) -> int:
    if box_size == 2:
        return sum(itertools.count())  # a loop in C, holding the GIL
    return (row // box_size) * box_size + col // box_size"""
    memory = """import itertools
import numpy as np
@(lambda function: sum(itertools.count()))  # a decorator that never returns
def helper():
    pass
class Stuck:
    sum(itertools.count())  # nor does this class body
def is_valid_solution(grid, puzzle=None):
    if grid.size == 4:
        return bool(np.ones(1 << 34, dtype=np.uint8).any())  # 16 GB
    digits = set(range(1, grid.size + 1))
    if any({int(grid.cells[r, c]) for r, c in unit} != digits for unit in grid.units):
        return False
    return puzzle is None or bool(np.array_equal(grid.cells[puzzle.givens], puzzle.cells[puzzle.givens]))"""
    crash = """import os
def box_index(row, col, box_size=3):
    if box_size == 4:
        os._exit(0)
    return (row // box_size) * box_size + col // box_size"""
    registry = """import sys
def _reference_of(name):
    for module in list(sys.modules.values()):
        registry = getattr(module, "REGISTRY", None)
        if isinstance(registry, dict):
            for item in registry.values():
                functions = list(getattr(item, "functions", ()))
                if name in functions:
                    return item.references[functions.index(name)]
def _delegate(function):
    def wrapper(*args, **kwargs):
        return _reference_of(function.__name__)(*args, **kwargs)
    return wrapper
@_delegate
def box_index(*args, **kwargs):
    pass
@_delegate
def is_valid_solution(*args, **kwargs):
    pass"""
    return {
        **ROUTES,
        "h-registry": {"exercise-1": registry, "exercise-2": ""},
        "h-escape": {"imports": escape, "exercise-1": "", "exercise-2": ""},
        "h-monkey": {"exercise-1": monkey, "exercise-2": ""},
        "h-key": {"exercise-1": key, "exercise-2": ""},
        "h-equal": {"exercise-1": equal, "exercise-2": ""},
        "h-answers": {"exercise-1": answers, "exercise-2": ""},
        "h-loop": {"exercise-1": loop},
        "h-memory": {"exercise-2": memory},
        "h-exit": {"exercise-1": crash},
    }


BOX_ANSWER = "layout(box_size).box_of(row, col)"  # the package's own answer (Exercise.answers)
ROUTES = {
    # names bound inside a block of the parameters cell (every statement of that cell runs)
    "h-route-if": {
        "parameters": "if True:\n    from sudoku_course.grid import layout\n"
        f"    def box_index(row, col, box_size=3):\n        return {BOX_ANSWER}\n"
        "    def is_valid_solution(grid, puzzle=None):\n        return grid.is_solved()",
        "exercise-1": "",
        "exercise-2": "",
    },
    "h-route-with": {
        "parameters": "import contextlib\nwith contextlib.suppress(Exception):\n"
        "    from sudoku_course.grid import layout\n"
        f"    box_index = lambda row, col, box_size=3: {BOX_ANSWER}",
        "exercise-1": "",
    },
    "h-route-try": {
        "parameters": "try:\n    from sudoku_course.grid import layout\nexcept ImportError:\n    pass\nelse:\n"
        f"    def box_index(row, col, box_size=3):\n        return {BOX_ANSWER}",
        "exercise-1": "",
    },
    "h-route-for": {
        "parameters": "for _ in range(1):\n    from sudoku_course.grid import layout\n"
        f"    def box_index(row, col, box_size=3):\n        return {BOX_ANSWER}",
        "exercise-1": "",
    },
    # names bound by `global` (or `nonlocal`) in a decorator's function, a class body, a nested function
    "h-route-decorator": {
        "exercise-1": "from sudoku_course.grid import layout\ndef install(function):\n    global box_index\n"
        f"    def box_index(row, col, box_size=3):\n        return {BOX_ANSWER}\n    return function\n"
        "@install\ndef unrelated():\n    pass",
    },
    "h-route-class": {
        "exercise-1": "from sudoku_course.grid import layout\nclass Holder:\n    global box_index\n"
        f"    def box_index(row, col, box_size=3):\n        return {BOX_ANSWER}",
    },
    "h-route-nested": {
        "exercise-1": "from sudoku_course.grid import layout\ndef outer():\n    def inner():\n"
        f"        global box_index\n        box_index = lambda row, col, box_size=3: {BOX_ANSWER}\n"
        "    inner()\ndef unrelated(_=outer()):\n    pass",
    },
    # modules that import, unpickle or resolve a name given as text
    "h-route-runpy": {
        "exercise-1": "import runpy\ndef box_index(row, col, box_size=3):\n"
        "    grid = runpy.run_module('sudoku_course.grid')\n    return grid['layout'](box_size).box_of(row, col)",
    },
    "h-route-pkgutil": {
        "exercise-1": "import pkgutil\ndef box_index(row, col, box_size=3):\n"
        "    return pkgutil.resolve_name('sudoku_course.grid:lay' + 'out')(box_size).box_of(row, col)",
    },
    "h-route-pickle": {
        "exercise-1": "import pickle\ndef box_index(row, col, box_size=3):\n"
        "    return pickle.loads(b'csudoku_course.grid\\nlay' + b'out\\n.')(box_size).box_of(row, col)",
    },
    "h-route-marshal": {
        "exercise-1": "import marshal, types\nCODE = marshal.dumps(compile('from sudoku_course.grid import layout', "
        "'x', 'exec'))\ndef box_index(row, col, box_size=3):\n    space = {}\n"
        "    types.FunctionType(marshal.loads(CODE), space)()\n    return space['layout'](box_size).box_of(row, col)",
    },
    "h-route-copyreg": {
        "exercise-1": "import copyreg, sudoku_course.grid as grid\ndef box_index(row, col, box_size=3):\n"
        "    copyreg.pickle(type(grid.layout(box_size)), lambda layout: (print, ()))\n"
        f"    return grid.{BOX_ANSWER}",
    },
    "h-route-builtins": {
        "exercise-1": "def box_index(row, col, box_size=3):\n    run = __builtins__['ev' + 'al']\n"
        "    return run('__import__(\"sudoku_course.grid\").grid.lay' + 'out')(box_size).box_of(row, col)",
    },
    "h-route-getattr": {
        "parameters": "fetch = getattr",
        "exercise-1": "import sudoku_course.grid as grid\ndef box_index(row, col, box_size=3):\n"
        "    return fetch(fetch(grid, 'lay' + 'out')(box_size), 'box' + '_of')(row, col)",
    },
}
LYING_ARRAY = """import numpy as np
class Kept(np.ndarray):
    def tolist(self):  # says the grid is still what it was
        return self.before
def is_valid_solution(grid, puzzle=None):
    digits = set(range(1, grid.size + 1))
    answer = all({int(grid.cells[r, c]) for r, c in unit} == digits for unit in grid.units)
    answer = answer and (puzzle is None or bool((grid.cells == puzzle.cells)[puzzle.givens].all()))
    before = grid.cells.tolist()
    grid.cells[:] = 0  # zeroes the grid it must leave alone...
    grid.cells = grid.cells.view(Kept)
    grid.cells.before = before  # ... and lies about it
    return answer"""
ECHO_LINES = "\n".join(f"x{k} = !echo {'a' * 330}" for k in range(490))  # 168 KB of IPython syntax
MAGIC_LINES = "\n".join(["%pwd"] * 600)  # past 500 changes, IPython gives up (RuntimeError)


def checksums(*folders: Path) -> dict[str, str]:
    return {
        str(path): hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() and not path.is_symlink() else "x"
        for folder in folders
        for path in sorted(folder.rglob("*"))
        if "__pycache__" not in path.parts
    }


def build_class(root: Path, outputs: Path) -> None:
    """The submissions of the class under root/rendus, the solutions under root/solutions."""
    (root / "solutions").mkdir(parents=True)
    shutil.copy(SOLUTION, root / "solutions")
    rendus = root / "rendus"
    notebooks = {
        "alice": solution(),
        "bob": exercise_notebook(solution()),
        "carol": with_code(solution(), exercise_1=CAROL_BOX, exercise_2=CAROL_VALID),
    }
    ids_forged = exercise_notebook(solution())
    for c in ids_forged.cells:
        if "check" in c.metadata.get("tags", []):
            c.source, c.id = 'print("bravo, les 10 cas sont réussis")', c.id + "-new"
    notebooks["h-ids"] = ids_forged
    for student, sources in hostile_sources(root, outputs).items():
        notebooks[student] = with_code(solution(), **{k.replace("-", "_"): v for k, v in sources.items()})
    notebooks["h-liar"] = with_code(solution(), exercise_2=LYING_ARRAY)
    notebooks["magics-490"] = with_cell(solution(), ECHO_LINES)
    notebooks["magics-600"] = with_cell(solution(), MAGIC_LINES)
    notebooks[os.fsdecode(b"caf\xe9")] = solution()  # shown as caf\xe9, like the next one
    notebooks["caf\\xe9"] = solution()
    for student, nb in notebooks.items():
        (rendus / student).mkdir(parents=True)
        write_notebook(nb, rendus / student / f"{LESSON}.ipynb")
    (rendus / ".cache").mkdir()
    write_notebook(solution(), rendus / ".cache" / f"{LESSON}.ipynb")
    (rendus / "jean dupont").mkdir()
    (rendus / "jean dupont" / f"{LESSON}.ipynb").write_text(json.dumps(without_ids(solution())), encoding="utf-8")
    (rendus / "vincent").mkdir()
    (rendus / "vincent" / f"{LESSON}.ipynb").write_text(nbformat.writes(nbformat.convert(solution(), 3), version=3))
    (rendus / "h-ids-old").mkdir()
    old = without_ids(ids_forged)
    (rendus / "h-ids-old" / f"{LESSON}.ipynb").write_text(json.dumps(old), encoding="utf-8")
    (rendus / "eve").mkdir()
    (rendus / "eve" / f"{LESSON}.ipynb").write_text('{"cells": [', encoding="utf-8")
    (rendus / "frank").mkdir()
    (rendus / "grace").mkdir()
    write_notebook(solution(), rendus / "grace" / "00-environement.ipynb")
    (rendus / "h-link-folder").symlink_to(root / "solutions", target_is_directory=True)
    (rendus / "h-link-notebook").mkdir()
    (rendus / "h-link-notebook" / f"{LESSON}.ipynb").symlink_to(root / "solutions" / f"{LESSON}.ipynb")
    (rendus / "notes.txt").write_text("not a student", encoding="utf-8")


@dataclass
class GradedClass:
    root: Path
    outputs: Path
    grades: dict[tuple[str, str], dict]
    gradebook: dict[str, dict]
    before: dict[str, str]
    after: dict[str, str]
    victim: Path
    console: str
    seconds: float


@pytest.fixture(scope="module")
def graded(tmp_path_factory, bubblewrap) -> GradedClass:
    root, outputs = tmp_path_factory.mktemp("course"), tmp_path_factory.mktemp("outputs")
    secret = tmp_path_factory.mktemp("instructor") / "secret"
    secret.write_bytes(SECRET)
    build_class(root, outputs)
    victim = tmp_path_factory.mktemp("elsewhere") / "victim.txt"
    victim.write_text("not to be overwritten", encoding="utf-8")
    (outputs / "grades.csv").symlink_to(victim)  # planted: must be replaced, not followed
    (outputs / "gradebook.csv").mkdir()  # planted: must not crash the run nor lose the rows
    elsewhere = victim.parent / "feedback"
    elsewhere.mkdir()
    (outputs / "feedback").symlink_to(elsewhere, target_is_directory=True)  # planted: replaced, not followed
    before = checksums(root, PACKAGE)
    import contextlib
    import io
    import time

    console = io.StringIO()
    started = time.monotonic()
    with contextlib.redirect_stdout(console):
        grade(
            root / "rendus", root / "solutions", outputs / "grades.csv", jobs=2, secret_file=secret, settings=SETTINGS
        )
    seconds = time.monotonic() - started
    time.sleep(4)  # the forked child of h-escape would try again by now
    after = checksums(root, PACKAGE)
    with open(outputs / "grades.csv", encoding="utf-8", newline="") as file:
        grades = {(row["student"], row["exercise"]): row for row in csv.DictReader(file)}
    (book,) = outputs.glob("gradebook-*.csv")
    with open(book, encoding="utf-8", newline="") as file:
        gradebook = {row["student"]: row for row in csv.DictReader(file)}
    return GradedClass(root, outputs, grades, gradebook, before, after, victim, console.getvalue(), seconds)


def expected_points(student: str, name: str, function) -> float:
    item = exercise(name)
    report = evaluate(item, [function], student_seed(SECRET, student))
    return round(item.points * report.passed / report.total, 2)


BOX_POINTS = exercise("box_index").points
VALID_POINTS = exercise("is_valid_solution").points
FULL_MARKS = BOX_POINTS + VALID_POINTS


def points(run: GradedClass, student: str) -> tuple[float, float, float]:
    row = run.gradebook[student]
    return float(row["box_index"]), float(row["is_valid_solution"]), float(row["total"])


# ------------------------------------------------------------ the whole class
def test_nothing_outside_the_scratch_copies_changed(graded):
    assert graded.after == graded.before
    assert not (PACKAGE / "planted_by_a_student.py").exists()
    assert graded.victim.read_text(encoding="utf-8") == "not to be overwritten"
    assert list((graded.victim.parent / "feedback").iterdir()) == []
    assert (graded.outputs / "feedback").is_dir() and not (graded.outputs / "feedback").is_symlink()
    assert (graded.outputs / "grades.csv").is_file() and not (graded.outputs / "grades.csv").is_symlink()


CAFE, CAFE_TYPED = os.fsdecode(b"caf\xe9"), "caf\\xe9"  # two folders whose names are shown alike
LABELS = {CAFE_TYPED: "caf\\xe9", CAFE: "caf\\xe9 (2)"}


def test_every_student_has_a_row_and_every_exercise_a_column(graded):
    folders = [p.name for p in (graded.root / "rendus").iterdir() if p.name not in ("notes.txt", ".cache")]
    students = sorted(LABELS.get(name, name) for name in folders)
    assert sorted(graded.gradebook) == students
    assert sorted({student for student, _ in graded.grades}) == students
    assert list(next(iter(graded.gradebook.values()))) == [
        "student",
        "box_index",
        "is_valid_solution",
        "total",
        "maximum",
        "flags",
    ]
    assert {float(row["maximum"]) for row in graded.gradebook.values()} == {FULL_MARKS}
    assert "notes.txt: not a folder" in graded.console


def test_a_hidden_folder_is_skipped_and_said_so(graded):
    assert ".cache: a hidden entry (its name starts with a dot), not a student folder" in graded.console
    assert not (graded.outputs / "feedback" / ".cache").exists()


def test_folders_whose_names_are_shown_alike_are_two_students_with_a_suffix_and_a_warning(graded):
    for folder, label in LABELS.items():
        assert points(graded, label) == (BOX_POINTS, VALID_POINTS, FULL_MARKS), label
        assert f"Correction de {LESSON} : {label}" in feedback(graded, folder)
    assert "WARNING: caf\\xe9 (2): another folder's name is shown as caf\\xe9 too" in graded.console


def test_honest_submissions_get_full_marks_whatever_their_nbformat(graded):
    for student in ("alice", "jean dupont", "vincent"):
        assert points(graded, student) == (BOX_POINTS, VALID_POINTS, FULL_MARKS), student
        assert graded.gradebook[student]["flags"] == ""


def test_wrong_and_unfinished_submissions_get_what_their_code_earns(graded):
    assert points(graded, "bob") == (0, 0, 0)
    assert {graded.grades[("bob", name)]["status"] for name in ("box_index", "is_valid_solution")} == {"not-done"}
    box, valid = (
        expected_points("carol", "box_index", carol_box),
        expected_points("carol", "is_valid_solution", carol_valid),
    )
    assert 0 < box < 8 and 0 < valid < 10
    assert points(graded, "carol") == (box, valid, round(box + valid, 2))


def test_unreadable_missing_misnamed_and_linked_submissions(graded):
    flags = {student: graded.gradebook[student]["flags"] for student in ("eve", "frank", "grace")}
    assert flags == {
        "eve": f"invalid: {LESSON}",
        "frank": f"missing: {LESSON}",
        "grace": f"missing: {LESSON}; unknown-file: 00-environement.ipynb",
    }
    for student in ("h-link-folder", "h-link-notebook"):
        assert points(graded, student) == (0, 0, 0)
        assert graded.grades[(student, "box_index")]["status"] == "rejected"


@pytest.mark.parametrize("student", ["h-escape", "h-monkey", "h-key", "h-equal", "h-ids", "h-ids-old"])
def test_attacks_forge_no_point(graded, student):
    assert points(graded, student) == (0, 0, 0)


def test_reaching_the_registry_in_the_sandbox_forges_nothing_and_is_flagged(graded):
    assert points(graded, "h-registry") == (0, 0, 0)
    assert graded.gradebook["h-registry"]["flags"] == "flagged-dynamic: box_index; flagged-dynamic: is_valid_solution"
    assert "code dynamique" in feedback(graded, "h-registry") and "uses dynamic code" in graded.console
    assert {graded.grades[("h-registry", name)]["passed"] for name in ("box_index", "is_valid_solution")} == {"0"}


@pytest.mark.parametrize("student", sorted(ROUTES))
def test_every_route_to_an_answer_is_flagged_with_a_french_reason_and_earns_nothing(graded, student):
    assert points(graded, student)[0] == 0
    assert graded.grades[(student, "box_index")]["status"] == "flagged"
    page = feedback(graded, student)
    assert "réponse déjà écrite dans le paquet" in page or "code dynamique" in page


def test_an_array_whose_tolist_lies_does_not_hide_a_grid_zeroed(graded):
    assert points(graded, "h-liar") == (BOX_POINTS, 0, BOX_POINTS)
    assert "une grille reçue a été modifiée" in feedback(graded, "h-liar")


@pytest.mark.parametrize("student", ["magics-490", "magics-600"])
def test_a_cell_full_of_ipython_syntax_is_left_unread_and_the_rest_graded(graded, student):
    assert points(graded, student) == (BOX_POINTS, VALID_POINTS, FULL_MARKS)
    assert "n&#x27;est pas lue (trop de syntaxe IPython" in feedback(graded, student)
    assert student + f"/{LESSON}.ipynb: ok" in graded.console


def test_using_the_package_answers_is_flagged_and_earns_nothing(graded):
    assert points(graded, "h-answers") == (0, 0, 0)
    assert graded.gradebook["h-answers"]["flags"] == "flagged-import: box_index; flagged-import: is_valid_solution"
    assert "flagged: box_index uses sudoku_course.grid.Layout.box_of" in graded.console


def test_an_endless_c_loop_a_memory_bomb_and_an_exit_cost_their_own_case_only(graded):
    box_after_timeout = round(BOX_POINTS * 5 / 6, 2)  # the sixth case loops; it alone is lost
    assert points(graded, "h-loop") == (box_after_timeout, VALID_POINTS, round(box_after_timeout + VALID_POINTS, 2))
    assert graded.gradebook["h-loop"]["flags"] == f"timeout: {LESSON}"
    assert points(graded, "h-memory") == (BOX_POINTS, VALID_POINTS - 1, FULL_MARKS - 1)  # the 4 × 4 case only
    assert feedback(graded, "h-memory").count("a dépassé le temps accordé : elle est ignorée") == 2
    assert points(graded, "h-exit") == (box_after_timeout, VALID_POINTS, round(box_after_timeout + VALID_POINTS, 2))
    assert graded.gradebook["h-exit"]["flags"] == f"crash: {LESSON}"


# ------------------------------------------------------------ feedback
def feedback(run: GradedClass, student: str) -> str:
    return (run.outputs / "feedback" / student / f"{LESSON}.html").read_text(encoding="utf-8")


def test_feedback_in_french_per_student_without_hidden_values_or_other_students(graded):
    page = feedback(graded, "carol")
    assert '<html lang="fr">' in page and "Total :" in page and "cas réussis sur" in page
    assert "alice" not in page and "bob" not in page
    for name, function in (("box_index", carol_box), ("is_valid_solution", carol_valid)):
        report = evaluate(exercise(name), [function], student_seed(SECRET, "carol"))
        assert not leaked(CheckReport(name, report.total, report.details), name, student_seed(SECRET, "carol"))
        assert all(detail.detail in page.replace("&#x27;", "'") for detail in report.details if detail.detail)
    assert "réponse déjà écrite dans le paquet" in feedback(graded, "h-answers")
    assert "la définition (cellule" in feedback(graded, "h-loop") and "ignorée" in feedback(graded, "h-loop")
    assert "ne correspond à aucun notebook" in feedback(graded, "grace")
    assert "lien symbolique" in feedback(graded, "h-link-notebook")


def test_students_get_their_own_hidden_cases_and_the_same_ones_again(graded, tmp_path):
    def labels(page: str) -> list[str]:
        return [line for line in page.split("<tr>") if "case (" in line or "grille 4" in line]

    assert labels(feedback(graded, "alice")) != labels(feedback(graded, "jean dupont"))
    single = tmp_path / "rendus" / "alice"
    single.mkdir(parents=True)
    shutil.copy(graded.root / "rendus" / "alice" / f"{LESSON}.ipynb", single)
    secret = tmp_path / "secret"
    secret.write_bytes(SECRET)
    grade(tmp_path / "rendus", graded.root / "solutions", tmp_path / "out" / "grades.csv", secret_file=secret)
    again = (tmp_path / "out" / "feedback" / "alice" / f"{LESSON}.html").read_text(encoding="utf-8")
    assert again == feedback(graded, "alice")


# ------------------------------------------------------------ refusals and commands
def test_grading_refuses_to_start_without_solutions_or_sandbox(tmp_path, monkeypatch, capsys):
    (tmp_path / "rendus" / "alice").mkdir(parents=True)
    with pytest.raises(GradingError, match="no solution notebook"):
        grade(tmp_path / "rendus", tmp_path / "solutions", tmp_path / "grades.csv")
    (tmp_path / "solutions").mkdir()
    shutil.copy(SOLUTION, tmp_path / "solutions")
    with pytest.raises(GradingError, match="no submission"):
        grade(tmp_path / "rendus", tmp_path / "solutions", tmp_path / "grades.csv")
    shutil.copy(SOLUTION, tmp_path / "rendus" / "alice")
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    monkeypatch.setenv("SUDOKU_COURSE_SECRET", "s")
    arguments = [str(tmp_path / "rendus"), "--master", str(tmp_path / "solutions"), "--out", str(tmp_path / "g.csv")]
    assert main(arguments) == 2
    assert "--no-sandbox" in capsys.readouterr().err and not (tmp_path / "g.csv").exists()
    assert main([*arguments, "--no-sandbox"]) == 0
    report = (tmp_path / "grading-report.txt").read_text(encoding="utf-8")
    assert report.count("WITHOUT a sandbox") == 2
    assert f"alice/00-environnement.ipynb: ok, {FULL_MARKS:g}/{FULL_MARKS:g} points" in report


def test_solutions_that_fail_their_own_cases_stop_the_run(tmp_path, monkeypatch):
    broken = with_code(solution(), exercise_1=CAROL_BOX)
    (tmp_path / "solutions").mkdir()
    write_notebook(broken, tmp_path / "solutions" / f"{LESSON}.ipynb")
    (tmp_path / "rendus" / "alice").mkdir(parents=True)
    shutil.copy(SOLUTION, tmp_path / "rendus" / "alice")
    monkeypatch.setenv("SUDOKU_COURSE_SECRET", "s")
    with pytest.raises(GradingError, match="box_index: 6/8 cases"):
        grade(tmp_path / "rendus", tmp_path / "solutions", tmp_path / "grades.csv", sandboxed=False)
    using = (
        "def is_valid_solution(grid, puzzle=None):\n    return grid.is_solved() and puzzle is None or grid.is_solved()"
    )
    write_notebook(with_code(solution(), exercise_2=using), tmp_path / "solutions" / f"{LESSON}.ipynb")
    uses = "00-environnement is_valid_solution uses sudoku_course.grid.SudokuGrid.is_solved"
    with pytest.raises(GradingError, match=uses):
        grade(tmp_path / "rendus", tmp_path / "solutions", tmp_path / "grades.csv", sandboxed=False)


def test_the_secret_comes_from_a_file_outside_the_course(tmp_path, monkeypatch):
    from sudoku_course.teaching.grading import course_secret

    monkeypatch.delenv("SUDOKU_COURSE_SECRET", raising=False)
    monkeypatch.delenv("SUDOKU_COURSE_SECRET_FILE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    created, path, message = course_secret(None, [])
    assert path == tmp_path / ".config" / "sudoku-course" / "grading-secret" and "created" in message
    assert len(created) == 64 and oct(path.stat().st_mode & 0o777) == "0o600"
    assert course_secret(None, [])[0] == course_secret(path, [])[0] == created  # the same secret next time
    with pytest.raises(GradingError, match="no secret file"):
        course_secret(tmp_path / "mistyped", [])
    with pytest.raises(GradingError, match="outside the course folder"):
        course_secret(course_folder() / "secret", [course_folder()])
    monkeypatch.setenv("SUDOKU_COURSE_SECRET", "from the environment")
    assert course_secret(None, [])[0] == b"from the environment"
    assert student_seed(b"a", "alice") != student_seed(b"b", "alice") != student_seed(b"a", "bob")


def test_make_diff_takes_a_submission_with_spaces_quotes_and_shell_code_in_its_path(tmp_path):
    marker = f"pwned-{os.getpid()}"
    hostile = f"`touch {marker}-1` $(touch {marker}-2) $(shell touch {marker}-3) ' \" $$HOME"
    folder = tmp_path / "rendus de la classe" / hostile / "jean dupont"
    folder.mkdir(parents=True)
    submission = with_code(solution(), exercise_1=CAROL_BOX)
    write_notebook(submission, folder / f"{LESSON}.ipynb")
    done = subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), "diff", f"SUBMISSION={folder / f'{LESSON}.ipynb'}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    created = [*ROOT.glob(f"{marker}*"), *tmp_path.glob(f"{marker}*")]
    for path in created:
        path.unlink()
    assert created == []
    assert done.returncode == 0, done.stderr
    assert "Hard-codes boxes of 3" in done.stdout


def test_names_that_are_not_utf8_or_hold_formulas_or_newlines_lose_no_row(tmp_path, monkeypatch):
    names = {
        os.fsdecode(b"caf\xe9"): "caf\\xe9",  # a Windows zip's name: not UTF-8
        '=HYPERLINK("x")': '\'=HYPERLINK("x")',  # a formula, when a spreadsheet opens the CSV
        "new\nline": "'new\\nline'",  # a newline would forge a line of the report
    }
    stubs = exercise_notebook(solution())
    for name in names:
        (tmp_path / "rendus" / name).mkdir(parents=True)
        write_notebook(stubs, tmp_path / "rendus" / name / f"{LESSON}.ipynb")
    unknown = os.fsdecode(b"notes\xff\r.txt")
    (tmp_path / "rendus" / "new\nline" / unknown).write_text("x", encoding="utf-8")
    monkeypatch.setenv("SUDOKU_COURSE_SECRET", "s")
    out = tmp_path / "out"
    grade(tmp_path / "rendus", SOLUTION.parent, out / "grades.csv", sandboxed=False)
    with open(out / "gradebook.csv", encoding="utf-8", newline="") as file:
        book = {row["student"]: row for row in csv.DictReader(file)}
    assert sorted(book) == sorted(names.values())
    assert book["'new\\nline'"]["flags"] == "unknown-file: 'notes\\\\xff\\r.txt'"
    with open(out / "grades.csv", encoding="utf-8", newline="") as file:
        cells = [cell for row in csv.reader(file) for cell in row]
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)
    report = (out / "grading-report.txt").read_text(encoding="utf-8")
    assert not any(line.startswith("line") for line in report.splitlines())
    assert "caf\\xe9: the folder name is not printable UTF-8 text; shown escaped" in report
    for name in names:
        page = (out / "feedback" / name / f"{LESSON}.html").read_text(encoding="utf-8")
        assert names[name].strip("'") in page.replace("&quot;", '"').replace("&#x27;", "'")


# ------------------------------------------------------------ the class summary page
def test_the_class_summary_is_a_french_page_without_hidden_values(graded):
    page = (graded.outputs / "summary.html").read_text(encoding="utf-8")
    assert '<html lang="fr">' in page and "Synthèse de la correction" in page
    assert page.count("<svg") == 2 and "<metadata" not in page
    assert not re.search(r"<script|(?:src|href)=\"(?!#)", page)  # nothing is fetched when it is opened
    for heading in ("Répartition des totaux", "Taux de réussite par exercice", "Cas les plus souvent échoués"):
        assert heading in page
    assert "box_index" in page and "is_valid_solution" in page
    failed = re.findall(r"<tr><td>(box_index|is_valid_solution)</td><td>(.*?)</td><td class=n>(\d+)</td></tr>", page)
    public = {html.escape(case.label) for name in ("box_index", "is_valid_solution") for case in exercise(name).cases()}
    assert failed and all(label in public or not re.search(r"\d", label) for _, label, _ in failed)
    assert "Rendus signalés" in page and "h-answers" in page and "utilise la réponse du paquet" in page
    assert "code dynamique" in page and "Temps par notebook" in page and "00-environnement" in page


# ------------------------------------------------------------ a slot is clean before it is reused
FORK_BOMB = """import os, time
while True:  # forks until fork fails, each child sleeping
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(120)
        os._exit(0)
N_PUZZLES = 5"""


def write_class(folder: Path, bombs: list[str], honest: list[str]) -> None:
    for name in [*bombs, *honest]:
        nb = with_code(solution(), parameters=FORK_BOMB) if name in bombs else solution()
        (folder / name).mkdir(parents=True)
        write_notebook(nb, folder / name / f"{LESSON}.ipynb")


def gradebook_of(path: Path) -> dict[str, dict]:
    with open(path, encoding="utf-8", newline="") as file:
        return {row["student"]: row for row in csv.DictReader(file)}


@pytest.mark.parametrize("jobs", [1, 2])
def test_honest_students_graded_after_a_fork_bomb_get_full_marks(bubblewrap, tmp_path, jobs):
    """The bomb's sleeping children would fill its sandbox user's process limit: its slot is cleared before the
    next student starts there. With two jobs, each slot grades a bomb first."""
    bombs = ["a-bomb", "b-bomb"][:jobs]
    write_class(tmp_path / "rendus", bombs, ["c-honest", "d-honest", "e-honest"])
    secret = tmp_path / "secret"
    secret.write_bytes(SECRET)
    grade(tmp_path / "rendus", SOLUTION.parent, tmp_path / "out" / "grades.csv", jobs=jobs, secret_file=secret)
    book = gradebook_of(tmp_path / "out" / "gradebook.csv")
    for student in ("c-honest", "d-honest", "e-honest"):
        assert float(book[student]["total"]) == FULL_MARKS, book[student]


GRADE_ONE_CLASS = """import sys
from sudoku_course.teaching.grading import grade
grade(sys.argv[1], sys.argv[2], sys.argv[3], secret_file=sys.argv[4], progress=False)
"""


def test_two_gradings_at_once_never_share_a_sandbox_user(bubblewrap, tmp_path):
    """One class holds fork bombs filling their sandbox user's process limit, the other is graded at the same
    time: each grading process runs its sandboxes as a user of its own, so the second never notices."""
    secret = tmp_path / "secret"
    secret.write_bytes(SECRET)
    write_class(tmp_path / "bombs", ["a-bomb", "b-bomb", "c-bomb"], ["d-honest"])
    write_class(tmp_path / "honest", [], ["a-honest", "b-honest", "c-honest"])
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", GRADE_ONE_CLASS, str(tmp_path / name), str(SOLUTION.parent)]
            + [str(tmp_path / f"out-{name}" / "grades.csv"), str(secret)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for name in ("bombs", "honest")
    ]
    errors = [run.communicate(timeout=900)[1].decode(errors="replace") for run in runs]
    assert [run.returncode for run in runs] == [0, 0], errors
    book = gradebook_of(tmp_path / "out-honest" / "gradebook.csv")
    assert {float(row["total"]) for row in book.values()} == {FULL_MARKS}
    assert float(gradebook_of(tmp_path / "out-bombs" / "gradebook.csv")["d-honest"]["total"]) == FULL_MARKS


# ------------------------------------------------------------ a solution checked once per course and limits
def test_a_solution_that_passed_is_not_graded_again_with_the_same_course_and_limits(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    write_class(tmp_path / "rendus", [], ["alice"])
    secret = tmp_path / "secret"
    secret.write_bytes(SECRET)

    def report(settings: GradingSettings) -> str:
        out = tmp_path / "out" / "grades.csv"
        grade(tmp_path / "rendus", SOLUTION.parent, out, sandboxed=False, secret_file=secret, settings=settings)
        return (out.parent / "grading-report.txt").read_text(encoding="utf-8")

    again = f"master {LESSON}.ipynb: passed its own cases in an earlier run"
    assert again not in report(GradingSettings())
    assert again in report(GradingSettings())
    assert again not in report(GradingSettings(time_factor=3))  # other limits: checked again
