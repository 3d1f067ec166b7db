"""The dask engine (wsdb/db/distributed.py, wsdb/db/levels.py): builds
through a LocalCluster of two worker processes, reached by its scheduler's
address as a real cluster would be, must store exactly the levels, classes
and parents of the single-process build; lookups on the Parquet levels
must answer what lookups on SQLite answer; a worker killed mid-level, a
client killed mid-build, and damaged or unreachable parts are handled."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import wsdb
from wsdb.db.build import build_distributed
from wsdb.db.levels import LevelFolder
from wsdb.db.store import Store
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.puzzle.tree_key import TreeKey

from ..parquet_levels import same_tree as same_rows

pytestmark = pytest.mark.integration
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        with Client(lc) as client:
            yield lc.scheduler_address, client


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """The single-process builds to compare with: 4x4 two to four colours, 6x6 two."""
    path = tmp_path_factory.mktemp("local") / "local.sqlite"
    for n, c in ((4, 2), (4, 3), (4, 4)):
        wsdb.build(n, c, db=path)
    wsdb.build(6, 3, db=path, max_depth=4)  # keys of two words
    return path


@pytest.fixture(autouse=True)
def six_if_asked(request, local):
    """The 6x6 two-colour single-process build, for the slow cases only."""
    if (
        any(m.name == "slow" for m in request.node.iter_markers())
        and Store.open(local).build_row(TreeKey.wrapslide(6, 2)) is None
    ):
        wsdb.build(6, 2, db=local)


def same_tree(local, db, n, c):
    """Levels, classes and parents identical, row by row; the dask build's row names its levels."""
    ra, rb = same_rows(local, db, n, c)
    assert rb["levels"] and not ra["levels"]


SIX = pytest.param(6, 2, None, marks=pytest.mark.slow, id="6x6-c2")
FOUR = pytest.param(4, 4, 8, marks=pytest.mark.slow, id="4-4-8")  # 6 s; 4x4 four colours is killed below


@pytest.mark.parametrize("n,c,partitions", [(4, 2, None), (4, 3, 4), FOUR, (6, 3, 4), SIX])
def test_dask_build_equals_the_single_process_build(cluster, local, tmp_path, n, c, partitions):
    db = tmp_path / "d.sqlite"
    depth = 4 if (n, c) == (6, 3) else None
    tree, row = build_distributed(
        wrapslide(n, c), str(tmp_path / "levels"), db=db, scheduler=cluster[0], partitions=partitions, max_depth=depth
    )
    assert tree.complete == (depth is None) and row["levels"] == str(tmp_path / "levels")
    same_tree(local, db, n, c)
    if depth:  # a partial tree of two-word keys: verify reads and proves it too
        from wsdb.db.verify import verify

        assert verify(n, c, db=db).ok
    man = LevelFolder(str(tmp_path / "levels")).manifest()
    assert man.complete == (depth is None) and [lv.classes for lv in man.levels] == [
        r["classes"] for r in Store.open(db).level_rows(TreeKey.wrapslide(n, c))
    ]


def test_lookups_on_parquet_levels_equal_lookups_on_sqlite(cluster, local, tmp_path):
    db = tmp_path / "d.sqlite"
    build_distributed(wrapslide(4, 4), str(tmp_path / "lv"), db=db, scheduler=cluster[0])
    states = [format_state(s) for s in random_states(wrapslide(4, 4), 1000, seed=34)]
    ours, theirs = wsdb.lookup_many(states, db=db), wsdb.lookup_many(states, db=local)
    assert [a.to_dict() for a in ours] == [b.to_dict() for b in theirs]
    p = wrapslide(4, 4)
    for s, ans in zip(states, ours):  # replayed here too: every answer ends solved in its length
        cells = p.apply(
            wsdb.parse_state(s)[1] if isinstance(wsdb.parse_state(s), tuple) else wsdb.parse_state(s), ans.moves
        )
        assert p.is_solved(cells) and len(ans.moves) == ans.distance


def test_verify_and_stats_read_parquet_levels(cluster, local, tmp_path, run):
    db = tmp_path / "d.sqlite"
    build_distributed(wrapslide(4, 3), str(tmp_path / "lv"), db=db, scheduler=cluster[0])
    res = run("verify", "--n", 4, "--c", 3, "--db", db, "-q")
    assert res.exit_code == 0, res.output
    a = run("stats", "--n", 4, "--c", 3, "--db", db, "--json")
    b = run("stats", "--n", 4, "--c", 3, "--db", local, "--json")
    drop = ("built_at", "seconds", "levels")
    strip = lambda r: {k: v for k, v in json.loads(r.output).items() if k not in drop}  # noqa: E731
    assert strip(a) == strip(b)
    out_a, out_b = tmp_path / "a.csv", tmp_path / "b.csv"
    assert run("export", out_a, "--n", 4, "--c", 3, "--db", db, "-q").exit_code == 0
    assert run("export", out_b, "--n", 4, "--c", 3, "--db", local, "-q").exit_code == 0
    assert out_a.read_text() == out_b.read_text()
    # info names the levels and their size there: every file's bytes, counted here
    on_disk = sum(f.stat().st_size for f in (tmp_path / "lv").rglob("*") if f.is_file())
    (row,) = [json.loads(line) for line in run("info", "--db", db, "--json").output.splitlines()]
    assert (row["parquet_levels"], row["parquet_bytes"], row["db_bytes"]) == (str(tmp_path / "lv"), on_disk, 0)
    assert f"of Parquet levels at {tmp_path / 'lv'};" in run("info", "--db", db).output
    (tmp_path / "lv").rename(tmp_path / "gone")
    assert f"Parquet levels at {tmp_path / 'lv'} (missing or unreachable);" in run("info", "--db", db).output


#: (n, c, the depth after which to kill): the 4x4 grid's deepest levels take about a second
KILLS = [(4, 4, 7), pytest.param(6, 2, 4, marks=pytest.mark.slow, id="6x6-c2")]


@pytest.mark.slow  # 13 s: Dask's own retry of a lost task; the client killed is in the default run
@pytest.mark.parametrize("n,c,after", KILLS)
def test_a_worker_killed_mid_level_is_retried_by_dask(cluster, local, tmp_path, n, c, after):
    address, client = cluster
    levels = tmp_path / "lv"
    killed = []

    def kill_one_worker():
        # once depth `after` is recorded the build is in its biggest levels: kill a worker then
        while not killed:
            man = LevelFolder(str(levels)).manifest() if (levels / "_manifest.json").exists() else None
            if man is not None and man.height >= after:
                pid = next(iter(client.run(os.getpid).values()))
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            time.sleep(0.05)

    t = threading.Thread(target=kill_one_worker, daemon=True)
    t.start()
    db = tmp_path / "d.sqlite"
    build_distributed(wrapslide(n, c), str(levels), db=db, scheduler=address, partitions=8)
    t.join(5)
    assert killed
    same_tree(local, db, n, c)
    client.wait_for_workers(2, timeout=60)  # the nanny brings it back for the next test


@pytest.mark.parametrize("n,c,after", KILLS)
def test_a_killed_client_resumes_from_its_last_level(cluster, local, tmp_path, n, c, after):
    db, levels = tmp_path / "d.sqlite", tmp_path / "lv"
    cmd = [
        sys.executable,
        "-m",
        "wsdb",
        "build",
        "--n",
        str(n),
        "--c",
        str(c),
        "--engine",
        "dask",
        "--scheduler",
        cluster[0],
        "--levels",
        str(levels),
        "--db",
        str(db),
        "--partitions",
        "8",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline:
        if (levels / "_manifest.json").exists() and LevelFolder(str(levels)).manifest().height >= after:
            break
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    recorded = LevelFolder(str(levels)).manifest().height
    assert not LevelFolder(str(levels)).manifest().complete  # killed before the end
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    same_tree(local, db, n, c)
    # the rerun grew only the levels after the last recorded one
    grown = [line for line in res.stderr.splitlines() if line.startswith("wsdb: depth ")]
    assert all(int(line.split()[2].rstrip(":")) > recorded for line in grown)


def test_bad_parts_are_one_line_and_lose_nothing(cluster, tmp_path, run):
    db = tmp_path / "d.sqlite"
    levels = tmp_path / "lv"
    build_distributed(wrapslide(4, 3), str(levels), db=db, scheduler=cluster[0], partitions=4)
    before = db.read_bytes()
    # an unreachable scheduler
    res = run(
        "build",
        "--n",
        4,
        "--c",
        2,
        "--engine",
        "dask",
        "--scheduler",
        "tcp://127.0.0.1:9",
        "--db",
        db,
        "--levels",
        tmp_path / "x",
    )
    assert res.exit_code == 2 and res.stderr.strip().startswith("wsdb: cannot reach the Dask scheduler")
    assert "connection refused" in res.stderr  # said at once: nothing listens at port 9
    assert len(res.stderr.strip().splitlines()) == 1
    # a levels URL that cannot be written
    (tmp_path / "afile").write_text("x")
    res = run(
        "build",
        "--n",
        4,
        "--c",
        2,
        "--engine",
        "dask",
        "--scheduler",
        cluster[0],
        "--db",
        db,
        "--levels",
        tmp_path / "afile" / "sub",
    )
    assert res.exit_code == 2 and "is not writable" in res.stderr and "Traceback" not in res.stderr
    assert db.read_bytes() == before
    state = "1212/2121/1313/3131"
    good = run("lookup", state, "--db", db)
    assert good.exit_code == 0
    # a manifest that disagrees with its files
    man_path = levels / "_manifest.json"
    text = man_path.read_text()
    man = json.loads(text)
    for lv in man["levels"]:  # every file one row short of what the manifest says
        lv["rows"] = [r + 1 for r in lv["rows"]]
        lv["classes"] += lv["partitions"]
    man_path.write_text(json.dumps(man))
    for args in (("lookup", state), ("verify", "--n", 4, "--c", 3, "-q")):
        res = run(*args, "--db", db)
        said = (res.stderr + res.stdout).strip().splitlines()  # verify names the fault on stdout
        assert res.exit_code == 1 and len(said) == 1 and "manifest says" in said[0], res.output
    man_path.write_text(text)
    assert run("lookup", state, "--db", db).output == good.output
    # a missing partition file
    part = levels / "depth_03" / "part-00001.parquet"
    part.rename(tmp_path / "kept.parquet")
    for args in (
        ("lookup", state),
        ("verify", "--n", 4, "--c", 3, "-q"),
        ("export", tmp_path / "o.csv", "--n", 4, "--c", 3),
    ):
        res = run(*args, "--db", db)
        assert res.exit_code == 1 and "part-00001.parquet is missing" in res.stderr + res.stdout, res.output
    assert not (tmp_path / "o.csv").exists()
    (tmp_path / "kept.parquet").rename(part)
    assert run("lookup", state, "--db", db).output == good.output
    assert db.read_bytes() == before


@pytest.mark.parametrize(
    "host,client_cache,expected",
    [
        ("here", None, None),  # numba's own cache beside the code, as the client's
        ("here", "/client/cache", "/client/cache"),
        ("elsewhere", None, "per host"),  # another machine: never a cache file shared with it
        ("elsewhere", "/client/cache", "per host"),
        ("here", "rel/cache", "absolute"),  # named from the client's folder, found from the worker's
    ],
)
def test_workers_share_the_clients_kernels_on_its_machine_only(monkeypatch, host, client_cache, expected):
    from wsdb.db import distributed as d

    monkeypatch.setattr(d.socket, "gethostname", lambda: "here")
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")  # recorded, so that the setup's own setting is undone
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("NUMBA_NUM_THREADS", "2")
    d.NumbaSettings(host=host, cache=client_cache).setup()
    got = os.environ.get("NUMBA_CACHE_DIR")
    if expected == "absolute":
        expected = os.path.join(os.getcwd(), client_cache)
    assert got == (d.numba_cache_dir() if expected == "per host" else expected)
    assert os.environ["NUMBA_NUM_THREADS"] == "1"
    if expected == "per host":
        assert got.endswith(f"numba-here-{os.getuid()}")


# ---- faults: a lost partition file, a full levels folder, a scheduler restarted ----------


def _manifest(levels):
    return (levels / "_manifest.json").read_text()


def test_a_partition_file_lost_mid_build_is_one_line_then_grown_again(cluster, local, tmp_path, run, monkeypatch):
    from wsdb.db import distributed as engine

    db, levels = tmp_path / "d.sqlite", tmp_path / "lv"
    address = cluster[0]
    build_distributed(wrapslide(4, 3), str(levels), db=db, scheduler=address, max_depth=5, partitions=4)
    lost = sorted((levels / "depth_05").glob("*.parquet"))[1]
    lost.unlink()  # gone while the next run grows depth 6 from it: the check before it is skipped
    monkeypatch.setattr(engine, "_whole_levels", lambda folder, man: man)
    before = _manifest(levels)
    res = run("build", "--n", 4, "--c", 3, "--engine", "dask", "--scheduler", address, "--levels", levels, "--db", db)
    assert res.exit_code == 1 and "Traceback" not in res.stderr  # damage, found by a worker
    line = res.stderr.strip().splitlines()[-1]
    assert line.startswith("wsdb: ") and f"depth_05/{lost.name} is missing" in line, res.stderr
    assert _manifest(levels) == before  # nothing recorded of the failed level
    monkeypatch.undo()
    res = run("build", "--n", 4, "--c", 3, "--engine", "dask", "--scheduler", address, "--levels", levels, "--db", db)
    assert res.exit_code == 0, res.stderr
    assert f"{lost.name} is missing" in res.stderr and "growing again from depth 5" in res.stderr
    stored = [int(s.split()[1]) for s in res.stderr.splitlines() if s.startswith("depth ")]
    assert stored and min(stored) == 6  # depth 5 grown again as it was, the levels before it kept
    same_tree(local, db, 4, 3)


def test_a_full_levels_folder_is_one_line_and_the_rerun_completes(cluster, local, tmp_path, run):
    from ..test_hostile import remount, tmpfs

    db = tmp_path / "d.sqlite"
    with tmpfs(tmp_path, "256k") as where:
        levels = where / "lv"
        args = ["build", "--n", 4, "--c", 4, "--engine", "dask", "--scheduler", cluster[0], "--levels", levels]
        res = run(*args, "--db", db, "--partitions", 4)
        assert res.exit_code == 2 and "Traceback" not in res.stderr
        last = res.stderr.strip().splitlines()[-1]
        assert last.startswith("wsdb: ") and "No space left on device" in last, res.stderr
        recorded = LevelFolder(str(levels)).manifest()
        assert not recorded.complete and recorded.height >= 1
        LevelFolder(str(levels)).check_rows(recorded)  # what it records is whole
        remount(where, "size=64m")
        res = run(*args, "--db", db, "--partitions", 4)
        assert res.exit_code == 0, res.stderr
        same_tree(local, db, 4, 4)


@pytest.mark.slow  # a real scheduler and workers started twice: 30 s
def test_a_scheduler_restarted_mid_build_is_one_line_and_the_rerun_resumes(local, tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    bin_dir = os.path.dirname(sys.executable)

    def start():
        sched = subprocess.Popen(
            [f"{bin_dir}/dask", "scheduler", "--port", str(port), "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        workers = subprocess.Popen(
            [f"{bin_dir}/dask", "worker", address, "--nthreads", "1", "--nworkers", "2", "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        from distributed import Client

        deadline = time.time() + 60
        while True:
            try:
                with Client(address, timeout="2s") as c:
                    c.wait_for_workers(2, timeout=30)
                return sched, workers
            except (OSError, TimeoutError):
                if time.time() > deadline:
                    raise
                time.sleep(0.5)

    db, levels = tmp_path / "d.sqlite", tmp_path / "lv"
    cmd = [sys.executable, "-m", "wsdb", "build", "--n", "6", "--c", "2", "--engine", "dask"]
    cmd += ["--scheduler", address, "--levels", str(levels), "--db", str(db), "--partitions", "4"]
    sched, workers = start()
    try:
        build = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 120
        while time.time() < deadline:
            if (levels / "_manifest.json").exists() and LevelFolder(str(levels)).manifest().height >= 4:
                break
            time.sleep(0.05)
        sched.kill()  # the scheduler goes; its workers follow it
        sched.wait()
        err = build.communicate(timeout=120)[1]
        assert build.returncode == 2 and "Traceback" not in err, err
        assert err.strip().splitlines()[-1].startswith("wsdb: lost the connection to the Dask scheduler at depth ")
        recorded = LevelFolder(str(levels)).manifest().height
        workers.kill()
        workers.wait()
        sched, workers = start()  # restarted on the same address
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        stored = [int(s.split()[1]) for s in res.stderr.splitlines() if s.startswith("depth ")]
        assert stored and min(stored) == recorded + 1  # from the last finished level
        same_tree(local, db, 6, 2)
    finally:
        for p in (workers, sched):
            p.kill()
            p.wait()
