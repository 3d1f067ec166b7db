"""What a stored build proves about its puzzle's God number, read from its
`builds` row (shared by the figures of :mod:`wsdb.stats` and the bounds of
:mod:`wsdb.bounds`)."""

from __future__ import annotations


def proven_god_number(build: dict, puzzle) -> int | None:
    """The God number a stored build proves: a complete tree's, or the
    height of one stopped at its depth limit whose levels hold every state
    of a puzzle whose every arrangement can be solved (the level past it,
    never grown, is empty); None where it proves none."""
    if build["complete"]:
        return build["god_number"]
    if puzzle.every_arrangement and build["states"] == puzzle.arrangements:
        return int(build["height"])
    return None
