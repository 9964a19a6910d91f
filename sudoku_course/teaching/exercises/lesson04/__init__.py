"""Lesson 04 (representation versus algorithm): its eight exercises, registered; the last four are « pour aller
plus loin » (outside the session's essential path).

`references` holds the answers (never inside the grader's sandbox), `cases` the cases and their judges.
"""

from __future__ import annotations

from .. import Exercise, register
from . import cases

LESSON = "04-representation-contre-algorithme"
REFERENCES = f"{__name__}.references"


register(
    Exercise(
        name="effects_2x2",
        lesson=LESSON,
        functions=("effects_2x2",),
        reference_module=REFERENCES,
        make_cases=cases.effects_cases,
        answers=("sudoku_course.crossstudy.bootstrap_effects", "sudoku_course.crossstudy._design_effects"),
        level="intermédiaire",
        minutes=15,
    )
)


register(
    Exercise(
        name="bootstrap_gap",
        lesson=LESSON,
        functions=("bootstrap_gap",),
        reference_module=REFERENCES,
        make_cases=cases.bootstrap_cases,
        time_limit=5.0,
        answers=("sudoku_course.crossstudy.bootstrap_effects",),
        level="avancé",
        minutes=25,
    )
)


register(
    Exercise(
        name="percentile_interval",
        lesson=LESSON,
        functions=("percentile_interval",),
        reference_module=REFERENCES,
        make_cases=cases.interval_cases,
        prepare="percentile_inputs",
        answers=(),
        level="intermédiaire",
        minutes=10,
    )
)


register(
    Exercise(
        name="anneal_in_space",
        lesson=LESSON,
        functions=("anneal_in_space",),
        reference_module=REFERENCES,
        make_cases=cases.annealer_cases,
        time_limit=10.0,
        answers=("sudoku_course.solvers.annealing.SpaceAnnealing", "sudoku_course.crossstudy.engine"),
        level="intermédiaire",
        minutes=30,
    )
)


register(
    Exercise(
        name="cross_study",
        lesson=LESSON,
        functions=("cross_study",),
        reference_module=REFERENCES,
        make_cases=cases.cross_study_cases,
        time_limit=20.0,
        level="intermédiaire",
        minutes=15,
        essential=False,
    )
)


register(
    Exercise(
        name="annealing_design",
        lesson=LESSON,
        functions=("annealing_design",),
        reference_module=REFERENCES,
        make_cases=cases.annealing_design_cases,
        level="échauffement",
        minutes=10,
        essential=False,
    )
)


register(
    Exercise(
        name="grid_change_rate",
        lesson=LESSON,
        functions=("grid_change_rate",),
        reference_module=REFERENCES,
        make_cases=cases.change_rate_cases,
        time_limit=10.0,
        level="intermédiaire",
        minutes=15,
        essential=False,
    )
)


register(
    Exercise(
        name="count_distinct_grids",
        lesson=LESSON,
        functions=("count_distinct_grids",),
        reference_module=REFERENCES,
        make_cases=cases.count_distinct_cases,
        answers=("sudoku_course.crossstudy.distinct_grids", "sudoku_course.crossstudy.distinct_per_generation"),
        level="échauffement",
        minutes=10,
        essential=False,
    )
)
