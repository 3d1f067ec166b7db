"""``wsdb learn``: train a learned guide (:mod:`.training`) and keep it
beside the database (:mod:`wsdb.db.weights`), round by round.

After every round the weights, the run's arrays (target network and the
optimiser's moments) and the random generator's state are written (one
file, one rename), so a run stopped anywhere (Ctrl-C, a full disk, a lost
machine) goes on from its last round when the same command is given
again, and ends on the same weights as a run that never stopped; so does
a run given more ``--rounds`` than a finished guide has. Any other change
to the recipe needs ``--fresh``, which starts over. The puzzle's stored tree, where there is
one, gives the exact targets and the lower bounds beyond it.
"""

from __future__ import annotations

import dataclasses
import time
from datetime import datetime, timezone

from ..db.store import Store
from ..db.weights import load_guide, save_guide
from ..errors import InputError
from ..notices import say, step
from ..puzzle import Puzzle
from ..puzzle.tree_key import TreeKey
from ..version import current
from .learned import DEFAULT_GUIDE, guide_path
from .tables import endgame
from .training import Recipe, Run, train
from .value_net import ValueNet


@dataclasses.dataclass
class Lesson:
    """What ``wsdb learn`` did: the guide written and its provenance."""

    path: str
    about: dict
    resumed_from: int  # rounds already done when this run began (0: a fresh start)

    def to_dict(self) -> dict:
        return {"path": self.path, "resumed_from": self.resumed_from, **self.about}


def learn(puzzle: Puzzle, store: Store, recipe: Recipe, name: str = DEFAULT_GUIDE, fresh: bool = False) -> Lesson:
    """Train ``puzzle``'s guide ``name`` by ``recipe``, going on from the
    rounds kept unless ``fresh`` (see the module docstring)."""
    path = guide_path(store.path, puzzle, name)
    if path is None:
        raise InputError("wsdb learn keeps its guide beside a database file: give --db a file, not memory")
    exact, tree = _exact(puzzle, store)
    run, spent = _resume(puzzle, path, recipe, fresh)
    resumed = run.rounds_done
    began = time.perf_counter()
    about = {
        "puzzle": puzzle.name,
        "label": puzzle.label,
        "n": puzzle.n,
        "c": puzzle.c,
        "recipe": recipe.to_dict(),
        "exact_tree": tree,
    }

    with step(f"training the {puzzle.label} guide {name}", f"{recipe.rounds} rounds") as st:

        def keep(r: Run) -> None:
            seconds = spent + time.perf_counter() - began
            info = {
                **about,
                "rounds_done": r.rounds_done,
                "steps_done": r.steps_done,
                "losses": [round(x, 5) for x in r.losses],
                "rng_state": r.rng_state,
                "seconds": round(seconds, 1),
                "wsdb_version": current(),
                "trained_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            }
            about.update(save_guide(path, r.net.arrays, info, [*r.target.arrays, *r.moments]))
            st.count(r.rounds_done - resumed, recipe.rounds - resumed, "rounds")  # this run's, for its pace
            st.status += f", round {r.rounds_done} of {recipe.rounds}, loss {r.losses[-1]:.3f}"

        if resumed:
            say(f"going on from round {resumed} of {path.name}")
        train(puzzle, run, exact, keep)
    return Lesson(str(path), about, resumed)


def _exact(puzzle: Puzzle, store: Store):
    """The stored tree as exact targets (and its build, for the provenance), or (None, None)."""
    if not puzzle.roots:  # another puzzle: its tree is read by its own engine, not yet here
        return None, None
    build = store.finished_build(TreeKey.of(puzzle))
    if build is None:
        say(
            f"no {puzzle.label} tree in the database: the guide learns without exact targets (build it first for a better one)"
        )
        return None, None
    eg = endgame(puzzle.n, puzzle.c, store)
    tree = {
        "built_at": str(build["built_at"]),
        "classes": int(build["classes"]),
        "height": None if eg is None else eg.height,
    }
    return eg, tree


def _resume(puzzle: Puzzle, path, recipe: Recipe, fresh: bool) -> tuple[Run, float]:
    """The run to go on with, and the seconds it has taken so far."""
    if fresh or not path.exists():
        return Run.start(puzzle, recipe), 0.0
    weights, about, arrays = load_guide(path)
    kept = Recipe.from_dict(about["recipe"])
    if dataclasses.replace(kept, rounds=recipe.rounds) != recipe:
        changed = ", ".join(
            f"{k} {v} (kept: {getattr(kept, k)})"
            for k, v in dataclasses.asdict(recipe).items()
            if getattr(kept, k) != v and k != "rounds"
        )
        raise InputError(f"{path} was trained with another recipe ({changed}): give --fresh to start over")
    if about["rounds_done"] > recipe.rounds:
        raise InputError(f"{path} has {about['rounds_done']} rounds done, more than --rounds {recipe.rounds}")
    net = ValueNet.of(puzzle.ncells, puzzle.c, weights)
    k = len(net.arrays)
    if arrays is None or len(arrays) != 3 * k:
        raise InputError(f"{path} holds no training run to go on from: give --fresh to start over")
    target, moments = ValueNet.of(puzzle.ncells, puzzle.c, arrays[:k]), arrays[k:]
    run = Run(
        recipe,
        net,
        target,
        moments,
        about["rng_state"],
        about["rounds_done"],
        about["steps_done"],
        list(about["losses"]),
    )
    return run, float(about.get("seconds", 0.0))
