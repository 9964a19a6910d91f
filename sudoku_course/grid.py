"""The Sudoku grid: cells, givens, units, peers, candidates, parsing and display.

A grid has n x n cells holding 0 (empty) or a digit 1..n, where n = b * b and
b is the box size (3 for the classic 9 x 9 grid; 2, 4 and 5 also work).
Cells are addressed by (row, column), both counted from 0.
"""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import numpy as np

EMPTY_CHARS = ".0X-*"
DRAWING_CHARS = "|+"
SYMBOLS = "123456789ABCDEFGHIJKLMNOP"  # digits 1..25, in either case: 10 is A, 16 is G, 25 is P
SIZES = {b * b * b * b: b for b in (2, 3, 4, 5)}  # cell count -> box size
SIDES = {b * b for b in SIZES.values()}  # allowed grid sides: 4, 9, 16, 25


ERROR_KINDS = (
    "cell-count",  # not as many cells as a grid has: expected and found are counts
    "character",  # a character that is neither a digit nor an empty mark: character, position
    "symbol-range",  # a symbol beyond the grid's digits (G in a 9 x 9 grid): character, position, expected, found
    "shape",  # an array that is not a square grid: found is its shape
    "box-size",  # a box size that does not fit the grid: expected (the box size that fits), found
    "value",  # a cell value outside 0..n: expected (0, n), found, cells
    "givens-shape",  # a givens mask of the wrong shape: expected and found are shapes
    "givens-conflict",  # two givens with the same digit in one unit: found (the digit), unit, cells
    "no-solution",  # deductions reached a contradiction: cells (the cell left without a digit, if known)
    "invalid",  # anything else
)
"""The kinds of InvalidPuzzleError, each with the fields it fills."""


@dataclass(frozen=True)
class TextPosition:
    """Where a character stands in a text: line and column from 1 (as an editor shows them), index from 0."""

    line: int
    column: int
    index: int


@dataclass(frozen=True)
class ErrorDetails:
    """The structured fields of an InvalidPuzzleError (see ERROR_KINDS for which kind fills which)."""

    kind: str = "invalid"
    position: TextPosition | None = None  # in the text read
    character: str | None = None
    expected: Any = None
    found: Any = None
    unit: tuple[str, int] | None = None  # ("row" | "column" | "box", index from 0)
    cells: tuple[tuple[int, int], ...] = ()  # (row, column), from 0
    puzzle: str | None = None  # id of the puzzle in a campaign
    file: str | None = None  # file read, with `line` the puzzle's line in it
    line: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ERROR_KINDS:
            raise ValueError(f"unknown error kind {self.kind!r}; expected one of {list(ERROR_KINDS)}")


class InvalidPuzzleError(ValueError):
    """A puzzle that cannot be read or cannot have a solution.

    `str(error)` is the English message; `kind`, `position`, `character`, `expected`, `found`, `unit`,
    `cells`, `puzzle`, `file` and `line` say the same in fields, so that a display can word it in
    another language. `kind` is one of ERROR_KINDS.
    """

    def __init__(self, message: str, kind: str = "invalid", **fields: Any) -> None:
        super().__init__(message)
        self.message = message
        self._use(ErrorDetails(kind, **fields))

    def _use(self, details: ErrorDetails) -> None:
        self.details = details
        self.__dict__.update(vars(details))  # error.kind, error.position, ... read the details

    def __reduce__(self):  # pickled with its details (errors cross process boundaries in parallel campaigns)
        return _rebuilt_error, (self.message, self.details)

    def within(self, *, puzzle: str | None = None, file: str | None = None, line: int | None = None):
        """The same error located in a campaign (`puzzle` id) or a file (`file`, `line`): the message gets a
        prefix, the fields are kept. A text read from one line of a file names that line once: "bad.txt, line 2:
        unknown character '#' at column 3"."""
        message = self.message
        if puzzle is not None:
            prefix = f"puzzle {puzzle}: "
        elif file is not None and line is not None:
            prefix = f"{file}, line {line}: "
            if self.position is not None and self.position.line == 1:  # the text is that line: name it once
                message = message.replace(_at(self.position), f"at column {self.position.column}", 1)
        elif file is not None:
            prefix = f"{file}: "
        else:
            raise ValueError("within needs a puzzle id or a file")
        return _rebuilt_error(prefix + message, replace(self.details, puzzle=puzzle, file=file, line=line))


def _rebuilt_error(message: str, details: ErrorDetails) -> InvalidPuzzleError:
    error = InvalidPuzzleError(message)
    error._use(details)
    return error


@dataclass(frozen=True)
class Layout:
    """Units and peers of an n x n grid, as flat cell indices (row * n + column)."""

    box_size: int
    size: int
    rows: tuple[tuple[int, ...], ...]
    columns: tuple[tuple[int, ...], ...]
    boxes: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]

    @property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """All units: the rows, then the columns, then the boxes."""
        return self.rows + self.columns + self.boxes

    def box_of(self, row: int, col: int) -> int:
        """Index of the box holding (row, col), boxes numbered row by row."""
        b = self.box_size
        return (row // b) * b + col // b


@cache
def layout(box_size: int = 3) -> Layout:
    """The (cached) layout of a grid whose boxes are box_size x box_size."""
    b, n = box_size, box_size * box_size
    rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
    columns = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
    boxes = tuple(
        tuple((br * b + i) * n + bc * b + j for i in range(b) for j in range(b)) for br in range(b) for bc in range(b)
    )
    peers = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        units = (rows[r], columns[c], boxes[(r // b) * b + c // b])
        peers.append(tuple(sorted({p for unit in units for p in unit} - {cell})))
    return Layout(b, n, rows, columns, boxes, tuple(peers))


class SudokuGrid:
    """An n x n Sudoku grid: 0 means empty; `givens` marks the clues."""

    def __init__(self, cells, box_size: int | None = None, givens=None) -> None:
        array = np.array(cells, dtype=np.int64)
        if array.ndim == 1:
            array = _square(array)
        n = array.shape[0] if array.ndim == 2 else 0
        if array.shape != (n, n) or n not in SIDES:
            raise InvalidPuzzleError(
                f"expected a square grid of side 4, 9, 16 or 25, got shape {array.shape}",
                "shape",
                expected=tuple(sorted(SIDES)),
                found=array.shape,
            )
        self.box_size = box_size or int(round(n**0.5))
        if self.box_size**2 != n:
            raise InvalidPuzzleError(
                f"box size {self.box_size} does not fit a grid of side {n}",
                "box-size",
                expected=round(n**0.5),
                found=self.box_size,
            )
        if array.min() < 0 or array.max() > n:
            r, c = np.argwhere((array < 0) | (array > n))[0]
            raise InvalidPuzzleError(
                f"value {array[r, c]} at row {r + 1}, column {c + 1} is outside 0..{n}",
                "value",
                expected=(0, n),
                found=int(array[r, c]),
                cells=((int(r), int(c)),),
            )
        self.cells = array
        self.givens = (array != 0) if givens is None else np.array(givens, dtype=bool)
        if self.givens.shape != array.shape:
            raise InvalidPuzzleError(
                f"givens mask has shape {self.givens.shape}, expected {array.shape}",
                "givens-shape",
                expected=array.shape,
                found=self.givens.shape,
            )

    # ----------------------------------------------------------------- parsing
    @classmethod
    def from_string(cls, text: str, box_size: int | None = None, *, validate: bool = True) -> SudokuGrid:
        """Read a grid from one line or a drawing (`.0X-*` are empty; `|`, `+`, spaces ignored).

        The number of cells gives the size, which accepts only its own symbols (see `symbols_of`): a letter
        in a 9 x 9 grid is refused with its line, column and character.
        """
        values, places = [], []  # places: (character, position) of each cell, for error messages
        lines = text.splitlines(keepends=True) or [""]
        separators = _separator_lines(lines)
        start = 0  # index in `text` of the line's first character
        for line_no, line in enumerate(lines, start=1):
            for col_no, char in enumerate(line, start=1):
                if line_no - 1 in separators or char.isspace() or char in DRAWING_CHARS:
                    continue
                position = TextPosition(line_no, col_no, start + col_no - 1)
                if char.upper() in EMPTY_CHARS:
                    values.append(0)
                elif char.upper() in SYMBOLS:
                    values.append(SYMBOLS.index(char.upper()) + 1)
                else:
                    raise InvalidPuzzleError(
                        f"unknown character {char!r} {_at(position)}", "character", character=char, position=position
                    )
                places.append((char, position))
            start += len(line)
        expected = box_size**4 if box_size else 81
        if box_size and len(values) != expected:
            raise InvalidPuzzleError(
                f"expected {expected} cells for box size {box_size}, found {len(values)}",
                "cell-count",
                expected=expected,
                found=len(values),
            )
        if len(values) not in SIZES:
            raise _cell_count_error(len(values))
        side = SIZES[len(values)] ** 2
        for value, (char, position) in zip(values, places, strict=True):
            if value > side:
                raise InvalidPuzzleError(
                    f"character {char!r} {_at(position)} is not a symbol of a {side} x {side} grid"
                    f" ({symbols_of(side)})",
                    "symbol-range",
                    character=char,
                    position=position,
                    expected=(1, side),
                    found=value,
                )
        return cls.from_array(values, box_size, validate=validate)

    @classmethod
    def from_array(cls, cells, box_size: int | None = None, givens=None, *, validate: bool = True) -> SudokuGrid:
        """Build a grid from a 2-D array (or a flat sequence) of integers, 0 meaning empty."""
        grid = cls(cells, box_size, givens)
        if validate:
            grid.check_givens()
        return grid

    def to_string(self, empty: str = "0") -> str:
        """The grid as one line, row by row (81 characters for 9 x 9)."""
        return "".join(SYMBOLS[v - 1] if v else empty for v in self.cells.ravel().tolist())

    # --------------------------------------------------------------- structure
    @property
    def size(self) -> int:
        """Side n of the grid."""
        return self.cells.shape[0]

    @property
    def layout(self) -> Layout:
        """Units and peers as flat indices, shared by every grid of this size."""
        return layout(self.box_size)

    @property
    def units(self) -> list[list[tuple[int, int]]]:
        """The 3n units (rows, then columns, then boxes) as lists of (row, col)."""
        n = self.size
        return [[divmod(i, n) for i in unit] for unit in self.layout.units]

    def peers(self, row: int, col: int) -> list[tuple[int, int]]:
        """The cells sharing a row, column or box with (row, col), sorted."""
        n = self.size
        return [divmod(i, n) for i in self.layout.peers[row * n + col]]

    def candidates(self, row: int, col: int) -> list[int]:
        """Digits that (row, col) may take given its peers; [value] if it is filled."""
        if self.cells[row, col]:
            return [int(self.cells[row, col])]
        flat = self.cells.ravel()
        taken = {int(flat[p]) for p in self.layout.peers[row * self.size + col]}
        return [d for d in range(1, self.size + 1) if d not in taken]

    @property
    def empty_count(self) -> int:
        """Number of empty cells."""
        return int((self.cells == 0).sum())

    def box_array(self) -> np.ndarray:
        """An n x n array whose i-th row holds the cells of box i."""
        b = self.box_size
        return self.cells.reshape(b, b, b, b).transpose(0, 2, 1, 3).reshape(self.size, self.size)

    # ----------------------------------------------------------------- checks
    def is_complete(self) -> bool:
        """True if no cell is empty."""
        return bool((self.cells != 0).all())

    def is_solved(self) -> bool:
        """True if complete and every row, column and box holds 1..n exactly once."""
        digits = np.arange(1, self.size + 1)
        return all((np.sort(units, axis=1) == digits).all() for units in (self.cells, self.cells.T, self.box_array()))

    def conflicting_cells(self) -> np.ndarray:
        """Boolean mask of filled cells whose digit also appears in one of their peers."""
        flat = self.cells.ravel()
        mask = np.zeros(flat.size, dtype=bool)
        for unit in self.layout.units:
            values = flat[list(unit)]
            counts = np.bincount(values, minlength=self.size + 1)
            duplicated = (counts[values] > 1) & (values != 0)
            mask[np.array(unit)[duplicated]] = True
        return mask.reshape(self.cells.shape)

    def check_givens(self) -> None:
        """Raise InvalidPuzzleError naming the unit and digit if two givens clash."""
        n = self.size
        flat = np.where(self.givens, self.cells, 0).ravel()
        kinds = ["row"] * n + ["column"] * n + ["box"] * n
        for index, unit in enumerate(self.layout.units):
            seen: dict[int, int] = {}
            for cell in unit:
                digit = int(flat[cell])
                if digit and digit in seen:
                    first, second = (divmod(c, n) for c in (seen[digit], cell))
                    raise InvalidPuzzleError(
                        f"givens in conflict: digit {digit} appears twice in {kinds[index]} {index % n + 1}"
                        f" (cells r{first[0] + 1}c{first[1] + 1} and r{second[0] + 1}c{second[1] + 1})",
                        "givens-conflict",
                        found=digit,
                        unit=(kinds[index], index % n),
                        cells=(first, second),
                    )
                seen[digit] = cell

    # ------------------------------------------------------------------ misc
    def copy(self) -> SudokuGrid:
        """An independent copy (cells and givens)."""
        return SudokuGrid(self.cells.copy(), self.box_size, self.givens.copy())

    def with_cells(self, cells) -> SudokuGrid:
        """A grid with the same givens and new cell values (givens must be unchanged)."""
        grid = SudokuGrid(cells, self.box_size, self.givens.copy())
        if not (grid.cells[self.givens] == self.cells[self.givens]).all():
            raise ValueError("with_cells would change a given")
        return grid

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SudokuGrid):
            return NotImplemented
        return self.box_size == other.box_size and np.array_equal(self.cells, other.cells)

    __hash__ = None  # mutable, like a list

    def __repr__(self) -> str:
        return f"SudokuGrid.from_string({self.to_string()!r})"

    def __str__(self) -> str:
        n, b = self.size, self.box_size
        width = 1 if n < 10 else 2
        lines = []
        for r in range(n):
            if r and r % b == 0:
                lines.append("-+-".join(["-" * ((width + 1) * b - 1)] * b))
            chunks = []
            for start in range(0, n, b):
                row = self.cells[r, start : start + b].tolist()
                chunks.append(" ".join((SYMBOLS[v - 1] if v else ".").rjust(width) for v in row))
            lines.append(" | ".join(chunks))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        n, b = self.size, self.box_size
        conflicts = self.conflicting_cells()
        rows = []
        for r in range(n):
            tds = []
            for c in range(n):
                v = int(self.cells[r, c])
                style = ["width:1.6em", "height:1.6em", "text-align:center", "border:1px solid #bbb"]
                if c % b == 0:
                    style.append("border-left:2px solid #000")
                if r % b == 0:
                    style.append("border-top:2px solid #000")
                if c == n - 1:
                    style.append("border-right:2px solid #000")
                if r == n - 1:
                    style.append("border-bottom:2px solid #000")
                style.append("font-weight:bold" if self.givens[r, c] else "color:#1f5fbf")
                if conflicts[r, c]:
                    style.append("background:#f8c0c0")
                text = html.escape(SYMBOLS[v - 1]) if v else "&nbsp;"
                tds.append(f'<td style="{";".join(style)}">{text}</td>')
            rows.append("<tr>" + "".join(tds) + "</tr>")
        return '<table style="border-collapse:collapse;font-family:monospace">' + "".join(rows) + "</table>"


def as_grid(puzzle) -> SudokuGrid:
    """Accept a SudokuGrid, a string or an array; return an independent SudokuGrid."""
    if isinstance(puzzle, SudokuGrid):
        return puzzle.copy()
    if isinstance(puzzle, str):
        return SudokuGrid.from_string(puzzle)
    return SudokuGrid.from_array(puzzle)


def symbols_of(side: int) -> str:
    """The symbols a grid of this side uses, as a reader types them: "1-4", "1-9", "1-9, A-G" (16), "1-9, A-P" (25)."""
    return f"1-{side}" if side <= 9 else f"1-9, A-{SYMBOLS[side - 1]}"


def _at(position: TextPosition) -> str:
    return f"at line {position.line}, column {position.column}"


def _cell_count_error(found: int) -> InvalidPuzzleError:
    return InvalidPuzzleError(
        f"expected 81 cells for a 9 x 9 grid (or 16, 256, 625), found {found}", "cell-count", expected=81, found=found
    )


def _square(values: np.ndarray) -> np.ndarray:
    if values.size not in SIZES:
        raise _cell_count_error(values.size)
    side = SIZES[values.size] ** 2
    return values.reshape(side, side)


def _separator_lines(lines: list[str]) -> set[int]:
    """Indices of the drawing lines (such as `------+-------+------`) that hold no cell.

    Only a drawing (a text with `|`, `+` or `=`) has separators. There, a line of
    `-`, `+`, `=` and `|` is a separator if it holds `+` or `=`, or if its number of
    dashes differs from the usual number of cells per row; otherwise its dashes are
    empty cells (a row such as `---|---|---`).
    """
    if not set("|+=") & set("".join(lines)):
        return set()

    def is_rule(line: str) -> bool:
        return bool(line.strip()) and not set(line.strip()) - set("-+=| ")

    cell_lines = [line for line in lines if not is_rule(line)]
    widths = Counter(sum(not c.isspace() and c not in DRAWING_CHARS for c in line) for line in cell_lines)
    row_width = widths.most_common(1)[0][0] if widths else None
    return {
        i
        for i, line in enumerate(lines)
        if is_rule(line) and ("+" in line or "=" in line or line.count("-") != row_width)
    }
