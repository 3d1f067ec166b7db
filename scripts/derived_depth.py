#!/usr/bin/env python3
"""Check a level grown by the dask engine against the solver's own
derivation of the same level.

The solver holds some trees deeper than stored by deriving the next levels
in memory (`wsdb.solver.tables.deepen`, from the two deepest stored
levels). This reads levels D-2 and D-1 of a Parquet tree (`wsdb build
--engine dask`), derives level D from them as the solver does, and
compares its classes, key by key, with level D as the engine stored it.
A difference stops the script with exit 1.

    wsdb build --n 6 --c 3 --max-depth 9 --engine dask --levels /data/6x6-c3 --workers 2 --worker-memory 8GiB
    python scripts/derived_depth.py /data/6x6-c3 --depth 9 --write
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

from wsdb.db.levels import ParquetTree
from wsdb.engine import get_engine
from wsdb.engine.keys import sortable
from wsdb.solver.tables import deepen

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("levels", help="the Parquet tree (a folder or fsspec URL)")
    ap.add_argument("--depth", type=int, required=True, help="the level to derive and compare")
    ap.add_argument("--write", action="store_true", help="print the result into docs/scale.md")
    args = ap.parse_args()
    if args.write and f"<!-- begin derived_depth{args.depth} -->" not in (ROOT / "docs" / "scale.md").read_text():
        sys.exit(f"docs/scale.md has no block derived_depth{args.depth}: add its markers first")
    tree = ParquetTree(args.levels)
    man, d = tree.man, args.depth
    if man.puzzle != "wrapslide" or not 2 <= d <= man.height:
        sys.exit(f"{args.levels}: a Wrapslide tree holding depths {d - 2}..{d} is needed")
    eng = get_engine(man.n, man.c)
    t0 = time.perf_counter()
    reps = [tree.level(k)[0] for k in (d - 2, d - 1)]
    stored = np.concatenate(reps)
    depths = np.concatenate([np.full(len(r), k, np.int8) for r, k in zip(reps, (d - 2, d - 1))])
    order = np.argsort(sortable(stored), kind="stable")
    keys, kdepths = deepen(eng, stored[order], depths[order], d - 1, d)
    derived = np.sort(sortable(keys[kdepths == d]))
    t_derive = time.perf_counter() - t0
    grown = sortable(tree.level(d)[0])  # sorted by key
    same = len(derived) == len(grown) and bool((derived == grown).all())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    line = (
        f"{man.n}x{man.n} {man.c}-colour depth {d}: the engine stored {len(grown):,} classes, the solver's "
        f"derivation from depths {d - 2} and {d - 1} gives {len(derived):,}; "
        + ("identical, key by key" if same else "DIFFERENT")
        + f" (derived in {t_derive:.0f} s, peak {peak:,.0f} MiB in one process)"
    )
    print(line)
    if args.write:
        from docs_tables import write

        write(
            "docs/scale.md",
            f"derived_depth{d}",
            line,
            f"`python scripts/derived_depth.py LEVELS --depth {d} --write` on the levels of `wsdb build "
            f"--n {man.n} --c {man.c} --max-depth {man.height} --engine dask`",
        )
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
