"""Tests of sudoku_course.grid: parsing, formatting, structure, checks and display of SudokuGrid."""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course.grid import (
    ERROR_KINDS,
    SYMBOLS,
    InvalidPuzzleError,
    SudokuGrid,
    TextPosition,
    as_grid,
    layout,
    symbols_of,
)

TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
TEMOIN_ROWS = [TEMOIN[i : i + 9] for i in range(0, 81, 9)]
SIDES = (4, 9, 16)
FAST = settings(max_examples=40, deadline=None)


def solved_grid(n: int) -> SudokuGrid:
    """A solved n x n grid from the classic shifting pattern."""
    b = int(round(n**0.5))
    return SudokuGrid([[(b * (r % b) + r // b + c) % n + 1 for c in range(n)] for r in range(n)])


def random_puzzle(n: int, seed: int) -> SudokuGrid:
    """A valid puzzle: a relabelled, shuffled solved grid with random holes."""
    rng = np.random.default_rng(seed)
    b = int(round(n**0.5))
    cells = (rng.permutation(n) + 1)[solved_grid(n).cells - 1]
    rows = [band * b + r for band in rng.permutation(b) for r in rng.permutation(b)]
    cols = [stack * b + c for stack in rng.permutation(b) for c in rng.permutation(b)]
    cells = cells[rows][:, cols]
    cells[rng.random(cells.shape) < rng.uniform(0.2, 0.8)] = 0
    return SudokuGrid.from_array(cells)


def drawing(rows: list[str]) -> str:
    """The témoin drawn with +---+ borders and | between boxes, '.' for empty cells."""
    border = "+-------+-------+-------+"
    lines = [border]
    for k, row in enumerate(rows):
        boxes = [" ".join(row[j : j + 3]).replace("0", ".") for j in (0, 3, 6)]
        lines.append("| " + " | ".join(boxes) + " |")
        if k % 3 == 2:
            lines.append(border)
    return "\n".join(lines)


@pytest.fixture
def temoin() -> SudokuGrid:
    return SudokuGrid.from_string(TEMOIN)


# ------------------------------------------------------------------ parsing
def test_temoin_is_read(temoin):
    assert temoin.size == 9 and temoin.box_size == 3
    assert temoin.cells.dtype == np.int64 and temoin.cells.shape == (9, 9)
    assert temoin.cells[0].tolist() == [9, 0, 2, 0, 0, 5, 4, 0, 3]
    assert temoin.empty_count == 36
    assert (temoin.givens == (temoin.cells != 0)).all()
    assert temoin.to_string() == TEMOIN


@pytest.mark.parametrize("empty", list(".0X-*"))
def test_every_empty_character_is_accepted(temoin, empty):
    assert SudokuGrid.from_string(TEMOIN.replace("0", empty)) == temoin


@pytest.mark.parametrize(
    "text",
    [
        "\n".join(TEMOIN_ROWS),
        "\r\n".join(TEMOIN_ROWS) + "\r\n",
        "\n\n".join(" ".join(row) for row in TEMOIN_ROWS),
        "\t".join(TEMOIN_ROWS),
        "   " + TEMOIN + "   \n",
        drawing(TEMOIN_ROWS),
        drawing(TEMOIN_ROWS).replace("+-------+-------+-------+", "=========================+"),
        str(SudokuGrid.from_string(TEMOIN)),
        str(SudokuGrid.from_string(TEMOIN)).replace("+", "|"),  # separators such as ------|-------|------
        "\n".join(f"{r[:3]}|{r[3:6]}|{r[6:]}" for r in TEMOIN_ROWS),
    ],
    ids=["lines", "crlf", "spaced", "tabs", "padded", "drawing", "equals", "str", "pipes", "compact-pipes"],
)
def test_tolerated_formats(temoin, text):
    assert SudokuGrid.from_string(text) == temoin


def test_row_of_dashes_inside_a_drawing_is_a_row_of_empty_cells():
    rows = TEMOIN_ROWS.copy()
    rows[4] = "---------"
    grid = SudokuGrid.from_string("\n".join(rows))
    assert grid.cells[4].tolist() == [0] * 9
    assert grid.cells[3].tolist() == [0, 2, 6, 3, 0, 9, 0, 0, 1]


def test_4x4_and_16x16_are_read():
    small = SudokuGrid.from_string("1.3.\n.4.2\n2..3\n.3..")
    assert small.size == 4 and small.box_size == 2 and small.empty_count == 9
    big = solved_grid(16)
    text = big.to_string()
    assert len(text) == 256 and set(text) == set("123456789ABCDEFG")
    assert SudokuGrid.from_string(text) == big
    assert SudokuGrid.from_string(text.lower()) == big


def test_from_array_accepts_flat_and_square_input(temoin):
    assert SudokuGrid.from_array(temoin.cells.ravel().tolist()) == temoin
    assert SudokuGrid.from_array(temoin.cells.tolist()) == temoin


# ------------------------------------------------------------------ errors
def test_72_character_line_is_rejected_with_its_length():
    line = TEMOIN[9:]  # the témoin without its first row, as in the source exercise
    assert len(line) == 72
    with pytest.raises(InvalidPuzzleError, match=r"\b72\b"):
        SudokuGrid.from_string(line)


@pytest.mark.parametrize("text", ["", "   ", TEMOIN + "1", TEMOIN[:80]])
def test_wrong_cell_count_is_reported(text):
    count = len(text.strip())
    with pytest.raises(InvalidPuzzleError, match=rf"found {count}\b"):
        SudokuGrid.from_string(text)


def test_box_size_must_match_the_cell_count():
    with pytest.raises(InvalidPuzzleError, match="expected 16 cells for box size 2, found 81"):
        SudokuGrid.from_string(TEMOIN, box_size=2)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (TEMOIN[:40] + "?" + TEMOIN[41:], "line 1, column 41"),
        ("\n".join(TEMOIN_ROWS[:3] + ["02#309001"] + TEMOIN_ROWS[4:]), "line 4, column 3"),
        (TEMOIN[:80] + "Z", "line 1, column 81"),
    ],
)
def test_unknown_character_is_reported_with_its_position(text, where):
    with pytest.raises(InvalidPuzzleError, match="unknown character") as error:
        SudokuGrid.from_string(text)
    assert where in str(error.value)


def test_digit_too_large_for_the_grid_is_reported(temoin):
    with pytest.raises(InvalidPuzzleError, match="value 10 at row 1, column 2"):
        SudokuGrid.from_array([[0, 10] + [0] * 7] + [[0] * 9] * 8)


@pytest.mark.parametrize(
    ("cell", "digit", "unit"),
    [(1, "9", "row 1"), (9, "9", "column 1"), (11, "9", "box 1")],
)
def test_conflicting_givens_name_the_unit_and_the_digit(cell, digit, unit):
    text = TEMOIN[:cell] + digit + TEMOIN[cell + 1 :]
    with pytest.raises(InvalidPuzzleError, match=f"digit {digit} appears twice in {unit}"):
        SudokuGrid.from_string(text)
    grid = SudokuGrid.from_string(text, validate=False)  # reading without the check still works
    assert grid.cells.ravel()[cell] == int(digit)


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        (np.zeros((9, 8), dtype=int), "square grid"),
        (np.zeros((5, 5), dtype=int), "side 4, 9, 16 or 25"),
        (np.zeros(80, dtype=int), "found 80"),
        (np.full((4, 4), 5), "value 5 at row 1, column 1"),
        (np.full((9, 9), -1), "outside 0..9"),
    ],
)
def test_bad_arrays_are_rejected(cells, message):
    with pytest.raises(InvalidPuzzleError, match=message):
        SudokuGrid.from_array(cells)


def test_givens_mask_must_have_the_grid_shape():
    with pytest.raises(InvalidPuzzleError, match="givens mask"):
        SudokuGrid(np.zeros((9, 9), dtype=int), givens=np.zeros((4, 4), dtype=bool))


def test_box_size_that_does_not_fit_is_rejected():
    with pytest.raises(InvalidPuzzleError, match="box size 2"):
        SudokuGrid(np.zeros((9, 9), dtype=int), box_size=2)


def test_invalid_puzzle_error_is_a_value_error():
    assert issubclass(InvalidPuzzleError, ValueError)


def test_all_dashes_line_is_an_empty_grid():
    assert SudokuGrid.from_string("-" * 81).empty_count == 81


def test_drawing_with_25_dash_separators(temoin):
    assert SudokuGrid.from_string(str(temoin).replace("------+-------+------", "-" * 25)) == temoin


def test_scalar_input_is_an_invalid_puzzle():
    with pytest.raises(InvalidPuzzleError):
        SudokuGrid(5)


# ------------------------------------------------------------------ round trips
@FAST
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from(SIDES))
def test_string_round_trip(seed, n):
    grid = random_puzzle(n, seed)
    text = grid.to_string()
    assert len(text) == n * n
    assert SudokuGrid.from_string(text) == grid
    assert SudokuGrid.from_string(grid.to_string(empty=".")) == grid
    assert SudokuGrid.from_array(grid.cells) == grid


@FAST
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from(SIDES))
def test_str_and_repr_parse_back(seed, n):
    grid = random_puzzle(n, seed)
    assert SudokuGrid.from_string(str(grid)) == grid
    assert eval(repr(grid), {"SudokuGrid": SudokuGrid}) == grid


@FAST
@given(
    seed=st.integers(0, 2**32 - 1),
    empties=st.lists(st.sampled_from(list(".0X-*")), min_size=81, max_size=81),
    spaces=st.lists(st.sampled_from(["", " ", "  ", "\t", "\n"]), min_size=81, max_size=81),
)
def test_any_mix_of_empty_characters_and_whitespace_reads_the_same(seed, empties, spaces):
    grid = random_puzzle(9, seed)
    chars = [str(v) if v else e for v, e in zip(grid.cells.ravel().tolist(), empties, strict=True)]
    text = "".join(c + s for c, s in zip(chars, spaces, strict=True))
    assert SudokuGrid.from_string(text) == grid


# ------------------------------------------------------------------ structure
@pytest.mark.parametrize(("n", "peer_count"), [(4, 7), (9, 20), (16, 39)])
def test_units_and_peers_counts(n, peer_count):
    grid = SudokuGrid(np.zeros((n, n), dtype=int))
    units = grid.units
    assert len(units) == 3 * n
    assert all(len(unit) == n == len(set(unit)) for unit in units)
    cells = [cell for unit in units for cell in unit]
    assert all(cells.count((r, c)) == 3 for r in range(n) for c in range(n))
    for r, c in [(0, 0), (n - 1, n - 1), (n // 2, 1)]:
        peers = grid.peers(r, c)
        assert len(peers) == peer_count == len(set(peers))
        assert (r, c) not in peers
        assert all((r, c) in grid.peers(*peer) for peer in peers)


def test_units_order_rows_columns_boxes():
    grid = SudokuGrid(np.zeros((9, 9), dtype=int))
    assert grid.units[0] == [(0, c) for c in range(9)]
    assert grid.units[9] == [(r, 0) for r in range(9)]
    assert grid.units[18] == [(r, c) for r in range(3) for c in range(3)]
    assert grid.units[26] == [(r, c) for r in range(6, 9) for c in range(6, 9)]


def test_layout_is_cached_and_boxes_are_numbered_row_by_row():
    assert layout(3) is layout(3)
    assert SudokuGrid(np.zeros((9, 9), dtype=int)).layout is layout(3)
    assert [layout(3).box_of(r, c) for r, c in [(0, 0), (0, 8), (4, 4), (8, 0), (8, 8)]] == [0, 2, 4, 6, 8]
    assert layout(2).peers[0] == (1, 2, 3, 4, 5, 8, 12)


def test_box_array_lists_the_boxes(temoin):
    boxes = temoin.box_array()
    assert boxes[0].tolist() == [9, 0, 2, 1, 0, 0, 5, 0, 8]
    assert boxes[8].tolist() == [6, 0, 0, 3, 0, 4, 9, 5, 0]


def test_candidates(temoin):
    assert temoin.candidates(0, 1) == [6, 7]  # the solution starts 962...
    assert temoin.candidates(0, 0) == [9]  # a filled cell has its own value
    assert SudokuGrid(np.zeros((4, 4), dtype=int)).candidates(2, 3) == [1, 2, 3, 4]


@FAST
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from(SIDES))
def test_candidates_avoid_every_peer_value(seed, n):
    grid = random_puzzle(n, seed)
    for r, c in zip(*np.nonzero(grid.cells == 0), strict=True):
        taken = {int(grid.cells[p]) for p in grid.peers(r, c)}
        assert set(grid.candidates(r, c)) == set(range(1, n + 1)) - taken


# ------------------------------------------------------------------ checks
@pytest.mark.parametrize("n", SIDES)
def test_solved_grid_is_solved_and_complete(n):
    grid = solved_grid(n)
    assert grid.is_complete() and grid.is_solved()
    assert not grid.conflicting_cells().any()


def test_unsolved_grids(temoin):
    assert not temoin.is_complete() and not temoin.is_solved()
    cells = solved_grid(9).cells.copy()
    cells[0, [0, 1]] = cells[0, [1, 0]]  # two cells of a row swapped: columns 1 and 2 repeat a digit
    swapped = SudokuGrid(cells)
    assert swapped.is_complete() and not swapped.is_solved()
    cells = solved_grid(9).cells.copy()
    cells[[0, 1]] = cells[[1, 0]]  # two rows of the same band swapped: still solved
    assert SudokuGrid(cells).is_solved()
    latin = SudokuGrid([[(r + c) % 9 + 1 for c in range(9)] for r in range(9)])  # rows, columns fine
    assert latin.is_complete() and not latin.is_solved()  # but boxes repeat digits


def test_conflicting_cells_marks_every_duplicate():
    cells = SudokuGrid.from_string(TEMOIN).cells.copy()
    cells[0, 1] = 3  # row 1 already has a 3 at column 9
    mask = SudokuGrid(cells, givens=SudokuGrid.from_string(TEMOIN).givens).conflicting_cells()
    assert sorted(zip(*np.nonzero(mask), strict=True)) == [(0, 1), (0, 8)]


# ------------------------------------------------------------------ copies
def test_copy_is_independent(temoin):
    copy = temoin.copy()
    assert copy == temoin and copy is not temoin
    copy.cells[0, 1] = 6
    copy.givens[0, 0] = False
    assert temoin.cells[0, 1] == 0 and temoin.givens[0, 0]


def test_with_cells_keeps_the_givens_and_refuses_to_change_them(temoin):
    cells = temoin.cells.copy()
    cells[0, 1] = 6
    grid = temoin.with_cells(cells)
    assert grid.cells[0, 1] == 6 and not grid.givens[0, 1]
    assert (grid.givens == temoin.givens).all()
    cells[0, 0] = 1
    with pytest.raises(ValueError, match="given"):
        temoin.with_cells(cells)


def test_as_grid_accepts_strings_arrays_and_grids_and_copies(temoin):
    assert as_grid(TEMOIN) == temoin
    assert as_grid(temoin.cells) == temoin
    copy = as_grid(temoin)
    assert copy == temoin and copy is not temoin and not np.shares_memory(copy.cells, temoin.cells)


def test_grids_compare_by_value_and_are_not_hashable(temoin):
    assert temoin == SudokuGrid.from_string(TEMOIN)
    assert temoin != solved_grid(9)
    assert temoin != solved_grid(4)
    with pytest.raises(TypeError):
        hash(temoin)


# ------------------------------------------------------------------ display
def test_str_is_a_readable_drawing(temoin):
    lines = str(temoin).splitlines()
    assert len(lines) == 11
    assert lines[0] == "9 . 2 | . . 5 | 4 . 3"
    assert lines[3] == "------+-------+------"


def test_html_marks_givens_in_bold_and_conflicts_in_colour():
    puzzle = SudokuGrid.from_string(TEMOIN)
    cells = puzzle.cells.copy()
    cells[0, 1] = 3  # a filled cell clashing with the given 3 of row 1
    html = puzzle.with_cells(cells)._repr_html_()
    tds = re.findall(r'<td style="([^"]*)">([^<]*)</td>', html)
    assert len(tds) == 81
    bold = [k for k, (style, _) in enumerate(tds) if "font-weight:bold" in style]
    assert bold == np.flatnonzero(puzzle.givens.ravel()).tolist()
    highlighted = [k for k, (style, _) in enumerate(tds) if "background" in style]
    assert highlighted == [1, 8]
    assert tds[0][1] == "9" and tds[3][1] == "&nbsp;"
    assert "background" not in puzzle._repr_html_()


# ------------------------------------------------------------------ symbols
def test_each_size_names_its_symbols():
    assert [symbols_of(side) for side in (4, 9, 16, 25)] == ["1-4", "1-9", "1-9, A-G", "1-9, A-P"]


def test_a_letter_in_a_9x9_grid_is_refused_with_its_line_column_and_character(temoin):
    text = temoin.to_string()
    with pytest.raises(InvalidPuzzleError) as error:
        SudokuGrid.from_string("9a" + text[2:])
    assert str(error.value) == "character 'a' at line 1, column 2 is not a symbol of a 9 x 9 grid (1-9)"
    drawing = str(temoin).splitlines()
    drawing[4] = drawing[4].replace("2", "P", 1)  # ". 2 6 | ...": row 4 of the grid, line 5 of the drawing
    with pytest.raises(InvalidPuzzleError, match=r"character 'P' at line 5, column 3 is not a symbol"):
        SudokuGrid.from_string("\n".join(drawing))


@pytest.mark.parametrize("side", [4, 9, 16, 25])
def test_each_size_accepts_exactly_its_own_symbols_in_either_case(side):
    solved = solved_grid(side).to_string()
    assert set(solved) == set(SYMBOLS[:side])
    assert SudokuGrid.from_string(solved.lower()) == SudokuGrid.from_string(solved)
    for beyond in SYMBOLS[side:]:
        with pytest.raises(InvalidPuzzleError) as error:
            SudokuGrid.from_string(beyond.lower() + solved[1:])
        assert error.value.kind == "symbol-range" and error.value.found == SYMBOLS.index(beyond) + 1
        assert str(error.value) == (
            f"character {beyond.lower()!r} at line 1, column 1 is not a symbol of a {side} x {side} grid"
            f" ({symbols_of(side)})"
        )


def test_a_letter_past_the_largest_grid_is_an_unknown_character():
    with pytest.raises(InvalidPuzzleError, match=r"^unknown character 'Q' at line 1, column 1$"):
        SudokuGrid.from_string("Q" + solved_grid(25).to_string()[1:])


# ------------------------------------------------------------------ the fields of an error
def refusal(read) -> InvalidPuzzleError:
    """The error raised by `read()`."""
    with pytest.raises(InvalidPuzzleError) as error:
        read()
    return error.value


def test_a_wrong_cell_count_fills_expected_and_found():
    error = refusal(lambda: SudokuGrid.from_string(TEMOIN[9:]))
    assert (error.kind, error.expected, error.found, error.position) == ("cell-count", 81, 72, None)
    error = refusal(lambda: SudokuGrid.from_string(TEMOIN, box_size=2))
    assert (error.kind, error.expected, error.found) == ("cell-count", 16, 81)
    assert refusal(lambda: SudokuGrid.from_array(np.zeros(80, dtype=int))).found == 80


def test_an_unknown_character_fills_its_position_in_the_text():
    text = "\n".join(TEMOIN_ROWS[:3] + ["02#309001"] + TEMOIN_ROWS[4:])
    error = refusal(lambda: SudokuGrid.from_string(text))
    assert (error.kind, error.character) == ("character", "#")
    assert error.position == TextPosition(line=4, column=3, index=text.index("#"))


def test_positions_count_the_characters_of_a_drawing(temoin):
    drawing = str(temoin).replace("9", "?", 1)
    error = refusal(lambda: SudokuGrid.from_string(drawing))
    assert error.position == TextPosition(line=1, column=1, index=0)
    drawing = str(temoin)
    last = drawing.rindex("5")  # the last given, in the last line
    error = refusal(lambda: SudokuGrid.from_string(drawing[:last] + "%" + drawing[last + 1 :]))
    assert error.position.index == last and error.position.line == len(drawing.splitlines())


def test_a_symbol_beyond_the_grid_fills_the_allowed_range():
    error = refusal(lambda: SudokuGrid.from_string(TEMOIN[:80] + "G"))
    assert (error.kind, error.character, error.expected, error.found) == ("symbol-range", "G", (1, 9), 16)
    assert error.position == TextPosition(1, 81, 80)


def test_array_errors_fill_shapes_values_and_cells():
    error = refusal(lambda: SudokuGrid.from_array(np.zeros((9, 8), dtype=int)))
    assert (error.kind, error.expected, error.found) == ("shape", (4, 9, 16, 25), (9, 8))
    error = refusal(lambda: SudokuGrid.from_array([[0, 10] + [0] * 7] + [[0] * 9] * 8))
    assert (error.kind, error.expected, error.found, error.cells) == ("value", (0, 9), 10, ((0, 1),))
    error = refusal(lambda: SudokuGrid(np.zeros((9, 9), dtype=int), box_size=2))
    assert (error.kind, error.expected, error.found) == ("box-size", 3, 2)
    error = refusal(lambda: SudokuGrid(np.zeros((9, 9), dtype=int), givens=np.zeros((4, 4), dtype=bool)))
    assert (error.kind, error.expected, error.found) == ("givens-shape", (9, 9), (4, 4))


@pytest.mark.parametrize(
    ("cell", "unit", "cells"),
    [(1, ("row", 0), ((0, 0), (0, 1))), (9, ("column", 0), ((0, 0), (1, 0))), (11, ("box", 0), ((0, 0), (1, 2)))],
)
def test_conflicting_givens_fill_the_digit_the_unit_and_the_cells(cell, unit, cells):
    error = refusal(lambda: SudokuGrid.from_string(TEMOIN[:cell] + "9" + TEMOIN[cell + 1 :]))
    assert (error.kind, error.found, error.unit, error.cells) == ("givens-conflict", 9, unit, cells)


def test_the_message_stays_english_and_within_keeps_the_fields():
    error = refusal(lambda: SudokuGrid.from_string(TEMOIN[9:]))
    assert str(error) == "expected 81 cells for a 9 x 9 grid (or 16, 256, 625), found 72"
    located = error.within(file="mine.txt", line=3)
    assert str(located) == f"mine.txt, line 3: {error}"
    assert (located.kind, located.found, located.file, located.line) == ("cell-count", 72, "mine.txt", 3)
    assert str(error.within(puzzle="easy-01")).startswith("puzzle easy-01: ")
    error = refusal(lambda: SudokuGrid.from_string(TEMOIN[:40] + "?" + TEMOIN[41:]))
    located = error.within(file="mine.txt", line=3)  # the text read was line 3 of mine.txt: the line is named once
    assert str(located) == "mine.txt, line 3: unknown character '?' at column 41"
    assert located.position == error.position and located.line == 3
    with pytest.raises(ValueError, match="puzzle id or a file"):
        error.within()


def test_an_error_keeps_its_fields_through_pickle():
    error = refusal(lambda: SudokuGrid.from_string(TEMOIN[:80] + "G")).within(puzzle="custom-00")
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error) and copy.details == error.details


def test_every_kind_is_declared():
    assert InvalidPuzzleError("no detail").kind == "invalid"
    with pytest.raises(ValueError, match="unknown error kind"):
        InvalidPuzzleError("x", "typo")
    assert len(set(ERROR_KINDS)) == len(ERROR_KINDS)
