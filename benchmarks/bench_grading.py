"""Grading a class: wall time of `make grade` on a synthetic class of 30 students, every lesson, per-student cases.

Run: .venv/bin/python benchmarks/bench_grading.py [--jobs 2] [--keep DIR]
Target: the whole class graded in at most 10 minutes on the course's 2-core machine (the load average before and
after the run is printed: on a shared machine, read the time with it).

The class is built from solutions/ and the exercise registry, whatever exercises the lessons hold:
- 12 honest students: the solution notebooks (8 as they are, 2 without cell ids, 2 in nbformat 3);
- 9 wrong ones: the exercise notebooks with their stubs (5), or with every stub returning None (4);
- 9 hostile ones: a C loop in an exercise (2), files attacked at definition time (1), the package's
  answers imported (1), results whose == is always true (1), memory bombs (1), os._exit (1),
  monkeypatched checks (1), a symbolic link to solutions/ (1).
Each student gets hidden cases of their own (a course secret drawn for the run), so the references run for
every student too. The script checks what it can: honest students at full marks, no point where the
attack earns none, the solutions and the submissions unchanged.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell

from sudoku_course.teaching.authoring import STUB_RAISE, exercise_notebook
from sudoku_course.teaching.exercises import lesson_exercises
from sudoku_course.teaching.grading import grade
from sudoku_course.teaching.notebooks import write_notebook

SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"


def names(lesson: str) -> list[str]:
    """The names the student writes for the graded exercises of a lesson."""
    return [name for item in lesson_exercises(lesson) for name in item.functions]


def appended(nb: nbformat.NotebookNode, source: str) -> nbformat.NotebookNode:
    """The notebook with a last code cell (later definitions replace earlier ones)."""
    nb.cells.append(new_code_cell(source))
    return nb


def redefining(body: str, preamble: str = "") -> Callable[[nbformat.NotebookNode, str], nbformat.NotebookNode]:
    """An attack: every exercise function of the lesson redefined with `body` in a last cell."""

    def attack(nb: nbformat.NotebookNode, lesson: str) -> nbformat.NotebookNode:
        functions = "\n".join(f"def {name}(*args, **kwargs):\n    {body}\n" for name in names(lesson))
        return appended(nb, f"{preamble}\n{functions}")

    return attack


def stubs_returning(value: str) -> Callable[[nbformat.NotebookNode, str], nbformat.NotebookNode]:
    def wrong(nb: nbformat.NotebookNode, lesson: str) -> nbformat.NotebookNode:
        nb = exercise_notebook(nb)
        for cell in nb.cells:
            cell.source = cell.source.replace(STUB_RAISE, f"return {value}")
        return nb

    return wrong


def first_loops(nb: nbformat.NotebookNode, lesson: str) -> nbformat.NotebookNode:
    functions = names(lesson)
    return appended(nb, f"import itertools\ndef {functions[0]}(*args, **kwargs):\n    return sum(itertools.count())")


def escaping(course: Path) -> Callable[[nbformat.NotebookNode, str], nbformat.NotebookNode]:
    targets = [str(p) for p in sorted(SOLUTIONS.glob("*.ipynb"))] + [str(course)]
    code = f"""import glob, os
def spoil(*args):
    for path in {targets!r} + glob.glob("/proc/*/cwd/solutions/*") + glob.glob("/proc/*/cwd/*.csv"):
        for action in (lambda: open(path, "w").write("{{}}"), lambda: os.remove(path), lambda: os.mkdir(path)):
            try:
                action()
            except Exception:
                pass
    return spoil
def unrelated(_=spoil()):
    pass"""
    return lambda nb, lesson: appended(nb, code)


def importing_answers(nb: nbformat.NotebookNode, lesson: str) -> nbformat.NotebookNode:
    module = lesson_exercises(lesson)[0].reference_module
    return appended(nb, f"from {module} import *")


def without_ids(nb: nbformat.NotebookNode) -> dict:
    data = json.loads(nbformat.writes(nb))
    data["nbformat_minor"] = 4
    for cell in data["cells"]:
        cell.pop("id", None)
    return data


ALWAYS_EQUAL = "class AlwaysEqual:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__"
MONKEY = """import sudoku_course.teaching.checks as checks
from sudoku_course.teaching.checks import CaseResult
def patch():
    checks.case_verdict = lambda case, *a: CaseResult(case.label, "réussi")
    checks.evaluate = checks.check = lambda *a, **k: None
def unrelated(_=patch()):
    pass"""
HONEST = {"honnete": 8, "sans-ids": 2, "nbformat3": 2}
WRONG = {"ebauche": 5, "none": 4}
ATTACKS = {
    "boucle-c": (2, first_loops, "less"),
    "evasion": (1, None, "full"),
    "reponses": (1, importing_answers, "zero"),
    "egal": (1, redefining("return AlwaysEqual()", ALWAYS_EQUAL), "zero"),
    "memoire": (1, redefining("return len(bytearray(1 << 34))"), "zero"),
    "exit": (1, redefining("os._exit(1)", "import os"), "zero"),
    "singe": (1, redefining("return None", MONKEY), "zero"),
}


def write(folder: Path, lesson: str, nb) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{lesson}.ipynb"
    if isinstance(nb, dict):
        path.write_text(json.dumps(nb), encoding="utf-8")
    elif nb.nbformat == 3:
        path.write_text(nbformat.writes(nb, version=3), encoding="utf-8")
    else:
        write_notebook(nb, path)


HONEST_FORMS: dict[str, Callable[[nbformat.NotebookNode], object]] = {
    "honnete": lambda nb: nb,
    "sans-ids": without_ids,
    "nbformat3": lambda nb: nbformat.convert(nb, 3),
}


def build_class(root: Path, lessons: list[str]) -> dict[str, str]:
    """Write the 30 students' folders under root; student -> what their points should be."""
    expected = {}
    for lesson in lessons:
        text = (SOLUTIONS / f"{lesson}.ipynb").read_text(encoding="utf-8")

        def solution() -> nbformat.NotebookNode:
            return nbformat.reads(text, as_version=4)  # noqa: B023 (used within the iteration)

        for kind, count in HONEST.items():
            for k in range(count):
                write(root / f"{kind}-{k + 1}", lesson, HONEST_FORMS[kind](solution()))
                expected[f"{kind}-{k + 1}"] = "full"
        for kind, count in WRONG.items():
            for k in range(count):
                nb = exercise_notebook(solution()) if kind == "ebauche" else stubs_returning("None")(solution(), lesson)
                write(root / f"{kind}-{k + 1}", lesson, nb)
                expected[f"{kind}-{k + 1}"] = "less"
        for kind, (count, attack, outcome) in ATTACKS.items():
            for k in range(count):
                write(root / f"{kind}-{k + 1}", lesson, (attack or escaping(root.parent))(solution(), lesson))
                expected[f"{kind}-{k + 1}"] = outcome
    (root / "lien-1").symlink_to(SOLUTIONS, target_is_directory=True)
    expected["lien-1"] = "zero"
    return expected


def checksums(*folders: Path) -> str:
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.is_symlink():
                digest.update(str(path).encode() + path.read_bytes())
    return digest.hexdigest()


def verdict(outcome: str, points: float, maximum: float) -> bool:
    return {"full": points == maximum, "zero": points == 0}.get(outcome, points < maximum)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="build and grade the class in this folder (kept afterwards)")
    args = parser.parse_args()
    lessons = [path.stem for path in sorted(SOLUTIONS.glob("*.ipynb")) if lesson_exercises(path.stem)]
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-grading-"))
    root, outputs = work / "rendus", work / "sorties"
    expected = build_class(root, lessons)
    secret = work / "secret"
    secret.write_text("a secret drawn for this benchmark", encoding="utf-8")
    before = checksums(SOLUTIONS, root)
    print(f"{len(expected)} students x {len(lessons)} graded lesson(s) ({', '.join(lessons)}), --jobs {args.jobs}")
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    results = grade(root, SOLUTIONS, outputs / "grades.csv", jobs=args.jobs, secret_file=secret)
    seconds = time.perf_counter() - started
    totals: dict[str, list[float]] = {}
    for result in results:
        got = totals.setdefault(result.student, [0.0, 0.0])
        got[0] += result.points
        got[1] += result.max_points
    wrong = [
        f"{student}: {points:g}/{maximum:g} (expected {expected[student]})"
        for student, (points, maximum) in totals.items()
        if not verdict(expected[student], points, maximum)
    ]
    unchanged = checksums(SOLUTIONS, root) == before
    print(f"\nwall time: {seconds:.0f} s ({seconds / 60:.1f} min) for {len(results)} notebooks (target: <= 10 min)")
    print(f"load average (1 min): {load_before:.1f} before the run, {os.getloadavg()[0]:.1f} after it")
    print(f"points as expected: {len(totals) - len(wrong)}/{len(totals)} students")
    print(f"solutions and submissions unchanged: {unchanged}")
    for line in wrong:
        print(f"  UNEXPECTED {line}")
    if not args.keep:
        shutil.rmtree(work)
    return 0 if unchanged and not wrong else 1


if __name__ == "__main__":
    sys.exit(main())
