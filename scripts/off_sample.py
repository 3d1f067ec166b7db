#!/usr/bin/env python3
"""How far the two-phase upper bound's moves-off checks would go one move
further: the checks of `wsdb bounds compute --merge --off K` made on a
random sample of each level where the full checks are too long to make.

For each level the full check would read (the merged grid's God number G
and the K - 1 levels above it), the script draws --sample of its states
(one of each orbit, as the check reads them), checks each within
the distance the full check asks, and scales the liftings left (the ways
to split that no path serves) by the level's size. It then solves
--solve of the liftings left one by one within the bound's budget, as
the full check would solve them, and prices solving them all at that
pace (one of each pair of swaps, whose moves serve the other).

    python scripts/off_sample.py --db /tmp/ev/w.sqlite --off 5 --write
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from wsdb.db.store import Store  # noqa: E402
from wsdb.bounds.merging import sampled_checks  # noqa: E402

SEED = 2016


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default="db/wsdb.sqlite", help="a database with the grid's complete two-colour tree")
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--c", type=int, default=3)
    ap.add_argument("--merge", default="12")
    ap.add_argument("--off", type=int, default=5, help="the moves off whose checks are sampled")
    ap.add_argument("--tries", type=int, default=200, help="shortest paths tried a state, as the full check")
    ap.add_argument("--sample", type=int, default=20000, help="states drawn from each level")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--solve", type=int, default=40, help="liftings left solved one by one at each level")
    ap.add_argument("--write", action="store_true", help="print the table into docs/frontier.md")
    args = ap.parse_args()
    t0 = time.perf_counter()
    rows = sampled_checks(
        Store.open(args.db, write=True),
        args.n,
        args.c,
        args.merge,
        args.off,
        args.tries,
        args.sample,
        args.seed,
        args.solve,
    )
    budget = rows[0]["level"] + rows[0]["at_most"]
    table = [
        f"| level | finishing at most | orbits | sample | sampled orbits with splits left | splits left "
        f"in the sample | in the level (scaled) | solved within {budget} | median s a split | longest | "
        "solving them all at that pace |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    total, total_days = 0.0, 0.0
    for r in rows:
        scaled = r["left"] * r["states"] / r["sample"]
        days = scaled / 2 * r.get("median_seconds", 0.0) / 86400  # one of each pair of swaps solved
        total, total_days = total + scaled, total_days + days
        table.append(
            f"| {r['level']} | {r['at_most']} | {r['states']:,} | {r['sample']:,} | {r['states_left']:,} | "
            f"{r['left']:,} | {scaled:,.0f} | "
            + (
                f"{r['within']} of {r['solved']} | {r['median_seconds']:.3f} | {r['longest']} | {days:,.1f} days |"
                if "solved" in r
                else "- | - | - | - |"
            )
        )
    table.append(f"| all | | | | | | {total:,.0f} | | | | {total_days:,.1f} days |")
    text = "\n".join(table)
    print(text)
    print(f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if args.write:
        from docs_tables import write

        write(
            "docs/frontier.md",
            "off_sample",
            text,
            f"`python scripts/off_sample.py {shlex.join(sys.argv[1:])}`: the checks of `--off {args.off} "
            f"--tries {args.tries}` on {args.sample:,} states drawn from each level (seed {args.seed}), the "
            f"splits left scaled by the level's size, {args.solve} of them a level solved one by one "
            f"within {budget} moves (one of each pair of swaps needs solving)",
        )


if __name__ == "__main__":
    main()
