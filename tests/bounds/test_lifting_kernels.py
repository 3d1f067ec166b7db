"""The moves-off check's kernels (wsdb/bounds/lifting_kernels.py) against
the same filter written out in plain Python."""

import numpy as np
import pytest

from wsdb.bounds import lifting_kernels as lk


@pytest.mark.parametrize("nleft", [5, 23, 24, 3000])  # each bit alone below 24 left, by bytes from 24
def test_the_check_keeps_exactly_the_liftings_a_path_finishes_far(nleft):
    """lifting_kernels._still_far against the same filter written out: a
    lifting (bits r of a start's cells) is kept when the path carries it
    onto an arrangement whose bit is set in ``far``, in the order given."""
    rng = np.random.default_rng(nleft)
    width = 18
    ends = rng.permutation(36)[:width].astype(np.int64)  # the cells the path carries the start's cells to
    rank_of = np.full(36, -1, dtype=np.int64)
    rank_of[ends] = rng.permutation(width)  # their places on the goal
    far_bits = rng.random(1 << width) < 0.3
    far = np.packbits(far_bits, bitorder="little").view(np.uint64).copy()
    left = rng.integers(0, 1 << width, nleft).astype(np.uint64)
    moved = [sum(1 << int(rank_of[ends[r]]) for r in range(width) if int(x) >> r & 1) for x in left]
    want = [int(x) for x, y in zip(left, moved) if far_bits[y]]
    relabel = np.empty(((width + 7) // 8, 256), dtype=np.uint64)
    kept = lk._still_far(left, nleft, ends, rank_of, relabel, far)
    assert kept == len(want) and left[:kept].tolist() == want
    rank_of[ends[3]] = -1  # a merged cell that does not finish on one
    assert lk._still_far(left, nleft, ends, rank_of, relabel, far) == -1
