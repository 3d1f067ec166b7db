"""What can go wrong, as exception types a caller can catch by meaning.

Every one is a :class:`WsdbError` (the CLI prints its message on one line
and exits with status 2, or 1 for :class:`DamagedError`), and each also
subclasses the builtin exception it means, so code that knows nothing of
wsdb catches it as it would any library's::

    WsdbError
    ├── InputError (ValueError)            a bad option, move, method or limit
    │   └── StateError                     a state that does not parse or fit the puzzle
    ├── NotBuiltError (LookupError)        the tree, run or bound an answer needs is not stored
    ├── MissingDatabaseError (FileNotFoundError)   no database or levels where they were named
    ├── StorageError (OSError)             a database or file that cannot be read, written or
    │   │                                  locked: read-only, busy, not wsdb's, too new
    │   └── StorageFailedError             storage that failed under a read or write: an I/O
    │                                      error, a full disk, a file gone, a server lost
    ├── ClusterError (ConnectionError)     the Dask scheduler cannot be reached, or a level failed there
    └── DamagedError                       stored facts that contradict each other

The message always says what is wrong and what was expected. The CLI
exits with status 1 for :class:`DamagedError` and :class:`StorageFailedError`
(the storage, not the request, is at fault; the API answers 500), 2 for the rest.
"""


class WsdbError(Exception):
    """Bad input or an unusable database: the message says what is wrong and
    what was expected. The CLI prints it on one line and exits with status 2."""


class InputError(WsdbError, ValueError):
    """An option, move, method, limit or file format that wsdb cannot take."""


class StateError(InputError):
    """A state that does not parse, or does not fit the puzzle (its size,
    colours or symbols), or that the puzzle's moves cannot reach."""


class NotBuiltError(WsdbError, LookupError):
    """What the answer needs is not stored: a tree (or not deep enough), a
    solver run, a bound or a proof. The message names the command that
    would make it."""


class MissingDatabaseError(WsdbError, FileNotFoundError):
    """No database, folder or levels where they were named."""


class StorageError(WsdbError, OSError):
    """A database, folder or file that cannot be used: read-only, full,
    locked by another process, not a wsdb database, or of a newer schema."""


class StorageFailedError(StorageError):
    """Storage that failed in the middle of a read or write: SQLite's I/O
    error, a full disk, a file that cannot be opened any more, a PostgreSQL
    server whose connection was lost. Nothing stored was changed by the
    attempt; the message names the database and what to run next. The CLI
    exits with status 1, the API answers 500."""


class ClusterError(WsdbError, ConnectionError):
    """The Dask scheduler cannot be reached, or a level failed on its
    workers (the finished levels are kept)."""


class DamagedError(WsdbError):
    """Stored facts that contradict each other, found while answering: an
    answer built on them would be wrong, so none is given. The message names
    the build and the first bad row and points at `wsdb verify`; the CLI
    exits with status 1 (as `verify` does on damage), the API answers 500.
    A SQLite file whose pages are damaged (SQLITE_CORRUPT, SQLITE_NOTADB) or
    whose tables are gone is damaged too."""


#: The errors that are the storage's fault, not the request's: exit 1, HTTP 500
SERVER_FAULTS = (DamagedError, StorageFailedError)
