"""The generic engine: states as integer keys, and the numba kernels that
move, canonicalise and expand them in bulk. Imports only :mod:`wsdb.puzzle`.

* :mod:`.keys`     the key layout (thesis §3.1), byte tables, sorted key sets
* :mod:`.keyindex` hashed key sets: an exact index and a filter (a solver's trees)
* :mod:`.kernels`  numba: permute, canonicalise, expand, step, find
* :mod:`.engines`  a puzzle bound to the kernels (and a numpy twin for a few states)
* :mod:`.bfs`      the pure breadth-first search over classes: any storage drives it
* :mod:`.partition` its steps split by a hash of the key, for a distributed engine
* :mod:`.census`   states per distance counted in memory (classes, or a ranked table)
* :mod:`.ranking`  a state's index in its group (+ :mod:`.rank_kernels`, :mod:`.packed_kernels`,
  whose atomic AND and prefetch are :mod:`.intrinsics`)
* :mod:`.subsets`  a two-colour state's index: its cells of one colour (+ :mod:`.subset_kernels`)
* :mod:`.compiling` numba compiles announce themselves (:mod:`wsdb.notices`)
"""

from .engines import Engine, SmallEngine, engine_for, get_engine, puzzle_engine, puzzle_engine_for
from .keys import KeyLayout

__all__ = ["Engine", "SmallEngine", "engine_for", "get_engine", "puzzle_engine", "puzzle_engine_for", "KeyLayout"]
