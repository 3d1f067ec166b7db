"""Exact tables: grow the breadth-first tree of classes, store it, look
states up in it, prove it right. Imports :mod:`wsdb.engine` and
:mod:`wsdb.puzzle`, never the solver.

* :mod:`.build`      breadth-first search over classes (thesis §3.3)
* :mod:`.lookup`     distance and an optimal sequence by parent pointers (§4.2)
* :mod:`.verify`     proofs over the stored rows
* :mod:`.store`      SQLAlchemy tables and every query (SQLite, PostgreSQL)
* :mod:`.reader`     a lookup's two queries on a SQLite file, without SQLAlchemy
* :mod:`.status`     whether a build is running, interrupted or missing
* :mod:`.location`   which database --db / $WSDB_DB / the default names
* :mod:`.cache`      arrays derived from a build, cached beside the file
* :mod:`.migrations` the schema, as Alembic revisions
"""
