"""The page (wsdb/web/static) in headless Chromium, driven by Playwright
with real clicks, drags and keys against a real server: paint, solve, step
through the animation, read the moves back and check them with `wsdb apply`."""

import json
import os
import shutil

import pytest

import wsdb
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.web import create_app

from .serving import serving

CHROMIUM = os.environ.get("WSDB_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason=f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
    ),
]


@pytest.fixture(scope="module")
def server(db4):
    with serving(create_app(db4, max_time_limit=20)) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    pg = browser.new_page(viewport={"width": 1200, "height": 800})
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server)
    pg.wait_for_selector('#grid [data-cell="15"]')
    pg.wait_for_function("document.getElementById('check').textContent.includes('fit')")
    yield pg
    pg.close()
    assert not errors, errors


def shown(page) -> str:
    return page.get_attribute("#grid", "data-state")


def paint_to(page, target: str):
    """Paint the grid into ``target`` with clicks: a palette colour, then the cells."""
    now = shown(page).replace("/", "")
    for k in sorted(set(target.replace("/", ""))):
        cells = [i for i, (a, b) in enumerate(zip(now, target.replace("/", ""))) if b == k and a != b]
        if cells:
            page.click(f'#palette [data-colour="{k}"]')
        for i in cells:
            page.click(f'#grid [data-cell="{i}"]')
    assert shown(page) == target


def test_paint_solve_and_replay(page, run, db4):
    target = format_state(random_states(wrapslide(4, 4), 1, seed=23)[0])
    exact = wsdb.lookup(target, db=db4).distance
    paint_to(page, target)
    page.wait_for_function(f"document.getElementById('distance').textContent.includes('{exact} moves')")
    assert "fit" in page.inner_text("#check")

    page.click("#solve")
    page.wait_for_selector("#result:not([hidden])", timeout=60_000)
    moves = page.locator("#moves li").all_inner_texts()
    assert len(moves) == exact and page.inner_text("#r-optimal").startswith("yes")
    assert page.inner_text("#r-time").endswith("no search (read from the database)")  # a stored answer
    applied = run("apply", target, *moves, "--json")
    frames = json.loads(applied.stdout)["states"]
    assert json.loads(applied.stdout)["solved"]

    for i in range(1, exact + 1):  # step forwards, watching the slide land
        if i == 1:  # the half that moves slides, its copy wrapping in
            assert (
                page.evaluate(
                    "() => { document.getElementById('forward').click();"
                    " return document.querySelectorAll('#grid .ghost').length; }"
                )
                == 4 * 4 // 2
            )
            page.emulate_media(reduced_motion="reduce")  # then each state at once, as a player may ask
        else:
            page.click("#forward")
        page.wait_for_function(f"document.getElementById('step').textContent.startsWith('move {i} of')")
        assert shown(page) == frames[i]
        assert i == 1 or page.locator("#grid .ghost").count() == 0
    assert "solved" in page.inner_text("#step")
    page.click("#back")
    page.wait_for_function(f"document.getElementById('step').textContent.startsWith('move {exact - 1} of')")
    assert shown(page) == frames[exact - 1]
    page.click("#first")
    assert shown(page) == frames[0]
    page.click("#play")  # play to the end, pause, play on
    page.wait_for_function("document.getElementById('step').textContent.startsWith('move 2 of')")
    page.click("#play")
    paused = page.inner_text("#step")
    page.wait_for_timeout(1500)
    assert page.inner_text("#step") == paused
    page.click("#play")
    page.wait_for_function("document.getElementById('step').textContent.includes('solved')", timeout=30_000)
    assert shown(page) == frames[-1]


def test_drag_and_keyboard_paint(page):
    cell = page.locator('#grid [data-cell="0"]').bounding_box()
    size = cell["width"]
    page.click('#palette [data-colour="2"]')
    page.mouse.move(cell["x"] + size / 2, cell["y"] + size / 2)
    page.mouse.down()
    page.mouse.move(cell["x"] + 3.5 * size, cell["y"] + size / 2, steps=12)  # along the top row
    page.mouse.up()
    assert shown(page).split("/")[0] == "2222"
    assert "do not fit" in page.inner_text("#check") and "2 fewer of colour 2" in page.inner_text("#check")
    page.focus("#grid")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("1")  # row 2, column 1 becomes colour 1
    assert shown(page).split("/")[1][0] == "1"
    page.click("#solve")
    assert "colour counts do not fit" in page.inner_text("#message")


def test_bad_state_shows_the_cli_message(page, run):
    bad = "1212/3434/1243/342"
    page.fill("#state-text", bad)
    page.click("#load")
    page.wait_for_selector("#message:not([hidden])")
    cli = run("lookup", bad)
    assert cli.exit_code == 2 and cli.stderr.strip() == "wsdb: " + page.inner_text("#message")
    assert shown(page) == "1122/1122/3344/3344"  # the grid is untouched


def test_text_random_length_only_and_sizes_without_database(page, db4):
    page.fill("#state-text", "baba abab bbbb bbbb")  # any accepted form, normalised like the CLI
    page.click("#load")
    page.wait_for_function("document.getElementById('grid').dataset.state === '2121/1212/2222/2222'")
    assert page.input_value("#colours") == "2"
    page.click("#random")
    page.wait_for_function("document.getElementById('distance').textContent.includes('Exact distance')")
    page.check('input[value="length"]')
    page.click("#solve")
    page.wait_for_selector("#result:not([hidden])")
    assert page.locator("#replay").is_hidden()
    assert int(page.inner_text("#r-length").split()[0]) == wsdb.lookup(shown(page), db=db4).distance
    page.fill("#random-depth", "6")  # 4x4 two colours' God number: its 220 antipodes
    page.click("#random")
    page.wait_for_function("document.getElementById('distance').textContent.includes('Exact distance: 6')")
    assert wsdb.lookup(shown(page), db=db4).distance == 6
    page.fill("#random-depth", "7")
    page.click("#random")
    page.wait_for_selector("#message:not([hidden])")
    assert "expected 0 to 6, its God number" in page.inner_text("#message")
    page.fill("#random-depth", "")
    page.click("#solved")
    assert shown(page) == "1122/1122/2222/2222"
    page.select_option("#size", "6")
    page.select_option("#colours", "3")
    page.wait_for_function("document.querySelectorAll('#grid .cell').length === 36")
    page.click("#random")
    page.wait_for_function("document.getElementById('distance').textContent.includes('wsdb build --n 6 --c 3')")
    page.click("#solve")  # no 6x6 tree here: the answer names both builds it lacks, in a sentence, once each
    page.wait_for_selector("#result:not([hidden])", timeout=60_000)
    note = page.inner_text("#r-note")
    assert page.inner_text("#r-time").endswith("M nodes of work")  # a search
    assert note.startswith("For shorter answers build the 6x6 trees of 2 and 3 colours:"), note
    assert note.count("wsdb build --n 6 --c 3") == 1 and "wsdb build --n 6 --c 2" in note, note


def test_a_first_solve_says_it_derives_tables(browser, tmp_path, monkeypatch):
    """While the first solve of a grid derives the solver's deeper trees the
    page says so, with the server's estimate; the next solve does not."""
    import time

    from wsdb.solver import settings

    monkeypatch.setitem(settings.DERIVED, (6, 3), (3, 4))  # a small tree derives in a second
    db = tmp_path / "d.sqlite"
    wsdb.build(6, 3, db=db, max_depth=2)
    with serving(create_app(db, max_time_limit=20)) as url:
        pg = browser.new_page(viewport={"width": 1200, "height": 800})
        pg.route("**/api/solve", lambda route: (time.sleep(1.0), route.continue_()))  # time to read the line
        pg.goto(url)
        pg.wait_for_selector('#grid [data-cell="15"]')
        pg.fill("#state-text", format_state(random_states(wrapslide(6, 3), 1, seed=4)[0]))
        pg.click("#load")
        pg.wait_for_function("document.querySelectorAll('#grid .cell').length === 36")
        pg.click("#solve")
        pg.wait_for_selector("#deriving:not([hidden])")
        minutes = settings.DERIVE_MINUTES[6, 3]
        assert (
            f"the first 6×6 solve on this server derives the solver's tables, once: about {minutes} min"
            in pg.inner_text("#working")
        )
        pg.wait_for_selector("#result:not([hidden])", timeout=60_000)
        pg.click("#solve")
        pg.wait_for_selector("#working:not([hidden])")
        assert pg.locator("#deriving").is_hidden()
        pg.wait_for_selector("#result:not([hidden])", timeout=60_000)
        pg.close()
