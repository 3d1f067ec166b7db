"""The ``wsdb`` command and ``python -m wsdb``.

Ctrl-C while Python is still importing the command line (its first tenth
of a second) would end in a KeyboardInterrupt traceback: until the command
line is loaded, Ctrl-C says one line and exits 130; then the usual
handling takes over (a build keeps its finished levels, and so on)."""
import os
import signal


def _interrupted_early(signum, frame):
    os.write(2, b"wsdb: interrupted\n")
    os._exit(130)


def main() -> None:
    previous = signal.signal(signal.SIGINT, _interrupted_early)
    from .cli import entry   # click, numpy and the library: the slow part of start-up

    signal.signal(signal.SIGINT, previous)
    entry()


if __name__ == "__main__":
    main()
