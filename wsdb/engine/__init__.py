"""The generic engine: states as integer keys, and the numba kernels that
move, canonicalise and expand them in bulk. Imports only :mod:`wsdb.puzzle`.

* :mod:`.keys`     the key layout (thesis §3.1), byte tables, sorted key sets
* :mod:`.keyindex` hashed key sets: an exact index and a filter (a solver's trees)
* :mod:`.kernels`  numba: permute, canonicalise, expand, step, find
* :mod:`.engines`  a puzzle bound to the kernels (and a numpy twin for a few states)
"""
from .engines import Engine, SmallEngine, engine_for, get_engine, puzzle_engine, puzzle_engine_for
from .keys import KeyLayout

__all__ = ["Engine", "SmallEngine", "engine_for", "get_engine", "puzzle_engine", "puzzle_engine_for", "KeyLayout"]
