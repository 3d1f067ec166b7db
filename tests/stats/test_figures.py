"""The figures of wsdb stats (wsdb/stats/figures.py), each against an
independent computation: the brute-force BFS over every raw state, the
multinomial, or arithmetic on the level counts."""

import json

import numpy as np
import pandas as pd
import pytest

import wsdb
from wsdb import stats
from wsdb.errors import WsdbError


@pytest.mark.parametrize("c", [2, 3])
def test_levels_against_brute_force(db4, brute, c):
    b = brute(4, c)
    lv = stats.levels(db4, 4, c)
    assert lv.classes.tolist() == b.classes and lv.states.tolist() == b.states
    assert lv.cumulative_share.tolist() == pytest.approx(np.cumsum(b.states) / sum(b.states))


@pytest.mark.parametrize("c", [2, 3])
def test_summary_against_brute_force(db4, brute, c):
    b = brute(4, c)
    row = stats.summary(db4, 4, c).iloc[0]
    depths = np.arange(len(b.states))
    assert row.god_number == len(b.states) - 1 and row.complete and pd.isna(row.more_than)
    assert row.states == row.all_states == wsdb.wrapslide(4, c).states == sum(b.states)
    assert row.coverage == 1
    assert row.mean_distance_states == pytest.approx(b.depth.mean())
    assert row.mean_distance_classes == pytest.approx((depths * b.classes).sum() / sum(b.classes))
    assert (row.antipode_classes, row.antipode_states) == (b.classes[-1], b.states[-1])


def test_summary_of_every_build_and_the_four_colour_mean(db4, thesis):
    df = stats.summary(db4)
    assert df[["n", "c"]].values.tolist() == [[4, 2], [4, 3], [4, 4]]
    four = df.iloc[2]
    assert four.god_number == thesis["god_numbers"]["4x4_c4"]
    # the mean over states, from the levels by hand
    lv = stats.levels(db4, 4, 4)
    assert four.mean_distance_states == pytest.approx((lv.depth * lv.states).sum() / lv.states.sum())


@pytest.mark.parametrize("c", [3, 4])
def test_orbit_profile_adds_up_and_matches_brute_force(db4, brute, c):
    prof = stats.orbit_profile(db4, 4, c)
    p = wsdb.wrapslide(4, c)
    assert prof.states.sum() == p.states  # the multinomial
    assert ((prof.orbit_size * prof.symmetries) == p.group_order).all()
    assert (prof.states == prof.orbit_size * prof.classes).all()
    if c == 3:
        sizes, counts = np.unique(np.unique(brute(4, 3).canon, return_counts=True)[1], return_counts=True)
        assert prof.orbit_size.tolist() == sizes.tolist() and prof.classes.tolist() == counts.tolist()


def test_the_orbit_count_says_what_it_counts(db4, monkeypatch):
    """It reads every stored class (seconds on a tree of millions), so past
    2 seconds it says so; silenced, it says nothing."""
    from wsdb import notices

    monkeypatch.setattr(notices, "QUIET_FOR", 0.0)
    said = []
    with notices.listening(said.append):
        prof = stats.orbit_profile(db4, 4, 3)
    assert int(prof.classes.sum()) == 14523
    assert said[0] == "counting the 4x4 3-colour classes by orbit size (14,523 classes)..."
    assert "done in" in said[-1]


def test_antipodes_are_at_the_god_number(db4, brute):
    b = brute(4, 3)
    df = stats.antipodes(db4, 4, 3)
    assert len(df) == b.classes[-1] and df.orbit_size.sum() == b.states[-1]
    for grid in df.grid:
        assert b.distance(wsdb.parse_state(grid)[1]) == len(b.states) - 1
    assert len(stats.antipodes(db4, 4, 4, limit=3)) == 3


def test_partial_builds_say_more_than(tmp_path):
    db = tmp_path / "p.sqlite"
    wsdb.build(4, 4, db=db, max_depth=5)
    row = stats.summary(db).iloc[0]
    assert not row.complete and row.more_than == 5 and pd.isna(row.god_number)
    assert pd.isna(row.mean_distance_states) and 0 < row.coverage < 1
    with pytest.raises(WsdbError, match="antipodes are unknown"):
        stats.antipodes(db, 4, 4)


def test_a_partial_build_claims_only_what_its_levels_prove(tmp_path, thesis, run):
    # built to depth 6, the God number of 4x4 two colours: the levels hold every state, and the
    # empty depth 7 was never grown, so "more than 6" would be wrong
    db = tmp_path / "p.sqlite"
    god = thesis["god_numbers"]["4x4_c2"]
    wsdb.build(4, 2, db=db, max_depth=god)
    row = stats.summary(db).iloc[0]
    assert not row.complete and row.coverage == 1 and row.god_number == god and pd.isna(row.more_than)
    assert f"holding every state: God number {god}" in run("stats", "--db", db).output
    # a puzzle whose moves reach only some arrangements: the levels prove "at least" only
    from wsdb.db.build import build_puzzle
    from wsdb.puzzle.catalog import get_puzzle

    build_puzzle(get_puzzle("rubeish", 3), db=db, max_depth=3)
    row = stats.summary(db, puzzle="rubeish").iloc[0]
    assert row.at_least == 3 and pd.isna(row.more_than) and pd.isna(row.god_number)
    assert "the God number is at least 3" in run("stats", "--puzzle", "rubeish", "--db", db).output


def test_builds_report_sizes_on_disk(db4):
    df = stats.builds(db4)
    assert (df.db_bytes > 0).all() and df.db_bytes.sum() <= db4.stat().st_size
    # shares follow the class counts
    assert df.db_bytes.iloc[2] > df.db_bytes.iloc[1] > df.db_bytes.iloc[0]


def test_report_is_json_ready(db4):
    reps = stats.report(db4, first=2)
    text = json.dumps(reps)
    assert len(reps) == 3 and "first_antipodes" in text
    assert len(reps[2]["first_antipodes"]) == 2 and reps[2]["levels"][-1]["cumulative_share"] == pytest.approx(1)


def test_one_of_n_and_c_is_refused(db4):
    with pytest.raises(WsdbError, match="both --n and --c"):
        stats.summary(db4, n=4)


# ---- the command line ----------------------------------------------------------


def test_stats_text(run, db4):
    res = run("stats", "--db", db4)
    assert res.exit_code == 0
    out = res.stdout
    assert "4x4 4-colour (all roots): complete, God number 12" in out
    assert "mean distance 9.3509 over states" in out
    assert "antipodes: 14 classes" in out and "symmetry profile" in out
    one = run("stats", "--n", 4, "--c", 2, "--antipodes", 2, "--db", db4).stdout
    assert "God number 6" in one and "4x4 3-colour" not in one


def test_stats_json_and_csv_agree_with_the_library(run, db4):
    rows = [json.loads(x) for x in run("stats", "--json", "--db", db4).stdout.splitlines()]
    assert rows == json.loads(json.dumps(stats.report(db4)))
    from io import StringIO

    csv = pd.read_csv(StringIO(run("stats", "--csv", "--db", db4).stdout))
    pd.testing.assert_frame_equal(csv, stats.levels(db4), check_dtype=False)
    orbits = pd.read_csv(StringIO(run("stats", "--csv", "--table", "orbits", "--n", 4, "--c", 3, "--db", db4).stdout))
    assert orbits.states.sum() == wsdb.wrapslide(4, 3).states
    lines = run("stats", "--json", "--table", "antipodes", "--n", 4, "--c", 4, "--antipodes", 0, "--db", db4).stdout
    assert len(lines.splitlines()) == 14


def test_info_lists_sizes(run, db4):
    out = run("info", "--db", db4).stdout
    assert out.count("on disk") == 3 and "God number 12" in out
    data = [json.loads(line) for line in run("info", "--json", "--db", db4).stdout.splitlines()]
    assert [r["classes"] for r in data] == [78, 14523, 84174] and all(r["db_bytes"] for r in data)
    assert all(r["parquet_levels"] is None and r["parquet_bytes"] is None for r in data)  # rows, not files


@pytest.mark.parametrize("args", [["--n", "4"], ["--json", "--csv"], ["--table", "levels"], ["--n", "4", "--c", "9"]])
def test_stats_bad_arguments(run, db4, args):
    res = run("stats", *args, "--db", db4)
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1
