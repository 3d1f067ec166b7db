"""The documentation describes what exists: the datasette metadata names
every table and column of the schema and nothing else, and the files the
README links to are there."""

import itertools
import json
import re
from pathlib import Path

import pytest

from wsdb.db.schema import metadata, views
from wsdb.puzzle import wrapslide
from wsdb.bounds.arguments import continuations

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.reads_files


def test_datasette_metadata_matches_the_schema():
    meta = json.loads((ROOT / "wsdb" / "db" / "datasette.json").read_text())
    tables = meta["databases"]["wsdb"]["tables"]
    schema = {**metadata.tables, **views.tables}
    assert set(tables) == set(schema)
    for name, table in schema.items():
        assert set(tables[name]["columns"]) == {c.name for c in table.columns}, name
        assert all(text.strip() for text in tables[name]["columns"].values())


def test_datasette_queries_are_the_cookbooks():
    """The canned queries installed with the package are docs/sql.md's, as
    scripts/datasette_queries.py copies them."""
    import subprocess
    import sys

    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "datasette_queries.py"), "--check"])
    assert res.returncode == 0, "wsdb/db/datasette.json is out of date: run python scripts/datasette_queries.py"


def test_readme_links_point_at_files():
    text = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(([^)#]+)\)", text)
    assert links and all((ROOT / link).exists() for link in links), links


USER_DOCS = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", USER_DOCS)
def test_links_in_the_docs_point_at_files(page):
    path = ROOT / page
    links = [link for link in re.findall(r"\]\(([^)#]+)\)", path.read_text()) if "://" not in link]
    assert all((path.parent / link).exists() for link in links), links


def test_the_readme_is_a_front_door():
    # about 200 lines: what wsdb is, the two set-up commands on the first screen, a tour, the topic pages
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 220
    first_screen = "\n".join(lines[:45])
    assert "pip install -e ." in first_screen and "bash .ci/run" in first_screen


@pytest.mark.parametrize("page", USER_DOCS)
def test_user_docs_tell_what_holds_not_how_it_got_there(page):
    # the history of a figure (issues, tried and not kept) belongs in CHANGELOG.md
    text = (ROOT / page).read_text()
    assert not re.findall(r"\bissue \d+|tried and not kept", text, re.I)


@pytest.mark.parametrize("page", USER_DOCS)
def test_generated_tables_say_where_they_were_measured(page):
    # every block a script writes (scripts/docs_tables.py) is closed, and once
    # filled starts with the date, the wsdb measured (version and revision) and the machine
    text = (ROOT / page).read_text()
    begins = re.findall(r"<!-- begin (\S+) -->", text)
    assert begins == re.findall(r"<!-- end (\S+) -->", text)
    for name in begins:
        body = re.search(rf"<!-- begin {name} -->\n(.*?)<!-- end {name} -->", text, re.S).group(1)
        assert re.match(
            r"\*Measured \d{4}-\d\d-\d\d with wsdb [\w.]+\+g[0-9a-f]+(\.changes)? on \d+ cores, \d+ GiB", body
        ), (page, name)


def test_the_move_sequences_a_bound_of_18_on_8x8_needs_are_the_pruning_tables_count():
    # docs/solver.md says how many sequences of 8 moves proving 18 would score;
    # the count is the pruning table's (tests/bounds/test_arguments.py checks it by enumeration)
    p = wrapslide(8, 4)
    eight = next(itertools.islice(continuations(p.blocked, p.move_family), 8, None))[-1]  # from the start
    assert f"({eight:,} of them" in (ROOT / "docs" / "solver.md").read_text()
