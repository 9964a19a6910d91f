"""The puzzle banks (one puzzle per line), installed as the package sudoku_course.banks; see README.md."""
