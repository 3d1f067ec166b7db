"""The ``wsdb`` command line: parse arguments, call the library, print.

Every error the library raises as WsdbError is printed as one line on stderr
with exit status 2; nothing here talks SQL or touches kernels.
"""
from __future__ import annotations

import functools
import json
import sys

import click

from .errors import WsdbError

DB_HELP = "Database file or sqlite:/// URL (default: $WSDB_DB, else db/wsdb.sqlite)."


def db_option(f):
    return click.option("--db", metavar="PATH_OR_URL", default=None, help=DB_HELP)(f)


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Print JSON (one object per line) for scripts.")(f)


def clean_errors(f):
    """Turn WsdbError into one line on stderr and exit status 2."""
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except WsdbError as e:
            click.echo(f"wsdb: {e}", err=True)
            sys.exit(2)
    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="wsdb")
def main():
    """God-number databases and solvers for the puzzle Wrapslide.

    \b
    Typical session:
      wsdb build --n 4 --c 4            # every 4x4 four-colour class, ~2 s
      wsdb lookup 1212/3434/1243/3421   # distance and an optimal sequence
      wsdb apply 1212/3434/1243/3421 T1 R1 B1   # check moves by hand
      wsdb verify --n 4 --c 4           # prove the stored tree right
      wsdb solve 123412/341234/214321/432143/123412/341234   # any grid
      sqlite3 db/wsdb.sqlite "select * from levels where n=4 and c=4"

    States are n lines of n symbols, or one line with rows split by '/', ','
    or spaces, or n*n symbols in a row; any 2-4 distinct symbols name the
    colours. Moves are in the thesis' notation: Tk/Bk slide the top/bottom
    half k cells left, Lk/Rk slide the left/right half k cells up.
    """


@main.command()
@click.option("--n", "n", type=int, required=True, help="Grid size (even; 4, 6, 8 are the game's).")
@click.option("--c", "c", type=int, required=True, help="Number of colours, 2-4.")
@click.option("--max-depth", type=int, default=None, metavar="D",
              help="Stop after depth D. Default: to the end for 4x4 and 6x6 two colours; "
                   "8 for 6x6 three and four colours; 7, 6, 7 for 8x8 two, three, four colours.")
@click.option("--root", type=click.Choice(["all", "single"]), default="all", show_default=True,
              help="Grow from all solved states (true distances) or from the thesis' single root "
                   "(reproduces its Table 3.4 for three colours).")
@click.option("--force", is_flag=True, help="Rebuild even if a finished build is stored.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
@db_option
@json_option
@clean_errors
def build(n, c, max_depth, root, force, quiet, db, as_json):
    """Breadth-first search over symmetry classes from the solved states,
    storing one row per class (representative, depth, parent, orbit size).

    Prints one progress line per level on stderr. The write is a single
    transaction: an interrupted build leaves the database as it was.
    """
    from .build import build as run_build

    def progress(level, seconds):
        if not quiet:
            click.echo(f"depth {level.depth:3d}  {level.classes:>13,} classes  {level.states:>22,} states"
                       f"  {seconds:8.2f} s", err=True)

    try:
        tree, row = run_build(n, c, db=db, max_depth=max_depth, root=root, force=force, progress=progress)
    except KeyboardInterrupt:
        click.echo("wsdb: build interrupted; the database is unchanged", err=True)
        sys.exit(130)
    if as_json:
        click.echo(json.dumps(row))
    elif tree is None:
        click.echo(f"{n}x{n} {c}-colour ({root} roots) already built on {row['built_at']}: "
                   f"{row['classes']:,} classes, height {row['height']}. Use --force to rebuild.")
    else:
        what = (f"God number {row['god_number']}" if row["complete"]
                else f"depths 0-{row['height']} (partial)")
        click.echo(f"{n}x{n} {c}-colour: {row['classes']:,} classes, {row['states']:,} states, {what}; "
                   f"{row['seconds']:.2f} s search")


def _read_states(state: str) -> list[str]:
    if state != "-":
        return [state]
    lines = [ln.strip() for ln in sys.stdin]
    return [ln for ln in lines if ln and not ln.startswith("#")]


@main.command()
@click.argument("state")
@db_option
@json_option
@clean_errors
def lookup(state, db, as_json):
    """Optimal distance of STATE and one optimal move sequence.

    STATE '-' reads one state per line from stdin (batch mode). Every
    sequence can be checked with `wsdb apply STATE MOVES...`.
    """
    from .query import lookup_many

    for ans in lookup_many(_read_states(state), db=db):
        if as_json:
            click.echo(json.dumps(ans.to_dict()))
        elif ans.distance is None:
            click.echo(f"{ans.state}: more than {ans.more_than} moves (beyond the stored partial tree)")
        else:
            seq = " ".join(ans.moves) if ans.moves else "(solved)"
            click.echo(f"{ans.state}: {ans.distance} moves: {seq}")


@main.command()
@click.argument("state")
@click.option("--method", type=click.Choice(["auto", "beam", "thesis", "optimal"]), default="auto",
              show_default=True,
              help="auto: the stored optimal answer when the state's class is in the database, else "
                   "beam. beam: wsdb's search guided by gather distances. thesis: the thesis' "
                   "heuristic (chapter 4). optimal: IDA*, proves optimality (6x6 up to three colours "
                   "in seconds; four colours rarely finish).")
@click.option("--time-limit", type=float, default=None, metavar="S",
              help="Seconds per state (default 10). When it runs out the best verified sequence "
                   "found so far is printed and marked.")
@click.option("--length-only", is_flag=True,
              help="Report the length without the moves (skips rebuilding the stored tail).")
@db_option
@json_option
@clean_errors
def solve(state, method, time_limit, length_only, db, as_json):
    """A short (often optimal) move sequence solving STATE, with a proven
    lower bound on the optimal length.

    STATE '-' reads one state per line from stdin. Every sequence is checked
    by applying it before it is printed. Build the databases first for the
    best answers: the two-colour database of the same size gives the gather
    distances that guide the search and bound it from below, the state's own
    (partial) tree gives exact endgames:

    
      wsdb build --n 6 --c 2 && wsdb build --n 6 --c 4    # ~30 s + ~40 s
      wsdb solve 123412/341234/214321/432143/123412/341234
    """
    from .solve import iter_solve

    for sol in iter_solve(_read_states(state), db=db, method=method, time_limit=time_limit,
                          length_only=length_only):
        if as_json:
            click.echo(json.dumps(sol.to_dict()))
            continue
        proof = "optimal (proven)" if sol.optimal else f"lower bound {sol.lower_bound}"
        seq = "(length only)" if sol.moves is None else (" ".join(sol.moves) or "(solved)")
        click.echo(f"{sol.state}: {sol.length} moves, {proof}; {sol.method}, {sol.seconds:.2f} s")
        click.echo(f"  {seq}")
        if sol.timed_out:
            click.echo("  time limit reached: this is the best verified sequence found so far", err=True)
        if sol.note:
            click.echo(f"  note: {sol.note}", err=True)


@main.command()
@click.argument("state")
@click.argument("moves", nargs=-1)
@json_option
@clean_errors
def apply(state, moves, as_json):
    """Print STATE after MOVES (e.g. `wsdb apply 1212/3434/1243/3421 T1 R1`)."""
    from .puzzle import format_state, parse_state

    puzzle, cells = parse_state(state)
    names = [m for arg in moves for m in arg.replace(",", " ").split()]
    out = puzzle.apply(cells, names)
    if as_json:
        click.echo(json.dumps({"state": format_state(cells, puzzle.n), "moves": names,
                               "result": format_state(out, puzzle.n), "solved": puzzle.is_solved(out)}))
    else:
        click.echo(format_state(out, puzzle.n) + ("  (solved)" if puzzle.is_solved(out) else ""))


@main.command()
@click.option("--n", "n", type=int, required=True, help="Grid size.")
@click.option("--c", "c", type=int, required=True, help="Number of colours.")
@click.option("--root", type=click.Choice(["all", "single"]), default="all", show_default=True)
@db_option
@json_option
@clean_errors
def verify(n, c, root, db, as_json):
    """Prove a stored build right: parents one level up and one move away,
    neighbours at most one level deeper, counts and orbit sizes consistent.
    Exit 1 naming the first violation."""
    from dataclasses import asdict

    from .puzzle import check_grid
    from .verify import verify as run_verify

    check_grid(n, c)
    report = run_verify(n, c, db=db, root=root)
    if as_json:
        click.echo(json.dumps(asdict(report)))
    else:
        for check in report.checks:
            click.echo(f"ok  {check}")
        if report.ok:
            click.echo(f"{n}x{n} {c}-colour: {report.classes:,} classes, {report.states:,} states verified")
        else:
            click.echo(f"FAILED  {report.problem}")
    sys.exit(0 if report.ok else 1)


@main.command()
@click.option("--n", "n", type=int, default=None, help="Show the levels of this grid size.")
@click.option("--c", "c", type=int, default=None, help="... and colour count.")
@click.option("--root", type=click.Choice(["all", "single"]), default="all", show_default=True)
@db_option
@json_option
@clean_errors
def info(n, c, root, db, as_json):
    """List stored builds, or with --n/--c the classes and states per depth."""
    from .store import Store

    store = Store.open(db)
    if n is None or c is None:
        rows = store.build_rows()
        if as_json:
            click.echo(json.dumps(rows))
        for r in [] if as_json else rows:
            god = f"God number {r['god_number']}" if r["complete"] else f"partial to depth {r['height']}"
            click.echo(f"{r['n']}x{r['n']} {r['c']}-colour ({r['root']} roots): {r['classes']:,} classes, "
                       f"{r['states']:,} states, {god}; built {r['built_at']} in {r['seconds']:.1f} s")
        return
    store.require_build(n, c, root)
    rows = store.level_rows(n, c, root)
    if as_json:
        click.echo(json.dumps(rows))
        return
    click.echo(f"{'depth':>5} {'classes':>14} {'states':>22}")
    for r in rows:
        click.echo(f"{r['depth']:>5} {r['classes']:>14,} {r['states']:>22,}")
