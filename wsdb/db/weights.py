"""Learned guides kept beside the database (``wsdb.sqlite.learned/``), so
that the weights travel, and are versioned, with the trees they were
trained on.

A guide is one file, ``NAME.npz``, written through a temporary name and a
rename so that a reader sees the whole of one version or of the one
before: every weight array flattened into one float32 array; its
provenance as JSON (the puzzle, the recipe, seed included, the rounds
done and each round's loss, the tree its exact targets came from, the
wsdb version, when and how long, and the weights' XXH3-128 hash, which
the solver names in every answer it guides); and, while training goes
on, the run's own arrays (the target network and the optimiser's
moments), so that ``wsdb learn`` goes on from its last round. Beside it
``NAME.json`` repeats the provenance for people to read; nothing reads it
back. A file that cannot be read or whose weights do not match their hash
is refused in one line, never used.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import zipfile
from pathlib import Path

import numpy as np
import xxhash

from ..errors import DamagedError, StorageError

SUFFIX = ".learned"


def guide_folder(db_path: Path | None) -> Path | None:
    """Where a database's learned guides are kept (None in memory)."""
    return None if db_path is None else db_path.with_name(db_path.name + SUFFIX)


def guide_slug(label: str, name: str) -> str:
    """A file name for the guide ``name`` of a puzzle labelled ``label``."""
    return re.sub(r"[^A-Za-z0-9]+", "-", f"{label}-{name}").strip("-").lower()


def flatten(arrays: list[np.ndarray]) -> tuple[np.ndarray, list[list[int]]]:
    """Arrays as one float32 vector, and their shapes."""
    flat = np.concatenate([np.asarray(a, np.float32).ravel() for a in arrays]) if arrays else np.zeros(0, np.float32)
    return flat, [list(a.shape) for a in arrays]


def unflatten(flat: np.ndarray, shapes: list[list[int]]) -> list[np.ndarray]:
    """:func:`flatten` undone; ValueError when the sizes disagree."""
    sizes = [int(np.prod(s)) for s in shapes]
    if sum(sizes) != flat.size:
        raise ValueError(f"{flat.size:,} numbers where the provenance's shapes need {sum(sizes):,}")
    out, at = [], 0
    for shape, size in zip(shapes, sizes):
        out.append(np.array(flat[at : at + size], np.float32).reshape(shape))
        at += size
    return out


def save_guide(path: Path, weights: list[np.ndarray], about: dict, run: list[np.ndarray] | None = None) -> dict:
    """Write a guide's weights, its provenance (``about``, completed with
    shapes and hash) and, while training goes on, its run arrays. Returns
    the provenance written. StorageError in one line where the folder
    cannot be written (the version before, if any, is left whole)."""
    flat, shapes = flatten(weights)
    about = {**about, "shapes": shapes, "weights_xxh3_128": _hash(flat)}
    parts = {"weights": flat}
    if run is not None:
        parts["run"], about["run_shapes"] = flatten(run)
    text = json.dumps(about, indent=1)
    parts["about"] = np.frombuffer(text.encode(), np.uint8)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            np.savez(f, **parts)  # type: ignore[arg-type]  # numpy.typing reads the keywords as allow_pickle
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(path)
        with contextlib.suppress(OSError):  # for people only
            path.with_suffix(".json").write_text(text)
    except OSError as e:
        raise StorageError(f"cannot write the learned guide {path}: {e.strerror or e}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
    return about


def load_guide(path: Path) -> tuple[list[np.ndarray], dict, list[np.ndarray] | None]:
    """(weights, provenance, run arrays or None) of the guide at ``path``.
    FileNotFoundError where there is none; DamagedError in one line where
    it cannot be read or its weights do not match their hash."""
    if not path.exists():
        raise FileNotFoundError(path)
    try:
        with np.load(path) as z:
            about = json.loads(bytes(z["about"]).decode())
            flat = z["weights"]
            run_flat = z["run"] if "run" in z.files else None
        if _hash(flat) != about.get("weights_xxh3_128"):
            raise ValueError("its weights are not the ones its provenance names")
        weights = unflatten(flat, about["shapes"])
        run = None if run_flat is None else unflatten(run_flat, about["run_shapes"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
        raise DamagedError(
            f"the learned guide {path} is damaged ({e}); train it again with `wsdb learn --fresh`"
        ) from None
    return weights, about, run


def _hash(flat: np.ndarray) -> str:
    return xxhash.xxh3_128(np.ascontiguousarray(flat, np.float32).tobytes()).hexdigest()
