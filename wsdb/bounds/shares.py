"""A proof's bounds searched share by share, each share kept as it finishes
(`wsdb bounds prove --at-least K`), so that a proof of hours or days
resumes where it stopped.

A bound is cut into ``shares`` by the nodes at depth ``SPREAD_SPLIT``, as
over Dask workers (:mod:`.spread`): share i searches those numbered i
modulo ``shares``, and the shares together search the whole iteration.
A share searched in full is a fact that does not change: an answer of at
most the bound's moves, or none and the smallest bound past it. Kept in
the store (``proof_shares``) as each finishes, those facts survive a kill,
a lost client or a spent ``--effort``; the same command reads them back and
searches only the shares missing. A share counts only under the same
*scheme*: the split, the streams and the tables that prune the search
decide which nodes each share holds, so a share of another scheme (a
deeper tree built since, say) is searched again.

In one process the shares run one after another on every core, sharing
their visit tables (:mod:`.visit_kernels`): a state one share searched
below the split, with no answer, needs no search again in the next, so 64
shares cost a few per cent more than the whole iteration in one search.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable

import numpy as np

from ..db.store import Store
from ..solver import effort
from ..solver.guide import Found, Guide
from ..solver.ida import search_bound
from ..solver.settings import IDA_STREAMS, SPREAD_SPLIT, VISIT_SLOTS
from ..solver.visit_kernels import visit_tables
from ..version import current as current_version


@dataclass
class ShareResult:
    """Share ``share`` of a bound, searched in full: an answer or None, the
    next bound, and the work and seconds it took."""

    share: int
    found: Found | None
    next_bound: int
    nodes: float
    seconds: float


def scheme(guide: Guide) -> str:
    """What decides which nodes each share of a bound holds."""
    return (
        f"split {SPREAD_SPLIT}, streams {IDA_STREAMS}, tree {guide.tree.height}, "
        f"gather {'table' if guide.has_table else 'none'}, pairs {guide.tables.psides.shape[0]}"
    )


def combine(results: dict[int, ShareResult]) -> tuple[Found | None, int]:
    """A bound from all its shares: the shortest answer (of equals, the
    lowest share's, so any order of search gives the same) or None, and the
    next bound, the smallest of theirs."""
    answers = [r.found for _, r in sorted(results.items()) if r.found is not None]
    if answers:
        best = min(answers, key=lambda found: found.length)  # min keeps the first of equals
        return best, best.length
    return None, min(r.next_bound for r in results.values())


def search_here(
    guide: Guide,
    cells: np.ndarray,
    bound: int,
    deadline: float,
    shares: int,
    todo: list[int],
    done: Callable[[ShareResult], None],
) -> bool:
    """Search the shares ``todo`` of bound ``bound`` in this process, in
    order, calling ``done`` with each one searched; stop after the first
    with an answer. True if the effort ran out first (the share then cut
    is not reported)."""
    visits = visit_tables(IDA_STREAMS, VISIT_SLOTS)
    for share in todo:
        t0, before = time.perf_counter(), effort.spent()
        found, nxt, out = search_bound(guide, cells, bound, deadline, share, shares, SPREAD_SPLIT, visits)
        if out:
            return True
        done(ShareResult(share, found, nxt, effort.spent() - before, time.perf_counter() - t0))
        if found is not None:
            return False
    return False


class Ledger:
    """One state's kept shares (``proof_shares``) under the guide's scheme.
    With ``keep`` False nothing is read or written; with ``fresh`` the
    stored shares are not read, and each new one must agree with any kept."""

    def __init__(self, store: Store, n: int, c: int, state: str, guide: Guide, keep: bool, fresh: bool = False):
        self.store, self.n, self.c, self.state = store, n, c, state
        self.scheme, self.keep = scheme(guide), keep
        rows = store.share_rows(state, self.scheme) if keep and not fresh else []
        self.rows: dict[tuple[int, int], dict[int, ShareResult]] = {}
        for r in rows:
            self.rows.setdefault((r["bound"], r["shares"]), {})[r["share"]] = _result(r)

    def stored(self, bound: int) -> tuple[int | None, dict[int, ShareResult]]:
        """(how many shares bound ``bound`` was cut into, its shares kept);
        (None, {}) where none is. Of several cuts, the one most searched."""
        cuts = [(len(have), shares) for (b, shares), have in self.rows.items() if b == bound]
        if not cuts:
            return None, {}
        _, shares = max(cuts)
        return shares, dict(self.rows[bound, shares])

    def add(self, bound: int, shares: int, r: ShareResult) -> None:
        """Keep share ``r`` of bound ``bound`` cut into ``shares``, at once."""
        self.rows.setdefault((bound, shares), {})[r.share] = r
        if not self.keep:
            return
        answer = (
            None
            if r.found is None
            else json.dumps(
                dict(path=r.found.path, meet=None if r.found.meet is None else r.found.meet.tolist(), rest=r.found.rest)
            )
        )
        self.store.add_share(
            dict(
                n=self.n,
                c=self.c,
                state=self.state,
                scheme=self.scheme,
                bound=bound,
                shares=shares,
                share=r.share,
                answer=answer,
                next_bound=r.next_bound,
                nodes=r.nodes,
                seconds=r.seconds,
                version=current_version(),
                searched_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            )
        )


def _result(row: dict) -> ShareResult:
    found = None
    if row["answer"] is not None:
        a = json.loads(row["answer"])
        found = Found(a["path"], None if a["meet"] is None else np.array(a["meet"], np.uint8), a["rest"])
    return ShareResult(row["share"], found, row["next_bound"], row["nodes"], row["seconds"])
