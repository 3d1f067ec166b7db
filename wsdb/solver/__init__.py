"""Solving grids whose full tree cannot be built, with the database as
guide and endgame table (thesis chapter 4). Imports :mod:`wsdb.db`,
:mod:`wsdb.engine` and :mod:`wsdb.puzzle`.

* :mod:`.solve`          the facade: stored answer, method dispatch, checks, bounds
* :mod:`.methods`        the searches behind ``--method``, and the finish from waypoints
* :mod:`.effort`         the budget: work counted in nodes, not seconds
* :mod:`.results`        what a search works on and returns, and the answer (:class:`Solution`)
* :mod:`.settings`       every tuning knob, with what it was measured against
* :mod:`.guide`          what every search consults (:class:`Guide`) and returns (:class:`Found`)
* :mod:`.tables`         gather tables and endgames derived from the database
* :mod:`.pairs`          the pair bound: colours merged in pairs (+ :mod:`.pair_kernels`)
* :mod:`.beam`           beam search (the default)
* :mod:`.meet`           meet in the middle with a partial tree
* :mod:`.phases`         8x8 three and four colours through coarser colourings
* :mod:`.ida`            IDA* (``--method optimal``), with its visit table (:mod:`.visit_kernels`)
* :mod:`.thesis`         the thesis' heuristic (``--method thesis``)
* :mod:`.repair`         finishing a near-solved state through the stored tree
* :mod:`.transpositions` every pair of cells' shortest swap
* :mod:`.exchange`       cell exchanges: the fallback that always finishes
* :mod:`.stored`         the other puzzles, solved with their stored trees
* :mod:`.evaluate`       ``wsdb eval``: solver runs stored as rows
* :mod:`.kernels`        numba: colour ranks, bounds, beam expansion, depth-first search
"""
