"""Lesson 01 (genetic algorithm): its seven exercises, registered.

`references` holds the answers (never inside the grader's sandbox), `provided` the loop `evolve` that runs
the student's generation, `cases` the cases and their judges.
"""

from __future__ import annotations

from .. import Exercise, register
from . import cases

LESSON = "01-algorithme-genetique"
REFERENCES = f"{__name__}.references"


register(
    Exercise(
        name="weighted_fitness",
        lesson=LESSON,
        functions=("weighted_fitness",),
        reference_module=REFERENCES,
        make_cases=cases.weighted_fitness_cases,
        answers=("sudoku_course.cost.weighted_conflicts", "sudoku_course.cost.unit_conflicts"),
        level="échauffement",
        minutes=10,
    )
)


register(
    Exercise(
        name="swap_mutation",
        lesson=LESSON,
        functions=("swap_mutation",),
        reference_module=REFERENCES,
        make_cases=cases.swap_mutation_cases,
        answers=("sudoku_course.solvers.genetic.swap_mutation",),
        level="intermédiaire",
        minutes=15,
    )
)


register(
    Exercise(
        name="uniform_crossover",
        lesson=LESSON,
        functions=("uniform_crossover",),
        reference_module=REFERENCES,
        make_cases=cases.uniform_crossover_cases,
        time_limit=5.0,
        answers=("sudoku_course.solvers.genetic.uniform_crossover",),
        level="intermédiaire",
        minutes=20,
    )
)


register(
    Exercise(
        name="tournament_selection",
        lesson=LESSON,
        functions=("tournament_selection",),
        reference_module=REFERENCES,
        make_cases=cases.tournament_cases,
        level="intermédiaire",
        minutes=15,
    )
)


register(
    Exercise(
        name="next_generation",
        lesson=LESSON,
        functions=("next_generation",),
        reference_module=REFERENCES,
        make_cases=cases.next_generation_cases,
        calls=("tournament_selection",),
        time_limit=20.0,
        level="avancé",
        minutes=40,
    )
)


register(
    Exercise(
        name="compare_encodings",
        lesson=LESSON,
        functions=("compare_encodings",),
        reference_module=REFERENCES,
        make_cases=cases.compare_encodings_cases,
        time_limit=30.0,
        level="échauffement",
        minutes=10,
    )
)


register(
    Exercise(
        name="time_ratio",
        lesson=LESSON,
        functions=("time_ratio",),
        reference_module=REFERENCES,
        make_cases=cases.time_ratio_cases,
        level="échauffement",
        minutes=10,
    )
)
