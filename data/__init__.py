"""The campaigns' data (one CSV of runs and one JSON of provenance per campaign), installed as the package
sudoku_course.data; see README.md and `sudoku_course.campaigns`."""
