"""Solver runs as figures (wsdb/stats/solves.py, `wsdb stats --solves`):
every figure equals the same figure computed here from the stored rows."""

import json
import shutil
import sqlite3
import statistics

import pytest

from wsdb.solver.evaluate import evaluate
from wsdb.stats import solves

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def runs_db(db4, tmp_path_factory):
    """Three runs: two methods on 4x4 three colours, one on four colours."""
    path = tmp_path_factory.mktemp("runs") / "runs.sqlite"
    shutil.copy(db4, path)
    evaluate(4, 3, 15, seed=21, method="auto", db=path)
    evaluate(4, 3, 15, seed=21, method="thesis", db=path)
    evaluate(4, 4, 10, seed=22, method="beam", db=path)
    return path


def from_rows(db, run_id):
    """The figures of one run, straight from SQL rows and the statistics module."""
    with sqlite3.connect(db) as conn:
        got = conn.execute(
            "select length, lower_bound, optimal, exact, seconds from solves where run_id = ?", (run_id,)
        ).fetchall()
    length, lower, optimal, exact, seconds = zip(*got)
    known = [(a, e) for a, e in zip(length, exact) if e is not None]
    return {
        "states": len(got),
        "mean_length": statistics.mean(length),
        "max_length": max(length),
        "mean_lower_bound": statistics.mean(lower),
        "known_exact": len(known),
        "mean_gap_exact": statistics.mean(a - e for a, e in known),
        "mean_gap_bound": statistics.mean(a - b for a, b in zip(length, lower)),
        "share_optimal": sum(optimal) / len(got),
        "median_seconds": statistics.median(seconds),
        "max_seconds": max(seconds),
    }


def test_the_summary_equals_the_figures_computed_from_the_rows(runs_db):
    df = solves.run_summaries(runs_db)
    assert list(df.run_id) == [1, 2, 3] and list(df.method) == ["auto", "thesis", "beam"]
    for row in df.to_dict("records"):
        for key, value in from_rows(runs_db, row["run_id"]).items():
            assert row[key] == pytest.approx(value), key
    # the complete 4x4 trees make every distance known: auto is exact, the thesis' heuristic is not
    auto, thesis = df.iloc[0], df.iloc[1]
    assert auto.mean_gap_exact == 0 and auto.share_optimal == 1
    assert thesis.mean_gap_exact > 0


def test_the_thesis_means_stand_beside_the_runs(runs_db, thesis):
    published = thesis["heuristic_results_100_random_states_tables_5_1_5_2"]
    means = solves.thesis_means()
    assert means["mean_length"] == published["mean_length"]  # the package's copy is the thesis'
    assert means["mean_seconds"] == published["mean_seconds_with_moves"]
    df = solves.run_summaries(runs_db)
    assert list(df.thesis_mean_length) == [7.58, 7.58, 10.82]


def test_json_and_csv_carry_the_same_figures(run, runs_db):
    res = run("stats", "--solves", "--json", "--db", runs_db)
    assert res.exit_code == 0
    lines = [json.loads(x) for x in res.output.splitlines()]
    for line in lines:
        for key, value in from_rows(runs_db, line["run_id"]).items():
            assert line[key] == pytest.approx(value), key
    csv = run("stats", "--solves", "--csv", "--db", runs_db).output.splitlines()
    assert csv[0].startswith("run_id,n,c,method") and len(csv) == 4
    table = run("stats", "--solves", "--db", runs_db).output
    assert "thesis" in table and "7.58 / 16.69" in table


def test_the_picture_is_drawn(run, runs_db, tmp_path):
    res = run("stats", "--solves", "--plot", tmp_path / "s.png", "--db", runs_db)
    assert res.exit_code == 0
    data = (tmp_path / "s.png").read_bytes()
    assert data.startswith(PNG) and len(data) > 20_000


def test_the_picture_names_each_runs_budget(db4, tmp_path):
    """Runs of one method differ by their effort: the legend and the time
    axis say which is which, and the time axis writes plain numbers."""
    path = tmp_path / "e.sqlite"
    shutil.copy(db4, path)
    evaluate(4, 4, 5, seed=3, method="auto", db=path, effort=50)
    evaluate(4, 4, 5, seed=3, method="auto", db=path)
    fig = solves.plot_solves(path)
    left, right = fig.axes
    assert [t.get_text() for t in left.get_legend().get_texts()][1:] == ["auto 50M (run 1)", "auto 100M (run 2)"]
    fig.draw_without_rendering()
    labels = [t.get_text() for t in right.get_yticklabels() + right.get_yticklabels(minor=True) if t.get_text()]
    assert labels and all("e" not in t and "10^" not in t for t in labels), labels


def test_no_runs_is_one_line(run, db4):
    res = run("stats", "--solves", "--db", db4)
    assert res.exit_code == 2 and "wsdb eval" in res.stderr


@pytest.mark.reads_files
def test_the_readme_table_is_made_from_the_newest_run_of_each_grid_and_method(runs_db):
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "scripts" / "solver_table.py"
    spec = importlib.util.spec_from_file_location("solver_table", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    lines = module.table(runs_db).splitlines()[2:]
    assert [line.split(" | ")[:2] for line in lines] == [
        ["| 4x4 c3", "auto"],
        ["| 4x4 c3", "thesis"],
        ["| 4x4 c4", "beam"],
    ]
    df = solves.run_summaries(runs_db)
    for line, row in zip(lines, df.sort_values(["n", "c", "method"]).itertuples()):
        cells = line.strip("| ").split(" | ")
        assert float(cells[2]) == row.effort
        assert float(cells[4]) == pytest.approx(row.mean_length, abs=0.005)
        assert int(cells[5]) == row.max_length
