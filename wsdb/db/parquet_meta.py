"""What every Parquet file wsdb writes (a tree's levels, an export) says
about itself, so that a file found alone names its tree and the code that
made it, and reads back with the right column types.

Key-value metadata (``pyarrow.parquet.read_metadata(f).metadata``, DuckDB's
``parquet_kv_metadata``): ``wsdb.puzzle``, ``wsdb.n``, ``wsdb.c``,
``wsdb.root``, ``wsdb.symmetry`` (the group the classes are taken under,
thesis §3.2), ``wsdb.version`` (wsdb/version.py).

Parquet holds a missing parent (the roots, depth 0) as a null; pandas would
read such an integer column as float64 and lose keys above 2**53. The
``pandas`` entry pandas itself writes (``DataFrame.to_parquet``) says which
columns are its nullable integers (``Int64``, ``UInt64``); it is written
here too, so ``pandas.read_parquet`` and Dask give integers back.
"""

from __future__ import annotations

import json

from ..puzzle.tree_key import TreeKey
from ..version import current as current_version

PREFIX = "wsdb."


def symmetry_of(puzzle) -> str:
    """The symmetry group of a puzzle's classes, in words: '32 grid maps x
    4! colour permutations (order 768)'."""
    maps = len(getattr(puzzle, "maps", ())) or 1
    colours = int(getattr(puzzle, "interchangeable", 0) or 0)
    order = getattr(puzzle, "group_order", maps)
    return (
        f"{maps} grid maps x {colours}! colour permutations (order {order})"
        if colours > 1
        else f"{maps} grid maps (order {order})"
    )


def tree_metadata(tree: TreeKey, puzzle) -> dict[str, str]:
    """The key-value metadata of a file holding classes of ``tree``."""
    facts = dict(
        puzzle=tree.puzzle, n=tree.n, c=tree.c, root=tree.root, symmetry=symmetry_of(puzzle), version=current_version()
    )
    return {PREFIX + k: str(v) for k, v in facts.items()}


def read_tree_metadata(metadata: dict[bytes, bytes] | None) -> dict[str, str]:
    """The ``wsdb.*`` entries of a file's key-value metadata, without the prefix."""
    return {
        k.decode()[len(PREFIX) :]: v.decode()
        for k, v in (metadata or {}).items()
        if k.decode(errors="replace").startswith(PREFIX)
    }


def with_metadata(schema, facts: dict[str, str], nullable: dict[str, str]):
    """``schema`` carrying ``facts`` and pandas' entry for its columns,
    where ``nullable`` names the integer columns that may hold nulls and
    the pandas dtype they read back as ('Int64' or 'UInt64')."""
    import numpy as np
    import pandas

    columns = []
    for field in schema:
        text = str(field.type) == "string"
        numpy_type = nullable.get(field.name) or np.dtype(field.type.to_pandas_dtype()).name
        columns.append(
            dict(
                name=field.name,
                field_name=field.name,
                pandas_type="unicode" if text else str(field.type),
                numpy_type=numpy_type,
                metadata=None,
            )
        )
    pandas = dict(
        index_columns=[],
        column_indexes=[],
        columns=columns,
        creator=dict(library="wsdb", version=current_version()),
        pandas_version=pandas.__version__,
    )
    meta = {k.encode(): v.encode() for k, v in facts.items()}
    meta[b"pandas"] = json.dumps(pandas).encode()
    return schema.with_metadata(meta)
