"""The ``wsdb`` command line: parse arguments, call the library, print.

Every error the library raises as WsdbError is printed as one line on stderr
with exit status 2; nothing here talks SQL or touches kernels.
"""

from __future__ import annotations

import functools
import io
import json
import os
import sys
from collections.abc import Collection

import click

from .errors import SERVER_FAULTS, WsdbError, InputError, NotBuiltError, MissingDatabaseError
from .web import settings as web_settings

DB_HELP = (
    "The database: a file path, a sqlite:///PATH URL or a postgresql://USER@HOST/NAME URL "
    "(default: $WSDB_DB, else db/wsdb.sqlite)."
)
# the solver's methods, spelled out, not wsdb.solver.solve.METHODS: importing the solver
# here would load SQLAlchemy for every command (tests/test_cli.py checks that the two agree)
METHODS = ("auto", "beam", "thesis", "optimal", "meet", "phases", "learned")


def db_option(f):
    return click.option("--db", metavar="PATH_OR_URL", default=None, help=DB_HELP)(f)


def draw_options(count: int, most: int, count_help: str, colours: bool = True):
    """--n, --c, --count and --seed: a reproducible draw of random states
    (`random`, `eval`); --c optional unless ``colours``."""

    def wrap(f):
        f = click.option(
            "--seed",
            type=click.IntRange(0),
            default=None,
            help="Seed for a reproducible draw (default: a fresh one, printed on stderr).",
        )(f)
        f = click.option("--count", type=click.IntRange(1, most), default=count, show_default=True, help=count_help)(f)
        f = click.option(
            "--c",
            "c",
            type=int,
            required=colours,
            default=None,
            help="Number of colours, 2-4" + ("." if colours else " (Wrapslide)."),
        )(f)
        return click.option("--n", "n", type=int, required=True, help="Grid size (even).")(f)

    return wrap


def effort_options(f):
    """--effort and --time-limit (`solve`, `eval`): the budget in work, so
    that answers do not depend on the machine, and an optional cap in seconds."""
    f = click.option(
        "--time-limit",
        type=float,
        default=None,
        metavar="S",
        help="Optional cap in seconds per state. The budget is --effort; a cap that "
        "cuts a search first is said in the answer (it may then differ from run to run).",
    )(f)
    from .solver.settings import DEFAULT_EFFORT  # constants only: nothing heavy loads

    return click.option(
        "--effort",
        type=float,
        default=None,
        metavar="M",
        help=f"Work per state, in millions of nodes (default {DEFAULT_EFFORT / 1e6:g}: 8x8 three "
        "and four colours spend it all in about 6 s on an idle 2-core machine). The same "
        "state and effort give the same moves "
        "on any machine, at any load.",
    )(f)


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Print JSON (one object per line) for scripts.")(f)


def quiet_option(f):
    """--quiet, and what the library says while it works (wsdb.notices:
    deriving tables, compiling kernels, a long level) on stderr unless
    quiet, so that no wait of over 2 seconds is silent."""

    @functools.wraps(f)
    def wrapper(*args, quiet=False, **kwargs):
        from .notices import bars, listening, silence, stderr_is_terminal

        if quiet:
            with silence():
                return f(*args, quiet=quiet, **kwargs)
        # a terminal draws long steps as tqdm bars; a pipe or a log gets lines
        tty = stderr_is_terminal()

        def echo(text: str) -> None:
            if tty:  # above any bar being drawn, not through it
                from tqdm import tqdm

                tqdm.write(f"wsdb: {text}", file=sys.stderr)
            else:
                click.echo(f"wsdb: {text}", err=True)

        with listening(echo), bars(tty):
            return f(*args, quiet=quiet, **kwargs)

    return click.option(
        "--quiet", "-q", is_flag=True, help="Say nothing on stderr while working (progress, compiling, deriving)."
    )(wrapper)


def _again(drop: Collection[str] = frozenset()) -> str:
    """The command being run, as the user gave it (every option they set,
    ``--db`` and the rest, less those in ``drop``), for a hint to copy."""
    import shlex

    ctx = click.get_current_context()
    words = ctx.command_path.split()
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name)
        if param.name in drop or source not in (
            click.core.ParameterSource.COMMANDLINE,
            click.core.ParameterSource.ENVIRONMENT,
        ):
            continue
        value = ctx.params[param.name]
        if isinstance(param, click.Argument):
            words += [str(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
        elif getattr(param, "is_flag", False):
            if value:
                words.append(param.opts[0])
        else:
            for v in value if param.multiple else [value]:
                words += [param.opts[0], str(v)]
    return shlex.join(words)


def _short(message: str, most: int = 80) -> str:
    """An error message with every word longer than ``most`` characters
    cut: a 100 KB argument is not echoed back whole."""
    return " ".join(w if len(w) <= most else f"{w[: most - 3]}..." for w in str(message).split(" "))


def clean_errors(f):
    """Turn WsdbError into one line on stderr and exit status 2; a damaged
    database found while answering (DamagedError) exits 1, as `verify`
    does on damage."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except WsdbError as e:
            click.echo(f"wsdb: {_short(e)}", err=True)
            sys.exit(1 if isinstance(e, SERVER_FAULTS) else 2)

    return wrapper


class OneLineErrors(click.Group):
    """click, but a usage error (a wrong option, a value out of range) is
    one line on stderr with exit status 2, like every other bad input."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as e:
            where = f" (see `{e.ctx.command_path} --help`)" if e.ctx is not None else ""
            click.echo(f"wsdb: {_short(e.format_message())}{where}", err=True)
            sys.exit(2)
        except click.ClickException as e:
            click.echo(f"wsdb: {_short(e.format_message())}", err=True)
            sys.exit(e.exit_code)
        except (click.Abort, KeyboardInterrupt):
            click.echo("wsdb: interrupted", err=True)
            sys.exit(130)
        except SystemError as e:
            # Ctrl-C while a numba kernel runs comes back as a SystemError around the KeyboardInterrupt
            if not isinstance(e.__cause__ or e.__context__, KeyboardInterrupt):
                raise
            click.echo("wsdb: interrupted", err=True)
            sys.exit(130)
        except OSError as e:
            if not _output_failed(e):
                raise
            sys.exit(1)
        except Exception as e:
            if not _storage_failed(e):
                raise
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def _storage_failed(e: Exception) -> bool:
    """A database driver's error that reached the top (a read no library
    call turned into its one line): one line on stderr, and True; False
    for anything else, which is a bug and keeps its traceback."""
    driver = type(e).__module__.split(".")[0] in ("sqlite3", "sqlalchemy", "psycopg", "pyarrow")
    if not driver:
        return False
    cause = getattr(e, "orig", None) or e
    said = " ".join(str(cause).split())[:300]
    click.echo(
        f"wsdb: the database could not be read or written ({type(cause).__name__}: {said}); nothing was "
        "changed: `wsdb verify --n N --c C --db DB` checks a build",
        err=True,
    )
    return True


def _output_failed(e: OSError) -> bool:
    """A write to standard output that failed (a full disk, a closed pipe,
    /dev/full): one line on stderr, and True; False for any other error.
    Standard output is then pointed at /dev/null, so that Python's own
    flush at exit does not fail again with a traceback."""
    import errno

    if e.errno not in (errno.ENOSPC, errno.EPIPE, errno.EFBIG, errno.EDQUOT, errno.EIO):
        return False
    try:
        sys.stdout.flush()
    except OSError:
        pass
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    try:
        click.echo(f"wsdb: cannot write the output: {e.strerror or e}; what was printed is incomplete", err=True)
    except OSError:
        pass
    return True


# Set by commands that hold nothing needing a clean close once their answer is
# written (lookup: a read-only SQLite handle). The executable then leaves by
# os._exit: Python's teardown of numpy's modules is 35 ms, a seventh of a
# single lookup.
_skip_teardown = False


def entry() -> None:
    """The ``wsdb`` executable and ``python -m wsdb``: run the command line,
    then exit with its status."""
    code: int | str | None
    try:
        main()
        code = 0
    except SystemExit as e:
        code = e.code
    try:  # the last of the output: a write that fails here fails the command
        sys.stdout.flush()
    except OSError as e:
        if not _output_failed(e):
            raise
        code = 1
    if _skip_teardown and isinstance(code, int):
        try:
            sys.stderr.flush()
        except OSError:
            pass
        os._exit(code)
    sys.exit(code)


def _show_version(ctx, param, value):
    """--version: the version every stored row records (wsdb/version.py)."""
    if value and not ctx.resilient_parsing:
        from .version import current

        click.echo(f"wsdb, version {current()}")
        ctx.exit()


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help="Show the version, with the git revision that made it, and exit.",
)
def main():
    """God-number databases and solvers for the puzzle Wrapslide.

    \b
    Typical session:
      wsdb build --n 4 --c 4            # every 4x4 four-colour class (seconds; the first
                                        # build also compiles the kernels, once)
      wsdb lookup 1212/3434/1243/3421   # distance and an optimal sequence
      wsdb apply 1212/3434/1243/3421 T1 R1 B1   # check moves by hand
      wsdb verify --n 4 --c 4           # prove the stored tree right
      wsdb solve 123412/341234/214321/432143/123412/341234   # any grid
      sqlite3 db/wsdb.sqlite "select * from levels where n=4 and c=4"
      wsdb census --puzzle rubeish --n 3   # another puzzle's states by distance

    States are n lines of n symbols, or one line with rows split by '/', ','
    or spaces, or n*n symbols in a row; any 2-4 distinct symbols name the
    colours. Moves are in the thesis' notation: Tk/Bk slide the top/bottom
    half k cells left, Lk/Rk slide the left/right half k cells up.
    """


def puzzle_options(f):
    """--puzzle and --goal: which puzzle's tree (build, lookup, solve, random,
    stats, apply, verify, export)."""
    f = click.option(
        "--goal",
        default=None,
        metavar="STATE",
        help="Other puzzles: the goal the tree grows from, one symbol per cell, rows split "
        "by '/' (default: distinct pieces 1..9, A..G in reading order). Fewer "
        "symbols make a coloured variant, e.g. 1110/0100/0000/0000.",
    )(f)
    return click.option(
        "--puzzle",
        type=click.Choice(PUZZLES),
        default="wrapslide",
        show_default=True,
        help="Which puzzle (docs/puzzles.md).",
    )(f)


# the puzzle names, spelled out so that `wsdb --help` loads no puzzle module
# (tests/test_cli.py checks them against wsdb.puzzle.catalog.NAMES)
PUZZLES = ("wrapslide", "rubeish", "rubiks-slide-easy", "rubiks-slide-hard", "rotate2x2", "sliding")


def columns_option(f):
    return click.option("--m", "m", type=int, default=None, help="Sliding puzzle only: columns (default n).")(f)


def state_columns_option(f):
    """--m where the state itself gives the board (lookup, solve, apply):
    taken for the same command lines as build, and checked against STATE."""
    return click.option(
        "--m",
        "m",
        type=int,
        default=None,
        metavar="COLS",
        help="Sliding puzzle: columns. Read from STATE; when given, every state must have this many.",
    )(f)


def _check_columns(states: list[str], m: int | None) -> None:
    if m is None:
        return
    for s in states:
        cols = len(s.split("/", 1)[0])
        if cols != m:
            raise InputError(f"state {s!r} has {cols} columns but --m says {m}")


def board_options(f):
    """--n, --m, --c, --puzzle and --goal: the board of one tree (build,
    census, verify, export; random and stats take their own --n/--c)."""
    f = puzzle_options(f)
    f = click.option("--c", "c", type=int, default=None, help="Wrapslide: number of colours, 2-4.")(f)
    f = columns_option(f)
    return click.option(
        "--n",
        "n",
        type=int,
        required=True,
        help="Board size (Wrapslide: an even n; 4, 6, 8 are the game's; the sliding puzzle: rows).",
    )(f)


def dask_options(f):
    """Where the dask engine runs: a scheduler, or a LocalCluster's size."""
    f = click.option(
        "--worker-memory",
        default=None,
        metavar="SIZE",
        help="dask without --scheduler: memory limit per worker, e.g. 8GiB (default: shared out).",
    )(f)
    f = click.option(
        "--workers",
        type=click.IntRange(1, 256),
        default=None,
        help="dask without --scheduler: worker processes of the LocalCluster (default 2).",
    )(f)
    return click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="dask: a running scheduler, e.g. tcp://10.0.0.5:8786 (default: a LocalCluster here).",
    )(f)


def check_dask_options(engine: str, named: dict) -> None:
    """One line where a dask option comes without ``--engine dask``, or
    --workers with --scheduler."""
    if engine == "local" and any(v is not None for v in named.values()):
        raise InputError(
            f"{next(k for k, v in named.items() if v is not None)} is for the dask engine: add --engine dask"
        )
    if named.get("--scheduler") and named.get("--workers"):
        raise InputError("--workers sizes a LocalCluster: a --scheduler has its own workers")


def root_option(f):
    return click.option(
        "--root",
        type=click.Choice(["all", "single"]),
        default="all",
        show_default=True,
        help="Wrapslide: grow from all solved states (true distances) or from the thesis' "
        "single root (reproduces its Table 3.4 for three colours).",
    )(f)


@main.command()
@board_options
@click.option(
    "--max-depth",
    type=int,
    default=None,
    metavar="D",
    help="Stop after depth D. Default: to the end for 4x4 and 6x6 two colours; "
    "8 for 6x6 three and four colours; 7, 6, 7 for 8x8 two, three, four colours; "
    "other puzzles to the end (those of over 100 M arrangements need D).",
)
@root_option
@click.option("--force", is_flag=True, help="Rebuild even if a finished build is stored.")
@click.option(
    "--engine",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="local: this process, classes stored as rows. dask: Dask distributed, classes stored "
    "as Parquet levels in --levels (docs/scale.md).",
)
@click.option(
    "--levels",
    "levels",
    default=None,
    metavar="URL",
    help="dask: the folder or fsspec URL for the Parquet levels (default: beside the database, DB.levels/NxN-cC-ROOT).",
)
@dask_options
@click.option(
    "--partitions",
    type=int,
    default=None,
    hidden=True,
    help="dask: split every level this many ways (a power of two; default: from its size).",
)
@click.option(
    "--lease-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="How long this build's hold on the tree lasts without renewal (it renews every tenth of it). "
    "A build whose holder stopped renewing (killed, its machine down) for longer is taken over by "
    "the next build, which resumes it. [default: 300]",
)
@quiet_option
@db_option
@json_option
@clean_errors
def build(
    n,
    m,
    c,
    puzzle,
    goal,
    max_depth,
    root,
    force,
    engine,
    levels,
    scheduler,
    workers,
    worker_memory,
    partitions,
    lease_timeout,
    quiet,
    db,
    as_json,
):
    """Breadth-first search over symmetry classes from the solved states,
    storing one row per class (representative, depth, parent, orbit size).

    Prints one progress line per level on stderr. Every finished level is
    committed as it comes: a build stopped at any moment (Ctrl-C, kill, a
    crash) keeps its finished levels, and the same command resumes it. A
    finished partial build is taken deeper by a larger --max-depth. The
    first build compiles wsdb's kernels (once per install) and says so.

    One build holds a tree at a time, by a lease it renews while it works
    (docs/guarantees.md): a second build of the tree is refused with the
    holder's name, and once a holder stops renewing (killed, its machine
    gone) for --lease-timeout the next build takes the tree over.

    \b
    Other puzzles grow from their goal (docs/puzzles.md):
      wsdb build --puzzle rubeish --n 3                  # 181,440 states, God's number 8
      wsdb build --puzzle rubiks-slide-hard --n 4 --goal 1110/0100/0000/0000
      wsdb build --puzzle sliding --n 2 --m 5            # 1,814,400 states, God's number 55
      wsdb lookup --puzzle rubeish 987/654/321
    """
    from .db.build import build_board
    from .db.location import resolve
    from .db.status import LEASE_TIMEOUT
    from .puzzle.catalog import describe
    from .puzzle.tree_key import TreeKey

    p = _board(puzzle, n, m, c, goal)
    what, command = describe(TreeKey.of(p, root if p.roots else None))
    label = f"{what} ({root} roots)" if p.roots else what

    def starting():
        if not quiet:
            click.echo(f"wsdb: building {label} in {resolve(db).label}", err=True)

    check_dask_options(
        engine,
        {
            "--levels": levels,
            "--scheduler": scheduler,
            "--workers": workers,
            "--worker-memory": worker_memory,
            "--partitions": partitions,
        },
    )
    if partitions is not None and (partitions < 1 or partitions & (partitions - 1)):
        raise InputError(f"--partitions {partitions}: expected a power of two")
    timeout = LEASE_TIMEOUT if lease_timeout is None else lease_timeout
    try:
        if engine == "dask":
            from .db.build import build_distributed, default_levels

            tree, row = build_distributed(
                p,
                levels or default_levels(db, p, root),
                db=db,
                max_depth=max_depth,
                root=root,
                force=force,
                scheduler=scheduler,
                workers=workers,
                memory=worker_memory,
                partitions=partitions,
                progress=_level_lines(quiet),
                starting=starting,
                lease_timeout=timeout,
            )
        else:
            tree, row = build_board(
                p,
                db=db,
                max_depth=max_depth,
                root=root,
                force=force,
                progress=_level_lines(quiet),
                starting=starting,
                lease_timeout=timeout,
            )
    except KeyboardInterrupt:
        click.echo(
            f"wsdb: build interrupted; every finished level is stored: run `{_again(drop={'force'})}` to resume",
            err=True,
        )
        sys.exit(130)
    if as_json:
        click.echo(json.dumps(row))
    elif tree is None:
        click.echo(
            f"{label} already built on {row['built_at']}: "
            f"{row['classes']:,} classes, height {row['height']}. Use --force to rebuild."
        )
    else:
        whole = f"God number {row['god_number']}" if row["complete"] else f"depths 0-{row['height']} (partial)"
        if row["complete"] and p.subgame:
            whole = f"largest distance from the goal {row['god_number']} (a subgame of {row['c']} labels)"
        click.echo(f"{what}: {row['classes']:,} classes, {row['states']:,} states, {whole}; {row['seconds']:.2f} s")


def _level_lines(quiet: bool):
    """The progress callback of a breadth-first search: one line per level
    on stderr (depth, classes, states, elapsed), or nothing when quiet."""

    def progress(level, seconds):
        if not quiet:
            click.echo(
                f"depth {level.depth:3d}  {level.classes:>13,} classes  {level.states:>22,} states  {seconds:8.2f} s",
                err=True,
            )

    return progress


@main.command("import")
@click.argument("levels", metavar="LEVELS")
@click.option("--force", is_flag=True, help="Replace the tree where the database holds it already as rows.")
@quiet_option
@db_option
@json_option
@clean_errors
def import_(levels, force, quiet, db, as_json):
    """Load a tree kept as Parquet levels (`wsdb build --engine dask`) into
    the database as class rows: one row per class, as a local build stores
    them, so SQL and every command read the tree from the database.

    LEVELS is the levels folder or fsspec URL (the one holding
    manifest.json); its manifest says which tree it is. Every file is
    checked against the manifest on the way; a depth is committed whole or
    not at all, with COPY on PostgreSQL. An interrupted import is finished
    by running it again (or by `wsdb build` with the same board, which
    grows the same rows).

    \b
      wsdb build --n 6 --c 2 --engine dask --levels /data/6x6-c2
      wsdb import /data/6x6-c2 --db postgresql://wsdb@dbhost/wsdb
      wsdb import db/wsdb.sqlite.levels/6x6-c2-all      # into the build's own database
    """
    from .db.import_levels import import_levels
    from .db.location import resolve

    def starting(what):
        if not quiet:
            click.echo(f"wsdb: importing {what} from {levels} into {resolve(db).label}", err=True)

    try:
        tree, row = import_levels(levels, db=db, force=force, progress=_level_lines(quiet), starting=starting)
    except KeyboardInterrupt:
        click.echo("wsdb: import interrupted; every finished depth is stored: run it again to finish", err=True)
        sys.exit(130)
    if as_json:
        click.echo(json.dumps(dict(row, import_seconds=round(tree.seconds, 3))))
        return
    what = f"God number {row['god_number']}" if row["complete"] else f"depths 0-{row['height']} (partial)"
    click.echo(f"imported {row['classes']:,} classes, {row['states']:,} states, {what}; {tree.seconds:.2f} s")


@main.command()
@board_options
@click.option(
    "--diameter",
    is_flag=True,
    help="Also the diameter, the largest distance between any two states "
    "(all-pairs search; games of up to 50,000 states).",
)
@click.option(
    "--method",
    type=click.Choice(["classes", "ranked"]),
    default=None,
    help="classes (the default): levels of symmetry classes, any goal, up to 10 M classes "
    "a level. ranked (the sliding puzzle's only one, and a merged grid's of two colours): "
    "distinct pieces or two colours, two bits a state (Rubik's Slide 4x4 hard: 1.6 GB "
    "and a minute; docs/puzzles.md).",
)
@click.option(
    "--merge",
    metavar="COLOURS",
    default=None,
    help="Wrapslide: count the coarser grid where these colours are one (digits, e.g. 12: "
    "6x6 three colours becomes 18 cells against 18), the first phase of a phase "
    "bound (docs/frontier.md).",
)
@quiet_option
@json_option
@clean_errors
def census(puzzle, n, m, c, goal, diameter, method, merge, quiet, as_json):
    """Count the states at each distance from the goal, in memory, and
    print God's number; nothing is stored.

    \b
    Examples:
      wsdb census --puzzle rubeish --n 3                 # 181,440 states, God's number 8
      wsdb census --puzzle rubiks-slide-hard --n 3       # 362,880 states, 17
      wsdb census --puzzle rubiks-slide-hard --n 4 --goal 1110/0100/0000/0000 --diameter
      wsdb census --puzzle rubiks-slide-hard --n 4 --method ranked   # 1,625,702,400 states
      wsdb census --puzzle sliding --n 2 --m 5                        # 1,814,400 states
      wsdb census --n 6 --c 3 --merge 12        # 9,075,135,300 states, 1.1 GB, minutes

    For distinct pieces every state looks alike, so the largest distance
    from the goal is God's number. A coloured goal (a subgame) is not: the
    largest distance from the goal can be smaller than the diameter, which
    --diameter computes.
    """
    from .engine.census import census as run_census
    from .engine.census import ranked_census
    from .puzzle.model import merged

    p = _board(puzzle, n, m, c, goal)
    if merge is not None:
        if not p.roots:  # a grid of colours grown from its solved states, not another puzzle's goal
            raise InputError("--merge is for Wrapslide: it merges colours of a --c grid")
        p = merged(p, merge)
        if p.c == 2 and method is None:
            method = "ranked"  # the class census would grow the same levels a class at a time
    if p.ranked_only:
        if method == "classes":
            raise InputError(f"the {p.name} puzzle's moves depend on the state: expected --method ranked")
        if diameter:
            raise InputError(
                f"--diameter is for the permutation puzzles: the {p.name} puzzle's God's number "
                "is its largest distance from the goal, which the census prints"
            )
        method = "ranked"

    if method == "ranked":
        result = ranked_census(p, progress=_level_lines(quiet))
        if diameter:
            result.diameter = result.height  # distinct pieces: the graph looks alike from every state
    else:
        result = run_census(p, all_pairs=diameter, progress=_level_lines(quiet))
    if as_json:
        click.echo(json.dumps(result.as_dict()))
        return
    click.echo(
        f"{p.label}: {result.total:,} states, largest distance from the goal {result.height}"
        + (f", diameter {result.diameter}" if result.diameter is not None else "")
        + f"; {result.seconds:.2f} s"
    )
    for d, states in enumerate(result.states):
        click.echo(f"{d:4d} {states:>14,}")
    if result.farthest:
        some = "" if len(result.farthest) == result.states[-1] else f" (the first {len(result.farthest)} by rank)"
        click.echo(f"at distance {result.height}{some}: {' '.join(result.farthest)}")


def _read_states(state: str) -> list[str]:
    if state != "-":
        return [state]
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(
            f"stdin is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}): expected one state per line"
        ) from None
    lines = [ln.strip() for ln in io.StringIO(text, newline=None)]  # the line ends text-mode stdin knows
    return [ln for ln in lines if ln and not ln.startswith("#")]


@main.command()
@click.argument("state")
@puzzle_options
@state_columns_option
@db_option
@json_option
@clean_errors
def lookup(state, puzzle, goal, m, db, as_json):
    """Optimal distance of STATE and one optimal move sequence.

    STATE '-' reads one state per line from stdin (batch mode). Every
    sequence can be checked with `wsdb apply STATE MOVES...`. Another
    puzzle's states are looked up in its tree (`wsdb build --puzzle`),
    e.g. `wsdb lookup --puzzle rubeish 987/654/321`.

    \b
    Examples:
      wsdb lookup 1212/3434/1243/3421
      wsdb random --n 4 --c 4 --count 1000 --seed 1 | wsdb lookup - --json
      wsdb lookup --puzzle rubeish 987/654/321
    """
    from .db.lookup import lookup_many

    global _skip_teardown
    _skip_teardown = True
    states = _read_states(state)
    _check_columns(states, m)
    lines, beyond = [], False
    for ans in lookup_many(states, db=db, puzzle=puzzle, goal=goal):
        beyond = beyond or ans.distance is None
        if as_json:
            lines.append(json.dumps(ans.to_dict()))
        elif ans.distance is None:
            lines.append(f"{ans.state}: more than {ans.more_than} moves (beyond the stored partial tree)")
        else:
            seq = " ".join(ans.moves) if ans.moves else "(solved)"
            lines.append(f"{ans.state}: {ans.distance} moves: {seq}")
    if lines:
        click.echo("\n".join(lines))  # one write: a batch of 20,000 answers in 0.02 s, not 0.25
    if beyond and not as_json:
        click.echo(
            "wsdb: beyond the tree, `wsdb solve STATE` gives a short sequence and a proven lower bound", err=True
        )


@main.command()
@click.argument("state")
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default="auto",
    show_default=True,
    help="auto: the stored optimal answer when the state's class is in the database, else "
    "meet, then beam (8x8 three and four colours: phases; 6x6 three colours: then a "
    "short optimal search below the beam's length, which shortens or proves it). meet: search forward "
    "until the partial tree is met (exact, and on 8x8 two colours a proven bound "
    "of 14 when not met). phases: gather one colour, then two, then all, each in "
    "its coarser grid with its own tree (needs those trees built). beam: wsdb's "
    "search guided by gather distances. thesis: the thesis' heuristic (chapter 4). "
    "optimal: IDA*, handing over to a partial tree where there is one; proves "
    "optimality (6x6 three colours in seconds to a minute; four colours rarely finish). "
    "learned: a beam over the whole state guided by a learned estimate of its distance "
    "(train one first: `wsdb learn`).",
)
@click.option(
    "--guide",
    default="default",
    show_default=True,
    metavar="NAME",
    help="The learned guide that learned (and auto, on 8x8 three and four colours, where it is kept) "
    "reads (`wsdb learn --name`); a name no guide has makes auto take the phases.",
)
@effort_options
@click.option(
    "--length-only", is_flag=True, help="Report the length without the moves (skips rebuilding the stored tail)."
)
@puzzle_options
@state_columns_option
@quiet_option
@db_option
@json_option
@clean_errors
def solve(state, method, guide, effort, time_limit, length_only, puzzle, goal, m, quiet, db, as_json):
    """A short (often optimal) move sequence solving STATE, with a proven
    lower bound on the optimal length.

    STATE '-' reads one state per line from stdin. Every sequence is checked
    by applying it before it is printed. Build the databases first for the
    best answers: the two-colour database of the same size gives the gather
    distances that guide the search and bound it from below, the state's own
    (partial) tree gives exact endgames:

    
      wsdb build --n 6 --c 2 && wsdb build --n 6 --c 4    # seconds each (docs/performance.md)
      wsdb solve 123412/341234/214321/432143/123412/341234

    Another puzzle is solved with its stored tree (`wsdb build --puzzle`):
    exactly where the tree holds the state, by meeting a partial tree in the
    middle where it does not.
    """
    from .solver.solve import iter_solve

    states = _read_states(state)
    _check_columns(states, m)
    solutions = iter_solve(
        states,
        db=db,
        method=method,
        time_limit=time_limit,
        length_only=length_only,
        puzzle=puzzle,
        goal=goal,
        effort=effort,
        guide=guide,
    )  # checks everything before anything runs
    for sol in solutions:
        if as_json:
            click.echo(json.dumps(sol.to_dict()))
            continue
        proof = "optimal (proven)" if sol.optimal else f"lower bound {sol.lower_bound}"
        seq = "(length only)" if sol.moves is None else (" ".join(sol.moves) or "(solved)")
        click.echo(
            f"{sol.state}: {sol.length} moves, {proof}; {sol.method}, {sol.seconds:.2f} s, {sol.effort:g} M nodes"
        )
        click.echo(f"  {seq}")
        if sol.timed_out and not sol.capped:
            click.echo(
                "  effort spent: this is the best verified sequence found with it (more --effort may "
                "find a shorter one)",
                err=True,
            )
        if sol.note:
            click.echo(f"  note: {sol.note}", err=True)


@main.command()
@board_options
@click.option(
    "--name",
    default="default",
    show_default=True,
    help="The guide's name: several may be kept per grid (`wsdb solve --method learned --guide NAME`).",
)
@click.option(
    "--hidden",
    default="128,64",
    show_default=True,
    metavar="H1,H2",
    help="Units of the network's two hidden layers: wider estimates better but costs more per estimate, "
    "so a beam of the same effort is narrower (8x8 four colours: 128,64 answers shorter than 256,128).",
)
@click.option(
    "--rounds",
    type=click.IntRange(1),
    default=40,
    show_default=True,
    help="Rounds of training (after each the run is kept, and value iteration's target refreshed).",
)
@click.option(
    "--targets",
    type=click.Choice(["walks", "iteration"]),
    default="walks",
    show_default=True,
    help="walks: a state's target is its walk's length. iteration: approximate value iteration "
    "(one more than its children's least estimate). Either way the tree's depths where it holds the state.",
)
@click.option("--steps", type=click.IntRange(1), default=20, show_default=True, help="Optimiser steps a round.")
@click.option("--batch", type=click.IntRange(1), default=1000, show_default=True, help="States a step.")
@click.option(
    "--longest",
    type=click.IntRange(1),
    default=None,
    help="The longest random walk from solved (default: 20 on 4x4, 40 on 6x6, 60 on 8x8, else 3 x cells).",
)
@click.option(
    "--seed",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="The run's seed: the same seed, recipe and tree give the same weights.",
)
@click.option("--fresh", is_flag=True, help="Start over instead of going on from the rounds kept.")
@quiet_option
@db_option
@json_option
@clean_errors
def learn(n, m, c, puzzle, goal, name, hidden, rounds, targets, steps, batch, longest, seed, fresh, quiet, db, as_json):
    """Train a learned guide: a small value network estimating a state's
    whole distance to solved, for `wsdb solve --method learned`.

    Trained on states reached by random walks from solved (their walk's
    length as target, or --targets iteration), with the stored tree's depths as exact
    targets where it holds a state and its height as a lower bound where
    it does not, so build the grid's tree first. The weights are kept
    beside the database (DB.learned/), with their provenance, after every
    round: the same command goes on from there, and ends on the same
    weights as an unbroken run.

    \b
      wsdb build --n 4 --c 4 && wsdb learn --n 4 --c 4 --rounds 20    # seconds
      wsdb learn --n 8 --c 4 --rounds 200                              # minutes (docs/solver.md)
    """
    from .db.store import Store
    from .solver.learning import learn as learn_guide
    from .solver.settings import LEARN_LONGEST
    from .solver.training import Recipe

    board = _board(puzzle, n, m, c, goal)
    try:
        sizes = tuple(int(x) for x in hidden.split(","))
    except ValueError:
        sizes = ()
    if len(sizes) != 2 or min(sizes) < 1:
        raise InputError(f"--hidden {hidden!r}: expected two positive unit counts, as 256,128")
    walk = longest if longest is not None else LEARN_LONGEST.get(board.n if board.roots else 0, 3 * board.ncells)
    recipe = Recipe(hidden=sizes, rounds=rounds, steps=steps, batch=batch, longest=walk, seed=seed, targets=targets)
    store = Store.open(db, create=True)
    lesson = learn_guide(board, store, recipe, name, fresh)
    if as_json:
        click.echo(json.dumps(lesson.to_dict()))
        return
    a = lesson.about
    click.echo(
        f"{a['label']} guide {name}: {a['rounds_done']} rounds, loss {a['losses'][-1]:.3f}, "
        f"{a['seconds']:.1f} s in all; weights {a['weights_xxh3_128'][:12]} in {lesson.path}"
    )


@main.command("eval")
@draw_options(100, 1_000_000, "How many random states (those of `wsdb random` with the same --count and --seed).")
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default="auto",
    show_default=True,
    help="The solver method to measure (see `wsdb solve --help`).",
)
@click.option(
    "--guide",
    default="default",
    show_default=True,
    metavar="NAME",
    help="The guide learned and auto read (`wsdb solve --help`).",
)
@effort_options
@quiet_option
@db_option
@json_option
@clean_errors
def eval_cmd(n, c, count, seed, method, guide, effort, time_limit, quiet, db, as_json):
    """Solve random states with one method and store every answer in the
    database: a `solve_runs` row (method, settings with the effort, seed,
    wsdb version, machine, date) and one `solves` row per state (length, lower bound,
    proven optimal, exact distance where known, seconds, timed out).

    Each row is committed as it is solved: Ctrl-C keeps the finished rows.
    Compare runs with `wsdb stats --solves` (tables, --json, --csv, --plot),
    or in SQL (docs/sql.md).

    \b
      wsdb eval --n 6 --c 3 --count 100 --seed 2016
      wsdb eval --n 6 --c 3 --count 100 --seed 2016 --method optimal
      wsdb stats --solves
    """
    from .puzzle import check_grid
    from .solver.evaluate import Evaluation

    check_grid(n, c)
    seed = _seed_or_fresh(seed)
    evaluation = Evaluation(n, c, count, seed, method, time_limit, db, effort, guide)  # checks, then loads the tables
    lengths = []
    with click.progressbar(
        length=count,
        label=f"{n}x{n} c{c} {method}",
        file=sys.stderr,
        hidden=quiet,
        show_pos=True,
        item_show_func=lambda x: x,
    ) as bar:

        def solved(sol):
            lengths.append(sol.length)
            bar.update(1, f"mean {sum(lengths) / len(lengths):.2f} moves")

        try:
            run = evaluation.run(on_solved=solved)
        except KeyboardInterrupt:
            click.echo(
                f"\nwsdb: interrupted; {len(lengths)} of {count} states stored (run status 'interrupted')", err=True
            )
            sys.exit(130)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "run_id": run.run_id,
                    "stored": run.stored,
                    "count": run.count,
                    "status": run.status,
                    "seed": seed,
                    "n": n,
                    "c": c,
                    "method": method,
                    "mean_length": sum(lengths) / len(lengths),
                }
            )
        )
    else:
        click.echo(
            f"run {run.run_id}: {run.stored} states of {n}x{n} {c} colours by {method}, "
            f"mean length {sum(lengths) / len(lengths):.2f}; see `wsdb stats --solves`"
        )


@main.command()
@click.argument("state")
@click.argument("moves", nargs=-1)
@puzzle_options
@state_columns_option
@json_option
@clean_errors
def apply(state, moves, puzzle, goal, m, as_json):
    """Print STATE after MOVES, and whether it is then solved.

    For example `wsdb apply 1212/3434/1243/3421 T1 R1`. With --json: the
    start, the moves, the result, whether it is solved, and every state
    along the way. Another puzzle's moves in its own notation:
    `wsdb apply --puzzle rubeish 987/654/321 c1+1 c2+2`.

    \b
    Examples:
      wsdb apply 1212/3434/1243/3421 T1 R1
      wsdb apply 1212/3434/1243/3421 T1 R1 --json
      wsdb apply --puzzle rubeish 987/654/321 c1+1 c2+2"""
    from .puzzle.replay import replay

    _check_columns([state], m)
    played = replay(state, list(moves), puzzle, goal)
    if as_json:
        click.echo(json.dumps(played.to_dict()))
    else:
        click.echo(played.result + ("  (solved)" if played.solved else ""))


@main.command()
@board_options
@root_option
@quiet_option
@db_option
@json_option
@clean_errors
def verify(n, m, c, root, puzzle, goal, quiet, db, as_json):
    """Prove a stored build right: parents one level up and one move away,
    neighbours at most one level deeper, counts and orbit sizes consistent.
    Exit 1 naming the first violation. Another puzzle's tree with --puzzle
    (and --goal, or --m for the sliding puzzle).

    \b
    Examples:
      wsdb verify --n 4 --c 4
      wsdb verify --n 6 --c 2 --json
      wsdb verify --puzzle rubeish --n 3"""
    from dataclasses import asdict

    from .db.verify import verify as run_verify
    from .db.verify import verify_puzzle

    board = _board(puzzle, n, m, c, goal)
    report = run_verify(n, c, db=db, root=root) if board.roots else verify_puzzle(board, db=db)
    n, c = report.n, report.c
    if as_json:
        click.echo(json.dumps(asdict(report)))
    else:
        for check in report.checks:
            click.echo(f"ok  {check}")
        if report.ok:
            from .puzzle.catalog import describe
            from .puzzle.tree_key import TreeKey

            what = describe(TreeKey(puzzle, n, c, report.root))[0]
            click.echo(f"{what}: {report.classes:,} classes, {report.states:,} states verified")
        else:
            click.echo(f"FAILED  {report.problem}")
    sys.exit(0 if report.ok else 1)


def _board(puzzle: str, n: int, m: int | None, c: int | None, goal: str | None):
    """The puzzle a command names (Wrapslide needs its --c here: such a
    command reads or writes one tree)."""
    from .puzzle.catalog import get_puzzle

    return get_puzzle(puzzle, n, c=c, goal=goal, m=m, colours_required=True)


def grid_options(required: bool):
    """--n, --c and --root, shared by the commands that read one build."""

    def wrap(f):
        f = root_option(f)
        f = click.option(
            "--c",
            "c",
            type=int,
            required=required,
            default=None,
            help="Number of colours, 2-4." + ("" if required else " With --n: one build only."),
        )(f)
        return click.option(
            "--n",
            "n",
            type=int,
            required=required,
            default=None,
            help="Grid size (even)." + ("" if required else " With --c: one build only."),
        )(f)

    return wrap


@main.command()
@grid_options(required=False)
@db_option
@json_option
@clean_errors
def info(n, c, root, db, as_json):
    """List stored builds with their size on disk, or with --n/--c the
    classes and states per depth of one build (`wsdb stats` tells more).
    A build kept as Parquet levels (`wsdb build --engine dask`) is listed
    with the folder or URL of its levels and their size there.

    \b
    Examples:
      wsdb info                              # every build in db/wsdb.sqlite
      wsdb info --n 4 --c 4                  # classes and states per depth
      wsdb info --json | jq -r .god_number   # one JSON object per build, a line each
      wsdb info --db postgresql://wsdb@db.example/wsdb"""
    from .db.lookup import stored_levels

    if n is None and c is None:
        from .puzzle.catalog import describe
        from .puzzle.tree_key import TreeKey
        from .stats import build_records

        rows = build_records(db)
        if as_json:  # one object per line, as every --json
            for r in rows:
                click.echo(json.dumps(r))
            return
        for r in rows:
            god = f"God number {r['god_number']}" if r["complete"] else f"partial to depth {r['height']}"
            if r["complete"] and _stored(r).subgame:
                god = f"largest distance from the goal {r['god_number']}"
            if r["status"] != "done":
                god = f"UNFINISHED at depth {r['height']}"
            size = "size on disk unknown" if r["db_bytes"] is None else f"{_size(r['db_bytes'])} on disk"
            if r["parquet_levels"]:  # a dask build: its classes are files, not rows
                at = f"Parquet levels at {r['parquet_levels']}"
                size = (
                    f"{at} (missing or unreachable)"
                    if r["parquet_bytes"] is None
                    else f"{_size(r['parquet_bytes'])} of {at}"
                )
            cache = f" (+ {_size(r['cache_bytes'])} of cached tables)" if r["cache_bytes"] else ""
            what = describe(TreeKey.from_row(r))[0]
            what += f" ({r['root']} roots)" if _stored(r).roots else ""
            click.echo(
                f"{what}: {r['classes']:,} classes, "
                f"{r['states']:,} states, {god}; {size}{cache}; built {r['built_at']} "
                f"in {r['seconds']:.1f} s"
            )
        return
    if n is None or c is None:
        raise InputError("give both --n and --c, or neither (every build)")
    rows = stored_levels(n, c, db, root)
    if as_json:
        for r in rows:
            click.echo(json.dumps(r))
        return
    click.echo(f"{'depth':>5} {'classes':>14} {'states':>22}")
    for r in rows:
        click.echo(f"{r['depth']:>5} {r['classes']:>14,} {r['states']:>22,}")


def _size(size) -> str:
    return f"{size / 2**20:,.1f} MiB" if size >= 2**20 else f"{size / 1024:,.0f} KiB"


STATS_TABLES = ("summary", "levels", "orbits", "antipodes")


@main.command()
@grid_options(required=False)
@puzzle_options
@click.option(
    "--antipodes",
    "first",
    type=click.IntRange(0, 1000),
    default=3,
    show_default=True,
    help="How many antipodes (classes at the God number) to draw.",
)
@click.option(
    "--table",
    type=click.Choice(STATS_TABLES),
    default=None,
    help="With --json or --csv: just this table, one row per line (--csv prints levels unless told otherwise).",
)
@click.option("--csv", "as_csv", is_flag=True, help="Print a table as CSV (see --table).")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE.png",
    help="Also draw FILE.png (states per depth, log scale, God number marked) and "
    "FILE-symmetry.png (the symmetry profile); with --solves, the runs' lengths and times. "
    "PNG, SVG or PDF by the name's suffix (FILE.svg, FILE.pdf).",
)
@click.option(
    "--solves",
    is_flag=True,
    help="Solver runs stored by `wsdb eval` instead of builds: per run and method the mean "
    "and max length, gaps to the exact distance and to the lower bound, share proven "
    "optimal, median and max seconds, beside the thesis' means.",
)
@quiet_option
@db_option
@json_option
@clean_errors
def stats(n, c, root, puzzle, goal, first, table, as_csv, plot, solves, quiet, db, as_json):
    """What the stored builds say: states and classes per depth, God
    number (or where a partial tree stops), mean distance over states and
    over classes, antipodes drawn as grids, and how symmetric the classes
    are (orbit sizes). Every build, or one with --n/--c; another puzzle's
    with --puzzle (and --n, --goal for one of them).

    \b
    The same figures from Python: wsdb.stats.summary(db), .levels(db),
    .antipodes(db, n, c), .orbit_profile(db, n, c), as pandas DataFrames;
    in SQL: docs/sql.md.

    \b
    Examples:
      wsdb stats                                  # every build
      wsdb stats --n 4 --c 4 --table levels --csv
      wsdb stats --n 4 --c 4 --plot levels.svg    # PNG, SVG or PDF by the name
    """
    from .stats import figures

    if as_json and as_csv:
        raise InputError("--json and --csv: expected one of them")
    asked = click.get_current_context().get_parameter_source("puzzle") != click.core.ParameterSource.DEFAULT
    given = puzzle if asked or (n is not None or c is not None) else None
    if plot == "-":  # standard output holds the command's report: a picture would garble it
        raise InputError("--plot -: the report is what standard output holds; give the picture a file name")
    if solves:
        if table or n is not None or c is not None:
            raise InputError("--solves summarises every stored run: it takes no --table, --n or --c")
        return _solve_stats(db, plot, as_csv, as_json)
    if table and not (as_json or as_csv):
        raise InputError("--table goes with --json or --csv")
    if plot:
        from pathlib import Path

        from .stats.plots import plot_levels, plot_symmetry, save_figure

        out = Path(plot)
        out = save_figure(plot_levels(db, n, c, root, puzzle, goal), out)
        sym = save_figure(
            plot_symmetry(db, n, c, root, puzzle, goal), out.with_name(f"{out.stem}-symmetry{out.suffix}")
        )
        click.echo(f"wsdb: drew {out} and {sym}", err=True)
    if as_csv or (as_json and table):
        df = _stats_table(figures, table or "levels", db, n, c, root, first, given, goal)
        if as_csv:
            click.echo(df.to_csv(index=False), nl=False)
        else:
            for row in df.to_dict("records"):
                click.echo(json.dumps(figures.plain(row)))
        return
    reports = figures.report(db, n, c, root, first, given, goal)
    if not reports:
        raise NotBuiltError("no builds stored yet: run `wsdb build --n N --c C` first")
    for rep in reports:
        if as_json:
            click.echo(json.dumps(rep))
        else:
            _print_report(rep)


def _solve_stats(db, plot, as_csv, as_json) -> None:
    from .stats import figures, solves

    df = solves.run_summaries(db)
    if df.empty:
        raise NotBuiltError("no solver runs stored yet: run `wsdb eval --n N --c C --count K` first")
    if plot:
        from .stats.plots import save_figure

        click.echo(f"wsdb: drew {save_figure(solves.plot_solves(db), plot)}", err=True)
    if as_csv:
        click.echo(df.to_csv(index=False), nl=False)
        return
    if as_json:
        for row in df.to_dict("records"):
            click.echo(json.dumps(figures.plain(row)))
        return
    click.echo(
        f"{'run':>4} {'grid':6} {'method':8} {'effort':>6} {'states':>6} {'mean len':>8} {'max':>4} {'mean lb':>7} "
        f"{'gap exact':>11} {'gap lb':>6} {'optimal':>7} {'median s':>8} {'max s':>7}  thesis len / s"
    )
    for r in df.itertuples():
        if not r.states:
            click.echo(
                f"{r.run_id:>4} {r.n}x{r.n}c{r.c} {r.method:8} {solves.effort_label(r.effort):>6} {0:>6}  (no states stored)"
            )
            continue
        gap = "-" if r.known_exact == 0 else f"{r.mean_gap_exact:.2f}/{r.known_exact}"
        thesis = "" if _missing(r.thesis_mean_length) else f"{r.thesis_mean_length} / {r.thesis_mean_seconds}"
        click.echo(
            f"{r.run_id:>4} {r.n}x{r.n}c{r.c} {r.method:8} {solves.effort_label(r.effort):>6} {r.states:>6} {r.mean_length:>8.2f} "
            f"{r.max_length:>4} {r.mean_lower_bound:>7.2f} {gap:>11} {r.mean_gap_bound:>6.2f} "
            f"{r.share_optimal:>7.0%} {r.median_seconds:>8.2f} {r.max_seconds:>7.2f}  {thesis}"
            + ("" if r.status == "done" else f"  ({r.status})")
        )


def _missing(x) -> bool:
    """None or NaN (pandas fills a missing float with NaN)."""
    return x is None or x != x


def _stats_table(figures, table, db, n, c, root, first, puzzle, goal):
    import pandas as pd

    from .db.store import Store

    if table in ("summary", "levels"):
        return getattr(figures, table)(db, n, c, root, puzzle, goal)
    store = Store.of(db)
    frames = []
    for b in figures.summary(store, n, c, root, puzzle, goal).to_dict("records"):
        b = figures.plain(b)
        if table == "orbits":
            df = figures.orbit_profile(store, b)
        elif b["complete"]:
            df = figures.antipodes(store, b, limit=first or None)
        else:
            continue
        for k in ("root", "c", "n", "puzzle"):
            df.insert(0, k, b[k])
        frames.append(df)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _stored(row: dict):
    """The puzzle of a stored build (a ``builds`` row or a report)."""
    from .puzzle.catalog import stored_puzzle
    from .puzzle.tree_key import TreeKey

    return stored_puzzle(TreeKey.from_row(row))


def _print_report(r: dict) -> None:
    from .puzzle.catalog import describe
    from .puzzle.tree_key import TreeKey

    what, command = describe(TreeKey.from_row(r))
    p = _stored(r)
    other = not p.every_arrangement  # another puzzle's moves may reach only some arrangements
    head = f"{what} ({r['root']} roots): " if p.roots else f"{what}: "
    if r["status"] != "done":
        click.echo(
            head + f"UNFINISHED, levels 0-{r['height']} stored so far (interrupted, or still running); "
            f"`{command}` resumes it"
        )
    elif r["complete"] and p.subgame:
        click.echo(
            head + f"complete, largest distance from the goal {r['god_number']} (a subgame: "
            "the diameter may be larger, `wsdb census --diameter`)"
        )
    elif r["complete"]:
        click.echo(head + f"complete, God number {r['god_number']}")
    elif r["god_number"] is not None:  # stopped at its depth limit holding every state
        click.echo(head + f"partial, depths 0-{r['height']} stored, holding every state: God number {r['god_number']}")
    elif r["more_than"] is not None:
        click.echo(
            head + f"partial, depths 0-{r['height']} stored; states lie past them, so the God number is "
            f"more than {r['more_than']}"
        )
    else:
        click.echo(head + f"partial, depths 0-{r['height']} stored; the God number is at least {r['at_least']}")
    share = "all of them" if r["complete"] else f"{100 * r['coverage']:.3g}% of all {r['all_states']:,}"
    if other:
        share = (
            f"{'all reachable: ' if r['complete'] else ''}{100 * r['coverage']:.3g}% of the "
            f"{r['all_states']:,} arrangements"
        )
    click.echo(
        f"  {r['classes']:,} classes, {r['states']:,} states ({share}); built {r['built_at']} "
        f"in {r['seconds']:.1f} s by wsdb {r['version']}"
        + (f", depth limit {r['max_depth']}" if r["max_depth"] is not None else "")
    )
    lo, hi = r["bounds"]["lower"], r["bounds"]["upper"]
    if lo is not None or hi is not None:
        click.echo(
            f"  proven bounds (wsdb bounds): {lo if lo is not None else '?'} <= God number"
            + (f" <= {hi}" if hi is not None else "")
        )
    if r["complete"]:
        click.echo(
            f"  mean distance {r['mean_distance_states']:.4f} over states, "
            f"{r['mean_distance_classes']:.4f} over classes"
        )
    # a partial tree's shares are of its stored states: the header says so, not "of all"
    click.echo(f"  {'depth':>5} {'classes':>14} {'states':>26} {'cumulative' if r['complete'] else 'of stored':>11}")
    for lv in r["levels"]:
        click.echo(
            f"  {lv['depth']:>5} {lv['classes']:>14,} {lv['states']:>26,} {100 * lv['cumulative_share']:>10.4f}%"
        )
    if not r["complete"]:
        click.echo(
            f"  (shares of the {r['states']:,} stored states, {100 * r['coverage']:.3g}% of all "
            f"{r['all_states']:,}; deeper states are not stored)"
        )
    if r["complete"]:
        click.echo(
            f"  antipodes: {r['antipode_classes']:,} classes, {r['antipode_states']:,} states"
            + (f"; the first {len(r['first_antipodes'])}:" if r["first_antipodes"] else "")
        )
        grids = [g.split("/") for g in r["first_antipodes"]]
        for row in zip(*grids):
            click.echo("    " + "    ".join(row))
    click.echo("  symmetry profile (symmetries fixing a class: classes, states):")
    for o in r["orbit_profile"]:
        click.echo(
            f"    {o['symmetries']:>4} {o['classes']:>14,} classes {o['states']:>22,} states "
            f"(orbit size {o['orbit_size']})"
        )


@main.command()
@click.option(
    "--host",
    default=web_settings.HOST,
    show_default=True,
    help="Address to listen on (loopback by default: only this machine can reach it).",
)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=web_settings.PORT, show_default=True, help="Port to listen on."
)
@click.option(
    "--max-time-limit",
    type=click.FloatRange(0, 600, min_open=True),
    default=web_settings.MAX_TIME_LIMIT,
    show_default=True,
    metavar="S",
    help="Longest search one solve request may ask for, in seconds.",
)
@click.option(
    "--max-busy",
    type=click.IntRange(1, 64),
    default=web_settings.MAX_BUSY,
    show_default=True,
    help="Solves running at once; more are refused with HTTP 503 (reads never are).",
)
@db_option
@clean_errors
def serve(host, port, max_time_limit, max_busy, db):
    """A web page to paint a state and watch it solved, and its JSON API.

    \b
      wsdb build --n 4 --c 4 && wsdb serve     # then open http://127.0.0.1:8000/

    The API's answers are the CLI's --json (lookup, solve, apply, random,
    info); its OpenAPI documentation is at /docs. Ctrl-C stops the server.
    """
    from .db.location import resolve
    from .web import serve as run

    if max_time_limit != max_time_limit:  # NaN passes click's range check: every comparison with it is false
        raise InputError("--max-time-limit nan: expected a number of seconds, more than 0 and at most 600")
    where = resolve(db)
    if where.missing and where.explicit:
        raise MissingDatabaseError(
            f"no database at {where.label}: build one with `wsdb build --n N --c C`, "
            "or leave --db out to serve without one"
        )
    if not where.missing:
        from .db.store import Store

        Store.open(db)  # a file that is not a wsdb database is refused here, in one line, not at start-up

    def ready():
        tables = "no database yet: answers come from the solver alone" if where.missing else where.label
        click.echo(f"wsdb: serving http://{host}:{port}/ ({tables}); Ctrl-C stops", err=True)
        if not where.missing:
            from .solver.solve import first_solve_waits

            for n, minutes in first_solve_waits(db).items():
                click.echo(
                    f"wsdb: the first {n}x{n} solve derives the solver's deeper trees, once, about {minutes:g} min",
                    err=True,
                )

    from .notices import silence

    with silence():  # requests' long steps draw no bars in the server's terminal
        run(host=host, port=port, db=db, max_time_limit=max_time_limit, max_busy=max_busy, on_ready=ready)


@main.group("db")
def db_group():
    """The database's schema: its migrations, where a file stands, and an
    upgrade by hand. Any writable wsdb upgrades a database when it opens it;
    these say where one stands first, or upgrade a shared one on purpose.

    \b
    Examples:
      wsdb db history                          # every migration, oldest first
      wsdb db current --db db/old.sqlite       # its revision, and what an upgrade would apply
      wsdb db upgrade --db postgresql://wsdb@db.example/wsdb
    """


@db_group.command("history")
@json_option
@clean_errors
def db_history(as_json):
    """Every migration of the schema, oldest first (the last is this wsdb's head).

    \b
    Examples:
      wsdb db history
      wsdb db history --json | jq -r .revision"""
    from .db.schema_history import history

    for m in history():
        if as_json:
            click.echo(json.dumps(m))
        else:
            click.echo(f"{m['revision']}  {m['message']}" + ("  (head)" if m["head"] else ""))


@db_group.command("current")
@db_option
@json_option
@clean_errors
def db_current(db, as_json):
    """The database's schema revision, read without changing it, and the
    migrations an upgrade would apply.

    \b
    Examples:
      wsdb db current                       # db/wsdb.sqlite
      wsdb db current --db old.sqlite --json"""
    from .db.schema_history import current

    now = current(db)
    if as_json:
        click.echo(json.dumps(now))
    elif now["revision"] is None:
        click.echo(f"{now['database']}: no wsdb schema yet (wsdb {now['head']} makes it on the first build)")
    elif not now["known"]:
        click.echo(
            f"{now['database']}: revision {now['revision']}, newer than this wsdb's {now['head']}: "
            "upgrade wsdb to read it"
        )
    elif now["up_to_date"]:
        click.echo(f"{now['database']}: revision {now['revision']} (head)")
    else:
        click.echo(
            f"{now['database']}: revision {now['revision']}; `wsdb db upgrade` would apply {', '.join(now['pending'])}"
        )


@db_group.command("upgrade")
@db_option
@json_option
@clean_errors
def db_upgrade(db, as_json):
    """Apply the pending migrations to the database, in one transaction.

    \b
    Examples:
      wsdb db upgrade --db old.sqlite
      wsdb db upgrade --db postgresql://wsdb@db.example/wsdb"""
    from .db.schema_history import upgrade

    done = upgrade(db)
    if as_json:
        click.echo(json.dumps(done))
    elif done["applied"]:
        click.echo(f"upgraded from revision {done['before']} to {done['after']} ({', '.join(done['applied'])})")
    else:
        click.echo(f"already at revision {done['after']} (head)")


@main.group(invoke_without_command=True)
@click.option("--n", "n", type=int, default=None, help="Only this grid size.")
@click.option("--c", "c", type=int, default=None, help="Only this number of colours.")
@db_option
@json_option
@click.pass_context
@clean_errors
def bounds(ctx, n, c, db, as_json):
    """Proven bounds on God's numbers: what each rests on, how long its
    proof took, and the command that proves it again (docs/frontier.md).

    \b
      wsdb bounds                                   # every stored bound
      wsdb bounds compute --n 6 --c 3               # counting, tree, phases
      wsdb bounds prove 112233/112233/... --effort 400   # a state's distance
      wsdb bounds proofs                            # how far the long proofs got
    """
    if ctx.invoked_subcommand is not None:
        return
    from .db.store import Store

    rows = Store.open(db).bound_rows(n, c)
    if as_json:
        for r in rows:
            click.echo(json.dumps(r | {"witness": json.loads(r["witness"])}))
        return
    if not rows:
        raise NotBuiltError(
            "no bounds stored"
            + (" for that grid" if n or c else "")
            + ": prove some with `wsdb bounds compute --n N --c C` or `wsdb bounds prove STATE`"
        )
    for grid, best in _best_bounds(rows).items():
        click.echo(f"{grid}: {best}")
    click.echo("")
    for r in rows:
        click.echo(
            f"  {r['n']}x{r['n']} {r['c']} colours  {r['kind']:<5} {r['value']:>3}  {r['method']:<8} "
            f"{r['seconds']:9.2f} s  {r['proven_at'][:10]}  wsdb {r['version']}  `{r['command']}`"
        )
    from .bounds.proof_progress import kept_proofs

    under_way = [p for p in kept_proofs(Store.open(db), n, c) if p.bound is not None]
    if under_way:
        click.echo(
            f"\n{len(under_way)} proof{'s' * (len(under_way) > 1)} part-way through a bound: `wsdb bounds proofs`"
        )
    from .bounds.check_progress import kept_checks

    part_way = [k for k in kept_checks(Store.open(db), n, c) if k.done < k.slices]
    if part_way:
        click.echo(f"\n{len(part_way)} moves-off check{'s' * (len(part_way) > 1)} part-way: `wsdb bounds checks`")


@bounds.command("proofs")
@click.option("--n", "n", type=int, default=None, help="Only this grid size.")
@click.option("--c", "c", type=int, default=None, help="Only this number of colours.")
@db_option
@json_option
@clean_errors
def bounds_proofs(n, c, db, as_json):
    """How far each `wsdb bounds prove STATE --at-least K` got: the moves
    proven so far (every bound below searched whole), the bound under way
    and how many of its shares the database keeps, and the seconds kept.
    The same prove command goes on from there.

    \b
      wsdb bounds proofs
      wsdb bounds proofs --n 6 --c 4 --json
    """
    from .bounds.proof_progress import kept_proofs
    from .db.store import Store

    proofs = kept_proofs(Store.open(db), n, c)
    if as_json:
        for p in proofs:
            click.echo(json.dumps(p.row()))
        return
    if not proofs:
        raise NotBuiltError(
            "no proof kept"
            + (" for that grid" if n or c else "")
            + ": `wsdb bounds prove STATE --at-least K` keeps its shares as they finish"
        )
    for p in proofs:
        click.echo(p.text())


@bounds.command("checks")
@click.option("--n", "n", type=int, default=None, help="Only this grid size.")
@click.option("--c", "c", type=int, default=None, help="Only this number of colours.")
@db_option
@json_option
@clean_errors
def bounds_checks(n, c, db, as_json):
    """How far each moves-off check of `wsdb bounds compute --merge ...
    --off K` got: per level and distance, how many of its slices the
    database keeps, the ways to split left so far, and the time left at
    their pace; then per grid, the ways to split that no path serves which
    the checks solved one by one and kept (with --json, the lines with a
    "solved" field). The same compute command goes on from there.

    \b
      wsdb bounds checks
      wsdb bounds checks --n 6 --c 3 --json
    """
    from .bounds.check_progress import kept_checks, kept_solutions
    from .db.store import Store

    store = Store.open(db)
    kept = [*kept_checks(store, n, c), *kept_solutions(store, n, c)]
    if as_json:
        for k in kept:
            click.echo(json.dumps(k.row()))
        return
    if not kept:
        raise NotBuiltError(
            "no check kept"
            + (" for that grid" if n or c else "")
            + ": `wsdb bounds compute --merge COLOURS --off K` keeps its slices as they finish"
        )
    for k in kept:
        click.echo(k.text())


def _best_bounds(rows: list[dict]) -> dict[str, str]:
    """'L <= God number <= U' per grid from bound rows (the best of each kind)."""
    out: dict[tuple, dict] = {}
    for r in rows:
        best = out.setdefault((r["n"], r["c"]), {})
        if r["kind"] == "lower":
            best["lower"] = max(best.get("lower", 0), r["value"])
        else:
            best["upper"] = min(best.get("upper", 10**9), r["value"])
    text = {}
    for (n, c), b in out.items():
        lo, hi = b.get("lower"), b.get("upper")
        text[f"{n}x{n} {c} colours"] = (
            f"God number {lo}"
            if lo is not None and lo == hi
            else f"{lo if lo is not None else '?'} <= God number" + (f" <= {hi}" if hi is not None else "")
        )
    return text


@bounds.command("compute")
@click.option("--n", "n", type=int, required=True, help="Grid size (even).")
@click.option("--c", "c", type=int, required=True, help="Number of colours, 2-4.")
@click.option(
    "--merge",
    metavar="COLOURS",
    default=None,
    help="Also the two-phase bound that solves these colours as one first (digits, e.g. 12): "
    "the merged grid's God number by a census, plus the largest exact distance among "
    "the states it leaves, less one where no state needs both. 6x6 three colours: about 5 "
    "minutes and 2 GB.",
)
@click.option(
    "--off",
    type=click.IntRange(1, 4),
    default=1,
    show_default=True,
    metavar="K",
    help="With --merge: try to take up to K moves off the sum, checking the merged grid's K deepest "
    "levels (docs/frontier.md), each further down bigger: "
    "6x6 three colours takes about 6 minutes with K=1, 15 with K=2, up to an hour and a half "
    "with K=3 (with --tries 200), and hours with K=4; a check stopped resumes (`wsdb bounds "
    "checks`).",
)
@click.option(
    "--tries",
    type=click.IntRange(1, 10_000),
    default=None,
    metavar="T",
    help="With --merge: shortest paths tried from each state checked (and from each detour) before "
    "a way to split its merged cells is taken as needing the worst case (default 24). More tries "
    "cost time only on the states that need them.",
)
@click.option(
    "--solve-left",
    type=click.IntRange(0, 100_000),
    default=None,
    metavar="N",
    help="With --merge: where every path tried leaves at most N ways to split at the worst case, solve "
    "them one by one (a narrow beam first, `wsdb solve` where its answer is too long); a solution "
    "within the bound serves them as a path would (default 64; 0: none).",
)
@click.option(
    "--fresh",
    is_flag=True,
    help="With --merge: check every slice of every level again instead of resuming from those the "
    "database keeps; each must agree with the one kept.",
)
@db_option
@json_option
@quiet_option
@clean_errors
def bounds_compute(n, c, merge, off, tries, solve_left, fresh, db, as_json, quiet):
    """Prove and store the bounds the database allows for one grid: the
    counting bound, the exact God number of a complete tree, and the phase
    upper bound (a coarser grid's God number plus the worst exact distance
    of each later phase). Says which argument it could not make, and why.

    With --merge each level checked for --off is cut into slices, kept in
    the database as they finish: a check stopped (Ctrl-C, a kill) goes on
    from there when the same command runs again.

    \b
      wsdb bounds compute --n 8 --c 3               # counting past the stored tree
      wsdb bounds compute --n 6 --c 3 --merge 12    # colours 1 and 2 as one, then apart
      wsdb bounds compute --n 6 --c 3 --merge 12 --off 2   # and two moves off if the levels allow
    """
    from .bounds import arguments as bd
    from .bounds.merging import by_merging
    from .db.store import Store
    from .puzzle.model import merged, wrapslide

    bd.check(n, c)
    if merge is not None:
        merged(wrapslide(n, c), merge)  # a bad --merge is refused before any work
    elif off != 1 or tries is not None or solve_left is not None or fresh:
        given = (
            "--off"
            if off != 1
            else "--tries"
            if tries is not None
            else "--solve-left"
            if solve_left is not None
            else "--fresh"
        )
        raise InputError(f"{given} belongs to the bound by merging colours: it needs --merge")
    store = Store.open(db, write=True)
    found, missing = bd.compute(store, n, c)
    if merge is not None:
        given = {k: v for k, v in dict(tries=tries, solve_left=solve_left).items() if v is not None}
        found.append(by_merging(store, n, c, merge, off=off, fresh=fresh, **given))
    bd.record(store, found)
    for b in found:
        if as_json:
            click.echo(json.dumps(b.row() | {"witness": b.witness}))
        else:
            click.echo(
                f"{n}x{n} {c} colours: {b.kind} bound {b.value} by {bd.argument(b.method, b.witness)} "
                f"({b.seconds:.2f} s)"
            )
    for line in missing:
        click.echo(f"wsdb: not proven: {line}", err=True)


@bounds.command("prove")
@click.argument("state")
@click.option(
    "--effort",
    type=float,
    default=None,
    metavar="M",
    help="Work for the proof, in millions of nodes (as for `wsdb solve`).",
)
@click.option(
    "--method",
    type=click.Choice(["optimal", "meet"]),
    default="optimal",
    show_default=True,
    help="optimal: IDA* (exact when it finishes). meet: meet in the middle with the stored "
    "partial tree (8x8 two colours: a bound past the tree).",
)
@click.option(
    "--at-least",
    "at_least",
    type=int,
    default=None,
    metavar="K",
    help="Prove only that STATE has no answer shorter than K moves (IDA*, one bound at a time, "
    "stopping before K: the iteration that would find its answer costs as much as all "
    "before it). 6x6 three and four colours; each bound costs 10-13 times the one before; "
    "without --effort it runs until proven.",
)
@click.option(
    "--engine",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="--at-least only. local: this process. dask: each bound cut into shares searched by "
    "Dask workers, which open --db themselves (a shared file or a server; docs/scale.md).",
)
@click.option(
    "--fresh",
    is_flag=True,
    help="--at-least only. Search every share again instead of resuming from those the database "
    "keeps; each must agree with the one kept.",
)
@dask_options
@db_option
@json_option
@quiet_option
@clean_errors
def bounds_prove(state, effort, method, at_least, engine, fresh, scheduler, workers, worker_memory, db, as_json, quiet):
    """Prove a lower bound on the God number of STATE's grid from STATE:
    its distance proven by IDA* (`wsdb solve STATE --method optimal`), or
    the lower bound the search proved within the effort. Stored with the
    state, the seconds the proof took and the command that proves it again.

    With --at-least each bound is searched in shares, kept in the database
    as they finish: a proof stopped (Ctrl-C, a kill, --effort spent) goes on
    from there when the same command runs again.

    \b
      wsdb bounds prove 312141/241143/323231/234224/231431/432414 --at-least 17
      wsdb bounds prove 213433/312421/413141/234414/114232/224323 --at-least 21 \\
          --engine dask --scheduler tcp://10.0.0.5:8786
    """
    from .bounds import arguments as bd
    from .db.store import Store

    if at_least is not None and method != "optimal":
        raise InputError("--at-least is proven by IDA* (--method optimal), not by meet in the middle")
    if fresh and at_least is None:
        raise InputError("--fresh is for --at-least proofs, whose shares are kept")
    check_dask_options(engine, {"--scheduler": scheduler, "--workers": workers, "--worker-memory": worker_memory})
    dask = dict(scheduler=scheduler, workers=workers, memory=worker_memory) if engine == "dask" else None
    store = Store.open(db, write=True)
    b = bd.by_state(state, db=db, effort=effort, method=method, at_least=at_least, dask=dask, fresh=fresh)
    bd.record(store, [b])
    if as_json:
        click.echo(json.dumps(b.row() | {"witness": b.witness}))
        return
    how = (
        "its distance, proven optimal"
        if b.witness["optimal"]
        else f"no answer of fewer moves{'; the effort ran out' if b.value < (at_least or 0) else ''}"
        if at_least is not None
        else "a proven lower bound on its distance"
    )
    click.echo(f"{_grid_name(b)}: God number >= {b.value} ({how}) in {b.seconds:.1f} s; again: `{b.command}`")
    if b.witness.get("shares_left"):
        click.echo(
            f"{b.witness['shares_left']} shares of bound {b.value} are left to search; the database keeps "
            "those searched, and the same command goes on from them"
        )


def _grid_name(b) -> str:
    return f"{b.n}x{b.n} {b.c} colours"


@main.command("random")
@draw_options(1, 10_000_000, "How many states.", colours=False)
@click.option(
    "--depth",
    type=click.IntRange(0),
    default=None,
    metavar="D",
    help="Only states exactly D moves from solved, drawn uniformly from the stored "
    "tree's level D (a partial tree's levels serve up to its depth).",
)
@columns_option
@puzzle_options
@quiet_option
@db_option
@json_option
@clean_errors
def random_cmd(n, c, count, seed, depth, m, puzzle, goal, quiet, db, as_json):
    """Print uniformly random states, one per line: every arrangement of
    the colours is equally likely (a random permutation of the cells, not a
    random walk from solved). Pipe them to `lookup -` or `solve -`.

    With --depth D, every state exactly D moves from solved is equally
    likely: a puzzle of known difficulty, or a sample of one level, drawn
    from the stored tree, e.g. `wsdb random --n 6 --c 2 --depth 12`.

    Another puzzle's moves may reach only some arrangements: its states are
    drawn uniformly from its complete stored tree (`wsdb build --puzzle`),
    e.g. `wsdb random --puzzle rubeish --n 3 --count 5`.

    \b
    Examples:
      wsdb random --n 6 --c 3 --count 5 --seed 1
      wsdb random --n 6 --c 2 --depth 12 --json
      wsdb random --n 4 --c 4 --count 100 | wsdb lookup -
    """
    from .puzzle.model import drawn, from_tree
    from .puzzle.text import state_texts

    p = _board(puzzle, n, m, c, goal)
    sampler = None
    if from_tree(p, depth):
        from .db.sample import TreeSampler

        sampler = TreeSampler(p, db, depth=depth)
    seed = _seed_or_fresh(seed)
    start = 0
    for cells in drawn(p, count, seed, sampler):  # in chunks of one stream: the same states whatever the chunking
        lines = state_texts(p, cells)
        if as_json:
            head = {"n": n, "c": p.c} if p.roots else {"puzzle": puzzle, "n": n, "goal": p.goal}
            head = head if depth is None else {**head, "depth": depth}
            lines = [json.dumps({**head, "seed": seed, "index": start + i, "state": x}) for i, x in enumerate(lines)]
        start += len(cells)
        click.echo("\n".join(lines))


def _seed_or_fresh(seed: int | None) -> int:
    """The seed given, or a fresh one, printed so the draw can be repeated."""
    if seed is None:
        import secrets

        seed = secrets.randbits(32)
        click.echo(f"wsdb: seed {seed}", err=True)
    return seed


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@grid_options(required=False)
@columns_option
@puzzle_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["csv", "jsonl", "parquet"]),
    default=None,
    help="Default: from FILE's suffix (.csv, .jsonl, .parquet); csv for -.",
)
@quiet_option
@db_option
@clean_errors
def export(file, n, c, root, m, puzzle, goal, fmt, quiet, db):
    """Write the classes of one build to FILE (CSV, JSON lines or Parquet):
    rep, grid, depth, parent, orbit_size. FILE - is standard output. Streams
    in chunks, so big builds export in bounded memory; a file appears only
    when it is complete. A Parquet file names its tree and the wsdb that
    wrote it in its metadata. Parquet needs pyarrow (pip install
    'wsdb[parquet]'). Another puzzle's tree with --puzzle (and --goal, or
    --m for the sliding puzzle).

    \b
    Examples:
      wsdb export c4.parquet --n 4 --c 4
      wsdb export - --n 4 --c 3 | head                      # CSV to standard output
      wsdb export - --n 4 --c 3 --format jsonl | jq .depth
      wsdb export tiles.csv --puzzle sliding --n 2 --m 3"""
    from .puzzle.catalog import describe
    from .puzzle.tree_key import TreeKey
    from .stats.export import export as run_export

    if n is None:
        raise InputError("give --n, the board size (and --c for Wrapslide)")
    board = _board(puzzle, n, m, c, goal)
    rows = run_export(n, c, file, fmt, db, root, puzzle=board)
    what = describe(TreeKey.of(board, root if board.roots else None))[0]
    if file == "-":  # standard output holds the rows: the summary goes to stderr
        if not quiet:
            click.echo(f"wsdb: wrote {rows:,} classes of {what}", err=True)
    else:
        click.echo(f"wrote {rows:,} classes of {what} to {file}")
