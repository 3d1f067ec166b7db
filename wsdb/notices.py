"""What wsdb says while it works, so that no wait of over 2 seconds is
silent: deriving tables, compiling kernels, a long level of a search.

The library says things through :func:`say` and :func:`step`; nothing is
printed unless someone listens (:func:`listening`). The CLI listens with a
printer to stderr unless ``--quiet``; the library alone, the web server and
the tests stay silent.

A :func:`step` says nothing when it ends within :data:`QUIET_FOR` seconds.
Past that it says what it is doing, then again at least every
:data:`EVERY` seconds with its latest status (for example classes expanded
so far and the rate), and how long it took when it ends.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

QUIET_FOR = 2.0     # seconds a step may take before it is announced
EVERY = 10.0        # seconds between a long step's progress lines

_listeners: list[Callable[[str], None]] = []


def say(text: str) -> None:
    """Tell whoever listens (nobody, by default)."""
    for listener in list(_listeners):
        listener(text)


@contextmanager
def listening(listener: Callable[[str], None]) -> Iterator[None]:
    """Within the block, everything said goes to ``listener`` too."""
    _listeners.append(listener)
    try:
        yield
    finally:
        _listeners.remove(listener)


def duration(seconds: float) -> str:
    """A rough length of time for people: '40 s', '12 min', '3.4 h', '2.1 days'."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def left_at_pace(seconds: float, done: int, total: int) -> str:
    """'about 2.1 h' left of ``total`` items when ``done`` took ``seconds``; '' before the first or after the last."""
    if done <= 0 or done >= total or seconds <= 0:
        return ""
    return f"about {duration(seconds / done * (total - done))}"


class Step:
    """A long piece of work: ``status`` is what it is doing now, read by
    the step's timer; :meth:`count` sets it from work done and a total."""

    def __init__(self, what: str, about: str | None):
        self.what, self.about, self.status = what, about, ""
        self.started = time.perf_counter()
        self.announced = False

    def count(self, done: int, total: int, unit: str) -> None:
        took = max(time.perf_counter() - self.started, 1e-9)
        if done == 0:   # no rate yet (a slow item, such as a whole partition, takes minutes)
            pace = ""
        elif done >= took:
            pace = f" ({done / took:,.0f} a second)"
        else:
            pace = f" ({took / done:,.0f} s each)"
        self.status = f"{done:,} of {total:,} {unit}{pace}"

    def line(self) -> str:
        seconds = time.perf_counter() - self.started
        if not self.announced:
            self.announced = True
            head = f"{self.what}" + (f" ({self.about})" if self.about else "")
            return head + (f": {self.status}" if self.status else "") + "..."
        return f"{self.what}: {self.status + ', ' if self.status else ''}{seconds:.0f} s so far"


@contextmanager
def step(what: str, about: str | None = None) -> Iterator[Step]:
    """Work that may take long: announced once it has taken
    :data:`QUIET_FOR` seconds (``about`` says roughly how long, or why),
    then every :data:`EVERY` seconds, and closed with its time."""
    st = Step(what, about)
    if not _listeners:   # nobody listens: no timer thread
        yield st
        return
    done = threading.Event()
    if QUIET_FOR <= 0:   # announced at once
        say(st.line())

    def tick() -> None:
        wait = QUIET_FOR if QUIET_FOR > 0 else EVERY
        while not done.wait(wait):
            say(st.line())
            wait = EVERY

    timer = threading.Thread(target=tick, daemon=True)
    timer.start()
    try:
        yield st
    finally:
        done.set()
        timer.join()
        if st.announced:
            say(f"{what}: done in {time.perf_counter() - st.started:.1f} s")
