"""Solver runs (``wsdb eval``) as figures: per-run summaries beside the
thesis' chapter 5 means, and a picture of length distributions and times.

Everything is computed from the public tables ``solve_runs`` and
``solves`` (docs/sql.md has the same summary as one SQL query), so a
researcher can get the same numbers with pandas, SQL or datasette.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import TYPE_CHECKING

import pandas as pd

from ..db.store import Store
from ..errors import InputError, NotBuiltError
from .plots import new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SUMMARY_COLUMNS = [
    "run_id",
    "n",
    "c",
    "method",
    "effort",
    "params",
    "version",
    "status",
    "started_at",
    "cores",
    "states",
    "mean_length",
    "max_length",
    "mean_lower_bound",
    "known_exact",
    "mean_gap_exact",
    "mean_gap_bound",
    "share_optimal",
    "median_seconds",
    "max_seconds",
    "timed_out",
    "thesis_mean_length",
    "thesis_mean_seconds",
]


def _effort(params: str | None) -> float | None:
    """A run's effort from its settings; None for a run timed in seconds
    (before budgets were counted in work)."""
    try:
        return json.loads(params or "{}").get("effort")
    except (ValueError, AttributeError):
        return None


def effort_label(effort: float | None) -> str:
    """A run's effort as the tables and the picture show it: '100M' (millions
    of nodes a state), or 'time' for a run budgeted in seconds."""
    return "time" if effort is None or effort != effort else f"{effort:g}M"


def thesis_means() -> dict:
    """The thesis heuristic's mean length and seconds per grid (Tables 5.1
    and 5.2), keyed like ``"6x6_c3"``."""
    text = resources.files("wsdb.stats").joinpath("thesis_chapter5.json").read_text()
    data = json.loads(text)
    return {"mean_length": data["mean_length"], "mean_seconds": data["mean_seconds_with_moves"]}


def runs(db=None) -> pd.DataFrame:
    """Every stored solver run, one row each (the ``solve_runs`` table)."""
    rows = Store.of(db).run_rows()
    return pd.DataFrame(rows) if rows else pd.DataFrame(columns=["run_id", "n", "c", "method"])


def solves(db=None, run_id: int | None = None) -> pd.DataFrame:
    """Every solved state (of one run, or of all), with its run's grid and
    method: the ``solves`` table joined to ``solve_runs``."""
    store = Store.of(db)
    rows = store.solve_rows(run_id)
    meta = {r["run_id"]: r for r in store.run_rows()}
    df = pd.DataFrame(
        rows,
        columns=[
            "run_id",
            "idx",
            "state",
            "length",
            "lower_bound",
            "optimal",
            "exact",
            "seconds",
            "timed_out",
            "solved_by",
            "moves",
        ],
    )
    for col in ("n", "c", "method"):
        df.insert(1, col, [meta[r][col] for r in df.run_id])
    return df[["run_id", "n", "c", "method"] + [k for k in df.columns if k not in ("run_id", "n", "c", "method")]]


def run_summaries(db=None) -> pd.DataFrame:
    """Per run: the effort it was given (millions of nodes a state: runs
    with the same effort answer each state alike), mean and max length, mean lower bound, the gap to the exact
    distance (over the states where it is known: ``known_exact`` of them)
    and to the lower bound, the share proven optimal, median and max
    seconds, time-outs, and the thesis' means for the grid where it
    published them."""
    store = Store.of(db)
    thesis = thesis_means()
    out = []
    for run in store.run_rows():
        rows = pd.DataFrame(store.solve_rows(run["run_id"]))
        grid = f"{run['n']}x{run['n']}_c{run['c']}"
        row = {k: run[k] for k in ("run_id", "n", "c", "method", "params", "version", "status", "started_at", "cores")}
        row["effort"] = _effort(run["params"])
        row["states"] = len(rows)
        row["thesis_mean_length"] = thesis["mean_length"].get(grid)
        row["thesis_mean_seconds"] = thesis["mean_seconds"].get(grid)
        if len(rows):
            known = rows[rows.exact.notna()]
            row.update(
                mean_length=rows.length.mean(),
                max_length=int(rows.length.max()),
                mean_lower_bound=rows.lower_bound.mean(),
                known_exact=len(known),
                mean_gap_exact=(known.length - known.exact).mean() if len(known) else None,
                mean_gap_bound=(rows.length - rows.lower_bound).mean(),
                share_optimal=rows.optimal.astype(bool).mean(),
                median_seconds=rows.seconds.median(),
                max_seconds=rows.seconds.max(),
                timed_out=int(rows.timed_out.astype(bool).sum()),
            )
        out.append(row)
    return pd.DataFrame(out, columns=SUMMARY_COLUMNS)


def plot_solves(db=None, n: int | None = None, c: int | None = None, *, ax=None) -> Figure:
    """The runs' picture: for each grid (one with ``n`` and ``c``), the
    length distribution of each run side by side with a reference, each
    state's exact distance where any run knows it, else the best lower
    bound any run proved for it, and the seconds per state on a log scale.
    ``ax``: a pair of the caller's axes (lengths, times) for one grid."""
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    df = solves(db)
    if n is not None:
        df = df[(df.n == n) & ((df.c == c) if c is not None else True)]
    if df.empty:
        raise NotBuiltError(
            "no solver runs stored"
            + (f" for {n}x{n}" if n is not None else "")
            + ": run `wsdb eval --n N --c C --count K` first"
        )
    # runs of one method differ by their budget: the labels say it
    efforts = {r["run_id"]: effort_label(_effort(r["params"])) for r in Store.of(db).run_rows()}
    grids = sorted({(int(n), int(c)) for n, c in zip(df.n, df.c)})
    if ax is not None:
        if len(grids) != 1 or len(ax) != 2:
            raise InputError("ax= is a pair of axes (lengths, times) for one grid: give n and c")
        fig, axes = ax[0].figure, [list(ax)]
    else:
        fig, axes = new_figure(len(grids), 2, 11, 3.3 * len(grids), gridspec_kw={"width_ratios": [2.2, 1]})
    for (n, c), (left, right) in zip(grids, axes):
        mine = df[(df.n == n) & (df.c == c)]
        run_ids = sorted(mine.run_id.unique())
        labels = [f"{mine[mine.run_id == r].method.iloc[0]} {efforts[r]} (run {r})" for r in run_ids]
        # the reference per state: its distance where any run knows it, else the best bound any run proved
        per_state = mine.groupby("state").agg(exact=("exact", "max"), bound=("lower_bound", "max"))
        first = mine[mine.run_id == run_ids[0]]  # runs of a grid usually share their draw
        reference = first.state.map(per_state.exact.fillna(per_state.bound)).astype(int)
        known = int(first.state.map(per_state.exact).notna().sum())
        name = (
            "exact distance"
            if known == len(first)
            else "lower bound"
            if known == 0
            else f"exact distance ({known} of {len(first)}), else lower bound"
        )
        series = [(name, reference)] + [(lab, mine[mine.run_id == r].length) for lab, r in zip(labels, run_ids)]
        lo = int(min(v.min() for _, v in series))
        hi = int(max(v.max() for _, v in series))
        step = max(1, -(-(hi - lo + 1) // 30))  # at most about 30 groups of bars
        edges = np.arange(lo, hi + step + 1, step) - 0.5
        centres = (edges[:-1] + edges[1:]) / 2
        width = 0.8 * step / len(series)
        for k, (lab, values) in enumerate(series):
            counts, _ = np.histogram(values, edges)
            left.bar(
                centres + (k - (len(series) - 1) / 2) * width,
                counts,
                width=width,
                label=lab,
                color="#888888" if k == 0 else None,
            )
        left.set_title(
            f"{n}x{n}, {c} colours: solution lengths ({len(first)} states"
            + (f", {step} moves a bar)" if step > 1 else ")")
        )
        left.set_xlabel("moves")
        left.xaxis.set_major_locator(MaxNLocator(integer=True))
        left.set_ylabel("states")
        left.yaxis.set_major_locator(MaxNLocator(integer=True))  # states are counted: no 1.75
        left.legend(fontsize=8)
        right.boxplot([mine[mine.run_id == r].seconds.clip(lower=1e-3) for r in run_ids])
        right.set_xticks(range(1, len(run_ids) + 1), [lab.replace(" (", "\n(") for lab in labels], fontsize=8)
        right.set_yscale("log")
        # plain numbers (30 and 0.06, not 3 x 10^1 or 6e-02); minor ticks only where the axis spans a decade or so
        right.yaxis.set_major_formatter(_plain_log())
        right.yaxis.set_minor_formatter(_plain_log(labelOnlyBase=False, minor_thresholds=(1, 0.4)))
        right.set_ylabel("seconds per state")
        right.set_title("time per state")
    return fig


def _plain_log(**kwargs):
    """matplotlib's log-axis labeller (it decides which ticks to label),
    each label written as a plain number."""
    from matplotlib.ticker import LogFormatter

    class PlainLog(LogFormatter):
        def _num_to_string(self, x, vmin, vmax):
            return f"{x:g}"

    return PlainLog(**kwargs)
