"""The breadth-first search split into partitions (thesis §3.3, spread over
many processes): the pure steps a distributed engine runs as tasks, with no
storage and no scheduler.

A level's classes are split into P partitions, P a power of two, by the low
bits of a hash of the representative's key (:func:`owner`). One task expands
one partition (:func:`expand_partition`): every move of every class,
canonicalised, deduplicated within the partition, and cut into the next
level's partitions. The task that owns partition j of the next level
gathers its pieces from every expanding task (the shuffle) and keeps the
children that are in neither of the two levels above (:func:`merge_partition`),
where only partition j's share of those levels can hold them.

Because partitions nest (a key's partition under 2P is its partition under
P, or that plus P), a level may be split into more partitions than the one
before and each task still reads just the matching partitions above.

Every class keeps the smallest parent key among the classes it was reached
from: the parent the single-process search (:mod:`.bfs`) keeps, which walks
the sorted level and keeps the first. So the partitioned search stores
exactly the rows of the single-process one.
"""

from __future__ import annotations

import numpy as np

from .keys import distinct, member, sortable, unsortable

#: splitmix64's constants (Steele, Lea and Flood, "Fast splittable
#: pseudorandom number generators", 2014): a fixed mix, the same in every
#: process and every version, so a key's partition never changes.
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _mix(x: np.ndarray) -> np.ndarray:
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * _M1
    x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


def key_hash(keys: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each (S, W) key, word by word."""
    keys = np.asarray(keys, dtype=np.uint64)
    keys = keys if keys.ndim == 2 else keys.reshape(len(keys), -1)
    with np.errstate(over="ignore"):
        h = _mix(keys[:, 0].copy())
        for w in range(1, keys.shape[1]):
            h = _mix(h ^ keys[:, w])
    return h


def owner(keys: np.ndarray, partitions: int) -> np.ndarray:
    """The partition (0..P-1) each key belongs to; P is a power of two."""
    check_partitions(partitions)
    return (key_hash(keys) & np.uint64(partitions - 1)).astype(np.int64)


def check_partitions(partitions: int) -> None:
    if partitions < 1 or partitions & (partitions - 1):
        raise ValueError(f"partitions must be a power of two, not {partitions}")


def sources(j: int, partitions: int, before: int) -> list[int]:
    """The partitions of a level split ``before`` ways that can hold keys of
    partition ``j`` of ``partitions``: one when the split grew, several
    when it shrank (partitions nest, see the module's docstring)."""
    low = min(partitions, before) - 1
    return [i for i in range(before) if i & low == j & low]


def split(keys: np.ndarray, parents: np.ndarray, partitions: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(keys, parents) cut into their owners' pieces, in partition order;
    each piece keeps the rows' order."""
    who = owner(keys, partitions)
    order = np.argsort(who, kind="stable")
    cuts = np.searchsorted(who[order], np.arange(1, partitions))
    return [(keys[idx], parents[idx]) for idx in np.split(order, cuts)]


def expand_partition(eng, reps: np.ndarray, partitions: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every child of the sorted classes ``reps`` with its smallest parent,
    distinct within this partition, cut into the next level's ``partitions``
    pieces (the data the shuffle moves)."""
    from .bfs import dedupe, expand

    if not len(reps):
        empty = np.zeros((0, eng.layout.words), np.uint64)
        return [(empty, empty)] * partitions
    uniq, first_at = dedupe(expand(eng, reps))  # the first row of a key is its smallest parent's: reps are sorted
    keys = unsortable(uniq, eng.layout.words)
    return split(keys, reps[first_at // eng.nmoves], partitions)


def merge_partition(
    pieces: list[tuple[np.ndarray, np.ndarray]], above: np.ndarray, above2: np.ndarray, words: int
) -> tuple[np.ndarray, np.ndarray]:
    """One partition of the next level from its pieces (every expanding
    task's share): sorted distinct keys, each with its smallest parent, less
    those in ``above`` and ``above2`` (the sorted sortable keys of the same
    partition at the two levels above)."""
    keys = np.concatenate([k for k, _ in pieces]) if pieces else np.zeros((0, words), np.uint64)
    parents = np.concatenate([p for _, p in pieces]) if pieces else keys
    if not len(keys):
        return keys, parents
    by_parent = np.argsort(sortable(parents), kind="stable")
    uniq, first = np.unique(sortable(keys)[by_parent], return_index=True)  # stable: the smallest parent first
    chosen = parents[by_parent][first]
    fresh = ~member(above, uniq)[0] & ~member(above2, uniq)[0]
    return unsortable(uniq[fresh], words), np.ascontiguousarray(chosen[fresh])


def sorted_share(levels: list[np.ndarray], j: int, partitions: int) -> np.ndarray:
    """The sorted sortable keys of partition j among one level's pieces
    (read from the partitions :func:`sources` names)."""
    if not levels:
        return np.zeros(0, np.uint64)
    keys = np.concatenate(levels)
    mine = keys[owner(keys, partitions) == j] if len(keys) else keys
    return distinct(sortable(mine)) if len(mine) else sortable(np.zeros((0, keys.shape[1]), np.uint64))
