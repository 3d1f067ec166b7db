"""Prove a stored build right, from the stored rows alone (SPEC §4).

Checks, in order, stopping at the first violation:
1. every stored rep is canonical, and level 0 is exactly the root classes;
2. every non-root class has its parent stored one depth up and one move away;
3. every neighbour of a class of depth d is stored with depth <= d + 1
   (for a partial tree: of every class above the deepest stored level);
4. the levels table and the build row match counts recomputed from classes;
5. orbit sizes are right, and for a complete build add up to the number of
   states (the multinomial).
Together 2 and 3 make every stored depth the true distance.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .build import roots
from .encoding import distinct, member, sortable, unsortable
from .engine import engine
from .store import Store


@dataclass
class Report:
    """Outcome of :func:`verify`: ok, or the first violation found."""

    n: int
    c: int
    root: str
    ok: bool
    classes: int
    states: int
    complete: bool
    problem: str | None = None
    checks: tuple[str, ...] = ()


def verify(n: int, c: int, db=None, root: str = "all") -> Report:
    """Check the stored (n, c) build; see the module docstring."""
    store = Store.open(db)
    build = store.require_build(n, c, root)
    eng = engine(n, c)
    layout = eng.layout
    reps, depth, parents, orbits = store.load(n, c, layout, root)
    key = sortable(reps)
    done: list[str] = []

    def fail(msg: str) -> Report:
        return Report(n, c, root, False, len(reps), int(orbits.sum()), bool(build["complete"]), msg, tuple(done))

    def name(i: int) -> str:
        return f"class {layout.to_int(reps[i])} (depth {depth[i]})"

    canon = eng.canonical(reps)
    bad = np.flatnonzero((canon != reps).any(axis=1))
    if bad.size:
        return fail(f"{name(bad[0])} is not the smallest member of its class")
    root_keys = sortable(roots(eng, root))
    level0 = key[depth == 0]
    if level0.size != root_keys.size or not (np.sort(level0) == root_keys).all():
        return fail(f"level 0 holds {level0.size} classes; expected the {root_keys.size} root classes")
    done.append("representatives canonical, roots right")

    deeper = np.flatnonzero(depth > 0)
    found, at = member(key, sortable(parents[deeper]))
    missing = deeper[~found]
    if missing.size:
        return fail(f"{name(missing[0])} has a parent that is not stored")
    off = deeper[depth[at] != depth[deeper] - 1]
    if off.size:
        return fail(f"{name(off[0])} has its parent at depth {depth[at][depth[at] != depth[deeper] - 1][0]}; "
                    f"expected {depth[off[0]] - 1}")
    height = int(depth.max())
    limit = height if build["complete"] else height - 1
    m = eng.nmoves
    for d in range(0, height + 1):
        rows = np.flatnonzero(depth == d)
        children = eng.expand(reps[rows]).reshape(len(rows), m, -1)
        if d > 0:  # parent one move away
            hit = (children == parents[rows][:, None, :]).all(axis=2).any(axis=1)
            if not hit.all():
                return fail(f"{name(rows[np.argmin(hit)])} is not one move from its parent")
        if d <= limit:  # neighbours at most one level deeper
            near = distinct(sortable(children.reshape(len(rows) * m, -1)))
            ok, at = member(key, near)
            if not ok.all():
                return fail(f"a class at depth {d} has a neighbour that is not stored: "
                            f"{layout.to_int(unsortable(near[~ok][:1], layout.words)[0])}")
            if (depth[at] > d + 1).any():
                return fail(f"a class at depth {d} has a neighbour at depth {depth[at].max()}; "
                            f"expected at most {d + 1}")
    done.append("parents one level up and one move away")
    done.append("neighbours at most one level deeper")

    stored = {r["depth"]: (r["classes"], r["states"]) for r in store.level_rows(n, c, root)}
    for d in range(height + 1):
        at_d = depth == d
        got = (int(at_d.sum()), int(orbits[at_d].sum()))
        if stored.get(d) != got:
            return fail(f"levels row for depth {d} says {stored.get(d)} (classes, states); the classes table has {got}")
    if (build["classes"], build["states"], build["height"]) != (len(reps), int(orbits.sum()), height):
        return fail(f"build row totals ({build['classes']} classes, {build['states']} states, height "
                    f"{build['height']}) differ from the classes table")
    done.append("levels and build row match")

    true_orbits = eng.orbit_sizes(reps)
    wrong = np.flatnonzero(true_orbits != orbits)
    if wrong.size:
        return fail(f"{name(wrong[0])} has orbit_size {orbits[wrong[0]]}; expected {true_orbits[wrong[0]]}")
    if build["complete"] and int(orbits.sum()) != eng.puzzle.states:
        return fail(f"orbit sizes add up to {int(orbits.sum())}; expected {eng.puzzle.states} states")
    done.append("orbit sizes right" + (", summing to all states" if build["complete"] else ""))
    return Report(n, c, root, True, len(reps), int(orbits.sum()), bool(build["complete"]), None, tuple(done))
