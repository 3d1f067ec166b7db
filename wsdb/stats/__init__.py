"""Figures, pictures and exports of stored builds, for researchers. Sits on
:mod:`wsdb.db` and reads only the public tables; it imports nothing from the
solver (the bounds are :mod:`wsdb.bounds`).

* :mod:`.figures`  pandas DataFrames: ``levels``, ``summary``, ``antipodes``,
  ``orbit_profile``, ``builds`` (with sizes on disk; ``build_records`` as
  plain dicts), ``report``
* :mod:`.plots`    matplotlib figures: states per depth, symmetry profile
  (``plot_levels``, ``plot_symmetry``; ``ax=`` draws into yours;
  ``save_figure`` writes PNG, SVG or PDF)
* :mod:`.export`   classes to CSV, JSON lines or Parquet, streamed (``export``)
* :mod:`.solves`   solver runs (``wsdb eval``): per-run summaries beside the
  thesis' chapter 5 means, and their picture
"""

from .export import export
from .figures import antipodes, build_records, builds, levels, orbit_profile, report, summary
from .plots import plot_levels, plot_symmetry, save_figure

__all__ = [
    "antipodes",
    "build_records",
    "builds",
    "export",
    "levels",
    "orbit_profile",
    "plot_levels",
    "plot_symmetry",
    "report",
    "save_figure",
    "summary",
]
