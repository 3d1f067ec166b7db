#!/usr/bin/env python3
"""How good a learned guide is (`wsdb learn`), and what `--method learned`
answers with it, next to the default method on the same states.

Two tables:

* the estimate against distances that are known: 5,000 states ending
  random walks (seed 1) whose class the stored tree holds (exact depths;
  rank correlation and mean error), and the first states of `wsdb random
  --seed 2016`, whose distances nobody has, against the lengths the
  phases found for them (upper bounds: a rank correlation only);
* stored solver runs (`wsdb eval`, the same states) by `--method learned`
  at each `--effort`, and by `auto` at the default effort twice: with the
  guide (meet in the middle, then the learned beam) and without one
  (`--guide none`, a name no guide has: meet in the middle, then the
  phases), one whole process a run. ``--reuse`` reads a run already stored with the same
  grid, count, seed, effort, wsdb version and (for learned) the same weights.

    python scripts/learned_guide.py --db /tmp/ev/w.sqlite --n 8 --c 4 --count 12 --guide default \
        --guide wide --write
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

import wsdb
from wsdb.db.store import Store
from wsdb.solver.evaluate import draw
from wsdb.solver.learned import read_learned
from wsdb.solver.tables import endgame
from wsdb.solver.walks import walk_states
from wsdb.stats.solves import run_summaries
from wsdb.version import current

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import wsdb_cmd  # noqa: E402

SEED = 2016
NO_GUIDE = "none"  # a guide name no guide has: auto then takes the phases


def rank_correlation(a, b) -> float:
    return float(pd.Series(np.asarray(a, float)).rank().corr(pd.Series(np.asarray(b, float)).rank()))


def stored_run(db: str, n: int, c: int, count: int, method: str, effort: float, weights: str | None):
    """The newest finished run of these settings made by this code; ``weights``: the learned guide's
    hash its params name ("" for none)."""
    store = Store.open(db)
    drawn = [r["run_id"] for r in store.run_rows() if (r["count"], r["seed"]) == (count, SEED)]
    runs = run_summaries(db)
    mine = runs[
        (runs.n == n)
        & (runs.c == c)
        & (runs.method == method)
        & (runs.status == "done")
        & (runs.effort == effort)
        & runs.run_id.isin(drawn)
        & (runs.version == current())  # made by this code
    ]
    if weights is not None:
        mine = mine[[json.loads(p).get("guide", {}).get("weights_xxh3_128", "") == weights for p in mine.params]]
    return None if mine.empty else mine.iloc[-1]


def run(db, n, c, count, method, effort, weights, reuse, guide="default"):
    """The run's summary row (``guide``: the guide learned and auto read)."""
    found = stored_run(db, n, c, count, method, effort, weights) if reuse else None
    if found is None:
        cmd = [*wsdb_cmd(), "eval", "--n", str(n), "--c", str(c), "--count", str(count), "--seed", str(SEED)]
        cmd += ["--method", method, "--effort", f"{effort:g}", "--db", db, "--guide", guide, "-q"]
        cmd += ["--guide", guide] if method == "learned" else []
        print(" ".join(cmd), flush=True)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        found = stored_run(db, n, c, count, method, effort, weights)
    return found


def lengths(db: str, run_id: int) -> dict[str, int]:
    return {r["state"]: int(r["length"]) for r in Store.open(db).solve_rows(run_id)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True)
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--c", type=int, default=4)
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--effort", type=float, action="append", help="learned's efforts (default 100)")
    ap.add_argument("--guide", action="append", help="the guides compared (`wsdb learn --name`; default: default)")
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--write", action="store_true", help="print the tables into docs/solver.md")
    args = ap.parse_args()
    n, c = args.n, args.c
    puzzle = wsdb.wrapslide(n, c)
    store = Store.open(args.db)
    auto = run(args.db, n, c, args.count, "auto", 100.0, "", args.reuse, guide=NO_GUIDE)
    found = lengths(args.db, int(auto.run_id))
    states = draw(n, c, args.count, SEED)
    cells = np.stack([wsdb.parse_state(s)[1] for s in states])
    auto_lengths = [found[s] for s in states]
    eg = endgame(n, c, store)
    assert eg is not None, "the grid's tree is built"
    quality = [
        "| guide | hidden units | rounds | training s | tree states | rank corr. (exact) | mean error (exact) "
        "| random states | rank corr. (the phases' lengths) | mean estimate | the phases' mean length |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    answers = [
        "| method | guide | effort (M nodes) | run started (UTC) | states | mean length | longest | mean lower bound "
        "| median s | max s |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    default = read_learned(store, puzzle).about["weights_xxh3_128"]
    rows = [
        ("auto (phases: no guide)", "", 100.0, auto),
        (
            "auto",
            f"default ({default[:12]})",
            100.0,
            run(args.db, n, c, args.count, "auto", 100.0, default, args.reuse),
        ),
    ]
    for name in args.guide or ["default"]:
        learned = read_learned(store, puzzle, name)
        about, recipe = learned.about, learned.about["recipe"]
        weights = about["weights_xxh3_128"]
        for effort in args.effort or [100.0]:
            r = run(args.db, n, c, args.count, "learned", effort, weights, args.reuse, name)
            rows.append(("learned", f"{name} ({weights[:12]})", effort, r))
        walked, _ = walk_states(puzzle, 5000, recipe["longest"], np.random.default_rng(1))
        depth = eg.depth(walked)
        held = depth >= 0
        est = learned.net.values(walked[held])
        guess = learned.net.values(cells)
        quality.append(
            f"| {name} ({weights[:12]}) | {recipe['hidden'][0]}, {recipe['hidden'][1]} | {about['rounds_done']} "
            f"| {about['seconds']:.0f} | {int(held.sum()):,} | {rank_correlation(est, depth[held]):.3f} "
            f"| {np.abs(est - depth[held]).mean():.2f} | {len(states)} | {rank_correlation(guess, auto_lengths):.3f} "
            f"| {guess.mean():.1f} | {np.mean(auto_lengths):.2f} |"
        )
    for method, name, effort, r in rows:
        answers.append(
            f"| {method} | {name} | {effort:g} | {r.started_at[:16].replace('T', ' ')} | {r.states} "
            f"| {r.mean_length:.2f} | {r.max_length} | {r.mean_lower_bound:.2f} | {r.median_seconds:.2f} "
            f"| {r.max_seconds:.2f} |"
        )
    print("\n".join(quality))
    print()
    print("\n".join(answers))
    if args.write:
        from docs_tables import write

        how = (
            f"`python scripts/learned_guide.py {' '.join(sys.argv[1:])}`: {n}x{n} {c} colours, each guide by "
            f"`wsdb learn --n {n} --c {c}` (`--name`, `--hidden` and `--rounds` as the table gives; seed 0), "
            "stored runs, one whole process each, seconds a state with the tables loaded"
        )
        write("docs/solver.md", f"learned_guide_{n}{c}", "\n".join(quality) + "\n\n" + "\n".join(answers), how)


if __name__ == "__main__":
    main()
