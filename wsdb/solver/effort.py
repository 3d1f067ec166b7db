"""Effort: a solve's budget counted in work done, not in seconds.

A search that stops on the wall clock answers differently when the
machine is busy: any other process takes a share of its seconds. So every
search here counts its work in *nodes* and stops when the state's budget
is spent: the same state and settings then give the same moves on any
machine, at any load, on any number of threads. A node is one state
generated and scored by the beam; heavier work counts as several
(:data:`~.settings.NODE_COSTS`, measured by ``scripts/calibrate_effort.py``).

The meter of the state being solved is the context's (:func:`metered`):
searches ask it how much is spent (:func:`spent`), whether a point of
the budget is passed (:func:`past`) and how much is left before one
(:func:`left`); the places that do the work charge it (:func:`charge`).
Points of the budget (the searches' "deadlines") are numbers of nodes.

An optional wall-clock cap (``--time-limit``) can still end a search
early; then the meter says so (:attr:`Meter.capped`) and the answer is
marked, since another run may go further.
"""

from __future__ import annotations

import math
import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from .settings import NARROW_KEY_SHARE, NODE_COSTS


class Meter:
    """Nodes spent on one state, and the wall-clock cap if there is one."""

    def __init__(self, cap_seconds: float | None = None):
        self.spent = 0.0
        self.stop_at = None if cap_seconds is None else time.perf_counter() + cap_seconds
        self.capped = False
        self.counts: dict[str, int] = {}  # units per kind of work (an answer's ``work``)

    def charge(self, kind: str, count: int, share: float = 1.0) -> None:
        self.spent += count * NODE_COSTS[kind] * share
        self.counts[kind] = self.counts.get(kind, 0) + int(count)

    def tally(self) -> dict:
        """What an answer reports of its work: ``effort`` (millions of
        nodes), ``capped`` and ``work`` (:class:`~.results.Solution`)."""
        return {"effort": round(self.spent / 1e6, 3), "capped": self.capped, "work": dict(self.counts)}

    def stopped(self) -> bool:
        """Whether the wall-clock cap has ended the solve."""
        if not self.capped and self.stop_at is not None and time.perf_counter() > self.stop_at:
            self.capped = True
        return self.capped


#: outside any solve (tables derived ahead, tests of one search): a meter without a cap
_unmetered = Meter()
_current: ContextVar[Meter] = ContextVar("wsdb_effort_meter", default=_unmetered)


@contextmanager
def metered(cap_seconds: float | None = None) -> Iterator[Meter]:
    """A fresh meter for the work inside the block (one state's solve)."""
    meter = Meter(cap_seconds)
    token = _current.set(meter)
    try:
        yield meter
    finally:
        _current.reset(token)


def charge(kind: str, count: int, share: float = 1.0) -> None:
    """Count ``count`` units of work of ``kind`` (a key of NODE_COSTS), each
    ``share`` of its cost (:func:`key_share`)."""
    _current.get().charge(kind, count, share)


def key_share(words: int) -> float:
    """What a key's work (canonical, expand, dedup) counts on keys of
    ``words`` 64-bit words, against two: one-word keys are far cheaper."""
    return NARROW_KEY_SHARE if words == 1 else 1.0


def spent() -> float:
    """Nodes spent so far on the current state."""
    return _current.get().spent


def past(point: float) -> bool:
    """Whether the budget point ``point`` (nodes) is passed, or the cap reached."""
    m = _current.get()
    return m.spent > point or m.stopped()


def left(point: float) -> float:
    """Nodes left before ``point`` (0 once it is passed or the cap reached)."""
    m = _current.get()
    return 0.0 if m.stopped() else max(point - m.spent, 0.0)


def within(point: float, nodes: float) -> float:
    """The budget point ``nodes`` from now, or ``point`` if that comes first."""
    return min(point, _current.get().spent + nodes)


NEVER = math.inf  # a point no search reaches: work without a budget
