"""The ``wsdb`` command and ``python -m wsdb``.

Ctrl-C while Python is still importing the command line (its first tenth
of a second) would end in a KeyboardInterrupt traceback: until the command
line is loaded, Ctrl-C says one line and exits 130 (the handler is put in
by the package's own import, wsdb/__init__.py, which runs before this
file); then the usual handling takes over (a build keeps its finished
levels, and so on)."""

import signal

import wsdb


def main() -> None:
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:  # a background job: Ctrl-C stays ignored
        from .cli import entry
    else:
        previous = signal.signal(signal.SIGINT, wsdb._interrupted_early)
        from .cli import entry  # click, numpy and the library: the slow part of start-up

        # the handler from before the package's import when that import put in the early one
        signal.signal(signal.SIGINT, wsdb.SIGINT_BEFORE if wsdb.SIGINT_BEFORE is not None else previous)
    entry()


if __name__ == "__main__":
    main()
