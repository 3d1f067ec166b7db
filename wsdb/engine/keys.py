"""Keys: a state as an integer, the database key (thesis §3.1, Table 3.2).

A state of N = n*n cells with colours 0..c-1 becomes the integer

    key = sum_i colour(cell i) << (b * (N - 1 - i)),   b = 1 if c == 2 else 2

(for other puzzles, b is the bit length of c - 1: 9 labels take 4 bits),
so cell (0,0) is the most significant field and numeric order is the
lexicographic order of the row-major cell sequence, as in the thesis
(Table 3.2: one bit per cell for two colours, two bits otherwise). In memory
a key is W = ceil(b*N / 64) uint64 words, most significant word first; in
SQLite it is an INTEGER when b*N <= 63 (every 4x4 grid, 6x6 two colours) and
otherwise the big-endian bytes of the integer as a BLOB, which sorts the same.

Cell permutations are applied to keys through byte tables: for each 8-bit
chunk of the key, a 256-entry table gives where those bits land. A
permutation then costs ceil(b*N/8) lookups instead of N shifts, which is what
makes the 6x6 two-colour build fit in a minute.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True)
class KeyLayout:
    """Where each cell's colour lives in a key."""

    ncells: int
    bits: int  # bits per cell: 1 (two colours) or 2

    @classmethod
    def for_colours(cls, ncells: int, c: int) -> "KeyLayout":
        """One bit per cell for two colours, two for three or four (the
        thesis' layout); other puzzles' labels take as many bits as they need
        (up to 16 labels in 4)."""
        return cls(ncells, max(1, (c - 1).bit_length()))

    @property
    def total_bits(self) -> int:
        return self.ncells * self.bits

    @property
    def words(self) -> int:
        return -(-self.total_bits // 64)

    @property
    def chunks(self) -> int:
        return -(-self.total_bits // 8)

    @property
    def sql_integer(self) -> bool:
        """True when keys fit a signed 64-bit SQLite INTEGER."""
        return self.total_bits <= 63

    def _field(self, cell: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(word index, shift) of each cell's lowest bit."""
        pos = self.bits * (self.ncells - 1 - np.asarray(cell))
        return self.words - 1 - pos // 64, pos % 64

    @cached_property
    def valid(self) -> np.ndarray:
        """Per word, the mask of bits that belong to some cell."""
        mask = np.zeros(self.words, dtype=np.uint64)
        for b in range(self.total_bits):
            mask[self.words - 1 - b // 64] |= np.uint64(1) << np.uint64(b % 64)
        return mask

    def fields(self) -> tuple[np.ndarray, np.ndarray]:
        """(word index, shift) of every cell's lowest bit, cell by cell."""
        return self._field(np.arange(self.ncells))

    def encode(self, cells: np.ndarray) -> np.ndarray:
        """(S, N) colours -> (S, W) uint64 keys."""
        cells = np.atleast_2d(np.asarray(cells, dtype=np.uint64))
        keys = np.zeros((cells.shape[0], self.words), dtype=np.uint64)
        word, shift = self.fields()
        for i in range(self.ncells):
            keys[:, word[i]] |= cells[:, i] << np.uint64(shift[i])
        return keys

    def decode(self, keys: np.ndarray) -> np.ndarray:
        """(S, W) keys -> (S, N) uint8 colours."""
        keys = np.atleast_2d(np.asarray(keys, dtype=np.uint64))
        word, shift = self.fields()
        fmask = np.uint64((1 << self.bits) - 1)
        out = np.empty((keys.shape[0], self.ncells), dtype=np.uint8)
        for i in range(self.ncells):
            out[:, i] = (keys[:, word[i]] >> np.uint64(shift[i])) & fmask
        return out

    def tables(self, perms: np.ndarray) -> np.ndarray:
        """Byte tables (P, chunks, 256, W) that apply each permutation to a key."""
        perms = np.atleast_2d(perms)
        out = np.zeros((perms.shape[0], self.chunks, 256, self.words), dtype=np.uint64)
        byte = np.arange(256, dtype=np.uint64)
        for pi, p in enumerate(perms):
            dest = np.empty_like(p)
            dest[p] = np.arange(p.size)  # old cell s lands on dest[s]
            for g in range(self.total_bits):  # global bit, from the least significant
                cell = self.ncells - 1 - g // self.bits
                dpos = self.bits * (self.ncells - 1 - dest[cell]) + g % self.bits
                out[pi, g // 8, :, self.words - 1 - dpos // 64] |= (
                    (byte >> np.uint64(g % 8)) & np.uint64(1)
                ) << np.uint64(dpos % 64)
        return out

    # ---- conversions at the edges: Python ints and SQLite values ----------

    def to_int(self, key: np.ndarray) -> int:
        """One (W,) key as a Python int."""
        return self.to_ints(key)[0]

    def to_ints(self, keys: np.ndarray) -> list[int]:
        """(S, W) keys as Python ints."""
        keys = np.asarray(keys, dtype=np.uint64).reshape(-1, self.words)
        if self.words == 1:
            return keys[:, 0].tolist()
        out = [0] * len(keys)
        for w in keys.T.tolist():
            out = [(v << 64) | x for v, x in zip(out, w)]
        return out

    def from_int(self, value: int) -> np.ndarray:
        """A Python int as a (W,) key."""
        return self.from_ints([value])[0]

    def from_ints(self, values) -> np.ndarray:
        """Python ints as (S, W) keys."""
        mask = (1 << 64) - 1
        return np.array(
            [[(v >> (64 * (self.words - 1 - w))) & mask for w in range(self.words)] for v in values], dtype=np.uint64
        ).reshape(-1, self.words)

    def to_sql(self, keys: np.ndarray) -> list:
        """(S, W) keys -> SQLite values (int, or big-endian bytes for wide keys)."""
        return self.to_sql_array(keys).tolist()

    def to_sql_array(self, keys: np.ndarray) -> np.ndarray:
        """(S, W) keys -> a 1-D array of SQLite values: int64, or an object
        array of big-endian bytes for wide keys."""
        keys = np.atleast_2d(np.asarray(keys, dtype=np.uint64))
        if self.sql_integer:
            return keys[:, 0].astype(np.int64)
        width = -(-self.total_bits // 8)
        raw = keys.astype(">u8").tobytes()
        step = 8 * self.words
        out = np.empty(keys.shape[0], dtype=object)
        out[:] = [raw[i * step + step - width : (i + 1) * step] for i in range(keys.shape[0])]
        return out

    def from_sql(self, values) -> np.ndarray:
        """Database values -> (S, W) keys: ints, or big-endian bytes for
        wide keys (SQLite); PostgreSQL gives ints of any width."""
        if self.sql_integer:
            return np.asarray(list(values), dtype=np.int64).astype(np.uint64).reshape(-1, 1)
        values = list(values)
        if values and isinstance(values[0], int):
            return self.from_ints(values)
        pad = 8 * self.words
        buf = b"".join(bytes(v).rjust(pad, b"\0") for v in values)
        return np.frombuffer(buf, dtype=">u8").astype(np.uint64).reshape(-1, self.words)


def sortable(keys: np.ndarray) -> np.ndarray:
    """A 1-D view of (S, W) keys whose numpy ordering is the numeric one, for
    np.unique / np.searchsorted. Plain uint64 when W = 1."""
    keys = np.ascontiguousarray(keys, dtype=np.uint64)
    if keys.shape[1] == 1:
        return keys[:, 0]
    dt = np.dtype([(f"w{i}", "<u8") for i in range(keys.shape[1])])
    return keys.view(dt).ravel()


def unsortable(view: np.ndarray, words: int) -> np.ndarray:
    """Inverse of :func:`sortable`."""
    return np.ascontiguousarray(view).view(np.uint64).reshape(-1, words)


def distinct(view: np.ndarray) -> np.ndarray:
    """Sorted distinct values of a sortable view (sort and mask: faster than
    np.unique for tens of millions of keys)."""
    out = np.sort(view)
    if out.size:
        keep = np.ones(out.size, dtype=bool)
        keep[1:] = out[1:] != out[:-1]  # the operator, not np.not_equal: it also compares structured keys
        out = out[keep]
    return out


def member(sorted_keys: np.ndarray, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For sortable views: (found mask, index into sorted_keys) of each query key."""
    if sorted_keys.size == 0:
        return np.zeros(query.size, dtype=bool), np.zeros(query.size, dtype=np.int64)
    idx = np.searchsorted(sorted_keys, query)
    idx_c = np.minimum(idx, sorted_keys.size - 1)
    return sorted_keys[idx_c] == query, idx_c
