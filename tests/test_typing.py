"""A user's script type-checked against the installed package (py.typed,
the TYPE_CHECKING imports behind the lazy names): mypy sees wsdb.lookup's
Answer and wsdb.solve's Solution, not Any, and catches a wrong use."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import wsdb

pytestmark = [pytest.mark.integration, pytest.mark.slow]  # mypy reads the package and numpy: a minute cold
pytest.importorskip("mypy")

SCRIPT = """
import wsdb

ans = wsdb.lookup("1212/3434/1243/3421", db="x.sqlite")
reveal_type(ans)
reveal_type(ans.distance)
sol = wsdb.solve("1212/3434/1243/3421")
reveal_type(sol)
wrong: str = ans.distance
"""


def test_mypy_sees_the_real_types(tmp_path):
    script = tmp_path / "user.py"
    script.write_text(SCRIPT)
    # an editable install hides the package from mypy (an import hook, not a path): point it at the
    # source, as a wheel's site-packages would (the wheel's py.typed: tests/test_packaging.py)
    env = dict(os.environ, MYPYPATH=str(Path(wsdb.__file__).resolve().parents[1]))
    res = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache"), str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    out = res.stdout
    assert 'Revealed type is "wsdb.db.lookup.Answer"' in out, out
    assert 'Revealed type is "int | None"' in out or 'Revealed type is "builtins.int | None"' in out, out
    assert 'Revealed type is "wsdb.solver.results.Solution"' in out, out
    assert "Incompatible types in assignment" in out and res.returncode == 1  # the wrong use is caught
