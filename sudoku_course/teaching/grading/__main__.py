"""`python -m sudoku_course.teaching.grading SUBMISSIONS [options]` (what `make grade` calls)."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
