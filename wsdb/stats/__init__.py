"""Figures, pictures and exports of stored builds, for researchers. Sits on
:mod:`wsdb.db` and reads only the public tables.

* :mod:`.figures`  pandas DataFrames: ``levels``, ``summary``, ``antipodes``,
  ``orbit_profile``, ``builds`` (with sizes on disk), ``report``
* :mod:`.plots`    matplotlib: states per depth, symmetry profile
* :mod:`.export`   classes to CSV or Parquet, streamed
"""
from .figures import antipodes, builds, levels, orbit_profile, report, summary

__all__ = ["antipodes", "builds", "levels", "orbit_profile", "report", "summary"]
