"""``wsdb serve``: a page to paint a state and watch it solved, over a JSON
API whose answers are the CLI's ``--json`` (FastAPI under uvicorn).

* :mod:`.app`       the application (:func:`create_app`), the page's routes, :func:`serve`
* :mod:`.routes`    the API's endpoints, one function each
* :mod:`.models`    what the API reads and answers
* :mod:`.guards`    the request-body cap and the search gate
* :mod:`.settings`  the server's limits and defaults (``wsdb serve``'s options read them)
* ``static/``       the page: plain HTML, CSS and JavaScript, no build step

:func:`create_app` and :func:`serve` load FastAPI when first asked for, so
the command line reads the defaults without it.
"""

from importlib import import_module

__all__ = ["create_app", "serve"]


def __getattr__(name: str):
    if name in __all__:
        return getattr(import_module("wsdb.web.app"), name)
    raise AttributeError(f"module 'wsdb.web' has no attribute {name!r}")
