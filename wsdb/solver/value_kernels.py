"""numba: the learned guide's estimate (:mod:`.value_net`), one state per
thread at a time, every sum in one fixed order, so that the same weights
give the same estimates bit for bit on any machine and any number of
threads (no sum is split across threads; without fastmath no fused
multiply-add or reordering is allowed)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

#: states per block of the kernel: each block reuses its scratch vectors
BLOCK = 64


@njit(cache=True, parallel=True)
def net_values(states, w1, b1, w2, b2, w3, b3):
    """The network's estimate of each state (see :class:`ValueNet`), one
    state per thread at a time, every sum in cell and unit order."""
    count, ncells = states.shape
    labels = w1.shape[0] // ncells
    h1n, h2n = w1.shape[1], w2.shape[1]
    out = np.empty(count, np.float32)
    blocks = (count + BLOCK - 1) // BLOCK
    for blk in prange(blocks):
        h1 = np.empty(h1n, np.float32)
        h2 = np.empty(h2n, np.float32)
        for i in range(blk * BLOCK, min(count, (blk + 1) * BLOCK)):
            h1[:] = b1
            for j in range(ncells):  # the one-hot first layer: one row per cell
                r = j * labels + states[i, j]
                for k in range(h1n):
                    h1[k] += w1[r, k]
            h2[:] = b2
            for k in range(h1n):
                a = h1[k]
                if a > 0.0:  # rectified: a unit at zero adds nothing
                    for m in range(h2n):
                        h2[m] += a * w2[k, m]
            v = b3[0]
            for m in range(h2n):
                if h2[m] > 0.0:
                    v += h2[m] * w3[m]
            out[i] = v
    return out
