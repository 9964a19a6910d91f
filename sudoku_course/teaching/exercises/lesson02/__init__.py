"""Lesson 02 (simulated annealing): its twelve exercises, registered.

`references` holds the answers (never inside the grader's sandbox), `cases` the cases and their judges.
"""

from __future__ import annotations

from .. import Exercise, register
from . import cases

LESSON = "02-recuit-simule"
REFERENCES = f"{__name__}.references"


register(
    Exercise(
        name="partial_energy",
        lesson=LESSON,
        functions=("partial_energy",),
        reference_module=REFERENCES,
        make_cases=cases.partial_energy_cases,
        answers=("sudoku_course.cost.givens_conflicts",),
        level="échauffement",
        minutes=10,
    )
)


register(
    Exercise(
        name="block_swap_neighbour",
        lesson=LESSON,
        functions=("block_swap_neighbour",),
        reference_module=REFERENCES,
        make_cases=cases.block_swap_cases,
        level="intermédiaire",
        minutes=20,
    )
)


register(
    Exercise(
        name="metropolis_accept",
        lesson=LESSON,
        functions=("metropolis_accept",),
        reference_module=REFERENCES,
        make_cases=cases.metropolis_cases,
        level="échauffement",
        minutes=10,
    )
)


register(
    Exercise(
        name="anneal",
        lesson=LESSON,
        functions=("anneal",),
        reference_module=REFERENCES,
        make_cases=cases.anneal_cases,
        calls=("metropolis_accept",),
        time_limit=5.0,
        answers=("sudoku_course.solvers.annealing.anneal_chain", "sudoku_course.solvers.annealing.AnnealingSolver"),
        level="intermédiaire",
        minutes=45,
    )
)


register(
    Exercise(
        name="exponential_cooling",
        lesson=LESSON,
        functions=("exponential_cooling",),
        reference_module=REFERENCES,
        make_cases=cases.exponential_cases,
        level="échauffement",
        minutes=10,
    )
)


register(
    Exercise(
        name="linear_cooling",
        lesson=LESSON,
        functions=("linear_cooling",),
        reference_module=REFERENCES,
        make_cases=cases.linear_cases,
        answers=("numpy.linspace",),
        level="échauffement",
        minutes=5,
    )
)


register(
    Exercise(
        name="next_temperature",
        lesson=LESSON,
        functions=("next_temperature",),
        reference_module=REFERENCES,
        make_cases=cases.next_temperature_cases,
        level="intermédiaire",
        minutes=10,
    )
)


register(
    Exercise(
        name="adapt_alpha",
        lesson=LESSON,
        functions=("adapt_alpha",),
        reference_module=REFERENCES,
        make_cases=cases.adapt_alpha_cases,
        answers=("sudoku_course.solvers.annealing.adapted_alpha",),
        level="intermédiaire",
        minutes=10,
    )
)


register(
    Exercise(
        name="anneal_with_rule",
        lesson=LESSON,
        functions=("anneal_with_rule",),
        reference_module=REFERENCES,
        make_cases=cases.anneal_with_rule_cases,
        calls=("metropolis_accept",),
        time_limit=5.0,
        answers=("sudoku_course.solvers.annealing.anneal_chain", "sudoku_course.solvers.annealing.AnnealingSolver"),
        level="avancé",
        minutes=30,
    )
)


register(
    Exercise(
        name="extended_move",
        lesson=LESSON,
        functions=("extended_move", "undo_move"),
        reference_module=REFERENCES,
        make_cases=cases.extended_move_cases,
        level="avancé",
        minutes=25,
    )
)


register(
    Exercise(
        name="ratios",
        lesson=LESSON,
        functions=("ratios",),
        reference_module=REFERENCES,
        make_cases=cases.ratios_cases,
        level="échauffement",
        minutes=5,
    )
)


register(
    Exercise(
        name="growth_class",
        lesson=LESSON,
        functions=("growth_class",),
        reference_module=REFERENCES,
        make_cases=cases.growth_class_cases,
        level="intermédiaire",
        minutes=10,
    )
)
