"""docs/notebooks/tour.ipynb runs from top to bottom in a real Jupyter
kernel (nbclient), and its answers are the facts they claim: the thesis'
4x4 God numbers, a distance the CLI gives, figures drawn inline, errors
that are the builtins they mean."""

import json
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.reads_files]
nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

TOUR = Path(__file__).resolve().parents[1] / "docs" / "notebooks" / "tour.ipynb"


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    nb = nbformat.read(TOUR, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "commit the tour without outputs"
    nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path_factory.mktemp("tour"))}}
    ).execute()
    return [c for c in nb.cells if c.cell_type == "code"]


def _text(cell) -> str:
    return "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in cell.outputs)


def test_the_tour_runs_without_an_error(ran):
    assert not [o for c in ran for o in c.outputs if o.output_type == "error"]


def test_its_answers_are_the_facts(ran, thesis, run, db4):
    summary = next(c for c in ran if "wsdb.stats.summary" in c.source)
    html = summary.outputs[0]["data"]["text/html"]
    for c in (2, 3, 4):  # the God numbers as the DataFrame shows them
        assert f"<td>{thesis['god_numbers'][f'4x4_c{c}']}</td>" in html
    lookup = next(c for c in ran if "wsdb.lookup(" in c.source and "try" not in c.source)
    cli = json.loads(run("lookup", "1212/3434/1243/3421", "--json", "--db", db4).stdout)
    assert _text(lookup) == repr((cli["distance"], " ".join(cli["moves"])))
    solve = next(c for c in ran if "wsdb.solve(" in c.source)
    assert _text(solve) == repr((cli["distance"], cli["distance"], True))  # exact on a stored tree


def test_figures_are_drawn_inline_once(ran):
    drawn = [c for c in ran if "plot_" in c.source]
    assert len(drawn) == 2
    for cell in drawn:
        pngs = [o for o in cell.outputs if "image/png" in o.get("data", {})]
        assert len(pngs) == 1, cell.source


def test_errors_are_the_builtins_they_mean(ran):
    errors = next(c for c in ran if "except ValueError" in c.source)
    said = _text(errors)
    assert "StateError - state has 15 cells" in said and "NotBuiltError - " in said and "wsdb build --n 6 --c 4" in said
