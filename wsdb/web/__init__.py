"""``wsdb serve``: a page to paint a state and watch it solved, over a JSON
API whose answers are the CLI's ``--json`` (FastAPI under uvicorn).

* :mod:`.app`     the API, the page's route, :func:`serve`
* ``static/``     the page: plain HTML, CSS and JavaScript, no build step
"""
from .app import create_app, serve

__all__ = ["create_app", "serve"]
