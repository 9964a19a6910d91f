"""Lesson 03 (particle swarms): its eight exercises, registered.

`references` holds the answers (never inside the grader's sandbox), `provided` the swarm loop that flies the
student's step, `cases` the cases and their judges.
"""

from __future__ import annotations

from .. import Exercise, register
from . import cases

LESSON = "03-essaim-particulaire"
REFERENCES = f"{__name__}.references"
STUDY_TIME_LIMIT = 30.0  # seconds per case for the exercises that run solvers


register(
    Exercise(
        name="swarm_size_study",
        lesson=LESSON,
        functions=("swarm_size_study",),
        reference_module=REFERENCES,
        make_cases=cases.swarm_size_cases,
        time_limit=STUDY_TIME_LIMIT,
        level="échauffement",
        minutes=15,
    )
)


register(
    Exercise(
        name="track_convergence",
        lesson=LESSON,
        functions=("track_convergence",),
        reference_module=REFERENCES,
        make_cases=cases.convergence_cases,
        time_limit=STUDY_TIME_LIMIT,
        level="échauffement",
        minutes=10,
    )
)


register(
    Exercise(
        name="box_descent",
        lesson=LESSON,
        functions=("box_descent",),
        reference_module=REFERENCES,
        make_cases=cases.box_descent_cases,
        prepare="descent_starts",
        time_limit=STUDY_TIME_LIMIT,
        answers=("sudoku_course.solvers.local_search.hill_climb",),
        level="intermédiaire",
        minutes=25,
    )
)


register(
    Exercise(
        name="hybrid_step",
        lesson=LESSON,
        functions=("hybrid_step",),
        reference_module=REFERENCES,
        make_cases=cases.hybrid_step_cases,
        level="avancé",
        minutes=20,
    )
)


register(
    Exercise(
        name="apply_swaps",
        lesson=LESSON,
        functions=("apply_swaps",),
        reference_module=REFERENCES,
        make_cases=cases.apply_swaps_cases,
        answers=("sudoku_course.solvers.swarm.apply_velocity",),
        level="échauffement",
        minutes=5,
    )
)


register(
    Exercise(
        name="swap_difference",
        lesson=LESSON,
        functions=("swap_difference",),
        reference_module=REFERENCES,
        make_cases=cases.swap_difference_cases,
        answers=("sudoku_course.solvers.swarm.velocity_difference",),
        level="intermédiaire",
        minutes=20,
    )
)


register(
    Exercise(
        name="scale_swaps",
        lesson=LESSON,
        functions=("scale_swaps",),
        reference_module=REFERENCES,
        make_cases=cases.scale_swaps_cases,
        answers=("sudoku_course.solvers.swarm.scale_velocity",),
        level="échauffement",
        minutes=10,
    )
)


register(
    Exercise(
        name="swap_pso_step",
        lesson=LESSON,
        functions=("swap_pso_step",),
        reference_module=REFERENCES,
        make_cases=cases.swap_pso_step_cases,
        calls=("apply_swaps", "swap_difference", "scale_swaps"),
        time_limit=30.0,
        answers=(
            "sudoku_course.solvers.swarm.SwapPSO.move",
            "sudoku_course.solvers.swarm.apply_velocity",
            "sudoku_course.solvers.swarm.velocity_difference",
            "sudoku_course.solvers.swarm.scale_velocity",
        ),
        level="intermédiaire",
        minutes=20,
    )
)


register(
    Exercise(
        name="grid_search",
        lesson=LESSON,
        functions=("grid_search",),
        reference_module=REFERENCES,
        make_cases=cases.grid_search_cases,
        level="intermédiaire",
        minutes=20,
    )
)
