"""The one exception type the CLI turns into a clean one-line message."""


class WsdbError(Exception):
    """Bad input or an unusable database: the message says what is wrong and
    what was expected. The CLI prints it on one line and exits with status 2."""
