"""CONTRIBUTING.md: the four recipes exist and every file or folder they name exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "CONTRIBUTING.md"
RECIPES = ("add an exercise", "add a lesson", "add a solver family", "change the sandbox's limits")
PATH = re.compile(r"`((?:sudoku_course|tests|solutions|notebooks|benchmarks|site|data|puzzles)/[^`\s]*)`")


def named_paths(text: str) -> list[str]:
    """The repository paths the guide names in backquotes (lessonNN, NN, NAME and <family> stand for any)."""
    return sorted(set(PATH.findall(text)))


def exists(path: str) -> bool:
    pattern = re.sub(r"lessonNN|NN-name|NN|NAME|<family>|\*", "*", path).replace("**", "*")
    return any(ROOT.glob(pattern)) if "*" in pattern else (ROOT / path).exists()


def test_the_guide_has_the_four_recipes():
    headings = [line.lower() for line in GUIDE.read_text(encoding="utf-8").splitlines() if line.startswith("## ")]
    for recipe in RECIPES:
        assert f"## recipe: {recipe}" in headings


def test_every_path_the_guide_names_exists():
    paths = named_paths(GUIDE.read_text(encoding="utf-8"))
    assert len(paths) > 15
    assert [path for path in paths if not exists(path)] == []


def test_a_missing_path_is_caught():
    assert not exists("sudoku_course/teaching/exercises/lessonNN/answers.py")
    assert exists("sudoku_course/teaching/exercises/lessonNN/references.py")
