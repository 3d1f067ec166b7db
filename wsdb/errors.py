"""The exception types the CLI turns into a clean one-line message."""


class WsdbError(Exception):
    """Bad input or an unusable database: the message says what is wrong and
    what was expected. The CLI prints it on one line and exits with status 2."""


class DamagedError(WsdbError):
    """Stored facts that contradict each other, found while answering: an
    answer built on them would be wrong, so none is given. The message names
    the build and the first bad row and points at `wsdb verify`; the CLI
    exits with status 1 (as `verify` does on damage), the API answers 500."""
