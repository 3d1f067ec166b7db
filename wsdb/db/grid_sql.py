"""The SQL that computes ``classes.grid``, a class's text form, from its key
(docs/sql.md). The migrations execute this SQL as it was when
each revision was written, frozen in ``migrations/sql/``; these functions
made it, and a test checks that they still make the same text, so that a
change here comes with a new revision instead of rewriting an old one."""

from __future__ import annotations

from .schema import WRAPSLIDE


def grid_sql(max_n: int = 16) -> str:
    """The SQL expression that computes ``classes.grid``, a class's text
    form (rows joined by '/', colours 1..c), from n, c and rep, for every
    even n up to ``max_n``. ``classes`` is a view over ``class_rows`` that
    adds it: computed when read, never written, so a build stores one
    number per class instead of a string (a third less time and disk).
    Reading costs about 2 us a row for keys that are INTEGERs (every 4x4
    grid, 6x6 two colours) and 12-32 us for BLOB keys, decoded a hex digit
    at a time through a lookup string. The migrations create the view from
    this text, frozen: changing it needs a new revision that re-creates it."""
    branches = []
    for n in range(2, max_n + 1, 2):
        for two in (True, False):
            b = 1 if two else 2
            cells = n * n
            bits = b * cells
            if bits <= 63:  # an INTEGER key: each cell by arithmetic, one char() per row
                mask = (1 << b) - 1
                args = []
                for i in range(cells):
                    if i and i % n == 0:
                        args.append("47")
                    args.append(f"49+(rep>>{b * (cells - 1 - i)}&{mask})")
                expr = "||".join("char(" + ",".join(args[k : k + 100]) + ")" for k in range(0, len(args), 100))
            else:  # a BLOB key: a hex digit at a time, its cells from a lookup string
                per = 4 // b
                lut = "".join(
                    format(d, f"0{4}b") if b == 1 else "".join(str((d >> s) & 3) for s in (2, 0)) for d in range(16)
                ).translate(str.maketrans("0123", "1234"))
                parts, i = [], 0
                for j in range(bits // 4):  # hex digits of the cells, most significant first
                    digit = f"instr('123456789ABCDEF',substr(hex(rep),-{bits // 4 - j},1))*{per}+1"
                    start = 0
                    while start < per:  # split the digit's cells at row ends
                        take = min(per - start, n - i % n)
                        parts.append(
                            f"substr('{lut}',{digit}+{start},{take})" if start else f"substr('{lut}',{digit},{take})"
                        )
                        start += take
                        i += take
                        if i % n == 0 and i < cells:
                            parts.append("'/'")
                expr = "||".join(parts)
            branches.append(f"when n={n} and c{'=' if two else '>'}2 then {expr}")
    return "case " + " ".join(branches) + " end"


def puzzle_grid_sql() -> str:
    """The SQL expression that computes ``classes.grid`` for the other
    puzzles (docs/puzzles.md) from the row ``r`` of ``class_rows``: any
    board and label count, each cell's label (1-4 bits,
    :meth:`~wsdb.engine.keys.KeyLayout.for_colours`) read from the key's
    hex digits and written in the tree's own symbols (``builds.symbols``),
    in rows as long as the goal's (``root``; the sliding puzzle's boards
    are not square). One step of a recursive query per cell: about 45 us a
    row, fine for these puzzles' trees; Wrapslide's rows keep :func:`grid_sql`."""
    bits = "case when r.c <= 2 then 1 when r.c <= 4 then 2 when r.c <= 8 then 3 else 4 end"
    at = "(4 * length(x) - cells * b + i * b)"  # the cell's first bit, from the top of x
    digit = "(instr('0123456789ABCDEF', substr(x, {k}, 1)) - 1)"
    window = f"({digit.format(k=f'{at} / 4 + 1')} * 16 + max({digit.format(k=f'{at} / 4 + 2')}, 0))"
    return (
        "(with recursive k(x, b, symbols, cells, cols) as (select "
        "case typeof(r.rep) when 'integer' then printf('%016X', r.rep) else hex(r.rep) end, "
        f"{bits}, (select s.symbols from builds s join puzzles p on p.name = s.puzzle where p.id = r.puzzle_id "
        "and s.n = r.n and s.c = r.c and s.root = r.root), length(replace(r.root, '/', '')), "
        "instr(r.root || '/', '/') - 1), "
        "grid(i, text) as (select 0, '' union all select i + 1, text "
        "|| (select case when i > 0 and i % cols = 0 then '/' else '' end "
        f"|| substr(symbols, 1 + ({window} >> (8 - {at} % 4 - b) & ((1 << b) - 1)), 1) from k) "
        "from grid where i < (select cells from k)) "
        "select text from grid where i = (select cells from k))"
    )


def classes_view_sql() -> str:
    """The CREATE VIEW statement of ``classes`` (SQLite)."""
    return (
        f"create view classes as select case when r.puzzle_id = 0 then '{WRAPSLIDE}' else (select p.name "
        "from puzzles p where p.id = r.puzzle_id) end as puzzle, r.n, r.c, r.root, r.rep, case when "
        f"r.puzzle_id = 0 then {grid_sql()} else {puzzle_grid_sql()} end as grid, r.depth, r.parent, "
        "r.orbit_size from class_rows as r"
    )
