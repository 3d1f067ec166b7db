"""Figures, pictures and exports of stored builds, for researchers. Sits on
:mod:`wsdb.db` and reads only the public tables; it imports nothing from the
solver (the bounds are :mod:`wsdb.bounds`).

* :mod:`.figures`  pandas DataFrames: ``levels``, ``summary``, ``antipodes``,
  ``orbit_profile``, ``builds`` (with sizes on disk; ``build_records`` as
  plain dicts), ``report``
* :mod:`.plots`    matplotlib: states per depth, symmetry profile
* :mod:`.export`   classes to CSV or Parquet, streamed
* :mod:`.solves`   solver runs (``wsdb eval``): per-run summaries beside the
  thesis' chapter 5 means, and their picture
"""
from .figures import antipodes, build_records, builds, levels, orbit_profile, report, summary

__all__ = ["antipodes", "build_records", "builds", "levels", "orbit_profile", "report", "summary"]
