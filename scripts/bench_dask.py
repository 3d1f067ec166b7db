#!/usr/bin/env python3
"""Benchmark `wsdb build --engine dask`: whole processes on a LocalCluster,
checked against the single-process build, and the scaling figures of
docs/scale.md.

For each case, one `wsdb build --engine dask --workers K --worker-memory M`
into a new SQLite file and levels folder, timed from outside with
/usr/bin/time -v (wall clock; peak resident set of the largest process, the
client or a worker, since the workers are its children). The manifest gives
each level's seconds, partitions and shuffle bytes. Unless --no-compare, the
same grid is built by the single-process engine to the same depth and every
level's classes, states and rows (rep, depth, parent, orbit size) are
compared; a difference stops the script.

    python scripts/bench_dask.py --grid 6x6c2 --workers 1 --workers 2
    python scripts/bench_dask.py --grid 6x6c3 --depth 8 --workers 2 --memory 8GiB
    python scripts/bench_dask.py ... --write        # the table into docs/scale.md
    python scripts/bench_dask.py --readme bench_dask_depth9:dask_depth9   # that run, said in the README
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

from wsdb.puzzle.tree_key import TreeKey

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from bench_build import timed  # noqa: E402  (the same /usr/bin/time -v measurement)

GRIDS = {"4x4c4": (4, 4), "6x6c2": (6, 2), "6x6c3": (6, 3), "6x6c4": (6, 4)}


def wsdb() -> str:
    return shutil.which("wsdb") or str(Path(sys.executable).with_name("wsdb"))


def same_rows(local: Path, dask: Path, n: int, c: int) -> str:
    """'identical', or the first difference between the two stored trees."""
    from wsdb.db.store import Store
    from wsdb.engine.keys import KeyLayout

    a, b = Store.open(local), Store.open(dask)
    tree = TreeKey.wrapslide(n, c)
    if a.level_rows(tree) != b.level_rows(tree):
        return "levels differ"
    layout = KeyLayout.for_colours(n * n, c)
    for name, x, y in zip(("reps", "depths", "parents", "orbits"), a.load(tree, layout), b.load(tree, layout)):
        if not np.array_equal(x, y):
            return f"{name} differ"
    return "identical"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--grid", choices=sorted(GRIDS), default="6x6c2")
    ap.add_argument("--depth", type=int, default=None, help="--max-depth (default: the build's default)")
    ap.add_argument("--workers", type=int, action="append", help="worker processes (repeat to compare)")
    ap.add_argument("--memory", default="8GiB", help="memory limit per worker")
    ap.add_argument("--no-compare", action="store_true", help="skip the single-process build")
    ap.add_argument("--write", action="store_true", help="print the table into docs/scale.md")
    ap.add_argument("--block", default="bench_dask")
    ap.add_argument(
        "--readme",
        default=None,
        metavar="BLOCK:README_BLOCK",
        help="build nothing: say the run docs/scale.md's BLOCK holds in a sentence, in the README's "
        "README_BLOCK, under that run's own provenance line",
    )
    ap.add_argument(
        "--project",
        action="store_true",
        help="also project depths 10 and 11 of 6x6 three colours onto clusters (docs/scale.md)",
    )
    args = ap.parse_args()
    if args.readme:
        readme_sentence(*args.readme.split(":", 1))
        return
    n, c = GRIDS[args.grid]
    depth = ["--max-depth", str(args.depth)] if args.depth is not None else []
    rows, levels_rows = [], []
    first = None  # (workers, classes a second) of the first dask case, for the speed-up column
    lv_bytes = {}
    with tempfile.TemporaryDirectory(prefix="wsdb-bench-dask-") as tmp:
        tmp = Path(tmp)
        local = tmp / "local.sqlite"
        if not args.no_compare:
            wall, rss = timed([wsdb(), "build", "--n", str(n), "--c", str(c), *depth, "--db", str(local), "-q"])
            print(f"single process: {wall:.1f} s, {rss:.0f} MiB", flush=True)
            rows.append(["single process (local engine)", "-", f"{wall:.1f}", f"{rss:,.0f}", "", "", "", "reference"])
        for k in args.workers or [2]:
            db, lv = tmp / f"dask{k}.sqlite", tmp / f"levels{k}"
            wall, rss = timed(
                [
                    wsdb(),
                    "build",
                    "--n",
                    str(n),
                    "--c",
                    str(c),
                    *depth,
                    "--engine",
                    "dask",
                    "--workers",
                    str(k),
                    "--worker-memory",
                    args.memory,
                    "--db",
                    str(db),
                    "--levels",
                    str(lv),
                    "-q",
                ]
            )
            man = json.loads((lv / "manifest.json").read_text())
            lv_bytes[k] = (
                sum(f.stat().st_size for f in lv.rglob("*.parquet")),
                sum(e["classes"] for e in man["levels"]),
            )
            classes = sum(e["classes"] for e in man["levels"])
            shuffle = sum(e["shuffle_bytes"] for e in man["levels"])
            same = "not compared" if args.no_compare else same_rows(local, db, n, c)
            if same not in ("identical", "not compared"):
                sys.exit(f"{k} workers: {same} from the single-process build")
            print(f"{k} workers: {wall:.1f} s, {rss:.0f} MiB, {classes:,} classes, {same}", flush=True)
            first = first or (k, classes / wall)
            k0, r0 = first
            rows.append(
                [
                    f"dask, {k} worker{'s' * (k > 1)} of 1 thread, {args.memory} each",
                    str(k),
                    f"{wall:.1f}",
                    f"{rss:,.0f}",
                    f"{classes / wall:,.0f}",
                    f"{classes / wall / r0:.2f}x ({classes / wall / r0 / (k / k0):.0%})",
                    f"{shuffle / 2**30:.2f}",
                    same,
                ]
            )
            for e in man["levels"]:
                levels_rows.append(
                    [
                        str(k),
                        str(e["depth"]),
                        f"{e['classes']:,}",
                        str(e["partitions"]),
                        f"{e['seconds']:.2f}",
                        f"{e['classes'] / max(e['seconds'], 1e-9):,.0f}",
                        f"{e['shuffle_bytes'] / 2**20:,.1f}",
                    ]
                )
    label = f"{n}x{n} {c}-colour" + (f" to depth {args.depth}" if args.depth is not None else "")
    table = (
        f"{label}, whole processes (one run each):\n\n"
        "| engine | workers | wall s | peak MiB (largest process) | classes/s | speed-up (per worker) "
        f"vs {(args.workers or [2])[0]} | shuffle GiB | rows vs single process |\n"
        "|---|---:|---:|---:|---:|---:|---:|---|\n"
        + "\n".join("| " + " | ".join(r) + " |" for r in rows)
        + "\n\nPer level (from the manifest):\n\n"
        "| workers | depth | classes | partitions | seconds | classes/s | shuffle MiB |\n"
        "|---:|---:|---:|---:|---:|---:|---:|\n" + "\n".join("| " + " | ".join(r) + " |" for r in levels_rows)
    )
    print(table)
    if args.project:
        project(levels_rows, lv_bytes, args)
    if args.write:
        from docs_tables import write

        write(
            "docs/scale.md",
            args.block,
            table,
            "scripts/bench_dask.py " + " ".join(sys.argv[1:]).replace(" --write", ""),
        )


def readme_sentence(name: str, readme_block: str) -> None:
    """The run of docs/scale.md's block ``name`` in a sentence for the
    README: its first dask case's wall time and peak memory, and its
    deepest level, under that block's own provenance line (the same
    measurement, said again, not a new one)."""
    from docs_tables import block, write_measured

    body = block("docs/scale.md", name).strip().splitlines()
    cells = [[x.strip() for x in line.strip("|").split("|")] for line in body if line.startswith("|")]
    engine, _, wall, peak = next(row for row in cells if row[0].startswith("dask"))[:4]
    _, depth, classes = [row for row in cells if row[0].isdigit()][-1][:3]
    write_measured(
        "README.md",
        readme_block,
        [body[0]],
        f"{float(wall):,.0f} s wall time ({engine}); {peak} MiB peak resident memory in the largest "
        f"process, the client or a worker; {classes} classes at depth {depth}.",
    )


#: What the projection assumes, stated in its table: the levels' sizes (the
#: issue's estimate from depth 8's 8.7 M classes growing about 9.5 times a
#: level), cores per worker machine, the share of ideal speed-up kept (the
#: shuffle and stragglers), and each machine's network.
PROJECT_LEVELS = {9: 80e6, 10: 750e6, 11: 7.1e9}
CORES = 16
EFFICIENCY = 0.7
NETWORK_BYTES_S = 1.25e9  # 10 Gb/s a machine


def project(levels_rows, lv_bytes, args) -> None:
    """Depths 10 and 11 of 6x6 three colours on 8, 32 and 128 machines of
    16 cores, from the largest measured level: parent classes expanded per
    core-second, shuffle bytes and Parquet bytes per class."""
    k = max(int(r[0]) for r in levels_rows)
    mine = [r for r in levels_rows if int(r[0]) == k]
    by_depth = {int(r[1]): r for r in mine}
    last = max(by_depth)
    parent = float(by_depth[last - 1][2].replace(",", ""))
    seconds = float(by_depth[last][4])
    per_core = parent / (seconds * k)  # parent classes a core-second
    shuffle_per_parent = float(by_depth[last][6].replace(",", "")) * 2**20 / parent
    disk_per_class = lv_bytes[k][0] / lv_bytes[k][1]
    lines = []
    for depth in (10, 11):
        parents, classes = PROJECT_LEVELS[depth - 1], PROJECT_LEVELS[depth]
        for machines in (8, 32, 128):
            compute = parents / (per_core * machines * CORES * EFFICIENCY)
            volume = parents * shuffle_per_parent
            network = volume / (machines * NETWORK_BYTES_S)
            lines.append(
                [
                    str(depth),
                    f"{classes:.2g}",
                    str(machines),
                    str(machines * CORES),
                    f"{compute / 60:,.1f}",
                    f"{volume / 2**40:,.2f}",
                    f"{network / 60:,.1f}",
                    f"{classes * disk_per_class / 2**30:,.0f}",
                ]
            )
    table = (
        f"From depth {last} of the measured run ({k} worker{'s' * (k > 1)}): {per_core:,.0f} parent classes "
        f"expanded a core-second, {shuffle_per_parent:.0f} shuffle bytes a parent class, "
        f"{disk_per_class:.1f} Parquet bytes a stored class. Assumed: levels of "
        + ", ".join(f"{v:.2g} classes at depth {d}" for d, v in PROJECT_LEVELS.items())
        + f" (about 9.5 times a level); {CORES} cores a machine, one single-threaded worker each; "
        f"{EFFICIENCY:.0%} of ideal speed-up kept; {NETWORK_BYTES_S * 8 / 1e9:.0f} Gb/s a machine, "
        "all-to-all. The compute and network columns overlap, so a level takes about the larger.\n\n"
        "| depth | classes | machines | cores | compute min | shuffle TiB | network min | Parquet GiB |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|\n" + "\n".join("| " + " | ".join(r) + " |" for r in lines)
    )
    print(table)
    if args.write:
        from docs_tables import write

        write("docs/scale.md", "scale_projection", table, "scripts/bench_dask.py --project, from the run above")


if __name__ == "__main__":
    main()
