"""Exact tables: store the breadth-first tree of classes, look states up in
it, prove it right. Imports :mod:`wsdb.engine` and :mod:`wsdb.puzzle`,
never the solver.

* :mod:`.build`      the search of :mod:`wsdb.engine.bfs`, level by level into the database (thesis §3.3)
* :mod:`.tree_writer` a build row's life: claimed, begun or resumed, a level put at a time, finished
* :mod:`.import_levels` Parquet levels loaded as class rows (``wsdb import``)
* :mod:`.proven`     what a stored build proves of its God number
* :mod:`.lookup`     distance and an optimal sequence by parent pointers (§4.2)
* :mod:`.verify`     proofs over the stored rows
* :mod:`.schema`     the tables, as SQLAlchemy describes them for queries
* :mod:`.connection` how a connection is opened, and what a failed write says
* :mod:`.store`      every query (SQLite, PostgreSQL)
* :mod:`.tree_tables` PostgreSQL only: one table of class rows per tree
* :mod:`.reader`     a lookup's two queries on a SQLite file, without SQLAlchemy
* :mod:`.status`     whether a build is running, interrupted or missing
* :mod:`.location`   which database --db / $WSDB_DB / the default names
* :mod:`.cache`      arrays derived from a build, cached beside the file
* :mod:`.census_cache` a two-colour grid's census and its levels, cached under a digest of its rules
* :mod:`.sample`     uniform random states from a complete stored tree
* :mod:`.grid_sql`   the SQL that computes ``classes.grid`` (frozen into the migrations)
* :mod:`.levels`     a tree kept as Parquet levels: the manifest, partition files, lookups on them
* :mod:`.distributed` the search on Dask distributed, a level at a time (``build --engine dask``)
* :mod:`.migrations` the schema, as Alembic revisions
"""
