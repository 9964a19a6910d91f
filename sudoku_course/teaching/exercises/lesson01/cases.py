"""Lesson 01 (genetic algorithm): the cases of a weighted fitness, two PyGAD operators, tournament selection,
a whole generation run by the loop `evolve`, success rates and time ratios, and their judges.

Each make_cases(seed) gives the public cases for seed None and cases drawn from the seed otherwise. The
operators and the generation are judged on properties of their outputs (rows still permutations, givens
kept, elites copied, children new, inputs untouched) and on an outcome (the loop `evolve` solves the témoin
with the student's generation). Randomness is judged from outputs too: each function runs twice with the
same generator, the global generators of numpy and Python seeded differently before each run, and once with
another seed; the first two outputs must agree, the third must differ.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from types import SimpleNamespace

import numpy as np

from ....grid import SudokuGrid
from ....puzzles import load_bank
from ....spaces import RowPermutationSpace
from .. import Case, Plain, plain
from ..common import (
    SMALL_SOLUTION,
    calling,
    case_rng,
    close,
    french,
    inputs_after,
    is_number,
    kind_of,
    row_permuted_state,
    seed_global_generators,
    temoin,
    temoin_solution,
    unchanged,
)
from .provided import BUDGET, POPULATION_SIZE, evolve, population_costs, random_population

OUTCOME_SEEDS = 5


OUTCOME_NEEDED = 4  # runs of `evolve` that must solve the témoin, out of OUTCOME_SEEDS


def thousands(number: int) -> str:
    """An integer with its thousands apart, as a French text writes it: 10000 -> « 10 000 ».

    (display.french_number writes the same, but the display layer imports pandas, which the checks avoid.)
    """
    return f"{number:,}".replace(",", "\u202f")


def ga_instance(seed: int) -> SimpleNamespace:
    """What an operator may use of a pygad.GA: its seeded numpy generator `numpy_random_generator`."""
    return SimpleNamespace(numpy_random_generator=np.random.RandomState(seed))


def as_array(output: Plain, shape: tuple[int, ...]) -> tuple[np.ndarray | None, str | None]:
    """The plain output as an integer array of `shape`, or None and the French reason it is not one."""
    if output is None:
        return None, f"la fonction ne renvoie aucune valeur (None) au lieu d'un tableau de forme {shape}"
    try:
        array = np.array(output)
    except ValueError:  # ragged lists
        return None, "le résultat n'est pas un tableau rectangulaire"
    if array.shape != shape:
        return None, f"le tableau renvoyé a la forme {array.shape} au lieu de {shape}"
    if not np.issubdtype(array.dtype, np.integer):
        return None, f"le tableau renvoyé doit contenir des entiers, pas des valeurs de type {array.dtype}"
    return array, None


def three_runs(seed: int) -> tuple[tuple[int, int], ...]:
    """(seed of the global generators, seed of the generator received) of the three runs `same_and_other`
    judges: the same generator twice, the global generators seeded differently, then another generator."""
    return (1, seed), (2, seed), (3, seed + 1)


def kept_in_every_run(output: Plain, *inputs: np.ndarray) -> bool:
    """True if every run of the call left its copies of `inputs` unchanged (`output["after"]`, one per run)."""
    return all(unchanged(after, *inputs) for after in output["after"])


def same_and_other(runs: Sequence[Plain], other_must_differ: bool = True) -> str | None:
    """Judge three runs: the same generator twice (globals seeded differently), then another seed."""
    if runs[0] != runs[1]:
        return (
            "deux appels avec la même graine donnent des résultats différents : tirez tous vos nombres "
            "du générateur reçu, jamais de np.random ou de random"
        )
    if other_must_differ and runs[0] == runs[2]:
        return "deux graines différentes donnent le même résultat : les tirages doivent venir du générateur reçu"
    return None


# ------------------------------------------------------------ 1: weighted fitness
def _penalty(cells: np.ndarray, weights: tuple[float, float, float]) -> Callable[..., Plain]:
    """A call: the penalty of a copy of the grid, and the copy after the call."""
    w_row, w_col, w_box = (float(weight) for weight in weights)

    def call(function: Callable) -> Plain:
        given = cells.copy()
        penalty = plain(function(given, w_row=w_row, w_col=w_col, w_box=w_box))
        return {"penalty": penalty, "after": inputs_after(given)}

    return call


def _penalty_judge(
    cells: np.ndarray, weights: tuple[float, float, float], solved: bool
) -> Callable[[Plain], str | None]:
    """The grid unchanged; a number, never negative; 0 for a solved grid or zero weights."""

    def judge(run: Plain) -> str | None:
        if not unchanged(run["after"], cells):
            return "la grille reçue a été modifiée : une fitness note une grille sans rien y changer"
        output = run["penalty"]
        if not is_number(output):
            return f"la fonction doit renvoyer un nombre, pas {kind_of(output)}"
        if output < 0:
            return "la pénalité ne peut pas être négative : elle additionne des conflits fois des poids positifs"
        if output != 0 and (solved or not any(weights)):
            return "cette pénalité doit valoir 0 (grille résolue, ou poids tous nuls)"
        return None

    return judge


WEIGHTED_DISAGREE = (
    "ce n'est pas la somme pondérée des conflits de la grille (par unité : n moins le nombre de chiffres distincts)"
)


def weighted_fitness_cases(seed: int | None) -> list[Case]:
    """Handmade full grids with chosen weights; for a seed, random full grids of side 4, 9 and 16 in addition."""
    rng = case_rng(seed, 10)
    rows_grid = row_permuted_state(temoin(), rng)
    cells_grid = np.where(temoin().givens, temoin().cells, rng.integers(1, 10, size=(9, 9)))
    rows, columns = np.indices((9, 9))
    latin = (rows + columns) % 9 + 1  # rows and columns right, boxes wrong
    small = np.array([[1, 2, 3, 4], [1, 2, 3, 4], [4, 3, 2, 1], [2, 1, 4, 3]])
    grids = [
        ("la solution du témoin : aucune pénalité", temoin_solution().cells, (1, 1, 1), True),
        ("une grille aux lignes permutées, poids 1", rows_grid, (1, 1, 1), False),
        ("la même grille, les lignes pèsent double (elles n'ont aucun conflit)", rows_grid, (2, 1, 1), False),
        ("la même grille, poids (1 ; 3 ; 0,5)", rows_grid, (1, 3, 0.5), False),
        ("une grille tirée case par case, poids (0,5 ; 1 ; 2)", cells_grid, (0.5, 1, 2), False),
        ("lignes et colonnes justes, blocs faux, poids 1", latin, (1, 1, 1), False),
        ("la même grille, les blocs ne pèsent rien", latin, (5, 5, 0), False),
        ("une grille tirée case par case, tous les poids nuls", cells_grid, (0, 0, 0), False),
        ("une grille 4 x 4 (la taille se lit dans la grille), poids (1 ; 2 ; 4)", small, (1, 2, 4), False),
    ]
    if seed is not None:
        for size in (4, 9, 16):
            weights = tuple(round(float(w), 1) for w in rng.uniform(0.1, 3, size=3))
            label = f"une grille {size} x {size} remplie au hasard, poids ({' ; '.join(map(french, weights))})"
            grids.append((label, rng.integers(1, size + 1, size=(size, size)), weights, False))
    return [
        Case(
            label,
            _penalty(cells, weights),
            _penalty_judge(cells, weights, solved),
            agree=close,
            disagree=WEIGHTED_DISAGREE,
        )
        for label, cells, weights, solved in grids
    ]


# ------------------------------------------------------------ segments for the PyGAD operators
INTERLEAVED = [np.array([0, 2, 4, 6]), np.array([1, 3, 5]), np.array([7])]
"""Segments that are not contiguous slices of the chromosome (and one too short to swap)."""


def chromosomes(space: RowPermutationSpace, count: int, rng: np.random.Generator) -> np.ndarray:
    """`count` random chromosomes of a space, one per row."""
    return np.array([space.random(rng) for _ in range(count)])


def interleaved_population(count: int, rng: np.random.Generator) -> np.ndarray:
    """Chromosomes of 8 genes where each INTERLEAVED segment holds a permutation of its own digits."""
    population = np.zeros((count, 8), dtype=np.int64)
    for chromosome in population:
        for segment in INTERLEAVED:
            chromosome[segment] = rng.permutation(np.arange(len(segment)) + 10 * (segment[0] + 1))
    return population


def segment_of(segments: Sequence[np.ndarray]) -> dict[int, int]:
    """Position in the chromosome -> number of its segment."""
    return {int(k): s for s, segment in enumerate(segments) for k in segment}


# ------------------------------------------------------------ 2: swap mutation (PyGAD operator)
def _mutations(offspring: np.ndarray, segments: list[np.ndarray], seed: int) -> Callable[..., Plain]:
    """A call: the mutated offspring of three runs (see `same_and_other`)."""

    def call(function: Callable) -> Plain:
        runs = []
        for global_seed, ga_seed in three_runs(seed):
            seed_global_generators(global_seed)
            runs.append(plain(np.asarray(function(offspring.copy(), ga_instance(ga_seed), list(segments)))))
        return runs

    return call


def _swapped(offspring: np.ndarray, segments: Sequence[np.ndarray]) -> Callable[[Plain], str | None]:
    """Each child: exactly two genes of one segment exchanged, nothing else; reproducible from the GA's seed."""
    segments_of = segment_of(segments)

    def judge(runs: Plain) -> str | None:
        mutated, problem = as_array(runs[0], offspring.shape)
        if problem:
            return problem
        for child, (old, new) in enumerate(zip(offspring, mutated, strict=True)):
            changed = [int(k) for k in np.flatnonzero(old != new)]
            if len(changed) != 2:
                return f"l'enfant {child} a {len(changed)} gène(s) modifié(s) au lieu de 2"
            i, j = changed
            if segments_of[i] != segments_of[j]:
                return f"l'enfant {child} échange les gènes {i} et {j}, qui ne sont pas dans le même segment"
            if (new[i], new[j]) != (old[j], old[i]):
                return f"l'enfant {child} : les gènes {i} et {j} ont changé sans être échangés"
        return same_and_other(runs)

    return judge


def _spread(offspring: np.ndarray, segments: Sequence[np.ndarray]) -> Callable[[Plain], str | None]:
    """Over many children, the swaps fall in at least half of the segments."""
    segments_of = segment_of(segments)

    def judge(runs: Plain) -> str | None:
        mutated, problem = as_array(runs[0], offspring.shape)
        if problem:
            return problem
        touched = {segments_of[int(k)] for k in np.flatnonzero((mutated != offspring).any(axis=0))}
        if len(touched) < len(segments) // 2:
            count, total = len(offspring), len(segments)
            return f"en {count} enfants, les échanges ne touchent que {len(touched)} segment(s) sur {total}"
        return None

    return judge


def swap_mutation_cases(seed: int | None) -> list[Case]:
    """Children of the témoin (segments = rows), interleaved segments, one swappable segment, the spread."""
    rng = case_rng(seed, 11)
    space = RowPermutationSpace(temoin())
    one_segment = [np.array([0]), np.array([1, 2, 3]), np.array([4])]
    lonely = np.array([[7, 1, 2, 3, 8], [7, 3, 1, 2, 8], [7, 2, 3, 1, 8]])
    children, many = chromosomes(space, 30, rng), chromosomes(space, 200, rng)
    interleaved = interleaved_population(20, rng)
    first = int(rng.integers(1000))
    return [
        Case(
            "30 enfants du témoin, segments = lignes",
            _mutations(children, space.segments, first),
            _swapped(children, space.segments),
        ),
        Case(
            "segments non contigus dans le chromosome",
            _mutations(interleaved, INTERLEAVED, first + 10),
            _swapped(interleaved, INTERLEAVED),
        ),
        Case(
            "un seul segment a au moins deux gènes",
            _mutations(lonely, one_segment, first + 20),
            _swapped(lonely, one_segment),
        ),
        Case(
            "sur 200 enfants, les échanges tombent dans plusieurs lignes",
            _mutations(many, space.segments, first + 30),
            _spread(many, space.segments),
        ),
    ]


# ------------------------------------------------------------ 3: uniform crossover (PyGAD operator)
def _crossovers(parents: np.ndarray, count: int, segments: list[np.ndarray], seed: int) -> Callable[..., Plain]:
    """A call: the parents after each run, and the children of three runs (see `same_and_other`)."""

    def call(function: Callable) -> Plain:
        runs, after = [], []
        for global_seed, ga_seed in three_runs(seed):
            seed_global_generators(global_seed)
            given = parents.copy()
            children = function(given, (count, parents.shape[1]), ga_instance(ga_seed), list(segments))
            runs.append(plain(np.asarray(children)))
            after.append(inputs_after(given))
        return {"after": after, "runs": runs}

    return call


def _uniform(parents: np.ndarray, count: int, segments: Sequence[np.ndarray], min_parents: int = 2):
    """Children of the right shape, each segment copied whole from one of two parents, parents untouched, a
    fifth of the children at least mixing two parents, `min_parents` parents used, reproducible."""

    def judge(output: Plain) -> str | None:
        if not kept_in_every_run(output, parents):
            return "les parents ont été modifiés : un croisement doit créer de nouveaux enfants"
        children, problem = as_array(output["runs"][0], (count, parents.shape[1]))
        if problem:
            return problem
        mixed, used = 0, set()
        for number, child in enumerate(children):
            # sources[s]: the parents whose segment s is exactly the child's segment s
            sources = [{int(p) for p in np.flatnonzero((parents[:, s] == child[s]).all(axis=1))} for s in segments]
            if not all(sources):
                return f"un segment de l'enfant {number} ne vient tel quel d'aucun parent"
            candidates = sorted(set.union(*sources))
            pairs = [{a, b} for k, a in enumerate(candidates) for b in candidates[k:]]
            if not any(all(pair & source for source in sources) for pair in pairs):
                return f"l'enfant {number} prend ses segments chez plus de deux parents"
            mixed += not set.intersection(*sources)  # no single parent gave every segment
            used |= set.union(*sources)
        if mixed < count / 5:
            return f"seulement {mixed} enfant(s) sur {count} mélangent deux parents"
        if len(used) < min_parents:
            return f"les enfants ne viennent que de {len(used)} parent(s) sur {len(parents)}"
        return same_and_other(output["runs"])

    return judge


def distinct_parents(space: RowPermutationSpace, count: int, rng: np.random.Generator) -> np.ndarray:
    """`count` chromosomes of a space that differ in every segment: each segment of a child names its parent."""
    parents = np.repeat(space.random(rng)[None, :], count, axis=0)
    for segment in space.segments:
        orders: list[tuple[int, ...]] = []
        while len(orders) < count:
            order = tuple(int(gene) for gene in rng.permutation(parents[0, segment]))
            if order not in orders:
                orders.append(order)
        parents[:, segment] = orders
    return parents


def _children_sources(
    output: Plain, parents: np.ndarray, count: int, segments: Sequence[np.ndarray], nobody: str
) -> tuple[np.ndarray | None, str | None]:
    """The parent each segment of each child of the first run comes from, or the problem that prevents it
    (parents changed, wrong shape, a segment from no parent: `nobody`)."""
    if not kept_in_every_run(output, parents):
        return None, "les parents ont été modifiés : un croisement doit créer de nouveaux enfants"
    children, problem = as_array(output["runs"][0], (count, parents.shape[1]))
    if problem:
        return None, problem
    sources = _sources(parents, children, segments)
    return sources, None if sources is not None else f"un segment d'un enfant ne vient tel quel d'{nobody}"


def _sources(parents: np.ndarray, children: np.ndarray, segments: Sequence[np.ndarray]) -> np.ndarray | None:
    """For parents that differ in every segment: the parent of each segment of each child (children x segments),
    or None if a segment of a child comes from no parent."""
    sources = np.full((len(children), len(segments)), -1)
    for s, segment in enumerate(segments):
        same = (children[:, None, segment] == parents[None, :, segment]).all(axis=2)  # children x parents
        sources[same.any(axis=1), s] = same.argmax(axis=1)[same.any(axis=1)]
    return None if (sources < 0).any() else sources


UNIFORM_RULE = (
    "chaque enfant a deux parents différents, et chaque segment vient de l'un ou de l'autre avec une chance sur "
    "deux, indépendamment des autres segments"
)


def _coin_flips(parents: np.ndarray, count: int, segments: Sequence[np.ndarray]) -> Callable[[Plain], str | None]:
    """Two parents that differ in every segment, many children: the number of segments a child takes from
    parent 0 spreads around half the segments as fair coin flips do, and the parent changes from one segment
    to the next half of the time.

    With k the segments taken from parent 0 out of m, fair coins give a mean of (k - m/2)² of m/4 (2.25 for 9
    segments; one parent chosen with probability 1/4 gives 6.75, a child copying one parent half of the time
    11.25, a one-point crossover 5.25), and (m - 1)/2 changes of parent (4; a one-point crossover at most 1).
    The bounds hold for a right answer with overwhelming probability on 1 000 children (more than 5 standard
    deviations away).
    """
    m = len(segments)

    def judge(output: Plain) -> str | None:
        sources, problem = _children_sources(output, parents, count, segments, "aucun des deux parents")
        if problem:
            return problem
        from_first = (sources == 0).sum(axis=1)
        spread = float(np.mean((from_first - m / 2) ** 2))
        changes = float(np.mean((np.diff(sources, axis=1) != 0).sum(axis=1)))
        if not 0.78 * m / 4 <= spread <= 1.25 * m / 4:
            return (
                f"sur {thousands(count)} enfants, l'écart carré moyen entre le nombre de segments pris au parent 0 "
                f"et {french(m / 2)} vaut {french(round(spread, 2))} au lieu d'environ {french(m / 4)} : {UNIFORM_RULE}"
            )
        if not 0.9 * (m - 1) / 2 <= changes <= 1.1 * (m - 1) / 2:
            return (
                f"sur {thousands(count)} enfants, le parent change en moyenne {french(round(changes, 2))} fois d'un "
                f"segment au suivant, au lieu d'environ {french((m - 1) / 2)} : {UNIFORM_RULE}"
            )
        return same_and_other(output["runs"])

    return judge


def _random_couples(parents: np.ndarray, count: int, segments: Sequence[np.ndarray]) -> Callable[[Plain], str | None]:
    """Parents that differ in every segment: at most two parents per child, rarely a copy of one parent (1/256
    for 9 segments, against one in ten children when a parent may mate with itself among ten), and many
    different couples (all of the 45 couples of 10 parents, against 10 for PyGAD's pairing k with k + 1)."""
    couples_needed = 2 * math.comb(len(parents), 2) // 3

    def judge(output: Plain) -> str | None:
        sources, problem = _children_sources(output, parents, count, segments, "aucun parent")
        if problem:
            return problem
        families = [sorted(set(row.tolist())) for row in sources]
        crowded = next((k for k, family in enumerate(families) if len(family) > 2), None)
        if crowded is not None:
            return f"l'enfant {crowded} prend ses segments chez plus de deux parents"
        copies = sum(len(family) == 1 for family in families)
        if copies > 0.04 * count:
            return f"{copies} enfants sur {count} recopient un seul parent en entier : {UNIFORM_RULE}"
        couples = {tuple(family) for family in families if len(family) == 2}
        if len(couples) < couples_needed:
            total = math.comb(len(parents), 2)
            return (
                f"les {count} enfants ne viennent que de {len(couples)} couples de parents sur les {total} "
                f"possibles : tirez les deux parents de chaque enfant au hasard parmi tous les parents reçus"
            )
        return same_and_other(output["runs"])

    return judge


def uniform_crossover_cases(seed: int | None) -> list[Case]:
    """Two parents of the témoin, ten parents, interleaved segments; then coin flips (1 000 children of two
    parents) and random couples (400 children of ten parents), the parents differing in every row."""
    rng = case_rng(seed, 12)
    space = RowPermutationSpace(temoin())
    two, ten, interleaved = chromosomes(space, 2, rng), chromosomes(space, 10, rng), interleaved_population(6, rng)
    two_apart, ten_apart = distinct_parents(space, 2, rng), distinct_parents(space, 10, rng)
    first = int(rng.integers(1000))
    return [
        Case(
            "2 parents du témoin, 40 enfants",
            _crossovers(two, 40, space.segments, first),
            _uniform(two, 40, space.segments),
        ),
        Case(
            "10 parents, 100 enfants : plusieurs parents servent",
            _crossovers(ten, 100, space.segments, first + 10),
            _uniform(ten, 100, space.segments, min_parents=5),
        ),
        Case(
            "segments non contigus dans le chromosome",
            _crossovers(interleaved, 60, INTERLEAVED[:2], first + 20),
            _uniform(interleaved, 60, INTERLEAVED[:2]),
        ),
        Case(
            "2 parents différents sur chaque ligne, 1 000 enfants : chaque ligne se tire à pile ou face",
            _crossovers(two_apart, 1000, space.segments, first + 30),
            _coin_flips(two_apart, 1000, space.segments),
        ),
        Case(
            "10 parents différents sur chaque ligne, 400 enfants : des couples de parents tirés au hasard",
            _crossovers(ten_apart, 400, space.segments, first + 40),
            _random_couples(ten_apart, 400, space.segments),
        ),
    ]


# ------------------------------------------------------------ 4: tournament selection
def _tournaments(costs: np.ndarray, count: int, size: int, seed: int) -> Callable[..., Plain]:
    """A call: the costs after each run, and the winners of three runs (see `same_and_other`)."""

    def call(function: Callable) -> Plain:
        runs, after = [], []
        for global_seed, rng_seed in three_runs(seed):
            seed_global_generators(global_seed)
            given = costs.copy()
            runs.append(
                plain(np.asarray(function(given, count, np.random.default_rng(rng_seed), tournament_size=size)))
            )
            after.append(inputs_after(given))
        return {"after": after, "runs": runs}

    return call


def _winners(output: Plain, costs: np.ndarray, count: int) -> tuple[np.ndarray | None, str | None]:
    """The winners of the first run as an array, or the reason they are not `count` indices of the population."""
    if not kept_in_every_run(output, costs):
        return None, "le tableau des coûts a été modifié : une sélection ne doit rien changer à ce qu'elle reçoit"
    winners, problem = as_array(output["runs"][0], (count,))
    if problem:
        return None, problem
    outside = winners[(winners < 0) | (winners >= len(costs))]
    if len(outside):
        return None, f"l'indice {outside[0]} ne désigne aucun individu (la population en compte {len(costs)})"
    return winners, None


def _always_best(costs: np.ndarray, count: int) -> Callable[[Plain], str | None]:
    """Every individual competes: every winner has the lowest cost."""

    def judge(output: Plain) -> str | None:
        winners, problem = _winners(output, costs, count)
        if problem:
            return problem
        beaten = [int(k) for k in winners if costs[k] > costs.min()]
        if beaten:
            return (
                f"quand toute la population concourt, seul un individu de plus bas coût peut gagner ; "
                f"l'individu {beaten[0]}, de coût {costs[beaten[0]]}, a gagné"
            )
        return same_and_other(output["runs"], other_must_differ=False)

    return judge


def _uniform_draw(costs: np.ndarray, count: int, low: int, high: int) -> Callable[[Plain], str | None]:
    """Tournaments of one: each individual wins between `low` and `high` times."""

    def judge(output: Plain) -> str | None:
        winners, problem = _winners(output, costs, count)
        if problem:
            return problem
        wins = np.bincount(winners, minlength=len(costs))
        odd = int(np.argmax(np.abs(wins - count / len(costs))))
        if not low <= wins[odd] <= high:
            return (
                f"avec un seul participant par tournoi, chaque individu devrait gagner à peu près aussi souvent ; "
                f"sur {thousands(count)} tournois, l'individu {odd} a gagné {wins[odd]} fois"
            )
        return same_and_other(output["runs"])

    return judge


def _mean_rank(costs: np.ndarray, count: int, size: int, low: float, high: float) -> Callable[[Plain], str | None]:
    """Tournaments of `size`: the mean rank of the winners (0 = the best) lies between low and high."""
    ranks = np.argsort(np.argsort(costs, kind="stable"), kind="stable")

    def judge(output: Plain) -> str | None:
        winners, problem = _winners(output, costs, count)
        if problem:
            return problem
        mean = float(ranks[winners].mean())
        if not low <= mean <= high:
            return (
                f"sur {thousands(count)} tournois de {size} individus distincts parmi {len(costs)}, le rang moyen "
                f"du gagnant (0 = le meilleur) vaut {french(round(mean, 2))} : trop loin de ce que donne ce tournoi"
            )
        return same_and_other(output["runs"])

    return judge


def tournament_cases(seed: int | None) -> list[Case]:
    """Whole-population tournaments (with a tie), tournaments of one (distinct costs, then costs equal two by
    two: the winner is the contestant, not another individual of the same cost), tournaments of three and five."""
    rng = case_rng(seed, 13)
    distinct = rng.permutation(np.arange(8) * 3 + 5)
    tied = distinct.copy()
    tied[rng.choice(8, size=2, replace=False)] = distinct.min() - 1  # two individuals share the lowest cost
    pairs = rng.permutation(np.repeat(np.arange(3) * 4 + 6, 2))  # six individuals, their costs equal two by two
    ten = rng.permutation(np.arange(10) * 2 + 20)
    thirty = rng.permutation(np.arange(30) + 10)
    first = int(rng.integers(1000))
    return [
        Case(
            "toute la population concourt (size = 8) : le meilleur gagne toujours",
            _tournaments(distinct, 20, 8, first),
            _always_best(distinct, 20),
        ),
        Case(
            "deux individus ex æquo au plus bas coût : l'un ou l'autre gagne",
            _tournaments(tied, 40, 8, first + 10),
            _always_best(tied, 40),
        ),
        Case(
            "un seul participant par tournoi (size = 1) : un tirage uniforme",
            _tournaments(ten[:6], 3000, 1, first + 20),
            _uniform_draw(ten[:6], 3000, 400, 600),
        ),
        Case(
            "un seul participant par tournoi, coûts ex æquo deux à deux : chacun gagne aussi souvent",
            _tournaments(pairs, 3000, 1, first + 50),
            _uniform_draw(pairs, 3000, 400, 600),
        ),
        Case(
            "3 000 tournois de 3 parmi 10 : le rang moyen du gagnant",
            _tournaments(ten, 3000, 3, first + 30),
            _mean_rank(ten, 3000, 3, 1.6, 1.9),  # exactly 1.75 on average
        ),
        Case(
            "3 000 tournois de 5 parmi 30 : le rang moyen du gagnant",
            _tournaments(thirty, 3000, 5, first + 40),
            _mean_rank(thirty, 3000, 5, 3.9, 4.45),  # exactly 25 / 6 on average
        ),
    ]


# ------------------------------------------------------------ 5: one whole generation, run by the loop `evolve`
def _generations(
    population: np.ndarray, givens: np.ndarray, elitism: int, seed: int, box_size: int = 3
) -> Callable[..., Plain]:
    """A call: the population and costs after each run, and the new populations of three runs."""
    costs = population_costs(population, box_size)

    def call(function: Callable) -> Plain:
        runs, after = [], []
        for global_seed, rng_seed in three_runs(seed):
            seed_global_generators(global_seed)
            given, given_costs = population.copy(), costs.copy()
            rng = np.random.default_rng(rng_seed)
            runs.append(plain(np.asarray(function(given, given_costs, givens.copy(), rng, elitism=elitism))))
            after.append(inputs_after(given, given_costs))
        return {"after": after, "runs": runs}

    return call


def _grids_problem(new: np.ndarray, population: np.ndarray, givens: np.ndarray) -> str | None:
    """Why the grids of `new` break the space of row permutations or the givens, or None."""
    digits = np.arange(1, population.shape[1] + 1)
    for k, grid in enumerate(new):
        changed = np.argwhere(givens & (grid != population[0]))
        if len(changed):
            row, column = changed[0]
            return f"la grille d'indice {k} a changé le chiffre donné de la case ({row}, {column})"
        for row, values in enumerate(grid):
            if not np.array_equal(np.sort(values), digits):
                return (
                    f"la ligne d'indice {row} de la grille d'indice {k} n'est plus une permutation : {values.tolist()}"
                )
    return None


def _index_of(grid: np.ndarray, population: np.ndarray) -> int | None:
    """The index of a grid of the population equal to `grid`, or None."""
    same = np.flatnonzero((population == grid).all(axis=(1, 2)))
    return int(same[0]) if len(same) else None


def _elites_problem(new: np.ndarray, population: np.ndarray, costs: np.ndarray, elitism: int) -> str | None:
    """The first `elitism` grids must be the best of the old population, in order (ties in any order)."""
    best = np.sort(costs)
    for k in range(elitism):
        index = _index_of(new[k], population)
        if index is None or costs[index] != best[k]:
            rank = "la meilleure" if k == 0 else f"la n° {k + 1} des meilleures"
            return (
                f"avec elitism = {elitism}, la grille d'indice {k} de la nouvelle population doit être {rank} "
                "de l'ancienne, recopiée telle quelle"
            )
    return None


def _copies_problem(new: np.ndarray, population: np.ndarray, elitism: int) -> str | None:
    """Children (after the elites) must not be plain copies of old grids: every child is crossed, then mutated.

    One copy can happen by chance (a child crossed and mutated into another old grid, likely once the population
    has converged), so the verdict needs two copies; forgetting the mutation makes many.
    """
    copies = [k for k in range(elitism, len(new)) if _index_of(new[k], population) is not None]
    if len(copies) < 2:
        return None
    rule = "chaque grille" if elitism == 0 else f"chaque grille après les {elitism} premières"
    return (
        f"les grilles d'indices {copies[0]} et {copies[1]} de la nouvelle population sont des copies de grilles de "
        f"l'ancienne : avec elitism = {elitism}, {rule} est un enfant croisé puis muté"
    )


def _generation_judge(population: np.ndarray, givens: np.ndarray, elitism: int, box_size: int = 3):
    """Shape, inputs untouched, rows still permutations, givens kept, elites first, new children, reproducible.

    On 4 x 4 grids a child often equals an old grid by chance: there, children are not required to be new.
    """
    costs = population_costs(population, box_size)

    def judge(output: Plain) -> str | None:
        if not kept_in_every_run(output, population, costs):
            return "la population ou les coûts reçus ont été modifiés : travaillez sur des copies"
        new, problem = as_array(output["runs"][0], population.shape)
        return (
            problem
            or _grids_problem(new, population, givens)
            or _elites_problem(new, population, costs, elitism)
            or (box_size > 2 and _copies_problem(new, population, elitism))
            or same_and_other(output["runs"])
        )

    return judge


def _one_swap_judge(population: np.ndarray, givens: np.ndarray, elitism: int):
    """All the old grids are the same: after the elites, each child is that grid with two free cells of one
    row swapped."""
    grid = population[0]

    def judge(output: Plain) -> str | None:
        new, problem = as_array(output["runs"][0], population.shape)
        if problem:
            return problem
        for k in range(elitism, len(new)):
            changed = np.argwhere(new[k] != grid)
            rows = sorted({int(row) for row, _ in changed})
            if len(changed) != 2 or len(rows) != 1:
                return (
                    f"toutes les grilles reçues sont identiques, donc chaque enfant devrait en différer par un "
                    f"seul échange de deux cases d'une ligne ; la grille d'indice {k} en diffère par {len(changed)} "
                    "case(s)"
                )
            (r1, c1), (r2, c2) = changed
            if givens[r1, c1] or givens[r2, c2]:
                return f"la grille d'indice {k} a changé un chiffre donné, en ({r1}, {c1}) ou en ({r2}, {c2})"
            if not (new[k][r1, c1] == grid[r2, c2] and new[k][r2, c2] == grid[r1, c1]):
                return f"la grille d'indice {k} : les cases ({r1}, {c1}) et ({r2}, {c2}) ont changé sans être échangées"
        return None

    return judge


def _row_mix_judge(first: np.ndarray, second: np.ndarray, count: int):
    """The population holds copies of two grids A and B that differ in every row (equal costs): each row of a
    child comes whole from A or B, except one row that is a swap away; at least a quarter of the children mix
    rows of A and rows of B."""

    def judge(output: Plain) -> str | None:
        new, problem = as_array(output["runs"][0], (count, *first.shape))
        if problem:
            return problem
        mixed = 0
        for k, child in enumerate(new):
            from_first = (child == first).all(axis=1)
            from_second = (child == second).all(axis=1)
            other = np.flatnonzero(~(from_first | from_second))
            if len(other) > 1:
                return (
                    f"les lignes d'indices {other[0]} et {other[1]} de la grille d'indice {k} ne viennent ni de A ni "
                    "de B : chaque ligne d'un enfant est celle d'un parent, sauf celle que la mutation change"
                )
            mixed += from_first.any() and from_second.any()
        if mixed < count / 4:
            return (
                f"seuls {mixed} enfants sur {count} prennent des lignes chez les deux grilles A et B : le croisement "
                "doit tirer chaque ligne chez l'un ou l'autre parent"
            )
        return None

    return judge


def traceable_population(rng: np.random.Generator, count: int) -> np.ndarray:
    """`count` full 9 x 9 grids, without givens, whose rows tell their grid: the témoin's solution (the one grid
    without conflict, so the best) then random grids whose rows are permutations; two grids' rows of the same
    index differ in five cells at least, so even a row changed by a swap still tells which grid it came from."""
    grids = [temoin_solution().cells]
    while len(grids) < count:
        grid = np.array([rng.permutation(9) + 1 for _ in range(9)])
        if all((np.sum(grid != other, axis=1) >= 5).all() for other in grids):
            grids.append(grid)
    return np.array(grids)


def _parents(child: np.ndarray, population: np.ndarray) -> set[int]:
    """The grids of the population whose rows the child holds (a row changed by the mutation matches none)."""
    rows = enumerate(child)
    return {int(k) for row, values in rows for k in np.flatnonzero((population[:, row] == values).all(axis=1))}


def _parents_judge(population: np.ndarray) -> Callable[[Plain], str | None]:
    """Without elitism, each child's parents are read from its rows: the best grid must not be a parent of most
    children (a tournament of 3 among 60 grids includes it once in 20), and parents must lean towards low costs:
    the mean cost rank of tournament winners is about 14 out of 60, of grids drawn at random about 30; the verdict
    falls at a third of the population (measured over 300 seeds: at most 17.4 for the reference, at least 21.7
    for random parents)."""
    costs = population_costs(population, 3)
    ranks = np.argsort(np.argsort(costs, kind="stable"), kind="stable")  # 0: the best grid

    def judge(output: Plain) -> str | None:
        new, problem = as_array(output["runs"][0], population.shape)
        if problem:
            return problem
        parents = [_parents(child, population) for child in new]
        with_best = sum(0 in found for found in parents)
        if with_best > len(new) / 2:
            return (
                f"la grille de plus bas coût est parent de {with_best} enfants sur {len(new)} : chaque parent est le "
                "gagnant d'un tournoi (votre tournament_selection), pas la meilleure grille de la population"
            )
        mean_rank = float(np.mean([ranks[k] for found in parents for k in found]))
        if mean_rank > len(population) / 3:
            return (
                f"les parents ne penchent pas vers les grilles de bas coût (rang moyen {french(round(mean_rank, 1))} "
                f"sur {len(population)}, 0 étant la meilleure) : tirez chaque parent par un tournoi, avec votre "
                "tournament_selection(costs, ...)"
            )
        return None

    return judge


def _rises(puzzle: SudokuGrid, seed: int, **settings) -> Callable[..., Plain]:
    """A call: the generations of one run of `evolve` whose best cost is above the previous one, with both costs."""

    def call(function: Callable) -> Plain:
        history = evolve(puzzle, function, seed=seed, **settings)["history"]
        return [[k, history[k - 1], history[k]] for k in range(1, len(history)) if history[k] > history[k - 1]]

    return call


def _never_rises(rises: Plain) -> str | None:
    """With elitism, the best cost of a generation is never above the previous one."""
    if not rises:
        return None
    generation, before, after = rises[0]
    return (
        f"le meilleur coût remonte de {before} à {after} à la génération {generation} : avec l'élitisme, la "
        "meilleure grille passe telle quelle à la suivante"
    )


def _outcomes(puzzle: SudokuGrid, seeds: Sequence[int]) -> Callable[..., Plain]:
    """A call: the best grid and its cost at the end of a run of `evolve`, for each seed."""

    def call(function: Callable) -> Plain:
        runs = [evolve(puzzle, function, seed=seed) for seed in seeds]
        return [{"grid": plain(run["grid"]), "cost": run["cost"]} for run in runs]

    return call


def _solves(puzzle: SudokuGrid, needed: int) -> Callable[[Plain], str | None]:
    """At least `needed` runs end on a solution of the puzzle (givens kept)."""
    givens = puzzle.givens

    def judge(runs: Plain) -> str | None:
        grids = [np.array(run["grid"]) for run in runs]
        solved = [
            run["cost"] == 0 and np.array_equal(grid[givens], puzzle.cells[givens])
            for run, grid in zip(runs, grids, strict=True)
        ]
        if sum(solved) < needed:
            costs = ", ".join(str(run["cost"]) for run in runs)
            moved = sum(run["cost"] == 0 and not ok for run, ok in zip(runs, solved, strict=True))
            givens_note = f" ; {moved} grille(s) sans conflit ont changé des chiffres donnés" if moved else ""
            return (
                f"la boucle evolve, avec votre génération, résout le témoin pour {sum(solved)} graine(s) sur "
                f"{len(runs)} (il en faut au moins {needed}) ; conflits restants : {costs}{givens_note}"
            )
        return None

    return judge


def _small_puzzle(rng: np.random.Generator) -> SudokuGrid:
    """A 4 x 4 puzzle: a solved grid with about a third of its cells given."""
    solution = SudokuGrid.from_string(SMALL_SOLUTION).cells
    givens = rng.random((4, 4)) < 0.35
    givens[:, 0] = False  # every row keeps at least two free cells
    givens[:, 1] = False
    return SudokuGrid(np.where(givens, solution, 0))


def _two_families(rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Grids A and B, both solved, with no givens, that differ in every row and not by one swap (B relabels A's
    digits by a derangement); a population of `count` grids, A then B alternately."""
    first = temoin_solution().cells
    shift = int(rng.integers(1, 9))
    second = (first + shift - 1) % 9 + 1
    return first, second, np.array([first if k % 2 == 0 else second for k in range(count)])


def next_generation_cases(seed: int | None) -> list[Case]:
    """The structure of one generation on several populations, the loop's best cost, and the outcome."""
    rng = case_rng(seed, 14)
    puzzle, small = temoin(), _small_puzzle(rng)
    population = random_population(puzzle, 20, rng)
    same = np.repeat(random_population(puzzle, 1, rng), 10, axis=0)
    first, second, families = _two_families(rng, 60)
    traceable = traceable_population(rng, 60)
    no_givens = np.zeros((9, 9), dtype=bool)
    small_population = random_population(small, 8, rng)
    seeds = [0, 1, 2, 3, 4] if seed is None else [int(s) for s in rng.integers(10**6, size=OUTCOME_SEEDS)]
    start = int(rng.integers(1000))
    return [
        Case(
            "20 grilles du témoin, elitism = 2",
            _generations(population, puzzle.givens, 2, start),
            _generation_judge(population, puzzle.givens, 2),
        ),
        Case(
            "les mêmes grilles, elitism = 5",
            _generations(population, puzzle.givens, 5, start + 10),
            _generation_judge(population, puzzle.givens, 5),
        ),
        Case(
            "les mêmes grilles, sans élitisme (elitism = 0)",
            _generations(population, puzzle.givens, 0, start + 20),
            _generation_judge(population, puzzle.givens, 0),
        ),
        Case(
            "10 copies d'une même grille : chaque enfant en diffère par un échange dans une ligne",
            _generations(same, puzzle.givens, 1, start + 30),
            _one_swap_judge(same, puzzle.givens, 1),
        ),
        Case(
            "deux grilles A et B en 30 copies chacune : chaque ligne d'un enfant vient de A ou de B",
            _generations(families, no_givens, 0, start + 40),
            _row_mix_judge(first, second, len(families)),
        ),
        Case(
            "60 grilles aux lignes toutes différentes, sans élitisme : les parents sont des gagnants de tournois",
            _generations(traceable, no_givens, 0, start + 45),
            _parents_judge(traceable),
        ),
        Case(
            "8 grilles 4 x 4 (la taille se lit dans les tableaux), elitism = 2",
            _generations(small_population, small.givens, 2, start + 50, box_size=2),
            _generation_judge(small_population, small.givens, 2, box_size=2),
        ),
        Case(
            "la boucle evolve, 30 générations de 30 grilles : le meilleur coût ne remonte jamais",
            _rises(puzzle, start + 60, population_size=30, budget=30 * 31),
            _never_rises,
        ),
        Case(
            f"la boucle evolve résout le témoin pour au moins {OUTCOME_NEEDED} graines sur {OUTCOME_SEEDS} "
            f"({POPULATION_SIZE} grilles, budget de {thousands(BUDGET)} évaluations)",
            _outcomes(puzzle, seeds),
            _solves(puzzle, OUTCOME_NEEDED),
            points=2.0,
        ),
    ]


# ------------------------------------------------------------ 6: success rates of the encodings
def _rates_judge(encodings: Sequence[str], seeds: Sequence[int]) -> Callable[[Plain], str | None]:
    """A dict keyed by the encodings in their order, each rate a share of the seeds."""

    def judge(output: Plain) -> str | None:
        if not isinstance(output, dict):
            return f"la fonction doit renvoyer un dictionnaire {{codage: taux}}, pas {kind_of(output)}"
        if list(output) != list(encodings):
            return f"les clés doivent être les codages reçus, dans leur ordre : {list(encodings)}"
        for encoding, rate in output.items():
            if not is_number(rate) or not 0 <= rate <= 1:
                return f"le taux de {encoding!r} doit être une part des graines, entre 0 et 1"
            if not math.isclose(rate * len(seeds), round(rate * len(seeds)), abs_tol=1e-9):
                return f"le taux de {encoding!r} n'est pas un nombre de succès divisé par {len(seeds)} graines"
        return None

    return judge


def compare_encodings_cases(seed: int | None) -> list[Case]:
    """Small studies on the témoin (the same for every seed: their seeds are chosen so that using other seeds
    changes the rates), and one on an easy grid with seeds drawn from the seed."""
    rng = case_rng(seed, 15)
    easy = load_bank("easy")
    index = 5 if seed is None else int(rng.integers(2, len(easy)))
    seeds = [20, 21, 22] if seed is None else [int(s) for s in rng.integers(1000, size=3)]
    studies = [
        ("témoin, lignes contre blocs, graines 0, 1 et 2, budget 2 000", temoin(), ["rows", "boxes"], [0, 1, 2], 2_000),
        ("témoin, lignes seules, graines 1 et 2, budget 2 000", temoin(), ["rows"], [1, 2], 2_000),
        ("témoin, blocs seuls, budget trop petit pour réussir (200)", temoin(), ["boxes"], [0, 1], 200),
        (f"la grille facile-{index:02d}, lignes puis blocs, 3 graines", easy[index], ["rows", "boxes"], seeds, 3_000),
    ]
    return [
        Case(
            label,
            calling(puzzle, encodings, seeds, budget),
            _rates_judge(encodings, seeds),
            agree=close,
            disagree="ce ne sont pas les taux de succès de GeneticSolver(encoding=...) pour ces graines, ce budget",
        )
        for label, puzzle, encodings, seeds, budget in studies
    ]


# ------------------------------------------------------------ 7: time ratio against a baseline
def _ratio_judge(solved: Sequence[bool]) -> Callable[[Plain], str | None]:
    """A triple (ratio, order, failures): the failures counted from `solved`, the order read from the ratio."""

    def judge(output: Plain) -> str | None:
        if not (isinstance(output, list) and len(output) == 3):
            return f"la fonction doit renvoyer un triplet (rapport, ordre, échecs), pas {kind_of(output)}"
        ratio, order, failures = output
        if not isinstance(failures, int) or isinstance(failures, bool):
            return f"le nombre d'échecs doit être un entier, pas {kind_of(failures)}"
        if failures != list(solved).count(False):
            return "le nombre d'échecs renvoyé n'est pas le nombre d'exécutions non résolues de solved"
        if not any(solved):
            return None if ratio is None and order is None else "sans exécution résolue, rapport et ordre valent None"
        if not is_number(ratio) or ratio <= 0:
            return f"le rapport doit être un nombre positif, pas {kind_of(ratio)}"
        if not isinstance(order, int) or isinstance(order, bool):
            return f"l'ordre de grandeur doit être un entier, pas {kind_of(order)}"
        if order != math.floor(math.log10(ratio)):
            return (
                f"l'ordre renvoyé ({order}) n'est pas la partie entière par défaut du logarithme décimal du rapport "
                "renvoyé (math.floor(math.log10(rapport)))"
            )
        return None

    return judge


RATIO_DISAGREE = (
    "ce n'est pas le rapport des temps médians sur les exécutions résolues : la médiane des temps résolus, "
    "divisée par la médiane des temps de la référence sur ces mêmes exécutions"
)


def time_ratio_cases(seed: int | None) -> list[Case]:
    """Handmade runs (medians of odd and even counts, failures on the grids where the baseline is slow, a
    ratio below 1, a ratio just under 1 000, no run solved); for a seed, random runs in addition."""
    settings = [
        ("trois exécutions résolues", [2.0, 3.0, 10.0], [True, True, True], [0.001, 0.002, 0.004]),
        (
            "un échec : ni son temps ni celui de la référence sur la même grille ne comptent",
            [1.0, 50.0, 2.0, 3.0],
            [True, False, True, True],
            [0.01, 0.5, 0.02, 0.03],
        ),
        (
            "quatre exécutions résolues : médianes entre deux valeurs",
            [1.0, 2.0, 4.0, 9.0],
            [True] * 4,
            [0.001, 0.004, 0.002, 0.003],
        ),
        (
            "deux échecs sur les grilles où la référence est lente",
            [1.0, 2.0, 3.0, 40.0, 50.0],
            [True, True, True, False, False],
            [0.001, 0.002, 0.003, 0.5, 0.6],
        ),
        (
            "six exécutions, deux échecs : médianes de quatre valeurs",
            [0.5, 8.0, 1.5, 0.7, 9.0, 2.5],
            [True, False, True, True, False, True],
            [0.002, 0.09, 0.001, 0.006, 0.08, 0.004],
        ),
        ("le GA va plus vite : rapport inférieur à 1", [0.0009], [True], [0.001]),
        ("un rapport de 999 : pas encore trois ordres de grandeur", [9.99], [True], [0.01]),
        ("aucune exécution résolue", [4.0, 5.0], [False, False], [0.002, 0.003]),
    ]
    if seed is not None:
        rng = case_rng(seed, 16)
        for runs in (3, 6):
            seconds = [round(float(s), 3) for s in rng.uniform(0.05, 3, size=runs)]
            solved = [True, *(bool(x) for x in rng.random(runs - 1) < 0.7)]
            baseline = [round(float(s), 5) for s in rng.uniform(0.0005, 0.01, size=runs)]
            settings.append((f"{runs} exécutions tirées au hasard", seconds, solved, baseline))
    return [
        Case(
            label,
            calling(seconds, solved, baseline),
            _ratio_judge(solved),
            agree=close,
            disagree=RATIO_DISAGREE,
        )
        for label, seconds, solved, baseline in settings
    ]
