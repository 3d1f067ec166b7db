"""PostgreSQL only: tree tables. ``class_rows`` is partitioned by tree, one
table per (n, c, root, puzzle number) (in PostgreSQL's words, a range
partition; "tree table" here, since a partition in wsdb is a hash share of
a Dask level), each with its own primary key on ``rep`` (migration 0007).
SQLite keeps one table; nothing here runs on it.

Why: a B-tree insert into the one key (n, c, root, puzzle_id, rep) costs a
descent comparing four equal columns (one of them text) before the NUMERIC
key, and a level's rows land all over it: 6x6 two colours took 2.7 times
SQLite's build even through COPY. A tree table is filled by COPY
with no index while it is built, and its key on ``rep`` alone is made once
the build is finished, by one sort, in the same transaction that marks
the build done (:func:`add_key`). Reads name (n, c, root, puzzle_id), so
PostgreSQL reads the one tree table and its key. A build taken deeper, or
resumed, drops the key first (:func:`drop_key`) and makes it again at the
end.
"""

from __future__ import annotations

import hashlib

from ..puzzle.tree_key import TreeKey


def tree_table(tree: TreeKey, puzzle_id: int) -> str:
    """The tree table's name: readable where it can be, and short (a
    goal of another puzzle can be long; PostgreSQL cuts names at 63 bytes)."""
    n, c = int(tree.n), int(tree.c)
    digest = hashlib.sha1(f"{n}|{c}|{tree.root}|{puzzle_id}".encode()).hexdigest()[:10]
    return f"class_rows_{n}_{c}_{int(puzzle_id)}_{digest}"


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def create_tree_table(conn, tree: TreeKey, puzzle_id: int) -> None:
    """A new, empty tree table, without a key (the old one, if any, is
    dropped: it is the tree being started afresh)."""
    name = tree_table(tree, puzzle_id)
    n, c, root = int(tree.n), int(tree.c), _literal(tree.root)
    bounds = f"({n}, {c}, {root}, {int(puzzle_id)})"
    upper = f"({n}, {c}, {root}, {int(puzzle_id) + 1})"
    conn.exec_driver_sql(f"DROP TABLE IF EXISTS {name}")
    conn.exec_driver_sql(f"CREATE TABLE {name} PARTITION OF class_rows FOR VALUES FROM {bounds} TO {upper}")


def add_key(conn, tree: TreeKey, puzzle_id: int) -> None:
    """The tree table's primary key on ``rep``, made by one sort, if it has
    none: a stored tree holds each class once, and a lookup finds it."""
    name = tree_table(tree, puzzle_id)
    conn.exec_driver_sql(f"""DO $$ BEGIN
        IF to_regclass('{name}') IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM pg_constraint WHERE conrelid = '{name}'::regclass AND contype = 'p') THEN
          ALTER TABLE {name} ADD PRIMARY KEY (rep);
        END IF; END $$""")


def drop_key(conn, tree: TreeKey, puzzle_id: int) -> None:
    """Drop the tree table's key while the tree grows (made again by :func:`add_key`)."""
    name = tree_table(tree, puzzle_id)
    conn.exec_driver_sql(f"ALTER TABLE IF EXISTS {name} DROP CONSTRAINT IF EXISTS {name}_pkey")
