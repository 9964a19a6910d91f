"""Tests of the puzzle reader, the bundled banks, the generator and the rating."""

from __future__ import annotations

import importlib.util
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from sudoku_course.grid import InvalidPuzzleError, SudokuGrid
from sudoku_course.puzzles import (
    BANKS,
    DIABOLIQUE_MIN_GUESSES,
    DIFFICULTIES,
    EXPERT_MIN_EMPTY,
    EXPERT_MIN_OPEN,
    REFERENCE,
    bank_names,
    generate,
    is_diabolique,
    is_expert,
    is_minimal,
    load_bank,
    open_cells,
    parse_puzzles,
    random_solution,
    rate,
    read_puzzles,
    reference,
)
from sudoku_course.solvers.exact import count_solutions, search_effort, solve_exact

ROOT = Path(__file__).resolve().parents[1]


def load_make_banks():
    """The bank-making script (scripts/ is not a package): its statistics rows are the README's table."""
    spec = importlib.util.spec_from_file_location("make_banks", ROOT / "scripts" / "make_banks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -------------------------------------------------------------------- reading
def test_read_puzzles_skips_count_comments_and_blank_lines(tmp_path):
    path = tmp_path / "mine.txt"
    dotted = REFERENCE.replace("0", ".")
    path.write_text(f"2\n# my puzzles\n\n{REFERENCE}\n   \n{dotted}  # the same, with dots\n", encoding="utf-8")
    puzzles = read_puzzles(path)
    assert [p.to_string() for p in puzzles] == [REFERENCE, REFERENCE]


def test_read_puzzles_tolerates_the_grid_characters(tmp_path):
    path = tmp_path / "mixed.txt"
    spaced = " ".join(REFERENCE.replace("0", "X"))
    path.write_text(f"{REFERENCE.replace('0', '-')}\n{spaced}\n{REFERENCE.replace('0', '*')}\n", encoding="utf-8")
    assert all(p.to_string() == REFERENCE for p in read_puzzles(path))


def test_a_72_character_line_is_rejected_with_file_line_and_length(tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text(f"# header\n{REFERENCE}\n{REFERENCE[9:]}\n", encoding="utf-8")
    with pytest.raises(InvalidPuzzleError, match=r"puzzles\.txt, line 3: expected 81 cells.*found 72"):
        read_puzzles(path)


def test_unknown_character_and_conflicting_givens_name_the_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"{REFERENCE}\n{REFERENCE[:10]}?{REFERENCE[11:]}\n", encoding="utf-8")
    with pytest.raises(InvalidPuzzleError, match=r"bad\.txt, line 2: unknown character '\?'"):
        read_puzzles(path)


def test_a_character_error_names_the_file_line_once_and_its_column_in_that_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"{REFERENCE}\n  {REFERENCE[:10]}a{REFERENCE[11:]}  # a letter\n", encoding="utf-8")
    with pytest.raises(InvalidPuzzleError) as error:
        read_puzzles(path)
    assert str(error.value) == "bad.txt, line 2: character 'a' at column 13 is not a symbol of a 9 x 9 grid (1-9)"
    assert (error.value.file, error.value.line, error.value.position.column) == ("bad.txt", 2, 13)
    with pytest.raises(InvalidPuzzleError, match=r"line 1: givens in conflict"):
        parse_puzzles("99" + "0" * 79)


def test_only_a_leading_count_is_skipped():
    assert len(parse_puzzles(f"1\n{REFERENCE}")) == 1
    with pytest.raises(InvalidPuzzleError, match="line 2"):
        parse_puzzles(f"{REFERENCE}\n1\n")


def test_reads_4x4_puzzles():
    (puzzle,) = parse_puzzles("# small\n1200340000000000\n")
    assert puzzle.size == 4 and count_solutions(puzzle, limit=1000) > 1


# ---------------------------------------------------------------------- banks
def test_bank_names_and_unknown_bank():
    assert bank_names() == ["easy", "medium", "hard", "expert", "diabolique"]
    with pytest.raises(ValueError, match="easy, medium, hard, expert, diabolique"):
        load_bank("legendary")


@pytest.mark.parametrize("name", BANKS)
def test_each_bank_holds_at_least_50_distinct_9x9_puzzles(name):
    puzzles = load_bank(name)
    assert len(puzzles) >= 50
    assert all(p.size == 9 for p in puzzles)
    assert len({p.to_string() for p in puzzles}) == len(puzzles)


@pytest.mark.parametrize("name", DIFFICULTIES)
def test_every_shipped_puzzle_has_one_solution_and_its_rating(name):
    for puzzle in load_bank(name):
        assert count_solutions(puzzle) == 1, puzzle.to_string()
        assert rate(puzzle) == name, puzzle.to_string()


def test_every_hard_puzzle_is_minimal():
    assert all(is_minimal(puzzle) for puzzle in load_bank("hard"))


def test_every_expert_puzzle_meets_the_criteria_and_needs_a_guess():
    puzzles = load_bank("expert")
    assert len(puzzles) == 50
    for puzzle in puzzles:
        assert is_expert(puzzle), puzzle.to_string()  # unique, minimal, enough empty and open cells
        assert search_effort(puzzle)["guesses"] >= 1, puzzle.to_string()
    # the yardstick, as means over the bank (public "top95": 60.4 empty, 56.0 open)
    assert np.mean([p.empty_count for p in puzzles]) >= EXPERT_MIN_EMPTY
    assert np.mean([open_cells(p) for p in puzzles]) >= EXPERT_MIN_OPEN


def test_expert_puzzles_leave_more_to_search_than_hard_ones():
    hard, expert = ([open_cells(p) for p in load_bank(name)] for name in ("hard", "expert"))
    assert min(expert) > np.mean(hard)


def test_every_diabolique_puzzle_meets_the_criteria():
    puzzles = load_bank("diabolique")
    assert len(puzzles) == 50
    for puzzle in puzzles:
        assert is_diabolique(puzzle), puzzle.to_string()  # unique, minimal, open and deep enough


def test_the_diabolique_bank_needs_as_much_search_as_top95_and_leaves_as_much_open():
    # the yardstick, measured on the public "top95" set: 33.6 guesses on average, median 21, 56.0 open cells
    puzzles = load_bank("diabolique")
    guesses = [search_effort(p)["guesses"] for p in puzzles]
    assert np.mean(guesses) >= 30 and np.median(guesses) >= 20
    assert np.mean([open_cells(p) for p in puzzles]) >= EXPERT_MIN_OPEN
    hard = [search_effort(p)["guesses"] for p in load_bank("hard")]
    assert min(guesses) > np.median(hard)


def test_open_cells():
    assert open_cells(reference()) == 0  # singles alone solve the témoin
    assert open_cells("0" * 81) == 81
    puzzle = load_bank("hard")[0]
    solution = solve_exact(puzzle).grid.cells.ravel()
    assert 0 < open_cells(puzzle) <= puzzle.empty_count
    assert open_cells(SudokuGrid(np.where(np.arange(81) < 40, solution, 0))) < puzzle.empty_count
    with pytest.raises(InvalidPuzzleError, match="no solution"):
        open_cells("123456780" + "000000009" + "0" * 63)


def test_is_expert_refuses_puzzles_short_of_a_criterion():
    assert not is_expert(reference())  # 36 empty cells, none open
    expert = load_bank("expert")[0]
    cells = expert.cells.ravel()
    one_clue_fewer = cells.copy()
    one_clue_fewer[np.flatnonzero(cells)[0]] = 0  # several solutions
    assert not is_expert(SudokuGrid(one_clue_fewer))


def test_is_diabolique_refuses_puzzles_short_of_a_criterion():
    assert not any(is_diabolique(load_bank(name)[0]) for name in ("hard", "expert"))  # too few open cells or guesses
    diabolique = load_bank("diabolique")[0]
    assert search_effort(diabolique)["guesses"] >= DIABOLIQUE_MIN_GUESSES
    cells = diabolique.cells.ravel()
    one_clue_fewer = cells.copy()
    one_clue_fewer[np.flatnonzero(cells)[0]] = 0  # several solutions
    assert not is_diabolique(SudokuGrid(one_clue_fewer))


def test_the_readme_table_gives_the_statistics_of_every_bank():
    make_banks = load_make_banks()
    readme = (ROOT / "puzzles" / "README.md").read_text(encoding="utf-8")
    for name in BANKS:
        row = make_banks.describe(name, [p.to_string() for p in load_bank(name)])
        assert row in readme.splitlines(), row


def test_reference_is_the_temoin_and_opens_the_easy_bank():
    temoin = reference()
    assert temoin.to_string() == REFERENCE
    assert temoin.empty_count == 36
    assert solve_exact(temoin).grid.to_string().startswith("962185473")
    assert load_bank("easy")[0] == temoin


def test_banks_do_not_depend_on_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load_bank("easy")[0] == reference()
    bank_file = resources.files("sudoku_course.banks").joinpath("easy.txt")
    assert bank_file.is_file() and bank_file.read_text(encoding="utf-8").startswith("# ")


def test_bank_files_record_how_they_were_made():
    for name in BANKS:
        header = resources.files("sudoku_course.banks").joinpath(f"{name}.txt").read_text(encoding="utf-8")
        assert "scripts/make_banks.py" in header and "seeds" in header


def test_every_subpackage_is_listed_for_packaging():
    tomllib = pytest.importorskip("tomllib")
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    on_disk = {".".join(path.parent.relative_to(ROOT).parts) for path in (ROOT / "sudoku_course").rglob("*.py")}
    assert set(setuptools["packages"]) == on_disk | {"sudoku_course.banks", "sudoku_course.data"}
    assert setuptools["package-dir"] == {"sudoku_course.banks": "puzzles", "sudoku_course.data": "data"}


# ----------------------------------------------------------------- generator
def test_generate_reproduces_the_shipped_puzzles_from_their_seeds():
    assert generate(1001, "easy") == load_bank("easy")[1]
    assert generate(2001, "medium") == load_bank("medium")[0]
    assert generate(4002, "expert") == load_bank("expert")[1]
    assert generate(5003, "diabolique") == load_bank("diabolique")[2]  # the quickest of its bank to make


def test_generate_is_deterministic_and_rated():
    first, second = generate(7, "easy"), generate(7, "easy")
    assert first == second
    assert rate(first) == "easy" and count_solutions(first) == 1
    assert (first.givens == (first.cells != 0)).all()


def test_generate_rejects_an_unknown_difficulty():
    with pytest.raises(ValueError, match="easy, medium, hard, expert, diabolique"):
        generate(0, "legendary")


@pytest.mark.parametrize("box_size", [2, 3])
def test_random_solution_is_a_solved_grid(box_size):
    for seed in range(5):
        assert random_solution(np.random.default_rng(seed), box_size).is_solved()


def test_is_minimal():
    assert not is_minimal(reference())  # 45 givens: many can go
    assert not is_minimal(SudokuGrid.from_string("0" * 81))


def test_rate_follows_the_search_effort():
    assert rate(reference()) == "easy"
    assert rate(load_bank("medium")[0]) == "medium"
    assert rate(load_bank("hard")[0]) == "hard"
