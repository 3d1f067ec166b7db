"""What wsdb says while it works (wsdb/notices.py): nothing for short
steps, what and how far for long ones, compiles announced, and --quiet."""

import time

import numpy as np
import pytest

from wsdb import notices
from wsdb.engine import bfs, get_engine
from wsdb.notices import listening, say, step

from .parquet_levels import write_levels


@pytest.fixture
def heard(monkeypatch):
    monkeypatch.setattr(notices, "QUIET_FOR", 0.05)
    monkeypatch.setattr(notices, "EVERY", 0.05)
    lines = []
    with listening(lines.append):
        yield lines


def test_nobody_listening_means_no_timer_and_nothing_said(monkeypatch):
    import threading

    monkeypatch.setattr(notices, "QUIET_FOR", 0.0)
    before = threading.active_count()
    with step("quiet work") as st:
        assert threading.active_count() == before  # no timer thread when nobody listens
        time.sleep(0.05)
    say("to nobody")
    assert not st.announced


def test_a_short_step_says_nothing(heard, monkeypatch):
    monkeypatch.setattr(notices, "QUIET_FOR", 5.0)
    with step("quick"):
        pass
    assert heard == []


def test_a_long_step_says_what_how_far_and_how_long(heard):
    with step("counting", "about a second") as st:
        for i in range(1, 6):
            st.count(i, 5, "things")
            time.sleep(0.04)
    assert heard[0].startswith("counting (about a second)")
    assert any("of 5 things" in line and "a second" in line for line in heard)
    assert heard[-1].startswith("counting: done in")


def test_a_long_level_reports_classes_expanded_inside_it(heard, monkeypatch, thesis):
    # chunks of 64 classes: the level's progress comes from inside it
    monkeypatch.setattr(bfs, "EXPAND_CHUNK", 64)
    eng = get_engine(6, 2)
    tree = bfs.grow(eng, max_depth=5)
    slow = eng.expand
    monkeypatch.setattr(eng, "expand", lambda reps: (time.sleep(0.01), slow(reps))[1])
    level = bfs.next_level(eng, tree.levels[-1], bfs.sortable(tree.levels[-2].reps))
    assert level.classes == thesis["classes_per_level"]["6x6_c2_levels_0_to_8_incomplete"][6]
    assert any(line.startswith("depth 6") and "classes expanded" in line for line in heard)


def test_chunked_expansion_is_the_same_as_one_call(monkeypatch):
    eng = get_engine(4, 4)
    reps = bfs.grow(eng, max_depth=4).levels[-1].reps
    whole = eng.expand(reps)
    monkeypatch.setattr(bfs, "EXPAND_CHUNK", 7)
    assert np.array_equal(bfs.expand(eng, reps), whole)


def test_a_compile_announces_itself(heard, monkeypatch):
    from numba import njit

    import wsdb.engine.kernels  # noqa: F401  (registers the announcement)

    monkeypatch.setattr(notices, "QUIET_FOR", 0.0)

    @njit
    def freshly_compiled_kernel(x):
        return x + 1

    assert freshly_compiled_kernel(1) == 2
    assert any("compiling kernel freshly_compiled_kernel" in line for line in heard)


def test_quiet_silences_and_loud_speaks(run, tmp_path, monkeypatch):
    monkeypatch.setattr(notices, "QUIET_FOR", 0.0)
    monkeypatch.setattr(notices, "EVERY", 0.01)
    db = tmp_path / "q.sqlite"
    quiet = run("build", "--n", 4, "--c", 3, "--db", db, "-q")
    assert quiet.exit_code == 0 and quiet.stderr == ""
    loud = run("verify", "--n", 4, "--c", 3, "--db", db)
    assert loud.exit_code == 0 and "wsdb: checking: parents stored one level up" in loud.stderr
    silent = run("verify", "--n", 4, "--c", 3, "--db", db, "--quiet")
    assert silent.exit_code == 0 and silent.stderr == ""


#: a call of every command that takes --quiet, each with work to report
QUIET_CALLS = {
    "build": ["build", "--n", 4, "--c", 2],
    "eval": ["eval", "--n", 4, "--c", 3, "--count", 3, "--seed", 1],
    "solve": ["solve", "1212/3434/1243/3421"],
    "verify": ["verify", "--n", 4, "--c", 3],
    "stats": ["stats", "--n", 4, "--c", 3],
    "random": ["random", "--n", 4, "--c", 3, "--depth", 5, "--seed", 1],
    "export": ["export", "{out}", "--n", 4, "--c", 3],
    "import": ["import", "{levels}", "--force"],
    "bounds compute": ["bounds", "compute", "--n", 4, "--c", 3],
    "bounds prove": ["bounds", "prove", "1212/3434/1243/3421"],
    "census": ["census", "--puzzle", "sliding", "--n", 2, "--m", 3],
    "learn": ["learn", "--n", 4, "--c", 2, "--rounds", 2, "--hidden", "8,4"],
}


def test_the_quiet_calls_name_every_command_that_takes_quiet():
    from wsdb.cli import main

    def quiet_commands(group, prefix=""):
        for name, command in group.commands.items():
            if hasattr(command, "commands"):
                yield from quiet_commands(command, f"{prefix}{name} ")
            elif any(param.name == "quiet" for param in command.params):
                yield prefix + name

    assert set(quiet_commands(main)) == set(QUIET_CALLS)


@pytest.mark.parametrize("command", sorted(QUIET_CALLS))
def test_quiet_is_silence_on_every_command(run, db4, tmp_path, monkeypatch, command):
    # every notice would be said at once; with --quiet none is, nor any progress bar
    monkeypatch.setattr(notices, "QUIET_FOR", 0.0)
    monkeypatch.setattr(notices, "EVERY", 0.0)
    db = tmp_path / "q.sqlite"
    db.write_bytes(db4.read_bytes())
    levels = tmp_path / "levels"
    if command == "import":
        write_levels(db4, 4, 2, str(levels))
    args = [
        str(a).replace("{out}", str(tmp_path / "out.csv")).replace("{levels}", str(levels))
        for a in QUIET_CALLS[command]
    ]
    res = run(*args, *(["--db", db] if command != "census" else []), "-q")
    assert res.exit_code == 0, res.stderr[-500:]
    assert res.stderr == ""


def test_a_count_states_its_pace_both_ways(monkeypatch):
    """Many items a second read as a rate, slow ones as seconds each, and
    none yet as no pace at all (never "0 a second")."""
    from wsdb import notices

    st = notices.Step("merging", None)
    clock = iter([st.started + 10.0] * 3)
    monkeypatch.setattr(notices.time, "perf_counter", lambda: next(clock))
    st.count(0, 8, "partitions")
    assert st.status == "0 of 8 partitions"
    st.count(2, 8, "partitions")
    assert st.status == "2 of 8 partitions (5 s each)"
    st.count(5_000, 9_000, "classes")
    assert st.status == "5,000 of 9,000 classes (500 a second)"


@pytest.mark.parametrize(
    "seconds,text",
    [
        (0, "0 s"),
        (89, "89 s"),
        (90, "2 min"),
        (3000, "50 min"),
        (5400, "1.5 h"),
        (47 * 3600, "47.0 h"),
        (3 * 86400, "3.0 days"),
    ],
)
def test_a_duration_reads_in_the_unit_a_person_would_use(seconds, text):
    assert notices.duration(seconds) == text


def test_a_script_hears_the_wsdb_logger(caplog, monkeypatch):
    """Without the CLI, what wsdb says is a record of the `wsdb` logger:
    silent by default, heard once logging is configured."""
    import logging

    monkeypatch.setattr(notices, "QUIET_FOR", 0.0)
    monkeypatch.setattr(notices, "EVERY", 0.02)
    assert not notices.listened()
    caplog.set_level(logging.INFO, logger="wsdb")
    assert notices.listened()
    with step("counting") as st:
        st.count(3, 5, "things")
        time.sleep(0.05)
    said = [r.getMessage() for r in caplog.records if r.name == "wsdb"]
    assert said[0].startswith("counting") and said[-1].startswith("counting: done in")


def test_a_watched_step_is_a_tqdm_bar_and_a_short_one_leaves_nothing(monkeypatch):
    import io

    out = io.StringIO()
    monkeypatch.setattr(notices.sys, "stderr", out)
    monkeypatch.setattr(notices, "QUIET_FOR", 0.05)
    with notices.bars(True):
        with step("quick"):
            pass
        assert out.getvalue() == ""
        with step("counting", "a moment") as st:
            for i in range(1, 6):
                st.count(i, 5, "things")
                time.sleep(0.03)
        with notices.silence(), step("hushed") as hushed:
            time.sleep(0.1)
    drawn = out.getvalue()
    assert "counting (a moment)" in drawn and "5/5" in drawn and "things/s" in drawn  # tqdm's count and rate
    assert "hushed" not in drawn and hushed.bar is None


def test_a_library_build_is_one_announced_step(caplog, monkeypatch, tmp_path):
    """wsdb.build() from Python says itself as one step with the depth it has
    reached (a build of many short levels, none of them long, is announced
    too); the CLI, which says each level, is not wrapped."""
    import logging

    import wsdb

    monkeypatch.setattr(notices, "QUIET_FOR", 0.0)
    monkeypatch.setattr(notices, "EVERY", 0.01)
    caplog.set_level(logging.INFO, logger="wsdb")
    tree, row = wsdb.build(4, 3, db=tmp_path / "lib.sqlite")
    said = [r.getMessage() for r in caplog.records if r.name == "wsdb"]
    assert said[0].startswith("building 4x4 3-colour") and said[-1].startswith("building 4x4 3-colour: done in")
    assert any(f"depth {d}:" in line for line in said for d in range(1, row["height"] + 1))
