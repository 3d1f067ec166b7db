#!/usr/bin/env python3
"""How short can the answers of a partial grid be? Proven distances for a
sample, and a counting estimate of the mean optimum (issue 11, 6x6 four
colours).

Two independent answers to "what is the mean optimal distance of a random
state?":

1. **Proof, state by state.** Meet in the middle (`wsdb/solver/meet.py`)
   with the grid's tree held deeper than a solve holds it (``--held``
   levels exactly and one more as a filter; derived once and cached beside
   the database: for 6x6 four colours, 9 and 10, about 7 minutes and
   0.9 GiB the first time) and the forward search deduplicating levels of
   up to ``--keep`` children before it streams the last. Each state gets
   its exact distance where the search meets the tree, otherwise a proven
   lower bound. With the defaults a 6x6 four-colour state takes 3-10
   minutes on 2 cores: distance 18 is found exactly, 19 or more proven.
2. **Counting.** The stored levels grow by a nearly constant ratio (6x6
   four colours: 9.58 at depths 6, 7, 8). Continuing the last ratio until
   every state is counted gives a distribution whose mean is printed; the
   same extrapolation from the levels of every complete tree in the
   database, cut where fewer than 1 in 1,000 states are reached, is
   printed beside the true mean, to show how far it errs (levels grow more
   slowly as the tree fills, so it always errs low).

The states are those of `wsdb random --n N --c C --seed S` (the eval's, by
default), the first ``--count``; the solver's own answers for them come
from `wsdb eval` or `wsdb solve`.

    python scripts/optimum_sample.py --db db/wsdb.sqlite --count 8
    python scripts/optimum_sample.py --db db/wsdb.sqlite --count 0   # the counting only
"""

from __future__ import annotations

import argparse
import json
import resource
import time

import numpy as np

from wsdb.db.store import Store
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.solver.guide import guide_for
from wsdb.solver.meet import meet_in_the_middle
from wsdb.solver.tables import endgame
from wsdb.stats import levels

CALIBRATE_BELOW = 1e-3  # complete trees are cut where this share of all states is reached


def mean_depth(states_per_depth: list[float], total: int) -> float:
    """Mean distance of ``total`` states spread over the depths as given."""
    return sum(d * x for d, x in enumerate(states_per_depth)) / total


def extrapolated_mean(states_per_depth: list[int], total: int) -> float:
    """Mean distance if every level after the last given grew by the ratio
    of the last two, until all ``total`` states are counted."""
    counts = [float(x) for x in states_per_depth]
    ratio = counts[-1] / counts[-2]
    left = total - sum(states_per_depth)
    while left > 0:
        counts.append(min(counts[-1] * ratio, left))
        left -= counts[-1]  # float: the last level takes what is left, so this ends
    return mean_depth(counts, total)


def counting(db) -> list[dict]:
    """The estimate for every stored all-roots Wrapslide tree, and the true
    mean beside the estimate from a cut of each complete one."""
    df = levels(db)
    df = df[(df.puzzle == "wrapslide") & (df.root == "all")]
    out = []
    for (n, c), g in df.groupby(["n", "c"]):
        g = g.sort_values("depth")
        states = g.states.tolist()
        total = wrapslide(int(n), int(c)).states
        complete = sum(states) == total
        row = {"n": int(n), "c": int(c), "complete": complete, "stored_depth": len(states) - 1}
        if complete:
            cum = np.cumsum(states) / total
            cut = int(np.searchsorted(cum, CALIBRATE_BELOW))  # the first level at or past the share
            if cut >= 2:
                row.update(
                    true_mean=mean_depth(states, total),
                    cut_depth=cut - 1,
                    estimate=extrapolated_mean(states[:cut], total),
                )
        elif len(states) >= 3:
            row.update(
                estimate=extrapolated_mean(states, total), ratio=states[-1] / states[-2], reached=sum(states) / total
            )
        out.append(row)
    return out


def prove(
    db, n: int, c: int, count: int, seed: int, held: int, filtered: int, keep: float, echo: bool = False
) -> list[dict]:
    """Exact distance or proven lower bound of the first ``count`` states of
    `wsdb random --n n --c c --seed seed`, by meet in the middle with the tree
    held to ``held`` levels exactly and ``filtered`` with the filter."""
    store = Store.open_if_present(db)
    puzzle = wrapslide(n, c)
    guide = guide_for(puzzle, store)
    guide.endgame = endgame(n, c, store, (held, filtered))
    out = []
    for i, cells in enumerate(random_states(puzzle, count, np.random.default_rng(seed))):
        began = time.perf_counter()
        exact = int(guide.endgame.depth(cells[None])[0])  # -1: beyond the tree
        if exact < 0:
            found, lower, _ = meet_in_the_middle(guide, cells, float("inf"), int(keep))
            exact = found.length if found is not None else -1
        out.append(
            {
                "index": i,
                "state": format_state(cells, n),
                "exact": exact if exact >= 0 else None,
                "lower_bound": exact if exact >= 0 else lower,
                "seconds": round(time.perf_counter() - began, 1),
            }
        )
        if echo:
            print(
                f"state {i}: {'exactly' if exact >= 0 else 'at least'} {out[-1]['lower_bound']} "
                f"({out[-1]['seconds']} s)",
                flush=True,
            )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default="db/wsdb.sqlite")
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--c", type=int, default=4)
    ap.add_argument("--seed", type=int, default=2016)
    ap.add_argument("--count", type=int, default=8, help="states to prove (0: the counting only)")
    ap.add_argument("--held", type=int, default=9, help="tree levels held exactly")
    ap.add_argument("--filter", type=int, default=10, help="tree levels known with the filter")
    ap.add_argument("--keep", type=float, default=1e8, help="children of a level still deduplicated")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    rows = counting(a.db)
    states = prove(a.db, a.n, a.c, a.count, a.seed, a.held, a.filter, a.keep, echo=not a.json) if a.count else []
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    if a.json:
        print(json.dumps({"counting": rows, "states": states, "peak_gib": round(peak, 2)}))
        return
    print("counting estimate of the mean distance (constant growth after the levels used):")
    for r in rows:
        if "true_mean" in r:
            print(
                f"  {r['n']}x{r['n']} c{r['c']}: from depths 0-{r['cut_depth']} {r['estimate']:.2f}, "
                f"true mean {r['true_mean']:.2f} (complete tree)"
            )
        elif "estimate" in r:
            print(
                f"  {r['n']}x{r['n']} c{r['c']}: from depths 0-{r['stored_depth']} (growth {r['ratio']:.2f}, "
                f"{r['reached']:.1e} of all states) {r['estimate']:.2f}"
            )
    if states:
        lb = [s["lower_bound"] for s in states]
        print(
            f"{len(states)} states: mean proven lower bound {np.mean(lb):.2f} "
            f"({sum(s['exact'] is not None for s in states)} exact); peak {peak:.1f} GiB"
        )


if __name__ == "__main__":
    main()
