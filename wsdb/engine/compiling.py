"""Compiles announce themselves, and each kernel is compiled once.

numba compiles a kernel the first time it is called with new argument types
and caches it on disk (``cache=True``): once per install, seconds to a
minute a kernel, which would otherwise be a silent wait in the middle of a
build or a solve. numba's event API (``numba:compile``, fired only when a
kernel is really compiled, not when it is loaded from the cache) opens a
:func:`wsdb.notices.step` for the outermost compile on each thread, so a
compile longer than two seconds is announced with its kernel's name and
closed with its time.

A writable array and a read-only one (a table memory-mapped from the cache)
are two argument types to numba, so a kernel called with both is compiled
twice. The tables a kernel only reads are handed to it through
:func:`read_only`, whichever way they were made."""

from __future__ import annotations

import threading

import numpy as np
from numba.core import event

from ..notices import step

_registered = False


class _Announce(event.Listener):
    def __init__(self):
        self.local = threading.local()

    def on_start(self, ev):
        open_steps = self.local.__dict__.setdefault("open", [])
        if not open_steps:  # callees compiled inside a kernel's compile are part of it
            name = getattr(getattr(ev.data.get("dispatcher"), "py_func", None), "__name__", "a kernel")
            cm = step(f"compiling kernel {name}", "numba, once per install: seconds to a minute")
            cm.__enter__()
            open_steps.append(cm)
        else:
            open_steps.append(None)

    def on_end(self, ev):
        cm = self.local.open.pop()
        if cm is not None:
            cm.__exit__(None, None, None)


def announce_compiles() -> None:
    """Register the listener (once per process)."""
    global _registered
    if not _registered:
        event.register("numba:compile", _Announce())
        _registered = True


def read_only(array: np.ndarray) -> np.ndarray:
    """A read-only view of ``array`` (no copy): the one type the kernels
    that only read a table are compiled for."""
    if not array.flags.writeable:
        return array
    view = array.view()
    view.flags.writeable = False
    return view
