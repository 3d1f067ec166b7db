"""Solving grids whose full tree cannot be built, with the database as
guide and endgame table (thesis chapter 4). Imports :mod:`wsdb.db`,
:mod:`wsdb.engine` and :mod:`wsdb.puzzle`.

* :mod:`.solve`     the facade: stored answer, method dispatch, checks, bounds
* :mod:`.guide`     what every search consults (:class:`Guide`) and returns (:class:`Found`)
* :mod:`.tables`    gather tables and endgame tables derived from the database
* :mod:`.beam`      beam search (the default)
* :mod:`.ida`       IDA* (``--method optimal``)
* :mod:`.thesis`    the thesis' heuristic (``--method thesis``)
* :mod:`.exchange`  cell exchanges: the fallback that always finishes
* :mod:`.kernels`   numba: colour ranks, bounds, beam expansion, depth-first search
"""
