#!/usr/bin/env python3
"""Screenshots of `wsdb serve` for the docs, taken in headless Chromium.

Starts the server over DB on a free loopback port, paints and solves as a
player would, and writes PNGs to OUT. The database should hold the 4x4
four-colour tree, the 6x6 two-colour tree and the default 6x6 four-colour
one (the 6x6 shot solves a four-colour state beyond the latter, guided by
the former):

    wsdb build --n 4 --c 4 && wsdb build --n 6 --c 2 && wsdb build --n 6 --c 4
    wsdb build --puzzle rubeish --n 3            # for the other puzzles' page
    python scripts/screenshots.py --db db/wsdb.sqlite --out docs/img
    python scripts/screenshots.py --only puzzles  # just that page's shot
"""

from __future__ import annotations

import argparse
import socket
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.web import create_app

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def start(db) -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=srv.run, daemon=True).start()
    while not srv.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}/"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default="db/wsdb.sqlite")
    ap.add_argument("--out", default="docs/img")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--only", choices=["wrapslide", "puzzles"], help="one page's shots only")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    url = start(args.db)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=FLAGS)
        page = browser.new_page(viewport={"width": 1180, "height": 760})
        if args.only != "wrapslide":
            puzzles_page(page, url, out)
        if args.only == "puzzles":
            browser.close()
            return
        page.goto(url)
        page.wait_for_selector('#grid [data-cell="15"]')

        state = format_state(random_states(wrapslide(4, 4), 1, seed=23)[0])
        page.fill("#state-text", state)
        page.click("#load")
        page.wait_for_function("document.getElementById('distance').textContent.includes('Exact')")
        page.click('#palette [data-colour="3"]')
        page.click('#grid [data-cell="0"]')  # one cell off: the live check speaks
        page.screenshot(path=str(out / "paint.png"))

        page.fill("#state-text", state)
        page.click("#load")
        page.wait_for_function(f"document.getElementById('grid').dataset.state === '{state}'")
        page.click("#solve")
        page.wait_for_selector("#result:not([hidden])", timeout=120_000)
        page.click("#forward")
        page.wait_for_function("document.getElementById('step').textContent.startsWith('move 1')")
        page.click("#forward")
        page.wait_for_timeout(250)  # mid-slide
        page.screenshot(path=str(out / "solve.png"))

        page.fill("#state-text", "1212/3434/1243/342")
        page.click("#load")
        page.wait_for_selector("#message:not([hidden])")
        page.screenshot(path=str(out / "bad-input.png"))

        page.fill("#state-text", format_state(random_states(wrapslide(6, 4), 1, seed=5)[0]))
        page.click("#load")
        page.wait_for_function("document.querySelectorAll('#grid .cell').length === 36")
        page.click("#solve")
        page.wait_for_selector("#result:not([hidden])", timeout=300_000)
        page.screenshot(path=str(out / "solve-6x6.png"), full_page=True)
        browser.close()
    print("\n".join(str(p) for p in sorted(out.glob("*.png"))))


def puzzles_page(page, url: str, out: Path) -> None:
    """The other puzzles' page: a Rube-ish state two swaps from the goal,
    solved, two moves into the replay."""
    page.goto(url + "puzzles")
    page.wait_for_selector('#grid [data-cell="8"]')
    page.wait_for_function("document.getElementById('tree').textContent !== ''")
    for a, b in ((0, 4), (1, 8)):
        page.click(f'#grid [data-cell="{a}"]')
        page.click(f'#grid [data-cell="{b}"]')
    page.wait_for_function("document.getElementById('distance').textContent.includes('moves')")
    page.click("#solve")
    page.wait_for_selector("#result:not([hidden])")
    page.click("#forward")
    page.click("#forward")
    page.screenshot(path=str(out / "puzzles.png"))


if __name__ == "__main__":
    main()
