"""The documentation describes what exists: the datasette metadata names
every table and column of the schema and nothing else, and the files the
README links to are there."""
import json
import re
from pathlib import Path

import pytest

from wsdb.db.schema import metadata, views

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.reads_files


def test_datasette_metadata_matches_the_schema():
    meta = json.loads((ROOT / "docs" / "datasette.json").read_text())
    tables = meta["databases"]["wsdb"]["tables"]
    schema = {**metadata.tables, **views.tables}
    assert set(tables) == set(schema)
    for name, table in schema.items():
        assert set(tables[name]["columns"]) == {c.name for c in table.columns}, name
        assert all(text.strip() for text in tables[name]["columns"].values())


def test_readme_links_point_at_files():
    text = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(([^)#]+)\)", text)
    assert links and all((ROOT / link).exists() for link in links), links
