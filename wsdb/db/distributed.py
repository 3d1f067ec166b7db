"""The breadth-first search on Dask distributed, levels as Parquet
(thesis §3.3, past one machine): the partitioned steps of
:mod:`wsdb.engine.partition` as Dask tasks, a level at a time.

For level d+1, one task per partition of level d reads its Parquet file,
expands it with the numba kernels and cuts the children into the next
level's P pieces; Dask moves piece j of every task to the task that merges
partition j (the shuffle), which keeps the children found in neither of its
shares of levels d and d-1 and writes partition j of depth d+1. Only once
every partition is written does the manifest (:mod:`.levels`) record the
level, so a killed client resumes from the last finished level, and a lost
worker's tasks are run again by Dask from their inputs (every task reads
files and returns arrays; a merge writes the same file again).

P, a power of two, is chosen per level from the classes expected and the
workers' memory (:func:`partitions_for`): a task holds about
``BYTES_PER_CHILD`` bytes per child it expands or merges, and that is kept
under a quarter of the smallest worker's memory limit; Dask spills the
pieces waiting for their merge to disk beyond that.
"""

from __future__ import annotations

import logging
import math
import operator
import os
import socket
import time
from contextlib import contextmanager
from functools import lru_cache
from typing import Callable

import numpy as np
from distributed import WorkerPlugin

from ..errors import WsdbError, InputError, ClusterError, DamagedError
from ..notices import say, step
from ..puzzle.tree_key import TreeKey
from .levels import LevelEntry, LevelFolder, Manifest

#: bytes a task holds per child and key word, estimated from the arrays it
#: makes: the children (8 bytes a word), the sort's copy, their parents and
#: the pieces, about four copies (an estimate, not a measurement: Dask's
#: spilling is the safety net)
BYTES_PER_CHILD = 32
#: a task's share of its worker's memory limit
TASK_SHARE = 4
#: the most partitions a level is split into (P^2 shuffle pieces are tasks)
MAX_PARTITIONS = 1024
#: the growth assumed for the first levels, before two are known (Wrapslide
#: levels grow 5-25 times a level: docs/results.md)
FIRST_GROWTH = 25


@lru_cache(maxsize=8)
def worker_engine(tree: TreeKey):
    """The tree's puzzle's numba engine, made once per worker process (a
    task's arguments name the tree, not arrays, so they stay small); its
    kernels load from numba's cache (compiled once per machine and user)."""
    from ..engine import puzzle_engine
    from ..puzzle.catalog import stored_puzzle

    return puzzle_engine(stored_puzzle(tree))


def numba_cache_dir() -> str:
    """A numba cache folder per user and host: a shared home would otherwise
    let two machines write one cache file at once (numba #10128)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "wsdb", f"numba-{socket.gethostname()}-{os.getuid()}")


class NumbaSettings(WorkerPlugin):
    """A worker plugin that sets numba up before any kernel is imported on
    the worker: its cache, and one thread, since a task is one core's work
    and Dask runs one task per worker thread. A worker on the client's own
    machine keeps the client's cache (the folder it names, or numba's own
    beside the code), so it loads the kernels the client compiled instead of
    compiling them again; a worker on another machine caches in
    :func:`numba_cache_dir`, its own per host."""

    name = "wsdb-numba"

    def __init__(self, host: str | None = None, cache: str | None = None):
        self.host = socket.gethostname() if host is None else host
        cache = os.environ.get("NUMBA_CACHE_DIR") if cache is None else cache
        self.cache = os.path.abspath(cache) if cache else None  # a worker's folder is not the client's

    def setup(self, worker=None):
        if socket.gethostname() != self.host:
            os.environ.setdefault("NUMBA_CACHE_DIR", numba_cache_dir())
        elif self.cache:
            os.environ.setdefault("NUMBA_CACHE_DIR", self.cache)
        os.environ["NUMBA_NUM_THREADS"] = "1"


# ---- the tasks (top-level functions: Dask sends them by reference) -----------


def root_task(url: str, tree: TreeKey, partitions: int) -> list[tuple[int, int]]:
    """Write level 0 as ``partitions`` files; (rows, states) per file."""
    from ..engine.bfs import first_level
    from ..engine.partition import split

    eng = worker_engine(tree)
    level = first_level(eng, tree.root)
    folder = LevelFolder(url)
    man = Manifest(tree.puzzle, tree.n, tree.c, tree.root, level.reps.shape[1])  # a new folder: this layout
    out = []
    for j, (reps, orbits) in enumerate(split(level.reps, level.orbits.reshape(-1, 1), partitions)):
        folder.write_part(man, 0, j, reps, np.zeros_like(reps), orbits[:, 0])
        out.append((len(reps), int(orbits.sum())))
    return out


def expand_task(url: str, tree: TreeKey, man: Manifest, depth: int, i: int, partitions: int):
    """Partition i of level ``depth``, expanded and cut into ``partitions`` pieces."""
    from ..engine.partition import expand_partition

    reps, _, _ = LevelFolder(url).read_part(man, depth, i, parents=False)
    return expand_partition(worker_engine(tree), reps, partitions)


def merge_task(url: str, tree: TreeKey, man: Manifest, depth: int, j: int, partitions: int, *pieces):
    """Partition j of level ``depth`` from its pieces; writes its file and
    returns (rows, states, bytes written, bytes received)."""
    from ..engine.partition import merge_partition, sorted_share, sources

    folder = LevelFolder(url)
    eng = worker_engine(tree)
    words = man.words
    above = []
    for d in (depth - 1, depth - 2):
        if d < 0:
            above.append(sorted_share([], j, partitions))
            continue
        before = man.levels[d].partitions
        keys = [folder.read_part(man, d, i, parents=False)[0] for i in sources(j, partitions, before)]
        above.append(sorted_share(keys, j, partitions))
    received = sum(k.nbytes + p.nbytes for k, p in pieces)
    reps, parents = merge_partition(list(pieces), above[0], above[1], words)
    orbits = eng.orbit_sizes(reps) if len(reps) else np.zeros(0, np.int64)
    written = folder.write_part(man, depth, j, reps, parents, orbits)
    return len(reps), int(orbits.sum()), written, received


# ---- the driver ---------------------------------------------------------------


def partitions_for(classes: int, growth: float, nmoves: int, words: int, memory: int, workers: int) -> int:
    """P for the next level: enough that a task's children fit its share of
    a worker's memory, both when this level is expanded into it and when it
    is expanded in turn; at least twice the workers, a power of two."""
    per = max(memory // TASK_SHARE, 1 << 26) // (BYTES_PER_CHILD * words)
    need = max(2 * workers, math.ceil(classes * nmoves / per), math.ceil(classes * growth * nmoves / per))
    return min(1 << max(need - 1, 0).bit_length(), MAX_PARTITIONS)


def connect(scheduler: str | None, workers: int | None, memory: str | None):
    """A Dask client: to the scheduler at ``scheduler``, or a LocalCluster
    of ``workers`` processes (one thread each) on this machine."""
    import dask
    from dask.distributed import Client, LocalCluster

    if scheduler:
        # a scheduler lost mid-build is said in one line (grow_levels); distributed's own
        # reconnection tracebacks are not for the user
        for name in ["distributed", *logging.root.manager.loggerDict]:
            if name.startswith("distributed"):
                logging.getLogger(name).setLevel(logging.CRITICAL)
        _refused(scheduler)
        try:
            with dask.config.set({"distributed.comm.timeouts.connect": "5s"}):
                client = Client(scheduler, timeout="5s")
        except (OSError, TimeoutError, ValueError) as e:
            raise ClusterError(f"cannot reach the Dask scheduler at {scheduler!r}: {e}") from None
    else:
        cluster = LocalCluster(
            n_workers=workers or 2,
            threads_per_worker=1,
            processes=True,
            memory_limit=memory or "auto",
            dashboard_address=None,
        )
        client = Client(cluster)
    client.register_plugin(NumbaSettings())
    return client


def _refused(scheduler: str) -> None:
    """Fail at once where nothing listens at a TCP scheduler address: Dask
    would retry a refused connection until its timeout (5 s), saying only
    that it timed out. Other answers (accepted, unreachable, a name that
    does not resolve) are left to Dask's own connect."""
    import socket
    from urllib.parse import urlsplit

    address = scheduler if "://" in scheduler else f"tcp://{scheduler}"
    try:
        url = urlsplit(address)
        host, port = url.hostname, url.port
    except ValueError:
        return
    if url.scheme != "tcp" or not host or port is None:
        return
    try:
        socket.create_connection((host, port), timeout=5).close()
    except ConnectionRefusedError:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {scheduler!r}: nothing listens there "
            "(connection refused); start it first (dask scheduler) or name another"
        ) from None
    except OSError:
        return


@contextmanager
def dask_client(scheduler: str | None, workers: int | None, memory: str | None):
    """:func:`connect`, closed afterwards with the LocalCluster it started
    (a running scheduler's cluster is left running)."""
    client = connect(scheduler, workers, memory)
    try:
        yield client
    finally:
        cluster = getattr(client, "cluster", None) if scheduler is None else None
        client.close()
        if cluster is not None:
            cluster.close()


def _failed_line(depth: int, e: BaseException) -> str:
    """The one line for a level that failed on the cluster."""
    said = " ".join(str(e).split())
    if "scheduler-connection-lost" in said or "lost the connection to the scheduler" in said:
        return (
            f"lost the connection to the Dask scheduler at depth {depth}; every earlier level is kept "
            "(the manifest records them): rerun the same command once the scheduler is back to resume"
        )
    return (
        f"depth {depth} failed on the Dask cluster ({type(e).__name__}: {said[:200]}); every earlier "
        "level is kept: rerun to resume"
    )


def _whole_levels(folder: LevelFolder, man: Manifest) -> Manifest | None:
    """The manifest of a resumed run cut before its first level whose files
    are not all there whole (a partition file lost, or one cut short, since
    it was written): that level and every deeper one are grown again, said
    so; None where the root level itself is gone."""
    for k, entry in enumerate(man.levels):
        try:
            folder.check_level(man, entry)
        except DamagedError as e:
            say(f"{e}: growing again from depth {entry.depth}")
            if k == 0:
                return None
            man.levels, man.complete = man.levels[:k], False
            folder.write_manifest(man)
            return man
    return man


def grow_levels(
    client,
    url: str,
    tree: TreeKey,
    words: int,
    nmoves: int,
    max_depth: int | None,
    partitions: int | None = None,
    on_level: Callable[[LevelEntry, Manifest], None] | None = None,
) -> Manifest:
    """Grow the tree in the levels folder ``url`` through ``client``, from
    its last finished level (or from the goal), until it is complete or
    ``max_depth`` deep. ``on_level(entry, manifest)`` runs after each level
    is recorded. ``partitions`` fixes P for every level (tests)."""
    folder = LevelFolder(url)
    folder.check_writable()
    man = folder.manifest()
    if man is not None and (man.tree, man.words) != (tree, words):
        raise InputError(
            f"levels folder {url} holds the tree of {man.puzzle} {man.n}x{man.n} c={man.c} root "
            f"{man.root!r}: expected an empty folder or the same tree's"
        )
    if man is not None:
        man = _whole_levels(folder, man)
    workers = client.scheduler_info()["workers"].values()
    nworkers = max(len(workers), 1)
    memory = min((w.get("memory_limit") or 0 for w in workers), default=0) or 4 << 30
    if man is None:
        p0 = partitions or 1 << max(2 * nworkers - 1, 0).bit_length()
        t0 = time.perf_counter()
        folder.remove_depth(0)
        parts = client.submit(root_task, url, tree, p0, pure=False).result()
        man = Manifest(tree.puzzle, tree.n, tree.c, tree.root, words, max_depth=max_depth)
        man.levels.append(
            LevelEntry(
                0,
                p0,
                sum(r for r, _ in parts),
                sum(s for _, s in parts),
                [r for r, _ in parts],
                round(time.perf_counter() - t0, 3),
            )
        )
        folder.write_manifest(man)
        if on_level:
            on_level(man.levels[0], man)
    man.max_depth = max_depth
    while not man.complete and (max_depth is None or man.height < max_depth):
        here = man.levels[-1]
        growth = here.classes / man.levels[-2].classes if len(man.levels) > 1 else FIRST_GROWTH
        p = partitions or partitions_for(here.classes, growth, nmoves, words, memory, nworkers)
        depth = here.depth + 1
        t0 = time.perf_counter()
        with step(f"depth {depth}", f"from {here.classes:,} classes in {here.partitions} partitions, into {p}") as st:
            folder.remove_depth(depth)  # an unfinished level's files, from a killed run
            expanded = client.map(
                expand_task,
                [url] * here.partitions,
                [tree] * here.partitions,
                [man] * here.partitions,
                [here.depth] * here.partitions,
                range(here.partitions),
                [p] * here.partitions,
                pure=False,
            )
            pieces = [[client.submit(operator.getitem, e, j, pure=False) for e in expanded] for j in range(p)]
            merged = [client.submit(merge_task, url, tree, man, depth, j, p, *pieces[j], pure=False) for j in range(p)]
            from dask.distributed import wait

            try:
                # polled, not as_completed(..., with_results=True): that hung now and then with every
                # merge finished (distributed 2026.8); gather fetches the results once all are done
                while (done := sum(f.done() for f in merged)) < p:
                    st.count(done, p, "partitions merged")
                    try:
                        wait(merged, timeout=0.5)
                    except TimeoutError:
                        pass
                results = client.gather(merged)  # raises a task's error, if one failed
            except (WsdbError, KeyboardInterrupt):
                raise
            except Exception as e:  # KilledWorker, a lost scheduler, a task's own failure
                raise ClusterError(_failed_line(depth, e)) from None
            del expanded, pieces, merged
        classes = sum(r[0] for r in results)
        if classes == 0:
            folder.remove_depth(depth)
            man.complete = True
            folder.write_manifest(man)
            break
        entry = LevelEntry(
            depth,
            p,
            classes,
            sum(r[1] for r in results),
            [r[0] for r in results],
            round(time.perf_counter() - t0, 3),
            sum(r[3] for r in results),
        )
        man.levels.append(entry)
        folder.write_manifest(man)
        if on_level:
            on_level(entry, man)
    return man
