"""Proven bounds on God's numbers Θ(n, c) (``wsdb bounds``, docs/frontier.md):
the arguments, the checks and proofs behind them, and what a long one has
kept so far. Sits on :mod:`wsdb.solver` and :mod:`wsdb.db`, beside
:mod:`wsdb.stats`; writes the ``bounds``, ``proof_shares``, ``check_slices``
and ``check_solutions`` tables through :class:`wsdb.db.store.Store`.

* :mod:`.arguments`       the four arguments (tree, counting, optimal, phases), each a :class:`~.arguments.Bound`,
  and the ``bounds`` table's rows
* :mod:`.merging`         the upper bound by merging colours (``--merge``) and its moves-off check
* :mod:`.lifting`         the liftings a merged state's paths leave (+ :mod:`.lifting_kernels`, numba)
* :mod:`.within`          any sequence within a budget, for a lifting the paths leave (``--solve-left``)
* :mod:`.proof`           "at least K" for one state: IDA* through bound K - 1 (``bounds prove --at-least``)
* :mod:`.shares`          a proof's iteration cut into shares, each kept once searched
* :mod:`.spread`          the shares as Dask tasks (``--engine dask``)
* :mod:`.proof_progress`  what a proof has kept (``bounds proofs``)
* :mod:`.check_progress`  what a moves-off check has kept (``bounds checks``)
"""
