"""Pictures of stored builds, as matplotlib figures.

* :func:`plot_levels`: states per depth on a log scale, one panel per built
  (n, c) laid out by grid size (rows) and colour count (columns), the God
  number marked, or the depth where a partial tree stops.
* :func:`plot_symmetry`: the symmetry profile, how many classes are fixed by
  1, 2, 4, ... symmetries, on the same layout.

Each returns its :class:`matplotlib.figure.Figure` and draws into the
caller's axes with ``ax=`` (one build), as pandas' plots do. A figure is
made without pyplot, so the caller's backend (a notebook's inline one) is
never switched and no window opens; a notebook shows the returned figure.
:func:`save_figure` writes one as PNG, SVG or PDF by the file's name (the
CLI's ``--plot``).
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from ..db.store import Store
from ..errors import InputError, NotBuiltError, StorageError
from ..puzzle.catalog import kind
from .figures import levels, orbit_profile, plain, puzzle_of, summary

STATES = "#3b6ea8"
CLASSES = "#e08a2c"
MARK = "#b8322f"

if TYPE_CHECKING:
    from matplotlib.figure import Figure


FORMATS = ("png", "svg", "pdf")


def new_figure(rows: int, cols: int, width: float, height: float, **kwargs):
    """A figure of rows x cols panels, made without pyplot (so no backend
    is chosen or switched, and nothing is kept open): (figure, axes). A
    notebook shows it as the cell's answer (its ``_repr_png_``), once."""
    fig = _shown_figure()(figsize=(width, height), layout="constrained")
    return fig, fig.subplots(rows, cols, squeeze=False, **kwargs)


@lru_cache(maxsize=1)
def _shown_figure():
    """matplotlib's Figure, drawn by IPython as a PNG where it is a cell's
    result (pyplot's figures get that from the inline backend; these have
    no backend). Made on first use: importing wsdb.stats loads no matplotlib."""
    from matplotlib.figure import Figure

    class ShownFigure(Figure):
        def _repr_png_(self) -> bytes:
            buf = io.BytesIO()
            self.savefig(buf, format="png", dpi=96)
            return buf.getvalue()

    return ShownFigure


def _figure(builds: pd.DataFrame, height: float, puzzle: str = "wrapslide", ax=None):
    """Panels in a grid of sizes (rows) by colour counts (columns) for
    Wrapslide; one row, a panel a build, for the other puzzles; or the
    caller's ``ax`` for a single build."""
    if ax is not None:
        if len(builds) != 1:
            raise InputError(f"ax= draws one build, and {len(builds)} are stored: give n and c (and the puzzle)")
        return ax.figure, {(int(builds.n.iloc[0]), int(builds.c.iloc[0])): (ax, builds.iloc[0])}
    if not kind(puzzle).grid:
        boards = sorted({(int(n), int(c)) for n, c in zip(builds.n, builds.c)})
        fig, axes = new_figure(1, len(boards), 4.2 * len(boards), height)
        return fig, {
            (n, c): (axes[0][j], builds[(builds.n == n) & (builds.c == c)].iloc[0]) for j, (n, c) in enumerate(boards)
        }
    ns = sorted(int(x) for x in builds.n.unique())
    cs = sorted(int(x) for x in builds.c.unique())
    fig, axes = new_figure(len(ns), len(cs), 4.2 * len(cs), height * len(ns))
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
        raise NotBuiltError(f"{store.label} holds no builds to plot: run `wsdb build --n N --c C` first")
    return store, builds


def plot_levels(
    db=None,
    n: int | None = None,
    c: int | None = None,
    root: str = "all",
    puzzle: str = "wrapslide",
    goal: str | None = None,
    *,
    ax=None,
) -> Figure:
    """The states-per-depth figure of one puzzle's builds (one with ``n``
    and ``c``), drawn into ``ax`` where given (one build)."""
    store, builds = _builds(db, n, c, root, puzzle, goal)
    lv = levels(store, n, c, root, puzzle, goal)
    fig, panels = _figure(builds, 3.2, puzzle, ax)
    for (bn, bc), (panel, b) in panels.items():
        mine = lv[(lv.n == bn) & (lv.c == bc)]
        panel.bar(mine.depth, mine.states, color=STATES, label="states", width=0.8)
        panel.plot(mine.depth, mine.classes, "o-", color=CLASSES, label="classes", markersize=3.5, linewidth=1.2)
        panel.set_yscale("log")
        panel.set_ylim(0.5, max(mine.states.max(), 1) * 30)
        exact = pd.notna(b.god_number)  # complete, or stopped at its limit holding every state
        if exact:
            panel.axvline(b.height + 0.5, color=MARK, linestyle="--", linewidth=1.2)
            text = f"God number {b.height}"
        else:
            panel.axvspan(b.height + 0.5, b.height + 2.5, color="#cccccc", alpha=0.6, linewidth=0)
            text = f"stored to depth {b.height}; " + ("more lie deeper" if pd.notna(b.more_than) else "deeper unknown")
        panel.text(
            0.03, 0.95, text, transform=panel.transAxes, va="top", fontsize=9, color=MARK if exact else "#555555"
        )
        panel.set_title(puzzle_of(plain(b.to_dict())).board, fontsize=11)
        panel.set_xlabel("depth (moves from solved)")
        panel.set_xticks(range(0, int(b.height) + 1, max(1, -(-int(b.height) // 14))))  # at most 15 labels
        panel.grid(axis="y", alpha=0.3)
    first_ax = next(iter(panels.values()))[0]
    first_ax.set_ylabel("count (log scale)")
    first_ax.legend(loc="upper right", fontsize=8, frameon=False)
    if ax is None:  # the caller's axes keep the caller's titles
        suptitle(fig, f"{_title(puzzle)}: states and classes per depth", fontsize=13)
    return fig


def plot_symmetry(
    db=None,
    n: int | None = None,
    c: int | None = None,
    root: str = "all",
    puzzle: str = "wrapslide",
    goal: str | None = None,
    *,
    ax=None,
) -> Figure:
    """The symmetry-profile figure of one puzzle's builds (one with ``n``
    and ``c``), drawn into ``ax`` where given (one build)."""
    store, builds = _builds(db, n, c, root, puzzle, goal)
    fig, panels = _figure(builds, 3.0, puzzle, ax)
    for panel, b in panels.values():
        prof = orbit_profile(store, plain(b.to_dict())).sort_values("symmetries")
        labels = [str(s) for s in prof.symmetries]
        panel.bar(labels, prof.classes, color=STATES)
        panel.set_yscale("log")
        panel.set_ylim(0.5, max(prof.classes.max(), 1) * 30)
        for x, v in zip(labels, prof.classes):
            panel.text(x, v * 1.3, f"{v:,}", ha="center", va="bottom", fontsize=7)
        partial = "" if b.complete else f" (depths 0-{b.height})"
        panel.set_title(puzzle_of(plain(b.to_dict())).board + partial, fontsize=11)
        panel.set_xlabel("symmetries fixing the class")
        panel.grid(axis="y", alpha=0.3)
    next(iter(panels.values()))[0].set_ylabel("classes (log scale)")
    if ax is None:
        suptitle(fig, f"{_title(puzzle)}: how symmetric the classes are (orbit size = group order / symmetries)")
    return fig


def _title(puzzle: str) -> str:
    return kind(puzzle).title


def suptitle(fig, text: str, fontsize: int = 12) -> None:
    """The figure's title, wrapped to the figure's width: a figure of one
    panel is 4.2 inches wide, too narrow for a title on one line."""
    import textwrap

    chars = max(int(fig.get_figwidth() * 72 / (0.55 * fontsize)), 20)  # a character is ~0.55 em wide
    fig.suptitle(textwrap.fill(text, chars), fontsize=fontsize)


def save_figure(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` to ``path`` as PNG, SVG or PDF, by the file's suffix
    (none: PNG, the suffix added); returns the path written."""
    path = Path(path)
    fmt = path.suffix.lstrip(".").lower()
    if not fmt:
        path, fmt = path.with_suffix(".png"), "png"
    if fmt not in FORMATS:
        raise InputError(f"cannot draw {path.name}: expected a file ending in .png, .svg or .pdf")
    try:
        fig.savefig(path, dpi=110, format=fmt)
    except OSError as e:
        raise StorageError(f"cannot write {path}: {e.strerror or e}") from None
    return path
