"""The other puzzles' page (/puzzles, wsdb/web/static/puzzles.*) in headless
Chromium against a real server: swap cells with clicks, look up, solve,
step to the goal; the answers are checked with the library's lookup and
replay."""

import shutil

import pytest

import wsdb
from wsdb.db.build import build_puzzle, build_sliding
from wsdb.puzzle.catalog import get_puzzle
from wsdb.puzzle.replay import replay
from wsdb.puzzle.sliding import SlidingPuzzle
from wsdb.web import create_app

from .serving import serving
from .test_page import CHROMIUM, FLAGS

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason=f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
    ),
]


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    db = tmp_path_factory.mktemp("page") / "p.sqlite"
    build_puzzle(get_puzzle("rubeish", 3), db=db)
    build_sliding(SlidingPuzzle(2, 3), db=db)
    return db


@pytest.fixture(scope="module")
def url(trees):
    with serving(create_app(trees)) as base:
        yield base + "puzzles"


@pytest.fixture
def page(url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        pg = browser.new_page(viewport={"width": 1200, "height": 760})
        errors = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(url)
        pg.wait_for_selector('#grid [data-cell="8"]')
        yield pg
        assert errors == []
        browser.close()


def state(pg):
    return pg.get_attribute("#grid", "data-state")


def test_swapping_cells_looks_up_and_solve_steps_to_the_goal(page, trees):
    assert state(page) == "123/456/789" and page.is_hidden("#cols-label")
    for a, b in ((0, 4), (1, 8)):  # two swaps: an even permutation, reachable in Rube-ish
        page.click(f'#grid [data-cell="{a}"]')
        page.click(f'#grid [data-cell="{b}"]')
    start = state(page)
    assert start == "593/416/782"
    exact = wsdb.lookup(start, db=trees, puzzle="rubeish").distance
    page.wait_for_function(f"document.getElementById('distance').textContent.includes('{exact} moves')")
    page.click("#solve")
    page.wait_for_selector("#result:not([hidden])")
    moves = page.locator("#moves li").all_text_contents()
    assert len(moves) == exact and page.text_content("#r-optimal").startswith("yes")
    assert replay(start, moves, "rubeish").result == "123/456/789"
    page.click("#forward")
    assert state(page) == replay(start, moves[:1], "rubeish").result
    page.click("#last")
    assert state(page) == "123/456/789" and "at the goal" in page.text_content("#step")


@pytest.mark.slow  # 3 s: the same page as the swapping test above, on a sliding board
def test_a_sliding_board_from_random_to_the_goal(page, trees):
    page.select_option("#puzzle", "sliding")
    page.fill("#rows", "2")
    page.fill("#cols", "3")
    page.click("#board-go")
    page.wait_for_function("document.getElementById('grid').dataset.state === '123/45_'")
    page.click("#random")
    page.wait_for_function("document.getElementById('distance').textContent.includes('Exact')")
    start = state(page)
    page.click("#solve")
    page.wait_for_selector("#result:not([hidden])")
    moves = page.locator("#moves li").all_text_contents()
    assert len(moves) == wsdb.lookup(start, db=trees, puzzle="sliding").distance
    page.click("#last")
    assert state(page) == "123/45_"


def test_an_unreachable_state_is_said_in_one_line(page):
    page.click('#grid [data-cell="0"]')
    page.click('#grid [data-cell="1"]')  # one swap: an odd permutation
    page.wait_for_function("document.getElementById('distance').textContent.includes('cannot be reached')")


def test_the_api_answers_for_other_puzzles_as_the_library_does(trees):
    from fastapi.testclient import TestClient

    client = TestClient(create_app(trees))
    board = client.get("/api/board", params={"puzzle": "sliding", "n": 2, "m": 3}).json()
    assert board["solved"] == "123/45_" and board["build"]["states"] == 360 and board["cols"] == 3
    drawn = client.get("/api/random", params={"puzzle": "rubeish", "n": 3, "seed": 4}).json()
    got = client.post("/api/lookup", json={"state": drawn["state"], "puzzle": "rubeish"}).json()
    assert got == wsdb.lookup(drawn["state"], db=trees, puzzle="rubeish").to_dict()
    bad = client.post("/api/lookup", json={"state": "213/456/789", "puzzle": "rubeish"})
    assert bad.status_code == 400 and "cannot be reached" in bad.json()["detail"]
    missing = client.get("/api/board", params={"puzzle": "rotate2x2", "n": 3}).json()
    assert missing["build"] is None and missing["hint"] == "wsdb build --puzzle rotate2x2 --n 3"
