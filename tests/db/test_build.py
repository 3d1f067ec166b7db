"""The stored builder (wsdb/db/build.py) against published numbers."""

import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.puzzle.tree_key import TreeKey


@pytest.mark.parametrize("c", [2, 3, 4])
def test_all_roots_agree_with_the_thesis_below_level_1(thesis, c, db4):
    levels = Store.open(db4).level_rows(TreeKey.wrapslide(4, c))
    published = thesis["classes_per_level"][f"4x4_c{c}"]
    ours = [r["classes"] for r in levels]
    if c == 3:  # both solved classes at depth 0 (docs/rules.md, "Roots")
        assert ours[:2] == [2, 2] and ours[2:] == published[2:]
    else:
        assert ours == published
    build = Store.open(db4).build_row(TreeKey.wrapslide(4, c))
    assert build["complete"] and build["god_number"] == thesis["god_numbers"][f"4x4_c{c}"]
    assert build["states"] == thesis["states"]["4x4"][str(c)]


def test_mean_optimal_length_matches_the_thesis(thesis, db4):
    for c in (2, 3, 4):
        levels = Store.open(db4).level_rows(TreeKey.wrapslide(4, c))
        mean = sum(r["depth"] * r["states"] for r in levels) / sum(r["states"] for r in levels)
        # published to two decimals (7.3454 is printed 7.34: truncated)
        assert abs(mean - thesis["mean_optimal_length_over_states"][f"4x4_c{c}"]) < 0.01


def test_finished_build_is_not_redone(db4):
    tree, row = wsdb.build(4, 2, db=db4)
    assert tree is None and row["complete"]


@pytest.mark.parametrize("n, c, depth", [(6, 4, 3), (6, 3, 3), (8, 2, 2), (8, 4, 2)])
def test_partial_trees_of_big_grids(tmp_path, n, c, depth):
    tree, row = wsdb.build(n, c, db=tmp_path / "p.sqlite", max_depth=depth)
    assert not row["complete"] and row["height"] == depth and row["god_number"] is None
    # every stored state count is a true count: levels 0..depth of a BFS
    assert sum(lv.states for lv in tree.levels) == row["states"]
    report = wsdb.verify(n, c, db=tmp_path / "p.sqlite")
    assert report.ok, report.problem


@pytest.mark.slow
def test_6x6_two_colour_full_tree(thesis, tmp_path):
    tree, row = wsdb.build(6, 2, db=tmp_path / "w.sqlite")
    assert row["complete"] and row["god_number"] == thesis["god_numbers"]["6x6_c2"]
    assert row["states"] == thesis["states"]["6x6"]["2"]
    assert [lv.classes for lv in tree.levels][:9] == thesis["classes_per_level"]["6x6_c2_levels_0_to_8_incomplete"]
    assert wsdb.verify(6, 2, db=tmp_path / "w.sqlite").ok
