"""Pictures of stored builds (matplotlib, headless).

* :func:`plot_levels`: states per depth on a log scale, one panel per built
  (n, c) laid out by grid size (rows) and colour count (columns), the God
  number marked, or the depth where a partial tree stops.
* :func:`plot_symmetry`: the symmetry profile, how many classes are fixed by
  1, 2, 4, ... symmetries, on the same layout.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..db.store import Store
from ..errors import WsdbError
from ..puzzle.catalog import kind
from .figures import levels, orbit_profile, plain, puzzle_of, summary

STATES = "#3b6ea8"
CLASSES = "#e08a2c"
MARK = "#b8322f"


def _figure(builds: pd.DataFrame, height: float, puzzle: str = "wrapslide"):
    """Panels in a grid of sizes (rows) by colour counts (columns) for
    Wrapslide; one row, a panel a build, for the other puzzles."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if not kind(puzzle).grid:
        boards = sorted({(int(n), int(c)) for n, c in zip(builds.n, builds.c)})
        fig, axes = plt.subplots(1, len(boards), figsize=(4.2 * len(boards), height), squeeze=False,
                                 constrained_layout=True)
        return fig, {(n, c): (axes[0][j], builds[(builds.n == n) & (builds.c == c)].iloc[0])
                     for j, (n, c) in enumerate(boards)}
    ns = sorted(int(x) for x in builds.n.unique())
    cs = sorted(int(x) for x in builds.c.unique())
    fig, axes = plt.subplots(len(ns), len(cs), figsize=(4.2 * len(cs), height * len(ns)), squeeze=False,
                             constrained_layout=True)
    panels = {}
    for i, n in enumerate(ns):
        for j, c in enumerate(cs):
            row = builds[(builds.n == n) & (builds.c == c)]
            if row.empty:
                axes[i][j].set_axis_off()
            else:
                panels[(n, c)] = (axes[i][j], row.iloc[0])
    return fig, panels


def _builds(db, n: int | None, c: int | None, root: str, puzzle: str, goal: str | None):
    """The store and the builds a figure draws; refuses where there are none."""
    store = Store.of(db)
    builds = summary(store, n, c, root, puzzle, goal)
    if builds.empty:
        raise WsdbError(f"{store.label} holds no builds to plot: run `wsdb build --n N --c C` first")
    return store, builds


def plot_levels(db=None, path: str | Path = "levels.png", n: int | None = None, c: int | None = None,
                root: str = "all", puzzle: str = "wrapslide", goal: str | None = None) -> Path:
    """Write the states-per-depth figure of one puzzle's builds to ``path``
    (PNG); returns it."""
    store, builds = _builds(db, n, c, root, puzzle, goal)
    lv = levels(store, n, c, root, puzzle, goal)
    fig, panels = _figure(builds, 3.2, puzzle)
    for (bn, bc), (ax, b) in panels.items():
        mine = lv[(lv.n == bn) & (lv.c == bc)]
        ax.bar(mine.depth, mine.states, color=STATES, label="states", width=0.8)
        ax.plot(mine.depth, mine.classes, "o-", color=CLASSES, label="classes", markersize=3.5, linewidth=1.2)
        ax.set_yscale("log")
        ax.set_ylim(0.5, max(mine.states.max(), 1) * 30)
        exact = pd.notna(b.god_number)   # complete, or stopped at its limit holding every state
        if exact:
            ax.axvline(b.height + 0.5, color=MARK, linestyle="--", linewidth=1.2)
            text = f"God number {b.height}"
        else:
            ax.axvspan(b.height + 0.5, b.height + 2.5, color="#cccccc", alpha=0.6, linewidth=0)
            text = f"stored to depth {b.height}; " + ("more lie deeper" if pd.notna(b.more_than) else "deeper unknown")
        ax.text(0.03, 0.95, text, transform=ax.transAxes, va="top", fontsize=9,
                color=MARK if exact else "#555555")
        ax.set_title(puzzle_of(plain(b.to_dict())).board, fontsize=11)
        ax.set_xlabel("depth (moves from solved)")
        ax.set_xticks(range(0, int(b.height) + 1, max(1, -(-int(b.height) // 14))))   # at most 15 labels
        ax.grid(axis="y", alpha=0.3)
    first_ax = next(iter(panels.values()))[0]
    first_ax.set_ylabel("count (log scale)")
    first_ax.legend(loc="upper right", fontsize=8, frameon=False)
    suptitle(fig, f"{_title(puzzle)}: states and classes per depth", fontsize=13)
    return save_png(fig, path)


def plot_symmetry(db=None, path: str | Path = "symmetry.png", n: int | None = None, c: int | None = None,
                  root: str = "all", puzzle: str = "wrapslide", goal: str | None = None) -> Path:
    """Write the symmetry-profile figure of one puzzle's builds to ``path``
    (PNG); returns it."""
    store, builds = _builds(db, n, c, root, puzzle, goal)
    fig, panels = _figure(builds, 3.0, puzzle)
    for (bn, bc), (ax, b) in panels.items():
        prof = orbit_profile(store, plain(b.to_dict())).sort_values("symmetries")
        labels = [str(s) for s in prof.symmetries]
        ax.bar(labels, prof.classes, color=STATES)
        ax.set_yscale("log")
        ax.set_ylim(0.5, max(prof.classes.max(), 1) * 30)
        for x, v in zip(labels, prof.classes):
            ax.text(x, v * 1.3, f"{v:,}", ha="center", va="bottom", fontsize=7)
        partial = "" if b.complete else f" (depths 0-{b.height})"
        ax.set_title(puzzle_of(plain(b.to_dict())).board + partial, fontsize=11)
        ax.set_xlabel("symmetries fixing the class")
        ax.grid(axis="y", alpha=0.3)
    next(iter(panels.values()))[0].set_ylabel("classes (log scale)")
    suptitle(fig, f"{_title(puzzle)}: how symmetric the classes are (orbit size = group order / symmetries)")
    return save_png(fig, path)


def _title(puzzle: str) -> str:
    return kind(puzzle).title


def suptitle(fig, text: str, fontsize: int = 12) -> None:
    """The figure's title, wrapped to the figure's width: a figure of one
    panel is 4.2 inches wide, too narrow for a title on one line."""
    import textwrap

    chars = max(int(fig.get_figwidth() * 72 / (0.55 * fontsize)), 20)   # a character is ~0.55 em wide
    fig.suptitle(textwrap.fill(text, chars), fontsize=fontsize)


def save_png(fig, path) -> Path:
    import matplotlib.pyplot as plt

    path = Path(path)
    try:
        fig.savefig(path, dpi=110)
    except OSError as e:
        raise WsdbError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        plt.close(fig)
    return path
