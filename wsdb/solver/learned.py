"""``--method learned``: a beam over the whole state guided by a learned
estimate of the whole distance (:mod:`.value_net`, trained by ``wsdb
learn``, :mod:`.training`), with the stored tree as its endgame: the
recipe of DeepCubeA and CayleyPy (a value network guiding a beam toward
the goal itself), where the phases (:mod:`.phases`) split the goal into
coarser colourings and the gather distances see only the two-colour
tree's nine moves.

Each level the beam scores every child the pruning allows by the network
(one estimate a child, the kernel's fixed order: the same weights give
the same answer everywhere), keeps the ``width`` lowest, and hands over
to the tree at every level as the gather-guided beam does
(:mod:`.beam`). While budget is left, a beam as wide as it allows runs
again (``LEARNED_FILL`` of it, at the first beam's cost per unit of
width) and the shortest answer is kept. The guide's files live beside the
database (:mod:`wsdb.db.weights`); an answer names the weights it used.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from pathlib import Path

from ..db.store import Store
from ..db.weights import guide_folder, guide_slug, load_guide
from ..errors import NotBuiltError
from ..puzzle import Puzzle
from . import effort
from .beam import beam_search
from .guide import Guide
from .results import Attempt, Problem
from .settings import DEFAULT_LEARNED_WIDTH, LEARNED_FILL, LEARNED_MAX_WIDTH, LEARNED_STALL, LEARNED_WIDTH
from .value_net import ValueNet

#: the guide a solve reads when none is named
DEFAULT_GUIDE = "default"


@dataclasses.dataclass(frozen=True)
class Learned:
    """A learned guide as read: the network and its provenance."""

    net: ValueNet
    about: dict
    path: Path

    @property
    def short(self) -> str:
        """How an answer names it: file, rounds and the weights' hash."""
        return (
            f"{self.path.stem} ({self.about.get('rounds_done')} rounds, weights {self.about['weights_xxh3_128'][:12]})"
        )


def guide_path(db_path: Path | None, puzzle: Puzzle, name: str = DEFAULT_GUIDE) -> Path | None:
    """Where ``wsdb learn`` keeps the guide ``name`` of ``puzzle``."""
    folder = guide_folder(db_path)
    return None if folder is None else folder / f"{guide_slug(puzzle.label, name)}.npz"


def read_learned(store: Store | None, puzzle: Puzzle, name: str = DEFAULT_GUIDE) -> Learned:
    """The learned guide ``name`` of ``puzzle`` beside ``store``'s
    database; NotBuiltError in one line saying how to train one."""
    path = guide_path(store.path if store is not None else None, puzzle, name)
    train = f"`wsdb learn --n {puzzle.n} --c {puzzle.c}" + ("" if name == DEFAULT_GUIDE else f" --name {name}") + "`"
    if path is None:
        raise NotBuiltError(f"--method learned reads a guide kept beside a database file: train one with {train}")
    try:
        return _read(path, path.stat().st_mtime_ns, puzzle.ncells, puzzle.c)
    except FileNotFoundError:
        raise NotBuiltError(f"no learned guide for {puzzle.label} at {path}: train one with {train}") from None


@lru_cache(maxsize=8)
def _read(path: Path, mtime: int, cells: int, labels: int) -> Learned:
    weights, about, _ = load_guide(path)
    return Learned(ValueNet.of(cells, labels, weights), about, path)


def with_value(guide: Guide, learned: Learned) -> Guide:
    """``guide`` whose beams the learned estimate scores."""
    return dataclasses.replace(guide, value=learned.net)


def by_learned(p: Problem, lower: int) -> Attempt:
    """The learned beam (module docstring); ``p.guide`` carries the network."""
    width = LEARNED_WIDTH.get((p.puzzle.n, p.puzzle.c), DEFAULT_LEARNED_WIDTH)
    began = effort.spent()
    found, waypoints = beam_search(p.guide, p.cells, width, p.deadline, stall=LEARNED_STALL)
    took = effort.spent() - began
    # then as wide as the budget left allows, while a wider beam can finish (its cost grows with its
    # width); also where the first stalled short of the tree: a wider one goes further
    while (found is None or found.length > lower) and effort.left(p.deadline) > 2 * took:
        wider_width = min(LEARNED_MAX_WIDTH, int(width * LEARNED_FILL * effort.left(p.deadline) / max(took, 1.0)))
        if wider_width <= width:
            break
        width = wider_width
        began = effort.spent()
        wider, more = beam_search(p.guide, p.cells, width, p.deadline, stall=LEARNED_STALL)
        took = effort.spent() - began
        if wider is not None and (found is None or wider.length < found.length):
            found = wider
        if found is None:
            waypoints = more
    timed_out = found is None and effort.past(p.deadline)
    return Attempt(found, "learned", lower, timed_out, waypoints)
