#!/usr/bin/env python3
"""Evaluate `wsdb solve`: 100 random states per grid (fixed seed), every
method side by side with the thesis' Tables 5.1/5.2, and the gap to the
exact distance wherever it is known (complete trees, or a finished
`--method optimal`).

Random states are uniform permutations of the colours (as the thesis' "100
random states"). Times are per state inside one process (tables loaded and
kernels compiled once, before the clock starts), so they compare with the
thesis' per-state times. Needs the databases: the two-colour 4x4 and 6x6
ones and the partial trees (see docs/solver.md); peak memory is printed
at the end.

    python scripts/eval_solver.py --db db/wsdb.sqlite
    python scripts/eval_solver.py --grid 6x6c4 --method beam --states 20
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
from pathlib import Path

from wsdb.db.store import Store
from wsdb.puzzle import format_states, random_states, wrapslide
from wsdb.solver.solve import METHODS, iter_solve

GRIDS = ["4x4c2", "4x4c3", "4x4c4", "6x6c2", "6x6c3", "6x6c4", "8x8c2", "8x8c3", "8x8c4"]
REFERENCE = Path(__file__).resolve().parents[1] / "tests" / "data" / "thesis.json"


def states_for(n: int, c: int, count: int, seed: int) -> list[str]:
    return format_states(random_states(wrapslide(n, c), count, seed + 100 * n + c), n).tolist()


def thesis_figures() -> dict:
    if not REFERENCE.exists():
        return {}
    return json.loads(REFERENCE.read_text())["heuristic_results_100_random_states_tables_5_1_5_2"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default="db/wsdb.sqlite")
    ap.add_argument("--states", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2016)
    ap.add_argument("--grid", action="append", choices=GRIDS, help="default: all nine")
    ap.add_argument(
        "--method", action="append", choices=METHODS, help="default: auto (the default of `wsdb solve`) thesis optimal"
    )
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per state and method")
    ap.add_argument(
        "--skip",
        action="append",
        default=[],
        metavar="GRID:METHOD",
        help="leave a pair out, e.g. 6x6c4:optimal (it rarely finishes)",
    )
    ap.add_argument("--json", metavar="FILE", help="also write every solution to FILE")
    args = ap.parse_args()
    store = Store.open_if_present(args.db)
    thesis = thesis_figures()
    methods = args.method or ["auto", "thesis", "optimal"]
    dump = []
    print(
        f"{'grid':7} {'method':8} {'states':>6} {'mean len':>9} {'max':>5} {'mean lb':>8} "
        f"{'optimal':>8} {'gap':>8} {'mean s':>7} {'max s':>6} {'fallback':>8}  thesis len / s"
    )
    for grid in args.grid or GRIDS:
        n, c = int(grid[0]), int(grid[-1])
        states = states_for(n, c, args.states, args.seed)
        exact, results = {}, []
        for method in methods:
            if f"{grid}:{method}" in args.skip:
                continue
            if method == "optimal" and n == 8:
                continue  # no admissible table for 8x8
            list(iter_solve(states[:1], method=method, time_limit=args.time_limit, store=store))  # warm up
            sols = list(iter_solve(states, method=method, time_limit=args.time_limit, store=store))
            exact.update((s.state, s.length) for s in sols if s.optimal)
            dump += [dict(grid=grid, **s.to_dict()) for s in sols]
            results.append((method, sols))
        for method, sols in results:  # gaps once every method has added what it proved
            lengths = [s.length for s in sols]
            secs = [s.seconds for s in sols]
            gaps = [s.length - exact[s.state] for s in sols if s.state in exact]
            fallback = sum("exchange" in s.method for s in sols)
            key = f"{n}x{n}_c{c}"
            ref = (
                f"{thesis['mean_length'][key]:.2f} / {thesis['mean_seconds_with_moves'][key]:.1f}"
                if key in thesis.get("mean_length", {})
                else "-"
            )
            gap = (
                f"{statistics.mean(gaps):.2f}"
                if len(gaps) == len(sols)
                else f"{statistics.mean(gaps):.2f}/{len(gaps)}"
                if gaps
                else "-"
            )
            print(
                f"{grid:7} {method:8} {len(sols):6d} {statistics.mean(lengths):9.2f} {max(lengths):5d} "
                f"{statistics.mean(s.lower_bound for s in sols):8.2f} "
                f"{sum(s.optimal for s in sols):8d} {gap:>8} {statistics.mean(secs):7.2f} "
                f"{max(secs):6.2f} {fallback:8d}  {ref}",
                flush=True,
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"peak memory {peak:,.0f} MiB; gap = mean length minus the exact distance (stored tree or a "
        "finished optimal search), '/k' where only k states' distances are known"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(dump, indent=1))


if __name__ == "__main__":
    main()
