"""The puzzle as data: what a state is, how it is written, how it moves,
and which states are the same up to symmetry. Pure numpy; imports nothing
else from wsdb but :mod:`wsdb.errors`.

* :mod:`.model`    :class:`Puzzle` and :func:`wrapslide`, random states
* :mod:`.moves`    move names, indices, families, inverses, pruning
* :mod:`.symmetry` the 32 geometric maps, colour permutations
* :mod:`.text`     every puzzle's states as text: parse and format
* :mod:`.define`   other puzzles as data: moves with inverses, symmetry
  found from the moves and the goal; :mod:`.rubeish`, :mod:`.rubiks_slide`,
  :mod:`.rotate2x2` define one puzzle each, :mod:`.catalog` names them all
  (and is the one place that tells puzzles apart by name)
* :mod:`.sliding`  the sliding-tile puzzle, whose moves depend on the state
* :mod:`.blocks`   block systems of a puzzle's moves (the ranked census's digits)
* :mod:`.replay`   a move sequence played out, every state along the way
* :mod:`.tree_key` :class:`TreeKey`, a stored tree's identity
"""

from .model import Puzzle, check_grid, random_states, wrapslide
from .text import format_state, format_states, parse_grouped, parse_state, parse_states

__all__ = [
    "Puzzle",
    "check_grid",
    "random_states",
    "wrapslide",
    "format_state",
    "format_states",
    "parse_grouped",
    "parse_state",
    "parse_states",
]
