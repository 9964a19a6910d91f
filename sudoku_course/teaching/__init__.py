"""Teaching tools: they run notebooks, check exercises and grade students, and know nothing of solver internals.

- `exercises`: the registry, every exercise described once as data; one package per lesson, split along the
  grader's sandbox wall (`references` never inside the sandbox, `provided` loops the students import, `cases`
  and their judges, the registration), with the probes the lessons share in `exercises.common`.
- `checks`: the check cells of the exercise notebooks, a French verdict per case (`check`, `show_plan`).
- `isolation`: running a student's code in a child process that can be killed (endless loops, crashes).
- `experiments`: `experiment`, a notebook's run of a student's function, bounded in time, skipped politely.
- `grading`: grading a class in a sandbox, as one pipeline (read, hash masters, scan, sandbox run, judge,
  points, reports): grades.csv, gradebook.csv, French feedback per student.
- `authoring`: exercise notebooks generated from the solution notebooks, and the drift check.
- `notebooks`: executing the course with papermill, the normaliser, notebook hygiene rules.
- `durations`: reading times computed from a lesson's words, and the essential path of a session.
- `prose`: the figures an interpretation quotes must be printed above it; phrases that point instead.
- `display` and `labels`: the French display layer of the notebooks (numbers, labels, tables, verdicts).
- `output`: `show`, rich output in Jupyter and plain text on a console.
- `source`: `show_source`, the package's own code shown in a notebook.

Nothing is imported here, so that `import sudoku_course.teaching.checks` stays light.
"""
