"""Teaching tools: they run notebooks and grade students, and know nothing of solver internals.

- `checks`: exercise checks with a French verdict per case (imported by the exercise notebooks).
- `authoring`: exercise notebooks generated from the solution notebooks, and the drift check.
- `notebooks`: executing the course with papermill, the normaliser, notebook hygiene rules.
- `grading`: grading a class in a sandbox: grades.csv, gradebook.csv, French feedback per student.
- `display` and `labels`: the French display layer of the notebooks (numbers, labels, tables, verdicts).
- `output`: `show`, rich output in Jupyter and plain text on a console.

Nothing is imported here, so that `import sudoku_course.teaching.checks` stays light.
"""
