"""The pictures (wsdb/stats/plots.py): matplotlib figures, one panel per
build, drawn without switching the caller's backend; real PNG, SVG and PDF
files."""

import pytest

import wsdb
from wsdb.errors import WsdbError
from wsdb.stats.plots import plot_levels, plot_symmetry, save_figure

PNG = b"\x89PNG\r\n\x1a\n"


def test_both_figures_are_written(db4, tmp_path):
    for draw in (plot_levels, plot_symmetry):
        out = save_figure(draw(db4), tmp_path / f"{draw.__name__}.png")
        data = out.read_bytes()
        assert data.startswith(PNG) and len(data) > 20_000


def test_figures_are_returned_and_the_backend_left_alone(db4):
    import matplotlib
    from matplotlib.figure import Figure

    before = matplotlib.get_backend()
    fig = plot_levels(db4)
    assert isinstance(fig, Figure)
    stored = {(b["n"], b["c"]) for b in wsdb.stored_builds(db4)}
    assert len([ax for ax in fig.axes if ax.axison]) == len(stored)
    assert "states and classes per depth" in fig._suptitle.get_text()
    assert matplotlib.get_backend() == before
    assert fig._repr_png_().startswith(PNG)  # what a notebook shows as the cell's result


def test_ax_draws_one_build_into_the_callers_axes(db4):
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.subplots()
    assert plot_symmetry(db4, n=4, c=3, ax=ax) is fig
    assert ax.get_yscale() == "log" and ax.patches  # the bars are in the caller's axes
    assert fig._suptitle is None  # the caller's figure keeps its own titles
    with pytest.raises(WsdbError, match="one build"):
        plot_levels(db4, ax=fig.subplots())


@pytest.mark.parametrize("suffix,magic", [(".svg", b"<?xml"), (".pdf", b"%PDF")])
def test_the_suffix_chooses_the_format(db4, tmp_path, suffix, magic, run):
    res = run("stats", "--plot", tmp_path / f"f{suffix}", "--n", 4, "--c", 3, "--db", db4)
    assert res.exit_code == 0, res.output
    assert (tmp_path / f"f{suffix}").read_bytes().startswith(magic)
    assert (tmp_path / f"f-symmetry{suffix}").read_bytes().startswith(magic)
    bad = run("stats", "--plot", tmp_path / "f.gif", "--n", 4, "--c", 3, "--db", db4)
    assert bad.exit_code == 2 and ".png, .svg or .pdf" in bad.stderr and not (tmp_path / "f.gif").exists()


def test_the_command_writes_both(run, db4, tmp_path):
    res = run("stats", "--plot", tmp_path / "f.png", "--n", 4, "--c", 3, "--db", db4)
    assert res.exit_code == 0
    assert (tmp_path / "f.png").read_bytes().startswith(PNG)
    assert (tmp_path / "f-symmetry.png").read_bytes().startswith(PNG)


def test_partial_builds_are_drawn_and_an_empty_database_refused(tmp_path):
    db = tmp_path / "p.sqlite"
    wsdb.build(6, 4, db=db, max_depth=2)
    assert save_figure(plot_levels(db), tmp_path / "p.png").exists()
    empty = tmp_path / "e.sqlite"
    from wsdb.db.store import Store

    Store.open(empty, create=True)
    with pytest.raises(WsdbError, match="no builds"):
        plot_levels(empty)


def test_unwritable_target_is_one_line(run, db4, tmp_path):
    res = run("stats", "--plot", tmp_path / "missing" / "f.png", "--db", db4)
    assert res.exit_code == 2 and "cannot write" in res.stderr and len(res.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("panels", [1, 3])
def test_titles_fit_inside_the_figure(panels):
    # the symmetry figure's title was cut off at both sides on one panel
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from wsdb.stats.plots import suptitle

    fig, _ = plt.subplots(1, panels, figsize=(4.2 * panels, 3.0), constrained_layout=True)
    suptitle(fig, "Wrapslide: how symmetric the classes are (orbit size = group order / symmetries)")
    fig.canvas.draw()
    box = fig._suptitle.get_window_extent(fig.canvas.get_renderer())
    whole = fig.bbox
    plt.close(fig)
    assert box.x0 >= whole.x0 and box.x1 <= whole.x1 and box.y1 <= whole.y1


def test_one_build_draws_a_whole_title(tmp_path):
    db = tmp_path / "one.sqlite"
    wsdb.build(4, 2, db=db)
    out = save_figure(plot_symmetry(db, n=4, c=2), tmp_path / "s.png")
    assert out.stat().st_size > 0
