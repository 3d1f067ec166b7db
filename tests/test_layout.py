"""The package's layers (docs/architecture.md): subpackages import only the
ones below them, numba lives only in the kernels, SQL only in the db layer."""

import ast
from pathlib import Path

import pytest

import wsdb

PACKAGE = Path(wsdb.__file__).parent
#: lower imports nothing higher; errors.py is the shared base of all layers. A
#: floor of several packages (bounds beside stats) holds neighbours that import
#: nothing from each other.
LAYERS = [("errors", "version"), ("notices",), ("puzzle",), ("engine",), ("db",), ("solver",), ("bounds", "stats")]
TOP = len(LAYERS)  # cli, web, the package __init__ and anything else on top


def package(module: str) -> str:
    """The subpackage (or top module) of a dotted module name inside wsdb."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "wsdb":
        raise ValueError(module)
    return parts[1]


def layer(module: str) -> int:
    """The layer of a dotted module name inside wsdb."""
    top = package(module)
    return next((k for k, floor in enumerate(LAYERS) if top in floor), TOP)


def imports(module: str, source: str) -> set[str]:
    """Absolute names of the wsdb modules (and third-party top names) that
    ``source`` imports; ``module`` is its own dotted name, for relative imports."""
    here = module.split(".")
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module
            out.add(name)
            out |= {f"{name}.{a.name}" for a in node.names if name.startswith("wsdb")}
    return out


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1] + ["__init__"]
        yield ".".join(parts), path.read_text()


def upward(module: str, source: str) -> list[str]:
    """The imports of ``module`` that reach a higher layer."""
    mine = layer(module)
    if mine == TOP:
        return []
    bad = []
    for name in imports(module, source):
        if name.startswith("wsdb.") and (
            layer(name) > mine or (layer(name) == mine and package(name) != package(module))
        ):
            bad.append(name)
        if name == "wsdb":  # the package __init__ sits on top
            bad.append(name)
    return sorted(bad)


def test_subpackages_import_only_downward():
    problems = {m: upward(m, src) for m, src in modules()}
    assert {m: b for m, b in problems.items() if b} == {}


def test_the_check_catches_an_upward_import():
    assert upward("wsdb.db.store", "from ..solver.guide import Guide\n") == [
        "wsdb.solver.guide",
        "wsdb.solver.guide.Guide",
    ]
    assert upward("wsdb.puzzle.text", "from .. import __version__\n") == ["wsdb", "wsdb.__version__"]
    assert upward("wsdb.engine.keys", "import wsdb.db.store\n") == ["wsdb.db.store"]
    assert upward("wsdb.solver.beam", "from ..db.store import Store\n") == []
    # bounds and stats share a floor: neither imports the other, both import the solver's floor and below
    assert upward("wsdb.stats.figures", "from ..bounds.arguments import Bound\n") == [
        "wsdb.bounds.arguments",
        "wsdb.bounds.arguments.Bound",
    ]
    assert upward("wsdb.bounds.merging", "from ..stats import figures\n") == ["wsdb.stats", "wsdb.stats.figures"]
    assert upward("wsdb.bounds.merging", "from ..solver.solve import iter_solve\n") == []
    assert upward("wsdb.solver.solve", "from ..bounds.proof import at_least\n") == [
        "wsdb.bounds.proof",
        "wsdb.bounds.proof.at_least",
    ]


def test_stats_reads_tables_and_never_the_solver():
    """stats/ holds figures, pictures and exports of the public tables: the
    solver (and the bounds, which prove with it) are not its to import."""
    users = {
        m: sorted(i for i in imports(m, src) if i.startswith(("wsdb.solver", "wsdb.bounds")))
        for m, src in modules()
        if m.startswith("wsdb.stats")
    }
    assert {m: i for m, i in users.items() if i} == {}


@pytest.mark.parametrize(
    "library, allowed",
    [
        (
            "numba",
            {
                "wsdb.engine.kernels",
                "wsdb.engine.rank_kernels",
                "wsdb.engine.packed_kernels",
                "wsdb.engine.subset_kernels",
                "wsdb.engine.intrinsics",
                "wsdb.solver.kernels",
                "wsdb.solver.pair_kernels",
                "wsdb.solver.visit_kernels",
                "wsdb.solver.value_kernels",
                "wsdb.engine.compiling",
                "wsdb.bounds.lifting_kernels",
            },
        ),
        (
            "sqlalchemy",
            {
                "wsdb.db.store",
                "wsdb.db.schema",
                "wsdb.db.connection",
                "wsdb.db.lease",
                "wsdb.db.location",
                "wsdb.db.schema_history",
                "wsdb.db.migrations.*",
            },
        ),
        ("alembic", {"wsdb.db.store", "wsdb.db.connection", "wsdb.db.schema_history", "wsdb.db.migrations.*"}),
    ],
)
def test_libraries_stay_in_their_layer(library, allowed):
    def ok(module):
        return module in allowed or any(a.endswith(".*") and module.startswith(a[:-1]) for a in allowed)

    users = {m for m, src in modules() if any(i.split(".")[0] == library for i in imports(m, src))}
    assert {m for m in users if not ok(m)} == set()


def module_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Which wsdb modules each module imports, at the top or inside a
    function alike (an import inside a function hides a circle, it does
    not remove it). ``from . import kernels`` depends on the module
    ``kernels``; ``from ..engine import Engine`` on the package's
    ``__init__``."""
    known = set(sources)

    def node(name: str) -> str | None:
        for candidate in (name, f"{name}.__init__"):
            if candidate in known:
                return candidate
        return None

    graph = {}
    for module, source in sources.items():
        here = module.split(".")
        deps = set()
        for st in ast.walk(ast.parse(source)):
            if isinstance(st, ast.Import):
                targets = [node(a.name) for a in st.names]
            elif isinstance(st, ast.ImportFrom):
                base = (
                    ".".join(here[: len(here) - st.level] + ([st.module] if st.module else []))
                    if st.level
                    else st.module
                )
                # each imported name: a submodule where there is one, else the module it is defined in
                targets = [node(f"{base}.{a.name}") or node(base) for a in st.names]
            else:
                continue
            deps |= {t for t in targets if t is not None and t != module}
        graph[module] = deps
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected groups of more than one module
    (Tarjan's algorithm), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles():
    assert circles(module_graph(dict(modules()))) == []


def test_the_circle_check_finds_a_hidden_circle():
    # a circle hidden by an import inside a function is still a circle
    sources = {
        "wsdb.db.build": "from .census import ranked_table\n",
        "wsdb.db.census": "def f():\n    from .build import grow\n",
        "wsdb.db.store": "import numpy\n",
    }
    assert circles(module_graph(sources)) == [["wsdb.db.build", "wsdb.db.census"]]
    sources["wsdb.db.census"] = "import numpy\n"
    assert circles(module_graph(sources)) == []
