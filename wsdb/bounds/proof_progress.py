"""How far each kept proof got (`wsdb bounds proofs`): the shares a `wsdb
bounds prove --at-least K` keeps as they finish (:mod:`wsdb.bounds.shares`),
read back as bounds searched whole, the bound under way and the work so far.

A proof searches bounds in order, each whole before the next, so its kept
bounds are a run from its first (at most the state's distance, as the
search's own lower bound says): a bound whose shares are all kept without
an answer proves the state more than that far, as far as the next bound
its shares reached; a bound with an answer in a kept share is the state's
distance.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from itertools import groupby

from ..db.store import Store
from ..notices import left_at_pace


@dataclass
class KeptProof:
    """One state's kept shares under one scheme: ``at_least`` moves proven
    (every bound below searched whole), ``distance`` where a kept share holds
    an answer, the bound under way as ``bound``, ``done`` of ``shares`` kept
    (None where no bound is part-way), and the seconds and nodes kept."""

    n: int
    c: int
    state: str
    scheme: str
    at_least: int
    distance: int | None
    bound: int | None
    done: int
    shares: int
    seconds: float
    nodes: float
    last: str
    bound_seconds: float = 0.0  # the seconds of the bound under way's kept shares

    def row(self) -> dict:
        return asdict(self)

    def text(self) -> str:
        head = f"{self.n}x{self.n} {self.c} colours  {self.state}  "
        if self.distance is not None:
            where = f"distance {self.distance} (an answer kept)"
        else:
            where = f"no answer under {self.at_least} moves"
            if self.bound is not None:
                where += f"; bound {self.bound}: {self.done} of {self.shares} shares kept"
                left = left_at_pace(self.bound_seconds, self.done, self.shares)
                if left:
                    where += f", {left} left at their pace"
        return f"{head}{where}; {self.seconds:,.0f} s kept, last {self.last[:16]}"


def kept_proofs(store: Store, n: int | None = None, c: int | None = None) -> list[KeptProof]:
    """Every kept proof of the (n, c) grids, by grid and state."""
    out = []
    key = lambda r: (r["n"], r["c"], r["state"], r["scheme"])  # noqa: E731
    for (pn, pc, state, scheme), cuts in groupby(store.proof_progress(n, c), key=key):
        by_bound: dict[int, dict] = {}
        for r in cuts:  # of several cuts of one bound, the one most searched (as the proof reads them)
            if r["done"] > by_bound.get(r["bound"], {"done": -1})["done"]:
                by_bound[r["bound"]] = r
        rows = [by_bound[b] for b in sorted(by_bound)]
        at_least, distance, part = rows[0]["bound"], None, None
        for r in rows:
            if r["bound"] != at_least:  # not the bound that follows those searched whole
                break
            if r["answered"]:
                distance = r["bound"]
                break
            if r["done"] < r["shares"]:
                part = r
                break
            at_least = r["next_bound"]
        out.append(
            KeptProof(
                pn,
                pc,
                state,
                scheme,
                at_least,
                distance,
                None if part is None else part["bound"],
                0 if part is None else part["done"],
                0 if part is None else part["shares"],
                sum(r["seconds"] for r in rows),
                sum(r["nodes"] for r in rows),
                max(r["last"] for r in rows),
                0.0 if part is None else part["seconds"],
            )
        )
    return out
