"""Copy docs/sql.md's tested queries into the datasette metadata that is
installed with the package (wsdb/db/datasette.json), as canned queries:
each `-- name: NAME` block becomes the query NAME, titled by its heading.

    python scripts/datasette_queries.py          # rewrite the file
    python scripts/datasette_queries.py --check  # exit 1 if it is out of date

tests/test_docs.py checks that the two agree.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "sql.md"
META = ROOT / "wsdb" / "db" / "datasette.json"


def cookbook() -> dict[str, dict]:
    """{name: {"title", "sql"}} of every query on docs/sql.md, in page order."""
    out = {}
    for title, block in re.findall(r"^### \d+\. (.+?)\n.*?```sql\n(.*?)```", PAGE.read_text(), re.S | re.M):
        name = re.match(r"-- name: (\w+)\n", block)
        if not name:
            raise SystemExit(f"a query under '{title}' has no '-- name:' line")
        out[name.group(1)] = {"title": title.strip(), "sql": block[name.end() :].strip()}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 if the metadata's queries differ from the page's")
    args = ap.parse_args()
    meta = json.loads(META.read_text())
    queries = cookbook()
    if args.check:
        sys.exit(0 if meta["databases"]["wsdb"].get("queries") == queries else 1)
    meta["databases"]["wsdb"]["queries"] = queries
    META.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {len(queries)} canned queries into {META.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
