"""4x4 states written from the rules alone, not from wsdb: the bounds'
tests check wsdb's phases and liftings against them."""

import itertools

import numpy as np


def holds(bounds, god):
    """Every lower bound at most the God number, every upper bound at least it."""
    return all(b.value <= god if b.kind == "lower" else b.value >= god for b in bounds)


def quadrant_cells(n, quad):
    h = n // 2
    r0, c0 = divmod(quad, 2)
    return [(r0 * h + r) * n + c0 * h + c for r in range(h) for c in range(h)]


def arrangements(size, colours, counts):
    """Every sequence of ``size`` cells holding counts[i] of colours[i]."""
    if not colours:
        yield []
        return
    for picked in itertools.combinations(range(size), counts[0]):
        for rest in arrangements(size - counts[0], colours[1:], counts[1:]):
            it = iter(rest)
            yield [colours[0] if k in picked else next(it) for k in range(size)]


def gathered(n, counts, first):
    """Every 4x4 state whose colours 0..first-1 each fill a whole quadrant
    (written from the rules, not from wsdb): the states the later phase
    starts from."""
    out = []
    for quads in itertools.permutations(range(4), first):
        rest = [cell for cell in range(n * n) if not any(cell in quadrant_cells(n, q) for q in quads)]
        for fill in arrangements(len(rest), list(range(first, len(counts))), list(counts[first:])):
            cells = np.zeros(n * n, np.uint8)
            for colour, q in enumerate(quads):
                cells[quadrant_cells(n, q)] = colour
            cells[rest] = fill
            out.append(cells)
    return np.unique(np.array(out), axis=0)
