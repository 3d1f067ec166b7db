"""``python -m wsdb``: the same as the ``wsdb`` command."""
from .cli import entry

entry()
