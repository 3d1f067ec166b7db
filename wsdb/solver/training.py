"""Training a learned guide (:mod:`.value_net`). By default (``targets=
"walks"``) a state's target is the length of the walk that reached it,
CayleyPy's recipe; with ``"iteration"``, approximate value iteration as
DeepCubeA does (Agostinelli et al. 2019, "deep approximate
value iteration"): the estimate of a state is pulled toward one more than
the smallest estimate among its children, read from a frozen copy of the
network (the *target*) that is refreshed every round. Solved states are
worth 0, so values spread outward from the goal by about a move a round.

Three facts the engine knows make the targets better than plain value
iteration:

* a state reached by a walk of k moves is at most k moves from solved
  (:mod:`.walks`), so a target never exceeds its walk's length;
* where a stored tree holds the state, its depth is the exact target;
* where a partial tree of height h does not hold it, the distance is more
  than h, so no target is below h + 1.

The run is a pure function of its :class:`Recipe` (seed included) and the
tree: each round's states come from one Generator whose state is kept
with the weights, so a run stopped after any round and resumed
(:class:`Run`) ends on the same weights as one that never stopped.
Optimiser: Adam (Kingma and Ba 2015) on the mean squared error.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Callable, Protocol

import numpy as np

from ..puzzle import Puzzle
from .value_net import ValueNet, gradients, one_hot
from .walks import UNBOUNDED, training_states

ADAM_BETAS = (0.9, 0.999)
ADAM_EPS = 1e-8


class Exact(Protocol):
    """A stored tree as the training reads it: the depth of each state
    (-1 where it is not held) and the height within which it holds all."""

    height: int

    def depth(self, cells: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class Recipe:
    """Everything that decides a training run's weights."""

    hidden: tuple[int, int] = (128, 64)
    rounds: int = 40
    steps: int = 50  # optimiser steps a round; the target is refreshed between rounds
    batch: int = 1000  # states a step
    longest: int = 40  # the longest random walk
    drawn_share: float = 0.1  # of a batch, states drawn uniformly (where every arrangement is a state)
    rate: float = 3e-3  # Adam's step size (4x4 four colours, 64 and 32 units, 120 steps: rank correlation 0.69 at 3e-3, 0.26 at 1e-3)
    seed: int = 0
    #: "walks": each state's target is its walk's length (CayleyPy's recipe: an estimate that
    #: ranks by how far a walk got, no child scored); "iteration": approximate value iteration
    targets: str = "walks"

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["hidden"] = list(self.hidden)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Recipe":
        return cls(**{**d, "hidden": tuple(d["hidden"])})


@dataclass
class Run:
    """A training run as it stands after some rounds: the weights, the
    target, Adam's moments, the Generator's state and each round's loss.
    Everything here is what :func:`train` needs to go on."""

    recipe: Recipe
    net: ValueNet
    target: ValueNet
    moments: list[np.ndarray]  # Adam's first moments, then its second, one per weight array
    rng_state: dict
    rounds_done: int = 0
    steps_done: int = 0  # Adam's step count (its bias correction)
    losses: list[float] = field(default_factory=list)

    @classmethod
    def start(cls, puzzle: Puzzle, recipe: Recipe) -> "Run":
        rng = np.random.default_rng(recipe.seed)
        net = ValueNet.initial(puzzle.ncells, puzzle.c, recipe.hidden, rng)
        zero = ValueNet.of(puzzle.ncells, puzzle.c, [np.zeros_like(a) for a in net.arrays])  # values start at 0
        moments = [np.zeros_like(a) for a in net.arrays] * 2
        return cls(recipe, net, zero, moments, dict(rng.bit_generator.state))

    @property
    def done(self) -> bool:
        return self.rounds_done >= self.recipe.rounds


def targets(
    puzzle: Puzzle, states: np.ndarray, bounds: np.ndarray, target: ValueNet, exact: Exact | None
) -> np.ndarray:
    """The value-iteration target of each state: 0 when solved, else one
    more than its smallest child estimate (a solved child counts 0),
    capped by the walk's length and set or raised by the tree ``exact``."""
    count, ncells = states.shape
    kids = states[:, puzzle.moves].reshape(-1, ncells)
    kv = np.maximum(target.values(kids), 0.0)
    kv[puzzle.solved_rows(kids)] = 0.0
    y = 1.0 + kv.reshape(count, -1).min(axis=1)
    return _corrected(puzzle, states, np.minimum(y, bounds.astype(np.float32)), exact)


def walk_targets(puzzle: Puzzle, states: np.ndarray, bounds: np.ndarray, exact: Exact | None) -> np.ndarray:
    """Each walked state's walk length (a drawn state's: the walks'
    longest), set or raised by the tree ``exact`` as :func:`targets` does."""
    y = np.minimum(bounds, bounds[bounds < UNBOUNDED].max(initial=0)).astype(np.float32)
    return _corrected(puzzle, states, y, exact)


def _corrected(puzzle: Puzzle, states: np.ndarray, y: np.ndarray, exact: Exact | None) -> np.ndarray:
    """Targets ``y`` with what is known: 0 where solved, the tree's depth
    where it holds the state, at least its height + 1 where it does not."""
    y = y.astype(np.float32)
    y[puzzle.solved_rows(states)] = 0.0
    if exact is not None:
        d = exact.depth(states)
        y = np.where(d >= 0, d, np.maximum(y, exact.height + 1)).astype(np.float32)
    return y


def train(
    puzzle: Puzzle, run: Run, exact: Exact | None = None, after_round: Callable[[Run], None] | None = None
) -> Run:
    """Go on with ``run`` until its recipe's rounds are done, calling
    ``after_round`` after each (to keep it, to show progress)."""
    r = run.recipe
    rng = np.random.default_rng()
    rng.bit_generator.state = run.rng_state
    while not run.done:
        losses = []
        for _ in range(r.steps):
            states, bounds = training_states(puzzle, r.batch, r.longest, r.drawn_share, rng)
            if r.targets == "walks":
                y = walk_targets(puzzle, states, bounds, exact)
            else:
                y = targets(puzzle, states, bounds, run.target, exact)
            loss, grads = gradients(run.net, one_hot(states, puzzle.c), y)
            _adam(run, grads)
            losses.append(loss)
        run.target = run.net
        run.rounds_done += 1
        run.losses.append(float(np.mean(losses)))
        run.rng_state = dict(rng.bit_generator.state)
        if after_round is not None:
            after_round(run)
    return run


def _adam(run: Run, grads: list[np.ndarray]) -> None:
    """One Adam step on ``run.net`` (a new ValueNet: the target keeps the old arrays)."""
    b1, b2 = ADAM_BETAS
    k = len(grads)
    run.steps_done += 1
    t = run.steps_done
    new = []
    for i, (w, g) in enumerate(zip(run.net.arrays, grads)):
        m = run.moments[i] = b1 * run.moments[i] + (1 - b1) * g
        v = run.moments[k + i] = b2 * run.moments[k + i] + (1 - b2) * g * g
        step = run.recipe.rate * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + ADAM_EPS)
        new.append(w - step)
    run.net = ValueNet.of(run.net.cells, run.net.labels, new)
