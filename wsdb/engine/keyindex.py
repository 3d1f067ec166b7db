"""Sets of keys answered in one or two memory reads: exact, and a filter.

A solver looks up millions of states per second in a stored tree held in
memory (:class:`wsdb.solver.tables.Endgame`). A binary search over the
tens of millions of keys of a deep tree misses the cache at almost every
step; here the keys are grouped by a hash of their words (a counting sort,
:func:`~wsdb.engine.kernels.bucket_order`) with about two keys a bucket, so
a lookup reads the bucket's start and scans a few neighbouring keys. On the
8x8 two-colour tree with its derived eighth level (39 M keys) a search level
of 30 M lookups takes 2.9 s where binary search took 7.0 s.

A level too large to hold exactly (the 8x8 two-colour tree's ninth, about
400 M classes) is held as a :class:`KeyFilter`, a blocked Bloom filter: it
never says 'absent' of a key added, and says 'maybe' of 0.6% of others
(measured on random 8x8 states), which a caller then checks exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class KeyIndex:
    """Keys in bucket order with where each bucket starts."""

    keys: np.ndarray  # (S, W) uint64, grouped by bucket
    starts: np.ndarray  # (2**bits + 1,) int64

    @property
    def bits(self) -> int:
        """The hash bits that pick a bucket."""
        return int(self.starts.size - 1).bit_length() - 1

    @classmethod
    def of(cls, keys: np.ndarray) -> tuple["KeyIndex", np.ndarray]:
        """The index of (S, W) keys (distinct), and the order it put them in
        (``index.keys == keys[order]``), so that arrays beside the keys
        can follow."""
        from . import kernels

        keys = np.ascontiguousarray(keys, dtype=np.uint64)
        bits = max(int(len(keys)).bit_length() - 2, 1)  # two to four keys a bucket
        order, starts = kernels.bucket_order(keys, bits)
        return cls(np.ascontiguousarray(keys[order]), starts), order

    def rows(self, queries: np.ndarray) -> np.ndarray:
        """Row of each (Q, W) query in ``keys``, or -1."""
        from . import kernels
        from .compiling import read_only

        queries = np.ascontiguousarray(queries, dtype=np.uint64)
        if len(queries) == 0:
            return np.zeros(0, np.int64)
        return kernels.find_bucketed(read_only(self.keys), read_only(self.starts), self.bits, queries)


@dataclass
class KeyFilter:
    """A blocked Bloom filter of keys: three bits in one 64-bit word each."""

    words: np.ndarray  # (2**wbits,) uint64

    @property
    def wbits(self) -> int:
        """The hash bits that pick a word."""
        return int(self.words.size).bit_length() - 1

    @classmethod
    def sized(cls, expected: int) -> "KeyFilter":
        """An empty filter for about ``expected`` distinct keys (three to
        four a word: 0.6% false 'maybe' on 8x8)."""
        wbits = max(int(expected // 4).bit_length(), 6)
        return cls(np.zeros(1 << wbits, np.uint64))

    def add(self, keys: np.ndarray) -> None:
        """Add (K, W) keys."""
        from . import kernels

        kernels.filter_add(self.words, self.wbits, np.ascontiguousarray(keys, dtype=np.uint64), kernels.threads())

    def has(self, keys: np.ndarray) -> np.ndarray:
        """False where a key was certainly not added; True where it may have been."""
        from . import kernels
        from .compiling import read_only

        if len(keys) == 0:
            return np.zeros(0, bool)
        return kernels.filter_has(read_only(self.words), self.wbits, np.ascontiguousarray(keys, dtype=np.uint64))
