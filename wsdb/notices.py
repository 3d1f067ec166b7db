"""What wsdb says while it works, so that no wait of over 2 seconds is
silent: deriving tables, compiling kernels, a long level of a search.

Everything said is a record of the ``wsdb`` logger (:data:`log`, level
INFO), silent until someone listens, as a library should be: the CLI
listens with a printer to stderr unless ``--quiet``; a script listens with
``logging.basicConfig(level=logging.INFO)``; :func:`listening` hands the
lines to any function (the tests, the web server's log).

Long work is a :func:`step`. It says nothing when it ends within
:data:`QUIET_FOR` seconds; past that it is shown one of two ways:

* **as a progress bar** (tqdm; ``tqdm.auto``, so a notebook's widget where
  ipywidgets is installed) where a person watches: a notebook, or a
  terminal on stderr. tqdm draws the count, the rate and the time left.
* **as log lines** everywhere else (a pipe, a log file, a test): what it is
  doing, then at least every :data:`EVERY` seconds its latest status
  (classes expanded so far and the rate, say), and how long it took.

A small ticker thread, per long step, is what keeps either alive while the
work itself reports nothing (a table derived in one call): it redraws the
bar or writes the next line. ``--quiet`` (:func:`silence`) shows neither.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

QUIET_FOR = 2.0  # seconds a step may take before it is announced
EVERY = 8.0  # seconds between a long step's lines: under the 10 s promised, with room for a GIL-bound call
REDRAW = 1.0  # seconds between redraws of a bar that counts nothing
UNCOUNTED = "{desc}: {elapsed}{postfix}"  # a bar before (or without) a count: what, how long, its status

log = logging.getLogger("wsdb")
log.addHandler(logging.NullHandler())  # a library is silent until its user configures logging

_silent = 0  # silence() blocks open: no bars, no lines
_bars: bool | None = None  # None: bars where a person watches (a notebook, a terminal)


class _Call(logging.Handler):
    """A logging handler that hands each message to a function."""

    def __init__(self, listener: Callable[[str], None]):
        super().__init__(logging.INFO)
        self.listener = listener

    def emit(self, record: logging.LogRecord) -> None:
        self.listener(record.getMessage())


def say(text: str) -> None:
    """Tell whoever listens (nobody, by default)."""
    if not _silent:
        log.info(text)


def listened() -> bool:
    """Whether anything said would reach someone: a handler other than
    logging's NullHandler on the ``wsdb`` logger or above it, taking INFO."""
    if _silent or not log.isEnabledFor(logging.INFO):
        return False
    logger: logging.Logger | None = log
    while logger is not None:
        if any(not isinstance(h, logging.NullHandler) and h.level <= logging.INFO for h in logger.handlers):
            return True
        logger = logger.parent if logger.propagate else None
    return False


@contextmanager
def listening(listener: Callable[[str], None]) -> Iterator[None]:
    """Within the block, everything said goes to ``listener`` too (through
    a handler on the ``wsdb`` logger, at INFO)."""
    handler = _Call(listener)
    before = log.level
    log.addHandler(handler)
    if log.getEffectiveLevel() > logging.INFO:
        log.setLevel(logging.INFO)
    try:
        yield
    finally:
        log.removeHandler(handler)
        log.setLevel(before)


@contextmanager
def silence() -> Iterator[None]:
    """Within the block, nothing is said or drawn (``--quiet``, the web server)."""
    global _silent
    _silent += 1
    try:
        yield
    finally:
        _silent -= 1


@contextmanager
def bars(on: bool) -> Iterator[None]:
    """Within the block, long steps are drawn as bars (``on``) or said as
    lines, whoever watches (the CLI: bars when stderr is a terminal)."""
    global _bars
    before, _bars = _bars, on
    try:
        yield
    finally:
        _bars = before


def _in_notebook() -> bool:
    shell = getattr(sys.modules.get("IPython"), "get_ipython", lambda: None)()
    return type(shell).__name__ == "ZMQInteractiveShell"


def _drawing() -> bool:
    """Whether a long step is drawn as a bar here."""
    if _silent:
        return False
    if _bars is not None:
        return _bars
    if _in_notebook():
        return True
    return stderr_is_terminal() and not listened()


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal a person reads (no stderr, or a closed one, is not)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _tqdm():
    """tqdm's bar class: the notebook widget where one can be drawn, else text."""
    if _in_notebook():
        try:
            import ipywidgets  # noqa: F401  (tqdm.auto warns and falls back without it)
            from tqdm.auto import tqdm

            return tqdm
        except ImportError:
            pass
    from tqdm import tqdm

    return tqdm


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
    the step's ticker; :meth:`count` sets it from work done and a total
    (and moves the bar, where one is drawn)."""

    def __init__(self, what: str, about: str | None, bar: Any = None):
        self.what, self.about, self.status = what, about, ""
        self.started = time.perf_counter()
        self.announced = False
        self.bar = bar

    def count(self, done: int, total: int, unit: str) -> None:
        took = max(time.perf_counter() - self.started, 1e-9)
        if done == 0:  # no rate yet (a slow item, such as a whole partition, takes minutes)
            pace = ""
        elif done >= took:
            pace = f" ({done / took:,.0f} a second)"
        else:
            pace = f" ({took / done:,.0f} s each)"
        self.status = f"{done:,} of {total:,} {unit}{pace}"
        if self.bar is not None:
            self.bar.total, self.bar.unit, self.bar.bar_format = total, f" {unit}", None  # tqdm's own bar from now
            self.bar.update(done - self.bar.n)  # tqdm keeps its delay and its redraw interval

    def counting(self, chunks: Iterable[Any], total: int, unit: str, size: Callable[[Any], int] = len) -> Iterator[Any]:
        """The chunks as they come, each counted in (``size`` items a
        chunk) once the consumer is done with it: ``total`` in all."""
        done = 0
        self.count(done, total, unit)
        for chunk in chunks:
            yield chunk
            done += size(chunk)
            self.count(done, total, unit)

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
    then kept alive every :data:`EVERY` seconds (a line) or every
    :data:`REDRAW` (a bar), and closed with its time."""
    drawing = _drawing()
    if not drawing and not listened():  # nobody watches: no bar, no ticker
        yield Step(what, about)
        return
    bar = None
    if drawing:
        desc = what + (f" ({about})" if about else "")
        bar = _tqdm()(
            desc=desc,
            total=None,
            delay=QUIET_FOR,
            leave=True,
            file=sys.stderr,
            dynamic_ncols=True,
            bar_format=UNCOUNTED,
        )
    st = Step(what, about, bar)
    done = threading.Event()
    if QUIET_FOR <= 0 and bar is None:  # announced at once
        say(st.line())

    def tick() -> None:
        wait = QUIET_FOR if QUIET_FOR > 0 else (REDRAW if bar is not None else EVERY)
        while not done.wait(wait):
            if bar is not None:
                st.announced = True
                if st.status and bar.total is None:  # an uncounted step's status beside its time
                    bar.set_postfix_str(st.status, refresh=False)
                bar.update(0)  # redrawn through tqdm's own path: the elapsed time moves even when nothing counts
                wait = REDRAW
            else:
                say(st.line())
                wait = EVERY

    timer = threading.Thread(target=tick, daemon=True)
    timer.start()
    try:
        yield st
    finally:
        done.set()
        timer.join()
        if bar is not None:
            if st.announced or time.perf_counter() - st.started >= QUIET_FOR:
                bar.close()
            else:  # ended within the quiet time: leave no trace
                bar.leave = False
                bar.close()
        elif st.announced:
            say(f"{what}: done in {time.perf_counter() - st.started:.1f} s")
