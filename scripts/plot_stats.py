#!/usr/bin/env python3
"""Redraw the docs' figures from a database holding the default builds
(`wsdb build` for n = 4, 6, 8 and c = 2, 3, 4; see docs/solver.md).

    python scripts/plot_stats.py --db db/wsdb.sqlite

Writes docs/img/levels.png (states and classes per depth) and
docs/img/symmetry.png (the symmetry profile); the same pictures as
`wsdb stats --plot docs/img/levels.png`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from wsdb.stats.plots import plot_levels, plot_symmetry, save_figure

OUT = Path(__file__).resolve().parents[1] / "docs" / "img"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default="db/wsdb.sqlite")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for path in (
        save_figure(plot_levels(args.db), OUT / "levels.png"),
        save_figure(plot_symmetry(args.db), OUT / "symmetry.png"),
    ):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
