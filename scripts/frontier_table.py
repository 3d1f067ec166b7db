#!/usr/bin/env python3
"""Print the stored proven bounds (the ``bounds`` table, `wsdb bounds`) into
docs/frontier.md: per grid the best lower and upper bound, each with its
method, witness, proof time and the command that proves it again; then
each best upper bound made of phases, phase by phase.

    wsdb bounds compute --n 6 --c 3 && wsdb bounds prove STATE ...
    python scripts/frontier_table.py --db PATH --write
    python scripts/frontier_table.py --db PATH --only 6 3 --write   # that grid's rows; the rest as they were
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", help="the database holding the bounds (default: wsdb's)")
    ap.add_argument("--write", action="store_true", help="print the table into docs/frontier.md")
    ap.add_argument(
        "--only",
        nargs=2,
        type=int,
        metavar=("N", "C"),
        help="only this grid's rows (from a database that lacks the others' rows), keeping the other "
        "rows and their provenance as the page has them",
    )
    args = ap.parse_args()
    from wsdb.db.store import Store
    from wsdb.bounds.arguments import argument

    store = Store.open(args.db)
    rows = store.bound_rows()
    best: dict[tuple, dict] = {}
    for r in rows:
        grid = best.setdefault((r["n"], r["c"]), {})
        better = (lambda a, b: a > b) if r["kind"] == "lower" else (lambda a, b: a < b)
        if r["kind"] not in grid or better(r["value"], grid[r["kind"]]["value"]):
            grid[r["kind"]] = r
    if args.only:
        best = {key: grid for key, grid in best.items() if key == tuple(args.only)}
        if not best:
            raise SystemExit(f"no bounds stored for {args.only[0]}x{args.only[0]} {args.only[1]} colours")
    lines = [
        "| grid | lower bound | by | upper bound | by | proof (seconds) | again |",
        "|---|---:|---|---:|---|---:|---|",
    ]
    for (n, c), grid in sorted(best.items()):
        lo, hi = grid.get("lower"), grid.get("upper")

        def how(r):
            if r is None:
                return "-", "-"
            w = json.loads(r["witness"])
            said = argument(r["method"], w) + (f": `{w['state']}`" if "state" in w else "")
            return str(r["value"]), said

        lv, lby = how(lo)
        hv, hby = how(hi)
        secs = " / ".join(f"{r['seconds'] + sum(_earlier(store, r).values()):.1f}" for r in (lo, hi) if r is not None)
        again = "<br>".join(f"`{r['command']}`" for r in (lo, hi) if r is not None)
        lines.append(f"| {n}x{n} {c} colours | {lv} | {lby} | {hv} | {hby} | {secs} | {again} |")
    phases = phase_lines(best, store)
    print("\n".join(lines) + "\n\n" + "\n".join(phases))
    if args.write:
        from docs_tables import write

        how = (
            "`python scripts/frontier_table.py --write` from the stored `bounds` rows "
            "(`wsdb bounds compute` and `wsdb bounds prove`)"
        )
        blocks = {
            "frontier_bounds": (lines, how),
            "frontier_phases": (phases, how + ", the phases of each best upper bound made of phases"),
        }
        for name, (table, said) in blocks.items():
            earlier = []
            if args.only:
                table, earlier = _merged(name, table, *args.only)
                said = (
                    f"the {args.only[0]}x{args.only[0]} {args.only[1]} colours rows: `python "
                    f"scripts/frontier_table.py --only {args.only[0]} {args.only[1]} --write` from the stored "
                    "`bounds` rows; the other rows as measured on the line below"
                )
            write("docs/frontier.md", name, "\n".join(table), said, earlier)


def _merged(name: str, table: list[str], n: int, c: int) -> tuple[list[str], list[str]]:
    """The block ``name`` as the page has it with the rows of the n x n,
    c-colour grid replaced by ``table``'s, in the same place; and the
    provenance lines of the rows kept (not those of earlier rows of this
    grid)."""
    from docs_tables import block

    label = f"| {n}x{n} {c} colours |"
    old = block("docs/frontier.md", name).splitlines()
    said = [x for x in old if x.startswith("*") and f"the {label[2:-2]} rows:" not in x]
    rows = [x for x in old if x.startswith("|")][2:]
    mine = [x for x in table[2:] if x.startswith(label)]
    kept = [x for x in rows if not x.startswith(label)]
    at = next((i for i, x in enumerate(kept) if _grid(x) > (n, c)), len(kept))  # the rows are in grid order
    return table[:2] + kept[:at] + mine + kept[at:], said


def _grid(row: str) -> tuple[int, int]:
    size, colours = row.split("|")[1].split()[:2]
    return int(size.split("x")[0]), int(colours)


def _earlier(store, r: dict) -> dict[int, float]:
    """The seconds that earlier runs spent on the checks of bound row ``r``
    which its own run resumed (`wsdb bounds compute --merge --off` keeps
    each slice and each split solved as it finishes, bounds/merging.py), by
    the check's place in the witness: the kept slices and solutions dated
    before the run began (``proven_at`` less its ``seconds``)."""
    import sqlalchemy as sa
    from datetime import datetime, timedelta

    from wsdb.db.schema import check_slices, check_solutions

    witness = json.loads(r["witness"])
    checks = witness.get("checks", [])
    if not any(ch.get("resumed") or ch.get("solutions_resumed") for ch in checks):
        return {}
    began = (datetime.fromisoformat(r["proven_at"]) - timedelta(seconds=r["seconds"])).isoformat(timespec="seconds")
    t, u, out = check_slices, check_solutions, {}
    with store.sql.connect() as conn:
        for i, ch in enumerate(checks):
            secs = 0.0
            if ch.get("resumed"):
                kept = conn.execute(
                    sa.select(t.c.scheme, t.c.seconds, t.c.checked_at).where(
                        t.c.n == r["n"],
                        t.c.c == r["c"],
                        t.c.merge == witness["merged"],
                        t.c.level == ch["level"],
                        t.c.at_most == ch["at_most"],
                        t.c.scheme.like(f"tries {ch['tries']}, %, {ch['states']} states %"),
                    )
                ).all()
                if kept:  # where several schemes match: the one resumed
                    scheme = max(kept, key=lambda k: k.checked_at).scheme
                    secs += sum(k.seconds for k in kept if k.scheme == scheme and k.checked_at < began)
            if ch.get("solutions_resumed"):
                states = [x["state"] for x in ch["solved"]]
                secs += sum(
                    k.seconds
                    for k in conn.execute(sa.select(u.c.seconds).where(u.c.state.in_(states), u.c.solved_at < began))
                )
            out[i] = secs
    return out


def phase_lines(best: dict, store) -> list[str]:
    """One row per phase of each grid's best upper bound by phases."""
    out = [
        "| grid | upper bound | phase | its worst case | states (classes) | from | seconds |",
        "|---|---:|---|---:|---:|---|---:|",
    ]
    for (n, c), grid in sorted(best.items()):
        r = grid.get("upper")
        if r is None or r["method"] != "phases":
            continue
        witness = json.loads(r["witness"])
        for k, ph in enumerate(witness["phases"]):
            states = f"{ph['states']:,}" if "states" in ph else "-"
            if "classes" in ph:
                states += f" ({ph['classes']:,})"
            far = f": `{ph['state']}`" if "state" in ph else ""
            secs = f"{ph['seconds']:.1f}" if "seconds" in ph else "-"
            out.append(
                f"| {n}x{n} {c} colours | {r['value'] if k == 0 else ''} | {ph['grid']} | {ph['worst']} | "
                f"{states} | {ph['by']}{far} | {secs} |"
            )
        out += _off_lines(f"{n}x{n} {c} colours", witness, r["value"], _earlier(store, r))
    return out


def _off_lines(grid: str, witness: dict, value: int, earlier: dict[int, float]) -> list[str]:
    """One row per check behind the moves taken off the sum of the phases
    (bounds/merging.py). A witness keeps its checks in the order made,
    strictest first, and the table shows those that passed, the last with
    the moves taken off. A witness stored before that order
    (``both_worst``, ``further``: each move off in turn, its levels from the
    deepest) says -1 at the last check of each move. A check resumed from
    slices kept by earlier runs counts their seconds too (``earlier``)."""
    first, second = witness["phases"][0], witness["phases"][-1]
    taken = first["worst"] + second["worst"] - value
    if "checks" in witness:
        passed = [(i, ch) for i, ch in enumerate(witness["checks"]) if not ch.get("left", ch["unavoidable"])]
        checks = [ch for _, ch in passed]
        secs = [ch["seconds"] + earlier.get(i, 0.0) for i, ch in passed]
        marks = [""] * (len(checks) - 1) + [f"-{taken}"] if taken else []
        moves = [taken] * len(checks)
    else:
        checks = [witness["both_worst"]] + witness.get("further", []) if "both_worst" in witness else []
        moves = [ch.get("moves_off", 1) for ch in checks]
        checks = [ch for ch, k in zip(checks, moves) if k <= taken]
        marks = ["-1" if i + 1 == len(checks) or moves[i + 1] != moves[i] else "" for i in range(len(checks))]
        secs = [ch["seconds"] for ch in checks]
    out = []
    for ch, k, mark, sec in zip(checks, moves, marks, secs):
        level, most = ch.get("level", first["worst"]), ch.get("at_most", second["worst"] - 1)
        what = (
            "no state needs both worst cases"
            if k == 1 and level == first["worst"]
            else f"{k} moves off: the states at {level} within {level + most} moves"
        )
        states = (
            f"{ch['states']:,}"
            + (" orbits" if ch.get("orbits") else "")
            + (", those the check a move stricter left" if ch.get("again") else "")
        )
        solved = ch.get("solved", [])
        rest = (
            f"; the {len(solved):,} ways to split that no path serves solved one by one, in at most "
            f"{max(x['length'] for x in solved)} moves"
            if solved
            else ""
        )
        if ch.get("resumed"):
            rest += "; over more than one run, each slice kept as it finished"
        out.append(
            f"| {grid} | | {what} | {mark} | {states} | the first phase's states at {level}, "
            f"a path (at most {ch['tries']} shortest, or a detour one or two moves longer) finishing at most "
            f"{most} from solved, less the moves added{rest} | {sec:.1f} |"
        )
    return out


if __name__ == "__main__":
    main()
