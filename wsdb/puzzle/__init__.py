"""The puzzle as data: what a state is, how it is written, how it moves,
and which states are the same up to symmetry. Pure numpy; imports nothing
else from wsdb but :mod:`wsdb.errors`.

* :mod:`.model`    :class:`Puzzle` and :func:`wrapslide`, random states
* :mod:`.moves`    move names, indices, families, inverses, pruning
* :mod:`.symmetry` the 32 geometric maps, colour permutations
* :mod:`.text`     parse and format states
* :mod:`.define`   other puzzles as data: goals, moves with inverses, symmetry
  found from the moves and the goal; :mod:`.rubeish`, :mod:`.rubiks_slide`,
  :mod:`.rotate2x2` define one puzzle each, :mod:`.catalog` names them all
"""
from .model import Puzzle, check_grid, random_states, wrapslide
from .text import format_state, format_states, parse_grouped, parse_state, parse_states

__all__ = ["Puzzle", "check_grid", "random_states", "wrapslide",
           "format_state", "format_states", "parse_grouped", "parse_state", "parse_states"]
